"""swerve.pyrvo against pyrvo itself (RVO2 2.0 in C++): bit-identical results.

Each seed builds a random scene (parameters, obstacles, agents added in every form pyrvo
offers) in both simulators, drives both for 200 steps with the same rule, and requires every
position and velocity to be the same float after every step. Neighbour lists, ORCA lines and
obstacle vertices are compared along the way.
"""

import math
import random

import pyrvo
import pytest

import swerve.pyrvo

from conftest import pref_velocity_toward, random_scene

# Named seeds: a failure reports which scene diverged.
EXACTNESS_SEEDS = tuple(range(1000, 1024))
STEPS = 200
# Every this many steps the per-agent diagnostics are compared too.
DETAIL_EVERY = 25


def build(module, scene, *, default_constructor):
    d = scene["defaults"]
    if default_constructor:
        # ir-sim's way: no arguments, then a time step and defaults.
        sim = module.RVOSimulator()
        sim.set_time_step(d["time_step"])
        sim.set_agent_defaults(
            d["neighbor_dist"], d["max_neighbors"], d["time_horizon"], d["time_horizon_obst"], d["radius"], d["max_speed"]
        )
    else:
        sim = module.RVOSimulator(
            d["time_step"],
            d["neighbor_dist"],
            d["max_neighbors"],
            d["time_horizon"],
            d["time_horizon_obst"],
            d["radius"],
            d["max_speed"],
        )
    firsts = [sim.add_obstacle(polygon) for polygon in scene["obstacles"]]
    sim.process_obstacles()
    for agent in scene["agents"]:
        if agent["params"] is None:
            number = sim.add_agent(agent["position"])
        elif agent["velocity"] is None:
            number = sim.add_agent(agent["position"], *agent["params"])
        else:
            number = sim.add_agent(agent["position"], *agent["params"], agent["velocity"])
        assert number == sim.get_num_agents() - 1
    return sim, firsts


def same_floats(a, b):
    """Bit equality of floats (f32 values widened to Python floats compare exactly)."""
    return all(x == y or (x != x and y != y) for x, y in zip(a, b)) and len(a) == len(b)


def compare_details(ours, theirs, n, step):
    for i in range(n):
        assert ours.get_agent_num_agent_neighbors(i) == theirs.get_agent_num_agent_neighbors(i), (step, i)
        for k in range(theirs.get_agent_num_agent_neighbors(i)):
            assert ours.get_agent_agent_neighbor(i, k) == theirs.get_agent_agent_neighbor(i, k), (step, i, k)
        assert ours.get_agent_num_obstacle_neighbors(i) == theirs.get_agent_num_obstacle_neighbors(i), (step, i)
        for k in range(theirs.get_agent_num_obstacle_neighbors(i)):
            assert ours.get_agent_obstacle_neighbor(i, k) == theirs.get_agent_obstacle_neighbor(i, k), (step, i, k)
        assert ours.get_agent_num_orca_lines(i) == theirs.get_agent_num_orca_lines(i), (step, i)
        for k in range(theirs.get_agent_num_orca_lines(i)):
            (d1, p1), (d2, p2) = ours.get_agent_orca_line(i, k), theirs.get_agent_orca_line(i, k)
            assert same_floats(d1 + p1, d2 + p2), (step, i, k)


