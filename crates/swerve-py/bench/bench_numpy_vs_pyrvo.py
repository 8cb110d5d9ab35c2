"""Per-step cost of driving a 10,000-agent ORCA crowd from Python: swerve's numpy API against
pyrvo's per-agent loop. Not a test: prints a table for BENCHMARKS.md.

Each step, both read every position, compute preferred velocities toward the goals (RVO2
examples' rule), set them, and step:

* swerve: `sim.positions()` → numpy → `sim.set_pref_velocities(array)` → `sim.step()`;
* pyrvo:  `get_agent_position(i).to_tuple()`, `set_agent_pref_velocity(i, ...)` for every
  agent in a Python loop, then `do_step()`.

The two simulators step in turn (one step each, alternately) so that both see the same machine
load, run the same scene and must agree bit for bit at the end (checked), so
the comparison is of the same computation. pyrvo's build is single-threaded; swerve uses
rayon's threads (RAYON_NUM_THREADS=1 for a one-thread figure).

    python crates/swerve-py/bench/bench_numpy_vs_pyrvo.py [--agents 10000] [--steps 20]
"""

import argparse
import math
import os
import platform
import time

import numpy as np
import pyrvo

import swerve

# RVO2's Circle example parameters.
TIME_STEP, NEIGHBOR_DIST, MAX_NEIGHBORS, TIME_HORIZON, TIME_HORIZON_OBST, RADIUS, MAX_SPEED = (
    0.25, 15.0, 10, 10.0, 10.0, 1.5, 2.0,
)
SCENE_SEED = 10_000


def scene(n):
    """Agents on a jittered square grid (4 m apart), each heading for the mirror image of its
    start through the centre, so that the crowd crosses itself."""
    rng = np.random.default_rng(SCENE_SEED)
    side = math.ceil(math.sqrt(n))
    k = np.arange(n)
    positions = np.c_[k % side, k // side] * 4.0 - (side - 1) * 2.0 + rng.uniform(-0.5, 0.5, (n, 2))
    return positions.astype(np.float32), -positions.astype(np.float64)


def pref_toward(goals, positions):
    delta = goals - positions
    length_squared = (delta * delta).sum(axis=1)
    far = length_squared > 1.0
    delta[far] /= np.sqrt(length_squared[far])[:, None]
    return delta


def make_swerve(positions):
    sim = swerve.Simulator(
        TIME_STEP, neighbor_dist=NEIGHBOR_DIST, max_neighbors=MAX_NEIGHBORS, time_horizon=TIME_HORIZON,
        time_horizon_obst=TIME_HORIZON_OBST, radius=RADIUS, max_speed=MAX_SPEED,
    )
    sim.add_agents(positions)
    return sim


def make_pyrvo(positions):
    sim = pyrvo.RVOSimulator(
        TIME_STEP, NEIGHBOR_DIST, MAX_NEIGHBORS, TIME_HORIZON, TIME_HORIZON_OBST, RADIUS, MAX_SPEED
    )
    for p in positions.tolist():
        sim.add_agent(p)
    return sim


def step_swerve(sim, goals):
    """One step through the numpy API; returns (whole, ORCA step alone, whole CPU) seconds."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    current = sim.positions()
    sim.set_pref_velocities(pref_toward(goals, current.astype(np.float64)))
    t1 = time.perf_counter()
    sim.step()
    t2 = time.perf_counter()
    return t2 - t0, t2 - t1, time.process_time() - c0


def step_pyrvo(sim, goal_list):
    """One step through pyrvo's per-agent API; returns (whole, ORCA step alone, whole CPU)
    seconds."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    for i in range(len(goal_list)):
        px, py = sim.get_agent_position(i).to_tuple()
        gx, gy = goal_list[i]
        dx, dy = gx - px, gy - py
        length_squared = dx * dx + dy * dy
        if length_squared > 1.0:
            length = math.sqrt(length_squared)
            dx, dy = dx / length, dy / length
        sim.set_agent_pref_velocity(i, (dx, dy))
    t1 = time.perf_counter()
    sim.do_step()
    t2 = time.perf_counter()
    return t2 - t0, t2 - t1, time.process_time() - c0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    positions, goals = scene(args.agents)

    ours_sim, theirs_sim = make_swerve(positions), make_pyrvo(positions)
    goal_list = goals.tolist()
    ours, ours_step, theirs, theirs_step, ours_cpu, theirs_cpu = [], [], [], [], [], []
    # The two run in lockstep, one step each in turn, so that both see the same machine load.
    for s in range(args.warmup + args.steps):
        a = step_swerve(ours_sim, goals)
        b = step_pyrvo(theirs_sim, goal_list)
        if s >= args.warmup:
            ours.append(a[0])
            ours_step.append(a[1])
            theirs.append(b[0])
            theirs_step.append(b[1])
            ours_cpu.append(a[2])
            theirs_cpu.append(b[2])
    n = len(positions)
    theirs_final = np.array([theirs_sim.get_agent_position(i).to_tuple() for i in range(n)], dtype=np.float32)
    identical = np.array_equal(ours_sim.positions().view(np.uint32), theirs_final.view(np.uint32))
    load = os.getloadavg()[0]

    median = lambda xs: sorted(xs)[len(xs) // 2] * 1e3  # noqa: E731
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'unset')}, load average {load:.1f}")
    print(f"{args.agents} agents, {args.steps} timed steps after {args.warmup} warm-up steps; median per step")
    print(f"{'':<30}{'whole step (ms)':>18}{'of which ORCA (ms)':>22}{'Python side (ms)':>20}")
    for name, total, step in (("swerve numpy API", ours, ours_step), ("pyrvo per-agent loop", theirs, theirs_step)):
        print(f"{name:<30}{median(total):>18.2f}{median(step):>22.2f}{median(total) - median(step):>20.2f}")
    print(f"ratio (pyrvo / swerve), whole step: {median(theirs) / median(ours):.1f}x; "
          f"ORCA step alone: {median(theirs_step) / median(ours_step):.1f}x")
    print(f"CPU time per whole step (all threads; less sensitive to other load): swerve {median(ours_cpu):.2f} ms, "
          f"pyrvo {median(theirs_cpu):.2f} ms, ratio {median(theirs_cpu) / median(ours_cpu):.1f}x")
    print(f"final positions bit-identical: {identical}")


if __name__ == "__main__":
    main()
