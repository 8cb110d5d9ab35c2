"""swerve.World, the ball physics: every broad phase gives the same motion, elastic
collisions conserve momentum and energy, balls do not overlap, bad input raises."""

import math

import numpy as np
import pytest

import swerve

WORLD_SEED = 303
BOX = ((0.0, 0.0), (40.0, 40.0))


def gas(broad_phase, seed=WORLD_SEED, n=400, restitution=1.0, bounds=BOX):
    """`n` balls of radius 0.4 on a 2 m grid with random velocities (seeded)."""
    rng = np.random.default_rng(seed)
    world = swerve.World(bounds, broad_phase=broad_phase)
    k = np.arange(n)
    positions = np.c_[k % 20 * 2.0 + 1.0, k // 20 * 2.0 + 1.0]
    ids = world.add_balls(positions, rng.uniform(-3, 3, (n, 2)), radii=0.4, restitutions=restitution)
    assert list(ids) == list(range(n))
    return world


def test_every_broad_phase_gives_the_same_motion():
    names = swerve.World.broad_phases()
    assert set(names) == {
        "brute-force", "sort-and-sweep", "uniform-grid", "hierarchical-grid", "grid-sort-and-sweep", "quadtree",
        "aabb-tree",
    }
    reference = gas("brute-force")
    reference.step(0.01, 300)
    contacts = 0
    for name in names:
        world = gas(name)
        assert world.broad_phase == name
        for _ in range(300):
            world.step(0.01)
            contacts += world.last_step_stats()["contacts"]
        np.testing.assert_array_equal(world.positions(), reference.positions(), err_msg=name)
        np.testing.assert_array_equal(world.velocities(), reference.velocities(), err_msg=name)
    assert contacts > 0, "the scene must have collisions to compare"


def test_switching_broad_phase_mid_run():
    a = gas("uniform-grid")
    b = gas("quadtree")
    a.step(0.01, 100)
    b.step(0.01, 50)
    b.broad_phase = "aabb-tree"
    b.step(0.01, 50)
    np.testing.assert_array_equal(a.positions(), b.positions())
    with pytest.raises(ValueError):
        b.broad_phase = "octree"
    assert b.broad_phase == "aabb-tree"


def test_elastic_collisions_conserve_momentum_and_energy():
    # Open space (no walls take momentum), elastic balls with different masses.
    rng = np.random.default_rng(WORLD_SEED)
    world = swerve.World(None, broad_phase="sort-and-sweep")
    n = 300
    k = np.arange(n)
    positions = np.c_[k % 15 * 2.5, k // 15 * 2.5]
    world.add_balls(positions, rng.uniform(-2, 2, (n, 2)), radii=rng.uniform(0.3, 1.0, n),
                    masses=rng.uniform(0.5, 3.0, n))
    p0, e0 = world.momentum(), world.kinetic_energy()
    contacts = 0
    for _ in range(400):
        world.step(0.01)
        contacts += world.last_step_stats()["contacts"]
    p1, e1 = world.momentum(), world.kinetic_energy()
    assert contacts > 50
    assert math.hypot(p1[0] - p0[0], p1[1] - p0[1]) <= 1e-9 * max(1.0, math.hypot(*p0)) + 1e-9
    assert abs(e1 - e0) <= 1e-9 * e0


def test_inelastic_collisions_lose_energy_and_no_ball_escapes_the_box():
    world = gas("hierarchical-grid", restitution=0.5)
    e0 = world.kinetic_energy()
    for _ in range(300):
        world.step(0.01)
        p = world.positions()
        r = world.radii()
        assert np.all(p - r[:, None] >= -1e-4) and np.all(p + r[:, None] <= 40.0 + 1e-4)
    assert world.kinetic_energy() < e0


def test_balls_do_not_overlap():
    world = gas("grid-sort-and-sweep")
    for _ in range(200):
        world.step(0.01)
        stats = world.last_step_stats()
        assert set(stats) == {"candidate_pairs", "contacts", "time_of_impact_events", "escaped_swept_boxes",
                              "correction_passes", "pushed_out_of_box"}
        assert all(isinstance(v, int) and v >= 0 for v in stats.values())
        p = world.positions().astype(np.float64)
        d = np.hypot(p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1])
        np.fill_diagonal(d, np.inf)
        assert d.min() >= 0.8 * (1 - 1e-3)


def test_fast_ball_does_not_tunnel_through_a_wall():
    world = swerve.World(None, broad_phase="brute-force")
    world.add_segment((5.0, -10.0), (5.0, 10.0))
    world.add_ball((0.0, 0.0), (1000.0, 0.0), radius=0.1)
    world.step(0.1)  # 100 m in one step
    x, _ = world.positions()[0]
    assert x < 5.0 and world.velocities()[0][0] < 0


def test_polygon_and_debug_boxes():
    world = swerve.World(BOX, broad_phase="quadtree")
    world.add_polygon([(10, 10), (12, 10), (12, 12), (10, 12)])
    world.add_ball((5.0, 11.0), (2.0, 0.0), radius=0.5)
    world.add_ball((30.0, 30.0))
    world.step(0.05, 100)
    assert world.velocities()[0][0] < 0  # bounced off the square
    layers = world.broad_phase_debug()
    assert layers and all(layer["boxes"].shape[1] == 4 for layer in layers)
    assert {layer["kind"] for layer in layers} <= {"grid-cell", "quadtree-node", "sweep-interval", "tree-node"}
    assert len(world) == 2 and world.masses()[0] == pytest.approx(math.pi * 0.25)


def test_world_errors():
    with pytest.raises(ValueError):
        swerve.World(BOX, broad_phase="octree")
    with pytest.raises(ValueError):
        swerve.World(((0, 0), (0, 10)))
    world = swerve.World(BOX)
    for bad in (
        lambda: world.add_ball((5, 5), radius=-1.0),
        lambda: world.add_ball((5, 5), radius=1.0, mass=0.0),
        lambda: world.add_ball((5, 5), restitution=1.5),
        lambda: world.add_ball((5, math.nan)),
        lambda: world.add_ball((-5, 5)),  # outside the box
        lambda: world.add_balls(np.array([[1.0, 1.0], [50.0, 1.0]])),
        lambda: world.add_balls(np.array([[1.0, 1.0], [3.0, 1.0]]), radii=np.array([0.5])),
        lambda: world.add_segment((0, 0), (0, 0)),
        lambda: world.add_polygon(np.array([[0.0, 0.0]])),
        lambda: world.step(0.0),
        lambda: world.step(math.inf),
    ):
        with pytest.raises(ValueError) as info:
            bad()
        assert isinstance(info.value, swerve.SwerveError)
    assert len(world) == 0, "rejected balls must not be added"
