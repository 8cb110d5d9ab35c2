//! The 3-D ball world: the impulse against the textbook formula, conservation, no overlap, no
//! tunnelling, walls, kinematic spheres, removal, bad input, and the same bits for every broad
//! phase.

use glam::{DVec3, Vec3};
use swerve::physics3d::scene::{mixed_pit, sphere_pit};
use swerve::physics3d::{Aabb3, BroadPhaseKind, Sphere, SphereId, World};

const PIT_SEED: u64 = 0x5F3E_9E7A;
const MIXED_SEED: u64 = 0x3D_B0A1;

fn open_world() -> World {
    World::new(None, BroadPhaseKind::SortAndSweep).unwrap()
}

fn unit_box(side: f32) -> Option<Aabb3> {
    Some(Aabb3 { min: Vec3::ZERO, max: Vec3::splat(side) })
}

/// Deepest overlap of any pair, as a fraction of the pair's smaller radius (brute force).
fn deepest_overlap(world: &World) -> f32 {
    let s = world.spheres();
    let mut deepest = 0.0f32;
    for i in 0..s.len() {
        for j in i + 1..s.len() {
            let r = s[i].radius + s[j].radius;
            let depth = r - s[i].position.distance(s[j].position);
            deepest = deepest.max(depth / s[i].radius.min(s[j].radius));
        }
    }
    deepest
}

/// The textbook elastic collision of two spheres (any dimension): each velocity changes along
/// the line of centres by `2 m_other / (m_a + m_b) · ⟨v_a − v_b, x_a − x_b⟩ / |x_a − x_b|²`.
fn textbook_elastic(xa: DVec3, va: DVec3, ma: f64, xb: DVec3, vb: DVec3, mb: f64) -> (DVec3, DVec3) {
    let d = xa - xb;
    let k = (va - vb).dot(d) / d.length_squared();
    (va - d * (2.0 * mb / (ma + mb) * k), vb + d * (2.0 * ma / (ma + mb) * k))
}

#[test]
fn a_glancing_impact_of_unequal_masses_gives_the_textbook_velocities() {
    let mut world = open_world();
    let a = Sphere::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(3.0, 0.5, -0.25), 1.0).with_mass(2.0);
    let b = Sphere::new(Vec3::new(3.0, 0.9, 0.4), Vec3::new(-1.0, 0.0, 0.3), 0.5).with_mass(0.7);
    let (ia, ib) = (world.add_sphere(a).unwrap(), world.add_sphere(b).unwrap());
    // Find the impact time independently (bisection on the gap, f64), then the textbook
    // velocities at that configuration.
    let gap = |t: f64| {
        let pa = a.position.as_dvec3() + a.velocity.as_dvec3() * t;
        let pb = b.position.as_dvec3() + b.velocity.as_dvec3() * t;
        pa.distance(pb) - 1.5
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    assert!(gap(lo) > 0.0 && gap(hi) < 0.0, "the scene must collide within the step");
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = lo;
    let xa = a.position.as_dvec3() + a.velocity.as_dvec3() * t;
    let xb = b.position.as_dvec3() + b.velocity.as_dvec3() * t;
    let (va, vb) = textbook_elastic(xa, a.velocity.as_dvec3(), 2.0, xb, b.velocity.as_dvec3(), 0.7);
    world.step(1.0);
    let stats = world.last_step_stats();
    assert_eq!(stats.time_of_impact_events, 1, "{stats:?}");
    let (after_a, after_b) = (world.sphere(ia).unwrap(), world.sphere(ib).unwrap());
    assert!((after_a.velocity.as_dvec3() - va).length() < 1e-5, "{:?} vs {va:?}", after_a.velocity);
    assert!((after_b.velocity.as_dvec3() - vb).length() < 1e-5, "{:?} vs {vb:?}", after_b.velocity);
    // And the positions: at the impact point, then on with the new velocities.
    let end_a = xa + va * (1.0 - t);
    assert!((after_a.position.as_dvec3() - end_a).length() < 1e-4, "{:?} vs {end_a:?}", after_a.position);
}

