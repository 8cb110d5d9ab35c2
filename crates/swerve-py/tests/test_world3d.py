"""swerve.World3d, the sphere physics: the textbook elastic impact, conservation, every broad
phase giving the same bits, spheres kept in their box, piles coming to rest, bad input raising
and changing nothing, ids stable after removal."""

import math

import numpy as np
import pytest

import swerve

WORLD3D_SEED = 3003
SIDE = 16.0
BOX = ((0.0, 0.0, 0.0), (SIDE, SIDE, SIDE))
STATS = {"candidate_pairs", "contacts", "time_of_impact_events", "escaped_swept_boxes", "correction_passes",
         "pushed_out_of_box", "resting_contacts"}


def lattice(per_row, cell, n, offset=0.0):
    """The first `n` cell centres of a cubic lattice (x fastest), `cell` apart."""
    k = np.arange(n)
    return np.c_[k % per_row, k // per_row % per_row, k // per_row // per_row] * cell + cell / 2 + offset


def gas(broad_phase, seed=WORLD3D_SEED, n=320, bounds=BOX, gravity=None, restitution=1.0):
    """`n` spheres of mixed radii (0.3-0.95 m, masses by volume) on a 2 m lattice filling the
    16 m box, random velocities up to 6 m/s (seeded): about 12 % of the volume is solid."""
    rng = np.random.default_rng(seed)
    world = swerve.World3d(bounds, broad_phase=broad_phase, gravity=gravity)
    radii = rng.uniform(0.3, 0.95, n)
    ids = world.add_spheres(lattice(8, 2.0, n), rng.uniform(-6, 6, (n, 3)), radii=radii,
                            restitutions=restitution)
    assert ids.dtype == np.uint32 and list(ids) == list(range(n))
    return world


def elastic_1d(u1, u2, m1, m2):
    """Head-on elastic collision of two point masses on a line (momentum and energy)."""
    return ((m1 - m2) * u1 + 2 * m2 * u2) / (m1 + m2), ((m2 - m1) * u2 + 2 * m1 * u1) / (m1 + m2)


def test_a_glancing_impact_of_unequal_spheres_gives_the_textbook_velocities():
    # The Rust test's scene (crates/swerve/tests/physics3d.rs), checked here against the
    # collision worked out independently: find the impact time by bisection on the gap, split
    # each velocity along the line of centres, collide the normal parts as point masses on a
    # line, keep the tangential parts.
    xa0, va0, ra, ma = (0.0, 0.0, 0.0), (3.0, 0.5, -0.25), 1.0, 2.0
    xb0, vb0, rb, mb = (3.0, 0.9, 0.4), (-1.0, 0.0, 0.3), 0.5, 0.7
    world = swerve.World3d(None, broad_phase="brute-force")
    a = world.add_sphere(xa0, va0, radius=ra, mass=ma)
    b = world.add_sphere(xb0, vb0, radius=rb, mass=mb)
    # The world holds f32: start from the same numbers.
    xa0, va0, xb0, vb0 = (np.asarray(v, dtype=np.float32).astype(np.float64) for v in (xa0, va0, xb0, vb0))

    def gap(t):
        return np.linalg.norm((xb0 + vb0 * t) - (xa0 + va0 * t)) - (ra + rb)

    lo, hi = 0.0, 1.0
    assert gap(lo) > 0 and gap(hi) < 0, "the spheres must meet within the step"
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if gap(mid) > 0 else (lo, mid)
    t = lo
    xa, xb = xa0 + va0 * t, xb0 + vb0 * t
    n = (xb - xa) / np.linalg.norm(xb - xa)
    ua, ub = va0 @ n, vb0 @ n
    assert ub - ua < 0, "approaching"
    wa, wb = elastic_1d(ua, ub, ma, mb)
    va, vb = va0 + (wa - ua) * n, vb0 + (wb - ub) * n

    p0, e0 = np.array(world.momentum()), world.kinetic_energy()
    world.step(1.0)
    assert world.last_step_stats()["time_of_impact_events"] == 1
    np.testing.assert_allclose(world.sphere(a)["velocity"], va, rtol=0, atol=1e-5)
    np.testing.assert_allclose(world.sphere(b)["velocity"], vb, rtol=0, atol=1e-5)
    # At the impact point, then on with the new velocities.
    np.testing.assert_allclose(world.sphere(a)["position"], xa + va * (1 - t), rtol=0, atol=1e-4)
    np.testing.assert_allclose(world.sphere(b)["position"], xb + vb * (1 - t), rtol=0, atol=1e-4)
    np.testing.assert_allclose(world.momentum(), p0, rtol=0, atol=1e-12)
    assert world.kinetic_energy() == pytest.approx(e0, rel=1e-12)
    # And the textbook numbers themselves conserve what they should.
    np.testing.assert_allclose(ma * va + mb * vb, ma * va0 + mb * vb0, rtol=0, atol=1e-12)
    assert ma * va @ va + mb * vb @ vb == pytest.approx(ma * va0 @ va0 + mb * vb0 @ vb0, rel=1e-12)


def test_an_elastic_box_keeps_its_energy_and_its_spheres_inside():
    world = gas("uniform-grid")
    e0 = world.kinetic_energy()
    low, high = np.array(BOX[0]), np.array(BOX[1])
    contacts = 0
    for _ in range(400):
        world.step(1 / 60)
        contacts += world.last_step_stats()["contacts"]
        p, r = world.positions(), world.radii()[:, None]
        assert np.all(p - r >= low - 1e-4) and np.all(p + r <= high + 1e-4), "a sphere left the box"
    assert contacts > 500, f"only {contacts} contacts: the test would prove little"
    assert abs(world.kinetic_energy() - e0) <= 1e-9 * e0


def test_elastic_collisions_conserve_momentum_and_energy_in_open_space():
    # No walls take momentum: a cluster of unequal spheres flying apart and through itself.
    rng = np.random.default_rng(WORLD3D_SEED)
    world = swerve.World3d(None, broad_phase="octree")
    n = 300
    world.add_spheres(lattice(7, 2.2, n), rng.uniform(-4, 4, (n, 3)), radii=rng.uniform(0.4, 1.0, n),
                      masses=rng.uniform(0.5, 3.0, n))
    p0, e0 = np.array(world.momentum()), world.kinetic_energy()
    contacts = 0
    for _ in range(300):
        world.step(1 / 60)
        contacts += world.last_step_stats()["contacts"]
    assert contacts > 100
    scale = float(np.sum(world.masses() * np.linalg.norm(world.velocities(), axis=1)))
    assert np.linalg.norm(np.array(world.momentum()) - p0) <= 1e-12 * scale
    assert abs(world.kinetic_energy() - e0) <= 1e-12 * e0


@pytest.mark.parametrize("gravity", [None, (0.0, 0.0, -9.81)])
def test_every_broad_phase_gives_the_same_bits(gravity):
    names = swerve.World3d.broad_phases()
    assert names == ["brute-force", "sort-and-sweep", "uniform-grid", "hierarchical-grid", "octree"]
    reference = gas("brute-force", gravity=gravity, restitution=0.8)
    reference.step(1 / 60, 300)
    for name in names[1:]:
        world = gas(name, gravity=gravity, restitution=0.8)
        assert world.broad_phase == name
        contacts = impacts = 0
        for _ in range(300):
            world.step(1 / 60)
            stats = world.last_step_stats()
            contacts += stats["contacts"]
            impacts += stats["time_of_impact_events"]
        assert contacts > 500 and impacts > 0, "the scene must collide to compare"
        assert np.array_equal(world.positions(), reference.positions()), name
        assert np.array_equal(world.velocities(), reference.velocities()), name


def test_switching_broad_phase_mid_run():
    a, b = gas("sort-and-sweep"), gas("hierarchical-grid")
    a.step(1 / 60, 100)
    b.step(1 / 60, 50)
    b.broad_phase = "octree"
    b.step(1 / 60, 50)
    assert np.array_equal(a.positions(), b.positions())
    with pytest.raises(ValueError) as info:
        b.broad_phase = "quadtree"  # a 2-D broad phase
    assert "octree" in str(info.value) and isinstance(info.value, swerve.SwerveError)
    assert b.broad_phase == "octree"


def test_a_poured_pile_comes_to_rest_on_the_floor():
    rng = np.random.default_rng(WORLD3D_SEED)
    world = swerve.World3d(((0.0, 0.0, 0.0), (16.0, 16.0, 40.0)), broad_phase="uniform-grid",
                           gravity=(0.0, 0.0, -9.81))
    assert world.gravity == pytest.approx((0.0, 0.0, -9.81))  # f32
    n = 300
    positions = lattice(6, 2.3, n, offset=0.5)
    assert positions[:, 2].max() + 1.0 < 40.0
    world.add_spheres(positions, rng.uniform(-1, 1, (n, 3)), radii=1.0, restitutions=0.3)
    world.step(1 / 60, 600)  # 10 s
    speeds = np.linalg.norm(world.velocities(), axis=1)
    assert speeds.mean() < 0.05, f"still moving at {speeds.mean()} m/s on average"
    assert world.last_step_stats()["resting_contacts"] > n, "nothing rests on anything"
    p = world.positions().astype(np.float64)
    assert p[:, 2].min() >= 1.0 - 1e-4
    assert p[:, 2].max() < 14.0, "the pile is on the floor"
    d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    assert d.min() > 2.0 * (1 - 0.05), "the pile sank into itself"


def test_a_kinematic_sphere_pushes_without_being_pushed():
    world = gas("sort-and-sweep")
    p0, e0 = world.momentum(), world.kinetic_energy()
    pusher = world.add_sphere((-3.0, 8.0, 8.0), (8.0, 0.0, 0.0), radius=2.5, mass=math.inf)
    assert world.sphere(pusher)["mass"] == math.inf and world.masses()[-1] == np.inf
    assert world.momentum() == p0 and world.kinetic_energy() == e0, "an infinite mass is not summed"
    for step in range(1, 201):
        world.step(1 / 100)
        assert world.sphere(pusher)["velocity"] == (8.0, 0.0, 0.0)
        assert world.sphere(pusher)["position"][0] == pytest.approx(-3.0 + 0.08 * step, abs=1e-4)
    assert world.kinetic_energy() > e0, "the pusher did work on the gas"


def test_impulses_and_edits():
    world = swerve.World3d(None)
    a = world.add_sphere((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), radius=0.5, mass=2.0)
    b = world.add_sphere((10.0, 0.0, 0.0))
    assert world.sphere(b) == {"position": (10.0, 0.0, 0.0), "velocity": (0.0, 0.0, 0.0), "radius": 1.0,
                               "mass": pytest.approx(4 / 3 * math.pi), "restitution": 1.0, "friction": 0.0,
                               "rolling_resistance": 0.0, "angular_velocity": (0.0, 0.0, 0.0)}
    p0 = np.array(world.momentum())
    world.apply_impulse(a, (4.0, -2.0, 1.0))
    assert world.sphere(a)["velocity"] == pytest.approx((3.0, -1.0, 0.5))
    np.testing.assert_allclose(np.array(world.momentum()) - p0, [4.0, -2.0, 1.0], rtol=0, atol=1e-12)
    world.set_sphere(b, position=(12.0, 1.0, -1.0), radius=0.75, restitution=0.5)
    state = world.sphere(b)
    assert state["position"] == (12.0, 1.0, -1.0) and state["radius"] == 0.75 and state["restitution"] == 0.5
    assert state["velocity"] == (0.0, 0.0, 0.0), "fields not given keep their values"
    assert state["mass"] == pytest.approx(4 / 3 * math.pi), "the mass stays when the radius changes"
    world.set_sphere(a, velocity=(0.0, 0.0, 0.0), position=(0.0, 1.0, -1.0))
    world.set_sphere(b, velocity=(-2.0, 0.0, 0.0))
    world.step(0.5, 20)
    assert world.velocities()[0][0] < 0, "the moving sphere hit the other"


def test_bulk_positions_and_velocities_are_set_all_or_nothing():
    world = gas("uniform-grid", n=20)
    before = (world.positions(), world.velocities())
    moved = before[0] + np.float32(0.25)
    for bad in (moved[:-1], np.where(np.arange(20)[:, None] == 3, -5.0, moved), np.full((20, 3), np.nan)):
        with pytest.raises(ValueError):
            world.set_positions(bad)
    with pytest.raises(ValueError):
        world.set_velocities(np.full((20, 3), np.inf))
    assert np.array_equal(world.positions(), before[0]) and np.array_equal(world.velocities(), before[1])
    world.set_positions(moved)
    world.set_velocities(-before[1])
    assert np.array_equal(world.positions(), moved) and np.array_equal(world.velocities(), -before[1])


def test_a_rough_sphere_sliding_on_the_floor_ends_up_rolling():
    # Textbook: a solid sphere set sliding rolls at 5/7 of its speed, omega = v / r.
    world = swerve.World3d(((0, 0, 0), (100, 100, 100)), gravity=(0, 0, -9.81))
    ball = world.add_sphere((20, 50, 0.5), (4, 0, 0), radius=0.5, restitution=0.0, friction=0.4)
    world.step(1 / 120, n=240)
    state = world.sphere(ball)
    assert state["velocity"][0] == pytest.approx(4 * 5 / 7, rel=0.01)
    assert state["angular_velocity"][1] == pytest.approx(state["velocity"][0] / 0.5, rel=0.02)
    assert state["friction"] == pytest.approx(0.4)
    np.testing.assert_allclose(world.angular_velocities()[0], state["angular_velocity"])
    for bad in (-0.1, math.nan):
        with pytest.raises(ValueError):
            world.add_sphere((50, 50, 50), friction=bad)
        with pytest.raises(ValueError):
            world.set_sphere(ball, friction=bad)
    with pytest.raises(ValueError):
        world.add_spheres([(50, 50, 50), (60, 60, 60)], frictions=[0.5, -1.0])
    assert len(world) == 1


def test_substeps_are_a_setting_with_bounds():
    world = gas("uniform-grid", n=40, gravity=(0, 0, -9.81))
    assert world.substeps == 1
    world.substeps = 4
    assert world.substeps == 4
    for bad in (0, 65):
        with pytest.raises(ValueError):
            world.substeps = bad
    assert world.substeps == 4
    world.step(1 / 60, n=10)
    assert world.last_step_stats()["correction_passes"] >= 1


def test_linear_damping_slows_spheres_by_its_factor():
    world = swerve.World3d(None)
    world.add_sphere((0.0, 0.0, 0.0), (3.0, 4.0, 12.0))
    assert world.linear_damping == 0.0
    world.linear_damping = 2.0
    world.step(0.05, 20)
    assert np.linalg.norm(world.velocities()[0]) == pytest.approx(13.0 / (1 + 2.0 * 0.05) ** 20, rel=1e-5)


def test_properties_shapes_and_repr():
    world = swerve.World3d(BOX, broad_phase="octree")
    assert world.bounds == BOX and swerve.World3d().bounds is None
    assert world.gravity == (0.0, 0.0, 0.0) and world.solver_iterations == 10 and world.linear_damping == 0.0
    assert world.positions().shape == (0, 3) and world.positions().dtype == np.float32
    assert world.radii().shape == (0,) and world.sphere_ids().dtype == np.uint32
    assert world.momentum() == (0.0, 0.0, 0.0) and world.kinetic_energy() == 0.0
    assert len(world.add_spheres(np.zeros((0, 3)))) == 0
    world.add_spheres([[1, 1, 1], [3, 3, 3]], radii=[0.5, 0.25])  # lists and ints convert
    world.add_spheres(np.array([[5.0, 5, 5]]), radii=np.float32(0.75), masses=np.array(2.0), restitutions=0)
    assert world.radii().tolist() == [0.5, 0.25, 0.75] and world.masses()[2] == 2.0
    assert world.sphere(2)["restitution"] == 0.0
    world.remove_sphere(2)
    assert world.num_spheres == len(world) == 2
    assert world.positions().dtype == np.float32 and world.velocities().shape == (2, 3)
    assert repr(world) == 'World3d(spheres=2, broad_phase="octree")'
    world.gravity = (0.0, -1.0, 0.0)
    world.solver_iterations = 40
    world.set_continuous_collision(False)
    world.step(0.01)
    assert set(world.last_step_stats()) == STATS
    assert all(isinstance(v, int) and v >= 0 for v in world.last_step_stats().values())
    assert world.gravity == (0.0, -1.0, 0.0) and world.solver_iterations == 40


def test_bad_input_raises_and_changes_nothing():
    for bad in (
        lambda: swerve.World3d(BOX, broad_phase="quadtree"),
        lambda: swerve.World3d(((0, 0, 0), (1, 0, 1))),  # zero size
        lambda: swerve.World3d(((0, 0, math.nan), (1, 1, 1))),
        lambda: swerve.World3d(((0, 0), (1, 1))),  # 2-D bounds
        lambda: swerve.World3d(None, gravity=(0.0, 0.0, math.inf)),
    ):
        with pytest.raises(ValueError) as info:
            bad()
        assert isinstance(info.value, swerve.SwerveError) and str(info.value)

    world = swerve.World3d(((0.0, 0.0, 0.0), (10.0, 10.0, 10.0)), broad_phase="uniform-grid",
                           gravity=(0.0, 0.0, -1.0))
    ids = world.add_spheres(np.array([[5.0, 5.0, 5.0], [2.0, 2.0, 2.0]]), np.array([[1.0, 0, 0], [0, 1.0, 0]]),
                            radii=[1.0, 0.5], masses=[2.0, 3.0], restitutions=0.5)
    world.step(0.01)
    world.linear_damping = 0.5

    def state():
        return (world.positions(), world.velocities(), world.radii(), world.masses(), world.sphere_ids(),
                world.kinetic_energy(), world.momentum(), world.gravity, world.linear_damping,
                world.solver_iterations, world.broad_phase, [world.sphere(i)["restitution"] for i in ids])

    before = state()
    ok = np.array([[1.0, 1.0, 1.0], [3.0, 3.0, 3.0]])
    for bad in (
        lambda: world.add_sphere((5, 5, math.nan)),
        lambda: world.add_sphere((5, 5, 5), (0, math.inf, 0)),
        lambda: world.add_sphere((5, 5, 5), radius=-1.0),
        lambda: world.add_sphere((5, 5, 5), radius=0.0),
        lambda: world.add_sphere((5, 5, 5), radius=math.nan),
        lambda: world.add_sphere((5, 5, 5), mass=0.0),
        lambda: world.add_sphere((5, 5, 5), mass=-1.0),
        lambda: world.add_sphere((5, 5, 5), mass=math.nan),
        lambda: world.add_sphere((5, 5, 5), mass=1e39),  # overflows f32: not kinematic by accident
        lambda: world.add_sphere((5, 5, 5), restitution=1.5),
        lambda: world.add_sphere((5, 5, 5), restitution=-0.1),
        lambda: world.add_sphere((9.5, 5, 5)),  # pokes through a wall
        lambda: world.add_sphere((-5, 5, 5)),  # outside the box
        lambda: world.add_sphere((5, 5)),  # not a triple
        lambda: world.add_spheres(np.zeros((2, 2))),
        lambda: world.add_spheres(np.ones(3)),
        lambda: world.add_spheres(np.ones((2, 3, 1))),
        lambda: world.add_spheres(ok, np.zeros((3, 3))),
        lambda: world.add_spheres(ok, radii=np.array([0.5])),
        lambda: world.add_spheres(ok, radii=np.full((2, 1), 0.5)),
        lambda: world.add_spheres(ok, masses=[1.0, 2.0, 3.0]),
        lambda: world.add_spheres(ok, restitutions=[0.5, 0.5, 0.5]),
        # All or nothing: the first sphere is fine, the last is not.
        lambda: world.add_spheres(np.array([[1.0, 1.0, 1.0], [50.0, 1.0, 1.0]])),
        lambda: world.add_spheres(np.array([[1.0, 1.0, 1.0], [3.0, math.nan, 1.0]])),
        lambda: world.add_spheres(ok, radii=[0.5, -0.5]),
        lambda: world.add_spheres(ok, masses=[1.0, 1e39]),
        lambda: world.add_spheres(ok, restitutions=[1.0, 1.01]),
        lambda: world.set_sphere(ids[0], position=(-1.0, 5.0, 5.0)),
        lambda: world.set_sphere(ids[0], radius=0.0),
        lambda: world.set_sphere(ids[0], position=(2.0, 2.0, 2.0), radius=6.0),  # valid position, too big
        lambda: world.set_sphere(ids[1], velocity=(math.nan, 0.0, 0.0)),
        lambda: world.set_sphere(ids[1], restitution=2.0),
        lambda: world.apply_impulse(ids[0], (math.inf, 0.0, 0.0)),
        lambda: world.apply_impulse(ids[0], (1.0, 0.0)),
        lambda: world.step(0.0),
        lambda: world.step(-0.01),
        lambda: world.step(math.nan),
        lambda: world.step(math.inf),
        lambda: setattr(world, "gravity", (0.0, math.nan, 0.0)),
        lambda: setattr(world, "linear_damping", -0.5),
        lambda: setattr(world, "solver_iterations", 0),
        lambda: setattr(world, "solver_iterations", 1001),
        lambda: setattr(world, "broad_phase", "bvh"),
    ):
        with pytest.raises(ValueError) as info:
            bad()
        assert isinstance(info.value, swerve.SwerveError), info.value
        assert str(info.value)
    for bad in (
        lambda: world.sphere(7),
        lambda: world.remove_sphere(7),
        lambda: world.remove_spheres([0, 7]),  # one unknown id: nothing is removed
        lambda: world.apply_impulse(7, (1.0, 0.0, 0.0)),
        lambda: world.set_sphere(7, radius=1.0),
    ):
        with pytest.raises(LookupError) as info:
            bad()
        assert isinstance(info.value, swerve.UnknownIdError) and "7" in str(info.value)
    with pytest.raises((ValueError, OverflowError)):
        world.solver_iterations = -1
    with pytest.raises(OverflowError):
        world.sphere(-1)
    assert not world.contains_sphere(7)
    after = state()
    for x, y in zip(before, after):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y)
        else:
            assert x == y
    assert list(world.sphere_ids()) == [0, 1]
    assert world.add_sphere((8.0, 8.0, 8.0)) == 2, "rejected spheres use up no ids"
    # The core's messages reach Python.
    with pytest.raises(ValueError, match="does not fit inside the world's bounds"):
        world.add_sphere((-5, 5, 5))
    with pytest.raises(ValueError, match="restitution"):
        world.add_sphere((5, 5, 5), restitution=1.5)
    with pytest.raises(LookupError, match="unknown sphere id 7"):
        world.sphere(7)


