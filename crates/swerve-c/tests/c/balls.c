/* Runs a ball world through swerve's C interface the way a C program would, and prints the
 * state every few steps as the bits of the numbers, for tests/c_programs_balls.rs to compare
 * with the same world run by the Rust library directly.
 *
 *   balls < scenario.txt
 *
 * scenario.txt (whitespace-separated; floats in shortest round-trip decimal, "inf" allowed):
 *   bounded (0 or 1), then if 1: min_x min_y max_x max_y
 *   broad_phase_name
 *   dt steps every
 *   gravity_x gravity_y linear_damping substeps solver_iterations record_contacts (0 or 1)
 *   segment_count, then per segment: ax ay bx by
 *   polygon_count, then per polygon: vertex_count and the vertices' x y
 *   ball_count, then per ball: px py vx vy radius mass restitution friction
 *                              rolling_resistance angular_velocity angle
 *   event_count, then per event (in step order): before_step kind id x y, applied before step
 *     before_step + 1; kinds: i apply_impulse (x, y), v set_ball_velocity (x, y),
 *     p set_ball_position (x, y), w set_ball_angular_velocity x, r remove_ball,
 *     R remove_balls {id, id + 1}, g set_gravity (x, y), b set_broad_phase to name number id,
 *     V set_velocities: every velocity times x
 *
 * Output, after every `every` steps (numbers as hex bits: 8 digits a float, 16 a double):
 *   B step id px py vx vy angular_velocity angle      per ball, in swerve_world_ball_ids order
 *   T step kinetic_energy momentum_x momentum_y
 *   S step and the seven step statistics (decimal)
 *   C step ball partner_kind partner time impulse_x impulse_y normal_x normal_y   per contact
 * Frames alternate between the all-balls arrays and one ball at a time.
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

static SwerveVec2 read_vec2(void) {
  SwerveVec2 v;
  v.x = read_float();
  v.y = read_float();
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
  float x, y;
} Event;

static void apply(SwerveWorld *world, const Event *e) {
  SwerveVec2 v;
  v.x = e->x;
  v.y = e->y;
  switch (e->kind) {
    case 'i':
      check(swerve_world_apply_impulse(world, e->id, v), "swerve_world_apply_impulse");
      break;
    case 'v':
      check(swerve_world_set_ball_velocity(world, e->id, v), "swerve_world_set_ball_velocity");
      break;
    case 'p':
      check(swerve_world_set_ball_position(world, e->id, v), "swerve_world_set_ball_position");
      break;
    case 'w':
      check(swerve_world_set_ball_angular_velocity(world, e->id, e->x), "swerve_world_set_ball_angular_velocity");
      break;
    case 'r':
      check(swerve_world_remove_ball(world, e->id), "swerve_world_remove_ball");
      break;
    case 'R': {
      uint32_t ids[2];
      ids[0] = e->id;
      ids[1] = e->id + 1;
      check(swerve_world_remove_balls(world, ids, 2), "swerve_world_remove_balls");
      break;
    }
    case 'g':
      check(swerve_world_set_gravity(world, v), "swerve_world_set_gravity");
      break;
    case 'b': {
      const char *names[16];
      size_t count;
      check(swerve_broad_phase_names(names, 16, &count), "swerve_broad_phase_names");
      if (e->id >= count) {
        fprintf(stderr, "no broad phase number %lu\n", (unsigned long)e->id);
        exit(2);
      }
      check(swerve_world_set_broad_phase(world, names[e->id]), "swerve_world_set_broad_phase");
      break;
    }
    case 'V': {
      size_t n = 0, i;
      SwerveVec2 *velocities;
      /* Ask for the size first, as the README says. */
      SwerveStatus asked = swerve_world_velocities(world, NULL, 0, &n);
      if (asked != (n == 0 ? SWERVE_STATUS_OK : SWERVE_STATUS_BUFFER_TOO_SMALL)) {
        fprintf(stderr, "asking for the size did not say BUFFER_TOO_SMALL\n");
        exit(1);
      }
      velocities = allocate(n, sizeof *velocities);
      check(swerve_world_velocities(world, velocities, n, &n), "swerve_world_velocities");
      for (i = 0; i < n; ++i) {
        velocities[i].x *= e->x;
        velocities[i].y *= e->x;
      }
      check(swerve_world_set_velocities(world, velocities, n), "swerve_world_set_velocities");
      free(velocities);
      break;
    }
    default:
      fprintf(stderr, "unknown event kind %c\n", e->kind);
      exit(2);
  }
}

