"""swerve.Simulator3d's options beyond RVO2-3D: off they are RVO2-3D (checked against rvo23d),
on they do what they claim (a head-on pair passes instead of stalling; safe mode leaves no
overlaps), and bad values raise without changing anything."""

import math

import numpy as np
import pytest

import swerve

rvo23d = pytest.importorskip("rvo23d")


def toward(goals, positions):
    g = (goals - positions).astype(np.float32)
    length = np.sqrt((g * g).sum(axis=1, dtype=np.float32)).astype(np.float32)
    scale = np.where(length > 1, np.float32(1) / np.maximum(length, np.float32(1e-30)), np.float32(1))
    return (g * scale[:, None]).astype(np.float32)


def head_on(sim, steps):
    goals = np.array([[10, 0, 0], [-10, 0, 0]], dtype=np.float32)
    sim.add_agents(-goals)
    closest = np.inf
    for _ in range(steps):
        sim.set_pref_velocities(toward(goals, sim.positions()))
        sim.step()
        p = sim.positions()
        closest = min(closest, float(np.linalg.norm(p[0] - p[1])))
    return np.linalg.norm(sim.positions() - goals, axis=1), closest


def test_head_on_pair_stalls_like_rvo2_3d_and_passes_with_symmetry_breaking():
    left, _ = head_on(swerve.Simulator3d(0.1), 400)
    # RVO2-3D itself, same pair and rule: the same stall.
    oracle = rvo23d.PyRVOSimulator(0.1, 15, 10, 10, 1.5, 2)
    oracle.addAgent((-10.0, 0.0, 0.0))
    oracle.addAgent((10.0, 0.0, 0.0))
    goals = np.array([[10, 0, 0], [-10, 0, 0]], dtype=np.float32)
    for _ in range(400):
        p = np.array([oracle.getAgentPosition(i) for i in range(2)], dtype=np.float32)
        for i, v in enumerate(toward(goals, p)):
            oracle.setAgentPrefVelocity(i, tuple(float(x) for x in v))
        oracle.doStep()
    oracle_left = np.linalg.norm(np.array([oracle.getAgentPosition(i) for i in range(2)], dtype=np.float32) - goals, axis=1)
    assert np.array_equal(left, oracle_left)
    assert (left > 11).all(), left

    sim = swerve.Simulator3d(0.1)
    sim.set_extensions(symmetry_breaking=True)
    left, closest = head_on(sim, 400)
    assert (left < 0.1).all(), left
    assert closest > 2.97, closest


def test_safe_mode_leaves_no_overlaps_in_a_crush():
    # A 5×5×5 lattice 4 m apart (no one touching), each agent bound for its mirror image
    # through the centre: they all meet there.
    rng = np.random.default_rng(5)
    axis = np.arange(5, dtype=np.float32) * 4 - 8
    start = np.stack(np.meshgrid(axis, axis, axis), axis=-1).reshape(-1, 3)
    start = (start + rng.uniform(-0.3, 0.3, size=start.shape)).astype(np.float32)
    goals = -start
    overlaps = {}
    for safe in (False, True):
        sim = swerve.Simulator3d(0.125)
        sim.set_extensions(safe_mode=safe)
        sim.add_agents(start)
        deepest = 0.0
        for _ in range(300):
            sim.set_pref_velocities(toward(goals, sim.positions()))
            sim.step()
            p = sim.positions()
            d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2) + np.eye(len(p)) * 1e9
            deepest = max(deepest, float(3.0 - d.min()))
        overlaps[safe] = deepest
    assert overlaps[False] > 0.01, overlaps  # RVO2-3D: 0.024 m here
    assert overlaps[True] <= 0.0, overlaps


def test_bad_extension_values_raise_and_change_nothing():
    sim = swerve.Simulator3d(0.1)
    sim.add_agents(np.array([[-5, 0, 0], [5, 0, 0]], dtype=np.float32))
    with pytest.raises(swerve.InvalidValueError):
        sim.set_extensions(symmetry_breaking=True, jitter=-1.0)
    with pytest.raises(swerve.InvalidValueError):
        sim.set_extensions(symmetry_breaking=True, up=(0.0, 0.0, 0.0))
    with pytest.raises(swerve.InvalidValueError):
        sim.set_extensions(safe_mode=True, margin=float("nan"))
    # Still RVO2-3D: the same bits as a fresh simulator that never saw the refused calls.
    fresh = swerve.Simulator3d(0.1)
    fresh.add_agents(np.array([[-5, 0, 0], [5, 0, 0]], dtype=np.float32))
    for s in (sim, fresh):
        s.set_pref_velocities(np.array([[1, 0, 0], [-1, 0, 0]], dtype=np.float32))
        s.step(20)
    assert np.array_equal(sim.positions(), fresh.positions())


