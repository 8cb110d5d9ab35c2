//! Gravity and resting contacts: free fall is exact, a pile poured into a box comes to rest
//! without sinking into itself, stacks hold, the floor carries the pile's weight, and slow
//! landings rest while fast ones bounce. Without gravity the step is unchanged.

use glam::{DVec2, Vec2};
use swerve::geom::Aabb;
use swerve::physics::scene::{ball_pit, pinned_pyramid, poured_pile};
use swerve::physics::{Ball, BoxWall, BroadPhaseKind, Collider, World};

const POUR_SEED: u64 = 0x0006_7A11;
const G: f32 = 9.81;
const DT: f32 = 1.0 / 60.0;

/// `count` unit balls with restitution `e` poured into a `width` m wide box, with gravity.
fn poured(count: usize, width: f32, e: f32, kind: BroadPhaseKind) -> World {
    let mut w = poured_pile(count, width, e, POUR_SEED).world(kind).unwrap();
    w.set_gravity(Vec2::new(0.0, -G)).unwrap();
    w
}

/// The deepest overlap of any two balls, as a fraction of the smaller radius (0 if none).
fn deepest_overlap(w: &World) -> f32 {
    let balls = w.balls();
    let mut worst = 0.0f32;
    for i in 0..balls.len() {
        for j in i + 1..balls.len() {
            let (a, b) = (&balls[i], &balls[j]);
            let overlap = a.radius + b.radius - a.position.distance(b.position);
            worst = worst.max(overlap / a.radius.min(b.radius));
        }
    }
    worst
}

fn bits(w: &World) -> Vec<u32> {
    w.balls().iter().flat_map(|b| [b.position.x, b.position.y, b.velocity.x, b.velocity.y]).map(f32::to_bits).collect()
}

/// Zero gravity (the default) is the step without it, bit for bit, whatever the solver's
/// iterations; so is gravity switched on and back off before any step.
#[test]
fn zero_gravity_is_the_plain_step() {
    let scene = ball_pit(400, POUR_SEED);
    let build = || {
        let mut w = World::new(Some(scene.bounds), BroadPhaseKind::UniformGrid);
        for b in &scene.balls {
            w.add_ball(*b).unwrap();
        }
        w
    };
    let mut plain = build();
    let mut configured = build();
    configured.set_solver_iterations(37).unwrap();
    configured.set_gravity(Vec2::new(0.0, -G)).unwrap();
    configured.set_gravity(Vec2::ZERO).unwrap();
    for _ in 0..300 {
        plain.step(scene.dt);
        configured.step(scene.dt);
    }
    assert_eq!(bits(&plain), bits(&configured));
    assert_eq!(configured.last_step_stats().resting_contacts, 0);
}

/// A ball in free fall follows semi-implicit Euler (`v += g·dt`, then `x += v·dt`) to `f64`
/// precision of the velocity, and its momentum grows by exactly `m·g·t`.
#[test]
fn free_fall_is_semi_implicit_euler() {
    let mut w = World::new(None, BroadPhaseKind::BruteForce);
    let start = Ball::new(Vec2::new(3.0, 500.0), Vec2::new(2.0, 5.0), 0.5);
    let id = w.add_ball(start).unwrap();
    let g = Vec2::new(0.5, -G);
    w.set_gravity(g).unwrap();
    let (mut x, mut v) = (start.position.as_dvec2(), start.velocity.as_dvec2());
    let steps = 240;
    for _ in 0..steps {
        w.step(DT);
        v += g.as_dvec2() * f64::from(DT);
        x += v.as_vec2().as_dvec2() * f64::from(DT); // the world moves with the `f32` velocity
    }
    let ball = w.ball(id).unwrap();
    assert!((ball.velocity.as_dvec2() - v).length() < 1e-5, "{} vs {v}", ball.velocity);
    assert!((ball.position.as_dvec2() - x).length() < 1e-3, "{} vs {x}", ball.position);
    let expected = (start.velocity.as_dvec2() + g.as_dvec2() * f64::from(DT) * steps as f64) * f64::from(start.mass);
    let relative = (w.momentum() - expected).length() / expected.length();
    assert!(relative < 1e-12, "momentum off by {relative:e}");
    assert_eq!(w.last_step_stats().resting_contacts, 0, "nothing to touch");
}

