//! Editing a running ball world: stable ids through removal, state setters and impulses,
//! validation that changes nothing on error, and edits interleaved with steps on every broad
//! phase (whose incremental state must follow the edits).

use glam::Vec2;
use proptest::prelude::*;
use swerve::geom::Aabb;
use swerve::physics::scene::{seed_scene, SplitMix64};
use swerve::physics::{Ball, BallId, BroadPhaseKind, World};
use swerve::Error;

const EDIT_SEED: u64 = 0x0003_ED17;

fn state_bits(w: &World) -> Vec<u32> {
    w.balls().iter().flat_map(|b| [b.position.x, b.position.y, b.velocity.x, b.velocity.y].map(f32::to_bits)).collect()
}

/// A world of `balls` in the seed scene's box, velocity residuals off (so that a world rebuilt
/// from another's balls has the same state, residuals included).
fn world_of(balls: &[Ball], kind: BroadPhaseKind) -> World {
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::new(1800.0, 900.0) }), kind);
    w.set_velocity_compensation(false);
    for b in balls {
        w.add_ball(*b).unwrap();
    }
    w
}

/// The oracle for removal: a world that ran, lost some balls and ran on moves exactly like a
/// world built from the survivors at the moment of removal (the step breaks ties by order, and
/// removal keeps the survivors' order). Run on every broad phase, whose incremental state
/// (sort-and-sweep's order, the AABB tree's leaves) indexes balls that just moved.
#[test]
fn removing_balls_equals_never_having_them() {
    let scene = seed_scene(900, EDIT_SEED);
    for kind in BroadPhaseKind::ALL {
        let mut w = world_of(&scene.balls, kind);
        for _ in 0..30 {
            w.step(scene.dt);
        }
        // One by one from the front and the middle, then every fifth in one pass.
        w.remove_ball(BallId(0)).unwrap();
        w.remove_ball(BallId(450)).unwrap();
        w.retain_balls(|id, _| id.0 % 5 != 3);
        assert_eq!(w.num_balls(), 900 - 2 - 180);
        let mut rebuilt = world_of(w.balls(), kind);
        for _ in 0..60 {
            w.step(scene.dt);
            rebuilt.step(scene.dt);
        }
        assert!(state_bits(&w) == state_bits(&rebuilt), "{kind}: the edited world diverged from the rebuilt one");
        assert!(w.last_step_stats().contacts > 0, "{kind}: no contacts, the comparison proves little");
    }
}

#[test]
fn ids_stay_stable_and_are_never_reused() {
    let mut w = World::new(None, BroadPhaseKind::SortAndSweep);
    let ids: Vec<BallId> =
        (0..5).map(|i| w.add_ball(Ball::new(Vec2::new(i as f32 * 3.0, 0.0), Vec2::ZERO, 1.0)).unwrap()).collect();
    let removed = w.remove_ball(ids[1]).unwrap();
    assert_eq!(removed.position, Vec2::new(3.0, 0.0), "remove_ball returns the ball's last state");
    w.retain_balls(|id, ball| id != ids[3] && ball.position.x != 12.0);
    assert_eq!(w.ball_ids(), &[ids[0], ids[2]]);
    assert_eq!(w.balls().iter().map(|b| b.position.x).collect::<Vec<_>>(), vec![0.0, 6.0]);
    assert_eq!(w.ball(ids[2]).unwrap().position.x, 6.0);
    for gone in [ids[1], ids[3], ids[4], BallId(99)] {
        assert!(!w.contains_ball(gone));
        assert!(matches!(w.ball(gone), Err(Error::UnknownBall(n)) if n == gone.0));
        assert!(w.remove_ball(gone).is_err());
        assert!(w.set_ball_velocity(gone, Vec2::ONE).is_err());
        assert!(w.apply_impulse(gone, Vec2::ONE).is_err());
    }
    let next = w.add_ball(Ball::new(Vec2::new(20.0, 0.0), Vec2::ZERO, 1.0)).unwrap();
    assert_eq!(next, BallId(5), "a removed id is never handed out again");
    assert_eq!(w.ball_ids(), &[ids[0], ids[2], next]);
    w.step(0.1);
    assert_eq!(w.num_balls(), 3);
}

