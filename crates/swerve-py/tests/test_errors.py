"""Bad input raises a clear exception — ValueError / LookupError that are also
swerve.SwerveError — and leaves the simulator as it was. Nothing crashes the interpreter."""

import math

import numpy as np
import pytest

import swerve
import swerve.pyrvo
import swerve.rvo2

NAN = float("nan")
INF = float("inf")
GARBAGE_SEED = 4242


def test_exception_hierarchy():
    assert issubclass(swerve.InvalidValueError, swerve.SwerveError)
    assert issubclass(swerve.InvalidValueError, ValueError)
    assert issubclass(swerve.UnknownIdError, swerve.SwerveError)
    assert issubclass(swerve.UnknownIdError, LookupError)
    assert issubclass(swerve.SwerveError, Exception)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(time_step=0.0),
        dict(time_step=-0.1),
        dict(time_step=NAN),
        dict(time_step=0.25, radius=-1.0),
        dict(time_step=0.25, radius=0.0),
        dict(time_step=0.25, time_horizon=0.0),
        dict(time_step=0.25, time_horizon_obst=INF),
        dict(time_step=0.25, neighbor_dist=-2.0),
        dict(time_step=0.25, max_speed=NAN),
    ],
)
def test_native_constructor_rejects_bad_values(kwargs):
    with pytest.raises(ValueError) as info:
        swerve.Simulator(**kwargs)
    assert isinstance(info.value, swerve.SwerveError)
    assert str(info.value)  # a readable message


def test_native_bulk_input_is_validated_and_atomic():
    sim = swerve.Simulator(0.25)
    sim.add_agents(np.zeros((3, 2)) + np.arange(3)[:, None] * 4.0)
    cases = [
        lambda: sim.add_agents(np.zeros((2, 3))),
        lambda: sim.add_agents(np.zeros(4)),
        lambda: sim.add_agents(np.array([[0.0, 0.0], [NAN, 1.0]])),
        lambda: sim.add_agents(np.zeros((2, 2)), radius=np.array([1.0, -1.0])),
        lambda: sim.add_agents(np.zeros((2, 2)), radius=np.array([1.0, 1.0, 1.0])),
        lambda: sim.add_agents(np.zeros((2, 2)), max_neighbors=np.array([3, -1])),
        lambda: sim.add_agents(np.zeros((2, 2)), max_neighbors=np.array([1.5, 2.7])),  # not truncated
        lambda: sim.add_agents(np.zeros((2, 2)), max_neighbors=np.array([NAN, 2.0])),
        lambda: sim.add_agents(np.zeros((2, 2)), velocities=np.zeros((3, 2))),
        lambda: sim.add_agents(np.zeros((2, 2)), pref_velocities=np.array([[0, 0], [INF, 0]])),
        lambda: sim.add_agents([["a", "b"]]),
    ]
    for case in cases:
        with pytest.raises(ValueError):
            case()
        assert len(sim) == 3, "a rejected bulk add must add nothing"
    before = sim.pref_velocities().copy()
    for bad in (np.zeros((2, 2)), np.zeros((3, 3)), np.array([[0, 0], [0, 0], [NAN, 0]])):
        with pytest.raises(ValueError):
            sim.set_pref_velocities(bad)
        np.testing.assert_array_equal(sim.pref_velocities(), before)
    positions = sim.positions().copy()
    with pytest.raises(ValueError):
        sim.set_positions(np.array([[1, 1], [2, 2], [INF, 3]]))
    np.testing.assert_array_equal(sim.positions(), positions)
    with pytest.raises(ValueError):
        sim.set_velocities(np.zeros((4, 2)))
    with pytest.raises(ValueError):
        sim.set_agent_params(0, radius=-3.0)
    assert sim.agent_params(0)["radius"] == 1.5
    with pytest.raises(ValueError):
        sim.time_step = 0.0
    assert sim.time_step == 0.25
    with pytest.raises(ValueError):
        sim.add_agent((0.0, INF))
    with pytest.raises(ValueError):
        sim.add_agent((0.0, 1.0, 2.0))
    with pytest.raises(ValueError):
        sim.query_visibility((0, 0), (1, 1), -1.0)
    assert len(sim) == 3


