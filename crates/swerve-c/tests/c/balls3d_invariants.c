/* The 3-D ball world's invariants, checked from C through swerve's C interface, as
 * crates/swerve/tests/physics3d.rs and physics3d_contacts.rs check them in Rust: momentum
 * (and, when elastic, energy) is conserved in open space; spheres stay inside their box; each
 * step's contacts account for every change of momentum but the weight; inelastic spheres only
 * lose energy; a kinematic sphere is not pushed; the queries agree with the geometry. Exits 0
 * and prints "all checks passed" when every check holds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"

#define OK(call) CHECK((call) == SWERVE_STATUS_OK)

#define MAX_SPHERES 512

static SwerveVec3 vec3(float x, float y, float z) {
  SwerveVec3 v;
  v.x = x;
  v.y = y;
  v.z = z;
  return v;
}

/* A small deterministic generator (SplitMix64), uniform in [lo, hi). */
static uint64_t state = 0x3D1A5;
static float uniform(float lo, float hi) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return lo + (hi - lo) * (float)((double)(z >> 40) / 16777216.0);
}

static double length3(double x, double y, double z) { return sqrt(x * x + y * y + z * z); }

/* A grid of spheres of mixed radii and masses, moving every which way, centred on `centre`. */
static size_t fill_grid(SwerveWorld3d *world, int side, float spacing, float centre, float speed, float restitution) {
  SwerveSphere sphere;
  uint32_t id;
  size_t added = 0;
  int i, j, k;
  for (i = 0; i < side; ++i) {
    for (j = 0; j < side; ++j) {
      for (k = 0; k < side; ++k) {
        float h = 0.5f * (float)(side - 1) * spacing;
        SwerveVec3 p = vec3(centre - h + (float)i * spacing, centre - h + (float)j * spacing,
                            centre - h + (float)k * spacing);
        SwerveVec3 v = vec3(uniform(-speed, speed), uniform(-speed, speed), uniform(-speed, speed));
        OK(swerve_sphere_new(p, v, uniform(0.3f, 0.9f), &sphere));
        sphere.mass = uniform(0.2f, 5.0f);
        sphere.restitution = restitution;
        OK(swerve_world3d_add_sphere(world, &sphere, &id));
        ++added;
      }
    }
  }
  return added;
}

/* Open space: no walls, so nothing but the spheres' own collisions changes the momentum. */
static void open_space(float restitution) {
  SwerveWorld3d *world = NULL;
  SwerveVec3d p0, p;
  SwerveStepStats stats;
  double e0, e, last;
  size_t step, contacts = 0;
  OK(swerve_world3d_new(NULL, "octree", &world));
  fill_grid(world, 6, 2.2f, 0.0f, 4.0f, restitution);
  OK(swerve_world3d_momentum(world, &p0));
  OK(swerve_world3d_kinetic_energy(world, &e0));
  last = e0;
  for (step = 0; step < 200; ++step) {
    OK(swerve_world3d_step(world, 1.0f / 60.0f));
    OK(swerve_world3d_last_step_stats(world, &stats));
    contacts += stats.contacts;
    OK(swerve_world3d_momentum(world, &p));
    CHECK(length3(p.x - p0.x, p.y - p0.y, p.z - p0.z) <= 1e-9 * (1.0 + length3(p0.x, p0.y, p0.z)));
    OK(swerve_world3d_kinetic_energy(world, &e));
    if (restitution == 1.0f) {
      CHECK(fabs(e - e0) <= 1e-9 * e0);
    } else {
      CHECK(e <= last * (1.0 + 1e-12)); /* inelastic: energy only goes */
      last = e;
    }
  }
  CHECK(contacts > 100);
  if (restitution < 1.0f) {
    CHECK(last < 0.99 * e0);
  }
  swerve_world3d_free(world);
}

/* An elastic pit: spheres stay inside the box and keep their energy. */
static void pit(void) {
  SwerveWorld3d *world = NULL;
  SwerveBounds3d box;
  SwerveSphere spheres[MAX_SPHERES];
  double e0, e;
  size_t n, step, i;
  box.min = vec3(0.0f, 0.0f, 0.0f);
  box.max = vec3(14.0f, 14.0f, 14.0f);
  OK(swerve_world3d_new(&box, "hierarchical-grid", &world));
  fill_grid(world, 6, 2.2f, 7.0f, 8.0f, 1.0f);
  OK(swerve_world3d_kinetic_energy(world, &e0));
  for (step = 0; step < 200; ++step) {
    OK(swerve_world3d_step(world, 1.0f / 60.0f));
    OK(swerve_world3d_spheres(world, spheres, MAX_SPHERES, &n));
    for (i = 0; i < n; ++i) {
      const SwerveSphere *s = &spheres[i];
      float r = s->radius * (1.0f - 1e-5f);
      CHECK(s->position.x - r >= box.min.x && s->position.x + r <= box.max.x);
      CHECK(s->position.y - r >= box.min.y && s->position.y + r <= box.max.y);
      CHECK(s->position.z - r >= box.min.z && s->position.z + r <= box.max.z);
    }
  }
  OK(swerve_world3d_kinetic_energy(world, &e));
  CHECK(fabs(e - e0) <= 1e-9 * e0);
  swerve_world3d_free(world);
}