@pytest.mark.parametrize("seed", EXACTNESS_SEEDS)
def test_random_scene_matches_pyrvo_bit_for_bit(seed):
    scene = random_scene(seed)
    default_constructor = seed % 2 == 1
    ours, our_firsts = build(swerve.pyrvo, scene, default_constructor=default_constructor)
    theirs, their_firsts = build(pyrvo, scene, default_constructor=default_constructor)

    # Obstacle numbering, including the vertices RVO2 adds when it splits edges.
    assert our_firsts == their_firsts
    assert ours.get_num_obstacle_vertices() == theirs.get_num_obstacle_vertices()
    for v in range(theirs.get_num_obstacle_vertices()):
        assert ours.get_obstacle_vertex(v).to_tuple() == theirs.get_obstacle_vertex(v).to_tuple(), v
        assert ours.get_next_obstacle_vertex(v) == theirs.get_next_obstacle_vertex(v), v
        assert ours.get_prev_obstacle_vertex(v) == theirs.get_prev_obstacle_vertex(v), v

    n = theirs.get_num_agents()
    assert ours.get_num_agents() == n
    goals = [agent["goal"] for agent in scene["agents"]]
    for step in range(STEPS):
        for i in range(n):
            # Each simulator is driven from its own state: equal only if the states are.
            ours.set_agent_pref_velocity(i, pref_velocity_toward(goals[i], ours.get_agent_position(i).to_tuple()))
            theirs.set_agent_pref_velocity(i, pref_velocity_toward(goals[i], theirs.get_agent_position(i).to_tuple()))
        if step == STEPS // 2:
            # Change parameters mid-run through the setters, on both.
            for sim in (ours, theirs):
                sim.set_agent_max_speed(0, 0.5)
                sim.set_agent_radius(n - 1, 0.4)
                sim.set_agent_neighbor_dist(n // 2, 3.0)
                sim.set_agent_max_neighbors(n // 3, 2)
                sim.set_agent_time_horizon(n // 4, 1.5)
                sim.set_agent_time_horizon_obst(n // 5, 0.75)
        ours.do_step()
        theirs.do_step()
        for i in range(n):
            assert ours.get_agent_position(i).to_tuple() == theirs.get_agent_position(i).to_tuple(), (seed, step, i)
            assert ours.get_agent_velocity(i).to_tuple() == theirs.get_agent_velocity(i).to_tuple(), (seed, step, i)
        if step % DETAIL_EVERY == 0 or step == STEPS - 1:
            compare_details(ours, theirs, n, step)
    assert ours.get_global_time() == theirs.get_global_time()
    for i in range(n):
        assert ours.get_agent_pref_velocity(i).to_tuple() == theirs.get_agent_pref_velocity(i).to_tuple()
        assert ours.get_agent_radius(i) == theirs.get_agent_radius(i)
        assert ours.get_agent_max_speed(i) == theirs.get_agent_max_speed(i)
        assert ours.get_agent_max_neighbors(i) == theirs.get_agent_max_neighbors(i)
        assert ours.get_agent_neighbor_dist(i) == theirs.get_agent_neighbor_dist(i)
        assert ours.get_agent_time_horizon(i) == theirs.get_agent_time_horizon(i)
        assert ours.get_agent_time_horizon_obst(i) == theirs.get_agent_time_horizon_obst(i)


@pytest.mark.parametrize("seed", EXACTNESS_SEEDS[:6])
def test_query_visibility_matches_pyrvo(seed):
    import numpy as np

    scene = random_scene(seed)
    ours, _ = build(swerve.pyrvo, scene, default_constructor=False)
    theirs, _ = build(pyrvo, scene, default_constructor=False)
    rng = np.random.default_rng(seed)
    visible = 0
    for _ in range(300):
        a = tuple(float(x) for x in rng.uniform(-25, 25, 2))
        b = tuple(float(x) for x in rng.uniform(-25, 25, 2))
        radius = float(rng.uniform(0, 2))
        expected = theirs.query_visibility(a, b, radius)
        assert ours.query_visibility(a, b, radius) == expected, (a, b, radius)
        assert ours.query_visibility(a, b) == theirs.query_visibility(a, b)
        visible += expected
    if scene["obstacles"]:
        assert visible < 300, "a scene with obstacles should block some sight lines"


def test_vector2_behaves_like_pyrvos():
    for module in (swerve.pyrvo, pyrvo):
        v = module.Vector2(1.5, -2.25)
        assert (v.x, v.y) == (1.5, -2.25)
        assert v.to_tuple() == (1.5, -2.25)
        assert module.Vector2.from_tuple((3.0, 4.0)).to_tuple() == (3.0, 4.0)
        assert module.Vector2.from_list([0.1, 0.2]).to_tuple() == pyrvo.Vector2(0.1, 0.2).to_tuple()
        assert module.Vector2().to_tuple() == (0.0, 0.0)
    assert repr(swerve.pyrvo.Vector2(1.5, -2.25)) == repr(pyrvo.Vector2(1.5, -2.25))


def test_every_pyrvo_method_exists():
    for cls_name in ("RVOSimulator", "Vector2"):
        theirs = {name for name in dir(getattr(pyrvo, cls_name)) if not name.startswith("_")}
        ours = {name for name in dir(getattr(swerve.pyrvo, cls_name)) if not name.startswith("_")}
        assert theirs - ours == set(), cls_name


def test_clear_agents_restarts_numbering_and_keeps_obstacles():
    sim = swerve.pyrvo.RVOSimulator(0.25, 15, 10, 5, 5, 0.5, 2)
    sim.add_obstacle([(-1, -1), (1, -1), (1, 1), (-1, 1)])
    sim.process_obstacles()
    for x in range(5):
        sim.add_agent((x * 3.0 - 6.0, -5.0))
    sim.do_step()
    sim.clear_agents()
    assert sim.get_num_agents() == 0
    assert sim.get_num_obstacle_vertices() == 4
    assert sim.add_agent((0.0, -5.0)) == 0
    sim.set_agent_pref_velocity(0, (0.0, 1.0))
    for _ in range(40):
        sim.do_step()
    # The obstacle is still there: the agent heading straight at it stops short of it.
    x, y = sim.get_agent_position(0).to_tuple()
    assert y < -1.0 + 1e-3 or abs(x) > 1.0
    with pytest.raises(LookupError):
        sim.get_agent_position(1)


def _process_again_and_again(module, seed):
    """RVO2's processObstacles after every added obstacle: each build starts from the edges
    the last one split, and later obstacles are numbered after the split vertices."""
    rng = random.Random(seed)
    sim = module.RVOSimulator(0.25, 10.0, 10, 3.0, 8.0, 0.7, 2.0)
    firsts = [sim.add_obstacle([(-20, -20), (-20, 20), (20, 20), (20, -20)])]
    sim.process_obstacles()
    boxes = []
    for _ in range(5):
        cx, cy, r = rng.uniform(-15, 15), rng.uniform(-15, 15), rng.uniform(1, 3)
        boxes.append((cx, cy, r))
        firsts.append(sim.add_obstacle([(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]))
        sim.process_obstacles()
    n = 0
    while n < 30:
        x, y = rng.uniform(-19, 19), rng.uniform(-19, 19)
        if all(max(abs(x - cx), abs(y - cy)) > r + 1 for cx, cy, r in boxes):
            sim.add_agent((x, y))
            n += 1
    goals = [(rng.uniform(-25, 25), rng.uniform(-25, 25)) for _ in range(n)]
    track = []
    for _ in range(60):
        for i, (gx, gy) in enumerate(goals):
            p = sim.get_agent_position(i)
            dx, dy = gx - p.x, gy - p.y
            d = math.hypot(dx, dy)
            sim.set_agent_pref_velocity(i, (dx / d, dy / d) if d > 1 else (dx, dy))
        sim.do_step()
        track.append([sim.get_agent_position(i).to_tuple() for i in range(n)])
    vertices = [
        (sim.get_obstacle_vertex(k).to_tuple(), sim.get_next_obstacle_vertex(k), sim.get_prev_obstacle_vertex(k))
        for k in range(sim.get_num_obstacle_vertices())
    ]
    return firsts, vertices, track


@pytest.mark.parametrize("seed", [0, 4, 9])
def test_processing_obstacles_again_matches_pyrvo(seed):
    ours, theirs = _process_again_and_again(swerve.pyrvo, seed), _process_again_and_again(pyrvo, seed)
    assert ours[0] == theirs[0], "addObstacle's vertex numbers"
    assert ours[1] == theirs[1], "the obstacle vertex list, split vertices included"
    assert ours[2] == theirs[2], "positions"