/// 300 balls poured into a 40 m box (about 17 rows) come to rest: no kinetic energy left,
/// no two balls overlapping by more than the slop, all inside the box — for plastic and half
/// elastic balls — and the same bits on every broad phase.
#[test]
fn a_poured_pile_comes_to_rest() {
    for e in [0.0, 0.5] {
        let mut reference: Option<Vec<u32>> = None;
        for kind in BroadPhaseKind::ALL {
            let mut w = poured(300, 40.0, e, kind);
            for _ in 0..1800 {
                w.step(DT);
            }
            let kinetic = w.kinetic_energy();
            let weight = 300.0 * f64::from(std::f32::consts::PI * G); // N; mass π each
                                                                      // Under a millimetre of fall's worth of energy: at rest.
            assert!(kinetic < weight * 1e-3, "e = {e}, {kind}: kinetic energy {kinetic} J left after 30 s");
            let overlap = deepest_overlap(&w);
            assert!(
                overlap <= World::RESTING_SLOP * 1.01,
                "e = {e}, {kind}: overlap {:.3} % of a radius",
                overlap * 100.0
            );
            for b in w.balls() {
                assert!(b.position.x >= 1.0 && b.position.x <= 39.0 && b.position.y >= 1.0, "{b:?} left the box");
            }
            let top = w.balls().iter().map(|b| b.position.y).fold(0.0, f32::max);
            // 17 to 18 rows of discs 2 m wide, packed at best hexagonally (1.73 m a row).
            assert!(top > 27.0 && top < 36.0, "e = {e}, {kind}: top of the pile at {top} m");
            let bits = bits(&w);
            match &reference {
                None => reference = Some(bits),
                Some(r) => assert!(*r == bits, "e = {e}: {kind} differs from brute force"),
            }
        }
    }
}

/// Fully elastic balls poured the same way do not come to rest (impacts bounce; only slow
/// approaches rest): the energy, kinetic plus potential, is never more than it was at the
/// start, give or take the time step's error.
#[test]
fn an_elastic_pour_makes_no_energy() {
    let mut w = poured(300, 40.0, 1.0, BroadPhaseKind::UniformGrid);
    let energy = |w: &World| {
        let potential: f64 = w.balls().iter().map(|b| f64::from(b.mass) * f64::from(G) * f64::from(b.position.y)).sum();
        w.kinetic_energy() + potential
    };
    let start = energy(&w);
    let mut highest = start;
    for _ in 0..1800 {
        w.step(DT);
        highest = highest.max(energy(&w));
    }
    assert!(highest < 1.01 * start, "energy rose to {:.4} of the start", highest / start);
    // Ten times what `a_poured_pile_comes_to_rest` calls rest.
    let weight = 300.0 * f64::from(std::f32::consts::PI * G);
    assert!(w.kinetic_energy() > 1e-2 * weight, "the elastic pile came to rest ({} J)", w.kinetic_energy());
}

/// At rest, the floor carries the pile: the impulses the contacts report on the bottom wall
/// add up, each step, to the pile's weight times the step.
#[test]
fn the_floor_carries_the_weight() {
    let mut w = poured(300, 40.0, 0.3, BroadPhaseKind::UniformGrid);
    for _ in 0..1800 {
        w.step(DT);
    }
    w.set_record_contacts(true);
    for _ in 0..10 {
        w.step(DT);
        let floor: DVec2 = w
            .contacts()
            .iter()
            .filter(|c| c.partner == Collider::Wall(BoxWall::MinY))
            .map(|c| c.impulse.as_dvec2())
            .sum();
        let weight_impulse: f64 = w.balls().iter().map(|b| f64::from(b.mass * G * DT)).sum();
        // The impulse on the ball is upwards; the balls carry their own weight only through
        // the floor (the side walls push sideways).
        assert!(
            (floor.y - weight_impulse).abs() < 1e-3 * weight_impulse,
            "floor {} vs weight {weight_impulse}",
            floor.y
        );
        assert!(floor.x.abs() < 1e-9 * weight_impulse);
    }
}

