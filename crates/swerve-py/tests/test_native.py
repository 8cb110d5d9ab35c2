"""swerve.Simulator, the numpy API: bulk results equal RVO2's (pyrvo) bit for bit, shapes and
dtypes are as documented, ids stay stable across removals, and stepping releases the GIL."""

import math
import threading
import time

import numpy as np
import pyrvo
import pytest

import swerve
from conftest import random_scene

NATIVE_SEEDS = (2000, 2001, 2002, 2003)
STEPS = 120
CIRCLE_SEED = 77


def pref_toward(goals, positions):
    """RVO2 examples' rule, vectorised in float64 like the per-agent Python version."""
    delta = goals - positions.astype(np.float64)
    length_squared = (delta * delta).sum(axis=1)
    far = length_squared > 1.0
    delta[far] /= np.sqrt(length_squared[far])[:, None]
    return delta


def build_native(scene):
    d = scene["defaults"]
    sim = swerve.Simulator(
        d["time_step"],
        neighbor_dist=d["neighbor_dist"],
        max_neighbors=d["max_neighbors"],
        time_horizon=d["time_horizon"],
        time_horizon_obst=d["time_horizon_obst"],
        radius=d["radius"],
        max_speed=d["max_speed"],
        record_decisions=True,
    )
    for polygon in scene["obstacles"]:
        sim.add_obstacle(np.array(polygon))
    sim.process_obstacles()
    agents = scene["agents"]
    positions = np.array([a["position"] for a in agents])
    # Per-agent parameter arrays: the defaults where the scene used the short form.
    names = ["neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst", "radius", "max_speed"]
    columns = {
        name: np.array([a["params"][k] if a["params"] else d[name] for a in agents]) for k, name in enumerate(names)
    }
    velocities = np.array([a["velocity"] or (0.0, 0.0) for a in agents])
    ids = sim.add_agents(positions, velocities=velocities, **columns)
    return sim, ids


def build_pyrvo(scene):
    d = scene["defaults"]
    sim = pyrvo.RVOSimulator(
        d["time_step"], d["neighbor_dist"], d["max_neighbors"], d["time_horizon"], d["time_horizon_obst"], d["radius"], d["max_speed"]
    )
    for polygon in scene["obstacles"]:
        sim.add_obstacle(polygon)
    sim.process_obstacles()
    for a in scene["agents"]:
        params = a["params"] or tuple(
            d[k] for k in ("neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst", "radius", "max_speed")
        )
        sim.add_agent(a["position"], *params, a["velocity"] or (0.0, 0.0))
    return sim


SUPPORTED_SETS = swerve.Simulator.supported_instruction_sets()


@pytest.mark.parametrize("instruction_set", SUPPORTED_SETS)
@pytest.mark.parametrize("seed", NATIVE_SEEDS)
def test_bulk_api_matches_pyrvo_bit_for_bit(seed, instruction_set):
    scene = random_scene(seed)
    ours, ids = build_native(scene)
    ours.instruction_set = instruction_set
    assert ours.instruction_set == instruction_set
    theirs = build_pyrvo(scene)
    n = len(scene["agents"])
    assert ids.dtype == np.uint32 and list(ids) == list(range(n))
    goals = np.array([a["goal"] for a in scene["agents"]])
    for step in range(STEPS):
        ours.set_pref_velocities(pref_toward(goals, ours.positions()))
        their_positions = np.array([theirs.get_agent_position(i).to_tuple() for i in range(n)], dtype=np.float32)
        for i, v in enumerate(pref_toward(goals, their_positions)):
            theirs.set_agent_pref_velocity(i, tuple(v))
        ours.step()
        theirs.do_step()
        positions = ours.positions()
        assert positions.dtype == np.float32 and positions.shape == (n, 2)
        expected = np.array([theirs.get_agent_position(i).to_tuple() for i in range(n)], dtype=np.float32)
        np.testing.assert_array_equal(positions.view(np.uint32), expected.view(np.uint32), err_msg=f"step {step}")
        expected_v = np.array([theirs.get_agent_velocity(i).to_tuple() for i in range(n)], dtype=np.float32)
        np.testing.assert_array_equal(ours.velocities().view(np.uint32), expected_v.view(np.uint32))
    # Half-planes and neighbours of the last step, per agent.
    for i in range(n):
        planes = ours.half_planes(i)
        assert planes.shape == (theirs.get_agent_num_orca_lines(i), 4) and planes.dtype == np.float32
        for k, row in enumerate(planes):
            (dx, dy), (px, py) = theirs.get_agent_orca_line(i, k)
            assert tuple(float(x) for x in row) == (px, py, dx, dy)
        neighbors = ours.neighbors(i)
        assert list(neighbors) == [theirs.get_agent_agent_neighbor(i, k) for k in range(theirs.get_agent_num_agent_neighbors(i))]
        assert 0 <= ours.obstacle_half_plane_count(i) <= theirs.get_agent_num_obstacle_neighbors(i)