/// Every edit validates first; a rejected edit leaves the whole world as it was.
#[test]
fn rejected_edits_change_nothing() {
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::splat(10.0) }), BroadPhaseKind::UniformGrid);
    let a = w.add_ball(Ball::new(Vec2::splat(3.0), Vec2::X, 1.0)).unwrap();
    let light = w.add_ball(Ball { mass: 1e-30, ..Ball::new(Vec2::splat(7.0), Vec2::Y, 1.0) }).unwrap();
    let before = (w.balls().to_vec(), w.momentum());
    let errors = [
        (w.set_ball_position(a, Vec2::new(9.5, 5.0)).unwrap_err(), "does not fit inside the world's bounds"),
        (w.set_ball_position(a, Vec2::new(f32::NAN, 5.0)).unwrap_err(), "ball position must be finite"),
        (w.set_ball_velocity(a, Vec2::new(0.0, f32::INFINITY)).unwrap_err(), "ball velocity must be finite"),
        (w.set_ball(a, Ball { radius: -1.0, ..w.ball(a).unwrap() }).unwrap_err(), "ball radius must be greater than 0"),
        (w.set_ball(a, Ball { restitution: 2.0, ..w.ball(a).unwrap() }).unwrap_err(), "restitution must be at most 1"),
        (w.set_ball(a, Ball { radius: 4.0, ..w.ball(a).unwrap() }).unwrap_err(), "does not fit inside"),
        (w.apply_impulse(a, Vec2::new(f32::NAN, 0.0)).unwrap_err(), "impulse must be finite"),
        (w.apply_impulse(light, Vec2::new(1e30, 0.0)).unwrap_err(), "velocity after the impulse must be finite"),
        (w.set_velocities(&[Vec2::ONE]).unwrap_err(), "velocity count must be equal to the number of balls"),
        (w.set_velocities(&[Vec2::ONE, Vec2::NAN]).unwrap_err(), "ball velocity must be finite"),
        (w.set_positions(&[Vec2::splat(2.0), Vec2::splat(9.9)]).unwrap_err(), "does not fit inside"),
        (w.set_positions(&[Vec2::splat(2.0)]).unwrap_err(), "position count must be equal to the number of balls"),
    ];
    for (err, message) in errors {
        assert!(err.to_string().contains(message), "{err} should mention {message:?}");
    }
    assert_eq!((w.balls().to_vec(), w.momentum()), before, "a rejected edit changed the world");
    // The same edits, valid, do change it.
    w.set_ball_position(a, Vec2::new(8.0, 5.0)).unwrap();
    w.set_ball_velocity(light, Vec2::new(-2.0, 0.5)).unwrap();
    w.set_ball(a, Ball { radius: 2.0, ..w.ball(a).unwrap() }).unwrap();
    assert_eq!(w.ball(a).unwrap().position, Vec2::new(8.0, 5.0));
    assert_eq!(w.ball(a).unwrap().radius, 2.0);
    assert_eq!(w.ball(light).unwrap().velocity, Vec2::new(-2.0, 0.5));
    w.set_positions(&[Vec2::splat(2.0), Vec2::splat(8.0)]).unwrap();
    w.set_velocities(&[Vec2::ZERO, Vec2::X]).unwrap();
    assert_eq!(w.balls()[1].position, Vec2::splat(8.0));
    assert_eq!(w.balls()[1].velocity, Vec2::X);
}

