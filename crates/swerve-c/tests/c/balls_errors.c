/* Bad input to a ball world through swerve's C interface: each refused call returns its
 * status, leaves a message, writes none of its outputs and changes nothing. Exits 0 and
 * prints "all checks passed" when every check holds, and prints each one that does not. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

static SwerveVec2 vec2(float x, float y) {
  SwerveVec2 v;
  v.x = x;
  v.y = y;
  return v;
}

static int same_ball(const SwerveBall *a, const SwerveBall *b) { return memcmp(a, b, sizeof *a) == 0; }

static size_t num_balls(const SwerveWorld *world) {
  size_t n = 12345;
  CHECK(swerve_world_num_balls(world, &n) == SWERVE_STATUS_OK);
  return n;
}

static size_t num_segments(const SwerveWorld *world) {
  size_t n = 12345;
  CHECK(swerve_world_num_segments(world, &n) == SWERVE_STATUS_OK);
  return n;
}

int main(void) {
  SwerveWorld *world = NULL;
  SwerveWorld *untouched = (SwerveWorld *)&failures; /* a marker, never dereferenced */
  SwerveBounds bounds, bad_bounds, got_bounds;
  SwerveBall ball, bad, saved, got, several[3];
  SwerveVec2 v, buffer[4];
  SwerveVec2d momentum;
  SwerveRayHit hit;
  SwerveContact contacts[2];
  SwerveStepStats stats, stats_before;
  const char *name = NULL;
  uint32_t id = 7, a, b, c, k, ids[4], ids_before[4];
  size_t count = 0, n;
  float number;
  bool flag;

  /* ----- creating a world ----- */
  bounds.min = vec2(0.0f, 0.0f);
  bounds.max = vec2(10.0f, 10.0f);
  CHECK(swerve_world_new(&bounds, "octree", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(untouched == (SwerveWorld *)&failures);
  CHECK(message_mentions("unknown broad phase \"octree\""));
  CHECK(message_mentions("aabb-tree")); /* it lists the names */
  CHECK(swerve_world_new(&bounds, "Uniform-Grid", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_new(&bounds, "", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_new(&bounds, "\xff\xfe", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("broad phase"));
  CHECK(swerve_world_new(&bounds, NULL, &untouched) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("broad_phase is a null pointer"));
  CHECK(swerve_world_new(&bounds, "uniform-grid", NULL) == SWERVE_STATUS_NULL_POINTER);
  bad_bounds.min = vec2(0.0f, 0.0f);
  bad_bounds.max = vec2(10.0f, 0.0f); /* flat */
  CHECK(swerve_world_new(&bad_bounds, "uniform-grid", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("bounds"));
  bad_bounds.max = vec2(NAN, 10.0f);
  CHECK(swerve_world_new(&bad_bounds, "uniform-grid", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  bad_bounds.min = vec2(-INFINITY, 0.0f);
  bad_bounds.max = vec2(10.0f, 10.0f);
  CHECK(swerve_world_new(&bad_bounds, "uniform-grid", &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(untouched == (SwerveWorld *)&failures);
  CHECK(swerve_world_new(&bounds, "sort-and-sweep", &world) == SWERVE_STATUS_OK);
  CHECK(world != NULL);
  CHECK(message_mentions("bounds must be finite with min < max")); /* a success leaves the message */
  CHECK(swerve_world_bounds(world, &flag, &got_bounds) == SWERVE_STATUS_OK);
  CHECK(flag && got_bounds.max.x == 10.0f && got_bounds.min.y == 0.0f);

  /* ----- balls ----- */
  CHECK(swerve_ball_new(vec2(2.0f, 2.0f), vec2(1.0f, 0.0f), 0.5f, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_ball_new(vec2(2.0f, 2.0f), vec2(1.0f, 0.0f), 0.5f, &ball) == SWERVE_STATUS_OK);
  CHECK(ball.mass == 3.14159265f * 0.5f * 0.5f && ball.restitution == 1.0f && ball.friction == 0.0f);
  CHECK(swerve_world_add_ball(world, &ball, &a) == SWERVE_STATUS_OK && a == 0);
  ball.position = vec2(5.0f, 5.0f);
  CHECK(swerve_world_add_ball(world, &ball, &b) == SWERVE_STATUS_OK && b == 1);

  /* Each rule of add_ball: refused, nothing added, the id left alone. */
  bad = ball;
  bad.position = vec2(9.8f, 5.0f); /* sticks out of the box */
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("does not fit inside the world's bounds"));
  bad.position = vec2(NAN, 5.0f);
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("ball position must be finite"));
  bad = ball;
  bad.velocity = vec2(0.0f, INFINITY);
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("velocity"));
  bad = ball;
  bad.radius = -0.5f;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("ball radius must be greater than 0"));
  bad.radius = 0.0f;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  bad.radius = NAN;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  bad = ball;
  bad.mass = 0.0f;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("mass"));
  bad.mass = NAN;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  bad = ball;
  bad.restitution = 1.5f;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("restitution"));
  bad = ball;
  bad.friction = -0.1f;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("friction"));
  bad = ball;
  bad.rolling_resistance = -1.0f;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("rolling resistance"));
  bad = ball;
  bad.angular_velocity = NAN;
  CHECK(swerve_world_add_ball(world, &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("angular velocity"));
  CHECK(swerve_world_add_ball(world, NULL, &id) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("ball is a null pointer"));
  CHECK(swerve_world_add_ball(world, &ball, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_add_ball(NULL, &ball, &id) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("world is a null pointer"));
  CHECK(id == 7);
  CHECK(num_balls(world) == 2);
  /* A kinematic ball may come from outside the box. */
  CHECK(swerve_ball_kinematic(vec2(-3.0f, 5.0f), vec2(1.0f, 0.0f), 1.0f, &bad) == SWERVE_STATUS_OK);
  CHECK(bad.mass == INFINITY);
  CHECK(swerve_world_add_ball(world, &bad, &c) == SWERVE_STATUS_OK && c == 2);

  /* add_balls is all or nothing. */
  several[0] = ball;
  several[0].position = vec2(8.0f, 8.0f);
  several[1] = ball;
  several[1].radius = -1.0f;
  several[2] = ball;
  ids[0] = ids[1] = ids[2] = 99;
  CHECK(swerve_world_add_balls(world, several, 3, ids) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("ball 1: ball radius"));
  CHECK(ids[0] == 99 && ids[1] == 99 && ids[2] == 99);
  CHECK(num_balls(world) == 3);
  CHECK(swerve_world_add_balls(world, several, 1, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_add_balls(world, NULL, 1, ids) == SWERVE_STATUS_NULL_POINTER);
  CHECK(num_balls(world) == 3);
  CHECK(swerve_world_add_balls(world, NULL, 0, NULL) == SWERVE_STATUS_OK);
  /* The ids refused adds did not use up: the next is 3. */
  CHECK(swerve_world_add_balls(world, several, 1, ids) == SWERVE_STATUS_OK && ids[0] == 3);

  /* Unknown and removed ids. */
  CHECK(swerve_world_ball(world, 99, &got) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("unknown ball id 99"));
  CHECK(swerve_world_remove_ball(world, 3) == SWERVE_STATUS_OK);
  CHECK(swerve_world_remove_ball(world, 3) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("unknown ball id 3"));
  CHECK(swerve_world_ball_position(world, 3, &v) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world_set_ball_velocity(world, 3, vec2(1.0f, 1.0f)) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world_apply_impulse(world, 3, vec2(1.0f, 1.0f)) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world_set_ball_angular_velocity(world, 3, 1.0f) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world_ball_angular_velocity(world, 3, &number) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world_set_ball(world, 3, &ball) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world_contains_ball(world, 3, &flag) == SWERVE_STATUS_OK && !flag);
  CHECK(swerve_world_contains_ball(world, b, &flag) == SWERVE_STATUS_OK && flag);
  ids[0] = a;
  ids[1] = 3;
  CHECK(swerve_world_remove_balls(world, ids, 2) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_world_contains_ball(world, a, &flag) == SWERVE_STATUS_OK && flag);
  CHECK(swerve_world_remove_balls(world, NULL, 2) == SWERVE_STATUS_NULL_POINTER);
  CHECK(num_balls(world) == 3);

  /* Per-ball setters: refused values change nothing. */
  CHECK(swerve_world_ball(world, a, &saved) == SWERVE_STATUS_OK);
  CHECK(swerve_world_set_ball_position(world, a, vec2(0.2f, 5.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("does not fit"));
  CHECK(swerve_world_set_ball_position(world, a, vec2(5.0f, NAN)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_set_ball_velocity(world, a, vec2(INFINITY, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_apply_impulse(world, a, vec2(NAN, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("impulse"));
  CHECK(swerve_world_apply_impulse(world, a, vec2(3e38f, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_set_ball_angular_velocity(world, a, INFINITY) == SWERVE_STATUS_INVALID_ARGUMENT);
  bad = saved;
  bad.restitution = -0.5f;
  CHECK(swerve_world_set_ball(world, a, &bad) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_set_ball(world, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_ball(world, a, &got) == SWERVE_STATUS_OK && same_ball(&got, &saved));
  got = saved;
  CHECK(swerve_world_ball(world, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_ball_position(NULL, a, &v) == SWERVE_STATUS_NULL_POINTER);
  /* A kinematic ball may be moved anywhere. */
  CHECK(swerve_world_set_ball_position(world, c, vec2(-30.0f, 40.0f)) == SWERVE_STATUS_OK);

  /* ----- all-balls buffers: the count is always reported; a short buffer is left alone ----- */
  buffer[0] = vec2(-9.0f, -9.0f);
  CHECK(swerve_world_positions(world, buffer, 2, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 3 && buffer[0].x == -9.0f);
  CHECK(message_mentions("the buffer has room for 2, the call needs 3"));
  CHECK(swerve_world_positions(world, NULL, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && count == 3);
  CHECK(swerve_world_positions(world, NULL, 4, &count) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_positions(world, buffer, 4, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_velocities(world, buffer, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && buffer[0].x == -9.0f);
  ids[0] = 42;
  CHECK(swerve_world_ball_ids(world, ids, 2, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && ids[0] == 42);
  number = -1.0f;
  CHECK(swerve_world_radii(world, &number, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && number == -1.0f);
  CHECK(swerve_world_masses(world, &number, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && number == -1.0f);
  CHECK(swerve_world_angles(world, &number, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && number == -1.0f);
  CHECK(swerve_world_angular_velocities(world, &number, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(swerve_world_balls(world, &got, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && same_ball(&got, &saved));
  CHECK(swerve_world_ball_ids(world, ids, 4, &count) == SWERVE_STATUS_OK && count == 3);
  CHECK(ids[0] == a && ids[1] == b && ids[2] == c);

  /* Setting all at once: the count must match, and every value pass. */
  CHECK(swerve_world_positions(world, buffer, 4, &count) == SWERVE_STATUS_OK);
  buffer[3] = buffer[1];
  buffer[1] = vec2(9.9f, 5.0f); /* ball b sticks out there */
  CHECK(swerve_world_set_positions(world, buffer, 3) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("does not fit"));
  CHECK(swerve_world_set_positions(world, buffer, 2) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("position count must be equal to the number of balls"));
  CHECK(swerve_world_set_positions(world, NULL, 3) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_ball_position(world, b, &v) == SWERVE_STATUS_OK && v.x == buffer[3].x && v.y == buffer[3].y);
  buffer[0] = vec2(1.0f, 1.0f);
  buffer[1] = vec2(NAN, 1.0f);
  buffer[2] = vec2(1.0f, 1.0f);
  CHECK(swerve_world_set_velocities(world, buffer, 3) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_set_velocities(world, buffer, 4) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_ball_velocity(world, a, &v) == SWERVE_STATUS_OK && v.x == saved.velocity.x && v.y == 0.0f);

  /* ----- segments ----- */
  CHECK(swerve_world_add_segment(world, vec2(1.0f, 1.0f), vec2(1.0f, 1.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("same point"));
  CHECK(swerve_world_add_segment(world, vec2(1.0f, NAN), vec2(2.0f, 1.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  buffer[0] = vec2(6.0f, 6.0f);
  buffer[1] = vec2(8.0f, 8.0f);
  buffer[2] = vec2(8.0f, 6.0f);
  buffer[3] = vec2(6.0f, 8.0f);
  CHECK(swerve_world_add_polygon(world, buffer, 4) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("intersect"));
  CHECK(swerve_world_add_polygon(world, buffer, 1) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_add_polygon(world, NULL, 3) == SWERVE_STATUS_NULL_POINTER);
  CHECK(num_segments(world) == 0);
  CHECK(swerve_world_add_polygon(world, buffer, 3) == SWERVE_STATUS_OK);
  CHECK(num_segments(world) == 3);
  {
    SwerveSegment segment;
    segment.a = vec2(-1.0f, -1.0f);
    CHECK(swerve_world_segments(world, &segment, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 3 && segment.a.x == -1.0f);
  }

  /* ----- settings ----- */
  CHECK(swerve_world_step(world, 0.0f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("dt must be finite and greater than 0"));
  CHECK(swerve_world_set_gravity(world, vec2(0.0f, NAN)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("gravity"));
  CHECK(swerve_world_gravity(world, &v) == SWERVE_STATUS_OK && v.x == 0.0f && v.y == 0.0f);
  CHECK(swerve_world_set_substeps(world, 0) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_set_substeps(world, 65) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("substeps"));
  CHECK(swerve_world_substeps(world, &n) == SWERVE_STATUS_OK && n == 1);
  CHECK(swerve_world_set_solver_iterations(world, 0) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_set_solver_iterations(world, 1001) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_solver_iterations(world, &n) == SWERVE_STATUS_OK && n == 10);
  CHECK(swerve_world_set_linear_damping(world, -1.0f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_set_linear_damping(world, INFINITY) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_linear_damping(world, &number) == SWERVE_STATUS_OK && number == 0.0f);
  CHECK(swerve_world_set_broad_phase(world, "octree") == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_set_broad_phase(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_broad_phase(world, &name) == SWERVE_STATUS_OK && strcmp(name, "sort-and-sweep") == 0);
  CHECK(swerve_world_broad_phase(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_set_continuous_collision(NULL, true) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_set_velocity_compensation(NULL, true) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_set_record_contacts(NULL, true) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_kinetic_energy(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_momentum(NULL, &momentum) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_last_step_stats(world, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_bounds(world, &flag, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_broad_phase_names(NULL, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && count == 7);

  /* ----- stepping: a refused step changes nothing, not even the last step's records ----- */
  CHECK(swerve_world_set_record_contacts(world, true) == SWERVE_STATUS_OK);
  CHECK(swerve_world_set_ball_velocity(world, a, vec2(-20.0f, 0.0f)) == SWERVE_STATUS_OK);
  CHECK(swerve_world_step(world, 0.1f) == SWERVE_STATUS_OK);
  CHECK(swerve_world_contacts(world, contacts, 2, &count) == SWERVE_STATUS_OK);
  CHECK(count == 1 && contacts[0].ball == a && contacts[0].partner.kind == SWERVE_COLLIDER_KIND_WALL &&
        contacts[0].partner.index == SWERVE_BOX_WALL_MIN_X);
  CHECK(swerve_world_last_step_stats(world, &stats_before) == SWERVE_STATUS_OK);
  CHECK(swerve_world_ball(world, a, &saved) == SWERVE_STATUS_OK);
  CHECK(swerve_world_ball_ids(world, ids_before, 4, &count) == SWERVE_STATUS_OK);
  CHECK(swerve_world_step(world, NAN) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_step(world, -0.1f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_step(world, INFINITY) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_step(NULL, 0.1f) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_ball(world, a, &got) == SWERVE_STATUS_OK && same_ball(&got, &saved));
  CHECK(swerve_world_last_step_stats(world, &stats) == SWERVE_STATUS_OK);
  CHECK(memcmp(&stats, &stats_before, sizeof stats) == 0);
  CHECK(swerve_world_contacts(world, NULL, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && count == 1);
  contacts[1].ball = 4242;
  CHECK(swerve_world_contacts(world, &contacts[1], 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(contacts[1].ball == 4242);
  CHECK(swerve_world_ball_ids(world, ids, 4, &count) == SWERVE_STATUS_OK && count == 3);
  CHECK(memcmp(ids, ids_before, 3 * sizeof *ids) == 0);

  /* ----- queries ----- */
  hit.distance = -7.0f;
  flag = false;
  CHECK(swerve_world_cast_ray(world, vec2(5.0f, 1.0f), vec2(0.0f, 0.0f), 10.0f, &flag, &hit) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("ray direction"));
  CHECK(swerve_world_cast_ray(world, vec2(5.0f, 1.0f), vec2(1.0f, 0.0f), -1.0f, &flag, &hit) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_cast_ray(world, vec2(5.0f, 1.0f), vec2(1.0f, 0.0f), NAN, &flag, &hit) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_cast_ray(world, vec2(NAN, 1.0f), vec2(1.0f, 0.0f), 1.0f, &flag, &hit) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_cast_ray(world, vec2(5.0f, 1.0f), vec2(1.0f, 0.0f), 1.0f, NULL, &hit) ==
        SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_world_cast_ray(world, vec2(5.0f, 1.0f), vec2(1.0f, 0.0f), 1.0f, &flag, NULL) ==
        SWERVE_STATUS_NULL_POINTER);
  CHECK(!flag && hit.distance == -7.0f);
  CHECK(swerve_world_balls_in_circle(world, vec2(5.0f, 5.0f), -1.0f, ids, 4, &count) ==
        SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("radius"));
  k = 31;
  CHECK(swerve_world_ball_at(world, vec2(NAN, 5.0f), &flag, &k) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_world_ball_at(world, vec2(5.0f, 5.0f), &flag, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(!flag && k == 31);
  CHECK(swerve_world_broad_phase_boxes(world, NULL, 0, NULL) == SWERVE_STATUS_NULL_POINTER);

  swerve_world_free(world);
  swerve_world_free(NULL);
  return finish();
}
