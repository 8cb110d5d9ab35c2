"""swerve.Simulator3d's static obstacles (beyond RVO2-3D, which has none): triangle meshes and
boxes that every agent keeps at least its radius from, step after step, however hard its
preferred velocity pushes; a window lets agents through; removing an obstacle frees the way;
each agent's obstacle time horizon changes how close it flies before slowing; and bad input
raises without changing anything."""

import math

import numpy as np
import pytest

import swerve


def toward(goals, positions):
    """Unit velocities toward the goals (shorter within a metre of them), in float32."""
    g = (goals - positions).astype(np.float32)
    length = np.sqrt((g * g).sum(axis=1, dtype=np.float32)).astype(np.float32)
    scale = np.where(length > 1, np.float32(1) / np.maximum(length, np.float32(1e-30)), np.float32(1))
    return (g * scale[:, None]).astype(np.float32)


def rectangle(x, y0, y1, z0, z1, first):
    """The rectangle x = const, y0..y1 by z0..z1, as two triangles numbered from `first`."""
    vertices = [[x, y0, z0], [x, y1, z0], [x, y1, z1], [x, y0, z1]]
    return vertices, [[first, first + 1, first + 2], [first, first + 2, first + 3]]


def wall(half=10.0):
    """The square x = 0, -half..half in y and z."""
    vertices, triangles = rectangle(0.0, -half, half, -half, half, 0)
    return np.array(vertices, dtype=np.float32), np.array(triangles, dtype=np.int64)


def wall_with_window(hole, half=10.0):
    """The square x = 0 of `wall` with a square hole -hole..hole in y and z: four rectangles."""
    vertices, triangles = [], []
    for y0, y1, z0, z1 in [(-half, -hole, -half, half), (hole, half, -half, half), (-hole, hole, -half, -hole),
                           (-hole, hole, hole, half)]:
        v, t = rectangle(0.0, y0, y1, z0, z1, len(vertices))
        vertices += v
        triangles += t
    return np.array(vertices, dtype=np.float32), np.array(triangles, dtype=np.int64)


def closest_on_triangle(p, a, b, c):
    """The point of triangle abc nearest p (Ericson, Real-Time Collision Detection, 5.1.5)."""
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = ab @ ap, ac @ ap
    if d1 <= 0 and d2 <= 0:
        return a
    bp = p - b
    d3, d4 = ab @ bp, ac @ bp
    if d3 >= 0 and d4 <= d3:
        return b
    vc = d1 * d4 - d3 * d2
    if vc <= 0 and d1 >= 0 and d3 <= 0:
        return a + d1 / (d1 - d3) * ab
    cp = p - c
    d5, d6 = ab @ cp, ac @ cp
    if d6 >= 0 and d5 <= d6:
        return c
    vb = d5 * d2 - d1 * d6
    if vb <= 0 and d2 >= 0 and d6 <= 0:
        return a + d2 / (d2 - d6) * ac
    va = d3 * d6 - d5 * d4
    if va <= 0 and d4 - d3 >= 0 and d5 - d6 >= 0:
        return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b)
    scale = 1.0 / (va + vb + vc)
    return a + ab * (vb * scale) + ac * (vc * scale)


def distance_to_mesh(point, triangles):
    """The distance (float64) from `point` to the nearest of `triangles` ((M, 3, 3))."""
    p = np.asarray(point, dtype=np.float64)
    return min(float(np.linalg.norm(p - closest_on_triangle(p, *t.astype(np.float64)))) for t in triangles)


def distance_to_box(point, low, high):
    p = np.asarray(point, dtype=np.float64)
    outside = np.maximum(np.maximum(np.asarray(low) - p, p - np.asarray(high)), 0.0)
    return float(np.linalg.norm(outside))


RADIUS = 1.0
# The hard planes keep an agent at least its radius away up to f32 rounding.
SLACK = 1e-3