def test_native_unknown_ids_raise():
    sim = swerve.Simulator(0.25)
    sim.add_agent((0, 0))
    for call in (
        lambda: sim.agent_position(5),
        lambda: sim.remove_agent(5),
        lambda: sim.half_planes(5),
        lambda: sim.neighbors(5),
        lambda: sim.set_agent_pref_velocity(5, (0, 0)),
        lambda: sim.first_infeasible(5),
        lambda: sim.obstacle_first_vertex(0),
        lambda: sim.remove_obstacle(0),
    ):
        with pytest.raises(LookupError) as info:
            call()
        assert isinstance(info.value, swerve.SwerveError)
    with pytest.raises(OverflowError):
        sim.agent_position(-1)


def test_native_remove_obstacle_twice_raises_and_changes_nothing():
    sim = swerve.Simulator(0.25, record_decisions=True)
    first = sim.add_obstacle([(-1, -1), (1, -1), (1, 1), (-1, 1)])
    second = sim.add_obstacle([(3, -1), (5, -1), (5, 1), (3, 1)])
    sim.process_obstacles()
    sim.add_agent((-4.0, 0.0), pref_velocity=(1.0, 0.0))
    sim.step(5)
    sim.remove_obstacle(first)
    before = (sim.obstacle_ids().tolist(), sim.obstacle_vertices().tolist(), sim.obstacle_first_vertex(second))
    for bad in (first, 7):
        with pytest.raises(swerve.UnknownIdError) as info:
            sim.remove_obstacle(bad)
        assert isinstance(info.value, LookupError) and isinstance(info.value, swerve.SwerveError)
        assert f"unknown obstacle id {bad}" in str(info.value)
    with pytest.raises(swerve.UnknownIdError):
        sim.obstacle_first_vertex(first)
    assert (sim.obstacle_ids().tolist(), sim.obstacle_vertices().tolist(), sim.obstacle_first_vertex(second)) == before
    with pytest.raises(OverflowError):
        sim.remove_obstacle(-1)


@pytest.mark.parametrize(
    "polygon",
    [
        [(0.0, 0.0)],
        [],
        [(0.0, 0.0), (0.0, 0.0), (1.0, 1.0)],
        [(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)],  # a bow tie
        [(0.0, 0.0), (NAN, 1.0), (1.0, 0.0)],
    ],
)
def test_bad_obstacles_raise_value_error(polygon):
    for add in (
        swerve.Simulator(0.25).add_obstacle,
        swerve.rvo2.PyRVOSimulator(0.25, 1, 1, 1, 1, 1, 1).addObstacle,
        swerve.pyrvo.RVOSimulator(0.25, 1, 1, 1, 1, 1, 1).add_obstacle,
    ):
        with pytest.raises(ValueError):
            add(np.array(polygon) if polygon else np.zeros((0, 2)))


