//! Contact events: each step's contacts account for every velocity change of that step (the
//! impulses are the whole story), are the same for every broad phase, and single collisions
//! report their analytic time of impact, partner, normal and impulse.

use glam::Vec2;
use swerve::geom::Aabb;
use swerve::physics::scene::SplitMix64;
use swerve::physics::{Ball, BallId, BoxWall, BroadPhaseKind, Collider, Contact, World};

const CONTACT_SEED: u64 = 0x0003_C047;

/// Balls of mixed sizes, masses and restitutions in a 60 m box with a pillar and a slanted
/// wall, fast enough that continuous detection, the discrete pass, segments and the box walls
/// all see collisions.
fn arena(kind: BroadPhaseKind) -> World {
    let mut rng = SplitMix64(CONTACT_SEED);
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::splat(60.0) }), kind);
    w.add_polygon(&[Vec2::new(28.0, 28.0), Vec2::new(32.0, 28.0), Vec2::new(32.0, 32.0), Vec2::new(28.0, 32.0)])
        .unwrap();
    w.add_segment(Vec2::new(5.0, 50.0), Vec2::new(20.0, 56.0)).unwrap();
    for i in 0..400 {
        let p = Vec2::new(2.0 + (i % 20) as f32 * 2.9, 2.0 + (i / 20) as f32 * 2.9);
        if (p - Vec2::splat(30.0)).abs().max_element() < 3.5 || (p.y > 47.0 && p.x < 22.0) {
            continue;
        }
        let speed = if i % 37 == 0 { 150.0 } else { 6.0 };
        let v = Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)) * rng.range(0.0, speed);
        let ball = Ball {
            mass: rng.range(0.2, 5.0),
            restitution: rng.range(0.3, 1.0),
            ..Ball::new(p, v, rng.range(0.4, 1.0))
        };
        w.add_ball(ball).unwrap();
    }
    w.set_record_contacts(true);
    w
}

/// The momentum change each ball's contacts add up to, and the sum of their sizes (each
/// impulse is an `f32`, so the sum is good to a few ulps of that).
fn impulses_by_ball(w: &World, contacts: &[Contact]) -> Vec<(Vec2, f32)> {
    let index = |id: BallId| w.ball_ids().iter().position(|&b| b == id).unwrap();
    let mut sum = vec![(Vec2::ZERO, 0.0); w.num_balls()];
    for c in contacts {
        let size = c.impulse.length();
        let first = &mut sum[index(c.ball)];
        *first = (first.0 + c.impulse, first.1 + size);
        if let Collider::Ball(other) = c.partner {
            let second = &mut sum[index(other)];
            *second = (second.0 - c.impulse, second.1 + size);
        }
    }
    sum
}

#[test]
fn contacts_account_for_every_velocity_change() {
    let (balls, segments, walls, early) = account_for_velocity_changes(Vec2::ZERO, 0.0, 1);
    assert!(balls > 500 && segments > 10 && walls > 50 && early > 50, "{balls} {segments} {walls} {early}");
}

/// With gravity the balls fall and pile up on the floor, the pillar and the slanted wall:
/// what changed each ball's momentum beyond `m·g·dt` is its contacts, the resting ones (solved
/// before the move, logged at time 0) included.
#[test]
fn with_gravity_contacts_account_for_every_change_but_the_weight() {
    let (balls, segments, walls, early) = account_for_velocity_changes(Vec2::new(0.0, -9.81), 0.0, 1);
    assert!(balls > 500 && segments > 10 && walls > 50 && early > 500, "{balls} {segments} {walls} {early}");
}

/// With friction the contacts' impulses have a tangential part, which the log carries too:
/// impacts, wall bounces and resting contacts, with and without gravity.
#[test]
fn with_friction_contacts_account_for_every_change() {
    let (balls, segments, walls, early) = account_for_velocity_changes(Vec2::ZERO, 0.6, 1);
    assert!(balls > 500 && segments > 10 && walls > 50 && early > 50, "{balls} {segments} {walls} {early}");
    let (balls, segments, walls, early) = account_for_velocity_changes(Vec2::new(0.0, -9.81), 0.6, 1);
    assert!(balls > 500 && segments > 10 && walls > 50 && early > 500, "{balls} {segments} {walls} {early}");
}

