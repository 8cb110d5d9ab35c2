/* Runs a 3-D ORCA scene with static obstacles (triangle meshes and boxes, beyond RVO2-3D)
 * through swerve's C interface, and prints everything it reads back as the bits of the
 * floats, for tests/c_programs3d.rs to compare with swerve run from Rust and to check that
 * every agent stayed clear of every obstacle.
 *
 *   obstacles3d THREADS < scene.txt
 *
 * scene.txt (whitespace-separated, floats in shortest round-trip decimal):
 *   time_step
 *   neighbor_dist max_neighbors time_horizon radius max_speed                  (defaults)
 *   agent_count, then per agent: px py pz gx gy gz speed obstacle_horizon
 *     (toward goal g at `speed`; obstacle_horizon 0: leave the default, the time horizon)
 *   obstacle_count, then per obstacle either
 *     0 vertex_count triangle_count, the vertices (x y z each), the indices (3 a triangle)
 *     1 min_x min_y min_z max_x max_y max_z                                        (a box)
 *   remove_before remove_id          (remove obstacle remove_id before that step; 0: none)
 *   step_count
 * Output, floats as 8 hex digits, steps counted from 1:
 *   obstacle OID count (ax ay az bx by bz cx cy cz)...           (once, per obstacle)
 *   horizon ID h                                                  (once, per agent)
 *   obstacles STEP OID...             (the live obstacles, before step 1 and after a removal)
 *   STEP ID px py pz vx vy vz pvx pvy pvz planes obstacle_planes  (per step, per agent)
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

static unsigned long read_count(void) {
  unsigned long n;
  if (scanf("%lu", &n) != 1) {
    fprintf(stderr, "input ended early\n");
    exit(2);
  }
  return n;
}

static SwerveVec3 read_vec3(void) {
  SwerveVec3 v;
  v.x = read_float();
  v.y = read_float();
  v.z = read_float();
  return v;
}

static unsigned bits(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static void print_vec3(SwerveVec3 v) { printf(" %08x %08x %08x", bits(v.x), bits(v.y), bits(v.z)); }

/* Toward the goal at `speed`, slowing within a metre of it: the direction normalised when
 * longer than 1 (by the reciprocal of its length), then scaled. */
static SwerveVec3 toward(SwerveVec3 goal, SwerveVec3 position, float speed) {
  SwerveVec3 g;
  float length_sq;
  g.x = goal.x - position.x;
  g.y = goal.y - position.y;
  g.z = goal.z - position.z;
  length_sq = g.x * g.x + g.y * g.y + g.z * g.z;
  if (length_sq > 1.0f) {
    float inverse = 1.0f / sqrtf(length_sq);
    g.x *= inverse;
    g.y *= inverse;
    g.z *= inverse;
  }
  g.x *= speed;
  g.y *= speed;
  g.z *= speed;
  return g;
}

/* Prints an obstacle's triangles, asking for the count first. */
static void print_obstacle(SwerveSimulator3d *sim, uint32_t id) {
  size_t count = 0, i;
  SwerveTriangle *triangles;
  SwerveStatus status = swerve_simulator3d_obstacle_triangles(sim, id, NULL, 0, &count);
  if (status != SWERVE_STATUS_BUFFER_TOO_SMALL) {
    check(status, "swerve_simulator3d_obstacle_triangles (size)");
  }
  triangles = calloc(count + 1, sizeof *triangles);
  check(swerve_simulator3d_obstacle_triangles(sim, id, triangles, count, &count),
        "swerve_simulator3d_obstacle_triangles");
  printf("obstacle %lu %lu", (unsigned long)id, (unsigned long)count);
  for (i = 0; i < count; ++i) {
    print_vec3(triangles[i].a);
    print_vec3(triangles[i].b);
    print_vec3(triangles[i].c);
  }
  printf("\n");
  free(triangles);
}

static void print_obstacle_ids(SwerveSimulator3d *sim, unsigned long step) {
  uint32_t ids[64];
  size_t count = 0, i;
  check(swerve_simulator3d_obstacle_ids(sim, ids, 64, &count), "swerve_simulator3d_obstacle_ids");
  printf("obstacles %lu", step);
  for (i = 0; i < count; ++i) {
    printf(" %lu", (unsigned long)ids[i]);
  }
  printf("\n");
}

