/* Runs a 3-D ORCA scenario through swerve's C interface the way a C program would, and prints
 * everything it reads back as the bits of the floats, for tests/c_programs3d.rs to compare
 * with RVO2-3D's own recordings and with swerve run from Rust.
 *
 *   replay3d THREADS < scenario.txt
 *
 * scenario.txt (whitespace-separated, floats in shortest round-trip decimal):
 *   time_step
 *   neighbor_dist max_neighbors time_horizon radius max_speed                  (defaults)
 *   agent_count, then per agent: px py pz vx vy vz gx gy gz, its five parameters as above,
 *     and its responsibility weight
 *   record_every                          (print neighbours and planes every so many steps)
 *   symmetry breaking: on jitter seed cone turn upx upy upz
 *   overlap resolution: on passes margin
 *   strict speed limit: on
 *   mover_count, then per mover: px py pz vx vy vz radius   (each moves along its velocity)
 *   remove_before remove_id             (remove agent remove_id before that step; 0: none)
 *   step_count
 * Output, floats as 8 hex digits, steps counted from 1:
 *   params ID nd mn th r ms weight                               (once, per agent)
 *   mover STEP MID px py pz                                      (per step, per mover)
 *   STEP ID px py pz vx vy vz pvx pvy pvz              (per step, per agent, after the step)
 *   time STEP global_time
 *   neighbors STEP ID ids...  and  planes STEP ID (px py pz nx ny nz)...  (record steps)
 * Even steps go through the all-agents arrays, odd steps through the per-agent calls.
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

static void read_params(SwerveAgentParams3d *p) {
  p->neighbor_dist = read_float();
  p->max_neighbors = (size_t)read_count();
  p->time_horizon = read_float();
  p->radius = read_float();
  p->max_speed = read_float();
}

static unsigned bits(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static void print_vec3(SwerveVec3 v) { printf(" %08x %08x %08x", bits(v.x), bits(v.y), bits(v.z)); }

/* The recordings' rule: toward the goal, normalised when longer than 1 (RVO2-3D's
 * normalize divides by abs, and dividing a Vector3 multiplies by the reciprocal). */
static SwerveVec3 toward(SwerveVec3 goal, SwerveVec3 position) {
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
  return g;
}

/* Prints an agent's recorded neighbours and planes, asking for the sizes first. */
static void print_records(SwerveSimulator3d *sim, unsigned long step, uint32_t id) {
  size_t count = 0, i;
  uint32_t *neighbors;
  SwervePlane *planes;
  SwerveStatus status = swerve_simulator3d_agent_neighbors(sim, id, NULL, 0, &count);
  if (status != SWERVE_STATUS_BUFFER_TOO_SMALL) {
    check(status, "swerve_simulator3d_agent_neighbors (size)");
  }
  neighbors = calloc(count + 1, sizeof *neighbors);
  check(swerve_simulator3d_agent_neighbors(sim, id, neighbors, count, &count), "swerve_simulator3d_agent_neighbors");
  printf("neighbors %lu %lu", step, (unsigned long)id);
  for (i = 0; i < count; ++i) {
    printf(" %lu", (unsigned long)neighbors[i]);
  }
  printf("\n");
  free(neighbors);

  status = swerve_simulator3d_agent_planes(sim, id, NULL, 0, &count);
  if (status != SWERVE_STATUS_BUFFER_TOO_SMALL) {
    check(status, "swerve_simulator3d_agent_planes (size)");
  }
  planes = calloc(count + 1, sizeof *planes);
  check(swerve_simulator3d_agent_planes(sim, id, planes, count, &count), "swerve_simulator3d_agent_planes");
  printf("planes %lu %lu", step, (unsigned long)id);
  for (i = 0; i < count; ++i) {
    print_vec3(planes[i].point);
    print_vec3(planes[i].normal);
  }
  printf("\n");
  free(planes);
}