def test_agents_flying_at_a_wall_stop_short_of_it_every_step():
    sim = swerve.Simulator3d(0.1, radius=RADIUS, max_speed=2.0, time_horizon=5.0, record_decisions=True)
    obstacle = sim.add_obstacle(*wall())
    assert obstacle == 0
    start = np.array([[-8, 0, 0], [-8, 3, 2], [-6, -3, -2.5], [-9, 5, -4], [-4, -6, 6]], dtype=np.float32)
    goals = start.copy()
    goals[:, 0] = 8  # straight through the wall
    sim.add_agents(start)
    for _ in range(300):
        sim.set_pref_velocities(toward(goals, sim.positions()))
        sim.step()
        # Centre distance to the wall's plane x = 0 (the agents stay well inside its square).
        gap = -sim.positions()[:, 0]
        assert (gap >= RADIUS - SLACK).all(), gap
        for agent in sim.agent_ids():
            count = sim.obstacle_plane_count(agent)
            planes = sim.planes(agent)
            assert count <= len(planes)
            # The chosen velocity keeps every hard plane.
            v = np.array(sim.agent_velocity(agent), dtype=np.float64)
            for plane in planes[:count].astype(np.float64):
                assert (v - plane[:3]) @ plane[3:] >= -1e-4, (agent, plane, v)
    # They did press up to it (not stop early), and each then had the wall's plane.
    assert (-sim.positions()[:, 0] < RADIUS + 0.05).all(), sim.positions()
    for agent in sim.agent_ids():
        count = sim.obstacle_plane_count(agent)
        assert count >= 1
        normals = sim.planes(agent)[:count, 3:]
        assert any(np.allclose(n, [-1, 0, 0], atol=1e-6) for n in normals), normals


def test_a_shorter_obstacle_time_horizon_flies_closer_before_slowing():
    sim = swerve.Simulator3d(0.1, radius=RADIUS, max_speed=2.0, time_horizon=5.0)
    sim.add_obstacle(*wall())
    # Two agents 8 m from the wall, far enough apart (12 m) not to matter to each other.
    start = np.array([[-8, -6, 0], [-8, 6, 0]], dtype=np.float32)
    goals = start + np.float32([16, 0, 0])
    a, b = sim.add_agents(start, neighbor_dist=2.0)
    assert sim.obstacle_time_horizon(a) == 5.0  # the agent's time horizon unless set
    sim.set_obstacle_time_horizon(b, 0.5)
    assert sim.obstacle_time_horizon(b) == 0.5
    assert sim.obstacle_time_horizon(a) == 5.0
    # A later time_horizon change carries the default along; a set horizon stays.
    sim.set_agent_params(a, time_horizon=4.0)
    sim.set_agent_params(b, time_horizon=4.0)
    assert sim.obstacle_time_horizon(a) == 4.0 and sim.obstacle_time_horizon(b) == 0.5
    for _ in range(40):
        # At full speed (2 m/s) toward the goal.
        sim.set_pref_velocities(2 * toward(goals, sim.positions()))
        sim.step()
        assert (-sim.positions()[:, 0] >= RADIUS - SLACK).all()
    x = sim.positions()[:, 0]
    # Gap 7 m over a 4 s horizon: a slows from the first step (the gap shrinks as
    # 7 e^(-t/4): 2.6 m after 4 s); b flies at full speed to within 2 m/s * 0.5 s = 1 m of
    # the plane at its radius from the wall, then closes in (0.14 m after 4 s).
    assert x[1] > x[0] + 1.5, x
    assert -x[1] < RADIUS + 0.2, x


