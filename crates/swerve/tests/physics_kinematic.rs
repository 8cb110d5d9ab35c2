//! Kinematic balls (infinite mass): they keep their path bit for bit, push the balls they meet
//! out of the way like a moving wall, pass through walls, segments and each other, and stay
//! out of the momentum and energy sums.

use glam::Vec2;
use swerve::geom::Aabb;
use swerve::physics::scene::{ball_pit, SplitMix64};
use swerve::physics::{Ball, BroadPhaseKind, Collider, World};

const KINEMATIC_SEED: u64 = 0x0003_7E11;

/// A 10 m pusher crossing a 1,600-ball pit (and leaving it through the far wall): its path is
/// the lone pusher's, bit for bit; no ball is left inside it; every broad phase agrees.
#[test]
fn a_pusher_keeps_its_path_and_clears_its_way() {
    let scene = ball_pit(1600, KINEMATIC_SEED);
    let side = scene.bounds.max.x;
    let pusher = Ball::kinematic(Vec2::new(6.0, side * 0.5), Vec2::new(40.0, 3.0), 5.0);
    let mut lone = World::new(None, BroadPhaseKind::BruteForce);
    let lone_id = lone.add_ball(pusher).unwrap();
    let mut reference: Option<Vec<u32>> = None;
    for kind in BroadPhaseKind::ALL {
        let mut w = World::new(Some(scene.bounds), kind);
        let id = w.add_ball(pusher).unwrap();
        for b in &scene.balls {
            if b.position.distance(pusher.position) > pusher.radius + b.radius {
                w.add_ball(*b).unwrap();
            }
        }
        w.set_record_contacts(true);
        let (mut pushed, mut worst) = (0, 0.0f32);
        let steps = (1.3 * side / 40.0 / scene.dt) as usize;
        for step in 0..steps {
            w.step(scene.dt);
            if kind == BroadPhaseKind::BruteForce {
                lone.step(scene.dt);
                let (p, q) = (w.ball(id).unwrap(), lone.ball(lone_id).unwrap());
                assert_eq!(
                    p.position.to_array().map(f32::to_bits),
                    q.position.to_array().map(f32::to_bits),
                    "step {step}"
                );
                assert_eq!(p.velocity, pusher.velocity, "step {step}: the pusher was pushed");
            }
            let centre = w.ball(id).unwrap().position;
            for b in w.balls().iter().filter(|b| !b.is_kinematic()) {
                worst = worst.max((pusher.radius + b.radius - b.position.distance(centre)) / b.radius);
                assert!(b.position.is_finite() && b.velocity.is_finite());
            }
            pushed += w.contacts().iter().filter(|c| c.ball == id).count();
        }
        assert!(pushed > 40, "{kind}: the pusher met only {pushed} balls (~70 lie on its path)");
        assert!(worst < 0.005, "{kind}: a ball was left {:.2} % of its radius inside the pusher", worst * 100.0);
        assert!(w.ball(id).unwrap().position.x > side, "{kind}: the pusher stopped at the wall");
        let bits: Vec<u32> = w.balls().iter().flat_map(|b| b.position.to_array().map(f32::to_bits)).collect();
        match &reference {
            None => reference = Some(bits),
            Some(r) => assert!(*r == bits, "{kind} diverged from brute force"),
        }
    }
}

/// A resting ball hit head-on by a kinematic one at `v` leaves at `(1 + e)·v` (a wall moving at
/// `v`), and the contact's impulse on the kinematic ball is the opposite of the ball's gain.
#[test]
fn balls_bounce_off_a_kinematic_ball_like_off_a_moving_wall() {
    for e in [1.0f32, 0.5, 0.0] {
        let mut w = World::new(None, BroadPhaseKind::SortAndSweep);
        w.set_record_contacts(true);
        let k = w
            .add_ball(Ball { restitution: e, ..Ball::kinematic(Vec2::new(-3.0, 0.0), Vec2::new(10.0, 0.0), 1.0) })
            .unwrap();
        let b = w.add_ball(Ball { restitution: e, ..Ball::new(Vec2::ZERO, Vec2::ZERO, 1.0) }).unwrap();
        w.step(0.2);
        let ball = w.ball(b).unwrap();
        assert!((ball.velocity - Vec2::new((1.0 + e) * 10.0, 0.0)).length() < 1e-4, "e = {e}: {}", ball.velocity);
        assert_eq!(w.ball(k).unwrap().velocity, Vec2::new(10.0, 0.0));
        let c = w.contacts();
        assert_eq!((c.len(), c[0].ball, c[0].partner), (1, k, Collider::Ball(b)));
        assert!((c[0].impulse + ball.velocity * ball.mass).length() < 1e-3, "impulse {}", c[0].impulse);
        assert!(c[0].impulse.is_finite());
    }
}

