//! Contact events in the 3-D ball world: each step's contacts account for every velocity
//! change of that step (the impulses are the whole story), with gravity, friction, substeps
//! and static triangles; they are the same for every broad phase; and single collisions report
//! their analytic time of impact, partner, normal and impulse.

use glam::Vec3;
use swerve::physics::scene::SplitMix64;
use swerve::physics3d::{Aabb3, BoxWall, BroadPhaseKind, Collider, Contact, Sphere, SphereId, World};

const CONTACT_SEED: u64 = 0x3D_C047;

/// Spheres of mixed sizes, masses and restitutions in a 30 m box with a ramp across one side
/// and a tetrahedron in the middle, fast enough that continuous detection, the position
/// passes, the triangles and the box walls all see collisions.
fn arena(kind: BroadPhaseKind) -> World {
    let mut rng = SplitMix64(CONTACT_SEED);
    let mut w = World::new(Some(Aabb3 { min: Vec3::ZERO, max: Vec3::splat(30.0) }), kind).unwrap();
    // The ramp: the plane z = 6 − 0.75 x over x < 8, as two triangles.
    let ramp =
        [Vec3::new(0.0, 0.0, 6.0), Vec3::new(8.0, 0.0, 0.0), Vec3::new(8.0, 30.0, 0.0), Vec3::new(0.0, 30.0, 6.0)];
    w.add_mesh(&ramp, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    let tetrahedron = [
        Vec3::new(12.0, 12.0, 12.0),
        Vec3::new(18.0, 12.0, 12.0),
        Vec3::new(15.0, 18.0, 12.0),
        Vec3::new(15.0, 14.0, 18.0),
    ];
    w.add_mesh(&tetrahedron, &[[0, 1, 2], [0, 1, 3], [1, 2, 3], [0, 2, 3]]).unwrap();
    for i in 0..343 {
        let p = Vec3::new(2.0 + (i % 7) as f32 * 3.7, 2.0 + (i / 7 % 7) as f32 * 3.7, 2.0 + (i / 49) as f32 * 3.7);
        if (p - Vec3::splat(15.0)).abs().max_element() < 4.5 || (p.x < 9.0 && p.z < 8.0) {
            continue;
        }
        let speed = if i % 37 == 0 { 150.0 } else { 6.0 };
        let direction = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)).normalize_or_zero();
        let sphere = Sphere::new(p, direction * rng.range(0.0, speed), rng.range(0.4, 1.0))
            .with_mass(rng.range(0.2, 5.0))
            .with_restitution(rng.range(0.3, 1.0));
        w.add_sphere(sphere).unwrap();
    }
    w.set_record_contacts(true);
    w
}

/// The momentum change each sphere's contacts add up to, and the sum of their sizes (each
/// impulse is an `f32`, so the sum is good to a few ulps of that).
fn impulses_by_sphere(w: &World, contacts: &[Contact]) -> Vec<(Vec3, f32)> {
    let index = |id: SphereId| w.sphere_ids().iter().position(|&s| s == id).unwrap();
    let mut sum = vec![(Vec3::ZERO, 0.0); w.num_spheres()];
    for c in contacts {
        let size = c.impulse.length();
        let first = &mut sum[index(c.sphere)];
        *first = (first.0 + c.impulse, first.1 + size);
        if let Collider::Sphere(other) = c.partner {
            let second = &mut sum[index(other)];
            *second = (second.0 - c.impulse, second.1 + size);
        }
    }
    sum
}

/// How many contacts a run saw with spheres, triangles and walls, and how many were logged
/// before the step's end.
#[derive(Debug, Default)]
struct Seen {
    spheres: usize,
    triangles: usize,
    walls: usize,
    early: usize,
    /// Logged after the first substep's end.
    later_substeps: usize,
}

#[test]
fn contacts_account_for_every_velocity_change() {
    let seen = account_for_velocity_changes(Vec3::ZERO, 0.0, 1);
    assert!(seen.spheres > 300 && seen.triangles > 20 && seen.walls > 100 && seen.early > 100, "{seen:?}");
}