#[test]
fn energy_and_momentum_are_conserved_in_open_space() {
    // A cluster flying apart and through itself, no walls: momentum and energy must hold to
    // f64 rounding (the residual), over many impacts and corrections.
    let scene = sphere_pit(400, 0.3, PIT_SEED);
    let mut world = World::new(None, BroadPhaseKind::UniformGrid).unwrap();
    for s in &scene.spheres {
        world.add_sphere(*s).unwrap();
    }
    let (p0, e0) = (world.momentum(), world.kinetic_energy());
    let mut contacts = 0;
    for _ in 0..300 {
        world.step(scene.dt);
        contacts += world.last_step_stats().contacts;
    }
    assert!(contacts > 100, "only {contacts} contacts: the test would prove little");
    let (p1, e1) = (world.momentum(), world.kinetic_energy());
    let scale = world.spheres().iter().map(|s| f64::from(s.mass) * f64::from(s.velocity.length())).sum::<f64>();
    assert!((p1 - p0).length() <= 1e-12 * scale, "momentum drifted by {:?}", p1 - p0);
    assert!((e1 - e0).abs() <= 1e-12 * e0, "energy drifted by {:e} of {e0}", (e1 - e0) / e0);
}

#[test]
fn an_elastic_pit_keeps_its_energy_and_its_spheres_inside_the_box() {
    let scene = sphere_pit(1_000, 0.2, PIT_SEED);
    let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    let e0 = world.kinetic_energy();
    let (mut contacts, mut deepest) = (0, 0.0f32);
    for step in 0..400 {
        world.step(scene.dt);
        contacts += world.last_step_stats().contacts;
        for s in world.spheres() {
            let r = Vec3::splat(s.radius);
            assert!(
                (scene.bounds.min + r).cmple(s.position).all() && s.position.cmple(scene.bounds.max - r).all(),
                "step {step}: a sphere left the box: {s:?}"
            );
        }
        if step % 20 == 0 {
            deepest = deepest.max(deepest_overlap(&world));
        }
    }
    assert!(contacts > 1_000, "only {contacts} contacts");
    let e1 = world.kinetic_energy();
    assert!((e1 - e0).abs() <= 1e-9 * e0, "energy drifted by {:e}", (e1 - e0) / e0);
    // The discrete pass leaves no overlap beyond its ulps margin.
    assert!(deepest < 1e-4, "deepest overlap after a step: {deepest} of a radius");
}

#[test]
fn every_broad_phase_gives_the_same_bits() {
    // Sorted contacts make the step independent of the broad phase's pair order.
    for scene in [sphere_pit(600, 0.25, PIT_SEED), mixed_pit(600, 0.25, MIXED_SEED)] {
        let mut worlds: Vec<World> = BroadPhaseKind::ALL.iter().map(|&k| scene.world(k).unwrap()).collect();
        let mut contacts = 0;
        for step in 0..120 {
            for world in &mut worlds {
                world.step(scene.dt);
            }
            contacts += worlds[0].last_step_stats().contacts;
            let bits = |w: &World| -> Vec<u32> {
                w.spheres()
                    .iter()
                    .flat_map(|s| s.position.to_array().into_iter().chain(s.velocity.to_array()))
                    .map(f32::to_bits)
                    .collect()
            };
            let reference = bits(&worlds[0]);
            for w in &worlds[1..] {
                assert!(bits(w) == reference, "step {step}: {} differs from brute force", w.broad_phase());
            }
        }
        assert!(contacts > 200, "only {contacts} contacts");
    }
}

#[test]
fn a_fast_sphere_does_not_tunnel_through_another() {
    // A bullet crosses 40 m in one step, through a 1 m sphere in its path.
    let run = |continuous: bool| {
        let mut world = open_world();
        world.set_continuous_collision(continuous);
        let bullet = world.add_sphere(Sphere::new(Vec3::new(-20.0, 0.0, 0.0), Vec3::new(40.0, 0.0, 0.0), 0.1)).unwrap();
        let target = world.add_sphere(Sphere::new(Vec3::ZERO, Vec3::ZERO, 1.0)).unwrap();
        world.step(1.0);
        (world.sphere(bullet).unwrap(), world.sphere(target).unwrap())
    };
    let (bullet, target) = run(true);
    assert!(target.velocity.x > 0.0, "the target was not hit: {target:?}");
    assert!(bullet.position.x < target.position.x, "the bullet passed through: {bullet:?}");
    // Without continuous detection it does pass through: the test can tell the difference.
    let (bullet, target) = run(false);
    assert_eq!(target.velocity, Vec3::ZERO);
    assert!(bullet.position.x > 1.0);
}

