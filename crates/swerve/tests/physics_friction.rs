//! Friction and spin: Coulomb friction against the textbook motions of a solid disc (sliding
//! into rolling, rolling and sliding down a slope, an oblique bounce), conservation of momentum
//! and angular momentum between rough balls, energy never made, frictionless balls untouched
//! by spin, and rolling resistance braking a rolling ball at its textbook rate.

use glam::{DVec2, Vec2};
use swerve::geom::Aabb;
use swerve::physics::response::{impact_friction, sliding_speed, RimSide};
use swerve::physics::scene::{poured_pile, slumping_pile};
use swerve::physics::{Ball, BroadPhaseKind, World};

const G: f32 = 9.81;
const DT: f32 = 1.0 / 240.0;

/// A ball's velocity including nothing else: the world's `f32` velocity.
fn speed_along(w: &World, id: swerve::physics::BallId, direction: Vec2) -> f32 {
    w.ball(id).unwrap().velocity.dot(direction)
}

/// A ball set sliding on the floor slows by `μ g` while friction spins it up at `2 μ g / r`,
/// until its rim stops slipping at `t = v₀ / (3 μ g)`: from then on it rolls at `⅔ v₀` with
/// `ω = −v / r`, and friction does no more.
#[test]
fn a_sliding_ball_starts_rolling_at_two_thirds_of_its_speed() {
    for kind in [BroadPhaseKind::UniformGrid, BroadPhaseKind::BruteForce] {
        let (v0, mu, r) = (3.0f32, 0.3f32, 0.5f32);
        let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::new(200.0, 10.0) }), kind);
        w.set_gravity(Vec2::new(0.0, -G)).unwrap();
        let id = w.add_ball(Ball::new(Vec2::new(2.0, r), Vec2::new(v0, 0.0), r).with_friction(mu)).unwrap();
        let t_roll = v0 / (3.0 * mu * G);
        // Halfway through the slip: v = v₀ − μ g t, ω = −2 μ g t / r.
        let half = (0.5 * t_roll / DT).round() as usize;
        for _ in 0..half {
            w.step(DT);
        }
        let t = half as f32 * DT;
        let ball = w.ball(id).unwrap();
        let expected_v = v0 - mu * G * t;
        assert!(
            (ball.velocity.x - expected_v).abs() < 0.02,
            "{kind}: sliding at {} m/s, expected {expected_v}",
            ball.velocity.x
        );
        let expected_spin = -2.0 * mu * G * t / r;
        assert!(
            (ball.angular_velocity - expected_spin).abs() < 0.04,
            "{kind}: spin {} rad/s, expected {expected_spin}",
            ball.angular_velocity
        );
        for _ in 0..(2.0 / DT) as usize {
            w.step(DT);
        }
        let ball = w.ball(id).unwrap();
        assert!(
            (ball.velocity.x - 2.0 / 3.0 * v0).abs() < 0.01,
            "{kind}: rolls at {} m/s, expected 2.0",
            ball.velocity.x
        );
        assert!(ball.velocity.y.abs() < 1e-3, "{kind}: the floor holds it ({} m/s up)", ball.velocity.y);
        assert!(
            (ball.velocity.x + ball.angular_velocity * r).abs() < 1e-3,
            "{kind}: the rim must not slip: v = {}, ω r = {}",
            ball.velocity.x,
            ball.angular_velocity * r
        );
    }
}

