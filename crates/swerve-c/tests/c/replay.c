/* Runs an RVO2 scenario through swerve's C interface the way a C program would, and prints
 * every agent's position and velocity after every step as the bits of the floats, for
 * tests/c_programs.rs to compare with RVO2's own recording.
 *
 *   replay THREADS < scenario.txt
 *
 * scenario.txt (whitespace-separated, floats in shortest round-trip decimal):
 *   time_step
 *   neighbor_dist max_neighbors time_horizon time_horizon_obst radius max_speed   (defaults)
 *   agent_count, then per agent: px py gx gy and its six parameters as above
 *   obstacle_count, then per obstacle: vertex_count and the vertices' x y
 *   step_count
 * Output: per step, per agent "step id px py vx vy" with the four floats as 8 hex digits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"

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

static void read_params(SwerveAgentParams *p) {
  p->neighbor_dist = read_float();
  p->max_neighbors = read_count();
  p->time_horizon = read_float();
  p->time_horizon_obst = read_float();
  p->radius = read_float();
  p->max_speed = read_float();
}

static unsigned bits(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* RVO2's examples: toward the goal, normalised when longer than 1 (RVO::normalize divides
 * by RVO::abs, and dividing a Vector2 multiplies by the reciprocal). */
static SwerveVec2 toward(SwerveVec2 goal, SwerveVec2 position) {
  SwerveVec2 g;
  float length_sq;
  g.x = goal.x - position.x;
  g.y = goal.y - position.y;
  length_sq = g.x * g.x + g.y * g.y;
  if (length_sq > 1.0f) {
    float inverse = 1.0f / sqrtf(length_sq);
    g.x *= inverse;
    g.y *= inverse;
  }
  return g;
}

int main(int argc, char **argv) {
  SwerveSimulator *sim = NULL;
  SwerveAgentParams defaults;
  SwerveVec2 *goals, *positions, *velocities, *preferred;
  uint32_t *ids;
  size_t agents, obstacles, steps, i, k, count;
  float time_step;

  if (argc != 2) {
    fprintf(stderr, "usage: replay THREADS < scenario.txt\n");
    return 2;
  }
  time_step = read_float();
  read_params(&defaults);
  check(swerve_simulator_new(time_step, &defaults, &sim), "swerve_simulator_new");
  check(swerve_simulator_set_threads(sim, (size_t)atoi(argv[1])), "swerve_simulator_set_threads");

  agents = read_count();
  goals = calloc(agents + 1, sizeof *goals);
  positions = calloc(agents + 1, sizeof *positions);
  velocities = calloc(agents + 1, sizeof *velocities);
  preferred = calloc(agents + 1, sizeof *preferred);
  ids = calloc(agents + 1, sizeof *ids);
  for (i = 0; i < agents; ++i) {
    SwerveVec2 position;
    SwerveAgentParams params;
    uint32_t id;
    position.x = read_float();
    position.y = read_float();
    goals[i].x = read_float();
    goals[i].y = read_float();
    read_params(&params);
    check(swerve_simulator_add_agent_with(sim, position, &params, &id), "swerve_simulator_add_agent_with");
  }

  obstacles = read_count();
  for (k = 0; k < obstacles; ++k) {
    size_t n = read_count();
    SwerveVec2 *vertices = calloc(n + 1, sizeof *vertices);
    uint32_t id;
    for (i = 0; i < n; ++i) {
      vertices[i].x = read_float();
      vertices[i].y = read_float();
    }
    check(swerve_simulator_add_obstacle(sim, vertices, n, &id), "swerve_simulator_add_obstacle");
    free(vertices);
  }
  check(swerve_simulator_process_obstacles(sim), "swerve_simulator_process_obstacles");

  check(swerve_simulator_agent_ids(sim, ids, agents, &count), "swerve_simulator_agent_ids");
  steps = read_count();
  for (k = 0; k < steps; ++k) {
    /* Even steps: every preferred velocity at once; odd steps: one agent at a time. */
    check(swerve_simulator_positions(sim, positions, agents, &count), "swerve_simulator_positions");
    for (i = 0; i < agents; ++i) {
      preferred[i] = toward(goals[i], positions[i]);
    }
    if (k % 2 == 0) {
      check(swerve_simulator_set_pref_velocities(sim, preferred, agents), "swerve_simulator_set_pref_velocities");
    } else {
      for (i = 0; i < agents; ++i) {
        check(swerve_simulator_set_agent_pref_velocity(sim, ids[i], preferred[i]),
              "swerve_simulator_set_agent_pref_velocity");
      }
    }
    check(swerve_simulator_step(sim), "swerve_simulator_step");
    check(swerve_simulator_positions(sim, positions, agents, &count), "swerve_simulator_positions");
    check(swerve_simulator_velocities(sim, velocities, agents, &count), "swerve_simulator_velocities");
    for (i = 0; i < agents; ++i) {
      printf("%lu %lu %08x %08x %08x %08x\n", (unsigned long)k + 1, (unsigned long)ids[i], bits(positions[i].x),
             bits(positions[i].y), bits(velocities[i].x), bits(velocities[i].y));
    }
  }

  swerve_simulator_free(sim);
  free(goals);
  free(positions);
  free(velocities);
  free(preferred);
  free(ids);
  return 0;
}