#[test]
fn a_sphere_bounces_around_a_box_at_constant_speed() {
    let mut world = World::new(unit_box(4.0), BroadPhaseKind::BruteForce).unwrap();
    let v = Vec3::new(37.0, -23.0, 11.0); // crosses the box several times a step
    let id = world.add_sphere(Sphere::new(Vec3::splat(2.0), v, 0.5)).unwrap();
    for _ in 0..200 {
        world.step(0.1);
        let s = world.sphere(id).unwrap();
        assert!(s.position.cmpge(Vec3::splat(0.5)).all() && s.position.cmple(Vec3::splat(3.5)).all(), "{s:?}");
        assert_eq!(s.velocity.abs(), v.abs(), "a wall bounce changed the speed");
    }
    // With restitution 0.5 every bounce halves the normal speed.
    let mut world = World::new(unit_box(4.0), BroadPhaseKind::BruteForce).unwrap();
    let id = world.add_sphere(Sphere::new(Vec3::new(3.0, 2.0, 2.0), Vec3::X, 0.5).with_restitution(0.5)).unwrap();
    world.step(1.0);
    assert_eq!(world.sphere(id).unwrap().velocity, Vec3::new(-0.5, 0.0, 0.0));
}

#[test]
fn restitution_below_one_loses_energy_but_keeps_momentum() {
    let mut world = open_world();
    for k in 0..3 {
        let x = 3.0 * k as f32;
        let s = Sphere::new(Vec3::new(x, 0.1 * k as f32, 0.0), Vec3::new(-2.0 * (k as f32 - 1.0), 0.0, 0.3), 1.0);
        world.add_sphere(s.with_restitution(0.3)).unwrap();
    }
    let (p0, e0) = (world.momentum(), world.kinetic_energy());
    for _ in 0..100 {
        world.step(0.05);
    }
    let (p1, e1) = (world.momentum(), world.kinetic_energy());
    assert!((p1 - p0).length() < 1e-9, "momentum {p0:?} → {p1:?}");
    assert!(e1 < 0.9 * e0, "energy {e0} → {e1}: the impacts were elastic");
}

#[test]
fn a_kinematic_sphere_pushes_without_being_pushed() {
    let mut world = World::new(unit_box(20.0), BroadPhaseKind::Octree).unwrap();
    let piston =
        world.add_sphere(Sphere::kinematic(Vec3::new(2.0, 10.0, 10.0), Vec3::new(3.0, 0.0, 0.0), 1.5)).unwrap();
    let mut others = Vec::new();
    for k in 0..5 {
        let p = Vec3::new(6.0 + 2.5 * k as f32, 10.0 + 0.2 * k as f32, 10.0);
        others.push(world.add_sphere(Sphere::new(p, Vec3::ZERO, 1.0)).unwrap());
    }
    for _ in 0..120 {
        world.step(1.0 / 60.0);
        let p = world.sphere(piston).unwrap();
        assert_eq!(p.velocity, Vec3::new(3.0, 0.0, 0.0));
    }
    let first = world.sphere(others[0]).unwrap();
    assert!(first.position.x > 6.5, "the piston did not push: {first:?}");
    assert!(deepest_overlap(&world) < 1e-4);
}