static void print_frame(SwerveWorld *world, size_t step, size_t frame, size_t capacity, int record) {
  uint32_t *ids = allocate(capacity, sizeof *ids);
  size_t n, i;
  SwerveStepStats stats;
  SwerveVec2d momentum;
  double energy;

  check(swerve_world_ball_ids(world, ids, capacity, &n), "swerve_world_ball_ids");
  if (frame % 2 == 0) {
    SwerveVec2 *positions = allocate(capacity, sizeof *positions);
    SwerveVec2 *velocities = allocate(capacity, sizeof *velocities);
    float *spins = allocate(capacity, sizeof *spins);
    float *angles = allocate(capacity, sizeof *angles);
    size_t m;
    check(swerve_world_positions(world, positions, capacity, &m), "swerve_world_positions");
    check(swerve_world_velocities(world, velocities, capacity, &m), "swerve_world_velocities");
    check(swerve_world_angular_velocities(world, spins, capacity, &m), "swerve_world_angular_velocities");
    check(swerve_world_angles(world, angles, capacity, &m), "swerve_world_angles");
    for (i = 0; i < n; ++i) {
      printf("B %lu %lu %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n",
             (unsigned long)step, (unsigned long)ids[i], bits(positions[i].x), bits(positions[i].y),
             bits(velocities[i].x), bits(velocities[i].y), bits(spins[i]), bits(angles[i]));
    }
    free(positions);
    free(velocities);
    free(spins);
    free(angles);
  } else {
    for (i = 0; i < n; ++i) {
      SwerveBall ball;
      check(swerve_world_ball(world, ids[i], &ball), "swerve_world_ball");
      printf("B %lu %lu %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n",
             (unsigned long)step, (unsigned long)ids[i], bits(ball.position.x), bits(ball.position.y),
             bits(ball.velocity.x), bits(ball.velocity.y), bits(ball.angular_velocity), bits(ball.angle));
    }
  }
  free(ids);

  check(swerve_world_kinetic_energy(world, &energy), "swerve_world_kinetic_energy");
  check(swerve_world_momentum(world, &momentum), "swerve_world_momentum");
  printf("T %lu %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n", (unsigned long)step, bits64(energy),
         bits64(momentum.x), bits64(momentum.y));
  check(swerve_world_last_step_stats(world, &stats), "swerve_world_last_step_stats");
  printf("S %lu %lu %lu %lu %lu %lu %lu %lu\n", (unsigned long)step, (unsigned long)stats.candidate_pairs,
         (unsigned long)stats.contacts, (unsigned long)stats.time_of_impact_events,
         (unsigned long)stats.escaped_swept_boxes, (unsigned long)stats.correction_passes,
         (unsigned long)stats.pushed_out_of_box, (unsigned long)stats.resting_contacts);

  if (record) {
    SwerveContact *contacts;
    size_t k = 0;
    SwerveStatus asked = swerve_world_contacts(world, NULL, 0, &k);
    if (asked != (k == 0 ? SWERVE_STATUS_OK : SWERVE_STATUS_BUFFER_TOO_SMALL)) {
      fprintf(stderr, "asking for the contact count did not say BUFFER_TOO_SMALL\n");
      exit(1);
    }
    contacts = allocate(k, sizeof *contacts);
    check(swerve_world_contacts(world, contacts, k, &k), "swerve_world_contacts");
    for (i = 0; i < k; ++i) {
      const SwerveContact *c = &contacts[i];
      printf("C %lu %lu %d %lu %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n",
             (unsigned long)step, (unsigned long)c->ball, (int)c->partner.kind, (unsigned long)c->partner.index,
             bits(c->time), bits(c->impulse.x), bits(c->impulse.y), bits(c->normal.x), bits(c->normal.y));
    }
    free(contacts);
  }
}

