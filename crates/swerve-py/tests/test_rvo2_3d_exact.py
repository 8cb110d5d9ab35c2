"""swerve.rvo2_3d and swerve.Simulator3d against rvo23d (RVO2-3D in C++, PyPI jt-pyrvo23d).

Each seed builds a random 3-D scene (agent count 2-80, agents added in both of rvo23d's
forms with their own parameters and initial velocities, layouts that include overlapping
clusters and lattices with coincident points) in both simulators, drives both with the same
rule for 60 steps and requires every position, velocity and neighbour list to be identical
after every step. The oracle is always rvo23d itself, never a recording of our output.
"""

import ast
import importlib.resources
import inspect
import math
import threading
import time

import numpy as np
import pytest
import rvo23d

import swerve
import swerve._swerve
import swerve.rvo2_3d

# Named seeds: a failure reports which scene diverged. seed % 4 picks the layout.
EXACTNESS_SEEDS = tuple(range(3000, 3024))
LAYOUTS = ("sphere", "cluster", "lattice", "box")
STEPS = 60
# The step at which parameters are changed through the setters and an agent is added.
CHANGE_AT = STEPS // 2
NAN = float("nan")
INF = float("inf")


# ----- scenes -----


def random_params(rng):
    """(neighborDist, maxNeighbors, timeHorizon, radius, maxSpeed): rvo23d's order."""
    return (
        float(rng.uniform(1.0, 20.0)),
        int(rng.integers(0, 16)),
        float(rng.uniform(0.5, 10.0)),
        float(rng.uniform(0.2, 1.5)),
        float(rng.uniform(0.5, 3.0)),
    )


def random_vec(rng, scale):
    return tuple(float(x) for x in rng.uniform(-scale, scale, 3))


def layout_positions(rng, layout, count):
    """Start positions and goals of `count` agents."""
    if layout == "sphere":
        # On a sphere, heading for the antipode: they all meet in the middle.
        radius = rng.uniform(5.0, 25.0)
        d = rng.normal(size=(count, 3))
        d /= np.linalg.norm(d, axis=1)[:, None]
        positions = radius * d
        goals = -positions + rng.uniform(-0.5, 0.5, (count, 3))
    elif layout == "cluster":
        # Packed far tighter than the radii: the planes conflict and the least-violation
        # fallback (linear program 4) decides.
        center = rng.uniform(-5.0, 5.0, 3)
        positions = center + rng.normal(scale=rng.uniform(0.1, 0.8), size=(count, 3))
        d = rng.normal(size=(count, 3))
        goals = center + 20.0 * d / np.linalg.norm(d, axis=1)[:, None]
    elif layout == "lattice":
        # Integer lattice points scaled by an exact float: many neighbours at equal
        # distances (the tree's tie order), and some agents on the very same point.
        side = int(math.ceil(count ** (1 / 3)))
        spacing = float(rng.choice([0.5, 1.0, 2.0, 3.0]))
        cells = np.array([(i, j, k) for i in range(side) for j in range(side) for k in range(side)], dtype=float)
        positions = spacing * cells[rng.permutation(len(cells))[:count]]
        for _ in range(int(rng.integers(1, 4))):
            b = int(rng.integers(0, count))
            positions[(b + 1 + int(rng.integers(0, count - 1))) % count] = positions[b]
        centre = positions.mean(axis=0)
        goals = 2 * centre - positions
    else:
        positions = rng.uniform(-10.0, 10.0, (count, 3))
        goals = rng.uniform(-10.0, 10.0, (count, 3))
    return [tuple(float(x) for x in p) for p in positions], [tuple(float(x) for x in g) for g in goals]


def random_scene3d(seed):
    """A random 3-D scene as plain Python values, replayable into any rvo23d-like API."""
    rng = np.random.default_rng(seed)
    layout = LAYOUTS[seed % len(LAYOUTS)]
    count = {0: 2, 1: 80, 5: 3}.get(seed - EXACTNESS_SEEDS[0], int(rng.integers(2, 81)))
    neighbor_dist, max_neighbors, time_horizon, radius, max_speed = random_params(rng)
    defaults = dict(
        time_step=float(rng.uniform(0.05, 0.5)),
        neighbor_dist=neighbor_dist,
        max_neighbors=max(max_neighbors, 1),
        time_horizon=time_horizon,
        radius=radius,
        max_speed=max_speed,
        # None: the constructor's own default (at rest).
        velocity=None if rng.random() < 0.5 else random_vec(rng, 1.0),
    )
    positions, goals = layout_positions(rng, layout, count)
    agents = []
    for position, goal in zip(positions, goals):
        full = rng.random() < 0.5
        agents.append(
            dict(
                position=position,
                goal=goal,
                # rvo23d's long form: every parameter and a velocity, or none of them.
                params=random_params(rng) if full else None,
                velocity=random_vec(rng, 2.0) if full else None,
                # Some prefer more than their max speed: the sphere of speeds clamps it.
                pref_speed=float(rng.uniform(0.3, 4.0)),
            )
        )
    late = dict(
        defaults=random_params(rng),
        velocity=random_vec(rng, 1.0),
        position=random_vec(rng, 3.0),
        goal=random_vec(rng, 15.0),
        pref_speed=1.0,
    )
    return dict(seed=seed, layout=layout, defaults=defaults, agents=agents, late=late)


