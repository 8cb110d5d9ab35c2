//! World invariants: continuous collision (no tunnelling), the elastic response against seed
//! 003's formula, momentum and energy, overlap, determinism, errors.

use glam::{DVec2, Vec2};
use proptest::prelude::*;
use swerve::geom::Aabb;
use swerve::physics::response::{ball_ball_impulse, seed_elastic_velocities};
use swerve::physics::scene::{ball_pit, seed_scene, SplitMix64};
use swerve::physics::{Ball, BroadPhaseKind, World};

const PIT_SEED: u64 = 0x0003_B411;
const FREE_SPACE_SEED: u64 = 0x0003_F4EE;

fn pit_box(side: f32) -> Option<Aabb> {
    Some(Aabb { min: Vec2::ZERO, max: Vec2::splat(side) })
}

/// A 0.05 m bullet at 600 m/s moves 10 m per 1/60 s step: 100 wall thicknesses.
#[test]
fn bullet_does_not_tunnel_through_a_thin_wall() {
    for continuous in [true, false] {
        let mut w = World::new(None, BroadPhaseKind::UniformGrid);
        w.set_continuous_collision(continuous);
        w.add_segment(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0)).unwrap();
        w.add_ball(Ball::new(Vec2::new(-1.0, 0.1), Vec2::new(600.0, 0.0), 0.05)).unwrap();
        for _ in 0..5 {
            w.step(1.0 / 60.0);
        }
        let b = w.balls()[0];
        if continuous {
            assert!(b.position.x < 0.0, "bullet tunnelled to x = {}", b.position.x);
            assert!((b.velocity - Vec2::new(-600.0, 0.0)).length() < 1e-3, "elastic bounce: {}", b.velocity);
        } else {
            // The discrete step (the seed's method) must tunnel here, or this test proves nothing.
            assert!(b.position.x > 0.0, "expected the discrete step to tunnel");
        }
    }
}

/// A ball that meets a second wall within the same step after bouncing off a first: the
/// second is looked for along the deflected path, not only inside the first path's box.
#[test]
fn a_ball_between_two_close_walls_bounces_off_both_within_a_step() {
    for kind in BroadPhaseKind::ALL {
        for speed in [40.0f32, 150.0, 700.0] {
            let mut w = World::new(None, kind);
            w.add_segment(Vec2::new(0.0, -100.0), Vec2::new(0.0, 100.0)).unwrap();
            w.add_segment(Vec2::new(3.0, -100.0), Vec2::new(3.0, 100.0)).unwrap();
            w.add_ball(Ball::new(Vec2::new(1.5, 0.0), Vec2::new(speed, 0.3), 0.5)).unwrap();
            for step in 0..50 {
                w.step(0.1);
                let b = w.balls()[0];
                assert!(
                    (0.5 - 1e-3..=2.5 + 1e-3).contains(&b.position.x),
                    "{kind}, {speed} m/s, step {step}: escaped to x = {}",
                    b.position.x
                );
                assert!((b.velocity.x.abs() - speed).abs() < 1e-2 * speed, "{kind}: speed {}", b.velocity.x);
            }
        }
    }
}

/// A ball that crosses the whole box within a step bounces back and forth off both walls;
/// with `e = 1` its speed is kept exactly.
#[test]
fn a_ball_faster_than_the_box_stays_inside_it() {
    for kind in [BroadPhaseKind::BruteForce, BroadPhaseKind::UniformGrid, BroadPhaseKind::DynamicAabbTree] {
        let mut w = World::new(pit_box(20.0), kind);
        w.add_ball(Ball::new(Vec2::new(10.0, 10.0), Vec2::new(250.0, -130.0), 0.5)).unwrap();
        w.add_ball(Ball::new(Vec2::new(3.0, 3.0), Vec2::new(-900.0, 45.0), 0.5)).unwrap();
        for step in 0..100 {
            w.step(0.1);
            for b in w.balls() {
                let inside = b.position.cmpge(Vec2::splat(0.5)).all() && b.position.cmple(Vec2::splat(19.5)).all();
                assert!(inside, "{kind}, step {step}: a ball left the box: {}", b.position);
            }
        }
    }
}

#[test]
fn bullet_does_not_tunnel_through_a_thin_polygon_edge_at_an_angle() {
    let mut w = World::new(None, BroadPhaseKind::DynamicAabbTree);
    w.add_polygon(&[Vec2::new(0.0, -2.0), Vec2::new(0.1, -2.0), Vec2::new(0.1, 2.0), Vec2::new(0.0, 2.0)]).unwrap();
    w.add_ball(Ball::new(Vec2::new(-3.0, -1.0), Vec2::new(900.0, 300.0), 0.02)).unwrap();
    for _ in 0..10 {
        w.step(1.0 / 60.0);
        assert!(w.balls()[0].position.x < 0.0, "crossed the slab: {:?}", w.balls()[0].position);
    }
    assert!(w.last_step_stats().contacts <= 1);
}