int main(int argc, char **argv) {
  SwerveSimulator3d *sim = NULL;
  SwerveAgentParams3d defaults;
  SwerveVec3 *goals, *positions, *velocities, *preferred;
  float *speeds;
  uint32_t *ids, remove_id;
  size_t agents, obstacles, i, count;
  unsigned long k, steps, remove_before;
  float time_step;

  if (argc != 2) {
    fprintf(stderr, "usage: obstacles3d THREADS < scene.txt\n");
    return 2;
  }
  time_step = read_float();
  defaults.neighbor_dist = read_float();
  defaults.max_neighbors = (size_t)read_count();
  defaults.time_horizon = read_float();
  defaults.radius = read_float();
  defaults.max_speed = read_float();
  check(swerve_simulator3d_new(time_step, &defaults, &sim), "swerve_simulator3d_new");
  check(swerve_simulator3d_set_threads(sim, (size_t)atoi(argv[1])), "swerve_simulator3d_set_threads");
  check(swerve_simulator3d_set_record_decisions(sim, true), "swerve_simulator3d_set_record_decisions");

  agents = (size_t)read_count();
  goals = calloc(agents + 1, sizeof *goals);
  speeds = calloc(agents + 1, sizeof *speeds);
  positions = calloc(agents + 1, sizeof *positions);
  velocities = calloc(agents + 1, sizeof *velocities);
  preferred = calloc(agents + 1, sizeof *preferred);
  ids = calloc(agents + 1, sizeof *ids);
  for (i = 0; i < agents; ++i) {
    SwerveVec3 position = read_vec3();
    float horizon;
    uint32_t id;
    goals[i] = read_vec3();
    speeds[i] = read_float();
    horizon = read_float();
    check(swerve_simulator3d_add_agent(sim, position, &id), "swerve_simulator3d_add_agent");
    if (horizon > 0.0f) {
      check(swerve_simulator3d_set_agent_obstacle_time_horizon(sim, id, horizon),
            "swerve_simulator3d_set_agent_obstacle_time_horizon");
    }
  }

  obstacles = (size_t)read_count();
  for (i = 0; i < obstacles; ++i) {
    uint32_t id = 0;
    if (read_count() == 0) {
      size_t vertex_count = (size_t)read_count(), triangle_count = (size_t)read_count(), j;
      SwerveVec3 *vertices = calloc(vertex_count + 1, sizeof *vertices);
      uint32_t *indices = calloc(3 * triangle_count + 1, sizeof *indices);
      for (j = 0; j < vertex_count; ++j) {
        vertices[j] = read_vec3();
      }
      for (j = 0; j < 3 * triangle_count; ++j) {
        indices[j] = (uint32_t)read_count();
      }
      check(swerve_simulator3d_add_obstacle(sim, vertices, vertex_count, indices, triangle_count, &id),
            "swerve_simulator3d_add_obstacle");
      free(vertices);
      free(indices);
    } else {
      SwerveVec3 min = read_vec3(), max = read_vec3();
      check(swerve_simulator3d_add_box_obstacle(sim, min, max, &id), "swerve_simulator3d_add_box_obstacle");
    }
    print_obstacle(sim, id);
  }
  remove_before = read_count();
  remove_id = (uint32_t)read_count();
  steps = read_count();

  check(swerve_simulator3d_agent_ids(sim, ids, agents, &count), "swerve_simulator3d_agent_ids");
  for (i = 0; i < count; ++i) {
    float horizon;
    check(swerve_simulator3d_agent_obstacle_time_horizon(sim, ids[i], &horizon),
          "swerve_simulator3d_agent_obstacle_time_horizon");
    printf("horizon %lu %08x\n", (unsigned long)ids[i], bits(horizon));
  }
  print_obstacle_ids(sim, 0);

  for (k = 0; k < steps; ++k) {
    if (remove_before > 0 && k + 1 == remove_before) {
      check(swerve_simulator3d_remove_obstacle(sim, remove_id), "swerve_simulator3d_remove_obstacle");
      print_obstacle_ids(sim, k + 1);
    }
    check(swerve_simulator3d_positions(sim, positions, agents, &count), "swerve_simulator3d_positions");
    for (i = 0; i < count; ++i) {
      preferred[i] = toward(goals[ids[i]], positions[i], speeds[ids[i]]);
    }
    check(swerve_simulator3d_set_pref_velocities(sim, preferred, count), "swerve_simulator3d_set_pref_velocities");
    check(swerve_simulator3d_step(sim), "swerve_simulator3d_step");
    check(swerve_simulator3d_positions(sim, positions, agents, &count), "swerve_simulator3d_positions");
    check(swerve_simulator3d_velocities(sim, velocities, agents, &count), "swerve_simulator3d_velocities");
    for (i = 0; i < count; ++i) {
      size_t planes = 0, obstacle_planes = 0;
      SwerveStatus status = swerve_simulator3d_agent_planes(sim, ids[i], NULL, 0, &planes);
      if (status != SWERVE_STATUS_BUFFER_TOO_SMALL) {
        check(status, "swerve_simulator3d_agent_planes (size)");
      }
      check(swerve_simulator3d_agent_obstacle_plane_count(sim, ids[i], &obstacle_planes),
            "swerve_simulator3d_agent_obstacle_plane_count");
      printf("%lu %lu", k + 1, (unsigned long)ids[i]);
      print_vec3(positions[i]);
      print_vec3(velocities[i]);
      print_vec3(preferred[i]);
      printf(" %lu %lu\n", (unsigned long)planes, (unsigned long)obstacle_planes);
    }
  }

  swerve_simulator3d_free(sim);
  free(goals);
  free(speeds);
  free(positions);
  free(velocities);
  free(preferred);
  free(ids);
  return 0;
}