def test_instruction_sets_are_chosen_by_name_and_refused_clearly():
    sim = swerve.Simulator(0.25)
    # The baseline runs everywhere; a new simulator runs the best set this CPU has.
    assert SUPPORTED_SETS[0] == "baseline"
    assert sim.instruction_set == SUPPORTED_SETS[-1]
    sim.instruction_set = "baseline"
    assert sim.instruction_set == "baseline"
    with pytest.raises(ValueError, match=r"unknown instruction set 'sse9' \(expected baseline or avx2\)"):
        sim.instruction_set = "sse9"
    assert sim.instruction_set == "baseline"
    if "avx2" not in SUPPORTED_SETS:
        with pytest.raises(swerve.SwerveError, match="avx2"):
            sim.instruction_set = "avx2"
        assert sim.instruction_set == "baseline"


def test_step_n_equals_n_single_steps():
    scene = random_scene(NATIVE_SEEDS[0])
    a, _ = build_native(scene)
    b, _ = build_native(scene)
    goals = np.array([x["goal"] for x in scene["agents"]])
    a.set_pref_velocities(pref_toward(goals, a.positions()))
    b.set_pref_velocities(pref_toward(goals, b.positions()))
    a.step(17)
    for _ in range(17):
        b.step()
    np.testing.assert_array_equal(a.positions(), b.positions())
    assert a.global_time == b.global_time == pytest.approx(17 * scene["defaults"]["time_step"], rel=1e-5)


def circle(n, radius_of_circle, agent_radius=0.5):
    angles = np.arange(n) * 2 * math.pi / n
    positions = radius_of_circle * np.c_[np.cos(angles), np.sin(angles)]
    sim = swerve.Simulator(0.25, neighbor_dist=15.0, max_neighbors=10, time_horizon=10.0, time_horizon_obst=10.0,
                           radius=agent_radius, max_speed=2.0)
    sim.add_agents(positions)
    return sim, -positions


def closest_pair_ratio(sim, radius):
    p = sim.positions().astype(np.float64)
    d = np.hypot(p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1])
    np.fill_diagonal(d, np.inf)
    return d.min() / (2 * radius)


