"""swerve.ScenarioRunner: scenario files (2-D crowds and balls, 3-D spheres) and built-ins played
from Python, checked by what the scenes must do (the crowd reaches its goals and stops early, a
dropped sphere comes to rest on a triangle floor at its radius) and by the bad-file report."""

import numpy as np
import pytest

import swerve

CROSSING = """
name = "two-groups"
time_step = 0.1
steps = 2000
stop = "all-at-goal"
goal_tolerance = 0.2
[agent_defaults]
radius = 0.4
max_speed = 1.5
[[agents]]
position = [-10.0, 0.5]
goal = [10.0, 0.5]
[[agents]]
position = [10.0, -0.5]
goal = [-10.0, -0.5]
[[agents]]
position = [0.5, -10.0]
goal = [0.5, 10.0]
"""

DROP = """
name = "drop"
time_step = 0.01
steps = 400
[spheres]
gravity = [0.0, 0.0, -9.81]
[[spheres.sphere]]
position = [0.0, 0.0, 2.0]
radius = 0.5
restitution = 0.0
friction = 0.5
[[spheres.triangle]]
corners = [[-5.0, -5.0, 0.0], [5.0, -5.0, 0.0], [0.0, 6.0, 0.0]]
"""


def test_a_crowd_file_reaches_its_goals_and_stops_early(tmp_path):
    path = tmp_path / "crossing.toml"
    path.write_text(CROSSING)
    runner = swerve.ScenarioRunner(str(path))
    assert (runner.name, runner.dimensions, runner.steps_done, runner.is_finished) == ("two-groups", 2, 0, False)
    assert list(runner.agent_ids()) == [0, 1, 2]
    goals = runner.goals()
    np.testing.assert_array_equal(goals, [[10, 0.5], [-10, -0.5], [0.5, 10]])
    closest = np.inf
    while not runner.is_finished:
        assert runner.step() == 1
        p = runner.positions().astype(np.float64)
        assert p.shape == (3, 2) and runner.velocities().shape == (3, 2)
        assert np.all(np.linalg.norm(runner.velocities(), axis=1) <= 1.5 + 1e-5)
        d = np.linalg.norm(p[:, None] - p[None], axis=2) + np.eye(3) * 1e9
        closest = min(closest, d.min())
    assert runner.steps_done < 2000, "the stop rule ends the run once all are at their goals"
    assert np.all(np.linalg.norm(runner.positions() - goals, axis=1) <= 0.2 + 1e-6)
    assert closest >= 0.8 - 1e-3, "they crossed without touching"
    assert runner.step(10) == 0, "a finished run takes no more steps"
    metrics = runner.metrics()
    assert metrics["agents"] == 3 and metrics["never_arrived"] == 0
    assert runner.ball_positions().shape == (0, 2)


def test_a_sphere_file_rests_on_its_triangle_floor(tmp_path):
    path = tmp_path / "drop.toml"
    path.write_text(DROP)
    runner = swerve.ScenarioRunner(str(path))
    assert runner.dimensions == 3 and runner.positions().shape == (1, 3)
    assert runner.step(1000) == 400 and runner.is_finished
    z = float(runner.positions()[0, 2])
    assert 0.5 * (1 - 0.02) <= z <= 0.5 + 1e-3, z
    assert np.abs(runner.velocities()).max() < 1e-2
    assert runner.metrics() is None and runner.agent_ids().shape == (0,)


def test_built_ins_and_the_step_limit():
    runner = swerve.ScenarioRunner("hourglass3d")
    assert runner.dimensions == 3 and len(runner.positions()) == 601
    runner = swerve.ScenarioRunner("ball-pit")
    assert runner.ball_positions().shape == (200, 2)
    runner.max_steps = 5
    assert runner.step(100) == 5 and runner.is_finished and runner.max_steps == 5


