/* Bad input to a 3-D ball world through swerve's C interface: each refused call returns its
 * status, leaves a message, writes none of its outputs and changes nothing. Exits 0 and
 * prints "all checks passed" when every check holds, and prints each one that does not. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

static SwerveVec3 vec3(float x, float y, float z) {
  SwerveVec3 v;
  v.x = x;
  v.y = y;
  v.z = z;
  return v;
}

static int same_sphere(const SwerveSphere *a, const SwerveSphere *b) { return memcmp(a, b, sizeof *a) == 0; }

static size_t num_spheres(const SwerveWorld3d *world) {
  size_t n = 12345;
  CHECK(swerve_world3d_num_spheres(world, &n) == SWERVE_STATUS_OK);
  return n;
}

static size_t num_triangles(const SwerveWorld3d *world) {
  size_t n = 12345;
  CHECK(swerve_world3d_num_triangles(world, &n) == SWERVE_STATUS_OK);
  return n;
}

/* Every sphere's whole state, to compare before and after a refused call. */
static int same_world(const SwerveWorld3d *world, const SwerveSphere *saved, size_t n) {
  SwerveSphere now[8];
  size_t count = 0;
  CHECK(swerve_world3d_spheres(world, now, 8, &count) == SWERVE_STATUS_OK);
  return count == n && memcmp(now, saved, n * sizeof *saved) == 0;
}

