"""swerve.ScenarioRunner on 3-D crowd files (a top-level `[crowd3d]` table).

The oracle test replays a small file through `swerve.Simulator3d` from Python — the same
agents in the library's order, the same obstacles, the mover flown by hand, the box taken
away at its `remove_at` step, and RVO2-3D's preferred-velocity rule in numpy float32 — and
requires the runner's positions to be bit-identical at every step. The others check the
`window3d` built-in and that bad files name the offending key.
"""

import math
import re

import numpy as np
import pytest

import swerve

F32 = np.float32
TIME_STEP = 0.125

# Numbers chosen exactly representable in float32, so that TOML's decimal and Python's float
# round to the same f32 either way.
CROWD3D = """
name = "crowd3d-oracle"
time_step = 0.125
steps = 400

[crowd3d.agent_defaults]
radius = 0.5
neighbor_dist = 8.0
max_neighbors = 6
time_horizon = 4.0
time_horizon_obst = 1.5

[crowd3d.extensions]
symmetry_breaking = true

[[crowd3d.agent]]                    # east to west, bigger and slower
position = [8.0, 1.0, 3.0]
goal = [-8.0, 1.5, 3.5]
radius = 0.75
max_speed = 1.5

[[crowd3d.agent]]                    # a short obstacle horizon, limited acceleration
position = [8.0, -2.0, 5.0]
goal = [-9.0, -2.0, 2.5]
time_horizon_obst = 0.75
max_acceleration = 4.0

[[crowd3d.agent]]                    # no goal: hovers where it is (library radius 1.5)
position = [0.0, 6.5, 2.5]
radius = 1.5

[[crowd3d.lattice]]                  # 2 x 3 x 2 drones, west to east through (0, 0.5, 4)
origin = [-9.5, -2.25, 2.5]
columns = 2
rows = 3
layers = 2
spacing = [2.5, 2.25, 2.0]
goal = { through = [0.0, 0.5, 4.0] }
time_horizon = 5.0

[[crowd3d.lattice]]                  # 1 x 2 x 1 drones, west to east by an offset
origin = [-7.0, 4.0, 6.5]
columns = 1
rows = 2
layers = 1
spacing = [1.0, -2.5, 1.0]
goal = { offset = [14.0, 0.0, -1.0] }
max_speed = 2.5

[[crowd3d.box]]                      # a pillar in the middle, gone at 5 s
min = [-1.0, -3.0, 0.0]
max = [1.0, 3.0, 8.0]
remove_at = 5.0

[[crowd3d.box]]                      # a block that stays, off to the south
min = [-2.0, -12.0, 0.0]
max = [2.0, -9.0, 3.0]

[[crowd3d.mesh]]                     # the ground
vertices = [[-20.0, -15.0, 0.0], [20.0, -15.0, 0.0], [20.0, 15.0, 0.0], [-20.0, 15.0, 0.0]]
triangles = [[0, 1, 2], [0, 2, 3]]

[[crowd3d.mover]]                    # crosses the west drones' way
position = [-4.0, -8.0, 3.0]
velocity = [0.0, 2.0, 0.25]
radius = 1.0
"""

# The library's agent defaults (RVO2-3D's Sphere example) with the file's agent_defaults.
DEFAULTS = dict(neighbor_dist=8.0, max_neighbors=6, time_horizon=4.0, radius=0.5, max_speed=2.0)
DEFAULT_OBSTACLE_HORIZON = 1.5


def vec(values):
    return np.array(values, dtype=F32)


def lattice(origin, columns, rows, layers, spacing):
    """The library's lattice order: i over columns (x), j over rows (y), k over layers (z),
    innermost k; each position `origin + (i, j, k) * spacing` in float32."""
    origin, spacing = vec(origin), vec(spacing)
    points = []
    for i in range(columns):
        for j in range(rows):
            for k in range(layers):
                points.append(origin + vec([i, j, k]) * spacing)
    return points