/* With gravity, friction, substeps and a ramp: what changed each sphere's momentum beyond its
 * weight is its contacts (the Rust test contacts_account_for_every_velocity_change). */
static void contacts_account_for_momentum(void) {
  SwerveWorld3d *world = NULL;
  SwerveBounds3d box;
  SwerveSphere before[MAX_SPHERES], after[MAX_SPHERES], sphere;
  SwerveContact3d *contacts = malloc(8 * MAX_SPHERES * sizeof *contacts);
  SwerveVec3 ramp[4];
  uint32_t ramp_triangles[6] = {0, 1, 2, 0, 2, 3};
  uint32_t ids[MAX_SPHERES];
  size_t index_of[MAX_SPHERES];
  double sum[MAX_SPHERES][3], sizes[MAX_SPHERES];
  const float dt = 1.0f / 60.0f;
  const SwerveVec3 g = {0.0f, 0.0f, -9.81f};
  size_t n, m, k, i, step, seen[3] = {0, 0, 0};
  box.min = vec3(0.0f, 0.0f, 0.0f);
  box.max = vec3(16.0f, 16.0f, 20.0f);
  OK(swerve_world3d_new(&box, "sort-and-sweep", &world));
  OK(swerve_world3d_set_gravity(world, g));
  OK(swerve_world3d_set_substeps(world, 2));
  OK(swerve_world3d_set_record_contacts(world, true));
  ramp[0] = vec3(0.0f, 0.0f, 6.0f);
  ramp[1] = vec3(8.0f, 0.0f, 0.0f);
  ramp[2] = vec3(8.0f, 16.0f, 0.0f);
  ramp[3] = vec3(0.0f, 16.0f, 6.0f);
  OK(swerve_world3d_add_mesh(world, ramp, 4, ramp_triangles, 2));
  fill_grid(world, 5, 2.4f, 9.0f, 3.0f, 0.6f);
  OK(swerve_world3d_sphere_ids(world, ids, MAX_SPHERES, &n));
  for (i = 0; i < n; ++i) {
    index_of[ids[i]] = i;
    OK(swerve_world3d_sphere(world, ids[i], &sphere));
    sphere.friction = 0.5f;
    OK(swerve_world3d_set_sphere(world, ids[i], &sphere));
  }
  for (step = 0; step < 180; ++step) {
    OK(swerve_world3d_spheres(world, before, MAX_SPHERES, &n));
    OK(swerve_world3d_step(world, dt));
    OK(swerve_world3d_spheres(world, after, MAX_SPHERES, &n));
    OK(swerve_world3d_contacts(world, contacts, 8 * MAX_SPHERES, &m));
    memset(sum, 0, sizeof sum);
    memset(sizes, 0, sizeof sizes);
    for (k = 0; k < m; ++k) {
      const SwerveContact3d *c = &contacts[k];
      size_t a = index_of[c->sphere];
      double size = length3(c->impulse.x, c->impulse.y, c->impulse.z);
      CHECK(fabs(length3(c->normal.x, c->normal.y, c->normal.z) - 1.0) < 1e-5);
      CHECK(c->time >= 0.0f && c->time <= dt);
      sum[a][0] += c->impulse.x;
      sum[a][1] += c->impulse.y;
      sum[a][2] += c->impulse.z;
      sizes[a] += size;
      ++seen[c->partner.kind];
      if (c->partner.kind == SWERVE_COLLIDER3D_KIND_SPHERE) {
        size_t b = index_of[c->partner.index];
        CHECK(c->sphere < c->partner.index); /* the first-added sphere leads */
        sum[b][0] -= c->impulse.x;
        sum[b][1] -= c->impulse.y;
        sum[b][2] -= c->impulse.z;
        sizes[b] += size;
      } else if (c->partner.kind == SWERVE_COLLIDER3D_KIND_TRIANGLE) {
        CHECK(c->partner.index < 2);
      } else {
        CHECK(c->partner.index <= SWERVE_BOX_WALL3D_MAX_Z);
      }
    }
    for (i = 0; i < n; ++i) {
      double mass = before[i].mass;
      double weight = mass * dt * 9.81;
      double change[3], scale;
      change[0] = (after[i].velocity.x - before[i].velocity.x) * mass;
      change[1] = (after[i].velocity.y - before[i].velocity.y) * mass;
      change[2] = (after[i].velocity.z - before[i].velocity.z) * mass + weight;
      scale = mass * (length3(before[i].velocity.x, before[i].velocity.y, before[i].velocity.z) +
                      length3(after[i].velocity.x, after[i].velocity.y, after[i].velocity.z)) +
              weight + sizes[i] + 1e-6;
      CHECK(length3(change[0] - sum[i][0], change[1] - sum[i][1], change[2] - sum[i][2]) <= 1e-5 * scale);
    }
  }
  CHECK(seen[0] > 100 && seen[1] > 20 && seen[2] > 100);
  free(contacts);
  swerve_world3d_free(world);
}

