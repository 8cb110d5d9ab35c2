//! World queries against brute-force oracles: the balls in a circle against a plain distance
//! test, the first hit of a ray against marching along it.

use glam::{DVec2, Vec2};
use proptest::prelude::*;
use swerve::geom::Aabb;
use swerve::physics::scene::SplitMix64;
use swerve::physics::{Ball, BallId, BoxWall, BroadPhaseKind, Collider, World};

/// Balls (a few kinematic, one possibly around the ray's origin) and segments in a 40 m box.
fn scene(seed: u64) -> World {
    let mut rng = SplitMix64(seed);
    let mut w = World::new(Some(Aabb { min: Vec2::ZERO, max: Vec2::splat(40.0) }), BroadPhaseKind::BruteForce);
    for i in 0..40 {
        let p = Vec2::new(rng.range(2.0, 38.0), rng.range(2.0, 38.0));
        let r = rng.range(0.2, 2.0);
        let ball = if i % 9 == 0 { Ball::kinematic(p, Vec2::ZERO, r) } else { Ball::new(p, Vec2::ZERO, r) };
        w.add_ball(ball).unwrap();
    }
    for _ in 0..4 {
        let a = Vec2::new(rng.range(1.0, 39.0), rng.range(1.0, 39.0));
        let b = a + Vec2::from_angle(rng.range(0.0, 6.3)) * rng.range(1.0, 10.0);
        w.add_segment(a, b.clamp(Vec2::ZERO, Vec2::splat(40.0))).unwrap();
    }
    // Some removed, so that ids and places differ.
    w.retain_balls(|id, _| id.0 % 7 != 3);
    w
}

/// Whether the point at `t` along the ray is inside a ball that does not contain the origin,
/// or beyond a segment or the box (counted by crossings between `t0` and `t`).
fn blocked(w: &World, origin: DVec2, dir: DVec2, t: f64) -> bool {
    let p = origin + dir * t;
    let in_ball = w.balls().iter().any(|b| {
        let (c, r) = (b.position.as_dvec2(), f64::from(b.radius));
        origin.distance(c) > r && p.distance(c) < r
    });
    let crosses = |a: DVec2, b: DVec2| {
        let side = |q: DVec2| (b - a).perp_dot(q - a);
        let (s0, s1) = (side(origin), side(p));
        let (e0, e1) = ((p - origin).perp_dot(a - origin), (p - origin).perp_dot(b - origin));
        s0 * s1 < 0.0 && e0 * e1 < 0.0
    };
    let bounds = w.bounds().unwrap();
    let (lo, hi) = (bounds.min.as_dvec2(), bounds.max.as_dvec2());
    let outside = |q: DVec2| q.cmplt(lo).any() || q.cmpgt(hi).any();
    in_ball || w.segments().iter().any(|s| crosses(s.a.as_dvec2(), s.b.as_dvec2())) || outside(origin) != outside(p)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// The reported hit lies on its collider, nothing blocks the ray before it (marching in
    /// 1 cm steps), and a miss means nothing blocks the whole ray.
    #[test]
    fn the_first_hit_is_the_first_thing_on_the_ray(
        seed in any::<u64>(), ox in -5.0f32..45.0, oy in -5.0f32..45.0, angle in 0.0f32..6.3, max in 1.0f32..80.0,
    ) {
        let w = scene(seed);
        let (origin, direction) = (Vec2::new(ox, oy), Vec2::from_angle(angle) * 3.0);
        let dir = direction.as_dvec2().normalize();
        let o = origin.as_dvec2();
        let hit = w.cast_ray(origin, direction, max).unwrap();
        let end = hit.map_or(f64::from(max), |h| f64::from(h.distance));
        let mut t = 0.0;
        while t < end - 0.02 {
            t += 0.01;
            prop_assert!(!blocked(&w, o, dir, t.min(end - 0.02)), "blocked at {t} before the hit {hit:?}");
        }
        if let Some(h) = hit {
            prop_assert!(h.distance <= max);
            prop_assert!((h.point.as_dvec2() - (o + dir * f64::from(h.distance))).length() < 1e-4);
            prop_assert!((h.normal.length() - 1.0).abs() < 1e-5 && h.normal.as_dvec2().dot(dir) <= 1e-6);
            let p = h.point.as_dvec2();
            match h.collider {
                Collider::Ball(id) => {
                    let b = w.ball(id).unwrap();
                    prop_assert!((p.distance(b.position.as_dvec2()) - f64::from(b.radius)).abs() < 1e-4);
                    prop_assert!(o.distance(b.position.as_dvec2()) > f64::from(b.radius));
                }
                Collider::Segment(s) => {
                    let seg = w.segments()[s];
                    let (a, b) = (seg.a.as_dvec2(), seg.b.as_dvec2());
                    prop_assert!(((b - a).perp_dot(p - a) / (b - a).length()).abs() < 1e-4);
                }
                Collider::Wall(wall) => {
                    let (coord, at) = match wall {
                        BoxWall::MinX => (p.x, 0.0),
                        BoxWall::MaxX => (p.x, 40.0),
                        BoxWall::MinY => (p.y, 0.0),
                        BoxWall::MaxY => (p.y, 40.0),
                    };
                    prop_assert!((coord - at).abs() < 1e-4, "{wall:?} at {p}");
                }
            }
            // Just past the hit the ray is blocked (a grazing touch of a rim excepted).
            let grazing = matches!(h.collider, Collider::Ball(_)) && h.normal.as_dvec2().dot(dir).abs() < 0.05;
            prop_assert!(grazing || blocked(&w, o, dir, f64::from(h.distance) + 1e-3), "nothing at the hit {h:?}");
        }
    }

    #[test]
    fn balls_in_a_circle_are_those_closer_than_the_radii(
        seed in any::<u64>(), cx in -5.0f32..45.0, cy in -5.0f32..45.0, radius in 0.0f32..12.0,
    ) {
        let w = scene(seed);
        let center = Vec2::new(cx, cy);
        let found: Vec<BallId> = w.balls_in_circle(center, radius).unwrap().collect();
        let expected: Vec<BallId> = w
            .ball_ids()
            .iter()
            .zip(w.balls())
            .filter(|(_, b)| b.position.distance(center) < b.radius + radius)
            .map(|(&id, _)| id)
            .collect();
        prop_assert_eq!(&found, &expected);
        prop_assert_eq!(w.ball_at(center).unwrap(), w.balls_in_circle(center, 0.0).unwrap().next());
    }
}

#[test]
fn rays_and_circles_reject_bad_input() {
    let w = scene(1);
    for (origin, direction, max) in [
        (Vec2::new(f32::NAN, 0.0), Vec2::X, 10.0),
        (Vec2::ZERO, Vec2::ZERO, 10.0),
        (Vec2::ZERO, Vec2::new(0.0, f32::INFINITY), 10.0),
        (Vec2::ZERO, Vec2::X, -1.0),
        (Vec2::ZERO, Vec2::X, f32::NAN),
    ] {
        assert!(w.cast_ray(origin, direction, max).is_err(), "{origin} {direction} {max}");
    }
    assert!(w.cast_ray(Vec2::splat(20.0), Vec2::X, f32::INFINITY).unwrap().is_some(), "the box stops every ray");
    assert!(w.balls_in_circle(Vec2::ZERO, -1.0).is_err());
    assert!(w.ball_at(Vec2::new(0.0, f32::NAN)).is_err());
}