def test_a_kinematic_sphere_may_start_outside_the_box():
    world = swerve.World3d(BOX)
    ids = world.add_spheres([[-5.0, 8.0, 8.0], [8.0, 8.0, 8.0]], masses=[math.inf, 1.0])
    assert world.masses().tolist() == [math.inf, 1.0] and list(ids) == [0, 1]


def test_ids_are_stable_after_removal_and_the_rest_moves_as_if_never_added():
    # Oracle: a world rebuilt from the survivors (same order, same state) moves bit for bit
    # like the edited one. Velocity residuals would differ, so the gas is edited before its
    # first collision (after a step that moves but does not touch).
    world = gas("octree")
    world.step(0.001)
    assert world.last_step_stats()["contacts"] == 0
    world.remove_sphere(3)
    world.remove_spheres(np.array([0, 7, 150, 319], dtype=np.uint32))
    world.remove_spheres([])
    ids = world.sphere_ids()
    assert ids.dtype == np.uint32 and len(ids) == len(world) == world.num_spheres == 315
    assert not any(world.contains_sphere(i) for i in (0, 3, 7, 150, 319)) and world.contains_sphere(4)
    assert list(ids[:4]) == [1, 2, 4, 5] and ids[-1] == 318
    assert world.sphere(4)["position"] == tuple(world.positions()[2])
    rebuilt = swerve.World3d(BOX, broad_phase="sort-and-sweep")
    rebuilt.add_spheres(world.positions(), world.velocities(), radii=world.radii(), masses=world.masses())
    contacts = 0
    for _ in range(200):
        world.step(1 / 60)
        rebuilt.step(1 / 60)
        contacts += world.last_step_stats()["contacts"]
    assert contacts > 0
    assert np.array_equal(world.positions(), rebuilt.positions())
    assert np.array_equal(world.velocities(), rebuilt.velocities())
    # Ids are never reused.
    assert world.add_sphere((8.0, 8.0, 15.0), radius=0.3) == 320
    assert list(world.sphere_ids()[-2:]) == [318, 320]
    with pytest.raises(LookupError):
        world.sphere(319)


