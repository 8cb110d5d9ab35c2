/* What must hold of a ball world, checked through swerve's C interface (the C side of
 * crates/swerve/tests/physics_world.rs and physics_contacts.rs): momentum is conserved in open
 * space, balls stay inside their box, each step's contacts account for every change of
 * momentum, inelastic balls only lose energy, and the queries answer what geometry says.
 * Every check runs for every broad phase where the Rust tests run it so. Exits 0 and prints
 * "all checks passed" when every check holds, and prints each one that does not. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"

/* SplitMix64, as swerve's scenes use. */
static uint64_t rng_state;

static uint64_t next_u64(void) {
  uint64_t z;
  rng_state += 0x9E3779B97F4A7C15ull;
  z = rng_state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static float range(float lo, float hi) { return lo + (hi - lo) * ((float)(next_u64() >> 40) / 16777216.0f); }

static SwerveVec2 vec2(float x, float y) {
  SwerveVec2 v;
  v.x = x;
  v.y = y;
  return v;
}

static void *allocate(size_t n, size_t size) {
  void *p = calloc(n + 1, size);
  if (p == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(3);
  }
  return p;
}

static const char *names[16];
static size_t name_count;

static SwerveWorld *new_world(const SwerveBounds *bounds, const char *broad_phase) {
  SwerveWorld *world = NULL;
  MUST(swerve_world_new(bounds, broad_phase, &world));
  return world;
}

static SwerveBounds box(float x0, float y0, float x1, float y1) {
  SwerveBounds b;
  b.min = vec2(x0, y0);
  b.max = vec2(x1, y1);
  return b;
}

static size_t num_balls(const SwerveWorld *world) {
  size_t n;
  MUST(swerve_world_num_balls(world, &n));
  return n;
}

/* Every ball's state, into a buffer of n. */
static void read_balls(const SwerveWorld *world, SwerveBall *out, size_t n) {
  size_t count;
  MUST(swerve_world_balls(world, out, n, &count));
  CHECK(count == n);
}

/* Random discs in free space (no walls, which would absorb momentum), mixed masses,
 * restitutions and frictions: momentum is conserved to double precision over 300 steps, and an
 * impulse changes it by just that. */
static void momentum_is_conserved_in_open_space(const char *broad_phase) {
  SwerveWorld *world = new_world(NULL, broad_phase);
  SwerveVec2d p0, p1, p2;
  double scale = 0.0, drift;
  size_t i, step, contacts = 0;
  rng_state = 0xF4EE;
  for (i = 0; i < 400; ++i) {
    SwerveBall ball;
    uint32_t id;
    SwerveVec2 v = vec2(range(-3.0f, 3.0f), range(-3.0f, 3.0f));
    MUST(swerve_ball_new(vec2((float)(i % 20) * 2.5f, (float)(i / 20) * 2.5f), v, range(0.3f, 1.2f), &ball));
    ball.mass = range(0.1f, 10.0f);
    ball.restitution = range(0.0f, 1.0f);
    ball.friction = i % 3 == 0 ? range(0.1f, 0.6f) : 0.0f;
    scale += ball.mass * sqrt((double)v.x * v.x + (double)v.y * v.y);
    MUST(swerve_world_add_ball(world, &ball, &id));
  }
  MUST(swerve_world_momentum(world, &p0));
  for (step = 0; step < 300; ++step) {
    SwerveStepStats stats;
    MUST(swerve_world_step(world, 1.0f / 30.0f));
    MUST(swerve_world_last_step_stats(world, &stats));
    contacts += stats.contacts;
  }
  MUST(swerve_world_momentum(world, &p1));
  drift = hypot(p1.x - p0.x, p1.y - p0.y) / scale;
  if (!(contacts > 100 && drift < 1e-12)) {
    fprintf(stderr, "%s: momentum drifted by %g (relative) over %lu contacts\n", broad_phase, drift,
            (unsigned long)contacts);
  }
  CHECK(contacts > 100);
  CHECK(drift < 1e-12);

  MUST(swerve_world_apply_impulse(world, 7, vec2(2.0f, -1.0f)));
  MUST(swerve_world_momentum(world, &p2));
  CHECK(fabs(p2.x - p1.x - 2.0) < 1e-9 * scale && fabs(p2.y - p1.y + 1.0) < 1e-9 * scale);
  swerve_world_free(world);
}

/* Mixed balls with friction under gravity in a box with a pillar and a wall, a kinematic
 * pusher going through it all: after every step every other ball lies inside the box, and
 * nothing is NaN. */
static void balls_stay_inside_the_box(const char *broad_phase) {
  SwerveBounds bounds = box(-5.0f, 0.0f, 35.0f, 25.0f);
  SwerveWorld *world = new_world(&bounds, broad_phase);
  SwerveVec2 pillar[4];
  SwerveBall *balls;
  size_t i, n, step, outside = 0;
  uint32_t id;
  rng_state = 0xB0C5;
  pillar[0] = vec2(14.0f, 3.0f);
  pillar[1] = vec2(18.0f, 3.0f);
  pillar[2] = vec2(18.0f, 6.0f);
  pillar[3] = vec2(14.0f, 6.0f);
  MUST(swerve_world_add_polygon(world, pillar, 4));
  MUST(swerve_world_add_segment(world, vec2(-5.0f, 12.0f), vec2(8.0f, 9.0f)));
  MUST(swerve_world_set_gravity(world, vec2(0.0f, -9.81f)));
  for (i = 0; i < 300; ++i) {
    SwerveBall ball;
    float x = -4.0f + (float)(i % 25) * 1.5f, y = 13.0f + (float)(i / 25) * 1.0f;
    SwerveVec2 v = vec2(range(-20.0f, 20.0f), range(-20.0f, 20.0f));
    MUST(swerve_ball_new(vec2(x, y), v, range(0.2f, 0.45f), &ball));
    ball.mass *= range(0.5f, 4.0f);
    ball.restitution = range(0.2f, 1.0f);
    ball.friction = range(0.0f, 0.8f);
    MUST(swerve_world_add_ball(world, &ball, &id));
  }
  {
    SwerveBall pusher;
    MUST(swerve_ball_kinematic(vec2(-8.0f, 2.0f), vec2(6.0f, 0.0f), 1.5f, &pusher));
    MUST(swerve_world_add_ball(world, &pusher, &id));
  }
  n = num_balls(world);
  balls = allocate(n, sizeof *balls);
  for (step = 0; step < 300; ++step) {
    MUST(swerve_world_step(world, 1.0f / 60.0f));
    read_balls(world, balls, n);
    for (i = 0; i < n; ++i) {
      const SwerveBall *b = &balls[i];
      if (b->mass == INFINITY) {
        continue; /* kinematic: passes through walls */
      }
      if (!(b->position.x >= bounds.min.x + b->radius && b->position.x <= bounds.max.x - b->radius &&
            b->position.y >= bounds.min.y + b->radius && b->position.y <= bounds.max.y - b->radius)) {
        if (outside == 0) {
          fprintf(stderr, "%s: ball %lu (radius %.9g) at (%.9g, %.9g) after step %lu is outside the box\n",
                  broad_phase, (unsigned long)i, b->radius, b->position.x, b->position.y, (unsigned long)step + 1);
        }
        ++outside;
      }
    }
  }
  CHECK(outside == 0);
  free(balls);
  swerve_world_free(world);
}

/* Balls of mixed sizes, masses and restitutions in a 60 m box with a pillar and a slanted
 * wall, fast enough that continuous detection, the discrete pass, segments and the box walls
 * all see collisions; with gravity, friction and substeps as asked. Each step, every ball's
 * change of momentum beyond its weight is what its contacts say. */
static void contacts_account_for_every_change(float gravity, float friction, size_t substeps) {
  SwerveBounds bounds = box(0.0f, 0.0f, 60.0f, 60.0f);
  SwerveWorld *world = new_world(&bounds, "uniform-grid");
  SwerveVec2 pillar[4];
  SwerveBall *before, *after;
  SwerveContact *contacts;
  double *sum_x, *sum_y, *sizes;
  uint32_t *ids;
  size_t *index_of;
  size_t i, n, step, k, count, segments, by_kind[3] = {0, 0, 0}, early = 0, unaccounted = 0;
  const float dt = 1.0f / 60.0f;
  bool recording;
  rng_state = 0x0003C047;
  pillar[0] = vec2(28.0f, 28.0f);
  pillar[1] = vec2(32.0f, 28.0f);
  pillar[2] = vec2(32.0f, 32.0f);
  pillar[3] = vec2(28.0f, 32.0f);
  MUST(swerve_world_add_polygon(world, pillar, 4));
  MUST(swerve_world_add_segment(world, vec2(5.0f, 50.0f), vec2(20.0f, 56.0f)));
  MUST(swerve_world_num_segments(world, &segments));
  CHECK(segments == 5);
  for (i = 0; i < 400; ++i) {
    float x = 2.0f + (float)(i % 20) * 2.9f, y = 2.0f + (float)(i / 20) * 2.9f;
    float speed = i % 37 == 0 ? 150.0f : 6.0f, angle, r;
    SwerveBall ball;
    uint32_t id;
    if ((fabsf(x - 30.0f) < 3.5f && fabsf(y - 30.0f) < 3.5f) || (y > 47.0f && x < 22.0f)) {
      continue;
    }
    angle = range(0.0f, 6.2831855f);
    r = range(0.0f, speed);
    MUST(swerve_ball_new(vec2(x, y), vec2(cosf(angle) * r, sinf(angle) * r), 1.0f, &ball));
    ball.mass = range(0.2f, 5.0f);
    ball.restitution = range(0.3f, 1.0f);
    ball.radius = range(0.4f, 1.0f);
    ball.friction = friction;
    MUST(swerve_world_add_ball(world, &ball, &id));
  }
  MUST(swerve_world_set_gravity(world, vec2(0.0f, gravity)));
  MUST(swerve_world_set_substeps(world, substeps));
  MUST(swerve_world_set_record_contacts(world, true));
  MUST(swerve_world_records_contacts(world, &recording));
  CHECK(recording);

  n = num_balls(world);
  before = allocate(n, sizeof *before);
  after = allocate(n, sizeof *after);
  sum_x = allocate(n, sizeof *sum_x);
  sum_y = allocate(n, sizeof *sum_y);
  sizes = allocate(n, sizeof *sizes);
  ids = allocate(n, sizeof *ids);
  MUST(swerve_world_ball_ids(world, ids, n, &count));
  index_of = allocate(ids[n - 1] + 1, sizeof *index_of);
  for (i = 0; i < n; ++i) {
    index_of[ids[i]] = i;
  }
  for (step = 0; step < 200; ++step) {
    read_balls(world, before, n);
    MUST(swerve_world_step(world, dt));
    read_balls(world, after, n);
    {
      SwerveStatus asked = swerve_world_contacts(world, NULL, 0, &count);
      CHECK(asked == (count == 0 ? SWERVE_STATUS_OK : SWERVE_STATUS_BUFFER_TOO_SMALL));
    }
    contacts = allocate(count, sizeof *contacts);
    MUST(swerve_world_contacts(world, contacts, count, &count));
    memset(sum_x, 0, n * sizeof *sum_x);
    memset(sum_y, 0, n * sizeof *sum_y);
    memset(sizes, 0, n * sizeof *sizes);
    for (k = 0; k < count; ++k) {
      const SwerveContact *c = &contacts[k];
      size_t a = index_of[c->ball];
      double size = hypot(c->impulse.x, c->impulse.y);
      CHECK(fabs(hypot(c->normal.x, c->normal.y) - 1.0) < 1e-5);
      CHECK(c->time >= 0.0f && c->time <= dt);
      early += c->time < dt;
      sum_x[a] += c->impulse.x;
      sum_y[a] += c->impulse.y;
      sizes[a] += size;
      switch (c->partner.kind) {
        case SWERVE_COLLIDER_KIND_BALL: {
          size_t b = index_of[c->partner.index];
          CHECK(c->ball < c->partner.index); /* the first-added ball leads */
          sum_x[b] -= c->impulse.x;
          sum_y[b] -= c->impulse.y;
          sizes[b] += size;
          break;
        }
        case SWERVE_COLLIDER_KIND_SEGMENT:
          CHECK(c->partner.index < segments);
          break;
        case SWERVE_COLLIDER_KIND_WALL:
          CHECK(c->partner.index <= SWERVE_BOX_WALL_MAX_Y);
          break;
      }
      by_kind[c->partner.kind] += 1;
      /* One per pair, ordered by ball and partner. */
      if (k > 0) {
        const SwerveContact *p = &contacts[k - 1];
        CHECK(p->ball < c->ball ||
              (p->ball == c->ball && (p->partner.kind < c->partner.kind ||
                                      (p->partner.kind == c->partner.kind && p->partner.index < c->partner.index))));
      }
    }
    for (i = 0; i < n; ++i) {
      double m = before[i].mass, weight = m * gravity * dt;
      double dx = m * ((double)after[i].velocity.x - before[i].velocity.x) - sum_x[i];
      double dy = m * ((double)after[i].velocity.y - before[i].velocity.y) - weight - sum_y[i];
      double scale = m * (hypot(before[i].velocity.x, before[i].velocity.y) +
                          hypot(after[i].velocity.x, after[i].velocity.y)) +
                     fabs(weight) + sizes[i] + 1e-6;
      if (hypot(dx, dy) > 1e-5 * scale) {
        if (unaccounted == 0) {
          fprintf(stderr, "step %lu, ball %lu: momentum changed by (%g, %g) beyond its contacts\n",
                  (unsigned long)step + 1, (unsigned long)i, dx, dy);
        }
        ++unaccounted;
      }
    }
    free(contacts);
  }
  CHECK(unaccounted == 0);
  if (!(by_kind[0] > 500 && by_kind[1] > 10 && by_kind[2] > 50 && early > 50)) {
    fprintf(stderr, "too few contacts to test anything: %lu balls, %lu segments, %lu walls, %lu early\n",
            (unsigned long)by_kind[0], (unsigned long)by_kind[1], (unsigned long)by_kind[2], (unsigned long)early);
    ++failures;
  }
  free(before);
  free(after);
  free(sum_x);
  free(sum_y);
  free(sizes);
  free(ids);
  free(index_of);
  swerve_world_free(world);
}

/* Restitution 0.5 without gravity: the kinetic energy never rises and falls markedly. */
static void inelastic_balls_only_lose_energy(const char *broad_phase) {
  SwerveBounds bounds = box(0.0f, 0.0f, 50.0f, 50.0f);
  SwerveWorld *world = new_world(&bounds, broad_phase);
  double e0, e, now;
  size_t i, step, rises = 0;
  rng_state = 0x1E1A;
  for (i = 0; i < 300; ++i) {
    SwerveBall ball;
    uint32_t id;
    float angle = range(0.0f, 6.2831855f), speed = range(0.0f, 10.0f);
    MUST(swerve_ball_new(vec2(2.0f + (float)(i % 17) * 2.8f, 2.0f + (float)(i / 17) * 2.6f),
                         vec2(cosf(angle) * speed, sinf(angle) * speed), 1.0f, &ball));
    ball.restitution = 0.5f;
    MUST(swerve_world_add_ball(world, &ball, &id));
  }
  MUST(swerve_world_kinetic_energy(world, &e0));
  e = e0;
  for (step = 0; step < 600; ++step) {
    MUST(swerve_world_step(world, 1.0f / 60.0f));
    MUST(swerve_world_kinetic_energy(world, &now));
    rises += now > e * (1.0 + 1e-12);
    e = now;
  }
  CHECK(rises == 0);
  CHECK(e < 0.9 * e0);
  swerve_world_free(world);
}

/* Rays, circles and points: the answers geometry gives, and the circle query agrees with a
 * scan in C over every ball. */
static void queries_answer_what_geometry_says(void) {
  SwerveBounds bounds = box(-20.0f, -20.0f, 20.0f, 20.0f);
  SwerveWorld *world = new_world(&bounds, "brute-force");
  SwerveBall ball, *balls;
  SwerveRayHit hit;
  uint32_t id, first, found[512], expected[512];
  size_t i, n, count, trial;
  bool any;

  MUST(swerve_ball_new(vec2(10.0f, 0.0f), vec2(0.0f, 0.0f), 2.0f, &ball));
  MUST(swerve_world_add_ball(world, &ball, &first));
  MUST(swerve_world_add_segment(world, vec2(0.0f, 5.0f), vec2(0.0f, 15.0f)));

  MUST(swerve_world_cast_ray(world, vec2(0.0f, 0.0f), vec2(3.0f, 0.0f), INFINITY, &any, &hit));
  CHECK(any && hit.collider.kind == SWERVE_COLLIDER_KIND_BALL && hit.collider.index == first);
  CHECK(hit.distance == 8.0f && hit.point.x == 8.0f && hit.point.y == 0.0f);
  CHECK(hit.normal.x == -1.0f && hit.normal.y == 0.0f);
  MUST(swerve_world_cast_ray(world, vec2(-5.0f, 10.0f), vec2(1.0f, 0.0f), INFINITY, &any, &hit));
  CHECK(any && hit.collider.kind == SWERVE_COLLIDER_KIND_SEGMENT && hit.collider.index == 0);
  CHECK(hit.distance == 5.0f && hit.normal.x == -1.0f);
  MUST(swerve_world_cast_ray(world, vec2(0.0f, 0.0f), vec2(0.0f, -1.0f), INFINITY, &any, &hit));
  CHECK(any && hit.collider.kind == SWERVE_COLLIDER_KIND_WALL && hit.collider.index == SWERVE_BOX_WALL_MIN_Y);
  CHECK(hit.distance == 20.0f && hit.normal.y == 1.0f);
  hit.distance = -1.0f;
  MUST(swerve_world_cast_ray(world, vec2(0.0f, 0.0f), vec2(0.0f, -1.0f), 19.0f, &any, &hit));
  CHECK(!any && hit.distance == -1.0f); /* no hit: the hit is left alone */

  /* Touching is not overlapping. */
  MUST(swerve_world_balls_in_circle(world, vec2(13.0f, 0.0f), 1.0f, found, 512, &count));
  CHECK(count == 0);
  MUST(swerve_world_balls_in_circle(world, vec2(13.0f, 0.0f), 1.001f, found, 512, &count));
  CHECK(count == 1 && found[0] == first);

  MUST(swerve_world_ball_at(world, vec2(11.0f, 1.0f), &any, &id));
  CHECK(any && id == first);
  id = 77;
  MUST(swerve_world_ball_at(world, vec2(13.0f, 0.0f), &any, &id));
  CHECK(!any && id == 77);

  rng_state = 0x9E1;
  for (i = 0; i < 300; ++i) {
    MUST(swerve_ball_new(vec2(range(-19.0f, 19.0f), range(-19.0f, 19.0f)), vec2(0.0f, 0.0f), range(0.1f, 1.0f),
                         &ball));
    MUST(swerve_world_add_ball(world, &ball, &id));
  }
  n = num_balls(world);
  balls = allocate(n, sizeof *balls);
  read_balls(world, balls, n);
  for (trial = 0; trial < 100; ++trial) {
    SwerveVec2 c = vec2(range(-20.0f, 20.0f), range(-20.0f, 20.0f));
    float r = trial % 5 == 0 ? 0.0f : range(0.0f, 4.0f);
    size_t m = 0;
    if (trial % 2 == 1) {
      /* A circle just reaching, or just not reaching, one of the balls. */
      const SwerveBall *near = &balls[(trial * 7) % n];
      double gap = hypot((double)near->position.x - c.x, (double)near->position.y - c.y) - near->radius;
      r = (float)(gap * (trial % 4 == 1 ? 1.0001 : 0.9999));
      if (r < 0.0f) {
        r = 0.0f;
      }
    }
    for (i = 0; i < n; ++i) {
      double dx = (double)balls[i].position.x - c.x, dy = (double)balls[i].position.y - c.y;
      double reach = (double)balls[i].radius + r;
      if (dx * dx + dy * dy < reach * reach) {
        expected[m++] = (uint32_t)i; /* ids are 0, 1, 2, … here */
      }
    }
    MUST(swerve_world_balls_in_circle(world, c, r, found, 512, &count));
    CHECK(count == m && memcmp(found, expected, m * sizeof *found) == 0);
  }
  free(balls);
  swerve_world_free(world);
}

/* The broad phase's boxes after a step are the kind it builds, and proper boxes. */
static void broad_phase_boxes_are_what_each_builds(void) {
  static const struct {
    const char *name;
    SwerveDebugBoxKind kind;
  } expected[] = {{"uniform-grid", SWERVE_DEBUG_BOX_KIND_GRID_CELL},
                  {"quadtree", SWERVE_DEBUG_BOX_KIND_QUADTREE_NODE},
                  {"sort-and-sweep", SWERVE_DEBUG_BOX_KIND_SWEEP_INTERVAL},
                  {"aabb-tree", SWERVE_DEBUG_BOX_KIND_TREE_NODE}};
  size_t e, i, count;
  for (e = 0; e < sizeof expected / sizeof expected[0]; ++e) {
    SwerveBounds bounds = box(0.0f, 0.0f, 30.0f, 30.0f);
    SwerveWorld *world = new_world(&bounds, expected[e].name);
    SwerveDebugBox *boxes;
    rng_state = 0xDEB;
    for (i = 0; i < 100; ++i) {
      SwerveBall ball;
      uint32_t id;
      MUST(swerve_ball_new(vec2(1.5f + (float)(i % 10) * 3.0f, 1.5f + (float)(i / 10) * 3.0f),
                           vec2(range(-1.0f, 1.0f), range(-1.0f, 1.0f)), 0.5f, &ball));
      MUST(swerve_world_add_ball(world, &ball, &id));
    }
    MUST(swerve_world_step(world, 0.1f));
    CHECK(swerve_world_broad_phase_boxes(world, NULL, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
    CHECK(count > 0);
    boxes = allocate(count, sizeof *boxes);
    MUST(swerve_world_broad_phase_boxes(world, boxes, count, &count));
    for (i = 0; i < count; ++i) {
      CHECK(boxes[i].kind == expected[e].kind);
      CHECK(boxes[i].bounds.min.x <= boxes[i].bounds.max.x && boxes[i].bounds.min.y <= boxes[i].bounds.max.y);
    }
    free(boxes);
    swerve_world_free(world);
  }
}

int main(void) {
  size_t k;
  MUST(swerve_broad_phase_names(names, 16, &name_count));
  CHECK(name_count == 7);
  for (k = 0; k < name_count; ++k) {
    momentum_is_conserved_in_open_space(names[k]);
    balls_stay_inside_the_box(names[k]);
  }
  contacts_account_for_every_change(0.0f, 0.0f, 1);
  contacts_account_for_every_change(-9.81f, 0.0f, 1);
  contacts_account_for_every_change(0.0f, 0.6f, 1);
  contacts_account_for_every_change(-9.81f, 0.6f, 3);
  inelastic_balls_only_lose_energy("hierarchical-grid");
  inelastic_balls_only_lose_energy("grid-sort-and-sweep");
  queries_answer_what_geometry_says();
  broad_phase_boxes_are_what_each_builds();
  return finish();
}
