"""Avoidance layers and masks (beyond RVO2, Godot's rule) through the numpy API, planar and
3-D: agent A avoids agent B when A's mask shares a bit with B's layers. Read back, refused
input, and what it does to two agents walking at each other."""

import numpy as np
import pytest

import swerve

STEPS = 60
RADIUS = 1.0


def head_on(dim, record_decisions=False):
    """Two agents 10 m apart walking straight at each other at 1 m/s (a hair off the line, so
    that the pair that avoids each other passes on one side instead of stalling), and their
    preferred velocities, one row each."""
    offset = [0.0] * (dim - 1)
    if dim == 2:
        sim = swerve.Simulator(0.25, radius=RADIUS, record_decisions=record_decisions)
        positions = np.array([[-5.0, 0.0], [5.0, 0.01]])
    else:
        sim = swerve.Simulator3d(0.25, radius=RADIUS, record_decisions=record_decisions)
        positions = np.array([[-5.0, 0.0, 0.0], [5.0, 0.01, 0.0]])
    a = sim.add_agent(tuple(positions[0]))
    b = sim.add_agent(tuple(positions[1]))
    pref = np.array([[1.0, *offset], [-1.0, *offset]], dtype=np.float32)
    return sim, a, b, pref


def walk(sim, pref):
    """Steps the pair; each step's velocities, the smallest distance between them, and each
    agent's neighbours after the first step (recorded decisions; later the pair is out of
    neighbour distance)."""
    velocities, closest, first_neighbors = [], np.inf, None
    for _ in range(STEPS):
        sim.set_pref_velocities(pref)
        sim.step()
        if first_neighbors is None and sim.record_decisions:
            first_neighbors = [list(sim.neighbors(agent)) for agent in sim.agent_ids()]
        velocities.append(sim.velocities().copy())
        p = sim.positions().astype(np.float64)
        closest = min(closest, float(np.linalg.norm(p[0] - p[1])))
    return np.array(velocities), closest, first_neighbors


def sideways(sim, pref):
    """How far each agent of the pair strays from its start line (y) over the walk."""
    start = sim.positions()[:, 1].astype(np.float64)
    largest = np.zeros(2)
    for _ in range(STEPS):
        sim.set_pref_velocities(pref)
        sim.step()
        largest = np.maximum(largest, np.abs(sim.positions()[:, 1] - start))
    return largest


@pytest.fixture(params=[2, 3], ids=["2d", "3d"])
def dim(request):
    return request.param


def test_defaults_read_back_and_values_round_trip(dim):
    sim, a, b, _ = head_on(dim)
    assert (sim.avoidance_layers(a), sim.avoidance_mask(a)) == (1, 1)
    for value in (0, 2, 0b1010, 2**31, 2**32 - 1, np.uint32(6), np.int64(5)):
        sim.set_avoidance_layers(a, value)
        sim.set_avoidance_mask(b, value)
        assert sim.avoidance_layers(a) == int(value)
        assert sim.avoidance_mask(b) == int(value)
    # Each setter leaves the other value alone, and the other agent.
    sim.set_avoidance_layers(a, 3)
    sim.set_avoidance_mask(a, 12)
    assert (sim.avoidance_layers(a), sim.avoidance_mask(a)) == (3, 12)
    assert (sim.avoidance_layers(b), sim.avoidance_mask(b)) == (1, 5)  # the last value given to b
    assert isinstance(sim.avoidance_layers(a), int)


def test_unknown_and_removed_ids_raise(dim):
    sim, a, _, _ = head_on(dim)
    calls = (
        lambda agent: sim.avoidance_layers(agent),
        lambda agent: sim.avoidance_mask(agent),
        lambda agent: sim.set_avoidance_layers(agent, 2),
        lambda agent: sim.set_avoidance_mask(agent, 2),
    )
    sim.remove_agent(a)
    for call in calls:
        for agent in (99, a):
            with pytest.raises(swerve.UnknownIdError) as info:
                call(agent)
            assert isinstance(info.value, LookupError)
            assert str(agent) in str(info.value)


def test_values_outside_32_bits_raise_a_clear_error_and_change_nothing(dim):
    sim, a, _, _ = head_on(dim)
    sim.set_avoidance_layers(a, 6)
    sim.set_avoidance_mask(a, 9)
    for setter, what in ((sim.set_avoidance_layers, "avoidance layers"), (sim.set_avoidance_mask, "avoidance mask")):
        for bad in (-1, 2**32, 2**70, np.int64(-3)):
            with pytest.raises(ValueError) as info:
                setter(a, bad)
            assert isinstance(info.value, swerve.InvalidValueError)
            assert what in str(info.value) and "2**32" in str(info.value), str(info.value)
            assert str(int(bad)) in str(info.value)
        for bad in (1.5, "1", None, float("nan")):
            with pytest.raises(TypeError, match=what):
                setter(a, bad)
    assert (sim.avoidance_layers(a), sim.avoidance_mask(a)) == (6, 9)


def test_agents_that_ignore_each_other_walk_through_each_other(dim):
    # a on layer 1 looking for layer 4, b on layer 2 looking for layer 8: neither avoids.
    sim, a, b, pref = head_on(dim, record_decisions=True)
    sim.set_avoidance_layers(a, 0b0001)
    sim.set_avoidance_mask(a, 0b0100)
    sim.set_avoidance_layers(b, 0b0010)
    sim.set_avoidance_mask(b, 0b1000)
    velocities, closest, neighbors = walk(sim, pref)
    for k, v in enumerate(velocities):
        assert np.array_equal(v, pref), f"step {k}: {v} != {pref}"
    assert closest < 0.1  # straight through: the centres all but meet
    assert neighbors == [[], []]


def test_with_the_defaults_the_same_pair_avoids_each_other(dim):
    sim, a, b, pref = head_on(dim, record_decisions=True)
    velocities, closest, neighbors = walk(sim, pref)
    assert any(not np.array_equal(v, pref) for v in velocities)
    assert closest >= 2 * RADIUS - 1e-3, closest
    assert neighbors == [[b], [a]]


def test_an_agent_ignored_by_its_neighbour_avoids_it_alone(dim):
    # b (layer 2, mask 2) ignores a (layer 1); a (mask 3) avoids b. b walks straight on, and
    # a steps aside by the whole of the gap instead of half of it.
    sim, a, b, pref = head_on(dim, record_decisions=True)
    sim.set_avoidance_mask(a, 0b11)
    sim.set_avoidance_layers(b, 0b10)
    sim.set_avoidance_mask(b, 0b10)
    velocities, closest, neighbors = walk(sim, pref)
    for k, v in enumerate(velocities):
        assert np.array_equal(v[1], pref[1]), f"step {k}: b swerved: {v[1]}"
    assert any(not np.array_equal(v[0], pref[0]) for v in velocities)
    assert closest >= 2 * RADIUS - 1e-3, closest
    assert neighbors == [[b], []]
    # The whole gap, not half of it: a strays about twice as far as with the defaults, b not at all.
    sim, a, b, pref = head_on(dim)
    shared = sideways(sim, pref)
    sim, a, b, pref = head_on(dim)
    sim.set_avoidance_mask(a, 0b11)
    sim.set_avoidance_layers(b, 0b10)
    sim.set_avoidance_mask(b, 0b10)
    alone = sideways(sim, pref)
    assert 0.9 < shared[0] < 1.1 and 0.9 < shared[1] < 1.1, shared
    assert 1.8 * shared[0] < alone[0] and alone[1] == 0.0, (shared, alone)