def test_circle_invariants_speed_and_separation():
    """A perturbed Circle scene through the bulk API, checked against ORCA's guarantees.

    * Speeds never exceed the maximum (up to RVO2's own float overshoot in its fallback).
    * ORCA (paper §5) guarantees no collision during a step in which every agent's velocity
      meets all its half-planes. So after every step in which no agent fell back to linear
      program 3 and no pair overlapped before, no pair overlaps after. (In jams RVO2 does fall
      back and lets agents overlap — pyrvo and swerve alike.)
    * The crowd makes progress: most agents end within 1 m of their goal.
    """
    rng = np.random.default_rng(CIRCLE_SEED)
    n, radius = 40, 1.0
    angles = np.arange(n) * 2 * math.pi / n
    # A small perturbation breaks the perfect symmetry that deadlocks a circle in RVO2.
    positions = 30.0 * np.c_[np.cos(angles), np.sin(angles)] + rng.uniform(-0.5, 0.5, (n, 2))
    goals = -positions
    sim = swerve.Simulator(0.25, radius=radius, max_speed=2.0, record_decisions=True)
    sim.add_agents(positions)
    radii = sim.radii()
    assert radii.shape == (n,) and np.all(radii == np.float32(radius))
    checked = 0
    for _ in range(500):
        sim.set_pref_velocities(pref_toward(goals, sim.positions()))
        before = closest_pair_ratio(sim, radius)
        sim.step()
        v = sim.velocities().astype(np.float64)
        # RVO2's fallback (linear program 3) may overshoot the speed limit by float error:
        # RVO2 itself (pyrvo) reaches 2.0004 m/s in a 64-agent circle of radius 20 m.
        assert np.all(np.hypot(v[:, 0], v[:, 1]) <= 2.0 * (1 + 1e-3))
        feasible = all(sim.first_infeasible(i) is None for i in range(n))
        if feasible and before >= 1.0:
            checked += 1
            assert closest_pair_ratio(sim, radius) >= 1.0 - 1e-5
    assert checked > 100, f"only {checked} steps were feasible: the scene does not test the guarantee"
    arrived = np.hypot(*(sim.positions() - goals).T) < 1.0
    assert arrived.sum() >= 0.9 * n, f"only {arrived.sum()} of {n} agents arrived"


def test_remove_agent_keeps_other_ids():
    sim, goals = circle(10, 8.0)
    sim.record_decisions = True
    sim.step()
    sim.remove_agent(3)
    assert list(sim.agent_ids()) == [0, 1, 2, 4, 5, 6, 7, 8, 9]
    assert len(sim) == sim.num_agents == 9
    assert sim.positions().shape == (9, 2)
    assert not sim.contains_agent(3) and sim.contains_agent(4)
    with pytest.raises(LookupError):
        sim.remove_agent(3)
    with pytest.raises(swerve.UnknownIdError):
        sim.agent_position(3)
    # Ids are never reused.
    assert sim.add_agent((30.0, 30.0)) == 10
    keep = np.delete(goals, 3, axis=0)
    sim.set_pref_velocities(pref_toward(np.vstack([keep, [[30.0, 30.0]]]), sim.positions()))
    before = sim.agent_position(4)
    sim.step(4)
    assert sim.agent_position(4) != before
    # The removed agent is not anyone's neighbour any more.
    for agent in sim.agent_ids():
        assert 3 not in list(sim.neighbors(int(agent)))


def test_arrays_are_copies_and_setters_work():
    sim, _ = circle(5, 4.0)
    p = sim.positions()
    p[:] = 99.0
    assert not np.any(sim.positions() == 99.0)
    sim.set_positions(np.zeros((5, 2)) + np.arange(5)[:, None] * 3.0)
    assert sim.agent_position(4) == (12.0, 12.0)
    sim.set_velocities(np.ones((5, 2), dtype=np.float64))
    assert sim.agent_velocity(0) == (1.0, 1.0)
    sim.set_agent_pref_velocity(0, (0.5, 0.0))
    assert sim.pref_velocities()[0].tolist() == [0.5, 0.0]
    sim.set_agent_params(0, radius=0.25, max_speed=1.0)
    assert sim.agent_params(0)["radius"] == 0.25 and sim.agent_params(0)["max_neighbors"] == 10
    sim.time_step = 0.1
    assert sim.time_step == pytest.approx(0.1)