int main(void) {
  SwerveWorld *world = NULL;
  SwerveBounds bounds;
  SwerveBall *balls;
  Event *events;
  uint32_t *ids;
  char name[64];
  size_t steps, every, substeps, iterations, segments, polygons, n, half, event_count, i, k, next_event;
  int bounded, record;
  float dt, damping;
  SwerveVec2 gravity;

  bounded = (int)read_count();
  if (bounded) {
    bounds.min = read_vec2();
    bounds.max = read_vec2();
  }
  if (scanf("%63s", name) != 1) {
    fprintf(stderr, "input ended early\n");
    return 2;
  }
  check(swerve_world_new(bounded ? &bounds : NULL, name, &world), "swerve_world_new");

  dt = read_float();
  steps = read_count();
  every = read_count();
  gravity = read_vec2();
  damping = read_float();
  substeps = read_count();
  iterations = read_count();
  record = (int)read_count();
  check(swerve_world_set_gravity(world, gravity), "swerve_world_set_gravity");
  check(swerve_world_set_linear_damping(world, damping), "swerve_world_set_linear_damping");
  check(swerve_world_set_substeps(world, substeps), "swerve_world_set_substeps");
  check(swerve_world_set_solver_iterations(world, iterations), "swerve_world_set_solver_iterations");
  check(swerve_world_set_record_contacts(world, record != 0), "swerve_world_set_record_contacts");

  segments = read_count();
  for (k = 0; k < segments; ++k) {
    SwerveVec2 a = read_vec2();
    SwerveVec2 b = read_vec2();
    check(swerve_world_add_segment(world, a, b), "swerve_world_add_segment");
  }
  polygons = read_count();
  for (k = 0; k < polygons; ++k) {
    size_t m = read_count();
    SwerveVec2 *vertices = allocate(m, sizeof *vertices);
    for (i = 0; i < m; ++i) {
      vertices[i] = read_vec2();
    }
    check(swerve_world_add_polygon(world, vertices, m), "swerve_world_add_polygon");
    free(vertices);
  }

  /* The first half in one call, the rest one at a time. */
  n = read_count();
  balls = allocate(n, sizeof *balls);
  ids = allocate(n, sizeof *ids);
  for (i = 0; i < n; ++i) {
    SwerveVec2 position = read_vec2();
    SwerveVec2 velocity = read_vec2();
    float radius = read_float();
    check(swerve_ball_new(position, velocity, radius, &balls[i]), "swerve_ball_new");
    balls[i].mass = read_float();
    balls[i].restitution = read_float();
    balls[i].friction = read_float();
    balls[i].rolling_resistance = read_float();
    balls[i].angular_velocity = read_float();
    balls[i].angle = read_float();
  }
  half = n / 2;
  check(swerve_world_add_balls(world, balls, half, ids), "swerve_world_add_balls");
  for (i = half; i < n; ++i) {
    check(swerve_world_add_ball(world, &balls[i], &ids[i]), "swerve_world_add_ball");
  }
  for (i = 0; i < n; ++i) {
    if (ids[i] != (uint32_t)i) {
      fprintf(stderr, "ball %lu got id %lu\n", (unsigned long)i, (unsigned long)ids[i]);
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
    events[k].x = read_float();
    events[k].y = read_float();
  }

  next_event = 0;
  for (k = 0; k < steps; ++k) {
    while (next_event < event_count && events[next_event].before_step == k) {
      apply(world, &events[next_event]);
      ++next_event;
    }
    check(swerve_world_step(world, dt), "swerve_world_step");
    if ((k + 1) % every == 0) {
      print_frame(world, k + 1, (k + 1) / every, n, record);
    }
  }

  swerve_world_free(world);
  free(balls);
  free(ids);
  free(events);
  return 0;
}