def test_agents_pass_through_a_window_in_a_wall():
    radius = 0.5
    sim = swerve.Simulator3d(0.1, radius=radius, max_speed=2.0, time_horizon=5.0)
    obstacle = sim.add_obstacle(*wall_with_window(2.0))
    frame = sim.obstacle_triangles(obstacle)
    assert frame.shape == (8, 3, 3) and frame.dtype == np.float32
    start = np.array([[-8, 0, 0], [-8, 0.8, -0.5], [-12, 1.0, 1.0]], dtype=np.float32)
    goals = start.copy()
    goals[:, 0] = 8
    sim.add_agents(start)
    closest = math.inf
    for _ in range(300):
        sim.set_pref_velocities(toward(goals, sim.positions()))
        sim.step()
        closest = min(closest, min(distance_to_mesh(p, frame) for p in sim.positions()))
    assert closest >= radius - SLACK, closest
    assert np.linalg.norm(sim.positions() - goals, axis=1).max() < 0.1, sim.positions()


def test_a_box_between_two_agents_flying_head_on_keeps_both_clear_until_it_is_removed():
    radius = 0.5
    low, high = (-1.0, -1.0, -1.0), (1.0, 1.0, 1.0)
    sim = swerve.Simulator3d(0.1, radius=radius, max_speed=2.0, time_horizon=5.0)
    box = sim.add_box_obstacle(low, high)
    start = np.array([[-8, 0, 0], [8, 0, 0]], dtype=np.float32)
    goals = -start
    sim.add_agents(start)
    for _ in range(150):
        sim.set_pref_velocities(toward(goals, sim.positions()))
        sim.step()
        for p in sim.positions():
            assert distance_to_box(p, low, high) >= radius - SLACK, p
    p = sim.positions()
    # Each is held in front of its face of the box (a little short of it: the two also avoid
    # each other, head-on across the box).
    assert -1 - radius - 0.5 < p[0, 0] <= -1 - radius + SLACK and 1 + radius - SLACK <= p[1, 0] < 1 + radius + 0.5, p

    # Removed, the box no longer holds them: agents that ignore each other (mask 0) then fly
    # exactly at their preferred velocities, through where the box was.
    sim.remove_obstacle(box)
    assert len(sim.obstacle_ids()) == 0
    for agent in sim.agent_ids():
        sim.set_avoidance_mask(agent, 0)
    for _ in range(120):
        preferred = toward(goals, sim.positions())
        sim.set_pref_velocities(preferred)
        sim.step()
        assert np.array_equal(sim.velocities(), preferred)
    assert np.linalg.norm(sim.positions() - goals, axis=1).max() < 0.05, sim.positions()


def test_the_same_agents_that_ignore_each_other_are_still_held_by_the_box():
    # The removal test's control: with the box in place, mask 0 changes nothing about it.
    radius = 0.5
    sim = swerve.Simulator3d(0.1, radius=radius, max_speed=2.0, time_horizon=5.0)
    sim.add_box_obstacle((-1, -1, -1), (1, 1, 1))
    start = np.array([[-8, 0, 0], [8, 0, 0]], dtype=np.float32)
    sim.add_agents(start)
    for agent in sim.agent_ids():
        sim.set_avoidance_mask(agent, 0)
    for _ in range(200):
        sim.set_pref_velocities(toward(-start, sim.positions()))
        sim.step()
    p = sim.positions()
    assert p[0, 0] <= -1 - radius + SLACK and p[1, 0] >= 1 + radius - SLACK, p


