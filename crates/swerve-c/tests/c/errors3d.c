/* Bad input through swerve's 3-D C interface: each refused call returns its status, leaves a
 * message, writes none of its outputs and changes nothing — checked by reading the state
 * back and by stepping the simulator beside a twin that never saw the bad calls. Exits 0
 * when every check holds, and prints each one that does not. */
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

static int same_vec3(SwerveVec3 a, SwerveVec3 b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Two agents flying at each other, with preferred velocities set. */
static SwerveSimulator3d *head_on(void) {
  SwerveSimulator3d *sim = NULL;
  uint32_t id;
  if (swerve_simulator3d_new(0.125f, NULL, &sim) != SWERVE_STATUS_OK) {
    return NULL;
  }
  swerve_simulator3d_add_agent(sim, vec3(-6.0f, 0.0f, 0.0f), &id);
  swerve_simulator3d_set_agent_pref_velocity(sim, id, vec3(1.0f, 0.0f, 0.0f));
  swerve_simulator3d_add_agent(sim, vec3(6.0f, 0.0f, 0.0f), &id);
  swerve_simulator3d_set_agent_pref_velocity(sim, id, vec3(-1.0f, 0.0f, 0.0f));
  return sim;
}

/* Steps `sim` `steps` times; whether every agent's velocity equals its preferred velocity,
 * bit for bit, after every step (what an agent that avoids nobody does). */
static int keeps_preferred(SwerveSimulator3d *sim, int steps) {
  SwerveVec3 velocities[8], preferred[8];
  size_t n = 0, m = 0;
  int k;
  for (k = 0; k < steps; ++k) {
    if (swerve_simulator3d_step(sim) != SWERVE_STATUS_OK ||
        swerve_simulator3d_velocities(sim, velocities, 8, &n) != SWERVE_STATUS_OK ||
        swerve_simulator3d_pref_velocities(sim, preferred, 8, &m) != SWERVE_STATUS_OK || n != m ||
        memcmp(velocities, preferred, n * sizeof velocities[0]) != 0) {
      return 0;
    }
  }
  return 1;
}

/* Steps both simulators `steps` times; whether every position and velocity stays bit for bit
 * the same in both. */
static int step_alike(SwerveSimulator3d *a, SwerveSimulator3d *b, int steps) {
  SwerveVec3 pa[8], pb[8], va[8], vb[8];
  size_t na = 0, nb = 0;
  int k;
  for (k = 0; k < steps; ++k) {
    if (swerve_simulator3d_step(a) != SWERVE_STATUS_OK || swerve_simulator3d_step(b) != SWERVE_STATUS_OK) {
      return 0;
    }
    if (swerve_simulator3d_positions(a, pa, 8, &na) != SWERVE_STATUS_OK ||
        swerve_simulator3d_positions(b, pb, 8, &nb) != SWERVE_STATUS_OK || na != nb ||
        memcmp(pa, pb, na * sizeof pa[0]) != 0) {
      return 0;
    }
    if (swerve_simulator3d_velocities(a, va, 8, &na) != SWERVE_STATUS_OK ||
        swerve_simulator3d_velocities(b, vb, 8, &nb) != SWERVE_STATUS_OK || na != nb ||
        memcmp(va, vb, na * sizeof va[0]) != 0) {
      return 0;
    }
  }
  return 1;
}

int main(void) {
  SwerveSimulator3d *sim = NULL, *twin = NULL;
  SwerveSimulator3d *untouched = (SwerveSimulator3d *)&failures; /* a marker, never dereferenced */
  SwerveAgentParams3d params, bad, read;
  SwerveVec3 position, buffer[4];
  SwerveSymmetryBreaking3d symmetry;
  SwerveOverlapResolution overlap;
  SwerveMover3d mover, seen_mover;
  SwervePlane planes[4];
  uint32_t id = 7, ids[4], a, b, neighbors[8];
  size_t count = 0, n = 0;
  float value;
  uint32_t bits;
  bool seen;

  CHECK(strcmp(swerve_last_error_message(), "") == 0);

  /* Constructors and defaults. */
  CHECK(swerve_agent_params3d_default(&params) == SWERVE_STATUS_OK);
  CHECK(params.neighbor_dist == 15.0f && params.max_neighbors == 10 && params.time_horizon == 10.0f &&
        params.radius == 1.5f && params.max_speed == 2.0f);
  CHECK(swerve_agent_params3d_default(NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_new(0.0f, NULL, &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(untouched == (SwerveSimulator3d *)&failures);
  CHECK(message_mentions("time step"));
  CHECK(swerve_simulator3d_new(INFINITY, NULL, &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("finite"));
  CHECK(swerve_simulator3d_new(0.25f, NULL, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("null"));
  bad = params;
  bad.radius = -1.0f;
  CHECK(swerve_simulator3d_new(0.25f, &bad, &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("radius"));
  bad = params;
  bad.time_horizon = 0.0f;
  CHECK(swerve_simulator3d_new(0.25f, &bad, &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("time horizon"));
  CHECK(untouched == (SwerveSimulator3d *)&failures);
  CHECK(swerve_simulator3d_new(0.25f, &params, &sim) == SWERVE_STATUS_OK);
  CHECK(sim != NULL);
  /* A success leaves the last message as it was. */
  CHECK(message_mentions("time horizon"));

  /* Agents. */
  CHECK(swerve_simulator3d_add_agent(sim, vec3(0.0f, 0.0f, 0.0f), &a) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_add_agent(sim, vec3(4.0f, 0.0f, 1.0f), &b) == SWERVE_STATUS_OK);
  CHECK(a == 0 && b == 1);
  CHECK(swerve_simulator3d_add_agent(sim, vec3(0.0f, 0.0f, NAN), &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(id == 7);
  CHECK(message_mentions("finite"));
  bad = params;
  bad.max_speed = -2.0f;
  CHECK(swerve_simulator3d_add_agent_with(sim, vec3(1.0f, 1.0f, 1.0f), &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("max speed"));
  CHECK(swerve_simulator3d_add_agent_with(sim, vec3(1.0f, 1.0f, 1.0f), NULL, &id) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_add_agent_with(sim, vec3(1.0f, 1.0f, 1.0f), &params, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(id == 7);
  CHECK(swerve_simulator3d_num_agents(sim, &n) == SWERVE_STATUS_OK && n == 2);
  position = vec3(-9.0f, -9.0f, -9.0f);
  CHECK(swerve_simulator3d_agent_position(sim, 99, &position) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("99"));
  CHECK(position.x == -9.0f && position.z == -9.0f);
  CHECK(swerve_simulator3d_set_agent_position(sim, 99, vec3(1.0f, 2.0f, 3.0f)) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_set_agent_position(sim, b, vec3(1.0f, INFINITY, 3.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_agent_position(sim, b, &position) == SWERVE_STATUS_OK);
  CHECK(same_vec3(position, vec3(4.0f, 0.0f, 1.0f)));
  CHECK(swerve_simulator3d_set_agent_velocity(sim, a, vec3(INFINITY, 0.0f, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_agent_velocity(sim, a, &position) == SWERVE_STATUS_OK);
  CHECK(same_vec3(position, vec3(0.0f, 0.0f, 0.0f)));
  CHECK(swerve_simulator3d_set_agent_pref_velocity(sim, a, vec3(0.0f, NAN, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_agent_velocity(sim, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  bad = params;
  bad.neighbor_dist = NAN;
  CHECK(swerve_simulator3d_set_agent_params(sim, a, &bad) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("neighbor distance"));
  CHECK(swerve_simulator3d_set_agent_params(sim, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_set_agent_params(sim, 5, &params) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_agent_params(sim, a, &read) == SWERVE_STATUS_OK);
  CHECK(read.neighbor_dist == params.neighbor_dist && read.max_neighbors == params.max_neighbors &&
        read.time_horizon == params.time_horizon && read.radius == params.radius && read.max_speed == params.max_speed);
  CHECK(swerve_simulator3d_set_agent_responsibility(sim, a, -0.5f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("responsibility"));
  CHECK(swerve_simulator3d_set_agent_responsibility(sim, a, NAN) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_agent_responsibility(sim, a, &value) == SWERVE_STATUS_OK);
  CHECK(value == 0.5f);
  /* Acceleration limits: > 0, or INFINITY for none (the default). */
  CHECK(swerve_simulator3d_agent_max_acceleration(sim, a, &value) == SWERVE_STATUS_OK && isinf(value));
  CHECK(swerve_simulator3d_set_agent_max_acceleration(sim, a, -1.0f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("acceleration"));
  CHECK(swerve_simulator3d_set_agent_max_acceleration(sim, 99, 1.0f) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_agent_max_acceleration(sim, a, &value) == SWERVE_STATUS_OK && isinf(value));
  CHECK(swerve_simulator3d_set_agent_max_acceleration(sim, a, 2.0f) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_agent_max_acceleration(sim, a, &value) == SWERVE_STATUS_OK && value == 2.0f);
  CHECK(swerve_simulator3d_set_agent_max_acceleration(sim, a, INFINITY) == SWERVE_STATUS_OK);
  /* Avoidance layers and masks: any 32 bits; layers 1 and mask 1 (RVO2-3D) by default. */
  CHECK(swerve_simulator3d_agent_avoidance_layers(sim, a, &bits) == SWERVE_STATUS_OK && bits == 1);
  CHECK(swerve_simulator3d_agent_avoidance_mask(sim, a, &bits) == SWERVE_STATUS_OK && bits == 1);
  bits = 77;
  CHECK(swerve_simulator3d_agent_avoidance_layers(sim, 99, &bits) == SWERVE_STATUS_UNKNOWN_ID && bits == 77);
  CHECK(message_mentions("99"));
  CHECK(swerve_simulator3d_agent_avoidance_mask(sim, 98, &bits) == SWERVE_STATUS_UNKNOWN_ID && bits == 77);
  CHECK(message_mentions("98"));
  CHECK(swerve_simulator3d_set_agent_avoidance_layers(sim, 97, 2u) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("97"));
  CHECK(swerve_simulator3d_set_agent_avoidance_mask(sim, 96, 2u) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("96"));
  CHECK(swerve_simulator3d_agent_avoidance_layers(sim, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_agent_avoidance_mask(sim, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_agent_avoidance_layers(NULL, a, &bits) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_agent_avoidance_mask(NULL, a, &bits) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_set_agent_avoidance_layers(NULL, a, 2u) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_set_agent_avoidance_mask(NULL, a, 2u) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("simulator"));
  CHECK(bits == 77);
  CHECK(swerve_simulator3d_set_agent_avoidance_layers(sim, a, 0xFFFFFFFFu) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_set_agent_avoidance_mask(sim, b, 0x80000000u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_agent_avoidance_layers(sim, a, &bits) == SWERVE_STATUS_OK && bits == 0xFFFFFFFFu);
  CHECK(swerve_simulator3d_agent_avoidance_mask(sim, a, &bits) == SWERVE_STATUS_OK && bits == 1);
  CHECK(swerve_simulator3d_agent_avoidance_layers(sim, b, &bits) == SWERVE_STATUS_OK && bits == 1);
  CHECK(swerve_simulator3d_agent_avoidance_mask(sim, b, &bits) == SWERVE_STATUS_OK && bits == 0x80000000u);
  CHECK(swerve_simulator3d_set_agent_avoidance_layers(sim, a, 1u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_set_agent_avoidance_mask(sim, b, 1u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_agent_position(NULL, a, &position) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("simulator"));

  /* Defaults and the time step. */
  bad = params;
  bad.radius = 0.0f;
  CHECK(swerve_simulator3d_set_agent_defaults(sim, &bad) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_set_agent_defaults(sim, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_agent_defaults(sim, &read) == SWERVE_STATUS_OK);
  CHECK(read.radius == params.radius);
  CHECK(swerve_simulator3d_set_time_step(sim, NAN) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_set_time_step(sim, -0.1f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_time_step(sim, &value) == SWERVE_STATUS_OK && value == 0.25f);
  CHECK(swerve_simulator3d_global_time(sim, &value) == SWERVE_STATUS_OK && value == 0.0f);

  /* Buffers: the count is always reported; a short buffer is left alone. */
  buffer[0] = vec3(-9.0f, -9.0f, -9.0f);
  CHECK(swerve_simulator3d_positions(sim, buffer, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 2 && buffer[0].x == -9.0f);
  CHECK(message_mentions("buffer"));
  CHECK(swerve_simulator3d_velocities(sim, NULL, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && count == 2);
  CHECK(swerve_simulator3d_pref_velocities(sim, buffer, 4, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_positions(sim, NULL, 4, &count) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_positions(sim, buffer, 4, &count) == SWERVE_STATUS_OK);
  CHECK(count == 2 && same_vec3(buffer[1], vec3(4.0f, 0.0f, 1.0f)));
  ids[0] = 42;
  CHECK(swerve_simulator3d_agent_ids(sim, ids, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && ids[0] == 42);
  CHECK(swerve_simulator3d_agent_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && ids[0] == a && ids[1] == b);
  buffer[0] = vec3(1.0f, 0.0f, 0.0f);
  buffer[1] = vec3(NAN, 0.0f, 0.0f);
  CHECK(swerve_simulator3d_set_pref_velocities(sim, buffer, 2) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_set_pref_velocities(sim, buffer, 1) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("number of preferred velocities"));
  CHECK(swerve_simulator3d_set_pref_velocities(sim, NULL, 2) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_agent_pref_velocity(sim, a, &position) == SWERVE_STATUS_OK);
  CHECK(same_vec3(position, vec3(0.0f, 0.0f, 0.0f)));

  /* Records: refused until asked for, then filled by the next step. */
  CHECK(swerve_simulator3d_agent_neighbors(sim, a, neighbors, 8, &count) == SWERVE_STATUS_NOT_RECORDED);
  CHECK(message_mentions("record"));
  CHECK(swerve_simulator3d_agent_planes(sim, a, planes, 4, &count) == SWERVE_STATUS_NOT_RECORDED);
  CHECK(swerve_simulator3d_agent_planes(sim, 12, planes, 4, &count) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_set_record_decisions(sim, true) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_set_record_decisions(NULL, true) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_set_agent_pref_velocity(sim, a, vec3(1.0f, 0.0f, 0.0f)) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_set_agent_pref_velocity(sim, b, vec3(-1.0f, 0.0f, 0.0f)) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_step(sim) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_step(NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_global_time(sim, &value) == SWERVE_STATUS_OK && value == 0.25f);
  CHECK(swerve_simulator3d_agent_neighbors(sim, a, neighbors, 8, &count) == SWERVE_STATUS_OK);
  CHECK(count == 1 && neighbors[0] == b);
  planes[0].point.x = -9.0f;
  CHECK(swerve_simulator3d_agent_planes(sim, a, planes, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 1 && planes[0].point.x == -9.0f);
  CHECK(swerve_simulator3d_agent_planes(sim, a, planes, 4, &count) == SWERVE_STATUS_OK && count == 1);
  value = planes[0].normal.x * planes[0].normal.x + planes[0].normal.y * planes[0].normal.y +
          planes[0].normal.z * planes[0].normal.z;
  CHECK(fabsf(value - 1.0f) < 1e-5f);
  /* The plane points away from b: a may not head straight at it. */
  CHECK(planes[0].normal.x < 0.0f);

  /* Options beyond RVO2-3D: refused values change nothing, as a twin shows. */
  twin = head_on();
  CHECK(twin != NULL);
  swerve_simulator3d_free(sim);
  sim = head_on();
  CHECK(sim != NULL);
  symmetry.jitter = 0.001f;
  symmetry.seed = 3;
  symmetry.cone = 0.2f;
  symmetry.turn = 0.35f;
  symmetry.up = vec3(0.0f, 0.0f, 0.0f);
  CHECK(swerve_simulator3d_set_symmetry_breaking(sim, &symmetry) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("up"));
  symmetry.up = vec3(0.0f, 0.0f, 1.0f);
  symmetry.jitter = -1.0f;
  CHECK(swerve_simulator3d_set_symmetry_breaking(sim, &symmetry) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("jitter"));
  symmetry.jitter = 0.001f;
  symmetry.turn = NAN;
  CHECK(swerve_simulator3d_set_symmetry_breaking(sim, &symmetry) == SWERVE_STATUS_INVALID_ARGUMENT);
  overlap.passes = 2;
  overlap.margin = -0.5f;
  CHECK(swerve_simulator3d_set_overlap_resolution(sim, &overlap) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("overlap margin"));
  CHECK(swerve_simulator3d_set_strict_speed_limit(NULL, true) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_set_threads(sim, 2) == SWERVE_STATUS_OK);
  CHECK(step_alike(sim, twin, 40));
  /* The same calls with good values do change the run: symmetry breaking turns them aside. */
  symmetry.turn = 0.35f;
  CHECK(swerve_simulator3d_set_symmetry_breaking(sim, &symmetry) == SWERVE_STATUS_OK);
  CHECK(!step_alike(sim, twin, 40));
  CHECK(swerve_simulator3d_set_symmetry_breaking(sim, NULL) == SWERVE_STATUS_OK);
  swerve_simulator3d_free(twin);

  /* Avoidance layers: two agents flying at each other on layer 1 but looking for layer 2
   * ignore each other and fly straight through; the same pair with the defaults does not,
   * and refused calls change nothing. */
  twin = head_on();
  CHECK(twin != NULL);
  CHECK(!keeps_preferred(twin, 40));
  swerve_simulator3d_free(twin);
  twin = head_on();
  CHECK(swerve_simulator3d_set_agent_avoidance_mask(twin, 5, 2u) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_set_agent_avoidance_layers(twin, 5, 2u) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(!keeps_preferred(twin, 40));
  swerve_simulator3d_free(twin);
  twin = head_on();
  CHECK(swerve_simulator3d_set_agent_avoidance_mask(twin, 0, 2u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_set_agent_avoidance_mask(twin, 1, 2u) == SWERVE_STATUS_OK);
  CHECK(keeps_preferred(twin, 96));
  CHECK(swerve_simulator3d_positions(twin, buffer, 4, &count) == SWERVE_STATUS_OK && count == 2);
  CHECK(buffer[0].x > buffer[1].x); /* passed through each other */
  swerve_simulator3d_free(twin);

  /* Movers. */
  mover.position = vec3(0.0f, 5.0f, 0.0f);
  mover.velocity = vec3(0.0f, -1.0f, 0.0f);
  mover.radius = 0.0f;
  id = 7;
  CHECK(swerve_simulator3d_add_mover(sim, &mover, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("mover radius"));
  mover.radius = 1.0f;
  mover.velocity.z = INFINITY;
  CHECK(swerve_simulator3d_add_mover(sim, &mover, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("mover velocity"));
  CHECK(swerve_simulator3d_add_mover(sim, NULL, &id) == SWERVE_STATUS_NULL_POINTER);
  CHECK(id == 7);
  mover.velocity.z = 0.0f;
  CHECK(swerve_simulator3d_add_mover(sim, &mover, &id) == SWERVE_STATUS_OK && id == 0);
  seen_mover = mover;
  seen_mover.radius = -3.0f;
  CHECK(swerve_simulator3d_set_mover(sim, id, &seen_mover) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator3d_set_mover(sim, 3, &mover) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("mover id 3"));
  CHECK(swerve_simulator3d_mover(sim, id, &seen_mover) == SWERVE_STATUS_OK);
  CHECK(seen_mover.radius == 1.0f && same_vec3(seen_mover.position, mover.position));
  CHECK(swerve_simulator3d_mover(sim, 3, &seen_mover) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_remove_mover(sim, 3) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_remove_mover(sim, id) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_remove_mover(sim, id) == SWERVE_STATUS_UNKNOWN_ID);

  /* Removal keeps the other ids, and clears the neighbours recorded before it. */
  CHECK(swerve_simulator3d_set_record_decisions(sim, true) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_step(sim) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_agent_neighbors(sim, 1, neighbors, 8, &count) == SWERVE_STATUS_OK && count == 1);
  CHECK(swerve_simulator3d_remove_agent(sim, 0) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator3d_remove_agent(sim, 0) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_set_agent_avoidance_mask(sim, 0, 2u) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator3d_agent_avoidance_layers(sim, 0, &bits) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("unknown agent id 0"));
  CHECK(swerve_simulator3d_contains_agent(sim, 0, &seen) == SWERVE_STATUS_OK && !seen);
  CHECK(swerve_simulator3d_contains_agent(sim, 1, &seen) == SWERVE_STATUS_OK && seen);
  CHECK(swerve_simulator3d_contains_agent(sim, 1, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator3d_agent_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && count == 1 && ids[0] == 1);
  CHECK(swerve_simulator3d_agent_neighbors(sim, 1, neighbors, 8, &count) == SWERVE_STATUS_OK && count == 0);
  CHECK(swerve_simulator3d_add_agent(sim, vec3(0.0f, 0.0f, 0.0f), &id) == SWERVE_STATUS_OK && id == 2);

  swerve_simulator3d_free(sim);

  /* Static obstacles (beyond RVO2-3D): refused meshes, boxes and horizons change nothing and
   * take no id, as a twin shows; the same calls with good values do change the run. */
  sim = head_on();
  twin = head_on();
  CHECK(sim != NULL && twin != NULL);
  {
    SwerveVec3 wall[4], nan_wall[4];
    uint32_t square[6] = {0, 1, 2, 0, 2, 3}, beyond[6] = {0, 1, 2, 0, 2, 4}, flat[6] = {0, 1, 2, 0, 2, 2};
    SwerveTriangle triangles[12];
    SwervePlane box_planes[32];
    size_t obstacle_planes = 99;
    wall[0] = vec3(0.0f, -10.0f, -10.0f);
    wall[1] = vec3(0.0f, 10.0f, -10.0f);
    wall[2] = vec3(0.0f, 10.0f, 10.0f);
    wall[3] = vec3(0.0f, -10.0f, 10.0f);
    memcpy(nan_wall, wall, sizeof wall);
    nan_wall[2].y = NAN;
    id = 7;
    CHECK(swerve_simulator3d_add_obstacle(sim, nan_wall, 4, square, 2, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("mesh vertex must be finite"));
    CHECK(swerve_simulator3d_add_obstacle(sim, wall, 4, beyond, 2, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("triangle 1 names vertex 4, but the mesh has 4 vertices"));
    CHECK(swerve_simulator3d_add_obstacle(sim, wall, 4, flat, 2, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("triangle 1 has no area"));
    CHECK(swerve_simulator3d_add_obstacle(sim, wall, 4, square, (size_t)-1, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("more than memory holds"));
    CHECK(swerve_simulator3d_add_obstacle(sim, NULL, 4, square, 2, &id) == SWERVE_STATUS_NULL_POINTER);
    CHECK(message_mentions("vertices"));
    CHECK(swerve_simulator3d_add_obstacle(sim, wall, 4, NULL, 2, &id) == SWERVE_STATUS_NULL_POINTER);
    CHECK(message_mentions("indices"));
    CHECK(swerve_simulator3d_add_obstacle(sim, wall, 4, square, 2, NULL) == SWERVE_STATUS_NULL_POINTER);
    CHECK(message_mentions("out_id"));
    CHECK(swerve_simulator3d_add_obstacle(NULL, wall, 4, square, 2, &id) == SWERVE_STATUS_NULL_POINTER);
    CHECK(message_mentions("simulator"));
    CHECK(swerve_simulator3d_add_box_obstacle(sim, vec3(-1.0f, -1.0f, -1.0f), vec3(1.0f, 1.0f, -0.99995f), &id) ==
          SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("box thickness"));
    CHECK(swerve_simulator3d_add_box_obstacle(sim, vec3(1.0f, 1.0f, 1.0f), vec3(-1.0f, 2.0f, 2.0f), &id) ==
          SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("box thickness"));
    CHECK(swerve_simulator3d_add_box_obstacle(sim, vec3(-1.0f, -1.0f, -1.0f), vec3(1.0f, INFINITY, 1.0f), &id) ==
          SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("box corner must be finite"));
    CHECK(swerve_simulator3d_add_box_obstacle(sim, vec3(-1.0f, -1.0f, -1.0f), vec3(1.0f, 1.0f, 1.0f), NULL) ==
          SWERVE_STATUS_NULL_POINTER);
    CHECK(id == 7);
    CHECK(swerve_simulator3d_obstacle_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && count == 0);
    CHECK(swerve_simulator3d_remove_obstacle(sim, 0) == SWERVE_STATUS_UNKNOWN_ID);
    CHECK(message_mentions("unknown obstacle id 0"));
    CHECK(swerve_simulator3d_obstacle_triangles(sim, 0, triangles, 12, &count) == SWERVE_STATUS_UNKNOWN_ID);
    /* Obstacle time horizons: > 0 and finite; the agent's time horizon (10 s) unless set. */
    CHECK(swerve_simulator3d_set_agent_obstacle_time_horizon(sim, 0, 0.0f) == SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("obstacle time horizon"));
    CHECK(swerve_simulator3d_set_agent_obstacle_time_horizon(sim, 1, -2.0f) == SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(swerve_simulator3d_set_agent_obstacle_time_horizon(sim, 0, NAN) == SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(swerve_simulator3d_set_agent_obstacle_time_horizon(sim, 0, INFINITY) == SWERVE_STATUS_INVALID_ARGUMENT);
    CHECK(message_mentions("finite"));
    CHECK(swerve_simulator3d_set_agent_obstacle_time_horizon(sim, 9, 1.0f) == SWERVE_STATUS_UNKNOWN_ID);
    CHECK(message_mentions("unknown agent id 9"));
    CHECK(swerve_simulator3d_set_agent_obstacle_time_horizon(NULL, 0, 1.0f) == SWERVE_STATUS_NULL_POINTER);
    value = -1.0f;
    CHECK(swerve_simulator3d_agent_obstacle_time_horizon(sim, 9, &value) == SWERVE_STATUS_UNKNOWN_ID && value == -1.0f);
    CHECK(swerve_simulator3d_agent_obstacle_time_horizon(sim, 0, NULL) == SWERVE_STATUS_NULL_POINTER);
    CHECK(swerve_simulator3d_agent_obstacle_time_horizon(sim, 0, &value) == SWERVE_STATUS_OK && value == 10.0f);
    CHECK(swerve_simulator3d_agent_obstacle_time_horizon(sim, 1, &value) == SWERVE_STATUS_OK && value == 10.0f);
    /* The plane count is a record. */
    CHECK(swerve_simulator3d_agent_obstacle_plane_count(sim, 0, &obstacle_planes) == SWERVE_STATUS_NOT_RECORDED);
    CHECK(swerve_simulator3d_agent_obstacle_plane_count(sim, 9, &obstacle_planes) == SWERVE_STATUS_UNKNOWN_ID);
    CHECK(obstacle_planes == 99);
    CHECK(step_alike(sim, twin, 20));

    /* Good values: a box between the two, which then holds them apart from it. */
    CHECK(swerve_simulator3d_add_box_obstacle(sim, vec3(-1.0f, -1.0f, -1.0f), vec3(1.0f, 1.0f, 1.0f), &id) ==
          SWERVE_STATUS_OK);
    CHECK(id == 0); /* the refused adds took no id */
    CHECK(swerve_simulator3d_add_obstacle(sim, wall, 4, square, 2, &id) == SWERVE_STATUS_OK && id == 1);
    CHECK(swerve_simulator3d_obstacle_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && count == 2);
    CHECK(ids[0] == 0 && ids[1] == 1);
    triangles[0].a.x = -9.0f;
    CHECK(swerve_simulator3d_obstacle_triangles(sim, 0, triangles, 11, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 12 && triangles[0].a.x == -9.0f);
    CHECK(swerve_simulator3d_obstacle_triangles(sim, 1, triangles, 12, &count) == SWERVE_STATUS_OK && count == 2);
    CHECK(same_vec3(triangles[1].a, wall[0]) && same_vec3(triangles[1].b, wall[2]) && same_vec3(triangles[1].c, wall[3]));
    CHECK(swerve_simulator3d_remove_obstacle(sim, 1) == SWERVE_STATUS_OK);
    CHECK(swerve_simulator3d_remove_obstacle(sim, 1) == SWERVE_STATUS_UNKNOWN_ID);
    CHECK(swerve_simulator3d_obstacle_triangles(sim, 1, triangles, 12, &count) == SWERVE_STATUS_UNKNOWN_ID);
    CHECK(swerve_simulator3d_obstacle_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && count == 1 && ids[0] == 0);
    {
        /* Visibility past the box (-1..1)³: through it blocked, 2 m beside it clear for a
           sphere of 0.5 m but not of 2.5 m; bad arguments refused, leaving the answer alone. */
        bool visible = true;
        CHECK(swerve_simulator3d_query_visibility(sim, vec3(-5.0f, 0.0f, 0.0f), vec3(5.0f, 0.0f, 0.0f), 0.5f, &visible) ==
                  SWERVE_STATUS_OK &&
              !visible);
        CHECK(swerve_simulator3d_query_visibility(sim, vec3(-5.0f, 3.0f, 0.0f), vec3(5.0f, 3.0f, 0.0f), 0.5f, &visible) ==
                  SWERVE_STATUS_OK &&
              visible);
        CHECK(swerve_simulator3d_query_visibility(sim, vec3(-5.0f, 3.0f, 0.0f), vec3(5.0f, 3.0f, 0.0f), 2.5f, &visible) ==
                  SWERVE_STATUS_OK &&
              !visible);
        visible = true;
        CHECK(swerve_simulator3d_query_visibility(sim, vec3(NAN, 3.0f, 0.0f), vec3(5.0f, 3.0f, 0.0f), 0.5f, &visible) ==
              SWERVE_STATUS_INVALID_ARGUMENT);
        CHECK(swerve_simulator3d_query_visibility(sim, vec3(-5.0f, 3.0f, 0.0f), vec3(5.0f, 3.0f, 0.0f), -1.0f, &visible) ==
              SWERVE_STATUS_INVALID_ARGUMENT);
        CHECK(visible);
        CHECK(swerve_simulator3d_query_visibility(sim, vec3(0.0f, 0.0f, 0.0f), vec3(5.0f, 3.0f, 0.0f), 0.5f, NULL) ==
              SWERVE_STATUS_NULL_POINTER);
        CHECK(swerve_simulator3d_query_visibility(NULL, vec3(0.0f, 0.0f, 0.0f), vec3(5.0f, 3.0f, 0.0f), 0.5f, &visible) ==
              SWERVE_STATUS_NULL_POINTER);
    }
    CHECK(swerve_simulator3d_set_agent_obstacle_time_horizon(sim, 0, 2.0f) == SWERVE_STATUS_OK);
    CHECK(swerve_simulator3d_agent_obstacle_time_horizon(sim, 0, &value) == SWERVE_STATUS_OK && value == 2.0f);
    CHECK(swerve_simulator3d_agent_obstacle_time_horizon(sim, 1, &value) == SWERVE_STATUS_OK && value == 10.0f);
    CHECK(swerve_simulator3d_set_record_decisions(sim, true) == SWERVE_STATUS_OK);
    CHECK(!step_alike(sim, twin, 1));
    /* Both are within reach of the box (radius 1.5 + 2 m/s over a horizon of 2 or 10 s). */
    CHECK(swerve_simulator3d_agent_obstacle_plane_count(sim, 0, &obstacle_planes) == SWERVE_STATUS_OK);
    CHECK(swerve_simulator3d_agent_planes(sim, 0, box_planes, 32, &count) == SWERVE_STATUS_OK);
    CHECK(obstacle_planes >= 1 && obstacle_planes < count); /* then the neighbour's */
    /* Among the obstacles' planes, the box's face at x = -1's: away from it, along -x. */
    seen = false;
    for (n = 0; n < obstacle_planes; ++n) {
      seen = seen || box_planes[n].normal.x < -0.99f;
    }
    CHECK(seen);
    CHECK(swerve_simulator3d_agent_obstacle_plane_count(sim, 1, NULL) == SWERVE_STATUS_NULL_POINTER);
  }
  swerve_simulator3d_free(sim);
  swerve_simulator3d_free(twin);
  swerve_simulator3d_free(NULL);
  return finish();
}