#[test]
fn fast_balls_crossing_head_on_collide() {
    for kind in BroadPhaseKind::ALL {
        let mut w = World::new(None, kind);
        w.add_ball(Ball::new(Vec2::new(-5.0, 0.0), Vec2::new(600.0, 0.0), 0.5)).unwrap();
        w.add_ball(Ball::new(Vec2::new(5.0, 0.2), Vec2::new(-600.0, 0.0), 0.5)).unwrap();
        w.step(1.0 / 60.0);
        let (a, b) = (w.balls()[0], w.balls()[1]);
        assert!(a.position.x < b.position.x, "{kind}: balls passed through each other");
        assert!(a.velocity.x < 0.0 && b.velocity.x > 0.0, "{kind}: no bounce");
        assert!(a.position.distance(b.position) >= 1.0 - 1e-4, "{kind}: overlap after the step");
        assert_eq!(w.last_step_stats().time_of_impact_events, 1, "{kind}");
    }
    // Without continuous detection they pass through (the test can fail).
    let mut w = World::new(None, BroadPhaseKind::BruteForce);
    w.set_continuous_collision(false);
    w.add_ball(Ball::new(Vec2::new(-5.0, 0.0), Vec2::new(600.0, 0.0), 0.5)).unwrap();
    w.add_ball(Ball::new(Vec2::new(5.0, 0.2), Vec2::new(-600.0, 0.0), 0.5)).unwrap();
    w.step(1.0 / 60.0);
    assert!(w.balls()[0].position.x > w.balls()[1].position.x);
}

#[test]
fn impact_at_the_exact_time_matches_seed_formula() {
    // Unequal masses, off-centre hit in free space: the velocities after the step must be the
    // seed's trigonometric formula evaluated at the contact configuration.
    let mut w = World::new(None, BroadPhaseKind::SortAndSweep);
    let a = Ball { mass: 3.0, ..Ball::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.5), 1.0) };
    let b = Ball { mass: 1.0, ..Ball::new(Vec2::new(4.0, 1.2), Vec2::new(-1.0, 0.0), 0.5) };
    w.add_ball(a).unwrap();
    w.add_ball(b).unwrap();
    w.step(1.0);
    assert_eq!(w.last_step_stats().time_of_impact_events, 1);
    // Contact time from the quadratic, independently of the library.
    let (d, v) = ((b.position - a.position).as_dvec2(), (b.velocity - a.velocity).as_dvec2());
    let r = 1.5f64;
    let (qa, qb, qc) = (v.dot(v), d.dot(v), d.dot(d) - r * r);
    let t = (-qb - (qb * qb - qa * qc).sqrt()) / qa;
    let pa = a.position.as_dvec2() + a.velocity.as_dvec2() * t;
    let pb = b.position.as_dvec2() + b.velocity.as_dvec2() * t;
    let (va, vb) = seed_elastic_velocities(pa, a.velocity.as_dvec2(), 3.0, pb, b.velocity.as_dvec2(), 1.0);
    let got_a = w.balls()[0].velocity.as_dvec2();
    let got_b = w.balls()[1].velocity.as_dvec2();
    assert!((got_a - va).length() < 1e-5, "{got_a} vs seed {va}");
    assert!((got_b - vb).length() < 1e-5, "{got_b} vs seed {vb}");
}

proptest! {
    /// The impulse form equals the seed's angle form for e = 1 whenever the balls approach,
    /// and does nothing when they separate (the seed's formula would pull them back together).
    #[test]
    fn impulse_equals_seed_formula(
        ax in -10.0f64..10.0, ay in -10.0f64..10.0, bx in -10.0f64..10.0, by in -10.0f64..10.0,
        vax in -5.0f64..5.0, vay in -5.0f64..5.0, vbx in -5.0f64..5.0, vby in -5.0f64..5.0,
        ma in 0.1f64..10.0, mb in 0.1f64..10.0,
    ) {
        let (pa, pb) = (DVec2::new(ax, ay), DVec2::new(bx, by));
        prop_assume!(pa.distance(pb) > 1e-3);
        let (va, vb) = (DVec2::new(vax, vay), DVec2::new(vbx, vby));
        let n = (pb - pa).normalize();
        match ball_ball_impulse(va, vb, 1.0 / ma, 1.0 / mb, n, 1.0) {
            Some((na, nb, _)) => {
                let (sa, sb) = seed_elastic_velocities(pa, va, ma, pb, vb, mb);
                prop_assert!((na - sa).length() < 1e-9 * (1.0 + sa.length()), "{na} vs {sa}");
                prop_assert!((nb - sb).length() < 1e-9 * (1.0 + sb.length()), "{nb} vs {sb}");
            }
            None => prop_assert!((vb - va).dot(n) >= 0.0),
        }
    }
}