def test_obstacles_native():
    sim = swerve.Simulator(0.25, radius=0.5, record_decisions=True)
    oid = sim.add_obstacle([(-1, -1), (1, -1), (1, 1), (-1, 1)])
    sim.add_obstacle([(3, -1), (5, -1), (5, 1), (3, 1)])
    assert oid == 0 and sim.obstacle_first_vertex(1) == 4
    assert sim.obstacle_vertices().shape == (0, 2)
    sim.process_obstacles()
    assert sim.obstacle_vertices().shape[0] >= 8
    assert not sim.query_visibility((-3, 0), (7, 0))
    assert sim.query_visibility((-3, 3), (7, 3), 0.5)
    a = sim.add_agent((-4.0, 0.0), pref_velocity=(1.0, 0.0))
    sim.step(30)
    x, _ = sim.agent_position(a)
    assert x < -1.0 - 0.5 + 1e-3  # stopped by the obstacle
    assert sim.obstacle_half_plane_count(a) > 0
    assert sim.half_planes(a).shape[1] == 4


def test_first_infeasible_reports_the_fallback():
    # Agents packed tighter than their radii: no velocity meets every half-plane.
    sim = swerve.Simulator(0.25, radius=1.0, max_speed=1.0, record_decisions=True)
    sim.add_agents(np.array([[0.0, 0.0], [0.5, 0.0], [0.0, 0.5], [0.5, 0.5]]))
    sim.set_pref_velocities(np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, -1.0], [0.0, 1.0]]))
    sim.step()
    outcomes = [sim.first_infeasible(i) for i in range(4)]
    assert any(o is not None for o in outcomes)
    # A lone agent is always feasible.
    lone = swerve.Simulator(0.25, record_decisions=True)
    lone.add_agent((0, 0), pref_velocity=(1, 0))
    lone.step()
    assert lone.first_infeasible(0) is None


def test_step_releases_the_gil():
    """While one thread steps a big crowd, another thread keeps running Python code."""
    sim, goals = circle(3000, 150.0)
    sim.set_pref_velocities(pref_toward(goals, sim.positions()))
    window = {}
    started = threading.Event()

    def worker():
        started.set()
        window["start"] = time.perf_counter()
        sim.step(20)
        window["end"] = time.perf_counter()

    thread = threading.Thread(target=worker)
    thread.start()
    started.wait()
    ticks = []
    while thread.is_alive():
        ticks.append(time.perf_counter())
    thread.join()
    duration = window["end"] - window["start"]
    assert duration > 0.03, "the step was too short to tell"
    # Only the middle half of the step counts: with the GIL held, this thread could at most run
    # for one switch interval (5 ms) before `step` took over, and never in the middle of it.
    middle = (window["start"] + duration / 4, window["end"] - duration / 4)
    inside = [t for t in ticks if middle[0] < t < middle[1]]
    assert len(inside) > 10, f"main thread ran {len(inside)} times in the middle of a {duration:.3f} s step"


