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
                              "correction_passes", "pushed_out_of_box", "resting_contacts"}
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


def test_removed_balls_leave_the_others_moving_as_if_never_added():
    # Oracle: a world rebuilt from the survivors at the moment of removal (same order, same
    # state) moves bit for bit like the edited one. Residuals would differ, so the gas is
    # rebuilt before its first collision (after a step that moves but does not touch).
    world = gas("sort-and-sweep")
    world.step(0.001)
    doomed = [0, 7, 150, 399]
    world.remove_ball(3)
    world.remove_balls(doomed)
    ids = world.ball_ids()
    assert ids.dtype == np.uint32 and len(ids) == len(world) == world.num_balls == 395
    assert not any(world.contains_ball(i) for i in doomed + [3]) and world.contains_ball(4)
    rebuilt = swerve.World(BOX, broad_phase="aabb-tree")
    rebuilt.add_balls(world.positions(), world.velocities(), radii=world.radii())
    contacts = 0
    for _ in range(200):
        world.step(0.01)
        rebuilt.step(0.01)
        contacts += world.last_step_stats()["contacts"]
    assert contacts > 0
    np.testing.assert_array_equal(world.positions(), rebuilt.positions())
    np.testing.assert_array_equal(world.velocities(), rebuilt.velocities())
    # Ids are never reused.
    assert world.add_ball((20.5, 39.0)) == 400
    assert list(world.ball_ids()[-2:]) == [398, 400]


def test_linear_damping_slows_balls_by_its_factor():
    world = swerve.World(None)
    world.add_ball((0.0, 0.0), (3.0, 4.0))
    with pytest.raises(ValueError):
        world.linear_damping = -0.5
    assert world.linear_damping == 0.0
    world.linear_damping = 2.0
    world.step(0.05, 20)
    assert np.hypot(*world.velocities()[0]) == pytest.approx(5.0 / (1 + 2.0 * 0.05) ** 20, rel=1e-5)