/// Random discs in free space (no walls, which would absorb momentum), mixed masses and
/// restitutions: momentum is conserved to f64 precision over 300 steps.
#[test]
fn momentum_is_conserved() {
    let mut rng = SplitMix64(FREE_SPACE_SEED);
    for kind in BroadPhaseKind::ALL {
        let mut w = World::new(None, kind);
        let mut scale = 0.0f64;
        for i in 0..400 {
            let p = Vec2::new((i % 20) as f32 * 2.5, (i / 20) as f32 * 2.5);
            let v = Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            let ball = Ball {
                mass: rng.range(0.1, 10.0),
                restitution: rng.range(0.0, 1.0),
                ..Ball::new(p, v, rng.range(0.3, 1.2))
            };
            scale += f64::from(ball.mass) * v.as_dvec2().length();
            w.add_ball(ball).unwrap();
        }
        let p0 = w.momentum();
        let mut contacts = 0;
        for _ in 0..300 {
            w.step(1.0 / 30.0);
            contacts += w.last_step_stats().contacts;
        }
        let drift = (w.momentum() - p0).length() / scale;
        assert!(contacts > 100, "{kind}: too few collisions ({contacts}) to test anything");
        assert!(drift < 1e-12, "{kind}: momentum drifted by {drift:e} (relative)");
    }
}

/// The figure the issue asks for: e = 1, a 1,600-ball pit, 10,000 steps, kinetic energy within
/// 1e-6 relative — with and without the velocity residual (both figures printed).
#[test]
fn energy_is_conserved_over_10000_steps_of_a_1600_ball_pit() {
    let scene = ball_pit(1600, PIT_SEED);
    let mut drifts = Vec::new();
    for compensated in [true, false] {
        let mut w = scene.world(BroadPhaseKind::UniformGrid).unwrap();
        w.set_velocity_compensation(compensated);
        let e0 = w.kinetic_energy();
        let mut max_drift = 0.0f64;
        let mut collisions = 0usize;
        for _ in 0..10_000 {
            w.step(scene.dt);
            collisions += w.last_step_stats().contacts;
            max_drift = max_drift.max((w.kinetic_energy() - e0).abs() / e0);
        }
        eprintln!(
            "1600-ball pit, 10000 steps, e = 1, velocity residual {}: max |ΔE|/E = {max_drift:e} over {collisions} collisions",
            if compensated { "on" } else { "off" }
        );
        assert!(collisions > 10_000, "too few collisions ({collisions}) for the test to mean anything");
        drifts.push(max_drift);
    }
    // The budget is 1e-6 relative; f32 velocities alone meet it (~3e-8 measured), and
    // with the f64-exact residual the drift is at f64 rounding level.
    assert!(drifts[1] <= 1e-6, "plain f32: energy drifted by {:e} relative (target 1e-6)", drifts[1]);
    assert!(drifts[0] <= 1e-12, "with residual: energy drifted by {:e} relative", drifts[0]);
}

#[test]
fn restitution_below_one_only_loses_energy() {
    let mut scene = ball_pit(400, PIT_SEED);
    for b in &mut scene.balls {
        b.restitution = 0.5;
    }
    let mut w = scene.world(BroadPhaseKind::HierarchicalGrid).unwrap();
    let mut e = w.kinetic_energy();
    let e0 = e;
    for _ in 0..600 {
        w.step(scene.dt);
        let now = w.kinetic_energy();
        assert!(now <= e * (1.0 + 1e-12), "energy rose from {e} to {now}");
        e = now;
    }
    assert!(e < 0.9 * e0, "inelastic pit kept {e} of {e0}");
}