#[test]
fn a_removed_sphere_leaves_the_others_as_if_it_had_never_been_there() {
    let scene = sphere_pit(300, 0.2, PIT_SEED);
    let mut with = scene.world(BroadPhaseKind::SortAndSweep).unwrap();
    for _ in 0..30 {
        with.step(scene.dt);
    }
    // Remove the sphere in the middle of the order, then compare with a world built from the
    // same state without it.
    let gone = SphereId(150);
    let removed = with.remove_sphere(gone).unwrap();
    assert!(!with.contains_sphere(gone));
    assert!(with.sphere(gone).is_err() && with.remove_sphere(gone).is_err());
    let mut without = World::new(Some(scene.bounds), BroadPhaseKind::SortAndSweep).unwrap();
    for s in with.spheres() {
        without.add_sphere(*s).unwrap();
    }
    assert_eq!(with.sphere(SphereId(151)).unwrap(), with.spheres()[150], "ids are stable");
    assert_ne!(removed, with.spheres()[150]);
    // `without` has no residuals, so compare with compensation off on both.
    with.set_velocity_compensation(false);
    without.set_velocity_compensation(false);
    for _ in 0..60 {
        with.step(scene.dt);
        without.step(scene.dt);
        assert_eq!(with.spheres(), without.spheres());
    }
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let bounds = unit_box(10.0);
    assert!(World::new(Some(Aabb3 { min: Vec3::ZERO, max: Vec3::new(1.0, 0.0, 1.0) }), BroadPhaseKind::Octree).is_err());
    assert!(World::new(Some(Aabb3 { min: Vec3::splat(f32::NAN), max: Vec3::ONE }), BroadPhaseKind::Octree).is_err());
    let mut world = World::new(bounds, BroadPhaseKind::UniformGrid).unwrap();
    let good = Sphere::new(Vec3::splat(5.0), Vec3::X, 1.0);
    let id = world.add_sphere(good).unwrap();
    let bad = [
        Sphere { position: Vec3::new(f32::NAN, 5.0, 5.0), ..good },
        Sphere { velocity: Vec3::new(0.0, f32::INFINITY, 0.0), ..good },
        Sphere { radius: 0.0, ..good },
        Sphere { radius: -1.0, ..good },
        Sphere { mass: 0.0, ..good },
        Sphere { mass: f32::NAN, ..good },
        Sphere { restitution: 1.5, ..good },
        Sphere { restitution: -0.1, ..good },
        Sphere { friction: -0.5, ..good },
        Sphere { friction: f32::NAN, ..good },
        Sphere { rolling_resistance: -0.1, ..good },
        Sphere { rolling_resistance: f32::INFINITY, ..good },
        Sphere { angular_velocity: Vec3::new(0.0, f32::INFINITY, 0.0), ..good },
        Sphere { position: Vec3::new(9.5, 5.0, 5.0), ..good }, // pokes through a wall
    ];
    // A radius whose volume (Sphere::new's mass) overflows would make the sphere kinematic by
    // accident: refused whether or not its mass came from the volume (4.3e12 and above; its
    // cube alone overflows only from 6.9e12).
    let mut open = World::new(None, BroadPhaseKind::BruteForce).unwrap();
    for radius in [4.5e12, 6.0e12, 1e13] {
        assert!(open.add_sphere(Sphere::new(Vec3::ZERO, Vec3::ZERO, radius)).is_err(), "{radius}");
        assert!(open.add_sphere(Sphere::kinematic(Vec3::ZERO, Vec3::ZERO, radius)).is_err(), "{radius}");
    }
    let huge = open.add_sphere(Sphere::new(Vec3::ZERO, Vec3::ZERO, 4.0e12)).unwrap();
    assert!(!open.sphere(huge).unwrap().is_kinematic());
    assert_eq!(open.num_spheres(), 1);
    for sphere in bad {
        let error = world.add_sphere(sphere).unwrap_err();
        assert!(!error.to_string().is_empty());
        assert!(world.set_sphere(id, sphere).is_err());
    }
    assert!(world.set_sphere_position(id, Vec3::new(0.5, 5.0, 5.0)).is_err());
    assert!(world.set_sphere_velocity(id, Vec3::splat(f32::NAN)).is_err());
    assert!(world.set_gravity(Vec3::new(0.0, 0.0, f32::NAN)).is_err());
    assert!(world.set_linear_damping(-1.0).is_err());
    assert!(world.set_solver_iterations(0).is_err() && world.set_solver_iterations(1001).is_err());
    assert_eq!(world.solver_iterations(), World::DEFAULT_SOLVER_ITERATIONS);
    assert!(world.set_substeps(0).is_err() && world.set_substeps(World::MAX_SUBSTEPS + 1).is_err());
    assert_eq!(world.substeps(), 1);
    assert!(world.apply_impulse(id, Vec3::splat(f32::INFINITY)).is_err());
    assert!(world.sphere(SphereId(7)).is_err());
    assert!(world.set_positions(&[Vec3::splat(5.0), Vec3::splat(5.0)]).is_err(), "one sphere, two positions");
    assert!(world.set_positions(&[Vec3::new(0.2, 5.0, 5.0)]).is_err(), "through a wall");
    assert!(world.set_velocities(&[Vec3::new(f32::NAN, 0.0, 0.0)]).is_err());
    assert!("bvh".parse::<BroadPhaseKind>().unwrap_err().to_string().contains("octree"));
    assert_eq!(world.num_spheres(), 1);
    assert_eq!(world.sphere(id).unwrap(), good);
    world.set_positions(&[Vec3::splat(4.0)]).unwrap();
    world.set_velocities(&[Vec3::Y]).unwrap();
    assert_eq!(world.sphere(id).unwrap(), Sphere { position: Vec3::splat(4.0), velocity: Vec3::Y, ..good });
    world.set_sphere(id, good).unwrap();
    // A step of a nonsense length does nothing.
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        world.step(dt);
        assert_eq!(world.sphere(id).unwrap(), good);
    }
}

