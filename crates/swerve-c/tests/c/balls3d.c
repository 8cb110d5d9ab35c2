/* Runs a 3-D ball world through swerve's C interface the way a C program would, and prints
 * the state every few steps as the bits of the numbers, for tests/c_programs_balls3d.rs to
 * compare with the same world run by the Rust library directly.
 *
 *   balls3d < scenario.txt
 *
 * scenario.txt (whitespace-separated; floats in shortest round-trip decimal, "inf" allowed):
 *   bounded (0 or 1), then if 1: min_x min_y min_z max_x max_y max_z
 *   broad_phase_name
 *   dt steps every
 *   gravity_x gravity_y gravity_z linear_damping substeps solver_iterations record_contacts
 *   triangle_count, then per triangle: ax ay az bx by bz cx cy cz
 *   mesh_count, then per mesh: vertex_count and the vertices' x y z, then triangle_count and
 *     its index triples
 *   sphere_count, then per sphere: px py pz vx vy vz radius mass restitution friction
 *                                  rolling_resistance wx wy wz
 *   event_count, then per event (in step order): before_step kind id x y z, applied before
 *     step before_step + 1; kinds: i apply_impulse, v set_sphere_velocity,
 *     p set_sphere_position, w set_sphere_angular_velocity, r remove_sphere,
 *     R remove_spheres {id, id + 1}, g set_gravity, b set_broad_phase to name number id,
 *     V set_velocities: every velocity times x
 *
 * Output, after every `every` steps (numbers as hex bits: 8 digits a float, 16 a double):
 *   B step id px py pz vx vy vz wx wy wz     per sphere, in swerve_world3d_sphere_ids order
 *   T step kinetic_energy momentum_x momentum_y momentum_z
 *   S step and the seven step statistics (decimal)
 *   C step sphere partner_kind partner time impulse_xyz normal_xyz     per contact
 * Frames alternate between the all-spheres arrays and one sphere at a time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"

static void *allocate(size_t n, size_t size) {
  void *p = calloc(n + 1, size);
  if (p == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(3);
  }
  return p;
}

static float read_float(void) {
  char text[64];
  if (scanf("%63s", text) != 1) {
    fprintf(stderr, "input ended early\n");
    exit(2);
  }
  return strtof(text, NULL);
}

static size_t read_count(void) {
  unsigned long n;
  if (scanf("%lu", &n) != 1) {
    fprintf(stderr, "input ended early\n");
    exit(2);
  }
  return (size_t)n;
}

static SwerveVec3 read_vec3(void) {
  SwerveVec3 v;
  v.x = read_float();
  v.y = read_float();
  v.z = read_float();
  return v;
}

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static uint64_t bits64(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

typedef struct {
  size_t before_step;
  char kind;
  uint32_t id;
  SwerveVec3 v;
} Event;

static void apply(SwerveWorld3d *world, const Event *e) {
  switch (e->kind) {
    case 'i':
      check(swerve_world3d_apply_impulse(world, e->id, e->v), "swerve_world3d_apply_impulse");
      break;
    case 'v':
      check(swerve_world3d_set_sphere_velocity(world, e->id, e->v), "swerve_world3d_set_sphere_velocity");
      break;
    case 'p':
      check(swerve_world3d_set_sphere_position(world, e->id, e->v), "swerve_world3d_set_sphere_position");
      break;
    case 'w':
      check(swerve_world3d_set_sphere_angular_velocity(world, e->id, e->v),
            "swerve_world3d_set_sphere_angular_velocity");
      break;
    case 'r':
      check(swerve_world3d_remove_sphere(world, e->id), "swerve_world3d_remove_sphere");
      break;
    case 'R': {
      uint32_t ids[2];
      ids[0] = e->id;
      ids[1] = e->id + 1;
      check(swerve_world3d_remove_spheres(world, ids, 2), "swerve_world3d_remove_spheres");
      break;
    }
    case 'g':
      check(swerve_world3d_set_gravity(world, e->v), "swerve_world3d_set_gravity");
      break;
    case 'b': {
      const char *names[16];
      size_t count;
      check(swerve_broad_phase3d_names(names, 16, &count), "swerve_broad_phase3d_names");
      if (e->id >= count) {
        fprintf(stderr, "no broad phase number %lu\n", (unsigned long)e->id);
        exit(2);
      }
      check(swerve_world3d_set_broad_phase(world, names[e->id]), "swerve_world3d_set_broad_phase");
      break;
    }
    case 'V': {
      size_t n = 0, i;
      SwerveVec3 *velocities;
      /* Ask for the size first, as the README says. */
      SwerveStatus asked = swerve_world3d_velocities(world, NULL, 0, &n);
      if (asked != (n == 0 ? SWERVE_STATUS_OK : SWERVE_STATUS_BUFFER_TOO_SMALL)) {
        fprintf(stderr, "asking for the size did not say BUFFER_TOO_SMALL\n");
        exit(1);
      }
      velocities = allocate(n, sizeof *velocities);
      check(swerve_world3d_velocities(world, velocities, n, &n), "swerve_world3d_velocities");
      for (i = 0; i < n; ++i) {
        velocities[i].x *= e->v.x;
        velocities[i].y *= e->v.x;
        velocities[i].z *= e->v.x;
      }
      check(swerve_world3d_set_velocities(world, velocities, n), "swerve_world3d_set_velocities");
      free(velocities);
      break;
    }
    default:
      fprintf(stderr, "unknown event kind %c\n", e->kind);
      exit(2);
  }
}