def test_obstacles_read_back_and_ids_are_never_reused():
    sim = swerve.Simulator3d(0.25)
    assert len(sim.obstacle_ids()) == 0
    # Plain lists work as well as arrays; int32 indices as well as int64.
    first = sim.add_obstacle([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.array([[0, 1, 2], [0, 3, 1]], np.int32))
    box = sim.add_box_obstacle([2, 3, 4], np.array([3, 5, 7.5]))
    assert (first, box) == (0, 1)
    triangles = sim.obstacle_triangles(first)
    assert triangles.shape == (2, 3, 3)
    assert np.array_equal(triangles[1], np.float32([[0, 0, 0], [0, 0, 1], [1, 0, 0]]))
    corners = sim.obstacle_triangles(box).reshape(-1, 3)
    assert sim.obstacle_triangles(box).shape == (12, 3, 3)
    # Every corner of the 12 triangles is one of the box's 8, and all 8 are used.
    assert {tuple(c) for c in corners.tolist()} == {(x, y, z) for x in (2, 3) for y in (3, 5) for z in (4, 7.5)}
    sim.remove_obstacle(first)
    assert sim.obstacle_ids().tolist() == [1]
    with pytest.raises(swerve.UnknownIdError, match="unknown obstacle id 0"):
        sim.obstacle_triangles(first)
    assert sim.add_box_obstacle((0, 0, 0), (1, 1, 1)) == 2
    assert sim.obstacle_ids().tolist() == [1, 2]
    # No agent near: no planes from obstacles.
    sim.record_decisions = True
    agent = sim.add_agent((40, 40, 40))
    sim.step()
    assert sim.obstacle_plane_count(agent) == 0


def scene():
    """A wall, an agent flying at it and one off to the side, each with a preferred velocity."""
    sim = swerve.Simulator3d(0.1, radius=RADIUS, max_speed=2.0, time_horizon=5.0)
    sim.add_obstacle(*wall())
    sim.add_agents(np.float32([[-5, 0, 0], [-5, 4, 1]]), pref_velocities=np.float32([[2, 0, 0], [1.5, 0, 0.5]]))
    sim.set_obstacle_time_horizon(1, 2.0)
    return sim


def test_visibility_is_blocked_by_a_wall_and_open_through_its_window_and_after_removal():
    sim = swerve.Simulator3d(time_step=0.125)
    vertices, triangles = wall_with_window(2.0)
    window = sim.add_obstacle(vertices, triangles)
    box = sim.add_box_obstacle((4, -1, -1), (6, 1, 1))
    # Through the 4 m window (|y|, |z| < 2) for a sphere smaller than the gap to its frame.
    assert sim.query_visibility((-5, 0, 0), (2, 0, 0), 1.5)
    assert not sim.query_visibility((-5, 0, 0), (2, 0, 0), 2.5)
    assert not sim.query_visibility((-5, 5, 0), (2, 5, 0))
    # On through the box: blocked; over it with room to spare: clear; a point inside it is not.
    assert not sim.query_visibility((2, 0, 0), (8, 0, 0), 0.1)
    assert sim.query_visibility((2, 0, 3), (8, 0, 3), 1.5)
    assert not sim.query_visibility((5, 0, 0), (5, 0, 0))
    # Touching counts as blocked: 2 m above the box's top face, a 2 m sphere touches it.
    assert not sim.query_visibility((5, 0, 3), (5, 0, 3), 2.0)
    assert sim.query_visibility((5, 0, 3), (5, 0, 3), 1.99)
    sim.remove_obstacle(window)
    assert sim.query_visibility((-5, 5, 0), (2, 5, 0), 1.0)
    sim.remove_obstacle(box)
    assert sim.query_visibility((2, 0, 0), (8, 0, 0), 0.1)


def test_bad_obstacle_input_raises_and_changes_nothing():
    sim, twin = scene(), scene()
    vertices, triangles = wall()
    bad = [
        (swerve.InvalidValueError, "mesh vertex must be finite",
         lambda: sim.add_obstacle(np.where(np.arange(12).reshape(4, 3) == 7, np.nan, vertices), triangles)),
        (swerve.InvalidValueError, "names vertex 4",
         lambda: sim.add_obstacle(vertices, [[0, 1, 2], [0, 2, 4]])),
        (swerve.InvalidValueError, "names vertex -1", lambda: sim.add_obstacle(vertices, [[0, 1, -1]])),
        (swerve.InvalidValueError, "triangle 1 has no area",
         lambda: sim.add_obstacle(vertices, [[0, 1, 2], [0, 2, 2]])),
        (swerve.InvalidValueError, "triangle 0 has no area",
         lambda: sim.add_obstacle([[0, 0, 0], [1, 1, 1], [2, 2, 2]], [[0, 1, 2]])),
        (swerve.InvalidValueError, "integer", lambda: sim.add_obstacle(vertices, [[0.0, 1.0, 2.0]])),
        (swerve.InvalidValueError, "shape (M, 3)", lambda: sim.add_obstacle(vertices, [0, 1, 2])),
        (swerve.InvalidValueError, "shape (N, 3)", lambda: sim.add_obstacle(vertices[:, :2], triangles)),
        (swerve.InvalidValueError, "box thickness", lambda: sim.add_box_obstacle((0, 0, 0), (1, 1, 0.00005))),
        (swerve.InvalidValueError, "box thickness", lambda: sim.add_box_obstacle((1, 1, 1), (0, 2, 2))),
        (swerve.InvalidValueError, "box corner must be finite",
         lambda: sim.add_box_obstacle((0, 0, 0), (1, math.nan, 1))),
        (swerve.InvalidValueError, "box corner must be finite",
         lambda: sim.add_box_obstacle((-math.inf, 0, 0), (1, 1, 1))),
        (swerve.InvalidValueError, "must have 3 components", lambda: sim.add_box_obstacle((0, 0), (1, 1, 1))),
        (swerve.InvalidValueError, "obstacle time horizon", lambda: sim.set_obstacle_time_horizon(0, 0.0)),
        (swerve.InvalidValueError, "obstacle time horizon", lambda: sim.set_obstacle_time_horizon(1, -1.0)),
        (swerve.InvalidValueError, "obstacle time horizon", lambda: sim.set_obstacle_time_horizon(0, math.nan)),
        (swerve.InvalidValueError, "obstacle time horizon", lambda: sim.set_obstacle_time_horizon(0, math.inf)),
        (swerve.UnknownIdError, "unknown agent id 9", lambda: sim.set_obstacle_time_horizon(9, 1.0)),
        (swerve.UnknownIdError, "unknown agent id 9", lambda: sim.obstacle_time_horizon(9)),
        (swerve.UnknownIdError, "unknown obstacle id 1", lambda: sim.remove_obstacle(1)),
        (swerve.UnknownIdError, "unknown obstacle id 7", lambda: sim.obstacle_triangles(7)),
        (swerve.SwerveError, "record_decisions", lambda: sim.obstacle_plane_count(0)),
        (swerve.InvalidValueError, "query points", lambda: sim.query_visibility((0, 0, math.nan), (1, 1, 1), 1.0)),
        (swerve.InvalidValueError, "radius must be finite", lambda: sim.query_visibility((0, 0, 0), (1, 1, 1), -1.0)),
        (swerve.InvalidValueError, "radius must be finite", lambda: sim.query_visibility((0, 0, 0), (1, 1, 1), math.inf)),
        (swerve.InvalidValueError, "must have 3 components", lambda: sim.query_visibility((0, 0), (1, 1, 1))),
    ]
    for error, words, call in bad:
        with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
            call()
    # The standard classes too: bad values are ValueErrors, unknown ids LookupErrors.
    with pytest.raises(ValueError):
        sim.add_box_obstacle((0, 0, 0), (0, 0, 0))
    with pytest.raises(LookupError):
        sim.remove_obstacle(3)

    # Nothing changed: the same obstacles and horizons, and the run is the twin's bit for bit.
    assert sim.obstacle_ids().tolist() == [0]
    assert np.array_equal(sim.obstacle_triangles(0), twin.obstacle_triangles(0))
    assert sim.obstacle_time_horizon(0) == 5.0 and sim.obstacle_time_horizon(1) == 2.0
    for _ in range(250):
        sim.step()
        twin.step()
        assert np.array_equal(sim.positions(), twin.positions())
        assert np.array_equal(sim.velocities(), twin.velocities())
    # The refused adds took no id.
    assert sim.add_box_obstacle((20, 20, 20), (21, 21, 21)) == 1
    # And the scene was one where the wall mattered: agent 0 is held short of it.
    assert -RADIUS - 0.05 < sim.positions()[0, 0] <= -RADIUS + SLACK