#[test]
fn gravity_accelerates_a_falling_sphere_and_the_floor_returns_it() {
    let mut world = World::new(unit_box(100.0), BroadPhaseKind::UniformGrid).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    let id = world.add_sphere(Sphere::new(Vec3::new(50.0, 50.0, 50.0), Vec3::ZERO, 1.0)).unwrap();
    let dt = 1.0 / 100.0;
    for _ in 0..100 {
        world.step(dt);
    }
    // Semi-implicit Euler: after n steps v = −g n dt and the drop is g dt² n(n+1)/2.
    let s = world.sphere(id).unwrap();
    assert!((s.velocity.z + 9.81).abs() < 1e-4, "{s:?}");
    assert!((50.0 - s.position.z - 9.81 * 0.0001 * 5050.0).abs() < 1e-3, "{s:?}");
    // An elastic sphere dropped on the floor comes back up to about where it started.
    let mut highest_after_bounce = 0.0f32;
    for k in 0..600 {
        world.step(dt);
        if k > 250 {
            highest_after_bounce = highest_after_bounce.max(world.sphere(id).unwrap().position.z);
        }
    }
    assert!((highest_after_bounce - 50.0).abs() < 0.5, "rebound to {highest_after_bounce}");
}

#[test]
fn a_poured_pile_comes_to_rest_without_sinking_into_itself() {
    // The pit dropped under gravity with restitution 0.3: the resting-contact solver must
    // bring it to rest on the floor. Without it (one impulse per pair) a 2,000-sphere pour
    // still moved at 0.65 m/s on average after 15 s and overlapped by 7 % of a radius.
    let mut scene = sphere_pit(800, 0.1, PIT_SEED);
    for s in &mut scene.spheres {
        s.restitution = 0.3;
    }
    let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    let mut resting = 0;
    for _ in 0..900 {
        world.step(scene.dt);
        resting = world.last_step_stats().resting_contacts;
    }
    let n = world.num_spheres() as f32;
    let mean_speed = world.spheres().iter().map(|s| s.velocity.length()).sum::<f32>() / n;
    assert!(mean_speed < 0.1, "still moving at {mean_speed} m/s on average");
    assert!(resting > world.num_spheres(), "only {resting} resting contacts: nothing rests on anything");
    let deepest = deepest_overlap(&world);
    assert!(deepest < 0.05, "the pile sank into itself: overlap {deepest} of a radius");
    // Every sphere is on the floor or on others: none floats (the top layer is low).
    let top = world.spheres().iter().map(|s| s.position.z).fold(0.0f32, f32::max);
    assert!(top < 0.5 * scene.bounds.max.z, "top of the pile at {top} m in a {} m box", scene.bounds.max.z);
}