def expected_agents():
    """(position, goal, params, obstacle horizon, max acceleration) per agent, in the order
    the runner adds them: listed agents, then each lattice."""
    agents = []

    def add(position, goal, horizon=DEFAULT_OBSTACLE_HORIZON, acceleration=None, **overrides):
        params = dict(DEFAULTS, **overrides)
        agents.append((vec(position), vec(goal), params, horizon, acceleration))

    add([8.0, 1.0, 3.0], [-8.0, 1.5, 3.5], radius=0.75, max_speed=1.5)
    add([8.0, -2.0, 5.0], [-9.0, -2.0, 2.5], horizon=0.75, acceleration=4.0)
    add([0.0, 6.5, 2.5], [0.0, 6.5, 2.5], radius=1.5)  # no goal: its start
    through = vec([0.0, 0.5, 4.0])
    for p in lattice([-9.5, -2.25, 2.5], 2, 3, 2, [2.5, 2.25, 2.0]):
        add(p, F32(2.0) * through - p, time_horizon=5.0)
    for p in lattice([-7.0, 4.0, 6.5], 1, 2, 1, [1.0, -2.5, 1.0]):
        add(p, p + vec([14.0, 0.0, -1.0]), max_speed=2.5)
    return agents


def preferred_velocities(goals, positions):
    """RVO2-3D's rule in float32: g = goal - p; g * (1 / |g|) when g.g > 1 (the dot product
    summed left to right, as glam's)."""
    g = goals - positions
    dot = g[:, 0] * g[:, 0] + g[:, 1] * g[:, 1] + g[:, 2] * g[:, 2]
    assert dot.dtype == F32
    with np.errstate(divide="ignore", invalid="ignore"):  # a hovering agent's g = 0: not used
        scale = F32(1.0) / np.sqrt(dot)
        return np.where((dot > F32(1.0))[:, None], g * scale[:, None], g).astype(F32)


def removal_step(remove_at, time_step):
    """The first step run without an obstacle (the library's rule, in float64)."""
    return max(math.ceil(remove_at / time_step * (1.0 - 1e-6)), 0)


def test_a_crowd3d_file_matches_simulator3d_driven_from_python_bit_for_bit(tmp_path):
    path = tmp_path / "crowd3d.toml"
    path.write_text(CROWD3D)
    runner = swerve.ScenarioRunner(str(path))
    assert (runner.name, runner.dimensions, runner.steps_done, runner.max_steps) == ("crowd3d-oracle", 3, 0, 400)

    agents = expected_agents()
    n = len(agents)
    assert n == 3 + 12 + 2
    sim = swerve.Simulator3d(TIME_STEP)
    sim.set_extensions(symmetry_breaking=True)
    # Obstacles (boxes, then meshes), movers, then agents: the runner's order.
    pillar = sim.add_box_obstacle((-1.0, -3.0, 0.0), (1.0, 3.0, 8.0))
    sim.add_box_obstacle((-2.0, -12.0, 0.0), (2.0, -9.0, 3.0))
    sim.add_obstacle(
        [[-20.0, -15.0, 0.0], [20.0, -15.0, 0.0], [20.0, 15.0, 0.0], [-20.0, 15.0, 0.0]],
        np.array([[0, 1, 2], [0, 2, 3]]),
    )
    mover_position, mover_velocity, mover_radius = vec([-4.0, -8.0, 3.0]), vec([0.0, 2.0, 0.25]), 1.0
    mover = sim.add_mover(mover_position, mover_velocity, mover_radius)
    for position, _, params, horizon, acceleration in agents:
        agent = sim.add_agent(position, **params)
        sim.set_obstacle_time_horizon(agent, horizon)
        if acceleration is not None:
            sim.set_max_acceleration(agent, acceleration)
    goals = np.stack([a[1] for a in agents])
    pillar_goes = removal_step(5.0, TIME_STEP)
    assert pillar_goes == 40

    np.testing.assert_array_equal(runner.agent_ids(), sim.agent_ids())
    np.testing.assert_array_equal(runner.goals(), goals)
    assert runner.goals().dtype == F32 and runner.goals().shape == (n, 3)
    assert np.array_equal(runner.positions(), sim.positions())
    assert runner.positions().dtype == F32 and runner.velocities().shape == (n, 3)
    assert runner.ball_positions().shape[0] == 0

    steps = 60
    for k in range(steps):
        if k == pillar_goes:
            sim.remove_obstacle(pillar)
        sim.set_pref_velocities(preferred_velocities(goals, sim.positions()))
        sim.step()
        mover_position = mover_position + mover_velocity * F32(TIME_STEP)
        sim.set_mover(mover, mover_position, mover_velocity, mover_radius)
        assert runner.step() == 1
        assert runner.steps_done == k + 1
        expected, got = sim.positions(), runner.positions()
        assert np.array_equal(got, expected), f"step {k + 1}: positions differ by {np.abs(got - expected).max()}"
        assert np.array_equal(runner.velocities(), sim.velocities()), f"step {k + 1}: velocities differ"

    # The scene did something: everyone with somewhere to go moved, and the hovering drone
    # (goal = start) is where it was or nearly.
    moved = np.linalg.norm(runner.positions() - np.stack([a[0] for a in agents]), axis=1)
    assert np.all(np.delete(moved, 2) > 1.0), moved
    metrics = runner.metrics()
    assert (metrics["agents"], metrics["steps"]) == (n, steps)
    assert metrics["simulated_time"] == pytest.approx(steps * TIME_STEP)
    assert metrics["arrived"] + metrics["never_arrived"] == n
    assert metrics["min_mover_clearance"] is not None and metrics["min_obstacle_clearance"] is not None
    assert not runner.is_finished