/// Every broad phase on the seed's dense scene (≈50% area fraction): after every step all balls
/// are inside the box and no two overlap by more than 0.1% of a radius.
#[test]
fn no_overlap_and_inside_the_box_for_every_broad_phase() {
    let scene = seed_scene(400, PIT_SEED);
    for kind in BroadPhaseKind::ALL {
        let mut w = scene.world(kind).unwrap();
        for step in 0..150 {
            w.step(scene.dt);
            let balls = w.balls();
            for (i, a) in balls.iter().enumerate() {
                assert!(
                    a.position.x >= a.radius && a.position.x <= 1800.0 - a.radius,
                    "{kind}: ball {i} out of the box at step {step}"
                );
                assert!(a.position.y >= a.radius && a.position.y <= 900.0 - a.radius);
                for b in &balls[i + 1..] {
                    let overlap = a.radius + b.radius - a.position.distance(b.position);
                    assert!(overlap <= 1e-3 * a.radius.min(b.radius), "{kind}: overlap {overlap} at step {step}");
                }
            }
        }
    }
}

/// The discrete pass stops at the first pass that corrects nothing, and then no two balls
/// overlap at all. In a sparse pit that is the usual case: a correction moves a pair a few ulps
/// beyond contact, so rounding cannot leave it overlapping for the next pass to correct again
/// (which made every step run every pass), and later passes, which only look at pairs with a
/// ball the last pass moved, must not miss one.
#[test]
fn sparse_pit_corrections_converge_and_leave_no_overlap() {
    let scene = ball_pit(2_000, PIT_SEED);
    let mut w = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    let (mut converged, mut corrected) = (0, 0);
    for step in 0..300 {
        w.step(scene.dt);
        let stats = w.last_step_stats();
        corrected += stats.contacts;
        if stats.correction_passes == World::CORRECTION_PASSES {
            continue;
        }
        converged += 1;
        let balls = w.balls();
        for (i, a) in balls.iter().enumerate() {
            for (j, b) in balls.iter().enumerate().skip(i + 1) {
                let r = a.radius + b.radius;
                assert!(
                    a.position.distance_squared(b.position) >= r * r,
                    "balls {i} and {j} overlap after a step whose last pass corrected nothing (step {step})"
                );
            }
        }
    }
    assert!(corrected > 1_000, "the pit must have overlaps to correct ({corrected})");
    assert!(converged >= 290, "only {converged} of 300 steps converged within the passes");
}

/// A correction can push a ball beyond its swept box into a ball whose box its own did not
/// meet, a pair no broad phase reported. The dense seed scene (half the box covered) does that
/// every step; such overlaps used to be left to the next step, up to 17 % of a radius. Boxes
/// now have room and grown boxes get their pairs looked up, so what is left after a step is
/// what capped passes leave in chains of contacts: well under 0.5 % of a radius (seed 3:
/// 0.17 % measured, 2.7 % with the room but without the lookup, 17 % before both and the
/// over-relaxation).
#[test]
fn dense_packing_leaves_no_visible_overlap() {
    // Two scenes: in the second a ball is pushed beyond its box's room into another ball.
    for seed in [PIT_SEED, 3] {
        dense_seed_scene_overlaps_stay_small(seed);
    }
}

fn dense_seed_scene_overlaps_stay_small(seed: u64) {
    let scene = seed_scene(1_600, seed);
    let mut w = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    let (mut pushed_out, mut capped) = (0, 0);
    for step in 0..300 {
        w.step(scene.dt);
        let stats = w.last_step_stats();
        pushed_out += stats.pushed_out_of_box;
        capped += usize::from(stats.correction_passes == World::CORRECTION_PASSES);
        let balls = w.balls();
        for (i, a) in balls.iter().enumerate() {
            for (j, b) in balls.iter().enumerate().skip(i + 1) {
                let overlap = a.radius + b.radius - a.position.distance(b.position);
                assert!(
                    overlap <= 0.005 * a.radius.min(b.radius),
                    "seed {seed}: balls {i} and {j} overlap by {overlap} after step {step}"
                );
            }
        }
    }
    assert!(pushed_out > 1_000, "the scene must push balls out of their boxes ({pushed_out})");
    // Over-relaxed corrections settle most steps within the passes (all but 50 of seed 3's;
    // without over-relaxation all but 3).
    assert!(capped <= 100, "seed {seed}: {capped} of 300 steps used every correction pass");
}

/// The broad phase only decides which pairs are looked at: impacts are ordered by (time, i, j)
/// and overlaps are resolved in (i, j) order, so every broad phase gives bit-identical motion.
#[test]
fn broad_phases_give_identical_trajectories() {
    let scene = seed_scene(600, PIT_SEED);
    let reference: Vec<u32> = {
        let mut w = scene.world(BroadPhaseKind::BruteForce).unwrap();
        (0..120).for_each(|_| w.step(scene.dt));
        w.balls().iter().flat_map(|b| [b.position.x.to_bits(), b.position.y.to_bits()]).collect()
    };
    for kind in BroadPhaseKind::ALL {
        let mut w = scene.world(kind).unwrap();
        (0..120).for_each(|_| w.step(scene.dt));
        let bits: Vec<u32> = w.balls().iter().flat_map(|b| [b.position.x.to_bits(), b.position.y.to_bits()]).collect();
        assert!(bits == reference, "{kind} diverged from brute force");
    }
}