/// With substeps the step's contacts cover all of them: still one per pair, and still every
/// velocity change.
#[test]
fn with_substeps_contacts_account_for_every_change() {
    let (balls, segments, walls, early) = account_for_velocity_changes(Vec2::new(0.0, -9.81), 0.6, 3);
    assert!(balls > 500 && segments > 10 && walls > 50 && early > 500, "{balls} {segments} {walls} {early}");
}

/// Runs the arena with `gravity`, every ball's friction coefficient `friction` and `substeps`
/// substeps for 300 steps, checking each step's contacts against the momentum changes;
/// returns the contacts with balls, segments and walls, and how many were logged before the
/// step's end.
fn account_for_velocity_changes(gravity: Vec2, friction: f32, substeps: usize) -> (usize, usize, usize, usize) {
    let dt = 1.0 / 60.0;
    let mut w = arena(BroadPhaseKind::UniformGrid);
    w.set_gravity(gravity).unwrap();
    w.set_substeps(substeps).unwrap();
    for id in w.ball_ids().to_vec() {
        let ball = w.ball(id).unwrap();
        w.set_ball(id, ball.with_friction(friction)).unwrap();
    }
    let (mut balls, mut segments, mut walls, mut early) = (0, 0, 0, 0);
    for step in 0..300 {
        let before = w.balls().to_vec();
        w.step(dt);
        let contacts = w.contacts().to_vec();
        for c in &contacts {
            assert!((c.normal.length() - 1.0).abs() < 1e-5, "step {step}: normal {:?} not unit", c.normal);
            assert!((0.0..=dt).contains(&c.time), "step {step}: time {} outside the step", c.time);
            match c.partner {
                Collider::Ball(other) => {
                    assert!(c.ball < other, "the first-added ball leads");
                    balls += 1;
                }
                Collider::Segment(s) => {
                    assert!(s < w.segments().len());
                    segments += 1;
                }
                Collider::Wall(_) => walls += 1,
            }
            early += usize::from(c.time < dt);
        }
        assert!(
            contacts.windows(2).all(|p| (p[0].ball, p[0].partner) < (p[1].ball, p[1].partner)),
            "one per pair, ordered"
        );
        if friction > 0.0 && step == 299 {
            let spinning = w.balls().iter().filter(|b| b.angular_velocity != 0.0).count();
            assert!(spinning > 100, "friction must spin the balls ({spinning} spin)");
        }
        let sums = impulses_by_ball(&w, &contacts);
        for (i, (b0, b1)) in before.iter().zip(w.balls()).enumerate() {
            let weight = gravity * (b0.mass * dt);
            let change = (b1.velocity - b0.velocity) * b0.mass - weight;
            let (sum, sizes) = sums[i];
            let scale = b0.mass * (b0.velocity.length() + b1.velocity.length()) + weight.length() + sizes + 1e-6;
            assert!(
                (change - sum).length() <= 1e-5 * scale,
                "step {step}, ball {i}: momentum changed by {change} beyond its weight, but its contacts say {sum}"
            );
        }
    }
    (balls, segments, walls, early)
}

#[test]
fn contacts_are_the_same_for_every_broad_phase() {
    let run = |kind| {
        let mut w = arena(kind);
        let mut all = Vec::new();
        for _ in 0..60 {
            w.step(1.0 / 60.0);
            all.extend_from_slice(w.contacts());
        }
        all
    };
    let reference = run(BroadPhaseKind::BruteForce);
    assert!(reference.len() > 100);
    for kind in BroadPhaseKind::ALL {
        assert!(run(kind) == reference, "{kind}: contacts differ from brute force");
    }
}