/// Kinematic balls ignore each other, walls and segments; they are not damped; the sums of
/// momentum and energy are the dynamic balls'.
#[test]
fn kinematic_balls_pass_through_what_does_not_move_them() {
    let bounds = Aabb { min: Vec2::ZERO, max: Vec2::splat(10.0) };
    let mut w = World::new(Some(bounds), BroadPhaseKind::UniformGrid);
    w.set_linear_damping(3.0).unwrap();
    w.add_segment(Vec2::new(6.0, 0.0), Vec2::new(6.0, 10.0)).unwrap();
    let a = Ball::kinematic(Vec2::new(2.0, 5.0), Vec2::new(3.0, 0.0), 1.0);
    let b = Ball::kinematic(Vec2::new(4.0, 5.2), Vec2::new(-3.0, 0.0), 1.0);
    let (ia, ib) = (w.add_ball(a).unwrap(), w.add_ball(b).unwrap());
    assert_eq!((w.momentum(), w.kinetic_energy()), (glam::DVec2::ZERO, 0.0));
    let mut rng = SplitMix64(KINEMATIC_SEED);
    for step in 1..=60 {
        w.step(0.1);
        let t = 0.1 * step as f32;
        for (id, start) in [(ia, a), (ib, b)] {
            let now = w.ball(id).unwrap();
            assert_eq!(now.velocity, start.velocity);
            assert!((now.position - (start.position + start.velocity * t)).length() < 1e-4, "step {step}");
        }
        assert_eq!(w.last_step_stats().contacts, 0);
        // Random kicks do nothing to an infinite mass.
        w.apply_impulse(ia, Vec2::new(rng.range(-1e6, 1e6), 0.0)).unwrap();
    }
    assert!(w.ball(ia).unwrap().position.x > 10.0 && w.ball(ib).unwrap().position.x < 0.0, "through the walls");
    // Outside the box is a kinematic ball's right, not a dynamic one's.
    w.set_ball_position(ia, Vec2::new(-20.0, 5.0)).unwrap();
    w.add_ball(Ball::kinematic(Vec2::new(30.0, 5.0), Vec2::ZERO, 1.0)).unwrap();
    assert!(w.add_ball(Ball::new(Vec2::new(30.0, 5.0), Vec2::ZERO, 1.0)).is_err());
    for bad in [f32::NEG_INFINITY, f32::NAN, 0.0] {
        assert!(w.add_ball(Ball { mass: bad, ..a }).is_err(), "mass {bad} must be rejected");
    }
    // A radius whose area overflows would be kinematic by accident (`Ball::new`'s mass is ∞).
    let err = w.add_ball(Ball::new(Vec2::splat(5.0), Vec2::ZERO, 1e20)).unwrap_err().to_string();
    assert!(err.contains("ball radius must be below"), "{err}");
}

/// A ball made kinematic by `set_ball` (the only one) passes through the wall; made dynamic
/// again, the next ball bounces: the world notices either way.
#[test]
fn set_ball_switches_between_dynamic_and_kinematic() {
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::splat(10.0) }), BroadPhaseKind::SortAndSweep);
    let id = w.add_ball(Ball::new(Vec2::new(8.0, 5.0), Vec2::new(10.0, 0.0), 0.5)).unwrap();
    w.set_ball(id, Ball { mass: f32::INFINITY, ..w.ball(id).unwrap() }).unwrap();
    w.step(0.5);
    assert!(w.ball(id).unwrap().position.x > 10.0, "a kinematic ball passes through the wall");
    w.remove_ball(id).unwrap();
    let other = w.add_ball(Ball::new(Vec2::new(8.0, 5.0), Vec2::new(10.0, 0.0), 0.5)).unwrap();
    w.step(0.5);
    assert!(w.ball(other).unwrap().velocity.x < 0.0, "a dynamic ball bounces");
}

/// `separate`'s shares: by the other's mass; all to the finite side against a kinematic ball;
/// none between two kinematic ones; half each when two huge masses overflow their sum.
#[test]
fn separation_shares_follow_the_masses() {
    use swerve::physics::response::separate;
    let (pa, pb, n) = (Vec2::ZERO, Vec2::new(1.0, 0.0), Vec2::X);
    let moved = |ma: f32, mb: f32| {
        let (a, b) = separate(pa, ma, pb, mb, n, 0.4);
        (-a.x, b.x - 1.0)
    };
    for (ma, mb, want) in [
        (1.0, 3.0, (0.3, 0.1)),
        (f32::INFINITY, 2.0, (0.0, 0.4)),
        (2.0, f32::INFINITY, (0.4, 0.0)),
        (f32::INFINITY, f32::INFINITY, (0.0, 0.0)),
        (3e38, 3e38, (0.2, 0.2)),
    ] {
        let (a, b) = moved(ma, mb);
        assert!((a - want.0).abs() < 1e-6 && (b - want.1).abs() < 1e-6, "masses {ma}, {mb}: moved {a}, {b}");
    }
}