def test_a_sphere_bounces_off_a_slanted_triangle_like_a_mirror():
    world = swerve.World3d(None)
    a, b, c = np.array([-20.0, -20.0, -3.0]), np.array([20.0, -15.0, 4.0]), np.array([0.0, 25.0, 2.0])
    world.add_triangle(a, b, c)
    assert world.triangles().shape == (1, 3, 3) and world.triangles().dtype == np.float32
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n)
    v0 = np.array([0.7, -1.3, -9.0])
    world.add_sphere((0.5, 0.2, 6.0), tuple(v0), radius=0.5)
    e0 = world.kinetic_energy()
    world.step(1 / 60, n=60)
    mirrored = v0 - 2 * v0.dot(n) * n  # the mirror formula
    np.testing.assert_allclose(world.velocities()[0], mirrored, atol=1e-5)
    assert world.kinetic_energy() == pytest.approx(e0, rel=1e-12)


def test_a_sphere_rolls_down_a_mesh_ramp_at_five_sevenths_g_sin_theta():
    theta = math.radians(20)
    down = np.array([math.cos(theta), 0.0, -math.sin(theta)])
    normal = np.array([math.sin(theta), 0.0, math.cos(theta)])
    side = np.array([0.0, 4.0, 0.0])
    bottom = down * 60
    world = swerve.World3d(None, gravity=(0, 0, -9.81))
    world.add_mesh(np.array([-side, side, bottom + side, bottom - side]), np.array([[0, 1, 2], [0, 2, 3]]))
    world.add_sphere(tuple(down * 2 + normal * 0.5), (0, 0, 0), radius=0.5, restitution=0.0, friction=0.5)
    world.step(1 / 120, n=240)
    along = world.velocities()[0].dot(down)
    assert along == pytest.approx(5 / 7 * 9.81 * math.sin(theta) * 2.0, rel=0.02)


