/* Bad input through swerve's C interface: each refused call returns its status, leaves a
 * message, writes none of its outputs and changes nothing. Exits 0 when every check holds,
 * and prints each one that does not. */
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

int main(void) {
  SwerveSimulator *sim = NULL;
  SwerveSimulator *untouched = (SwerveSimulator *)&failures; /* a marker, never dereferenced */
  SwerveAgentParams params, bad;
  SwerveVec2 position, buffer[4];
  SwerveMover mover, read_back;
  SwerveDecision decision;
  SwerveVec2 polygon[4];
  uint32_t id = 7, ids[4], a, b, neighbors[8];
  size_t count = 0, n = 0;
  float weight;
  uint32_t bits;
  bool seen;
  int k, straight;

  CHECK(strlen(swerve_version()) > 0);
  CHECK(strcmp(swerve_last_error_message(), "") == 0);

  /* Constructors. */
  CHECK(swerve_simulator_new(0.0f, NULL, &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(untouched == (SwerveSimulator *)&failures);
  CHECK(message_mentions("time step"));
  CHECK(swerve_simulator_new(0.25f, NULL, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("null"));
  CHECK(swerve_agent_params_default(&params) == SWERVE_STATUS_OK);
  bad = params;
  bad.radius = -1.0f;
  CHECK(swerve_simulator_new(0.25f, &bad, &untouched) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("radius"));
  CHECK(swerve_simulator_new(0.25f, &params, &sim) == SWERVE_STATUS_OK);
  CHECK(sim != NULL);
  /* A success leaves the last message as it was. */
  CHECK(message_mentions("radius"));

  /* Agents. */
  CHECK(swerve_simulator_add_agent(sim, vec2(0.0f, 0.0f), &a) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_add_agent(sim, vec2(4.0f, 0.0f), &b) == SWERVE_STATUS_OK);
  CHECK(a == 0 && b == 1);
  CHECK(swerve_simulator_add_agent(sim, vec2(NAN, 0.0f), &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(id == 7);
  CHECK(message_mentions("finite"));
  CHECK(swerve_simulator_add_agent_with(sim, vec2(1.0f, 1.0f), &bad, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_add_agent_with(sim, vec2(1.0f, 1.0f), NULL, &id) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator_num_agents(sim, &n) == SWERVE_STATUS_OK && n == 2);
  CHECK(swerve_simulator_agent_position(sim, 99, &position) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("99"));
  CHECK(swerve_simulator_set_agent_velocity(sim, a, vec2(INFINITY, 0.0f)) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_agent_velocity(sim, a, &position) == SWERVE_STATUS_OK);
  CHECK(position.x == 0.0f && position.y == 0.0f);
  CHECK(swerve_simulator_set_agent_params(sim, a, &bad) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_agent_params(sim, a, &bad) == SWERVE_STATUS_OK);
  CHECK(bad.radius == params.radius);
  CHECK(swerve_simulator_set_agent_responsibility(sim, a, -0.5f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_agent_responsibility(sim, a, &weight) == SWERVE_STATUS_OK);
  CHECK(weight == 0.5f);
  /* Acceleration limits: > 0, or INFINITY for none (the default). */
  CHECK(swerve_simulator_agent_max_acceleration(sim, a, &weight) == SWERVE_STATUS_OK && isinf(weight));
  CHECK(swerve_simulator_set_agent_max_acceleration(sim, a, 0.0f) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("acceleration"));
  CHECK(swerve_simulator_set_agent_max_acceleration(sim, 99, 1.0f) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator_agent_max_acceleration(sim, a, &weight) == SWERVE_STATUS_OK && isinf(weight));
  CHECK(swerve_simulator_set_agent_max_acceleration(sim, a, 3.0f) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_agent_max_acceleration(sim, a, &weight) == SWERVE_STATUS_OK && weight == 3.0f);
  CHECK(swerve_simulator_set_agent_max_acceleration(sim, a, INFINITY) == SWERVE_STATUS_OK);
  /* Avoidance layers and masks: any 32 bits; layers 1 and mask 1 (RVO2) by default. */
  CHECK(swerve_simulator_agent_avoidance_layers(sim, a, &bits) == SWERVE_STATUS_OK && bits == 1);
  CHECK(swerve_simulator_agent_avoidance_mask(sim, a, &bits) == SWERVE_STATUS_OK && bits == 1);
  bits = 77;
  CHECK(swerve_simulator_agent_avoidance_layers(sim, 99, &bits) == SWERVE_STATUS_UNKNOWN_ID && bits == 77);
  CHECK(message_mentions("99"));
  CHECK(swerve_simulator_agent_avoidance_mask(sim, 98, &bits) == SWERVE_STATUS_UNKNOWN_ID && bits == 77);
  CHECK(message_mentions("98"));
  CHECK(swerve_simulator_set_agent_avoidance_layers(sim, 97, 2u) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("97"));
  CHECK(swerve_simulator_set_agent_avoidance_mask(sim, 96, 2u) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(message_mentions("96"));
  CHECK(swerve_simulator_agent_avoidance_layers(sim, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator_agent_avoidance_mask(sim, a, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator_agent_avoidance_layers(NULL, a, &bits) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator_agent_avoidance_mask(NULL, a, &bits) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator_set_agent_avoidance_layers(NULL, a, 2u) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator_set_agent_avoidance_mask(NULL, a, 2u) == SWERVE_STATUS_NULL_POINTER);
  CHECK(message_mentions("null"));
  CHECK(bits == 77);
  CHECK(swerve_simulator_set_agent_avoidance_layers(sim, a, 0xFFFFFFFFu) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_set_agent_avoidance_mask(sim, b, 0x80000000u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_agent_avoidance_layers(sim, a, &bits) == SWERVE_STATUS_OK && bits == 0xFFFFFFFFu);
  CHECK(swerve_simulator_agent_avoidance_mask(sim, a, &bits) == SWERVE_STATUS_OK && bits == 1);
  CHECK(swerve_simulator_agent_avoidance_layers(sim, b, &bits) == SWERVE_STATUS_OK && bits == 1);
  CHECK(swerve_simulator_agent_avoidance_mask(sim, b, &bits) == SWERVE_STATUS_OK && bits == 0x80000000u);
  CHECK(swerve_simulator_set_agent_avoidance_layers(sim, a, 1u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_set_agent_avoidance_mask(sim, b, 1u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_agent_position(NULL, a, &position) == SWERVE_STATUS_NULL_POINTER);

  /* Buffers: the count is always reported; a short buffer is left alone. */
  buffer[0] = vec2(-9.0f, -9.0f);
  CHECK(swerve_simulator_positions(sim, buffer, 1, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 2 && buffer[0].x == -9.0f);
  CHECK(swerve_simulator_positions(sim, NULL, 0, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL && count == 2);
  CHECK(swerve_simulator_positions(sim, buffer, 4, NULL) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator_positions(sim, buffer, 4, &count) == SWERVE_STATUS_OK);
  CHECK(count == 2 && buffer[1].x == 4.0f && buffer[1].y == 0.0f);
  CHECK(swerve_simulator_agent_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && ids[0] == a && ids[1] == b);
  buffer[0] = vec2(1.0f, 0.0f);
  buffer[1] = vec2(NAN, 0.0f);
  CHECK(swerve_simulator_set_pref_velocities(sim, buffer, 2) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_set_pref_velocities(sim, buffer, 1) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_agent_pref_velocity(sim, a, &position) == SWERVE_STATUS_OK && position.x == 0.0f);

  /* Records: refused until asked for, then filled by the next step. */
  CHECK(swerve_simulator_agent_neighbors(sim, a, neighbors, 8, &count) == SWERVE_STATUS_NOT_RECORDED);
  CHECK(message_mentions("record"));
  CHECK(swerve_simulator_set_record_decisions(sim, true) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_set_agent_pref_velocity(sim, a, vec2(1.0f, 0.0f)) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_set_agent_pref_velocity(sim, b, vec2(-1.0f, 0.0f)) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_step(sim) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_agent_neighbors(sim, a, neighbors, 8, &count) == SWERVE_STATUS_OK);
  CHECK(count == 1 && neighbors[0] == b);
  CHECK(swerve_simulator_agent_decision(sim, a, &decision) == SWERVE_STATUS_OK);
  CHECK(decision.feasible && decision.obstacle_half_planes == 0);
  CHECK(swerve_simulator_agent_decision(sim, 42, &decision) == SWERVE_STATUS_UNKNOWN_ID);
  /* Both on layer 1 looking for layer 2: neither avoids the other, so they walk at their
   * preferred velocities, through each other. */
  CHECK(swerve_simulator_set_agent_avoidance_mask(sim, a, 2u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_set_agent_avoidance_mask(sim, b, 2u) == SWERVE_STATUS_OK);
  straight = 1;
  for (k = 0; k < 12; ++k) {
    CHECK(swerve_simulator_step(sim) == SWERVE_STATUS_OK);
    CHECK(swerve_simulator_velocities(sim, buffer, 4, &count) == SWERVE_STATUS_OK && count == 2);
    straight = straight && buffer[0].x == 1.0f && buffer[0].y == 0.0f && buffer[1].x == -1.0f && buffer[1].y == 0.0f;
  }
  CHECK(straight);
  CHECK(swerve_simulator_positions(sim, buffer, 4, &count) == SWERVE_STATUS_OK && buffer[0].x > buffer[1].x);
  CHECK(swerve_simulator_agent_neighbors(sim, a, neighbors, 8, &count) == SWERVE_STATUS_OK && count == 0);
  CHECK(swerve_simulator_agent_neighbors(sim, b, neighbors, 8, &count) == SWERVE_STATUS_OK && count == 0);
  CHECK(swerve_simulator_set_agent_avoidance_mask(sim, a, 1u) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_set_agent_avoidance_mask(sim, b, 1u) == SWERVE_STATUS_OK);

  /* Obstacles. */
  buffer[0] = vec2(10.0f, 10.0f);
  buffer[1] = vec2(12.0f, 12.0f);
  buffer[2] = vec2(12.0f, 10.0f);
  buffer[3] = vec2(10.0f, 12.0f);
  CHECK(swerve_simulator_add_obstacle(sim, buffer, 4, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(message_mentions("intersect"));
  CHECK(swerve_simulator_add_obstacle(sim, buffer, 1, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_add_obstacle(sim, NULL, 3, &id) == SWERVE_STATUS_NULL_POINTER);
  CHECK(swerve_simulator_num_obstacles(sim, &n) == SWERVE_STATUS_OK && n == 0);
  CHECK(swerve_simulator_remove_obstacle(sim, 0) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator_query_visibility(sim, vec2(0, 0), vec2(1, 1), -1.0f, &seen) == SWERVE_STATUS_INVALID_ARGUMENT);
  buffer[2] = vec2(10.0f, 12.0f);
  buffer[3] = vec2(12.0f, 12.0f);
  CHECK(swerve_simulator_add_obstacle(sim, buffer, 4, &id) == SWERVE_STATUS_INVALID_ARGUMENT); /* still crossing */
  buffer[1] = vec2(12.0f, 10.0f);
  buffer[2] = vec2(12.0f, 12.0f);
  buffer[3] = vec2(10.0f, 12.0f);
  CHECK(swerve_simulator_add_obstacle(sim, buffer, 4, &id) == SWERVE_STATUS_OK && id == 0);
  CHECK(swerve_simulator_obstacle_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && count == 1 && ids[0] == 0);
  CHECK(swerve_simulator_obstacle_polygon(sim, 0, polygon, 4, &count) == SWERVE_STATUS_OK && count == 4);
  CHECK(polygon[2].x == 12.0f && polygon[2].y == 12.0f);
  CHECK(swerve_simulator_obstacle_polygon(sim, 0, polygon, 3, &count) == SWERVE_STATUS_BUFFER_TOO_SMALL);
  CHECK(swerve_simulator_process_obstacles(sim) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_query_visibility(sim, vec2(0, 11), vec2(20, 11), 0.0f, &seen) == SWERVE_STATUS_OK && !seen);
  CHECK(swerve_simulator_remove_obstacle(sim, 0) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_query_visibility(sim, vec2(0, 11), vec2(20, 11), 0.0f, &seen) == SWERVE_STATUS_OK && seen);
  CHECK(swerve_simulator_obstacle_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && count == 0);
  CHECK(swerve_simulator_obstacle_polygon(sim, 0, polygon, 4, &count) == SWERVE_STATUS_UNKNOWN_ID);

  /* Movers and options. */
  mover.position = vec2(0.0f, 5.0f);
  mover.velocity = vec2(0.0f, 0.0f);
  mover.radius = 0.0f;
  CHECK(swerve_simulator_add_mover(sim, &mover, &id) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_remove_mover(sim, 3) == SWERVE_STATUS_UNKNOWN_ID);
  mover.radius = 0.75f;
  CHECK(swerve_simulator_add_mover(sim, &mover, &id) == SWERVE_STATUS_OK && id == 0);
  CHECK(swerve_simulator_mover(sim, 0, &read_back) == SWERVE_STATUS_OK);
  CHECK(read_back.radius == 0.75f && read_back.position.y == 5.0f);
  CHECK(swerve_simulator_remove_mover(sim, 0) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_mover(sim, 0, &read_back) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator_set_time_step(sim, NAN) == SWERVE_STATUS_INVALID_ARGUMENT);
  CHECK(swerve_simulator_time_step(sim, &weight) == SWERVE_STATUS_OK && weight == 0.25f);

  /* Removal keeps the other ids. */
  CHECK(swerve_simulator_remove_agent(sim, a) == SWERVE_STATUS_OK);
  CHECK(swerve_simulator_remove_agent(sim, a) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator_set_agent_avoidance_layers(sim, a, 2u) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator_agent_avoidance_mask(sim, a, &bits) == SWERVE_STATUS_UNKNOWN_ID);
  CHECK(swerve_simulator_contains_agent(sim, b, &seen) == SWERVE_STATUS_OK && seen);
  CHECK(swerve_simulator_agent_ids(sim, ids, 4, &count) == SWERVE_STATUS_OK && count == 1 && ids[0] == b);

  swerve_simulator_free(sim);
  swerve_simulator_free(NULL);
  return finish();
}