int main(void) {
  SwerveWorld3d *world = NULL;
  SwerveWorld3d *untouched = (SwerveWorld3d *)&failures; /* a marker, never dereferenced */
  SwerveBounds3d bounds, bad_bounds, got_bounds;
  SwerveSphere sphere, bad, got, several[3], saved[8];
  SwerveVec3 v, buffer[4], gravity;
  SwerveVec3d momentum;
  SwerveRayHit3d hit;
  SwerveContact3d contacts[2];
  SwerveTriangle triangles[4];
  SwerveStepStats stats;
  const char *name = NULL;
  uint32_t id = 7, a, b, ids[4], indices[6];
  SwerveVec3 vertices[4];
  size_t count = 0, n, k, saved_count;
  float number;
  double energy;
  bool flag;

  /* ----- creating a world ----- */
  bounds.min = vec3(0.0f, 0.0f, 0.0f);
  bounds.max = vec3(10.0f, 10.0f, 10.0f);
  CHECK(swerve_world3d_new(&bounds, "quadtree", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(untouched == (SwerveWorld3d *)&failures);
  CHECK(message_mentions("unknown 3-D broad phase \"quadtree\""));
  CHECK(message_mentions("octree")); /* it lists the names */
  CHECK(swerve_world3d_new(&bounds, "aabb-tree", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_new(&bounds, "", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_new(&bounds, "\xff\xfe", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("broad phase"));
  CHECK(swerve_world3d_new(&bounds, NULL, &untouched) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("broad_phase is a null pointer"));
  CHECK(swerve_world3d_new(&bounds, "octree", NULL) == SWERVE_STATUS_NULL_POINTER);
  bad_bounds = bounds;
  bad_bounds.max.z = 0.0f; /* flat */
  CHECK(swerve_world3d_new(&bad_bounds, "octree", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("bounds size"));
  bad_bounds = bounds;
  bad_bounds.max.y = NAN;
  CHECK(swerve_world3d_new(&bad_bounds, "octree", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("bounds max must be finite"));
  bad_bounds = bounds;
  bad_bounds.min.x = -INFINITY;
  CHECK(swerve_world3d_new(&bad_bounds, "octree", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(untouched == (SwerveWorld3d *)&failures);
  CHECK(swerve_world3d_new(&bounds, "uniform-grid", &world) == SWERVE_STATUS_OK);
  CHECK(world != NULL);
  CHECK(message_mentions("bounds min must be finite")); /* a success leaves the message */
  CHECK(swerve_world3d_bounds(world, &flag, &got_bounds) == SWERVE_STATUS_OK);
  CHECK(flag && got_bounds.max.z == 10.0f && got_bounds.min.y == 0.0f);

  /* ----- spheres ----- */
  CHECK(swerve_sphere_new(vec3(2.0f, 2.0f, 2.0f), vec3(1.0f, 0.0f, 0.0f), 0.5f, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_sphere_new(vec3(2.0f, 2.0f, 2.0f), vec3(1.0f, 0.0f, 0.0f), 0.5f, &sphere) == SWERVE_STATUS_OK);
  CHECK(sphere.mass == 4.0f / 3.0f * 3.14159265f * 0.5f * 0.5f * 0.5f && sphere.restitution == 1.0f);
  CHECK(sphere.friction == 0.0f && sphere.angular_velocity.z == 0.0f);
  CHECK(swerve_world3d_add_sphere(world, &sphere, &a) == SWERVE_STATUS_OK && a == 0);
  sphere.position = vec3(5.0f, 5.0f, 5.0f);
  sphere.velocity = vec3(-1.0f, 0.5f, 0.25f);
  CHECK(swerve_world3d_add_sphere(world, &sphere, &b) == SWERVE_STATUS_OK && b == 1);

  /* Each rule of add_sphere: refused, nothing added, the id left alone. */
  bad = sphere;
  bad.position = vec3(5.0f, 5.0f, 9.8f); /* sticks out of the box's lid */
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("does not fit inside the world's bounds"));
  bad.position = vec3(5.0f, NAN, 5.0f);
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("sphere position must be finite"));
  bad = sphere;
  bad.velocity = vec3(0.0f, 0.0f, INFINITY);
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("sphere velocity"));
  bad = sphere;
  bad.radius = -0.5f;
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("sphere radius must be greater than 0"));
  bad.radius = NAN;
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  bad = sphere;
  bad.mass = 0.0f;
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("sphere mass"));
  bad.mass = NAN;
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  bad = sphere;
  bad.restitution = 1.5f;
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("sphere restitution must be at most 1"));
  bad = sphere;
  bad.friction = -0.1f;
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("sphere friction"));
  bad = sphere;
  bad.angular_velocity = vec3(NAN, 0.0f, 0.0f);
  CHECK(swerve_world3d_add_sphere(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("angular velocity"));
  CHECK(swerve_world3d_add_sphere(world, NULL, &id) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_add_sphere(world, &sphere, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_add_sphere(NULL, &sphere, &id) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("world is a null pointer"));
  CHECK(id == 7);
  CHECK(num_spheres(world) == 2);
  /* A kinematic sphere may start outside the box. */
  CHECK(swerve_sphere_kinematic(vec3(-3.0f, 5.0f, 5.0f), vec3(1.0f, 0.0f, 0.0f), 1.0f, &got) == SWERVE_STATUS_OK);
  CHECK(isinf(got.mass));

  /* add_spheres is all or nothing, and names the first refused sphere. */
  several[0] = sphere;
  several[0].position = vec3(7.0f, 7.0f, 7.0f);
  several[1] = sphere;
  several[1].radius = -1.0f;
  several[2] = sphere;
  several[2].position = vec3(3.0f, 7.0f, 3.0f);
  ids[0] = ids[1] = ids[2] = 99;
  CHECK(swerve_world3d_add_spheres(world, several, 3, ids) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("sphere 1: sphere radius"));
  CHECK(ids[0] == 99 && ids[2] == 99);
  CHECK(num_spheres(world) == 2);
  CHECK(swerve_world3d_add_spheres(world, several, 1, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_add_spheres(world, NULL, 1, ids) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_add_spheres(world, NULL, 0, NULL) == SWERVE_STATUS_OK); /* nothing to add */
  CHECK(num_spheres(world) == 2);

  /* From here the world's two spheres must not change under refused calls. */
  CHECK(swerve_world3d_spheres(world, saved, 8, &saved_count) == SWERVE_STATUS_OK && saved_count == 2);

  /* ----- unknown ids ----- */
  CHECK(swerve_world3d_sphere(world, 99, &got) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("unknown sphere id 99"));
  v = vec3(1.0f, 2.0f, 3.0f);
  CHECK(swerve_world3d_sphere_position(world, 2, &v) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(v.x == 1.0f && v.y == 2.0f && v.z == 3.0f);
  CHECK(swerve_world3d_set_sphere_position(world, 99, vec3(1.0f, 1.0f, 1.0f)) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world3d_set_sphere_velocity(world, 99, vec3(1.0f, 1.0f, 1.0f)) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world3d_set_sphere_angular_velocity(world, 99, vec3(1.0f, 1.0f, 1.0f)) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world3d_apply_impulse(world, 99, vec3(1.0f, 1.0f, 1.0f)) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world3d_set_sphere(world, 99, &sphere) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world3d_remove_sphere(world, 99) == SWERVE_STATUS_UNKNOWN_ID);
  ids[0] = a;
  ids[1] = 99;
  CHECK(swerve_world3d_remove_spheres(world, ids, 2) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("unknown sphere id 99"));
  CHECK(swerve_world3d_remove_spheres(world, NULL, 2) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_contains_sphere(world, 99, &flag) == SWERVE_STATUS_OK && !flag);
  CHECK(swerve_world3d_contains_sphere(world, a, &flag) == SWERVE_STATUS_OK && flag);
  CHECK(same_world(world, saved, saved_count));

  /* ----- setters refuse what add_sphere refuses ----- */
  bad = sphere;
  bad.restitution = -0.5f;
  CHECK(swerve_world3d_set_sphere(world, b, &bad) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_set_sphere(world, b, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_set_sphere_position(world, b, vec3(0.1f, 5.0f, 5.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("does not fit inside the world's bounds"));
  CHECK(swerve_world3d_set_sphere_position(world, b, vec3(5.0f, 5.0f, NAN)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_set_sphere_velocity(world, b, vec3(NAN, 0.0f, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_set_sphere_angular_velocity(world, b, vec3(0.0f, INFINITY, 0.0f)) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_apply_impulse(world, b, vec3(0.0f, 0.0f, NAN)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("impulse must be finite"));
  CHECK(swerve_world3d_apply_impulse(world, b, vec3(3e38f, 0.0f, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("after the impulse"));
  buffer[0] = vec3(5.0f, 5.0f, 5.0f);
  CHECK(swerve_world3d_set_positions(world, buffer, 1) == SWERVE_STATUS_INVALID_ARGUMENT); /* count */
  CHECK(message_mentions("equal to the number of spheres"));
  buffer[0] = vec3(3.0f, 3.0f, 3.0f);
  buffer[1] = vec3(3.0f, 3.0f, 9.9f); /* the second does not fit: neither moves */
  CHECK(swerve_world3d_set_positions(world, buffer, 2) == SWERVE_STATUS_INVALID_ARGUMENT);
  buffer[1] = vec3(NAN, 0.0f, 0.0f);
  CHECK(swerve_world3d_set_velocities(world, buffer, 2) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_set_velocities(world, NULL, 2) == SWERVE_STATUS_NULL_POINTER);
  CHECK(same_world(world, saved, saved_count));

  /* ----- static triangles and meshes ----- */
  CHECK(swerve_world3d_add_triangle(world, vec3(0.0f, 0.0f, 1.0f), vec3(1.0f, 1.0f, 1.0f), vec3(2.0f, 2.0f, 1.0f)) ==
        SWERVE_STATUS_INVALID_ARGUMENT); /* corners in a line */
  CHECK(message_mentions("triangle 0 has no area"));
  CHECK(swerve_world3d_add_triangle(world, vec3(0.0f, 0.0f, 1.0f), vec3(0.0f, 0.0f, 1.0f), vec3(2.0f, 0.0f, 1.0f)) ==
        SWERVE_STATUS_INVALID_ARGUMENT); /* a repeated corner */
  CHECK(swerve_world3d_add_triangle(world, vec3(0.0f, 0.0f, NAN), vec3(1.0f, 0.0f, 1.0f), vec3(0.0f, 1.0f, 1.0f)) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("triangle corner must be finite"));
  CHECK(num_triangles(world) == 0);
  vertices[0] = vec3(0.0f, 0.0f, 1.0f);
  vertices[1] = vec3(10.0f, 0.0f, 1.0f);
  vertices[2] = vec3(10.0f, 10.0f, 1.0f);
  vertices[3] = vec3(0.0f, 10.0f, 1.0f);
  indices[0] = 0;
  indices[1] = 1;
  indices[2] = 2;
  indices[3] = 0;
  indices[4] = 2;
  indices[5] = 4; /* there is no vertex 4 */
  CHECK(swerve_world3d_add_mesh(world, vertices, 4, indices, 2) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("triangle 1 names vertex 4, but the mesh has 4 vertices"));
  indices[5] = 2; /* the second triangle 0, 2, 2 has no area: the first is not added either */
  CHECK(swerve_world3d_add_mesh(world, vertices, 4, indices, 2) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("triangle 1 has no area"));
  indices[5] = 3;
  vertices[3].y = INFINITY;
  CHECK(swerve_world3d_add_mesh(world, vertices, 4, indices, 2) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("mesh vertex must be finite"));
  vertices[3].y = 10.0f;
  CHECK(swerve_world3d_add_mesh(world, NULL, 4, indices, 2) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("vertices is a null pointer"));
  CHECK(swerve_world3d_add_mesh(world, vertices, 4, NULL, 2) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("indices is a null pointer"));
  CHECK(swerve_world3d_add_mesh(world, vertices, 4, indices, (size_t)-1) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_add_mesh(NULL, vertices, 4, indices, 2) == SWERVE_STATUS_NULL_POINTER);
  CHECK(num_triangles(world) == 0);
  CHECK(swerve_world3d_add_mesh(world, vertices, 4, indices, 2) == SWERVE_STATUS_OK);
  CHECK(num_triangles(world) == 2);
  CHECK(swerve_world3d_triangles(world, triangles, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && count == 2);
  CHECK(swerve_world3d_triangles(world, triangles, 4, &count) == SWERVE_STATUS_OK && count == 2);
  CHECK(triangles[1].c.x == 0.0f && triangles[1].c.y == 10.0f && triangles[1].b.x == 10.0f);

  /* ----- short buffers and null pointers ----- */
  ids[0] = ids[1] = 77;
  count = 0;
  CHECK(swerve_world3d_sphere_ids(world, ids, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 2 && ids[0] == 77);
  CHECK(message_mentions("the buffer has room for 1, the call needs 2"));
  CHECK(swerve_world3d_sphere_ids(world, NULL, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && count == 2);
  CHECK(swerve_world3d_sphere_ids(world, ids, 4, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_sphere_ids(world, NULL, 4, &count) == SWERVE_STATUS_NULL_POINTER);
  CHECK(ids[0] == 77);
  buffer[0] = vec3(42.0f, 42.0f, 42.0f);
  CHECK(swerve_world3d_positions(world, buffer, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(buffer[0].x == 42.0f);
  CHECK(swerve_world3d_velocities(world, buffer, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(swerve_world3d_angular_velocities(world, buffer, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(swerve_world3d_radii(world, &number, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(swerve_world3d_masses(world, &number, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(swerve_world3d_spheres(world, &got, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(buffer[0].x == 42.0f);
  CHECK(swerve_world3d_num_spheres(NULL, &n) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_num_spheres(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_kinetic_energy(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_momentum(NULL, &momentum) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_sphere(world, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_last_step_stats(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_bounds(world, NULL, &got_bounds) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_broad_phase(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_step(NULL, 0.01f) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_broad_phase3d_names(NULL, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && count == 5);

  /* ----- settings ----- */
  CHECK(swerve_world3d_set_gravity(world, vec3(0.0f, NAN, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("gravity must be finite"));
  CHECK(swerve_world3d_gravity(world, &gravity) == SWERVE_STATUS_OK && gravity.y == 0.0f);
  CHECK(swerve_world3d_set_substeps(world, 0) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_set_substeps(world, 65) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("substeps must be between 1 and 64"));
  CHECK(swerve_world3d_substeps(world, &n) == SWERVE_STATUS_OK && n == 1);
  CHECK(swerve_world3d_set_solver_iterations(world, 0) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_set_solver_iterations(world, 1001) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_solver_iterations(world, &n) == SWERVE_STATUS_OK && n == 10);
  CHECK(swerve_world3d_set_linear_damping(world, -1.0f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_set_linear_damping(world, NAN) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_linear_damping(world, &number) == SWERVE_STATUS_OK && number == 0.0f);
  CHECK(swerve_world3d_set_broad_phase(world, "quadtree") == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_set_broad_phase(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world3d_broad_phase(world, &name) == SWERVE_STATUS_OK && strcmp(name, "uniform-grid") == 0);

  /* ----- a bad dt: refused, nothing moves ----- */
  CHECK(swerve_world3d_set_record_contacts(world, true) == SWERVE_STATUS_OK);
  CHECK(swerve_world3d_step(world, 0.0f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("dt must be finite and greater than 0, got 0"));
  CHECK(swerve_world3d_step(world, -0.01f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_step(world, NAN) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_step(world, INFINITY) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(same_world(world, saved, saved_count));
  CHECK(swerve_world3d_kinetic_energy(world, &energy) == SWERVE_STATUS_OK);
  CHECK(swerve_world3d_step(world, 0.01f) == SWERVE_STATUS_OK);
  CHECK(!same_world(world, saved, saved_count)); /* a good step does move them */
  CHECK(swerve_world3d_last_step_stats(world, &stats) == SWERVE_STATUS_OK);
  CHECK(swerve_world3d_contacts(world, contacts, 2, &count) == SWERVE_STATUS_OK);
  CHECK(swerve_world3d_step(world, -1.0f) == SWERVE_STATUS_INVALID_ARGUMENT);

  /* ----- queries ----- */
  flag = true;
  hit.distance = 123.0f;
  CHECK(swerve_world3d_cast_ray(world, vec3(5.0f, 5.0f, 5.0f), vec3(0.0f, 0.0f, 0.0f), 10.0f, &flag, &hit) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("ray direction must be non-zero"));
  CHECK(swerve_world3d_cast_ray(world, vec3(5.0f, 5.0f, 5.0f), vec3(1.0f, 0.0f, 0.0f), -1.0f, &flag, &hit) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_cast_ray(world, vec3(NAN, 5.0f, 5.0f), vec3(1.0f, 0.0f, 0.0f), 1.0f, &flag, &hit) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_cast_ray(world, vec3(5.0f, 5.0f, 5.0f), vec3(1.0f, 0.0f, 0.0f), 1.0f, NULL, &hit) ==
        SWERVE_STATUS_NULL_POINTER);
  CHECK(flag && hit.distance == 123.0f);
  /* Straight down from above the floor mesh (z = 1): a triangle, 2 m away. */
  CHECK(swerve_world3d_cast_ray(world, vec3(8.0f, 2.0f, 3.0f), vec3(0.0f, 0.0f, -5.0f), INFINITY, &flag, &hit) ==
        SWERVE_STATUS_OK);
  CHECK(flag && hit.collider.kind == SWERVE_COLLIDER3D_KIND_TRIANGLE && hit.collider.index == 0);
  CHECK(hit.distance == 2.0f && hit.normal.z == 1.0f);
  CHECK(swerve_world3d_spheres_in_ball(world, vec3(5.0f, 5.0f, 5.0f), -1.0f, ids, 4, &count) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("query radius"));
  id = 7;
  CHECK(swerve_world3d_sphere_at(world, vec3(INFINITY, 5.0f, 5.0f), &flag, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world3d_sphere_at(world, vec3(0.5f, 9.5f, 9.5f), &flag, &id) == SWERVE_STATUS_OK);
  CHECK(!flag && id == 7); /* nothing there: the id is left alone */
  CHECK(swerve_world3d_sphere_at(world, vec3(5.0f, 5.0f, 5.0f), &flag, NULL) == SWERVE_STATUS_NULL_POINTER);

  /* ----- removing, and ids not reused ----- */
  CHECK(swerve_world3d_remove_sphere(world, a) == SWERVE_STATUS_OK);
  CHECK(swerve_world3d_remove_sphere(world, a) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world3d_add_sphere(world, &several[2], &id) == SWERVE_STATUS_OK && id == 2);
  CHECK(swerve_world3d_sphere_ids(world, ids, 4, &count) == SWERVE_STATUS_OK);
  CHECK(count == 2 && ids[0] == b && ids[1] == 2);
  for (k = 0; k < count; ++k) {
    CHECK(swerve_world3d_sphere(world, ids[k], &got) == SWERVE_STATUS_OK);
  }
  CHECK(same_sphere(&got, &several[2]));

  swerve_world3d_free(NULL);
  swerve_world3d_free(world);
  return finish();
}