def test_bad_meshes_raise_and_add_nothing():
    world = swerve.World3d(None)
    vertices = np.eye(3)
    with pytest.raises(ValueError, match="names vertex 3"):
        world.add_mesh(vertices, [[0, 1, 2], [0, 1, 3]])
    with pytest.raises(ValueError, match="no area"):
        world.add_mesh(vertices, [[0, 1, 1]])
    with pytest.raises(ValueError, match="integer"):
        world.add_mesh(vertices, [[0.0, 1.5, 2.0]])
    with pytest.raises(ValueError, match="vertex -1"):
        world.add_mesh(vertices, [[0, 1, -1]])
    with pytest.raises(ValueError, match=r"shape \(M, 3\)"):
        world.add_mesh(vertices, [0, 1, 2])
    with pytest.raises(ValueError, match="finite"):
        world.add_triangle((0, 0, math.nan), (1, 0, 0), (0, 1, 0))
    with pytest.raises(ValueError, match="no area"):
        world.add_triangle((0, 0, 0), (1, 0, 0), (2, 0, 0))
    assert world.triangles().shape == (0, 3, 3)
    world.add_mesh(vertices, np.array([[0, 1, 2]], dtype=np.uint8))
    assert world.triangles().shape == (1, 3, 3)


def test_rays_and_ball_queries():
    world = swerve.World3d(((-20, -20, -20), (20, 20, 20)))
    ids = world.add_spheres(np.array([[10.0, 0, 0], [0, 0, 5]]), np.zeros((2, 3)), radii=np.array([2.0, 0.5]))
    hit = world.cast_ray((0, 0, 0), (3, 0, 0))
    assert hit["kind"] == "sphere" and hit["index"] == ids[0]
    assert hit["distance"] == 8.0 and hit["point"] == (8.0, 0.0, 0.0) and hit["normal"] == (-1.0, 0.0, 0.0)
    assert world.cast_ray((0, 0, 0), (1, 0, 0), max_distance=7.5) is None
    world.add_triangle((5, -4, -4), (5, 4, -4), (5, 0, 6))
    hit = world.cast_ray((0, 0, 0), (1, 0, 0))
    assert (hit["kind"], hit["index"], hit["distance"]) == ("triangle", 0, 5.0)
    hit = world.cast_ray((0, 0, 0), (0, -1, 0))
    assert (hit["kind"], hit["index"], hit["distance"], hit["normal"]) == ("wall", 2, 20.0, (0.0, 1.0, 0.0))
    assert list(world.spheres_in_ball((0, 0, 3), 1.6)) == [ids[1]]
    assert world.spheres_in_ball((0, 0, 3)).size == 0
    assert world.sphere_at((10.5, 1, 0)) == ids[0] and world.sphere_at((0, 0, 0)) is None
    with pytest.raises(ValueError, match="non-zero"):
        world.cast_ray((0, 0, 0), (0, 0, 0))
    with pytest.raises(ValueError, match="ray length"):
        world.cast_ray((0, 0, 0), (1, 0, 0), max_distance=-1)
    with pytest.raises(ValueError, match="finite"):
        world.spheres_in_ball((0, math.nan, 0), 1.0)