def test_a_pile_under_gravity_comes_to_rest_on_the_floor():
    world = swerve.World(((0.0, 0.0), (20.0, 100.0)), broad_phase="uniform-grid", gravity=(0.0, -9.81))
    assert world.gravity == pytest.approx((0.0, -9.81))  # f32
    rng = np.random.default_rng(WORLD_SEED)
    k = np.arange(150)
    positions = np.c_[k % 9 * 2.1 + 1.2, k // 9 * 2.3 + 2.0]
    world.add_balls(positions, rng.uniform(-0.5, 0.5, (150, 2)), radii=1.0, restitutions=0.3)
    world.step(1 / 60, 1800)
    assert world.kinetic_energy() < 1e-3
    assert world.last_step_stats()["resting_contacts"] > 150
    p = world.positions()
    d = np.hypot(*(p[:, None, :] - p[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert d.min() > 2.0 * (1 - 0.0101), "balls sank into each other"
    assert p[:, 1].min() >= 1.0 - 1e-4


def test_substeps_are_shorter_steps():
    def pile(substeps):
        world = swerve.World(((0.0, 0.0), (20.0, 60.0)), broad_phase="uniform-grid", gravity=(0.0, -9.81))
        k = np.arange(90)
        world.add_balls(np.c_[k % 9 * 2.1 + 1.2, k // 9 * 2.3 + 2.0], radii=1.0, restitutions=0.3)
        world.substeps = substeps
        return world
    whole, manual = pile(4), pile(1)
    whole.step(1 / 60, 240)
    manual.step(1 / 240, 960)
    assert np.array_equal(whole.positions(), manual.positions())
    # At rest every substep holds the same contacts; the step's statistics add them up.
    resting = manual.last_step_stats()["resting_contacts"]
    assert resting >= 90 and whole.last_step_stats()["resting_contacts"] == 4 * resting


def test_gravity_and_solver_iterations_are_validated():
    world = swerve.World(None)
    assert world.gravity == (0.0, 0.0) and world.solver_iterations == 10
    for bad in [(math.nan, 0.0), (0.0, math.inf)]:
        with pytest.raises(ValueError):
            world.gravity = bad
    with pytest.raises(ValueError):
        swerve.World(None, gravity=(math.nan, 1.0))
    for bad in [0, 1001]:
        with pytest.raises(ValueError):
            world.solver_iterations = bad
    with pytest.raises((ValueError, OverflowError)):
        world.solver_iterations = -1
    assert world.gravity == (0.0, 0.0) and world.solver_iterations == 10
    world.gravity = (1.0, -2.0)
    world.solver_iterations = 40
    assert world.gravity == (1.0, -2.0) and world.solver_iterations == 40
    assert world.substeps == 1
    for bad in [0, 65]:
        with pytest.raises(ValueError):
            world.substeps = bad
    world.substeps = 4
    assert world.substeps == 4


def test_a_rough_ball_rolls_down_a_slope_as_a_solid_disc():
    # Rolling without slipping on a 20° slope: a = 2/3 g sin θ (the textbook solid disc);
    # frictionless, it slides at g sin θ and never spins.
    theta = math.radians(20.0)
    down = np.array([math.cos(theta), -math.sin(theta)])
    normal = np.array([math.sin(theta), math.cos(theta)])
    speeds = {}
    for mu in (0.5, 0.0):
        world = swerve.World(None, broad_phase="sort-and-sweep", gravity=(0.0, -9.81))
        world.add_segment(-60 * down, 60 * down)
        ball = world.add_ball(0.4 * normal, radius=0.4, friction=mu)
        world.step(1 / 240, 360)
        state = world.ball(ball)
        assert state["friction"] == pytest.approx(mu)
        v = float(np.dot(state["velocity"], down))
        speeds[mu] = v
        spin = world.angular_velocities()[0]
        assert spin == state["angular_velocity"]
        assert -math.pi <= world.angles()[0] <= math.pi
        if mu > 0:
            assert v + spin * 0.4 == pytest.approx(0.0, abs=0.01 * v), "rolls without slipping"
        else:
            assert spin == 0.0
    assert speeds[0.5] == pytest.approx(2 / 3 * 9.81 * math.sin(theta) * 1.5, rel=0.02)
    assert speeds[0.0] == pytest.approx(9.81 * math.sin(theta) * 1.5, rel=0.02)


def test_rolling_resistance_brakes_a_rolling_ball():
    # A ball rolling on the floor slows at 2/3 c g and stops after v0^2 / (4/3 c g).
    world = swerve.World(((0.0, 0.0), (100.0, 10.0)), gravity=(0.0, -9.81))
    ball = world.add_ball((2.0, 0.5), (3.0, 0.0), radius=0.5, friction=0.5, rolling_resistance=0.05,
                          angular_velocity=-6.0)
    assert world.ball(ball)["rolling_resistance"] == pytest.approx(0.05)
    world.step(1 / 240, 480)
    assert world.velocities()[0, 0] == pytest.approx(3.0 - 2 / 3 * 0.05 * 9.81 * 2.0, abs=0.01)
    world.step(1 / 240, 240 * 20)
    assert np.hypot(*world.velocities()[0]) < 1e-3
    stop = 9.0 / (4 / 3 * 0.05 * 9.81)
    assert world.positions()[0, 0] - 2.0 == pytest.approx(stop, rel=0.02)


def test_friction_and_spin_are_validated():
    world = swerve.World(None)
    for bad in (-0.5, math.nan, math.inf):
        with pytest.raises(ValueError):
            world.add_ball((0.0, 0.0), friction=bad)
        with pytest.raises(ValueError):
            world.add_balls([(0.0, 0.0), (3.0, 0.0)], frictions=[0.2, bad])
    with pytest.raises(ValueError):
        world.add_ball((0.0, 0.0), angular_velocity=math.inf)
    with pytest.raises(ValueError):
        world.add_ball((0.0, 0.0), rolling_resistance=-0.1)
    with pytest.raises(ValueError):
        world.add_balls([(0.0, 0.0)], rolling_resistances=[math.nan])
    assert len(world) == 0
    ball = world.add_ball((0.0, 0.0), friction=0.3, angular_velocity=2.0)
    with pytest.raises(ValueError):
        world.set_ball(ball, friction=-1.0)
    assert world.ball(ball)["friction"] == pytest.approx(0.3)
    world.set_ball(ball, angular_velocity=-4.0)
    assert world.angular_velocities().tolist() == [-4.0]


def test_editing_balls_and_impulses():
    world = swerve.World(None)
    a = world.add_ball((0.0, 0.0), (1.0, 0.0), radius=0.5, mass=2.0)
    b = world.add_ball((10.0, 0.0))
    p0 = np.array(world.momentum())
    world.apply_impulse(a, (4.0, -2.0))
    assert world.ball(a)["velocity"] == pytest.approx((3.0, -1.0))
    np.testing.assert_allclose(np.array(world.momentum()) - p0, [4.0, -2.0], rtol=0, atol=1e-12)
    world.set_ball(b, position=(12.0, 1.0), radius=0.75, restitution=0.5)
    state = world.ball(b)
    assert state["position"] == (12.0, 1.0) and state["radius"] == 0.75 and state["restitution"] == 0.5
    assert state["velocity"] == (0.0, 0.0), "fields not given keep their values"
    world.set_velocities(np.array([[0.0, 0.0], [-2.0, 0.0]]))
    world.set_positions([[0.0, 0.0], [5.0, 0.0]])
    np.testing.assert_array_equal(world.velocities()[1], [-2.0, 0.0])
    world.step(0.5, 10)
    assert world.velocities()[0][0] < 0, "the kicked-back ball hit the other"


def test_rejected_edits_raise_and_change_nothing():
    world = swerve.World(BOX)
    ids = world.add_balls(np.array([[5.0, 5.0], [10.0, 10.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]))
    before = (world.positions(), world.velocities(), world.radii())
    for bad in (
        lambda: world.set_ball(ids[0], position=(-1.0, 5.0)),  # outside the box
        lambda: world.set_ball(ids[0], radius=0.0),
        lambda: world.set_ball(ids[1], velocity=(math.nan, 0.0)),
        lambda: world.apply_impulse(ids[0], (math.inf, 0.0)),
        lambda: world.set_positions(np.array([[1.0, 1.0], [45.0, 1.0]])),
        lambda: world.set_positions(np.array([[1.0, 1.0]])),
        lambda: world.set_velocities(np.array([[1.0, 1.0], [math.nan, 1.0]])),
    ):
        with pytest.raises(ValueError) as info:
            bad()
        assert isinstance(info.value, swerve.SwerveError)
    for bad in (
        lambda: world.ball(7),
        lambda: world.remove_ball(7),
        lambda: world.remove_balls([0, 7]),  # one unknown id: nothing is removed
        lambda: world.apply_impulse(7, (1.0, 0.0)),
        lambda: world.set_ball(7, radius=1.0),
    ):
        with pytest.raises(LookupError) as info:
            bad()
        assert isinstance(info.value, swerve.UnknownIdError)
    after = (world.positions(), world.velocities(), world.radii())
    for x, y in zip(before, after):
        np.testing.assert_array_equal(x, y)
    assert list(world.ball_ids()) == [0, 1]


def test_contacts_account_for_every_velocity_change():
    world = gas("uniform-grid", restitution=0.8)
    world.add_polygon([(18.5, 18.5), (21.5, 18.5), (21.5, 21.5), (18.5, 21.5)])
    assert world.record_contacts is False
    world.step(0.01)
    assert len(world.contacts()["ball"]) == 0, "nothing is recorded unless asked"
    world.record_contacts = True
    masses = world.masses().astype(np.float64)
    seen = set()
    for _ in range(200):
        v0 = world.velocities().astype(np.float64)
        world.step(0.02)
        c = world.contacts()
        assert set(c) == {"ball", "partner_kind", "partner", "time", "impulse", "normal"}
        seen |= set(c["partner_kind"])
        assert np.all((c["time"] >= 0) & (c["time"] <= 0.02))
        np.testing.assert_allclose(np.hypot(*c["normal"].T), 1.0, atol=1e-5)
        # Ids are rows here (no removals): each ball's impulses add up to its momentum change.
        total = np.zeros((len(world), 2))
        np.add.at(total, c["ball"], c["impulse"])
        pairs = c["partner_kind"] == "ball"
        np.add.at(total, c["partner"][pairs], -c["impulse"][pairs])
        change = (world.velocities() - v0) * masses[:, None]
        scale = masses[:, None] * (np.abs(v0) + np.abs(world.velocities())) + 1e-6
        assert np.all(np.abs(change - total) <= 1e-5 * scale)
    assert seen == {"ball", "segment", "wall"}
    walls = world.contacts()["partner"][world.contacts()["partner_kind"] == "wall"]
    assert np.all(walls <= 3)


def test_a_kinematic_ball_pushes_without_being_pushed():
    world = gas("aabb-tree")
    p0, e0 = world.momentum(), world.kinetic_energy()
    pusher = world.add_ball((-3.0, 20.0), (8.0, 0.0), radius=2.5, mass=math.inf)
    assert world.momentum() == p0 and world.kinetic_energy() == e0, "an infinite mass is not summed"
    world.record_contacts = True
    hits = 0
    for step in range(1, 301):
        world.step(0.01)
        hits += int(np.sum(world.contacts()["partner"] == pusher))
        assert world.ball(pusher)["velocity"] == (8.0, 0.0)
        assert world.ball(pusher)["position"][0] == pytest.approx(-3.0 + 0.08 * step, abs=1e-4)
    assert hits > 15
    assert world.kinetic_energy() > e0, "the pusher did work on the gas"
    world.set_ball(pusher, velocity=(0.0, 0.0))
    world.step(0.01)
    assert world.ball(pusher)["velocity"] == (0.0, 0.0)


def test_queries_pick_balls_and_cast_rays():
    world = gas("quadtree")
    world.add_segment((0.5, 39.5), (39.5, 39.5))
    p, r = world.positions().astype(np.float64), world.radii().astype(np.float64)
    rng = np.random.default_rng(WORLD_SEED)
    for center, radius in zip(rng.uniform(-2, 42, (50, 2)), rng.uniform(0, 3, 50)):
        expected = world.ball_ids()[np.hypot(*(p - center).T) < r + radius]
        np.testing.assert_array_equal(world.balls_in_circle(center, radius), expected)
    assert world.ball_at(p[7] + 0.1) == 7 and world.ball_at((0.0, 0.0)) is None
    # Along the first row of the lattice (y = 1): from the left wall, the first ball's rim.
    hit = world.cast_ray((0.05, 1.0), (1.0, 0.0))
    assert hit["kind"] == "ball" and hit["index"] == 0
    assert hit["distance"] == pytest.approx(1.0 - 0.4 - 0.05, abs=1e-4)
    assert hit["normal"][0] < 0
    # Between two columns (x = 2.0, midway from 1 to 3, clear of radius 0.4) up: the segment.
    up = world.cast_ray((2.0, 0.05), (0.0, 2.0))
    assert up["kind"] == "segment" and up["index"] == 0 and up["distance"] == pytest.approx(39.45, abs=1e-4)
    assert up["normal"] == pytest.approx((0.0, -1.0))
    assert world.cast_ray((2.0, 0.05), (0.0, 1.0), max_distance=10.0) is None
    down = world.cast_ray((2.0, 20.0), (0.0, -1.0))
    assert (down["kind"], down["index"]) == ("wall", 2) and down["point"] == pytest.approx((2.0, 0.0))
    for bad in (
        lambda: world.cast_ray((0, 0), (0, 0)),
        lambda: world.cast_ray((0, math.nan), (1, 0)),
        lambda: world.cast_ray((0, 0), (1, 0), max_distance=-1.0),
        lambda: world.balls_in_circle((1, 1), -2.0),
    ):
        with pytest.raises(ValueError):
            bad()