def test_bad_files_raise_with_every_problem(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(DROP.replace("radius = 0.5", "radius = -0.5").replace("friction = 0.5", "frition = 0.5"))
    with pytest.raises(ValueError) as error:
        swerve.ScenarioRunner(str(path))
    message = str(error.value)
    assert isinstance(error.value, swerve.SwerveError)
    lines = message.splitlines()
    assert len(lines) == 2, message
    assert lines[0].endswith("bad.toml:9: spheres.sphere[0].radius: must be greater than 0, got -0.5"), message
    assert "bad.toml:11: spheres.sphere[0].frition: unknown key" in lines[1], message
    with pytest.raises(ValueError, match="unknown scenario"):
        swerve.ScenarioRunner("no-such-scene")
    with pytest.raises(FileNotFoundError):
        swerve.ScenarioRunner(str(tmp_path / "missing.toml"))


DOOR = """
name = "door-test"
time_step = 0.1
steps = 40
[agent_defaults]
radius = 0.4
max_speed = 1.5
time_horizon_obst = 1.0
[[agents]]
position = [-1.2, 0.0]
goal = [6.0, 0.0]
[[obstacles]]
vertices = [[0.0, -2.5], [0.0, 2.5]]
remove_at = 0.75
"""


def test_a_door_removed_by_the_scenario_file_lets_the_agent_through(tmp_path):
    # remove_at = 0.75 s with 0.1 s steps: step 8 is the first without the door (the first
    # whose start time, 0.8 s, is at or after 0.75 s); the Rust runner does the removal.
    path = tmp_path / "door.toml"
    path.write_text(DOOR)
    runner = swerve.ScenarioRunner(str(path))
    xs = [runner.positions()[0, 0]]
    while not runner.is_finished:
        runner.step()
        xs.append(runner.positions()[0, 0])
    assert max(xs[:9]) < -0.4, xs[:9]  # frames 0..8: held by the door
    assert xs[9] - xs[8] > 0.09  # step 8 walks at about 1 m/s
    assert xs[-1] > 2.0
    metrics = runner.metrics()
    assert metrics["obstacle_overlaps"] == 0


def test_the_door_builtin_opens_and_everyone_arrives():
    runner = swerve.ScenarioRunner("door")
    while runner.steps_done < 60:
        runner.step()
        assert runner.positions()[:, 0].max() < 0.0
    while not runner.is_finished:
        runner.step()
    metrics = runner.metrics()
    assert (metrics["agents"], metrics["arrived"]) == (25, 25)


def test_the_roadmap_builtin_gives_each_agent_its_way_round_the_blocks():
    runner = swerve.ScenarioRunner("roadmap")
    route = runner.route(0)
    assert route.dtype == np.float32 and route.shape[1] == 2 and route.shape[0] >= 3, route
    np.testing.assert_array_equal(route[0], runner.positions()[0])
    np.testing.assert_array_equal(route[-1], runner.goals()[0])
    # The waypoints are the blocks' corner vertices, 2 m out from the 10-40 m blocks.
    corners = np.abs(route[1:-1])
    assert np.all((np.abs(corners - 8) < 0.01) | (np.abs(corners - 42) < 0.01)), route
    # Flying straight, and an agent that is not there: no route.
    assert swerve.ScenarioRunner("blocks").route(0).shape == (0, 2)
    assert runner.route(10_000).shape == (0, 2)


def test_movers_of_a_planar_file_fly_their_routes_and_the_walkers_keep_clear(tmp_path):
    runner = swerve.ScenarioRunner("patrol")
    positions, velocities, radii = runner.movers()
    assert positions.shape == (2, 2) and positions.dtype == np.float32
    np.testing.assert_array_equal(radii, np.array([1.0, 1.5], dtype=np.float32))
    # Each robot starts at its route's first waypoint: the loop's corner, the cart's south end.
    np.testing.assert_array_equal(positions, np.array([[-6.0, -6.0], [0.0, -14.0]], dtype=np.float32))
    assert velocities.shape == (2, 2)
    runner.step(100)
    moved, _, _ = runner.movers()
    # 10 s: the cart drove 8 m north along x = 0 at 0.8 m/s.
    np.testing.assert_allclose(moved[1], [0.0, -6.0], atol=1e-4)
    runner.step(1000)
    metrics = runner.metrics()
    assert metrics["mover_overlaps"] == 0 and metrics["min_mover_clearance"] > 0.0, metrics
    # No movers, no rows; a bad route raises with its key.
    assert swerve.ScenarioRunner("head-on").movers()[0].shape == (0, 2)
    bad = tmp_path / "bad.toml"
    bad.write_text(CROSSING + "[[movers]]\nradius = 1.0\nroute = [[0.0, 0.0]]\nspeed = 1.0\n")
    with pytest.raises(ValueError, match=r"movers\[0\]\.route"):
        swerve.ScenarioRunner(str(bad))