def test_weights_of_one_are_rvo2_3d_and_weight_zero_never_yields():
    # Weights of 1 for everyone: each pair's share is 1 / (1 + 1) = 0.5, RVO2-3D to the bit.
    rng = np.random.default_rng(33)
    start = rng.uniform(-8, 8, (40, 3)).astype(np.float32)
    goals = -start
    runs = []
    for weight in (None, 1.0):
        sim = swerve.Simulator3d(0.125)
        ids = sim.add_agents(start)
        if weight is not None:
            for agent in ids:
                sim.set_responsibility(int(agent), weight)
        for _ in range(80):
            sim.set_pref_velocities(toward(goals, sim.positions()))
            sim.step()
        runs.append(sim.positions())
    assert np.array_equal(runs[0], runs[1])

    # Weight 0 against 1: the first keeps its straight line, the second avoids alone.
    sim = swerve.Simulator3d(0.125)
    first, second = sim.add_agents(np.array([[-20, 0, 0], [0, -20, 0]], dtype=np.float32))
    sim.set_responsibility(int(first), 0.0)
    sim.set_responsibility(int(second), 1.0)
    assert sim.responsibility(int(first)) == 0.0
    goals = np.array([[20, 0, 0], [0, 20, 0]], dtype=np.float32)
    closest = np.inf
    for _ in range(320):
        sim.set_pref_velocities(toward(goals, sim.positions()))
        sim.step()
        p = sim.positions()
        assert p[0, 1] == 0.0 and p[0, 2] == 0.0
        closest = min(closest, float(np.linalg.norm(p[0] - p[1])))
    assert closest > 3.0 - 1e-3
    with pytest.raises(ValueError):
        sim.set_responsibility(int(second), -1.0)
    with pytest.raises(swerve.UnknownIdError):
        sim.responsibility(99)


def test_agents_avoid_a_mover_and_its_plane_comes_last():
    sim = swerve.Simulator3d(0.1, radius=0.5, max_speed=1.5, record_decisions=True)
    grid = np.stack(np.meshgrid(*[np.arange(-4.0, 5.0, 2.0)] * 2, [-1.0, 1.0], indexing="ij"), -1).reshape(-1, 3)
    sim.add_agents(grid.astype(np.float32))
    position, velocity = np.array([-25.0, 0.3, 0.2]), np.array([2.0, 0.0, 0.0])
    mover = sim.add_mover(tuple(position), tuple(velocity), 1.5)
    deepest = 0.0
    for _ in range(250):
        sim.set_pref_velocities(toward(grid, sim.positions()))
        sim.step()
        position = position + velocity * 0.1
        sim.set_mover(mover, tuple(position), tuple(velocity), 1.5)
        gaps = np.linalg.norm(sim.positions() - position, axis=1) - 2.0
        deepest = max(deepest, float(-gaps.min()))
    assert position[0] > 20 and deepest < 0.05, deepest
    # An agent next to the mover: its last plane is the mover's, which it avoids alone.
    sim.set_mover(mover, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.5)
    sim.step()
    assert len(sim.planes(0)) == len(sim.neighbors(0)) + 1
    sim.remove_mover(mover)
    with pytest.raises(swerve.UnknownIdError):
        sim.set_mover(mover, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.5)
    with pytest.raises(ValueError):
        sim.add_mover((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 0.0)
    with pytest.raises(ValueError):
        sim.add_mover((0.0, float("nan"), 0.0), (0.0, 0.0, 0.0), 1.0)


def test_an_acceleration_limit_ramps_the_speed_and_bad_limits_raise():
    # 2 m/s² over 0.125 s: 0.25 m/s more each step, straight toward the preferred velocity.
    sim = swerve.Simulator3d(0.125)
    agent = sim.add_agent((0.0, 0.0, 0.0))
    assert sim.max_acceleration(agent) == math.inf
    sim.set_max_acceleration(agent, 2.0)
    speeds = []
    for _ in range(4):
        sim.set_pref_velocities(np.array([[0.0, 2.0, 0.0]]))
        sim.step()
        speeds.append(float(np.linalg.norm(sim.velocities()[0])))
    assert np.allclose(speeds, [0.25, 0.5, 0.75, 1.0], atol=1e-5), speeds
    for bad in (0.0, -3.0, float("nan")):
        with pytest.raises(ValueError):
            sim.set_max_acceleration(agent, bad)
    assert sim.max_acceleration(agent) == 2.0
    with pytest.raises(swerve.UnknownIdError):
        sim.set_max_acceleration(42, 1.0)