/// On a slope of angle θ a solid disc rolls with acceleration `⅔ g sin θ` when `tan θ ≤ 3μ`,
/// slides with `g (sin θ − μ cos θ)` when friction cannot hold its rim, and slides freely with
/// `g sin θ` without friction (a segment as the slope: the resting solver's tangent row).
#[test]
fn a_ball_on_a_slope_rolls_or_slides_as_a_solid_disc_does() {
    let theta = 20f32.to_radians();
    let (sin, cos) = theta.sin_cos();
    let down = Vec2::new(cos, -sin);
    let cases = [
        ("rolls", 0.5f32, 2.0 / 3.0 * G * sin),
        ("slides", 0.05, G * (sin - 0.05 * cos)),
        ("frictionless", 0.0, G * sin),
    ];
    for (what, mu, acceleration) in cases {
        let mut w = World::new(None, BroadPhaseKind::SortAndSweep);
        w.set_gravity(Vec2::new(0.0, -G)).unwrap();
        // A long slope through the origin; the ball rests on it, a radius above.
        let (a, b) = (-down * 60.0, down * 60.0);
        w.add_segment(a, b).unwrap();
        let r = 0.4;
        let normal = Vec2::new(sin, cos);
        let id = w.add_ball(Ball::new(normal * r, Vec2::ZERO, r).with_friction(mu)).unwrap();
        let t = 1.5;
        for _ in 0..(t / DT) as usize {
            w.step(DT);
        }
        let v = speed_along(&w, id, down);
        let expected = acceleration * t;
        assert!(
            (v - expected).abs() < 0.02 * expected,
            "{what}: {v} m/s down the slope after {t} s, expected {expected}"
        );
        let ball = w.ball(id).unwrap();
        let off = (ball.position.dot(normal) - r).abs();
        assert!(off < 0.02 * r, "{what}: the ball left the slope by {off} m");
        let rim = v + ball.angular_velocity * r;
        match what {
            "rolls" => {
                assert!(rim.abs() < 0.01 * v, "rolling without slip: v = {v}, ω r = {}", ball.angular_velocity * r)
            }
            "slides" => assert!(rim > 0.3 * v, "the rim slips: v = {v}, ω r = {}", ball.angular_velocity * r),
            _ => assert_eq!(ball.angular_velocity, 0.0, "no friction, no spin"),
        }
    }
}

/// An oblique bounce off a wall, box wall or segment, with friction enough to stop the rim:
/// the tangential velocity drops to ⅔ (the rest goes into spin, `ω r = −⅔ v_t`); with little
/// friction it drops by `μ (1 + e) |v_n|` and the rim keeps slipping.
#[test]
fn an_oblique_bounce_turns_sliding_into_spin() {
    let r = 0.5f32;
    for on_segment in [false, true] {
        for (mu, sticks) in [(2.0f32, true), (0.05, false)] {
            let mut w = if on_segment {
                let mut w = World::new(None, BroadPhaseKind::UniformGrid);
                w.add_segment(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0)).unwrap();
                w
            } else {
                World::new(
                    Some(Aabb { min: Vec2::new(-50.0, 0.0), max: Vec2::new(50.0, 50.0) }),
                    BroadPhaseKind::UniformGrid,
                )
            };
            let (vt, vn) = (3.0f32, -4.0f32);
            let id = w.add_ball(Ball::new(Vec2::new(0.0, 2.0), Vec2::new(vt, vn), r).with_friction(mu)).unwrap();
            for _ in 0..60 {
                w.step(1.0 / 120.0);
            }
            let ball = w.ball(id).unwrap();
            assert!(
                (ball.velocity.y + vn).abs() < 1e-4,
                "segment {on_segment}: elastic bounce, got vy = {}",
                ball.velocity.y
            );
            let (expected_vt, expected_spin) = if sticks {
                (2.0 / 3.0 * vt, -2.0 / 3.0 * vt / r)
            } else {
                let dv = mu * 2.0 * -vn;
                (vt - dv, -2.0 * dv / r)
            };
            assert!(
                (ball.velocity.x - expected_vt).abs() < 1e-4,
                "segment {on_segment}, μ {mu}: vt {} expected {expected_vt}",
                ball.velocity.x
            );
            assert!(
                (ball.angular_velocity - expected_spin).abs() < 1e-3,
                "segment {on_segment}, μ {mu}: ω {} expected {expected_spin}",
                ball.angular_velocity
            );
        }
    }
}