/// An impulse changes the ball's velocity by `J / m` and the world's momentum by `J`, to `f64`
/// precision (the sum keeps the velocity residual); then the step conserves the new momentum.
/// Removing a ball at rest keeps every other ball's residual with its ball.
#[test]
fn impulses_add_exactly_their_momentum() {
    let mut rng = SplitMix64(EDIT_SEED);
    let mut w = World::new(None, BroadPhaseKind::HierarchicalGrid);
    let far_at_rest = w.add_ball(Ball::new(Vec2::splat(-1e4), Vec2::ZERO, 1.0)).unwrap();
    for i in 0..300 {
        let p = Vec2::new((i % 20) as f32 * 2.5, (i / 20) as f32 * 2.5);
        let v = Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        w.add_ball(Ball { mass: rng.range(0.1, 10.0), ..Ball::new(p, v, rng.range(0.3, 1.1)) }).unwrap();
    }
    for _ in 0..20 {
        w.step(1.0 / 30.0);
    }
    let mut expected = w.momentum();
    for k in 0..100 {
        let id = BallId(1 + rng.next_u64() as u32 % 300);
        let impulse = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)) * (1 + k % 3) as f32;
        let before = w.ball(id).unwrap();
        w.apply_impulse(id, impulse).unwrap();
        let after = w.ball(id).unwrap();
        let dv = (after.velocity - before.velocity).as_dvec2();
        let want = impulse.as_dvec2() / f64::from(before.mass);
        assert!((dv - want).length() <= 1e-6 * (1.0 + want.length() + before.velocity.length() as f64));
        expected += impulse.as_dvec2();
        let scale = 1.0 + expected.length();
        assert!((w.momentum() - expected).length() < 1e-12 * scale, "momentum off after impulse {k}");
        w.step(1.0 / 30.0);
        assert!((w.momentum() - expected).length() < 1e-12 * scale, "momentum not conserved after impulse {k}");
    }
    // Every ball moves up a place; a residual left behind would shift the sum by ~1e-8.
    w.remove_ball(far_at_rest).unwrap();
    let scale = 1.0 + expected.length();
    assert!((w.momentum() - expected).length() < 1e-12 * scale, "removal moved momentum between balls");
}

#[derive(Clone, Debug)]
enum Edit {
    Step,
    Add(f32, f32, f32, f32),
    Remove(u32),
    RetainEvery(u32),
    Teleport(u32, f32, f32),
    Kick(u32, f32, f32),
    Resize(u32, f32),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => Just(Edit::Step),
        2 => (20.0f32..180.0, 20.0f32..80.0, -3.0f32..3.0, -3.0f32..3.0).prop_map(|(x, y, vx, vy)| Edit::Add(x, y, vx, vy)),
        2 => any::<u32>().prop_map(Edit::Remove),
        1 => (2u32..6).prop_map(Edit::RetainEvery),
        1 => (any::<u32>(), 20.0f32..180.0, 20.0f32..80.0).prop_map(|(i, x, y)| Edit::Teleport(i, x, y)),
        1 => (any::<u32>(), -20.0f32..20.0, -20.0f32..20.0).prop_map(|(i, x, y)| Edit::Kick(i, x, y)),
        1 => (any::<u32>(), 0.5f32..4.0).prop_map(|(i, r)| Edit::Resize(i, r)),
    ]
}