/// With gravity the spheres fall and pile up on the floor, the ramp and the tetrahedron: what
/// changed each sphere's momentum beyond `m·g·dt` is its contacts, the resting ones (solved
/// before the move, logged at time 0) included.
#[test]
fn with_gravity_contacts_account_for_every_change_but_the_weight() {
    let seen = account_for_velocity_changes(Vec3::new(0.0, 0.0, -9.81), 0.0, 1);
    assert!(seen.spheres > 300 && seen.triangles > 100 && seen.walls > 100 && seen.early > 1000, "{seen:?}");
}

/// With friction the impulses have a tangential part, which the contacts carry too: impacts,
/// wall bounces and resting contacts, with and without gravity.
#[test]
fn with_friction_contacts_account_for_every_change() {
    let seen = account_for_velocity_changes(Vec3::ZERO, 0.6, 1);
    assert!(seen.spheres > 300 && seen.triangles > 20 && seen.walls > 100 && seen.early > 100, "{seen:?}");
    let seen = account_for_velocity_changes(Vec3::new(0.0, 0.0, -9.81), 0.6, 1);
    assert!(seen.spheres > 300 && seen.triangles > 100 && seen.walls > 100 && seen.early > 1000, "{seen:?}");
}

/// With substeps the step's contacts cover all of them: still one per pair, and still every
/// velocity change.
#[test]
fn with_substeps_contacts_account_for_every_change() {
    let seen = account_for_velocity_changes(Vec3::new(0.0, 0.0, -9.81), 0.6, 3);
    assert!(seen.spheres > 300 && seen.triangles > 100 && seen.walls > 100 && seen.early > 1000, "{seen:?}");
    // Times count from the step's start, not the substep's.
    assert!(seen.later_substeps > 1000, "{seen:?}");
}

/// Runs the arena with `gravity`, every sphere's friction coefficient `friction` and
/// `substeps` substeps for 240 steps, checking each step's contacts against the momentum
/// changes.
fn account_for_velocity_changes(gravity: Vec3, friction: f32, substeps: usize) -> Seen {
    let dt = 1.0 / 60.0;
    let mut w = arena(BroadPhaseKind::UniformGrid);
    w.set_gravity(gravity).unwrap();
    w.set_substeps(substeps).unwrap();
    for id in w.sphere_ids().to_vec() {
        let sphere = w.sphere(id).unwrap();
        w.set_sphere(id, sphere.with_friction(friction)).unwrap();
    }
    let mut seen = Seen::default();
    for step in 0..240 {
        let before = w.spheres().to_vec();
        w.step(dt);
        let contacts = w.contacts().to_vec();
        for c in &contacts {
            assert!((c.normal.length() - 1.0).abs() < 1e-5, "step {step}: normal {:?} not unit", c.normal);
            assert!((0.0..=dt).contains(&c.time), "step {step}: time {} outside the step", c.time);
            match c.partner {
                Collider::Sphere(other) => {
                    assert!(c.sphere < other, "the first-added sphere leads");
                    seen.spheres += 1;
                }
                Collider::Triangle(t) => {
                    assert!(t < w.triangles().len());
                    seen.triangles += 1;
                }
                Collider::Wall(_) => seen.walls += 1,
            }
            seen.early += usize::from(c.time < dt);
            seen.later_substeps += usize::from(c.time > 1.01 * dt / substeps as f32);
        }
        assert!(
            contacts.windows(2).all(|p| (p[0].sphere, p[0].partner) < (p[1].sphere, p[1].partner)),
            "one per pair, ordered"
        );
        if friction > 0.0 && step == 239 {
            let spinning = w.spheres().iter().filter(|s| s.angular_velocity != Vec3::ZERO).count();
            assert!(spinning > 100, "friction must spin the spheres ({spinning} spin)");
        }
        let sums = impulses_by_sphere(&w, &contacts);
        for (i, (s0, s1)) in before.iter().zip(w.spheres()).enumerate() {
            let weight = gravity * (s0.mass * dt);
            let change = (s1.velocity - s0.velocity) * s0.mass - weight;
            let (sum, sizes) = sums[i];
            let scale = s0.mass * (s0.velocity.length() + s1.velocity.length()) + weight.length() + sizes + 1e-6;
            assert!(
                (change - sum).length() <= 1e-5 * scale,
                "step {step}, sphere {i}: momentum changed by {change} beyond its weight, but its contacts say {sum}"
            );
        }
    }
    seen
}