def test_the_window3d_builtin():
    runner = swerve.ScenarioRunner("window3d")
    assert runner.name == "window3d" and runner.dimensions == 3
    assert runner.step(50) == 50
    assert runner.positions().shape == (128, 3) and runner.positions().dtype == F32
    assert runner.velocities().shape == (128, 3) and runner.goals().shape == (128, 3)
    assert list(runner.agent_ids()) == list(range(128))
    assert runner.steps_done == 50 and not runner.is_finished
    metrics = runner.metrics()
    assert (metrics["agents"], metrics["steps"]) == (128, 50)
    assert metrics["obstacle_overlaps"] == 0 and metrics["agent_overlaps"] == 0
    # West swarm first (x < 0), flying east by 80 m.
    goals, start = runner.goals(), swerve.ScenarioRunner("window3d").positions()
    np.testing.assert_array_equal(goals[:64] - start[:64], np.tile(vec([80.0, 0.0, 0.0]), (64, 1)))
    assert "window3d" in repr(runner) and "dimensions=3" in repr(runner)


def test_the_slalom3d_builtin_routes_by_roadmap_through_both_windows():
    runner = swerve.ScenarioRunner("slalom3d")
    assert runner.dimensions == 3 and runner.positions().shape == (54, 3)
    # Drone 0's planned way: from where it is, through waypoints, to its goal 100 m east.
    route = runner.route(0)
    assert route.dtype == F32 and route.shape[1] == 3 and route.shape[0] >= 4, route
    np.testing.assert_array_equal(route[0], runner.positions()[0])
    np.testing.assert_array_equal(route[-1], runner.goals()[0])
    assert runner.route(999).shape == (0, 3)
    assert swerve.ScenarioRunner("window3d").route(0).shape == (0, 3)
    # Window (wall x, y range, z range) of each wall; the drones keep their order (no sinks).
    windows = [(-15.0, (-24.0, -12.0), (14.0, 26.0)), (15.0, (12.0, 24.0), (14.0, 26.0))]
    before = runner.positions().astype(np.float64)
    crossed = 0
    while not runner.is_finished:
        runner.step()
        now = runner.positions().astype(np.float64)
        for x, (y0, y1), (z0, z1) in windows:
            crossing = (before[:, 0] < x) != (now[:, 0] < x)
            t = (x - before[crossing, 0]) / (now[crossing, 0] - before[crossing, 0])
            at = before[crossing] + t[:, None] * (now[crossing] - before[crossing])
            assert np.all((at[:, 1] > y0) & (at[:, 1] < y1) & (at[:, 2] > z0) & (at[:, 2] < z1)), at
            crossed += int(crossing.sum())
        before = now
    metrics = runner.metrics()
    assert metrics["arrived"] == 54 and crossed == 2 * 54, metrics
    assert metrics["obstacle_overlaps"] == 0