/// Angular momentum `Σ m (p × v) + I ω` about the origin (`I = 2/5 m r²`), in `f64`.
fn angular_momentum(world: &World) -> DVec3 {
    world
        .spheres()
        .iter()
        .map(|s| {
            let m = f64::from(s.mass);
            let inertia = 0.4 * m * f64::from(s.radius).powi(2);
            m * s.position.as_dvec3().cross(s.velocity.as_dvec3()) + inertia * s.angular_velocity.as_dvec3()
        })
        .sum()
}

#[test]
fn a_sphere_set_sliding_on_a_rough_floor_ends_up_rolling_at_five_sevenths_of_its_speed() {
    // The textbook result for a solid sphere (I = 2/5 m r²): friction brakes the centre and
    // spins the sphere up until its contact point stops, at v = 5/7 v₀, whatever μ.
    for friction in [0.2f32, 0.6] {
        let mut world = World::new(unit_box(100.0), BroadPhaseKind::UniformGrid).unwrap();
        world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
        let v0 = 4.0f32;
        let start = Sphere::new(Vec3::new(20.0, 50.0, 0.5), Vec3::new(v0, 0.0, 0.0), 0.5).with_friction(friction);
        let id = world.add_sphere(start.with_restitution(0.0)).unwrap();
        for _ in 0..240 {
            world.step(1.0 / 120.0);
        }
        let s = world.sphere(id).unwrap();
        assert!((s.velocity.x - 5.0 / 7.0 * v0).abs() < 0.01 * v0, "μ = {friction}: {:?}", s.velocity);
        assert!(s.velocity.y.abs() < 1e-4 && s.velocity.z.abs() < 0.02, "{:?}", s.velocity);
        // Rolling without slipping: ω = (0, v/r, 0), the contact point at rest.
        let w = s.angular_velocity;
        assert!((w.y - s.velocity.x / 0.5).abs() < 0.02 * w.y, "μ = {friction}: ω = {w:?}, v = {:?}", s.velocity);
        assert!(w.x.abs() < 1e-4 && w.z.abs() < 1e-4, "{w:?}");
    }
    // A frictionless sphere slides on at its speed and never spins.
    let mut world = World::new(unit_box(100.0), BroadPhaseKind::UniformGrid).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    let id = world.add_sphere(Sphere::new(Vec3::new(20.0, 50.0, 0.5), Vec3::new(4.0, 0.0, 0.0), 0.5)).unwrap();
    for _ in 0..240 {
        world.step(1.0 / 120.0);
    }
    let s = world.sphere(id).unwrap();
    assert_eq!((s.velocity.x, s.angular_velocity), (4.0, Vec3::ZERO));
}