static void print_sphere(size_t step, uint32_t id, SwerveVec3 p, SwerveVec3 v, SwerveVec3 w) {
  printf("B %lu %lu %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32
         " %08" PRIx32 " %08" PRIx32 "\n",
         (unsigned long)step, (unsigned long)id, bits(p.x), bits(p.y), bits(p.z), bits(v.x), bits(v.y), bits(v.z),
         bits(w.x), bits(w.y), bits(w.z));
}

static void print_frame(SwerveWorld3d *world, size_t step, size_t frame, size_t capacity, int record) {
  uint32_t *ids = allocate(capacity, sizeof *ids);
  size_t n, i;
  SwerveStepStats stats;
  SwerveVec3d momentum;
  double energy;

  check(swerve_world3d_sphere_ids(world, ids, capacity, &n), "swerve_world3d_sphere_ids");
  if (frame % 2 == 0) {
    SwerveVec3 *positions = allocate(capacity, sizeof *positions);
    SwerveVec3 *velocities = allocate(capacity, sizeof *velocities);
    SwerveVec3 *spins = allocate(capacity, sizeof *spins);
    size_t m;
    check(swerve_world3d_positions(world, positions, capacity, &m), "swerve_world3d_positions");
    check(swerve_world3d_velocities(world, velocities, capacity, &m), "swerve_world3d_velocities");
    check(swerve_world3d_angular_velocities(world, spins, capacity, &m), "swerve_world3d_angular_velocities");
    for (i = 0; i < n; ++i) {
      print_sphere(step, ids[i], positions[i], velocities[i], spins[i]);
    }
    free(positions);
    free(velocities);
    free(spins);
  } else {
    for (i = 0; i < n; ++i) {
      SwerveSphere sphere;
      check(swerve_world3d_sphere(world, ids[i], &sphere), "swerve_world3d_sphere");
      print_sphere(step, ids[i], sphere.position, sphere.velocity, sphere.angular_velocity);
    }
  }
  free(ids);

  check(swerve_world3d_kinetic_energy(world, &energy), "swerve_world3d_kinetic_energy");
  check(swerve_world3d_momentum(world, &momentum), "swerve_world3d_momentum");
  printf("T %lu %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n", (unsigned long)step,
         bits64(energy), bits64(momentum.x), bits64(momentum.y), bits64(momentum.z));
  check(swerve_world3d_last_step_stats(world, &stats), "swerve_world3d_last_step_stats");
  printf("S %lu %lu %lu %lu %lu %lu %lu %lu\n", (unsigned long)step, (unsigned long)stats.candidate_pairs,
         (unsigned long)stats.contacts, (unsigned long)stats.time_of_impact_events,
         (unsigned long)stats.escaped_swept_boxes, (unsigned long)stats.correction_passes,
         (unsigned long)stats.pushed_out_of_box, (unsigned long)stats.resting_contacts);

  if (record) {
    SwerveContact3d *contacts;
    size_t k = 0;
    SwerveStatus asked = swerve_world3d_contacts(world, NULL, 0, &k);
    if (asked != (k == 0 ? SWERVE_STATUS_OK : SWERVE_STATUS_BUFFER_TOO_SMALL)) {
      fprintf(stderr, "asking for the contact count did not say BUFFER_TOO_SMALL\n");
      exit(1);
    }
    contacts = allocate(k, sizeof *contacts);
    check(swerve_world3d_contacts(world, contacts, k, &k), "swerve_world3d_contacts");
    for (i = 0; i < k; ++i) {
      const SwerveContact3d *c = &contacts[i];
      printf("C %lu %lu %d %lu %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32
             " %08" PRIx32 "\n",
             (unsigned long)step, (unsigned long)c->sphere, (int)c->partner.kind, (unsigned long)c->partner.index,
             bits(c->time), bits(c->impulse.x), bits(c->impulse.y), bits(c->impulse.z), bits(c->normal.x),
             bits(c->normal.y), bits(c->normal.z));
    }
    free(contacts);
  }
}