def test_rolling_resistance_slows_a_rolling_sphere_at_five_sevenths_c_g():
    r, v0, c, g = 0.5, 4.0, 0.05, 9.81
    world = swerve.World3d(((0, 0, 0), (100, 100, 100)), gravity=(0, 0, -g))
    s = world.add_sphere((10, 50, r), (v0, 0, 0), radius=r, restitution=0.0, friction=0.5,
                         angular_velocity=(0, v0 / r, 0), rolling_resistance=c)
    assert world.sphere(s)["rolling_resistance"] == pytest.approx(c)
    world.step(1 / 120, n=120)
    assert world.velocities()[0][0] == pytest.approx(v0 - 5 / 7 * c * g * 1.0, rel=0.01)
    with pytest.raises(ValueError, match="rolling resistance"):
        world.set_sphere(s, rolling_resistance=-1.0)
    with pytest.raises(ValueError, match="rolling_resistances must have 1 values"):
        world.add_spheres(np.array([[20.0, 50, 1]]), rolling_resistances=[0.1, 0.2])
    assert world.sphere(s)["rolling_resistance"] == pytest.approx(c)


def test_contacts_account_for_every_velocity_change():
    world = gas("octree", gravity=(0.0, 0.0, -9.81), restitution=0.8)
    world.add_mesh([(0, 0, 3), (SIDE, 0, 0.5), (SIDE, SIDE, 0.5), (0, SIDE, 3)], [(0, 1, 2), (0, 2, 3)])
    assert world.record_contacts is False
    world.step(0.01)
    assert len(world.contacts()["sphere"]) == 0, "nothing is recorded unless asked"
    world.record_contacts = True
    masses = world.masses().astype(np.float64)
    weight = masses[:, None] * np.array([0.0, 0.0, -9.81]) * 0.02
    seen = set()
    for _ in range(150):
        v0 = world.velocities().astype(np.float64)
        world.step(0.02)
        c = world.contacts()
        assert set(c) == {"sphere", "partner_kind", "partner", "time", "impulse", "normal"}
        assert c["impulse"].shape == c["normal"].shape == (len(c["sphere"]), 3)
        seen |= set(c["partner_kind"])
        assert np.all((c["time"] >= 0) & (c["time"] <= 0.02))
        np.testing.assert_allclose(np.linalg.norm(c["normal"], axis=1), 1.0, atol=1e-5)
        # Ids are rows here (no removals): each sphere's impulses add up to its momentum change
        # beyond its weight.
        # Each impulse is float32: the sums are good to a few ulps of the impulses' sizes.
        total, sizes = np.zeros((len(world), 3)), np.zeros(len(world))
        np.add.at(total, c["sphere"], c["impulse"])
        np.add.at(sizes, c["sphere"], np.linalg.norm(c["impulse"], axis=1))
        pairs = c["partner_kind"] == "sphere"
        np.add.at(total, c["partner"][pairs], -c["impulse"][pairs])
        np.add.at(sizes, c["partner"][pairs], np.linalg.norm(c["impulse"][pairs], axis=1))
        change = (world.velocities() - v0) * masses[:, None] - weight
        scale = masses[:, None] * (np.abs(v0) + np.abs(world.velocities())) + np.abs(weight) + sizes[:, None] + 1e-6
        assert np.all(np.abs(change - total) <= 1e-5 * scale)
    assert seen == {"sphere", "triangle", "wall"}
    c = world.contacts()
    assert np.all(c["partner"][c["partner_kind"] == "wall"] <= 5)
    assert np.all(c["partner"][c["partner_kind"] == "triangle"] <= 1)