/// One impact's friction, on random pairs of discs touching at random angles: it keeps the
/// pair's momentum and its angular momentum about any point (orbital `m p × v` plus spin
/// `½ m r² ω`), never adds energy, stays within its limit, and leaves the rims not sliding
/// unless it hit that limit.
#[test]
fn impact_friction_keeps_momentum_and_angular_momentum() {
    let mut rng = 0x9E37_79B9u32;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        f64::from(rng) / f64::from(u32::MAX)
    };
    let (mut capped, mut stuck) = (0, 0);
    for _ in 0..2000 {
        let side = |next: &mut dyn FnMut() -> f64, kinematic: bool| RimSide {
            velocity: DVec2::new(next() - 0.5, next() - 0.5) * 10.0,
            spin: (next() - 0.5) * 8.0,
            inverse_mass: if kinematic { 0.0 } else { 1.0 / (0.2 + 3.0 * next()) },
            radius: 0.2 + next(),
        };
        let mut a = side(&mut next, false);
        let kinematic = next() < 0.1;
        let mut b = side(&mut next, kinematic);
        let angle = next() * std::f64::consts::TAU;
        let normal = DVec2::new(angle.cos(), angle.sin());
        let (pa, pb) = (DVec2::new(next(), next()), DVec2::ZERO);
        let pb = pb + pa + normal * (a.radius + b.radius);
        let limit = next() * 3.0;
        let mass = |s: &RimSide| if s.inverse_mass == 0.0 { 0.0 } else { 1.0 / s.inverse_mass };
        let momentum = |a: &RimSide, b: &RimSide| a.velocity * mass(a) + b.velocity * mass(b);
        let angular = |a: &RimSide, b: &RimSide| {
            let one = |s: &RimSide, p: DVec2| mass(s) * (p.perp_dot(s.velocity) + 0.5 * s.radius * s.radius * s.spin);
            one(a, pa) + one(b, pb)
        };
        let energy = |a: &RimSide, b: &RimSide| {
            let one = |s: &RimSide| {
                0.5 * mass(s) * (s.velocity.length_squared() + 0.5 * s.radius * s.radius * s.spin * s.spin)
            };
            one(a) + one(b)
        };
        let (kinematic_b, spin_b) = (b.inverse_mass == 0.0, b.spin);
        let (p0, l0, e0) = (momentum(&a, &b), angular(&a, &b), energy(&a, &b));
        let j = impact_friction(&mut a, &mut b, normal, limit);
        assert!(j.abs() <= limit, "impulse {j} beyond its limit {limit}");
        if kinematic_b {
            // A kinematic partner is a moving wall: only the ball's energy can be asked of it.
            assert_eq!(b.spin, spin_b, "a kinematic ball's spin does not change");
            continue;
        }
        let (p1, l1, e1) = (momentum(&a, &b), angular(&a, &b), energy(&a, &b));
        assert!((p1 - p0).length() < 1e-12 * (1.0 + p0.length()), "momentum {p0} → {p1}");
        assert!((l1 - l0).abs() < 1e-12 * (1.0 + l0.abs()), "angular momentum {l0} → {l1}");
        assert!(e1 <= e0 * (1.0 + 1e-12), "energy {e0} → {e1}");
        let sliding = sliding_speed(&a, &b, normal);
        if j.abs() < limit {
            assert!(sliding.abs() < 1e-9, "below its limit the impulse stops the rims, {sliding} m/s left");
            stuck += 1;
        } else {
            capped += 1;
        }
    }
    assert!(capped > 100 && stuck > 100, "both regimes must be exercised: {capped} capped, {stuck} stuck");
}