def pref_toward(goal, position, speed):
    """Head for the goal at `speed`, slowing within 1 m of it (RVO2-3D's Sphere rule)."""
    d = [g - p for g, p in zip(goal, position)]
    length = math.sqrt(sum(x * x for x in d))
    if length > 1.0:
        return tuple(speed * x / length for x in d)
    return tuple(speed * x for x in d)


# ----- driving an rvo23d-like simulator -----


def build(module, scene):
    d = scene["defaults"]
    args = (d["time_step"], d["neighbor_dist"], d["max_neighbors"], d["time_horizon"], d["radius"], d["max_speed"])
    sim = module.PyRVOSimulator(*args) if d["velocity"] is None else module.PyRVOSimulator(*args, d["velocity"])
    for k, agent in enumerate(scene["agents"]):
        if agent["params"] is None:
            number = sim.addAgent(agent["position"])
        else:
            number = sim.addAgent(agent["position"], *agent["params"], agent["velocity"])
        assert number == k
    return sim


def change_mid_run(sim, scene):
    """Setters on a few agents, a new time step, new defaults and one more agent."""
    n = sim.getNumAgents()
    rng = np.random.default_rng(scene["seed"] + 1)
    sim.setAgentMaxSpeed(0, 0.75)
    sim.setAgentRadius(n - 1, 0.4)
    sim.setAgentNeighborDist(n // 2, 3.0)
    sim.setAgentMaxNeighbors(n // 3, 2)
    sim.setAgentTimeHorizon(n // 4, 1.5)
    sim.setAgentVelocity(n // 5, random_vec(rng, 1.0))
    sim.setAgentPosition(n - 1, random_vec(rng, 2.0))
    sim.setTimeStep(scene["defaults"]["time_step"] * 0.5)
    late = scene["late"]
    sim.setAgentDefaults(*late["defaults"], late["velocity"])
    assert sim.addAgent(late["position"]) == n


def same(a, b):
    """Equal floats, or both NaN (a NaN is not equal to itself)."""
    return all(x == y or (x != x and y != y) for x, y in zip(a, b)) and len(a) == len(b)


def neighbor_list(sim, i):
    return [sim.getAgentAgentNeighbor(i, k) for k in range(sim.getAgentNumAgentNeighbors(i))]


def drive(sims, scene, steps=STEPS, check=None):
    """Steps every simulator in `sims` in lockstep, each with preferred velocities computed
    from its own state (equal only if the states are), calling `check(step)` after each."""
    goals = [a["goal"] for a in scene["agents"]]
    speeds = [a["pref_speed"] for a in scene["agents"]]
    for step in range(steps):
        if step == CHANGE_AT:
            for sim in sims:
                change_mid_run(sim, scene)
            goals = goals + [scene["late"]["goal"]]
            speeds = speeds + [scene["late"]["pref_speed"]]
        for sim in sims:
            for i in range(sim.getNumAgents()):
                sim.setAgentPrefVelocity(i, pref_toward(goals[i], sim.getAgentPosition(i), speeds[i]))
            sim.doStep()
        if check is not None:
            check(step)


@pytest.mark.parametrize("seed", EXACTNESS_SEEDS)
def test_random_scene_matches_rvo23d_bit_for_bit(seed):
    scene = random_scene3d(seed)
    ours = build(swerve.rvo2_3d, scene)
    theirs = build(rvo23d, scene)
    assert ours.getNumAgents() == theirs.getNumAgents() == len(scene["agents"])
    for i in range(theirs.getNumAgents()):
        # Agents start at their own velocity, or at the constructor's default one.
        assert ours.getAgentVelocity(i) == theirs.getAgentVelocity(i), i
        assert ours.getAgentNumAgentNeighbors(i) == theirs.getAgentNumAgentNeighbors(i) == 0
    stats = dict(moved=0, neighbors=0)

    def check(step):
        n = theirs.getNumAgents()
        assert ours.getNumAgents() == n
        assert ours.getGlobalTime() == theirs.getGlobalTime(), step
        for i in range(n):
            p = theirs.getAgentPosition(i)
            assert same(ours.getAgentPosition(i), p), (seed, step, i)
            assert same(ours.getAgentVelocity(i), theirs.getAgentVelocity(i)), (seed, step, i)
            count = theirs.getAgentNumAgentNeighbors(i)
            assert ours.getAgentNumAgentNeighbors(i) == count, (seed, step, i)
            for k in range(count):
                assert ours.getAgentAgentNeighbor(i, k) == theirs.getAgentAgentNeighbor(i, k), (seed, step, i, k)
            stats["neighbors"] += count
            stats["moved"] += theirs.getAgentVelocity(i) != (0.0, 0.0, 0.0)

    drive([ours, theirs], scene, check=check)
    assert stats["moved"] > 0 and stats["neighbors"] > 0, "the scene does nothing: it tests nothing"
    assert ours.getTimeStep() == theirs.getTimeStep()
    for i in range(theirs.getNumAgents()):
        for getter in ("getAgentPrefVelocity", "getAgentRadius", "getAgentMaxSpeed", "getAgentMaxNeighbors",
                       "getAgentNeighborDist", "getAgentTimeHorizon"):
            assert getattr(ours, getter)(i) == getattr(theirs, getter)(i), (getter, i)
        # Not one NaN: the comparisons above were between numbers.
        assert all(math.isfinite(x) for x in theirs.getAgentPosition(i) + theirs.getAgentVelocity(i))


def test_the_scenes_cover_what_they_claim():
    """Counts, both addAgent forms, tied and coincident lattice points, and (checked with
    Simulator3d's records) the least-violation fallback in the dense scenes."""
    scenes = [random_scene3d(seed) for seed in EXACTNESS_SEEDS]
    counts = [len(s["agents"]) for s in scenes]
    assert min(counts) == 2 and max(counts) == 80
    forms = [a["params"] is None for s in scenes for a in s["agents"]]
    assert any(forms) and not all(forms)
    assert any(s["defaults"]["velocity"] is not None for s in scenes)
    lattices = [s for s in scenes if s["layout"] == "lattice"]
    assert lattices and all(len({a["position"] for a in s["agents"]}) < len(s["agents"]) for s in lattices)
    fallbacks = 0
    for scene in scenes:
        if scene["layout"] != "cluster":
            continue
        native = NativeAsRvo23d(scene)
        native.sim.record_decisions = True
        for i, agent in enumerate(scene["agents"]):
            native.setAgentPrefVelocity(i, pref_toward(agent["goal"], agent["position"], agent["pref_speed"]))
        native.doStep()
        fallbacks += sum(native.sim.first_infeasible(int(a)) is not None for a in native.sim.agent_ids())
    assert fallbacks > 0, "no dense scene reached linear program 4"


# ----- swerve.Simulator3d -----


class NativeAsRvo23d:
    """swerve.Simulator3d behind the rvo23d method names `drive` uses: agents added in bulk
    (per-agent parameter arrays), read back through the numpy arrays."""

    def __init__(self, scene):
        d = scene["defaults"]
        self.sim = swerve.Simulator3d(
            d["time_step"],
            neighbor_dist=d["neighbor_dist"],
            max_neighbors=d["max_neighbors"],
            time_horizon=d["time_horizon"],
            radius=d["radius"],
            max_speed=d["max_speed"],
        )
        agents = scene["agents"]
        names = ["neighbor_dist", "max_neighbors", "time_horizon", "radius", "max_speed"]
        columns = {
            name: np.array([a["params"][k] if a["params"] else d[name] for a in agents]) for k, name in enumerate(names)
        }
        velocities = np.array([a["velocity"] or d["velocity"] or (0.0, 0.0, 0.0) for a in agents])
        ids = self.sim.add_agents(np.array([a["position"] for a in agents]), velocities=velocities, **columns)
        assert ids.dtype == np.uint32 and ids.tolist() == list(range(len(agents)))
        self.pending = [None] * len(agents)

    def getNumAgents(self):
        return self.sim.num_agents

    def getAgentPosition(self, i):
        return self.sim.agent_position(i)

    def setAgentPrefVelocity(self, i, v):
        # Gathered, then set in one call.
        self.pending[i] = v

    def doStep(self):
        self.sim.set_pref_velocities(np.array(self.pending, dtype=np.float64))
        self.sim.step()

    def setAgentMaxSpeed(self, i, v):
        self.sim.set_agent_params(i, max_speed=v)

    def setAgentRadius(self, i, v):
        self.sim.set_agent_params(i, radius=v)

    def setAgentNeighborDist(self, i, v):
        self.sim.set_agent_params(i, neighbor_dist=v)

    def setAgentMaxNeighbors(self, i, v):
        self.sim.set_agent_params(i, max_neighbors=v)

    def setAgentTimeHorizon(self, i, v):
        self.sim.set_agent_params(i, time_horizon=v)

    def setAgentVelocity(self, i, v):
        self.sim.set_agent_velocity(i, v)

    def setAgentPosition(self, i, v):
        self.sim.set_agent_position(i, v)

    def setTimeStep(self, v):
        self.sim.time_step = v

    def setAgentDefaults(self, neighbor_dist, max_neighbors, time_horizon, radius, max_speed, velocity):
        self.late = dict(neighbor_dist=neighbor_dist, max_neighbors=max_neighbors, time_horizon=time_horizon,
                         radius=radius, max_speed=max_speed, velocity=velocity)

    def addAgent(self, position):
        self.pending.append(None)
        return self.sim.add_agent(position, **self.late)


@pytest.mark.parametrize("seed", EXACTNESS_SEEDS[:4])
def test_simulator3d_matches_the_drop_in_and_rvo23d(seed):
    scene = random_scene3d(seed)
    native = NativeAsRvo23d(scene)
    native.sim.record_decisions = True
    ours = build(swerve.rvo2_3d, scene)
    theirs = build(rvo23d, scene)

    def check(step):
        n = theirs.getNumAgents()
        positions, velocities = native.sim.positions(), native.sim.velocities()
        assert positions.shape == velocities.shape == (n, 3) and positions.dtype == np.float32
        assert native.sim.global_time == theirs.getGlobalTime()
        for i in range(n):
            p, v = theirs.getAgentPosition(i), theirs.getAgentVelocity(i)
            assert tuple(float(x) for x in positions[i]) == p == ours.getAgentPosition(i), (step, i)
            assert tuple(float(x) for x in velocities[i]) == v == ours.getAgentVelocity(i), (step, i)
            neighbors = native.sim.neighbors(i)
            assert neighbors.dtype == np.uint32
            assert neighbors.tolist() == neighbor_list(theirs, i) == neighbor_list(ours, i), (step, i)
            planes = native.sim.planes(i)
            assert planes.shape == (len(neighbors), 6) and planes.dtype == np.float32
            if len(planes) and native.sim.first_infeasible(i) is None:
                # Feasible: the new velocity is on the permitted side of every plane (but
                # those of agents on the very same point, whose normal is 0 / 0 in RVO2-3D
                # too and which no comparison can break).
                slack = ((np.asarray(v, dtype=np.float32) - planes[:, :3]) * planes[:, 3:]).sum(axis=1)
                assert np.all((slack >= -1e-3) | np.isnan(slack)), (step, i)

    drive([native, ours, theirs], scene, check=check)


def test_removed_agents_are_as_if_never_added():
    """Removing agents before the first step gives rvo23d's results for the scene without
    them (the others keep their ids; rvo23d's numbers close up)."""
    scene = random_scene3d(EXACTNESS_SEEDS[2])
    removed = {1, 4, 7}
    native = NativeAsRvo23d(scene)
    native.sim.record_decisions = True
    for agent in removed:
        native.sim.remove_agent(agent)
    kept = [k for k in range(len(scene["agents"])) if k not in removed]
    assert native.sim.agent_ids().tolist() == kept and len(native.sim) == len(kept)
    reduced = dict(scene, agents=[scene["agents"][k] for k in kept])
    theirs = build(rvo23d, reduced)
    goals = [a["goal"] for a in reduced["agents"]]
    speeds = [a["pref_speed"] for a in reduced["agents"]]
    for step in range(40):
        prefs = [pref_toward(goals[i], theirs.getAgentPosition(i), speeds[i]) for i in range(len(kept))]
        for i, v in enumerate(prefs):
            theirs.setAgentPrefVelocity(i, v)
        native.sim.set_pref_velocities(np.array(prefs))
        theirs.doStep()
        native.sim.step()
        for i, agent in enumerate(kept):
            assert native.sim.agent_position(agent) == theirs.getAgentPosition(i), (step, agent)
            assert [kept[k] for k in neighbor_list(theirs, i)] == native.sim.neighbors(agent).tolist()


def test_step_n_equals_n_steps():
    scene = random_scene3d(EXACTNESS_SEEDS[1])
    a, b = NativeAsRvo23d(scene), NativeAsRvo23d(scene)
    theirs = build(rvo23d, scene)
    goals = [x["goal"] for x in scene["agents"]]
    prefs = np.array([pref_toward(g, x["position"], 1.0) for g, x in zip(goals, scene["agents"])])
    for i, v in enumerate(prefs):
        theirs.setAgentPrefVelocity(i, tuple(float(x) for x in v))
    a.sim.set_pref_velocities(prefs)
    b.sim.set_pref_velocities(prefs)
    a.sim.step(17)
    for _ in range(17):
        b.sim.step()
        theirs.doStep()
    assert a.sim.positions().tobytes() == b.sim.positions().tobytes()
    assert a.sim.velocities().tobytes() == b.sim.velocities().tobytes()
    assert a.sim.global_time == b.sim.global_time == theirs.getGlobalTime()
    for i in range(theirs.getNumAgents()):
        assert a.sim.agent_position(i) == theirs.getAgentPosition(i), i
    a.sim.step(0)
    assert a.sim.global_time == b.sim.global_time


def test_simulator3d_arrays_and_setters():
    sim = swerve.Simulator3d(0.25, radius=0.5)
    assert sim.time_step == 0.25 and sim.global_time == 0.0 and len(sim) == sim.num_agents == 0
    assert sim.positions().shape == (0, 3) and not sim.record_decisions
    ids = sim.add_agents([[0, 0, 0], [3, 0, 0], [0, 3, 0]], pref_velocities=np.ones((3, 3)), radius=[0.5, 0.6, 0.7],
                         max_neighbors=4)
    assert ids.tolist() == [0, 1, 2]
    assert sim.radii().tolist() == [0.5, np.float32(0.6), np.float32(0.7)]
    assert sim.agent_params(2) == dict(neighbor_dist=15.0, max_neighbors=4, time_horizon=10.0,
                                       radius=np.float32(0.7), max_speed=2.0)
    assert sim.add_agent((9, 9, 9), velocity=(1, 0, 0), max_speed=0.5) == 3
    assert sim.agent_velocity(3) == (1.0, 0.0, 0.0)
    p = sim.positions()
    p[:] = 99.0
    assert not np.any(sim.positions() == 99.0), "arrays are copies"
    sim.set_positions(np.arange(12).reshape(4, 3))
    assert sim.agent_position(3) == (9.0, 10.0, 11.0)
    sim.set_velocities(np.zeros((4, 3)))
    sim.set_agent_pref_velocity(0, (0.5, 0.0, -0.5))
    assert sim.pref_velocities()[0].tolist() == [0.5, 0.0, -0.5]
    sim.set_agent_params(0, radius=0.25)
    assert sim.agent_params(0)["radius"] == 0.25 and sim.agent_params(0)["max_neighbors"] == 4
    sim.time_step = 0.1
    assert sim.time_step == np.float32(0.1)
    with pytest.raises(swerve.SwerveError, match="record_decisions"):
        sim.neighbors(0)
    sim.record_decisions = True
    sim.step()
    assert sim.neighbors(0).dtype == np.uint32
    sim.remove_agent(1)
    assert sim.agent_ids().tolist() == [0, 2, 3] and not sim.contains_agent(1)
    assert sim.add_agent((0, 0, 5)) == 4, "ids are never reused"
    assert "Simulator3d" in repr(sim)


def test_simulator3d_step_releases_the_gil():
    """While one thread steps a big crowd, another thread keeps running Python code."""
    rng = np.random.default_rng(5)
    sim = swerve.Simulator3d(0.25, radius=0.5)
    positions = rng.uniform(-40, 40, (3000, 3))
    sim.add_agents(positions, pref_velocities=-positions / np.linalg.norm(positions, axis=1)[:, None])
    window = {}
    started = threading.Event()

    def worker():
        started.set()
        window["start"] = time.perf_counter()
        sim.step(30)
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
    middle = (window["start"] + duration / 4, window["end"] - duration / 4)
    inside = [t for t in ticks if middle[0] < t < middle[1]]
    assert len(inside) > 10, f"main thread ran {len(inside)} times in the middle of a {duration:.3f} s step"


# ----- the drop-in's surface -----


def public(cls):
    return {name for name in dir(cls) if not name.startswith("_")}


def test_same_methods_and_argument_names_as_rvo23d():
    assert public(swerve.rvo2_3d.PyRVOSimulator) == public(rvo23d.PyRVOSimulator)
    for name in public(rvo23d.PyRVOSimulator):
        theirs = list(inspect.signature(getattr(rvo23d.PyRVOSimulator, name)).parameters)
        ours = list(inspect.signature(getattr(swerve.rvo2_3d.PyRVOSimulator, name)).parameters)
        assert ours == theirs, name
    assert swerve.rvo2_3d.PyRVOSimulator.__name__ == "PyRVOSimulator"
    assert swerve.rvo2_3d.PyRVOSimulator.__module__ == "swerve.rvo2_3d"


def test_same_return_types_and_keywords_as_rvo23d():
    results = []
    for module in (swerve.rvo2_3d, rvo23d):
        sim = module.PyRVOSimulator(timeStep=0.1, neighborDist=15, maxNeighbors=10, timeHorizon=5, radius=0.5,
                                    maxSpeed=2, velocity=(0.25, 0, 0))
        got = [sim.addAgent((0, 0, 0)), sim.addAgent(pos=(3, 0.1, 0), neighborDist=10, maxNeighbors=3, timeHorizon=2,
                                                     radius=0.4, maxSpeed=1, velocity=(-0.5, 0, 0))]
        got += [sim.setAgentPrefVelocity(0, (1, 0, 0)), sim.setAgentPrefVelocity(agent_no=1, velocity=(-1, 0, 0))]
        got += [sim.doStep(), sim.doStep()]
        got += [sim.getAgentAgentNeighbor(0, 0), sim.getAgentMaxNeighbors(1), sim.getAgentMaxSpeed(1),
                sim.getAgentNeighborDist(1), sim.getAgentNumAgentNeighbors(0), sim.getAgentPosition(0),
                sim.getAgentPrefVelocity(1), sim.getAgentRadius(1), sim.getAgentTimeHorizon(1),
                sim.getAgentVelocity(0), sim.getGlobalTime(), sim.getNumAgents(), sim.getTimeStep()]
        got += [sim.setAgentDefaults(1, 2, 3, 0.3, 4, (0, 0, 0.5)), sim.addAgent((10, 10, 10)),
                sim.getAgentVelocity(2), sim.getAgentMaxNeighbors(2)]
        got += [sim.setAgentMaxNeighbors(0, 7), sim.setAgentMaxSpeed(0, 3), sim.setAgentNeighborDist(0, 4),
                sim.setAgentPosition(0, (1, 2, 3)), sim.setAgentRadius(0, 0.7), sim.setAgentTimeHorizon(0, 9),
                sim.setAgentVelocity(0, (0.1, 0.2, 0.3)), sim.setTimeStep(0.3)]
        got += [sim.getAgentMaxNeighbors(0), sim.getAgentMaxSpeed(0), sim.getAgentNeighborDist(0),
                sim.getAgentPosition(0), sim.getAgentRadius(0), sim.getAgentTimeHorizon(0), sim.getAgentVelocity(0),
                sim.getTimeStep()]
        results.append(got)
    ours, theirs = results
    assert ours == theirs
    assert [type(x) for x in ours] == [type(x) for x in theirs]
    for ours_value, their_value in zip(ours, theirs):
        if isinstance(their_value, tuple):
            assert [type(x) for x in ours_value] == [type(x) for x in their_value] == [float] * 3


def test_addagent_all_or_nothing_like_rvo23d():
    for module in (swerve.rvo2_3d, rvo23d):
        sim = module.PyRVOSimulator(0.25, 10, 10, 5, 0.3, 1, (0.5, 0, 0))
        with pytest.raises(ValueError, match=r"^Either pass only 'pos', or pass all parameters\.$"):
            sim.addAgent((0, 0, 0), 10, 10, 5, 0.3, 1)
        assert sim.getNumAgents() == 0
        # Without neighborDist the rest is ignored (rvo23d's rule): the default agent.
        assert sim.addAgent((0, 0, 0), velocity=(1, 1, 1)) == 0
        assert sim.getAgentVelocity(0) == (0.5, 0.0, 0.0)
        assert sim.getAgentRadius(0) == pytest.approx(0.3)
        # Lists are fine for the velocity of the long form in both.
        assert sim.addAgent((1, 0, 0), 10, 10, 5, 0.3, 1, [0, 0, 1]) == 1


# ----- errors -----


def snapshot(sim):
    """Everything rvo23d lets one read."""
    n = sim.getNumAgents()
    return (
        n,
        sim.getTimeStep(),
        sim.getGlobalTime(),
        [
            (sim.getAgentPosition(i), sim.getAgentVelocity(i), sim.getAgentPrefVelocity(i), sim.getAgentRadius(i),
             sim.getAgentMaxSpeed(i), sim.getAgentMaxNeighbors(i), sim.getAgentNeighborDist(i),
             sim.getAgentTimeHorizon(i), neighbor_list(sim, i))
            for i in range(n)
        ],
    )


def test_drop_in_bad_numbers_raise_where_rvo23d_would_crash():
    sim = swerve.rvo2_3d.PyRVOSimulator(0.25, 10, 10, 5, 0.3, 1)
    # Before any step nobody has neighbours: rvo23d reads past an empty vector here.
    sim.addAgent((0, 0, 0))
    sim.addAgent((1, 0, 0))
    with pytest.raises(swerve.UnknownIdError):
        sim.getAgentAgentNeighbor(0, 0)
    sim.doStep()
    before = snapshot(sim)
    count = sim.getAgentNumAgentNeighbors(0)
    assert count == 1
    bad = 2
    calls = [
        lambda: sim.getAgentAgentNeighbor(bad, 0),
        lambda: sim.getAgentAgentNeighbor(0, count),
        lambda: sim.getAgentAgentNeighbor(0, 2**40),
        lambda: sim.getAgentMaxNeighbors(bad),
        lambda: sim.getAgentMaxSpeed(bad),
        lambda: sim.getAgentNeighborDist(bad),
        lambda: sim.getAgentNumAgentNeighbors(bad),
        lambda: sim.getAgentPosition(bad),
        lambda: sim.getAgentPosition(2**40),
        lambda: sim.getAgentPrefVelocity(bad),
        lambda: sim.getAgentRadius(bad),
        lambda: sim.getAgentTimeHorizon(bad),
        lambda: sim.getAgentVelocity(bad),
        lambda: sim.setAgentMaxNeighbors(bad, 3),
        lambda: sim.setAgentMaxSpeed(bad, 1.0),
        lambda: sim.setAgentNeighborDist(bad, 1.0),
        lambda: sim.setAgentPosition(bad, (0, 0, 0)),
        lambda: sim.setAgentPrefVelocity(bad, (0, 0, 0)),
        lambda: sim.setAgentRadius(bad, 1.0),
        lambda: sim.setAgentTimeHorizon(bad, 1.0),
        lambda: sim.setAgentVelocity(bad, (0, 0, 0)),
    ]
    for call in calls:
        with pytest.raises(swerve.UnknownIdError) as info:
            call()
        assert isinstance(info.value, LookupError) and isinstance(info.value, swerve.SwerveError)
        assert snapshot(sim) == before
    # Negative numbers are refused by the conversion to an unsigned number, as in rvo23d.
    with pytest.raises(OverflowError):
        sim.getAgentPosition(-1)


def test_drop_in_bad_values_raise_and_change_nothing():
    with pytest.raises(swerve.InvalidValueError):
        swerve.rvo2_3d.PyRVOSimulator(0.25, 10, 10, 5, 0.3, 1, (NAN, 0, 0))
    for bad in ((0.0, 10, 10, 5, 0.3, 1), (NAN, 10, 10, 5, 0.3, 1), (0.25, 10, 10, 0.0, 0.3, 1),
                (0.25, 10, 10, 5, -0.3, 1), (0.25, NAN, 10, 5, 0.3, 1), (0.25, 10, 10, 5, 0.3, INF)):
        with pytest.raises(swerve.InvalidValueError):
            swerve.rvo2_3d.PyRVOSimulator(*bad)
    sim = swerve.rvo2_3d.PyRVOSimulator(0.25, 10, 10, 5, 0.3, 1)
    sim.addAgent((0, 0, 0))
    sim.addAgent((1, 0, 0.5), 10, 10, 5, 0.3, 1, (0.1, 0, 0))
    sim.setAgentPrefVelocity(0, (1, 0, 0))
    sim.doStep()
    before = snapshot(sim)
    calls = [
        lambda: sim.addAgent((NAN, 0, 0)),
        lambda: sim.addAgent((0, 0)),
        lambda: sim.addAgent((0, 0, 0, 0)),
        lambda: sim.addAgent((0, 0, 0), 10, 10, 5, NAN, 1, (0, 0, 0)),
        lambda: sim.addAgent((0, 0, 0), 10, 10, 5, 0.3, -1, (0, 0, 0)),
        lambda: sim.addAgent((0, 0, 0), 10, 10, 5, 0.3, 1, (0, INF, 0)),
        lambda: sim.addAgent((0, 0, 0), 10, 10, 5, 0.3, 1, (0, 0)),
        lambda: sim.addAgent((0, 0, 0), 10, None, 5, 0.3, 1, (0, 0, 0)),
        lambda: sim.setAgentPosition(0, (NAN, 0, 0)),
        lambda: sim.setAgentPosition(0, (1e300, 0, 0)),  # infinite as a float32
        lambda: sim.setAgentPosition(0, (1, 2)),
        lambda: sim.setAgentPosition(0, (1, 2, 3, 4)),
        lambda: sim.setAgentVelocity(0, (0, INF, 0)),
        lambda: sim.setAgentPrefVelocity(0, (0, 0, NAN)),
        lambda: sim.setAgentRadius(0, NAN),
        lambda: sim.setAgentRadius(0, -1.0),
        lambda: sim.setAgentRadius(0, 0.0),
        lambda: sim.setAgentMaxSpeed(0, NAN),
        lambda: sim.setAgentMaxSpeed(0, -1.0),
        lambda: sim.setAgentNeighborDist(0, NAN),
        lambda: sim.setAgentTimeHorizon(0, 0.0),
        lambda: sim.setTimeStep(NAN),
        lambda: sim.setTimeStep(0.0),
        lambda: sim.setAgentDefaults(10, 10, 5, NAN, 1, (0, 0, 0)),
        lambda: sim.setAgentDefaults(10, 10, 5, 0.3, 1, (NAN, 0, 0)),
    ]
    for k, call in enumerate(calls):
        with pytest.raises(swerve.InvalidValueError) as info:
            call()
        assert isinstance(info.value, ValueError) and isinstance(info.value, swerve.SwerveError)
        assert snapshot(sim) == before, k
    # The rejected defaults did not replace the constructor's.
    n = sim.addAgent((5, 5, 5))
    assert sim.getAgentRadius(n) == pytest.approx(0.3) and sim.getAgentVelocity(n) == (0.0, 0.0, 0.0)


def test_set_agent_defaults_velocity_defaults_to_rest():
    """rvo23d's `setAgentDefaults` defaults `velocity` to the 2-tuple (0, 0), then fails to
    index it; the drop-in means what it says, at rest."""
    theirs = rvo23d.PyRVOSimulator(0.25, 10, 10, 5, 0.3, 1)
    with pytest.raises(IndexError):
        theirs.setAgentDefaults(10, 10, 5, 0.3, 1)
    ours = swerve.rvo2_3d.PyRVOSimulator(0.25, 10, 10, 5, 0.3, 1, (1, 0, 0))
    ours.setAgentDefaults(10, 4, 5, 0.6, 1)
    n = ours.addAgent((0, 0, 0))
    assert ours.getAgentVelocity(n) == (0.0, 0.0, 0.0) and ours.getAgentMaxNeighbors(n) == 4


def test_simulator3d_bad_input_raises_and_changes_nothing():
    for kwargs in (dict(time_step=0.0), dict(time_step=NAN), dict(time_step=0.25, radius=0.0),
                   dict(time_step=0.25, time_horizon=-1.0), dict(time_step=0.25, neighbor_dist=NAN),
                   dict(time_step=0.25, max_speed=-2.0)):
        with pytest.raises(swerve.InvalidValueError):
            swerve.Simulator3d(**kwargs)
    sim = swerve.Simulator3d(0.25, record_decisions=True)
    sim.add_agents(np.arange(9.0).reshape(3, 3) * 4.0, pref_velocities=np.ones((3, 3)))
    sim.step()

    def state():
        return (sim.agent_ids().tolist(), sim.positions().tobytes(), sim.velocities().tobytes(),
                sim.pref_velocities().tobytes(), [sim.agent_params(i) for i in range(3)], sim.time_step,
                sim.global_time, [sim.neighbors(i).tolist() for i in range(3)], [sim.planes(i).tobytes() for i in range(3)])

    before = state()
    invalid = [
        lambda: sim.add_agents(np.zeros((2, 2))),
        lambda: sim.add_agents(np.zeros((2, 4))),
        lambda: sim.add_agents(np.zeros(3)),
        lambda: sim.add_agents(np.zeros((2, 3, 1))),
        lambda: sim.add_agents(np.array([[0.0, 0.0, 0.0], [NAN, 1.0, 0.0]])),
        lambda: sim.add_agents(np.zeros((2, 3)), radius=np.array([1.0, -1.0])),
        lambda: sim.add_agents(np.zeros((2, 3)), radius=np.array([1.0, 1.0, 1.0])),
        lambda: sim.add_agents(np.zeros((2, 3)), max_neighbors=np.array([1.5, 2.0])),
        lambda: sim.add_agents(np.zeros((2, 3)), velocities=np.zeros((3, 3))),
        lambda: sim.add_agents(np.zeros((2, 3)), pref_velocities=np.array([[0, 0, 0], [0, INF, 0]])),
        lambda: sim.add_agents([["a", "b", "c"]]),
        lambda: sim.add_agent((0.0, 0.0)),
        lambda: sim.add_agent((0.0, NAN, 0.0)),
        lambda: sim.add_agent((0.0, 0.0, 0.0), velocity=(INF, 0, 0)),
        lambda: sim.add_agent((0.0, 0.0, 0.0), radius=-1.0),
        lambda: sim.set_pref_velocities(np.zeros((2, 3))),
        lambda: sim.set_pref_velocities(np.zeros((3, 2))),
        lambda: sim.set_pref_velocities(np.array([[0, 0, 0], [0, 0, 0], [NAN, 0, 0]])),
        lambda: sim.set_velocities(np.zeros((4, 3))),
        lambda: sim.set_velocities(np.array([[0, 0, 0], [0, 0, 0], [0, 0, INF]])),
        lambda: sim.set_positions(np.zeros((3, 2))),
        lambda: sim.set_positions(np.array([[1, 1, 1], [2, 2, 2], [INF, 3, 3]])),
        lambda: sim.set_agent_position(0, (NAN, 0, 0)),
        lambda: sim.set_agent_velocity(0, (1, 2)),
        lambda: sim.set_agent_pref_velocity(0, (0, 0, INF)),
        lambda: sim.set_agent_params(0, radius=-3.0),
        lambda: sim.set_agent_params(0, time_horizon=NAN),
        lambda: setattr(sim, "time_step", 0.0),
    ]
    for k, call in enumerate(invalid):
        with pytest.raises(swerve.InvalidValueError):
            call()
        assert state() == before, k
    unknown = [
        lambda: sim.agent_position(3),
        lambda: sim.agent_velocity(3),
        lambda: sim.remove_agent(3),
        lambda: sim.neighbors(3),
        lambda: sim.planes(3),
        lambda: sim.first_infeasible(3),
        lambda: sim.agent_params(3),
        lambda: sim.set_agent_params(3, radius=1.0),
        lambda: sim.set_agent_position(3, (0, 0, 0)),
        lambda: sim.set_agent_velocity(3, (0, 0, 0)),
        lambda: sim.set_agent_pref_velocity(3, (0, 0, 0)),
    ]
    for k, call in enumerate(unknown):
        with pytest.raises(swerve.UnknownIdError):
            call()
        assert state() == before, k


def test_garbage_never_crashes():
    """Every method of both 3-D classes with every kind of wrong argument raises a Python
    exception; none takes the interpreter down."""
    rng = np.random.default_rng(4343)
    garbage = [None, "x", -1, 2**70, NAN, INF, (1,), (1, 2, 3), [NAN, 0, 0], object(), np.zeros((2, 3)), 1.5, 0]
    native = swerve.Simulator3d(0.25)
    native.add_agents(np.zeros((2, 3)) + [[0, 0, 0], [3, 0, 0]])
    drop_in = swerve.rvo2_3d.PyRVOSimulator(0.25, 10, 10, 5, 0.3, 1)
    drop_in.addAgent((0, 0, 0))
    calls = 0
    for sim in (native, drop_in):
        methods = [name for name in dir(sim) if not name.startswith("_") and callable(getattr(sim, name))]
        for name in methods:
            for _ in range(30):
                args = [garbage[int(k)] for k in rng.integers(0, len(garbage), int(rng.integers(0, 4)))]
                try:
                    getattr(sim, name)(*args)
                except Exception:  # noqa: BLE001 - any Python exception is fine, a crash is not
                    pass
                calls += 1
    native.step()
    drop_in.doStep()
    assert np.all(np.isfinite(native.positions()))
    assert all(math.isfinite(x) for i in range(drop_in.getNumAgents()) for x in drop_in.getAgentPosition(i))
    assert calls > 500


def test_stubs_match_the_3d_classes():
    stub = importlib.resources.files("swerve").joinpath("_swerve.pyi").read_text()
    stubbed = {}
    for node in ast.parse(stub).body:
        if isinstance(node, ast.ClassDef):
            names = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
            names |= {item.target.id for item in node.body if isinstance(item, ast.AnnAssign)}
            stubbed[node.name] = names
    for name in ("Simulator3d", "PyRVOSimulator3d"):
        runtime = getattr(swerve._swerve, name)
        assert public(runtime) - stubbed[name] == set(), name
        assert {m for m in stubbed[name] if not m.startswith("_")} - public(runtime) == set(), name
    assert swerve.Simulator3d is swerve._swerve.Simulator3d and "Simulator3d" in swerve.__all__
    assert swerve.rvo2_3d.PyRVOSimulator is swerve._swerve.PyRVOSimulator3d


def test_a_nan_plane_in_the_fallback_is_skipped_as_rvo2_3d_skips_it():
    """Found by tests/orca3d_fuzz.rs: the middle agent's plane from its right neighbour is NaN
    (an exactly degenerate pair) and its planes conflict (max speed 0). RVO2-3D's fallback
    skips the NaN plane; swerve's processed it and returned NaN."""
    velocities = []
    for module in (rvo23d, swerve.rvo2_3d):
        sim = module.PyRVOSimulator(0.01, 15.0, 10, 10.0, 1.5, 2.0)
        small = (0.0, 0, 0.01, 0.05, 0.0)
        sim.addAgent((1.3686087, -3.0, -1.5), *small, (1.0, 0.5, 0.0))
        sim.addAgent((9.972639, -3.0, -1.5), 11.291555, 2, 4.141505, 1.8410391, 0.0, (-1.5, 0.5, 0.0))
        sim.addAgent((12.022314, -1.0, 0.0), *small, (-0.5, 0.0, 0.0))
        sim.doStep()
        velocities.append([sim.getAgentVelocity(i) for i in range(3)])
    assert all(math.isfinite(x) for v in velocities[1] for x in v), velocities[1]
    assert velocities[0] == velocities[1]