#[test]
fn single_collisions_report_time_partner_normal_and_impulse() {
    let dt = 0.1;
    // Head-on, fast (continuous detection): gap 10 m closed at 200 m/s → impact at t = 0.05 s.
    let mut w = World::new(None, BroadPhaseKind::SortAndSweep);
    w.set_record_contacts(true);
    let a = w.add_ball(Ball { mass: 2.0, ..Ball::new(Vec2::new(-6.0, 0.0), Vec2::new(100.0, 0.0), 0.5) }).unwrap();
    let b = w.add_ball(Ball { mass: 2.0, ..Ball::new(Vec2::new(6.0, 0.0), Vec2::new(-100.0, 0.0), 1.5) }).unwrap();
    w.step(dt);
    let c = w.contacts();
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!((c[0].ball, c[0].partner), (a, Collider::Ball(b)));
    assert!((c[0].time - 0.05).abs() < 1e-6, "time {}", c[0].time);
    assert!((c[0].normal - Vec2::X).length() < 1e-6);
    // Equal masses, e = 1: the velocities swap; `a` lost 2 kg × 200 m/s along x.
    assert!((c[0].impulse - Vec2::new(-400.0, 0.0)).length() < 1e-3, "impulse {}", c[0].impulse);

    // A box wall: 1 m from the wall (radius 0.5 → 0.5 m of travel) at 10 m/s → t = 0.05 s.
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::splat(10.0) }), BroadPhaseKind::Quadtree);
    w.set_record_contacts(true);
    let ball = w.add_ball(Ball { mass: 3.0, ..Ball::new(Vec2::new(5.0, 9.0), Vec2::new(0.0, 10.0), 0.5) }).unwrap();
    w.step(dt);
    let c = w.contacts();
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!((c[0].ball, c[0].partner), (ball, Collider::Wall(BoxWall::MaxY)));
    assert!((c[0].time - 0.05).abs() < 1e-5, "time {}", c[0].time);
    assert_eq!(c[0].normal, Vec2::Y);
    assert!((c[0].impulse - Vec2::new(0.0, -60.0)).length() < 1e-4, "impulse {}", c[0].impulse);

    // A segment (always continuous): 0.05 m of travel at 1 m/s → t = 0.05 s.
    let mut w = World::new(None, BroadPhaseKind::DynamicAabbTree);
    w.set_record_contacts(true);
    w.add_segment(Vec2::new(1.0, -5.0), Vec2::new(1.0, 5.0)).unwrap();
    let ball = Ball::new(Vec2::new(0.45, 0.0), Vec2::new(1.0, 0.0), 0.5);
    w.add_ball(ball).unwrap();
    w.step(dt);
    let c = w.contacts();
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].partner, Collider::Segment(0));
    assert!((c[0].time - 0.05).abs() < 1e-5, "time {}", c[0].time);
    assert!((c[0].normal - Vec2::X).length() < 1e-6);
    assert!((c[0].impulse - Vec2::new(-2.0 * ball.mass, 0.0)).length() < 1e-5, "impulse {}", c[0].impulse);

    // Slow balls overlapping after the move (the discrete pass): found at the step's end.
    let mut w = World::new(None, BroadPhaseKind::HierarchicalGrid);
    w.set_record_contacts(true);
    w.add_ball(Ball::new(Vec2::new(0.0, 0.0), Vec2::new(0.5, 0.0), 0.5)).unwrap();
    w.add_ball(Ball::new(Vec2::new(1.02, 0.0), Vec2::ZERO, 0.5)).unwrap();
    w.step(dt);
    let c = w.contacts();
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].time, dt);
    assert!(c[0].impulse.x < 0.0, "the moving ball is slowed: {}", c[0].impulse);

    // Not recording: nothing, and switching it off clears the last step's.
    w.set_record_contacts(false);
    assert!(w.contacts().is_empty() && !w.records_contacts());
    w.step(dt);
    assert!(w.contacts().is_empty());
}