/// A column of 10 balls between walls one diameter apart stays up, each contact overlapping
/// by no more than the slop; a 15-row pyramid pinned at its base holds its shape.
#[test]
fn stacks_hold() {
    let mut column =
        World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::new(2.0, 50.0) }), BroadPhaseKind::SortAndSweep);
    column.set_gravity(Vec2::new(0.0, -G)).unwrap();
    for k in 0..10 {
        column.add_ball(Ball::new(Vec2::new(1.0, 1.0 + 2.0 * k as f32), Vec2::ZERO, 1.0)).unwrap();
    }
    for _ in 0..600 {
        column.step(DT);
    }
    for (k, b) in column.balls().iter().enumerate() {
        let sunk = 1.0 + 2.0 * k as f32 - b.position.y;
        assert!(sunk >= 0.0 && sunk <= k as f32 * World::RESTING_SLOP + 1e-4, "ball {k} sank {sunk} m");
        assert!(b.velocity.length() < 1e-3, "ball {k} still moves at {}", b.velocity);
    }

    let (drift, pyramid) = pyramid_drift(15, 1);
    assert!(drift < 0.05, "a ball of the pyramid moved {drift} m");
    assert!(pyramid.kinetic_energy() < 1e-6, "the pyramid still moves");
}

/// The largest distance a ball of a `rows`-row [`pinned_pyramid`] moved in 10 s of steps in
/// `substeps` substeps, and the world at the end.
fn pyramid_drift(rows: usize, substeps: usize) -> (f32, World) {
    let scene = pinned_pyramid(rows);
    let mut w = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    w.set_gravity(Vec2::new(0.0, -G)).unwrap();
    w.set_substeps(substeps).unwrap();
    for _ in 0..600 {
        w.step(scene.dt);
    }
    let moved = w.balls().iter().zip(&scene.balls).map(|(b, start)| b.position.distance(start.position));
    (moved.fold(0.0, f32::max), w)
}

/// A fully elastic ball dropped from 10 m bounces back to within 2 % of that height; a
/// half-elastic one bounces lower and lower and comes to rest on the floor.
#[test]
fn impacts_bounce_and_slow_landings_rest() {
    let drop = |e: f32| {
        let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::new(10.0, 30.0) }), BroadPhaseKind::BruteForce);
        w.set_gravity(Vec2::new(0.0, -G)).unwrap();
        let mut ball = Ball::new(Vec2::new(5.0, 11.0), Vec2::ZERO, 1.0);
        ball.restitution = e;
        let id = w.add_ball(ball).unwrap();
        (w, id)
    };
    let (mut elastic, id) = drop(1.0);
    let mut peaks = Vec::new();
    let mut last_vy = 0.0;
    for _ in 0..(20.0 / DT) as usize {
        elastic.step(DT);
        let b = elastic.ball(id).unwrap();
        if last_vy > 0.0 && b.velocity.y <= 0.0 {
            peaks.push(b.position.y);
        }
        last_vy = b.velocity.y;
    }
    assert!(peaks.len() >= 5, "bounced {} times in 20 s", peaks.len());
    for peak in &peaks {
        assert!((peak - 11.0).abs() < 0.2, "peaks {peaks:?}: a bounce reached {peak} m, not 11 m");
    }

    let (mut damped, id) = drop(0.5);
    for _ in 0..(10.0 / DT) as usize {
        damped.step(DT);
    }
    let b = damped.ball(id).unwrap();
    assert!((b.position.y - 1.0).abs() < 0.01 && b.velocity.length() < 1e-3, "not at rest: {b:?}");
}

/// Balls rest on segments too: a ball dropped onto a tilted plank slides down it (no
/// friction) without sinking in, and one on a flat plank stays on it.
#[test]
fn balls_rest_on_segments() {
    let mut w = World::new(None, BroadPhaseKind::UniformGrid);
    w.set_gravity(Vec2::new(0.0, -G)).unwrap();
    w.add_segment(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)).unwrap();
    w.add_segment(Vec2::new(20.0, 10.0), Vec2::new(40.0, 0.0)).unwrap();
    let flat = w.add_ball(Ball::new(Vec2::new(0.0, 1.0), Vec2::ZERO, 1.0)).unwrap();
    let sliding = w.add_ball(Ball::new(Vec2::new(22.0, 12.0), Vec2::ZERO, 0.5)).unwrap();
    let plank = (Vec2::new(40.0, 0.0) - Vec2::new(20.0, 10.0)).normalize();
    let mut slid = false;
    for _ in 0..300 {
        w.step(DT);
        let b = w.ball(sliding).unwrap();
        let along = (b.position - Vec2::new(20.0, 10.0)).dot(plank);
        if along < 20.0 {
            let off = (b.position - Vec2::new(20.0, 10.0)).perp_dot(plank).abs();
            assert!(off > 0.5 * (1.0 - World::RESTING_SLOP) - 1e-4, "sank into the plank: {off} m from it");
        }
        slid |= along > 15.0;
    }
    assert!(slid, "the ball did not slide down the plank");
    let b = w.ball(flat).unwrap();
    assert!((b.position.y - 1.0).abs() < 0.01 && b.velocity.length() < 1e-3, "{b:?}");
}