def test_options_beyond_rvo2():
    """The issue-8 options through Python: off they change nothing, on they act."""
    # Off (the default) equals never calling set_extensions, bit for bit.
    a, goals = circle(24, 12.0)
    b, _ = circle(24, 12.0)
    b.set_extensions()
    for _ in range(60):
        for sim in (a, b):
            sim.set_pref_velocities(pref_toward(goals, sim.positions()))
            sim.step()
    assert np.array_equal(a.positions(), b.positions())

    # Strict speed limit and safe mode: speeds within max, no agent pair overlapping.
    sim, goals = circle(40, 12.0)
    sim.set_extensions(safe_mode=True, strict_speed_limit=True, symmetry_breaking=True, seed=5)
    radius = 0.5
    for _ in range(200):
        sim.set_pref_velocities(pref_toward(goals, sim.positions()))
        sim.step()
        speeds = np.linalg.norm(sim.velocities(), axis=1)
        assert speeds.max() <= 2.0 * (1 + 1e-6)
        p = sim.positions().astype(np.float64)
        d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2) + np.eye(len(p)) * 1e9
        assert d.min() >= 2 * radius - 1e-4, d.min()

    # Responsibility 0: never yields. A mover: avoided.
    sim = swerve.Simulator(0.25)
    first = sim.add_agent((-20.0, 0.0))
    second = sim.add_agent((0.0, -20.0))
    sim.set_responsibility(first, 0.0)
    assert sim.responsibility(first) == 0.0
    mover = sim.add_mover((20.0, 0.5), (-1.0, 0.0), 1.0)
    goals = np.array([[20.0, 0.0], [0.0, 20.0]])
    for _ in range(120):
        sim.set_pref_velocities(pref_toward(goals, sim.positions()))
        sim.step()
    sim.remove_mover(mover)
    with pytest.raises(swerve.UnknownIdError):
        sim.set_mover(mover, (0.0, 0.0), (0.0, 0.0), 1.0)
    with pytest.raises(ValueError):
        sim.set_responsibility(second, -1.0)

    # An acceleration limit: from rest, 1 m/s² over 0.25 s steps gains 0.25 m/s a step.
    sim = swerve.Simulator(0.25)
    agent = sim.add_agent((0.0, 0.0))
    assert sim.max_acceleration(agent) == math.inf
    sim.set_max_acceleration(agent, 1.0)
    assert sim.max_acceleration(agent) == 1.0
    speeds = []
    for _ in range(4):
        sim.set_pref_velocities(np.array([[2.0, 0.0]]))
        sim.step()
        speeds.append(float(np.linalg.norm(sim.velocities()[0])))
    assert np.allclose(speeds, [0.25, 0.5, 0.75, 1.0], atol=1e-5), speeds
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            sim.set_max_acceleration(agent, bad)
    assert sim.max_acceleration(agent) == 1.0
    with pytest.raises(swerve.UnknownIdError):
        sim.set_max_acceleration(99, 1.0)
    sim.set_max_acceleration(agent, math.inf)
    assert sim.max_acceleration(agent) == math.inf
    with pytest.raises(ValueError):
        sim.set_extensions(safe_mode=True, margin=-0.1)
    with pytest.raises(ValueError):
        sim.set_extensions(jitter=float("nan"))  # even with symmetry breaking left off


def test_metrics_match_a_direct_count():
    """metrics() against numpy: overlapping pairs, deepest penetration, smallest gap, agents
    at goal, mean speed — computed independently from positions()."""
    sim = swerve.Simulator(0.1, radius=1.0, max_speed=1.5)
    rng = np.random.default_rng(1234)
    positions = rng.uniform(-6.0, 6.0, size=(60, 2))
    sim.add_agents(positions)
    goals = -positions
    # Two steps: moving (non-zero speeds) but still overlapping from the random start.
    for _ in range(2):
        sim.set_pref_velocities(pref_toward(goals, sim.positions()))
        sim.step()
    m = sim.metrics(goals=goals, tolerance=2.0)

    p = sim.positions().astype(np.float64)
    d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2)
    iu = np.triu_indices(len(p), 1)
    gaps = d[iu] - 2.0
    depth = -gaps
    assert m["agents"] == 60
    assert m["agent_overlaps"] == int((depth > m["overlap_tolerance"]).sum())
    assert m["agent_overlaps"] > 0, "the scene should be crowded enough to overlap"
    assert m["max_agent_penetration"] == pytest.approx(max(depth.max(), 0.0), abs=1e-5)
    assert m["min_separation"] == pytest.approx(gaps.min(), abs=1e-5)
    at_goal = int((np.linalg.norm(p - goals, axis=1) <= 2.0).sum())
    assert m["at_goal"] == at_goal
    speeds = np.linalg.norm(sim.velocities().astype(np.float64), axis=1)
    assert m["mean_speed"] == pytest.approx(speeds.mean(), rel=1e-5)
    assert "at_goal" not in sim.metrics()
    with pytest.raises(ValueError):
        sim.metrics(goals=goals[:3])