#[test]
fn contacts_are_the_same_for_every_broad_phase() {
    let run = |kind| {
        let mut w = arena(kind);
        w.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
        let mut all = Vec::new();
        for _ in 0..60 {
            w.step(1.0 / 60.0);
            all.extend_from_slice(w.contacts());
        }
        all
    };
    let reference = run(BroadPhaseKind::BruteForce);
    assert!(reference.len() > 300, "{}", reference.len());
    for kind in BroadPhaseKind::ALL {
        assert!(run(kind) == reference, "{kind}: contacts differ from brute force");
    }
}

/// Recording reads the step; it changes nothing in it.
#[test]
fn recording_changes_no_bit() {
    let run = |record: bool| {
        let mut w = arena(BroadPhaseKind::UniformGrid);
        w.set_record_contacts(record);
        w.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
        for id in w.sphere_ids().to_vec() {
            let sphere = w.sphere(id).unwrap();
            w.set_sphere(id, sphere.with_friction(0.4).with_rolling_resistance(0.05)).unwrap();
        }
        for _ in 0..120 {
            w.step(1.0 / 60.0);
        }
        assert_eq!(w.contacts().is_empty(), !record);
        w.spheres().to_vec()
    };
    assert!(run(true) == run(false));
}

/// The one contact of a world's step.
fn only_contact(w: &World) -> Contact {
    let c = w.contacts();
    assert_eq!(c.len(), 1, "{c:?}");
    c[0]
}

#[test]
fn single_collisions_report_time_partner_normal_and_impulse() {
    let dt = 0.1;
    // Head-on, fast (continuous detection): gap 10 m closed at 200 m/s → impact at t = 0.05 s.
    let mut w = World::new(None, BroadPhaseKind::SortAndSweep).unwrap();
    w.set_record_contacts(true);
    let a = w.add_sphere(Sphere::new(Vec3::new(-6.0, 0.0, 0.0), Vec3::new(100.0, 0.0, 0.0), 0.5).with_mass(2.0));
    let b = w.add_sphere(Sphere::new(Vec3::new(6.0, 0.0, 0.0), Vec3::new(-100.0, 0.0, 0.0), 1.5).with_mass(2.0));
    w.step(dt);
    let c = only_contact(&w);
    assert_eq!((c.sphere, c.partner), (a.unwrap(), Collider::Sphere(b.unwrap())));
    assert!((c.time - 0.05).abs() < 1e-6, "time {}", c.time);
    assert!((c.normal - Vec3::X).length() < 1e-6);
    // Equal masses, e = 1: the velocities swap; `a` lost 2 kg × 200 m/s along x.
    assert!((c.impulse - Vec3::new(-400.0, 0.0, 0.0)).length() < 1e-3, "impulse {}", c.impulse);

    // A box wall: 1 m from the top (radius 0.5 → 0.5 m of travel) at 10 m/s → t = 0.05 s.
    let mut w = World::new(Some(Aabb3 { min: Vec3::ZERO, max: Vec3::splat(10.0) }), BroadPhaseKind::Octree).unwrap();
    w.set_record_contacts(true);
    let sphere = w.add_sphere(Sphere::new(Vec3::new(5.0, 5.0, 9.0), Vec3::new(0.0, 0.0, 10.0), 0.5).with_mass(3.0));
    w.step(dt);
    let c = only_contact(&w);
    assert_eq!((c.sphere, c.partner), (sphere.unwrap(), Collider::Wall(BoxWall::MaxZ)));
    assert!((c.time - 0.05).abs() < 1e-5, "time {}", c.time);
    assert_eq!(c.normal, Vec3::Z);
    assert!((c.impulse - Vec3::new(0.0, 0.0, -60.0)).length() < 1e-4, "impulse {}", c.impulse);

    // A triangle in the plane x = 1, met at its time of impact: 0.5 m of travel at 10 m/s.
    let mut w = World::new(None, BroadPhaseKind::HierarchicalGrid).unwrap();
    w.set_record_contacts(true);
    w.add_triangle(Vec3::new(1.0, -5.0, -5.0), Vec3::new(1.0, 5.0, -5.0), Vec3::new(1.0, 0.0, 5.0)).unwrap();
    let sphere = Sphere::new(Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), 0.5);
    w.add_sphere(sphere).unwrap();
    w.step(dt);
    let c = only_contact(&w);
    assert_eq!(c.partner, Collider::Triangle(0));
    assert!((c.time - 0.05).abs() < 1e-5, "time {}", c.time);
    assert!((c.normal - Vec3::X).length() < 1e-6);
    assert!((c.impulse - Vec3::new(-20.0 * sphere.mass, 0.0, 0.0)).length() < 1e-3, "impulse {}", c.impulse);

    // Slow spheres overlapping after the move (the position passes): found at the step's end.
    let mut w = World::new(None, BroadPhaseKind::BruteForce).unwrap();
    w.set_record_contacts(true);
    w.add_sphere(Sphere::new(Vec3::ZERO, Vec3::new(0.5, 0.0, 0.0), 0.5)).unwrap();
    w.add_sphere(Sphere::new(Vec3::new(1.02, 0.0, 0.0), Vec3::ZERO, 0.5)).unwrap();
    w.step(dt);
    let c = only_contact(&w);
    assert_eq!(c.time, dt);
    assert!(c.impulse.x < 0.0, "the moving sphere is slowed: {}", c.impulse);

    // A kinematic sphere (added first) pushing a free one: the contact's impulse is the one on
    // the kinematic sphere, the opposite of what the free sphere gained.
    let mut w = World::new(None, BroadPhaseKind::UniformGrid).unwrap();
    w.set_record_contacts(true);
    w.add_sphere(Sphere::kinematic(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), 0.5)).unwrap();
    let free = w.add_sphere(Sphere::new(Vec3::new(1.1, 0.0, 0.0), Vec3::ZERO, 0.5).with_mass(4.0)).unwrap();
    w.step(dt);
    let c = only_contact(&w);
    let gained = w.sphere(free).unwrap().velocity * 4.0;
    assert!(gained.x > 1.0, "the free sphere is pushed: {gained}");
    assert!((c.impulse + gained).length() < 1e-4, "impulse {} against {gained}", c.impulse);

    // Not recording: nothing, and switching it off clears the last step's.
    w.set_record_contacts(false);
    assert!(w.contacts().is_empty() && !w.records_contacts());
    w.step(dt);
    assert!(w.contacts().is_empty());
}