/// Rough balls colliding in free space (no walls, no gravity) keep the total momentum to `f64`
/// precision and lose energy (friction and `e < 1` only dissipate), and they spin: on every
/// broad phase. (Their angular momentum is not a world invariant: the position corrections
/// that separate overlapping balls move them, with or without friction.)
#[test]
fn rough_collisions_keep_momentum_and_spin_the_balls() {
    for kind in BroadPhaseKind::ALL {
        let mut w = World::new(None, kind);
        let mut rng = 0x9E37_79B9u32;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 17;
            rng ^= rng << 5;
            rng as f32 / u32::MAX as f32
        };
        for i in 0..12 {
            for j in 0..12 {
                let p = Vec2::new(i as f32 * 2.5, j as f32 * 2.5);
                let v = Vec2::new(next() - 0.5, next() - 0.5) * 8.0;
                let ball =
                    Ball { mass: 0.5 + next(), restitution: 0.5 + 0.5 * next(), ..Ball::new(p, v, 0.5 + 0.4 * next()) };
                w.add_ball(ball.with_friction(0.2 + next())).unwrap();
            }
        }
        let (p0, e0) = (w.momentum(), w.kinetic_energy());
        let mut contacts = 0;
        for _ in 0..400 {
            w.step(1.0 / 60.0);
            contacts += w.last_step_stats().contacts;
        }
        assert!(contacts > 100, "{kind}: only {contacts} contacts");
        let (p1, e1) = (w.momentum(), w.kinetic_energy());
        assert!((p1 - p0).length() < 1e-9 * (1.0 + p0.length()), "{kind}: momentum {p0} → {p1}");
        assert!(e1 < e0, "{kind}: energy {e0} → {e1}");
        let spinning = w.balls().iter().filter(|b| b.angular_velocity.abs() > 0.1).count();
        assert!(spinning > 50, "{kind}: only {spinning} of 144 balls spin");
    }
}

/// With e = 1 and friction, a gas in a box never gains energy: every bounce with friction
/// removes some, and the box's walls rub too.
#[test]
fn friction_never_makes_energy() {
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::new(40.0, 40.0) }), BroadPhaseKind::UniformGrid);
    for i in 0..15 {
        for j in 0..15 {
            let p = Vec2::new(2.0 + i as f32 * 2.5, 2.0 + j as f32 * 2.5);
            let v = Vec2::new(((i * 7 + j * 3) % 11) as f32 - 5.0, ((i * 5 + j * 9) % 13) as f32 - 6.0);
            w.add_ball(Ball::new(p, v, 0.6).with_friction(0.4)).unwrap();
        }
    }
    let mut energy = w.kinetic_energy();
    let start = energy;
    for _ in 0..600 {
        w.step(1.0 / 60.0);
        let now = w.kinetic_energy();
        assert!(now <= energy * (1.0 + 1e-9), "energy rose from {energy} to {now}");
        energy = now;
    }
    assert!(energy < 0.99 * start, "friction took only {} of {start} J", start - energy);
}

/// A frictionless ball's spin is its own: it keeps it, and the trajectory of every ball is the
/// one it has with no spin at all, bit for bit.
#[test]
fn frictionless_spin_changes_nothing() {
    let scene = poured_pile(200, 12.0, 0.3, 7);
    let mut plain = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    let mut spinning = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    for (k, id) in spinning.ball_ids().to_vec().into_iter().enumerate() {
        let b = spinning.ball(id).unwrap();
        spinning.set_ball(id, Ball { angular_velocity: k as f32 - 100.0, ..b }).unwrap();
    }
    for w in [&mut plain, &mut spinning] {
        w.set_gravity(Vec2::new(0.0, -G)).unwrap();
    }
    for _ in 0..300 {
        plain.step(1.0 / 60.0);
        spinning.step(1.0 / 60.0);
    }
    for (k, (a, b)) in plain.balls().iter().zip(spinning.balls()).enumerate() {
        assert_eq!((a.position, a.velocity), (b.position, b.velocity), "ball {k}");
        assert_eq!(b.angular_velocity, k as f32 - 100.0, "ball {k} kept its spin");
    }
}