int main(void) {
  SwerveWorld3d *world = NULL;
  SwerveBounds3d bounds;
  SwerveSphere *spheres;
  Event *events;
  uint32_t *ids;
  char name[64];
  size_t steps, every, substeps, iterations, triangles, meshes, n, half, event_count, i, k, next_event;
  int bounded, record;
  float dt, damping;
  SwerveVec3 gravity;

  bounded = (int)read_count();
  if (bounded) {
    bounds.min = read_vec3();
    bounds.max = read_vec3();
  }
  if (scanf("%63s", name) != 1) {
    fprintf(stderr, "input ended early\n");
    return 2;
  }
  check(swerve_world3d_new(bounded ? &bounds : NULL, name, &world), "swerve_world3d_new");

  dt = read_float();
  steps = read_count();
  every = read_count();
  gravity = read_vec3();
  damping = read_float();
  substeps = read_count();
  iterations = read_count();
  record = (int)read_count();
  check(swerve_world3d_set_gravity(world, gravity), "swerve_world3d_set_gravity");
  check(swerve_world3d_set_linear_damping(world, damping), "swerve_world3d_set_linear_damping");
  check(swerve_world3d_set_substeps(world, substeps), "swerve_world3d_set_substeps");
  check(swerve_world3d_set_solver_iterations(world, iterations), "swerve_world3d_set_solver_iterations");
  check(swerve_world3d_set_record_contacts(world, record != 0), "swerve_world3d_set_record_contacts");

  triangles = read_count();
  for (k = 0; k < triangles; ++k) {
    SwerveVec3 a = read_vec3();
    SwerveVec3 b = read_vec3();
    SwerveVec3 c = read_vec3();
    check(swerve_world3d_add_triangle(world, a, b, c), "swerve_world3d_add_triangle");
  }
  meshes = read_count();
  for (k = 0; k < meshes; ++k) {
    size_t vertex_count = read_count(), triangle_count;
    SwerveVec3 *vertices = allocate(vertex_count, sizeof *vertices);
    uint32_t *indices;
    for (i = 0; i < vertex_count; ++i) {
      vertices[i] = read_vec3();
    }
    triangle_count = read_count();
    indices = allocate(3 * triangle_count, sizeof *indices);
    for (i = 0; i < 3 * triangle_count; ++i) {
      indices[i] = (uint32_t)read_count();
    }
    check(swerve_world3d_add_mesh(world, vertices, vertex_count, indices, triangle_count), "swerve_world3d_add_mesh");
    free(vertices);
    free(indices);
  }

  /* The first half in one call, the rest one at a time. */
  n = read_count();
  spheres = allocate(n, sizeof *spheres);
  ids = allocate(n, sizeof *ids);
  for (i = 0; i < n; ++i) {
    SwerveVec3 position = read_vec3();
    SwerveVec3 velocity = read_vec3();
    float radius = read_float();
    check(swerve_sphere_new(position, velocity, radius, &spheres[i]), "swerve_sphere_new");
    spheres[i].mass = read_float();
    spheres[i].restitution = read_float();
    spheres[i].friction = read_float();
    spheres[i].rolling_resistance = read_float();
    spheres[i].angular_velocity = read_vec3();
  }
  half = n / 2;
  check(swerve_world3d_add_spheres(world, spheres, half, ids), "swerve_world3d_add_spheres");
  for (i = half; i < n; ++i) {
    check(swerve_world3d_add_sphere(world, &spheres[i], &ids[i]), "swerve_world3d_add_sphere");
  }
  for (i = 0; i < n; ++i) {
    if (ids[i] != (uint32_t)i) {
      fprintf(stderr, "sphere %lu got id %lu\n", (unsigned long)i, (unsigned long)ids[i]);
      return 1;
    }
  }

  event_count = read_count();
  events = allocate(event_count, sizeof *events);
  for (k = 0; k < event_count; ++k) {
    char kind[4];
    events[k].before_step = read_count();
    if (scanf("%3s", kind) != 1) {
      fprintf(stderr, "input ended early\n");
      return 2;
    }
    events[k].kind = kind[0];
    events[k].id = (uint32_t)read_count();
    events[k].v = read_vec3();
  }

  next_event = 0;
  for (k = 0; k < steps; ++k) {
    while (next_event < event_count && events[next_event].before_step == k) {
      apply(world, &events[next_event]);
      ++next_event;
    }
    check(swerve_world3d_step(world, dt), "swerve_world3d_step");
    if ((k + 1) % every == 0) {
      print_frame(world, k + 1, (k + 1) / every, n, record);
    }
  }

  swerve_world3d_free(world);
  free(spheres);
  free(ids);
  free(events);
  return 0;
}