/// A sphere resting on the floor under gravity: a resting contact at time 0 whose impulse
/// carries its weight for the step, and one resting on a triangle carries it along the face's
/// normal.
#[test]
fn resting_contacts_carry_the_weight() {
    let (dt, g, mass) = (1.0 / 60.0, 9.81, 2.5);
    let mut w =
        World::new(Some(Aabb3 { min: Vec3::ZERO, max: Vec3::splat(10.0) }), BroadPhaseKind::UniformGrid).unwrap();
    w.set_gravity(Vec3::new(0.0, 0.0, -g)).unwrap();
    w.set_record_contacts(true);
    // A floor triangle at z = 2 under the second sphere, clear of the first.
    w.add_triangle(Vec3::new(6.0, 0.5, 2.0), Vec3::new(9.5, 0.5, 2.0), Vec3::new(9.5, 9.5, 2.0)).unwrap();
    let on_floor = w.add_sphere(Sphere::new(Vec3::new(2.0, 5.0, 0.5), Vec3::ZERO, 0.5).with_mass(mass)).unwrap();
    let on_triangle = w.add_sphere(Sphere::new(Vec3::new(8.5, 3.0, 2.5), Vec3::ZERO, 0.5).with_mass(mass)).unwrap();
    for _ in 0..30 {
        w.step(dt);
    }
    let contacts = w.contacts();
    assert_eq!(contacts.len(), 2, "{contacts:?}");
    let weight = Vec3::new(0.0, 0.0, mass * g * dt);
    for (c, (sphere, partner)) in
        contacts.iter().zip([(on_floor, Collider::Wall(BoxWall::MinZ)), (on_triangle, Collider::Triangle(0))])
    {
        assert_eq!((c.sphere, c.partner, c.time), (sphere, partner, 0.0));
        assert!((c.normal + Vec3::Z).length() < 1e-6, "normal {}", c.normal);
        assert!((c.impulse - weight).length() < 1e-3 * weight.length(), "impulse {} against {weight}", c.impulse);
    }
}