int main(int argc, char **argv) {
  SwerveSimulator3d *sim = NULL;
  SwerveAgentParams3d defaults;
  SwerveSymmetryBreaking3d symmetry;
  SwerveOverlapResolution overlap;
  SwerveVec3 *goals, *positions, *velocities, *preferred;
  uint32_t *ids, *movers, remove_id;
  size_t agents, mover_count, i, count;
  unsigned long k, steps, record_every, remove_before;
  int symmetry_on, overlap_on, strict_on;
  float time_step, time;

  if (argc != 2) {
    fprintf(stderr, "usage: replay3d THREADS < scenario.txt\n");
    return 2;
  }
  time_step = read_float();
  read_params(&defaults);
  check(swerve_simulator3d_new(time_step, &defaults, &sim), "swerve_simulator3d_new");
  check(swerve_simulator3d_set_threads(sim, (size_t)atoi(argv[1])), "swerve_simulator3d_set_threads");

  agents = (size_t)read_count();
  goals = calloc(agents + 1, sizeof *goals);
  positions = calloc(agents + 1, sizeof *positions);
  velocities = calloc(agents + 1, sizeof *velocities);
  preferred = calloc(agents + 1, sizeof *preferred);
  ids = calloc(agents + 1, sizeof *ids);
  for (i = 0; i < agents; ++i) {
    SwerveVec3 position = read_vec3(), velocity = read_vec3();
    SwerveAgentParams3d params;
    float weight;
    uint32_t id;
    goals[i] = read_vec3();
    read_params(&params);
    weight = read_float();
    check(swerve_simulator3d_add_agent_with(sim, position, &params, &id), "swerve_simulator3d_add_agent_with");
    check(swerve_simulator3d_set_agent_velocity(sim, id, velocity), "swerve_simulator3d_set_agent_velocity");
    check(swerve_simulator3d_set_agent_responsibility(sim, id, weight), "swerve_simulator3d_set_agent_responsibility");
  }

  record_every = read_count();
  check(swerve_simulator3d_set_record_decisions(sim, record_every > 0), "swerve_simulator3d_set_record_decisions");
  symmetry_on = (int)read_count();
  symmetry.jitter = read_float();
  symmetry.seed = (uint64_t)read_count();
  symmetry.cone = read_float();
  symmetry.turn = read_float();
  symmetry.up = read_vec3();
  check(swerve_simulator3d_set_symmetry_breaking(sim, symmetry_on ? &symmetry : NULL),
        "swerve_simulator3d_set_symmetry_breaking");
  overlap_on = (int)read_count();
  overlap.passes = (uint32_t)read_count();
  overlap.margin = read_float();
  check(swerve_simulator3d_set_overlap_resolution(sim, overlap_on ? &overlap : NULL),
        "swerve_simulator3d_set_overlap_resolution");
  strict_on = (int)read_count();
  check(swerve_simulator3d_set_strict_speed_limit(sim, strict_on != 0), "swerve_simulator3d_set_strict_speed_limit");

  mover_count = (size_t)read_count();
  movers = calloc(mover_count + 1, sizeof *movers);
  for (i = 0; i < mover_count; ++i) {
    SwerveMover3d mover;
    mover.position = read_vec3();
    mover.velocity = read_vec3();
    mover.radius = read_float();
    check(swerve_simulator3d_add_mover(sim, &mover, &movers[i]), "swerve_simulator3d_add_mover");
  }
  remove_before = read_count();
  remove_id = (uint32_t)read_count();
  steps = read_count();

  check(swerve_simulator3d_agent_ids(sim, ids, agents, &count), "swerve_simulator3d_agent_ids");
  for (i = 0; i < count; ++i) {
    SwerveAgentParams3d p;
    float weight;
    check(swerve_simulator3d_agent_params(sim, ids[i], &p), "swerve_simulator3d_agent_params");
    check(swerve_simulator3d_agent_responsibility(sim, ids[i], &weight), "swerve_simulator3d_agent_responsibility");
    printf("params %lu %08x %lu %08x %08x %08x %08x\n", (unsigned long)ids[i], bits(p.neighbor_dist),
           (unsigned long)p.max_neighbors, bits(p.time_horizon), bits(p.radius), bits(p.max_speed), bits(weight));
  }

  for (k = 0; k < steps; ++k) {
    int whole = k % 2 == 0;
    if (remove_before > 0 && k + 1 == remove_before) {
      check(swerve_simulator3d_remove_agent(sim, remove_id), "swerve_simulator3d_remove_agent");
    }
    check(swerve_simulator3d_agent_ids(sim, ids, agents, &count), "swerve_simulator3d_agent_ids");
    for (i = 0; i < mover_count; ++i) {
      SwerveMover3d mover;
      check(swerve_simulator3d_mover(sim, movers[i], &mover), "swerve_simulator3d_mover");
      mover.position.x += mover.velocity.x * time_step;
      mover.position.y += mover.velocity.y * time_step;
      mover.position.z += mover.velocity.z * time_step;
      check(swerve_simulator3d_set_mover(sim, movers[i], &mover), "swerve_simulator3d_set_mover");
      printf("mover %lu %lu", k + 1, (unsigned long)movers[i]);
      print_vec3(mover.position);
      printf("\n");
    }
    if (whole) {
      check(swerve_simulator3d_positions(sim, positions, agents, &count), "swerve_simulator3d_positions");
      for (i = 0; i < count; ++i) {
        preferred[i] = toward(goals[ids[i]], positions[i]);
      }
      check(swerve_simulator3d_set_pref_velocities(sim, preferred, count), "swerve_simulator3d_set_pref_velocities");
    } else {
      for (i = 0; i < count; ++i) {
        SwerveVec3 position;
        check(swerve_simulator3d_agent_position(sim, ids[i], &position), "swerve_simulator3d_agent_position");
        check(swerve_simulator3d_set_agent_pref_velocity(sim, ids[i], toward(goals[ids[i]], position)),
              "swerve_simulator3d_set_agent_pref_velocity");
      }
    }
    check(swerve_simulator3d_step(sim), "swerve_simulator3d_step");
    if (whole) {
      check(swerve_simulator3d_positions(sim, positions, agents, &count), "swerve_simulator3d_positions");
      check(swerve_simulator3d_velocities(sim, velocities, agents, &count), "swerve_simulator3d_velocities");
      check(swerve_simulator3d_pref_velocities(sim, preferred, agents, &count), "swerve_simulator3d_pref_velocities");
    } else {
      for (i = 0; i < count; ++i) {
        check(swerve_simulator3d_agent_position(sim, ids[i], &positions[i]), "swerve_simulator3d_agent_position");
        check(swerve_simulator3d_agent_velocity(sim, ids[i], &velocities[i]), "swerve_simulator3d_agent_velocity");
        check(swerve_simulator3d_agent_pref_velocity(sim, ids[i], &preferred[i]),
              "swerve_simulator3d_agent_pref_velocity");
      }
    }
    for (i = 0; i < count; ++i) {
      printf("%lu %lu", k + 1, (unsigned long)ids[i]);
      print_vec3(positions[i]);
      print_vec3(velocities[i]);
      print_vec3(preferred[i]);
      printf("\n");
    }
    check(swerve_simulator3d_global_time(sim, &time), "swerve_simulator3d_global_time");
    printf("time %lu %08x\n", k + 1, bits(time));
    if (record_every > 0 && (k + 1) % record_every == 0) {
      for (i = 0; i < count; ++i) {
        print_records(sim, k + 1, ids[i]);
      }
    }
  }

  swerve_simulator3d_free(sim);
  free(goals);
  free(positions);
  free(velocities);
  free(preferred);
  free(ids);
  free(movers);
  return 0;
}