#[test]
fn switching_broad_phase_mid_run_keeps_stepping() {
    let scene = ball_pit(500, PIT_SEED);
    let mut w = scene.world(BroadPhaseKind::BruteForce).unwrap();
    for kind in BroadPhaseKind::ALL.into_iter().cycle().take(21) {
        w.set_broad_phase(kind);
        assert_eq!(w.broad_phase(), kind);
        w.step(scene.dt);
        let s = w.last_step_stats();
        assert!(s.candidate_pairs >= s.time_of_impact_events);
        let dbg = w.broad_phase_debug();
        assert_eq!(dbg.broad_phase, kind);
    }
}

#[test]
fn bad_input_is_rejected_with_a_clear_error() {
    let mut w = World::new(pit_box(10.0), BroadPhaseKind::UniformGrid);
    let ok = Ball::new(Vec2::splat(5.0), Vec2::ZERO, 1.0);
    let cases = [
        (Ball { radius: 0.0, ..ok }, "ball radius must be greater than 0"),
        (Ball { mass: -1.0, ..ok }, "ball mass must be greater than 0"),
        (Ball { restitution: 1.5, ..ok }, "ball restitution must be at most 1"),
        (Ball { position: Vec2::new(f32::NAN, 1.0), ..ok }, "ball position must be finite"),
        (Ball { velocity: Vec2::new(1.0, f32::INFINITY), ..ok }, "ball velocity must be finite"),
        (Ball { position: Vec2::new(9.5, 5.0), ..ok }, "does not fit inside the world's bounds"),
        // π r² overflows though r² does not: the default mass would be infinite (kinematic).
        (Ball::new(Vec2::splat(5.0), Vec2::ZERO, 1.2e19), "ball radius must be below 1.04e19"),
    ];
    for (ball, message) in cases {
        let err = w.add_ball(ball).unwrap_err().to_string();
        assert!(err.contains(message), "{err:?} should mention {message:?}");
    }
    assert!(w.balls().is_empty(), "a rejected ball must not be added");
    assert!(w.add_segment(Vec2::ONE, Vec2::ONE).is_err());
    assert!(w.add_polygon(&[Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::ONE]).is_err(), "self-intersecting");
    assert!(w.segments().is_empty());
    w.add_ball(ok).unwrap();
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        w.step(dt);
        assert_eq!(w.balls()[0], ok, "dt = {dt} must do nothing");
    }
}

#[test]
fn stepping_is_deterministic() {
    let scene = seed_scene(800, PIT_SEED);
    let run = || {
        let mut w = scene.world(BroadPhaseKind::DynamicAabbTree).unwrap();
        (0..50).for_each(|_| w.step(scene.dt));
        w.balls().iter().flat_map(|b| [b.position.x.to_bits(), b.velocity.y.to_bits()]).collect::<Vec<u32>>()
    };
    assert_eq!(run(), run());
}

/// The hot loop never panics, whatever finite input it was given: speeds near `f32::MAX`
/// (positions overflow to infinity and NaN), radii from 1e-6 to 1e6, coincident balls.
#[test]
fn extreme_inputs_do_not_panic() {
    for kind in BroadPhaseKind::ALL {
        for bounds in [None, pit_box(1e7)] {
            let mut w = World::new(bounds, kind);
            let mut rng = SplitMix64(FREE_SPACE_SEED);
            for i in 0..60 {
                let r = if i % 3 == 0 {
                    1e-6
                } else if i % 3 == 1 {
                    1.0
                } else {
                    1e6
                };
                let p = Vec2::new(rng.range(2e6, 8e6), rng.range(2e6, 8e6));
                let v = Vec2::new(rng.range(-1.0, 1.0) * 3e38, rng.range(-1.0, 1.0));
                w.add_ball(Ball::new(p, v, r)).unwrap();
                w.add_ball(Ball::new(p, -v, r)).unwrap(); // coincident pair
            }
            w.add_segment(Vec2::new(3e6, 3e6), Vec2::new(5e6, 5e6)).unwrap();
            for _ in 0..5 {
                w.step(1.0);
            }
            let _ = (w.kinetic_energy(), w.momentum(), w.broad_phase_debug());
            assert_eq!(w.balls().len(), 120);
        }
    }
}