#[test]
fn rolling_resistance_slows_a_rolling_sphere_at_five_sevenths_c_g() {
    // A sphere rolling on a floor: the resting contact's rolling row brakes it with a torque of
    // c·N·r, and friction keeps it rolling, so m v' = −F and (2/5) m r ω' = F r − c m g r with
    // v = ω r give v' = −(5/7) c g.
    let (v0, r, g) = (4.0f32, 0.5f32, 9.81f32);
    for c in [0.02f32, 0.05] {
        let mut world = World::new(unit_box(100.0), BroadPhaseKind::UniformGrid).unwrap();
        world.set_gravity(Vec3::new(0.0, 0.0, -g)).unwrap();
        let start = Sphere::new(Vec3::new(10.0, 50.0, r), Vec3::new(v0, 0.0, 0.0), r)
            .with_friction(0.5)
            .with_restitution(0.0)
            .with_rolling_resistance(c);
        // Already rolling: ω = v / r about +y.
        let start = Sphere { angular_velocity: Vec3::new(0.0, v0 / r, 0.0), ..start };
        let id = world.add_sphere(start).unwrap();
        let (dt, steps) = (1.0 / 120.0, 120);
        for _ in 0..steps {
            world.step(dt);
        }
        let s = world.sphere(id).unwrap();
        let expected = v0 - 5.0 / 7.0 * c * g * dt * steps as f32;
        assert!(
            (s.velocity.x - expected).abs() < 0.01 * (v0 - expected),
            "c = {c}: {} m/s, expected {expected}",
            s.velocity.x
        );
        assert!((s.angular_velocity.y * r - s.velocity.x).abs() < 0.01, "c = {c}: no longer rolling: {s:?}");
    }
    // It brakes rolling, not spinning about the contact normal: a sphere resting on the floor
    // and spinning about the vertical keeps spinning.
    let mut world = World::new(unit_box(100.0), BroadPhaseKind::UniformGrid).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -g)).unwrap();
    let top = Sphere::new(Vec3::new(10.0, 50.0, r), Vec3::ZERO, r).with_friction(0.5).with_rolling_resistance(0.05);
    let id = world.add_sphere(Sphere { angular_velocity: Vec3::new(0.0, 0.0, 5.0), ..top }).unwrap();
    for _ in 0..120 {
        world.step(1.0 / 120.0);
    }
    assert!(world.last_step_stats().resting_contacts > 0);
    assert_eq!(world.sphere(id).unwrap().angular_velocity, Vec3::new(0.0, 0.0, 5.0));
    // Without it the rolling sphere keeps its speed.
    let mut world = World::new(unit_box(100.0), BroadPhaseKind::UniformGrid).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -g)).unwrap();
    let start =
        Sphere::new(Vec3::new(10.0, 50.0, r), Vec3::new(v0, 0.0, 0.0), r).with_friction(0.5).with_restitution(0.0);
    let id = world.add_sphere(Sphere { angular_velocity: Vec3::new(0.0, v0 / r, 0.0), ..start }).unwrap();
    for _ in 0..120 {
        world.step(1.0 / 120.0);
    }
    assert!((world.sphere(id).unwrap().velocity.x - v0).abs() < 1e-3);
}

#[test]
fn a_rough_impact_keeps_momentum_and_angular_momentum_and_loses_energy() {
    let mut world = open_world();
    let a = Sphere::new(Vec3::ZERO, Vec3::new(4.0, 0.5, -0.25), 1.0).with_mass(2.0).with_friction(0.5);
    let b = Sphere::new(Vec3::new(3.0, 0.9, 0.4), Vec3::new(-1.0, 0.0, 0.3), 0.5).with_mass(0.7).with_friction(0.8);
    let b = Sphere { angular_velocity: Vec3::new(0.0, 0.0, 6.0), ..b };
    world.add_sphere(a).unwrap();
    world.add_sphere(b).unwrap();
    let (p0, l0, e0) = (world.momentum(), angular_momentum(&world), world.kinetic_energy());
    world.step(1.0);
    assert_eq!(world.last_step_stats().time_of_impact_events, 1);
    let (p1, l1, e1) = (world.momentum(), angular_momentum(&world), world.kinetic_energy());
    assert!((p1 - p0).length() < 1e-5, "momentum {p0:?} → {p1:?}");
    assert!((l1 - l0).length() < 1e-4 * l0.length(), "angular momentum {l0:?} → {l1:?}");
    assert!(e1 < e0 - 1e-3, "friction must dissipate: {e0} → {e1}");
    let spun = world.spheres()[0].angular_velocity;
    assert!(spun.length() > 0.1, "the rough impact did not spin the first sphere: {spun:?}");
}