/// A kinematic lift raises a plastic ball resting on it without the ball sinking into it.
#[test]
fn a_kinematic_lift_carries_a_ball() {
    let mut w = World::new(None, BroadPhaseKind::DynamicAabbTree);
    w.set_gravity(Vec2::new(0.0, -G)).unwrap();
    // Plastic, both: the lift starts at 1 m/s, which an elastic ball would bounce off.
    let plastic = |mut b: Ball| {
        b.restitution = 0.0;
        b
    };
    let lift = w.add_ball(plastic(Ball::kinematic(Vec2::ZERO, Vec2::new(0.0, 1.0), 2.0))).unwrap();
    let rider = w.add_ball(plastic(Ball::new(Vec2::new(0.0, 3.0), Vec2::ZERO, 1.0))).unwrap();
    for step in 0..300 {
        w.step(DT);
        let gap = w.ball(rider).unwrap().position.y - w.ball(lift).unwrap().position.y - 3.0;
        assert!(gap > -0.01 * 1.01 && gap < 0.02, "step {step}: gap {gap}");
    }
    assert!((w.ball(rider).unwrap().velocity.y - 1.0).abs() < 0.01);
}

#[test]
fn bad_settings_are_refused_and_change_nothing() {
    let mut w = World::new(None, BroadPhaseKind::BruteForce);
    w.set_gravity(Vec2::new(0.0, -1.0)).unwrap();
    assert!(w.set_gravity(Vec2::new(f32::NAN, 0.0)).is_err());
    assert!(w.set_gravity(Vec2::new(0.0, f32::INFINITY)).is_err());
    assert_eq!(w.gravity(), Vec2::new(0.0, -1.0));
    for bad in [0, 1001, usize::MAX] {
        let message = w.set_solver_iterations(bad).unwrap_err().to_string();
        assert!(message.contains("solver iterations"), "{message}");
    }
    assert_eq!(w.solver_iterations(), World::DEFAULT_SOLVER_ITERATIONS);
}

/// `set_substeps(n)` is `n` steps of `dt / n`, bit for bit (without damping, which a step
/// applies once); its contacts fold the substeps' into one per pair, at times within the step,
/// and its statistics add up.
#[test]
fn substeps_are_shorter_steps() {
    let build = || {
        let mut w = poured(300, 40.0, 0.3, BroadPhaseKind::UniformGrid);
        w.add_segment(Vec2::new(5.0, 12.0), Vec2::new(15.0, 9.0)).unwrap();
        w.set_record_contacts(true);
        w
    };
    let (mut whole, mut manual) = (build(), build());
    whole.set_substeps(4).unwrap();
    assert_eq!(whole.substeps(), 4);
    let mut late = 0;
    for _ in 0..300 {
        whole.step(DT);
        let mut resting = 0;
        for _ in 0..4 {
            manual.step(DT / 4.0);
            resting += manual.last_step_stats().resting_contacts;
        }
        assert_eq!(whole.last_step_stats().resting_contacts, resting);
        let contacts = whole.contacts();
        assert!(contacts.iter().all(|c| (0.0..=DT).contains(&c.time)));
        late += contacts.iter().filter(|c| c.time >= 0.75 * DT).count();
        assert!(contacts.windows(2).all(|p| (p[0].ball, p[0].partner) < (p[1].ball, p[1].partner)), "one per pair");
    }
    assert_eq!(bits(&whole), bits(&manual));
    assert!(late > 0, "no pair first met in the last substep");
    for bad in [0, World::MAX_SUBSTEPS + 1] {
        assert!(whole.set_substeps(bad).is_err());
    }
    assert_eq!(whole.substeps(), 4);
}

/// A 30-row pyramid pinned at its base collapses with the default 10 sweeps a step, and holds
/// with four substeps (BENCHMARKS.md, "Gravity").
#[test]
fn substeps_hold_a_taller_stack() {
    let (single, four) = (pyramid_drift(30, 1).0, pyramid_drift(30, 4).0);
    assert!(single > 1.0, "30 rows held in single steps (drift {single} m): the test would prove little");
    assert!(four < 0.05, "30 rows with four substeps drifted {four} m");
}