/// Friction holds a heap: a 60° pile of balls slumps into a heap whose top stands higher the
/// rougher the balls, where frictionless balls spread into a layer.
#[test]
fn a_rough_pile_heaps_where_a_smooth_one_spreads() {
    let top = |mu: f32| {
        let scene = slumping_pile(26, 100.0, mu, 11);
        let mut w = scene.world(BroadPhaseKind::UniformGrid).unwrap();
        w.set_gravity(Vec2::new(0.0, -G)).unwrap();
        for _ in 0..1200 {
            w.step(scene.dt);
        }
        w.balls().iter().map(|b| b.position.y + b.radius).fold(0.0f32, f32::max)
    };
    let (smooth, rough, rougher) = (top(0.0), top(0.5), top(1.0));
    assert!(rough > smooth + 1.0 && rougher > smooth + 1.5, "heap tops: μ 0 {smooth} m, 0.5 {rough} m, 1 {rougher} m");
}

/// Bad friction or spin is refused, and changes nothing.
#[test]
fn bad_friction_and_spin_are_refused() {
    let mut w = World::new(None, BroadPhaseKind::BruteForce);
    let ok = Ball::new(Vec2::ZERO, Vec2::ZERO, 1.0);
    let id = w.add_ball(ok).unwrap();
    for (bad, message) in [
        (ok.with_friction(-0.1), "ball friction must be at least 0"),
        (ok.with_rolling_resistance(-1.0), "ball rolling resistance must be at least 0"),
        (ok.with_friction(f32::NAN), "ball friction"),
        (ok.with_friction(f32::INFINITY), "ball friction must be finite"),
        (Ball { angular_velocity: f32::INFINITY, ..ok }, "ball angular velocity must be finite"),
        (Ball { angular_velocity: f32::NAN, ..ok }, "ball angular velocity must be finite"),
        (Ball { angle: f32::INFINITY, ..ok }, "ball angle must be finite"),
    ] {
        let error = w.add_ball(bad).unwrap_err().to_string();
        assert!(error.contains(message), "{error:?} should say {message:?}");
        assert!(w.set_ball(id, bad).is_err());
        assert_eq!(w.ball(id).unwrap(), ok);
    }
    assert_eq!(w.num_balls(), 1);
}

/// The angle follows the angular velocity, wrapped into `[−π, π]`, and a rolling ball turns by
/// its distance over its radius.
#[test]
fn the_angle_follows_the_spin() {
    let mut w = World::new(None, BroadPhaseKind::BruteForce);
    let free = w.add_ball(Ball { angular_velocity: 3.0, angle: 1.0, ..Ball::new(Vec2::ZERO, Vec2::X, 0.5) }).unwrap();
    let dt = 1.0 / 60.0;
    let mut expected = 1.0f64;
    for _ in 0..1000 {
        w.step(dt);
        expected += 3.0 * f64::from(dt);
        let angle = w.ball(free).unwrap().angle;
        assert!((-std::f32::consts::PI..=std::f32::consts::PI).contains(&angle), "angle {angle} not wrapped");
        let wrapped = (expected + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
        let off = (f64::from(angle) - wrapped).abs();
        assert!(off.min(std::f64::consts::TAU - off) < 1e-4, "angle {angle}, expected {wrapped}");
    }
    // Spin given later (set_ball) turns a ball too, and removing the spinning one stops nothing
    // else: the world keeps count of the balls that can turn.
    let still = w.add_ball(Ball::new(Vec2::new(10.0, 0.0), Vec2::ZERO, 0.5)).unwrap();
    w.step(dt);
    assert_eq!(w.ball(still).unwrap().angle, 0.0);
    w.set_ball(still, Ball { angular_velocity: -1.0, ..w.ball(still).unwrap() }).unwrap();
    w.remove_ball(free).unwrap();
    for _ in 0..30 {
        w.step(dt);
    }
    assert!((w.ball(still).unwrap().angle + 0.5).abs() < 1e-5, "{:?}", w.ball(still).unwrap());
    // A ball rolling on the floor: its angle falls by the distance rolled over the radius.
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::new(100.0, 10.0) }), BroadPhaseKind::UniformGrid);
    w.set_gravity(Vec2::new(0.0, -G)).unwrap();
    let r = 0.5;
    let id = w.add_ball(Ball::new(Vec2::new(2.0, r), Vec2::new(3.0, 0.0), r).with_friction(0.5)).unwrap();
    for _ in 0..240 {
        w.step(DT); // rolling by now
    }
    let (start, mut turned, mut last) = (w.ball(id).unwrap(), 0.0f64, w.ball(id).unwrap().angle);
    for _ in 0..480 {
        w.step(DT);
        let angle = w.ball(id).unwrap().angle;
        let mut step = f64::from(angle - last);
        if step > std::f64::consts::PI {
            step -= std::f64::consts::TAU;
        } else if step < -std::f64::consts::PI {
            step += std::f64::consts::TAU;
        }
        turned += step;
        last = angle;
    }
    let rolled = f64::from(w.ball(id).unwrap().position.x - start.position.x);
    assert!(rolled > 3.0, "rolled only {rolled} m");
    assert!((turned + rolled / f64::from(r)).abs() < 1e-3 * rolled, "turned {turned} rad over {rolled} m");
}