def test_the_step_limit_of_a_crowd3d_file(tmp_path):
    path = tmp_path / "short.toml"
    path.write_text(CROWD3D)
    runner = swerve.ScenarioRunner(str(path))
    runner.max_steps = 7
    assert runner.max_steps == 7
    assert runner.step(100) == 7 and runner.is_finished
    assert runner.step() == 0 and runner.steps_done == 7


BAD_HEADER = """
name = "bad"
time_step = 0.125
steps = 10
"""


@pytest.mark.parametrize(
    "body, key, detail",
    [
        (
            """
[[crowd3d.agent]]
position = [5.0, 0.0, 0.5]
[[crowd3d.box]]
min = [0.0, 0.0, 0.0]
max = [0.0, 1.0, 1.0]
""",
            "crowd3d.box[0]",
            "greater than min",
        ),
        (
            """
[[crowd3d.agent]]
position = [5.0, 5.0, 5.0]
goal = [9.0, 5.0, 5.0]
[[crowd3d.agent]]
position = [0.5, 0.5, 0.5]
goal = [-5.0, 0.0, 0.5]
[[crowd3d.box]]
min = [0.0, 0.0, 0.0]
max = [1.0, 1.0, 1.0]
""",
            "crowd3d.agent[1].position",
            "starts within its radius (1.5 m) of crowd3d.box[0]",
        ),
        (
            """
[[crowd3d.lattice]]
origin = [-2.0, 0.0, 0.5]
columns = 3
rows = 1
layers = 1
spacing = [2.0, 1.0, 1.0]
goal = { offset = [0.0, 10.0, 0.0] }
[[crowd3d.box]]
min = [-0.5, -0.5, 0.0]
max = [0.5, 0.5, 1.0]
""",
            "crowd3d.lattice[0]",
            "agent 1 of it starts within its radius (1.5 m) of crowd3d.box[0]",
        ),
    ],
    ids=["flat-box", "agent-inside-box", "lattice-agent-inside-box"],
)
def test_bad_crowd3d_files_raise_naming_the_key(tmp_path, body, key, detail):
    path = tmp_path / "bad.toml"
    path.write_text(BAD_HEADER + body)
    with pytest.raises(ValueError) as error:
        swerve.ScenarioRunner(str(path))
    message = str(error.value)
    assert isinstance(error.value, swerve.SwerveError)
    assert "bad.toml:" in message and re.search(rf": {re.escape(key)}[.:]", message), message
    assert detail in message and len(message.splitlines()) == 1, message


def test_the_window3d_mover_patrols_its_route():
    runner = swerve.ScenarioRunner("window3d")
    positions, velocities, radii = runner.movers()
    assert positions.shape == (1, 3) and velocities.shape == (1, 3) and radii.tolist() == [4.0]
    np.testing.assert_array_equal(positions[0], vec([-22.0, -40.0, 20.0]))
    # Back and forth along x = -22, z = 20 between y = -40 and 40 at 1.5 m/s: after 80 m
    # (53.3 s) it turns, and it never leaves the segment.
    for _ in range(60):
        runner.step(10)
        p, v, _ = runner.movers()
        assert p[0][0] == -22.0 and p[0][2] == 20.0 and -40.0 <= p[0][1] <= 40.0, p
        assert np.linalg.norm(v[0]) <= 1.5 + 1e-4
    assert runner.movers()[1][0][1] < 0.0, "on its way back by 75 s"
