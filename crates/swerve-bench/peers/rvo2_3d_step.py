"""Peer timing: RVO2-3D through the `rvo23d` module of the PyPI package jt-pyrvo23d.

Reads a 3-D scene written by `examples/orca3d_report.rs`: a JSON file naming the parameters,
the step counts, a raw file of little-endian float32 (n positions then n goals, x y z each)
and where to write the final positions. Builds the crowd in RVO2-3D, sets every agent's
preferred velocity before each step by the report's float32 rule (numpy float32, the same
operations in the same order as swerve's side):

    g = goal - position
    if g.x*g.x + g.y*g.y + g.z*g.z > 1:  g = g * (1 / sqrt(g.x*g.x + g.y*g.y + g.z*g.z))

and times only `doStep` (warm-up steps first, then the timed ones). Prints one JSON line:
median and min ms per timed step and every timed step's ms; writes the final positions as
little-endian float32 (x y z per agent, in agent order) to the output file.

    python peers/rvo2_3d_step.py scene.json
"""

import json
import sys
import time

import numpy as np
import rvo23d

F = np.float32


def preferred(goals: np.ndarray, positions: np.ndarray) -> np.ndarray:
    g = goals - positions
    length_squared = g[:, 0] * g[:, 0] + g[:, 1] * g[:, 1] + g[:, 2] * g[:, 2]
    far = length_squared > F(1)
    inv = F(1) / np.sqrt(length_squared[far])
    g[far] = g[far] * inv[:, None]
    return g


def main(path: str) -> None:
    with open(path) as f:
        scene = json.load(f)
    n = scene["agents"]
    data = np.fromfile(scene["scene_file"], dtype="<f4")
    assert data.size == 6 * n, "scene file size"
    positions = data[: 3 * n].reshape(n, 3)
    goals = data[3 * n :].reshape(n, 3).astype(F)
    p = scene["params"]
    sim = rvo23d.PyRVOSimulator(
        scene["time_step"], p["neighbor_dist"], int(p["max_neighbors"]), p["time_horizon"], p["radius"], p["max_speed"]
    )
    for x, y, z in positions.tolist():
        sim.addAgent((x, y, z))
    assert sim.getNumAgents() == n
    samples = []
    for k in range(scene["warmup"] + scene["steps"]):
        # float32 -> double -> float32 is exact both ways.
        now = np.array([sim.getAgentPosition(i) for i in range(n)], dtype=np.float64).astype(F)
        for i, v in enumerate(preferred(goals, now).tolist()):
            sim.setAgentPrefVelocity(i, (v[0], v[1], v[2]))
        start = time.perf_counter()
        sim.doStep()
        elapsed = (time.perf_counter() - start) * 1e3
        if k >= scene["warmup"]:
            samples.append(elapsed)
    final = np.array([sim.getAgentPosition(i) for i in range(n)], dtype=np.float64).astype("<f4")
    final.tofile(scene["out_file"])
    ordered = sorted(samples)
    print(json.dumps({"median_ms": ordered[len(ordered) // 2], "min_ms": ordered[0], "steps_ms": samples}))


if __name__ == "__main__":
    main(sys.argv[1])