def test_decisions_are_recorded_only_when_asked_and_change_nothing():
    plain, goals = circle(300, 60.0)
    recorded, _ = circle(300, 60.0)
    recorded.record_decisions = True
    assert recorded.record_decisions and not plain.record_decisions
    for _ in range(40):
        for sim in (plain, recorded):
            sim.set_pref_velocities(pref_toward(goals, sim.positions()))
            sim.step()
        assert np.array_equal(plain.positions(), recorded.positions())
        assert np.array_equal(plain.velocities(), recorded.velocities())
    assert all(len(recorded.neighbors(i)) == 10 for i in range(300))
    for read in (plain.neighbors, plain.half_planes, plain.first_infeasible, plain.obstacle_half_plane_count):
        with pytest.raises(swerve.SwerveError, match="record_decisions=True"):
            read(0)
    # Switched on, the records fill at the next step.
    plain.record_decisions = True
    assert len(plain.neighbors(0)) == 0
    plain.step()
    recorded.step()
    assert len(plain.neighbors(0)) == 10
    assert np.array_equal(plain.neighbors(0), recorded.neighbors(0))
    assert np.array_equal(plain.half_planes(0), recorded.half_planes(0))



def test_remove_obstacle_opens_the_door():
    # A wall across the way at x = 0 with a door in it (-3 < y < 3); the agent waits at the
    # closed door and walks through once the door is removed.
    sim = swerve.Simulator(0.25, radius=0.5, max_speed=1.5, neighbor_dist=5.0, time_horizon_obst=5.0)
    upper = sim.add_obstacle([(-0.5, 3.1), (0.5, 3.1), (0.5, 40.0), (-0.5, 40.0)])
    door = sim.add_obstacle([(-0.5, -3.0), (0.5, -3.0), (0.5, 3.0), (-0.5, 3.0)])
    lower = sim.add_obstacle([(-0.5, -40.0), (0.5, -40.0), (0.5, -3.1), (-0.5, -3.1)])
    sim.process_obstacles()
    assert sim.obstacle_ids().tolist() == [upper, door, lower]
    assert not sim.query_visibility((-8, 0), (8, 0), 0.5)
    a = sim.add_agent((-8.0, 0.0), pref_velocity=(1.0, 0.0))
    sim.step(80)
    x, _ = sim.agent_position(a)
    assert -2.0 < x < -0.5  # at the closed door
    sim.remove_obstacle(door)
    assert sim.obstacle_ids().tolist() == [upper, lower]
    assert sim.query_visibility((-8, 0), (8, 0), 0.5)
    assert sim.obstacle_first_vertex(lower) == 4  # renumbered as a fresh simulator's
    assert sim.obstacle_vertices().shape[0] >= 8
    sim.step(40)
    x, _ = sim.agent_position(a)
    assert x > 3.0  # through the gap
    assert sim.add_obstacle([(10, 10), (11, 10), (11, 11)]) == 3  # ids are never reused


def test_remove_obstacle_steps_as_a_fresh_simulator_without_it():
    squares = [[(x, -1.0), (x + 2.0, -1.0), (x + 2.0, 1.0), (x, 1.0)] for x in (-6.0, -1.0, 4.0)]
    starts = np.array([[-10.0, 0.3], [10.0, -0.2], [0.0, 8.0], [0.5, -8.0]])
    prefs = -starts / np.linalg.norm(starts, axis=1)[:, None]

    def crowd(obstacles):
        sim = swerve.Simulator(0.25, radius=0.5, max_speed=1.5, neighbor_dist=5.0, time_horizon_obst=5.0)
        ids = [sim.add_obstacle(square) for square in obstacles]
        sim.process_obstacles()
        sim.add_agents(starts, pref_velocities=prefs)
        return sim, ids

    ours, ids = crowd(squares)
    ours.remove_obstacle(ids[1])
    fresh, _ = crowd([squares[0], squares[2]])
    kept, _ = crowd(squares)
    for sim in (ours, fresh, kept):
        sim.step(60)
    assert ours.positions().tobytes() == fresh.positions().tobytes()
    assert ours.velocities().tobytes() == fresh.velocities().tobytes()
    assert ours.positions().tobytes() != kept.positions().tobytes()