#[test]
fn a_rough_sphere_bouncing_off_a_wall_keeps_five_sevenths_of_its_sliding_speed() {
    // Normal impulse 2·m·3 (e = 1) allows far more friction than the 4m/7 that stops a 2 m/s
    // slide: the contact point stops, the centre keeps 5/7 of its tangential speed.
    let mut world = World::new(unit_box(10.0), BroadPhaseKind::BruteForce).unwrap();
    let id = world
        .add_sphere(Sphere::new(Vec3::new(1.2, 5.0, 5.0), Vec3::new(-3.0, 2.0, 0.0), 1.0).with_friction(1.0))
        .unwrap();
    world.step(0.1);
    let s = world.sphere(id).unwrap();
    assert!((s.velocity.x - 3.0).abs() < 1e-6, "{:?}", s.velocity);
    assert!((s.velocity.y - 2.0 * 5.0 / 7.0).abs() < 1e-6, "{:?}", s.velocity);
    // The contact point (at −r·x̂ from the centre) no longer slides: v + ω × (−r x̂) has no y.
    let point = s.velocity + s.angular_velocity.cross(Vec3::new(-1.0, 0.0, 0.0));
    assert!(point.y.abs() < 1e-6 && point.z.abs() < 1e-6, "contact point still slides: {point:?}");
}

#[test]
fn a_rough_pour_comes_to_rest_sooner_than_a_frictionless_one() {
    let mean_speed_after = |friction: f32, steps: usize| {
        let mut scene = sphere_pit(800, 0.1, PIT_SEED);
        for s in &mut scene.spheres {
            (s.restitution, s.friction) = (0.3, friction);
        }
        let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
        world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
        for _ in 0..steps {
            world.step(scene.dt);
        }
        let n = world.num_spheres() as f32;
        let speed = world.spheres().iter().map(|s| s.velocity.length()).sum::<f32>() / n;
        (speed, deepest_overlap(&world))
    };
    let (rough, rough_overlap) = mean_speed_after(0.5, 600);
    let (smooth, _) = mean_speed_after(0.0, 600);
    assert!(rough < 0.01, "a rough pour still moves at {rough} m/s after 10 s");
    assert!(rough < 0.5 * smooth, "friction did not help: {rough} against {smooth} m/s");
    assert!(rough_overlap < 0.05, "overlap {rough_overlap} of a radius");
}

/// A deep frictionless column poured into the corner of a box 12 m wide: `layers` layers of
/// 4 × 4 unit spheres 2.1 m apart, 2.3 m between layers, jittered by up to 0.1 m (seeded). The
/// column spans 8.5 m, so it collapses sideways into the free 3.5 m as it lands.
fn poured_column(layers: usize) -> (World, f32) {
    let mut rng = swerve::physics::scene::SplitMix64(PIT_SEED);
    let top = 4.0 + (layers + 1) as f32 * 2.3;
    let bounds = Aabb3 { min: Vec3::ZERO, max: Vec3::new(12.0, 12.0, top) };
    let mut world = World::new(Some(bounds), BroadPhaseKind::UniformGrid).unwrap();
    for k in 0..16 * layers {
        let (i, layer) = (k % 16, k / 16);
        let jitter = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 0.1;
        let p = Vec3::new(1.2 + (i % 4) as f32 * 2.1, 1.2 + (i / 4) as f32 * 2.1, 2.0 + layer as f32 * 2.3) + jitter;
        world.add_sphere(Sphere::new(p, Vec3::ZERO, 1.0).with_restitution(0.3)).unwrap();
    }
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    (world, 1.0 / 60.0)
}

#[test]
fn substeps_hold_a_deep_collapsing_pile_better_than_one_step() {
    // Measured: one step of 1/60 s left overlaps of 9.8 % of a radius and a mean speed of
    // 0.21 m/s 10–15 s after the pour; four substeps 1.0 % (the slop) and 4 mm/s.
    let run = |substeps: usize| {
        let (mut world, dt) = poured_column(24);
        world.set_substeps(substeps).unwrap();
        let mut deepest = 0.0f32;
        for step in 0..900 {
            world.step(dt);
            if step >= 600 {
                deepest = deepest.max(deepest_overlap(&world));
            }
        }
        let n = world.num_spheres() as f32;
        (deepest, world.spheres().iter().map(|s| s.velocity.length()).sum::<f32>() / n)
    };
    let (one, one_speed) = run(1);
    let (four, four_speed) = run(4);
    assert!(four < 0.015, "four substeps: overlap {four} of a radius (one substep: {one})");
    assert!(four_speed < 0.02 && four_speed < 0.2 * one_speed, "mean speed {four_speed} against {one_speed} m/s");
}