def test_rvo2_errors():
    sim = swerve.rvo2.PyRVOSimulator(0.25, 10, 10, 5, 5, 0.3, 1)
    # Python-RVO2's own rule for the long form.
    with pytest.raises(ValueError, match="Either pass only 'pos', or pass all parameters"):
        sim.addAgent((0, 0), 10, 10, 5, 5, 0.3, 1)
    with pytest.raises(ValueError):
        sim.addAgent((0, NAN))
    with pytest.raises(ValueError):
        sim.addAgent((0, 0), 10, 10, 5, 5, -0.3, 1, (0, 0))
    with pytest.raises(ValueError):
        sim.addAgent((0, 0), 10, 10, 5, 5, 0.3, 1, (NAN, 0))
    assert sim.getNumAgents() == 0, "rejected agents must not be added"
    a = sim.addAgent((0, 0))
    for call in (
        lambda: sim.getAgentPosition(a + 1),
        lambda: sim.setAgentPrefVelocity(a + 1, (1, 0)),
        lambda: sim.getAgentORCALine(a, 0),
        lambda: sim.getAgentAgentNeighbor(a, 0),
        lambda: sim.getAgentObstacleNeighbor(a, 0),
        lambda: sim.getObstacleVertex(0),
        lambda: sim.getNextObstacleVertexNo(3),
    ):
        with pytest.raises(LookupError):
            call()
    with pytest.raises(ValueError):
        sim.setAgentRadius(a, -1.0)
    assert sim.getAgentRadius(a) == pytest.approx(0.3)
    with pytest.raises(ValueError):
        sim.setAgentPosition(a, (INF, 0))
    with pytest.raises(ValueError):
        sim.setTimeStep(0.0)
    with pytest.raises(ValueError):
        sim.setAgentPosition(a, (1, 2, 3))
    with pytest.raises(ValueError):
        swerve.rvo2.PyRVOSimulator(0.0, 10, 10, 5, 5, 0.3, 1)
    with pytest.raises(ValueError):
        swerve.rvo2.PyRVOSimulator(0.25, 10, 10, 5, 5, 0.3, 1, (NAN, 0))


def test_pyrvo_errors():
    empty = swerve.pyrvo.RVOSimulator()
    with pytest.raises(swerve.SwerveError, match="no agent defaults"):
        empty.add_agent((0, 0))
    with pytest.raises(swerve.SwerveError, match="no time step"):
        empty.do_step()
    assert empty.get_time_step() == 0.0
    with pytest.raises(ValueError):
        swerve.pyrvo.RVOSimulator(0.25, 10, 10)
    sim = swerve.pyrvo.RVOSimulator(0.25, 10, 10, 5, 5, 0.3, 1)
    with pytest.raises(ValueError):
        sim.add_agent((0, 0), 10, 10, 5)
    with pytest.raises(LookupError):
        sim.get_agent_velocity(0)
    with pytest.raises(ValueError):
        sim.set_agent_defaults(10, 10, 5, 5, 0.3, -1)
    with pytest.raises(IndexError):
        swerve.pyrvo.Vector2(1, 2)[2]


def test_garbage_never_crashes():
    """Every method with every kind of wrong argument raises a Python exception; none
    takes the interpreter down."""
    rng = np.random.default_rng(GARBAGE_SEED)
    garbage = [None, "x", -1, 2**70, NAN, INF, (1,), (1, 2, 3), [NAN, 0], object(), np.zeros((2, 2)), 1.5, 0]
    targets = [
        swerve.Simulator(0.25),
        swerve.rvo2.PyRVOSimulator(0.25, 10, 10, 5, 5, 0.3, 1),
        swerve.pyrvo.RVOSimulator(0.25, 10, 10, 5, 5, 0.3, 1),
        swerve.pyrvo.RVOSimulator(),
        swerve.World(((0.0, 0.0), (10.0, 10.0))),
    ]
    calls = 0
    for sim in targets:
        methods = [name for name in dir(sim) if not name.startswith("_") and callable(getattr(sim, name))]
        for name in methods:
            method = getattr(sim, name)
            for _ in range(30):
                args = [garbage[int(k)] for k in rng.integers(0, len(garbage), int(rng.integers(0, 4)))]
                try:
                    method(*args)
                except Exception:  # noqa: BLE001 - any Python exception is fine, a crash is not
                    pass
                calls += 1
        # Whatever was accepted, the simulator still steps and reads back finite numbers.
        if isinstance(sim, swerve.Simulator):
            sim.step()
        if isinstance(sim, swerve.World):
            sim.step(0.01)
        if hasattr(sim, "positions"):
            assert np.all(np.isfinite(sim.positions()))
    assert calls > 1000
    assert math.isfinite(targets[1].getGlobalTime())