fn apply(w: &mut World, e: &Edit) {
    let pick = |w: &World, i: u32| w.ball_ids().get(i as usize % w.num_balls().max(1)).copied();
    match *e {
        Edit::Step => w.step(0.5),
        Edit::Add(x, y, vx, vy) => {
            w.add_ball(Ball::new(Vec2::new(x, y), Vec2::new(vx, vy), 1.5)).unwrap();
        }
        Edit::Remove(i) => {
            if let Some(id) = pick(w, i) {
                w.remove_ball(id).unwrap();
            }
        }
        Edit::RetainEvery(k) => w.retain_balls(|id, _| id.0 % k != 0),
        Edit::Teleport(i, x, y) => {
            if let Some(id) = pick(w, i) {
                w.set_ball_position(id, Vec2::new(x, y)).unwrap();
            }
        }
        Edit::Kick(i, x, y) => {
            if let Some(id) = pick(w, i) {
                w.apply_impulse(id, Vec2::new(x, y)).unwrap();
            }
        }
        Edit::Resize(i, r) => {
            if let Some(id) = pick(w, i) {
                let b = w.ball(id).unwrap();
                // Outside the box after growing: the edit is rejected, and that is fine too.
                let _ = w.set_ball(id, Ball { radius: r, ..b });
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Edits interleaved with steps: every broad phase moves the balls exactly like brute
    /// force (a stale incremental structure would miss or invent pairs, or index a removed
    /// ball), and the ids match.
    #[test]
    fn edits_between_steps_keep_every_broad_phase_exact(
        n in 0usize..120,
        edits in proptest::collection::vec(edit(), 1..40),
    ) {
        let start: Vec<Ball> = {
            let mut rng = SplitMix64(EDIT_SEED ^ n as u64);
            (0..n).map(|i| {
                let p = Vec2::new(10.0 + (i % 20) as f32 * 9.0, 10.0 + (i / 20) as f32 * 9.0);
                Ball::new(p, Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0)), rng.range(1.0, 3.0))
            }).collect()
        };
        let bounds = Some(Aabb { min: Vec2::ZERO, max: Vec2::new(200.0, 200.0) });
        let run = |kind: BroadPhaseKind| {
            let mut w = World::new(bounds, kind);
            for b in &start {
                w.add_ball(*b).unwrap();
            }
            for e in &edits {
                apply(&mut w, e);
            }
            w.step(0.5);
            (w.ball_ids().to_vec(), state_bits(&w))
        };
        let reference = run(BroadPhaseKind::BruteForce);
        for kind in BroadPhaseKind::ALL {
            prop_assert!(run(kind) == reference, "{} diverged from brute force", kind);
        }
    }
}

/// Damping scales every velocity by `1 / (1 + c·dt)` a step: in free space with no contacts a
/// ball's speed after `n` steps is the analytic `v0 / (1 + c·dt)^n` and its path the geometric
/// sum; with collisions, the total momentum (conserved by contacts) shrinks by exactly that
/// factor each step, and the kinetic energy never grows.
#[test]
fn damping_slows_every_ball_by_the_same_factor() {
    let (c, dt) = (0.8f32, 1.0f32 / 30.0);
    let factor = 1.0 / (1.0 + f64::from(c) * f64::from(dt));
    let mut w = World::new(None, BroadPhaseKind::BruteForce);
    assert!(w.set_linear_damping(-1.0).is_err() && w.set_linear_damping(f32::NAN).is_err());
    assert_eq!(w.linear_damping(), 0.0, "a rejected rate changes nothing");
    w.set_linear_damping(c).unwrap();
    let start = Ball::new(Vec2::ZERO, Vec2::new(3.0, -4.0), 0.5);
    let id = w.add_ball(start).unwrap();
    let (mut x, mut v) = (0.0f64, 5.0f64);
    for _ in 0..90 {
        w.step(dt);
        v *= factor;
        x += v * f64::from(dt);
    }
    let b = w.ball(id).unwrap();
    assert!((f64::from(b.velocity.length()) - v).abs() < 1e-5 * 5.0, "speed {} vs {v}", b.velocity.length());
    assert!((f64::from(b.position.length()) - x).abs() < 1e-4, "distance {} vs {x}", b.position.length());

    let mut rng = SplitMix64(EDIT_SEED);
    let mut w = World::new(None, BroadPhaseKind::GridSortAndSweep);
    w.set_linear_damping(c).unwrap();
    for i in 0..300 {
        let p = Vec2::new((i % 20) as f32 * 2.2, (i / 20) as f32 * 2.2);
        let v = Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        w.add_ball(Ball { mass: rng.range(0.5, 4.0), ..Ball::new(p, v, rng.range(0.5, 1.0)) }).unwrap();
    }
    let mut contacts = 0;
    for step in 0..200 {
        let (p0, e0) = (w.momentum(), w.kinetic_energy());
        w.step(dt);
        contacts += w.last_step_stats().contacts;
        assert!((w.momentum() - p0 * factor).length() < 1e-12 * (1.0 + p0.length()), "step {step}: momentum");
        assert!(w.kinetic_energy() <= e0 * (1.0 + 1e-12), "step {step}: energy grew");
    }
    assert!(contacts > 100, "too few collisions ({contacts}) to test anything");
}
