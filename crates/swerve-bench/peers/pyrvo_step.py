"""Peer timing: RVO2 2.0.3 through pyrvo (pybind11, no OpenMP: single-threaded).

Reads a scene written by swerve-bench (`Scene::to_peer_json`), builds it in pyrvo, and times
only `do_step` (preferred velocities are set outside the timed region with RVO2's example
rule). Prints one JSON line: median and min ms per step.

    python peers/pyrvo_step.py scene.json
"""

import json
import math
import sys
import time

import pyrvo


def main(path: str) -> None:
    with open(path) as f:
        scene = json.load(f)
    neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed = scene["params"]
    sim = pyrvo.RVOSimulator(
        scene["time_step"], neighbor_dist, int(max_neighbors), time_horizon, time_horizon_obst, radius, max_speed
    )
    for x, y in scene["positions"]:
        sim.add_agent((x, y))
    for polygon in scene["obstacles"]:
        sim.add_obstacle([tuple(v) for v in polygon])
    if scene["obstacles"]:
        sim.process_obstacles()
    goals = scene["goals"]
    n = len(goals)
    samples = []
    for k in range(scene["warmup"] + scene["steps"]):
        for i in range(n):
            p = sim.get_agent_position(i).to_tuple()
            gx, gy = goals[i][0] - p[0], goals[i][1] - p[1]
            d2 = gx * gx + gy * gy
            if d2 > 1.0:
                inv = 1.0 / math.sqrt(d2)
                gx, gy = gx * inv, gy * inv
            sim.set_agent_pref_velocity(i, (gx, gy))
        start = time.perf_counter()
        sim.do_step()
        elapsed = (time.perf_counter() - start) * 1e3
        if k >= scene["warmup"]:
            samples.append(elapsed)
    samples.sort()
    print(json.dumps({"scene": scene["name"], "median_ms": samples[len(samples) // 2], "min_ms": samples[0]}))


if __name__ == "__main__":
    main(sys.argv[1])