/* A kinematic sphere pushes a resting one and is not pushed back. */
static void kinematic(void) {
  SwerveWorld3d *world = NULL;
  SwerveSphere paddle, ball, got;
  SwerveVec3 v;
  uint32_t p, b;
  size_t step;
  OK(swerve_world3d_new(NULL, "brute-force", &world));
  OK(swerve_sphere_kinematic(vec3(0.0f, 0.0f, 0.0f), vec3(2.0f, 0.0f, 0.0f), 1.0f, &paddle));
  OK(swerve_sphere_new(vec3(3.0f, 0.1f, 0.0f), vec3(0.0f, 0.0f, 0.0f), 0.5f, &ball));
  OK(swerve_world3d_add_sphere(world, &paddle, &p));
  OK(swerve_world3d_add_sphere(world, &ball, &b));
  OK(swerve_world3d_apply_impulse(world, p, vec3(100.0f, 0.0f, 0.0f)));
  for (step = 0; step < 120; ++step) {
    OK(swerve_world3d_step(world, 1.0f / 60.0f));
  }
  OK(swerve_world3d_sphere(world, p, &got));
  CHECK(got.velocity.x == 2.0f && got.velocity.y == 0.0f && isinf(got.mass));
  OK(swerve_world3d_sphere_velocity(world, b, &v));
  CHECK(v.x > 2.0f); /* knocked ahead, faster than the paddle */
  swerve_world3d_free(world);
}

/* The queries agree with the geometry they are asked about. */
static void queries(void) {
  SwerveWorld3d *world = NULL;
  SwerveSphere spheres[MAX_SPHERES];
  SwerveRayHit3d hit;
  uint32_t ids[MAX_SPHERES], found[MAX_SPHERES], id;
  size_t n, m, i, j, q;
  bool any;
  OK(swerve_world3d_new(NULL, "uniform-grid", &world));
  fill_grid(world, 5, 2.0f, 0.0f, 1.0f, 1.0f);
  OK(swerve_world3d_spheres(world, spheres, MAX_SPHERES, &n));
  OK(swerve_world3d_sphere_ids(world, ids, MAX_SPHERES, &n));
  for (q = 0; q < 40; ++q) {
    SwerveVec3 c = vec3(uniform(-6.0f, 6.0f), uniform(-6.0f, 6.0f), uniform(-6.0f, 6.0f));
    float r = uniform(0.0f, 2.0f);
    size_t expected = 0;
    OK(swerve_world3d_spheres_in_ball(world, c, r, found, MAX_SPHERES, &m));
    for (i = 0, j = 0; i < n; ++i) {
      double d = length3(spheres[i].position.x - c.x, spheres[i].position.y - c.y, spheres[i].position.z - c.z);
      double reach = (double)spheres[i].radius + r;
      if (fabs(d - reach) < 1e-4) {
        continue; /* too close to call in single precision: skip the query */
      }
      if (d < reach) {
        ++expected;
        while (j < m && found[j] != ids[i]) {
          ++j;
        }
        CHECK(j < m); /* found, in order */
      }
    }
    CHECK(m == expected);
    /* A ray from far away towards the query point meets a sphere on its surface, or nothing. */
    OK(swerve_world3d_cast_ray(world, vec3(c.x, c.y, 50.0f), vec3(0.0f, 0.0f, -1.0f), INFINITY, &any, &hit));
    if (any) {
      SwerveSphere s;
      CHECK(hit.collider.kind == SWERVE_COLLIDER3D_KIND_SPHERE);
      OK(swerve_world3d_sphere(world, hit.collider.index, &s));
      CHECK(fabs(length3(hit.point.x - s.position.x, hit.point.y - s.position.y, hit.point.z - s.position.z) -
                 s.radius) < 1e-4);
      CHECK(fabs(hit.distance - (50.0f - hit.point.z)) < 1e-4 && hit.normal.z > 0.0f);
      OK(swerve_world3d_sphere_at(world, s.position, &any, &id));
      CHECK(any && id == hit.collider.index);
    }
  }
  swerve_world3d_free(world);
}

int main(void) {
  open_space(1.0f);
  open_space(0.5f);
  pit();
  contacts_account_for_momentum();
  kinematic();
  queries();
  return finish();
}