/// Rolling resistance `c` brakes a ball rolling on a floor at `⅔ c g` (the torque `c N r`
/// slows the spin, and friction keeps the rim gripping), until it stops, and then holds it.
#[test]
fn rolling_resistance_brakes_a_rolling_ball_at_two_thirds_c_g() {
    let (v0, r, c) = (3.0f32, 0.5f32, 0.05f32);
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::new(200.0, 10.0) }), BroadPhaseKind::UniformGrid);
    w.set_gravity(Vec2::new(0.0, -G)).unwrap();
    let rolling = Ball { angular_velocity: -v0 / r, ..Ball::new(Vec2::new(2.0, r), Vec2::new(v0, 0.0), r) };
    let id = w.add_ball(rolling.with_friction(0.5).with_rolling_resistance(c)).unwrap();
    let t = 2.0;
    for _ in 0..(t / DT) as usize {
        w.step(DT);
    }
    let ball = w.ball(id).unwrap();
    let expected = v0 - 2.0 / 3.0 * c * G * t;
    assert!(
        (ball.velocity.x - expected).abs() < 0.01,
        "rolls at {} m/s after {t} s, expected {expected}",
        ball.velocity.x
    );
    assert!((ball.velocity.x + ball.angular_velocity * r).abs() < 1e-3, "the rim grips: {ball:?}");
    for _ in 0..(20.0 / DT) as usize {
        w.step(DT);
    }
    let ball = w.ball(id).unwrap();
    assert!(ball.velocity.length() < 1e-3 && ball.angular_velocity.abs() < 2e-3, "stopped for good: {ball:?}");
    let stop = v0 * v0 / (2.0 * 2.0 / 3.0 * c * G);
    assert!(
        (ball.position.x - 2.0 - stop).abs() < 0.02 * stop,
        "stopped after {} m, expected {stop}",
        ball.position.x - 2.0
    );
}

/// Rolling resistance holds a steeper heap: the same 60° pile of rough balls slumps less, and
/// comes to rest.
#[test]
fn rolling_resistance_holds_a_steeper_heap() {
    let heap = |c: f32| {
        let mut scene = slumping_pile(16, 60.0, 0.5, 11);
        for b in &mut scene.balls {
            *b = b.with_rolling_resistance(c);
        }
        let mut w = scene.world(BroadPhaseKind::UniformGrid).unwrap();
        w.set_gravity(Vec2::new(0.0, -G)).unwrap();
        for _ in 0..1200 {
            w.step(scene.dt);
        }
        let top = w.balls().iter().map(|b| b.position.y + b.radius).fold(0.0f32, f32::max);
        let fastest = w.balls().iter().map(|b| b.velocity.length()).fold(0.0f32, f32::max);
        (top, fastest)
    };
    let (free, _) = heap(0.0);
    let (braked, fastest) = heap(0.2);
    assert!(braked > free + 1.0, "heap top {braked} m with rolling resistance, {free} m without");
    assert!(fastest < 0.01, "the braked heap still moves ({fastest} m/s)");
}
