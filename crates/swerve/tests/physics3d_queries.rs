//! Queries of the 3-D world: rays against spheres, triangles and walls — hand-worked cases,
//! and random scenes checked by invariants computed independently of the query (the hit lies
//! on its collider, nothing is crossed before it, a miss crosses nothing) — the spheres in a
//! ball, and bad input.

use glam::{DVec3, Vec3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use swerve::physics3d::{Aabb3, BoxWall, BroadPhaseKind, Collider, Sphere, Triangle, World};

const RAY_SEED: u64 = 0x0052_A73D;

#[test]
fn a_ray_meets_the_nearest_of_a_sphere_a_triangle_and_a_wall() {
    let bounds = Aabb3 { min: Vec3::splat(-20.0), max: Vec3::splat(20.0) };
    let mut world = World::new(Some(bounds), BroadPhaseKind::BruteForce).unwrap();
    let id = world.add_sphere(Sphere::new(Vec3::new(10.0, 0.0, 0.0), Vec3::ZERO, 2.0)).unwrap();
    let along_x = |world: &World| world.cast_ray(Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0), f32::INFINITY).unwrap().unwrap();
    let hit = along_x(&world);
    assert_eq!(hit.collider, Collider::Sphere(id));
    assert_eq!((hit.distance, hit.point, hit.normal), (8.0, Vec3::new(8.0, 0.0, 0.0), Vec3::new(-1.0, 0.0, 0.0)));
    // Out of reach: nothing.
    assert_eq!(world.cast_ray(Vec3::ZERO, Vec3::X, 7.5).unwrap(), None);
    // A triangle across the ray at x = 5, slanted: met first, its normal facing the origin.
    world.add_triangle(Vec3::new(5.0, -4.0, -4.0), Vec3::new(5.0, 4.0, -4.0), Vec3::new(5.0, 0.0, 6.0)).unwrap();
    let hit = along_x(&world);
    assert_eq!(hit.collider, Collider::Triangle(0));
    assert_eq!((hit.distance, hit.normal), (5.0, Vec3::new(-1.0, 0.0, 0.0)));
    // Away from both: the wall at max z, from inside.
    let hit = world.cast_ray(Vec3::ZERO, Vec3::Z, f32::INFINITY).unwrap().unwrap();
    assert_eq!(hit.collider, Collider::Wall(BoxWall::MaxZ));
    assert_eq!((hit.distance, hit.point, hit.normal), (20.0, Vec3::new(0.0, 0.0, 20.0), Vec3::new(0.0, 0.0, -1.0)));
    // From inside the sphere: it is skipped, the wall behind it is met.
    let hit = world.cast_ray(Vec3::new(10.0, 0.0, 0.0), Vec3::X, f32::INFINITY).unwrap().unwrap();
    assert_eq!(hit.collider, Collider::Wall(BoxWall::MaxX));
    assert!((hit.distance - 10.0).abs() < 1e-6);
}

/// The distance from `p` to the segment `a`–`b`.
fn segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    p.distance(a + ab * t)
}

/// Whether the segment `a`–`b` meets the cube `[0, side]³` (Kay–Kajiya slabs).
fn segment_meets_box(a: DVec3, b: DVec3, side: f64) -> bool {
    let (mut enter, mut leave) = (0.0f64, 1.0f64);
    for axis in 0..3 {
        let (start, change) = (a[axis], b[axis] - a[axis]);
        if change == 0.0 {
            if !(0.0..=side).contains(&start) {
                return false;
            }
            continue;
        }
        let (t0, t1) = ((0.0 - start) / change, (side - start) / change);
        enter = enter.max(t0.min(t1));
        leave = leave.min(t0.max(t1));
    }
    enter <= leave
}

/// Whether the segment `a`–`b` crosses the triangle: its ends on opposite sides of the plane
/// (or one on it), and the crossing point inside the triangle by its three edge tests.
fn segment_crosses(triangle: &Triangle, a: DVec3, b: DVec3) -> bool {
    let (p, q, r) = (triangle.a.as_dvec3(), triangle.b.as_dvec3(), triangle.c.as_dvec3());
    let n = (q - p).cross(r - p);
    let (da, db) = ((a - p).dot(n), (b - p).dot(n));
    if da * db > 0.0 || da == db {
        return false;
    }
    let x = a + (b - a) * (da / (da - db));
    let inside = |u: DVec3, v: DVec3| (v - u).cross(x - u).dot(n) >= -1e-9 * n.length_squared();
    inside(p, q) && inside(q, r) && inside(r, p)
}

#[test]
fn random_rays_meet_what_they_should_and_nothing_before() {
    let mut rng = ChaCha8Rng::seed_from_u64(RAY_SEED);
    let mut kinds = [0usize; 4]; // spheres, triangles, walls, misses
    for scene in 0..24 {
        let side = 40.0f32;
        let bounded = scene % 3 != 0;
        let bounds = Aabb3 { min: Vec3::ZERO, max: Vec3::splat(side) };
        let mut world = World::new(bounded.then_some(bounds), BroadPhaseKind::UniformGrid).unwrap();
        let point = |rng: &mut ChaCha8Rng, margin: f32| {
            Vec3::new(
                rng.random_range(margin..side - margin),
                rng.random_range(margin..side - margin),
                rng.random_range(margin..side - margin),
            )
        };
        for _ in 0..30 {
            let r = rng.random_range(0.3..3.0);
            world.add_sphere(Sphere::new(point(&mut rng, 3.0), Vec3::ZERO, r)).unwrap();
        }
        for _ in 0..12 {
            let centre = point(&mut rng, 0.0);
            let mut corner = || {
                centre
                    + Vec3::new(rng.random_range(-8.0..8.0), rng.random_range(-8.0..8.0), rng.random_range(-8.0..8.0))
            };
            let (a, b, c) = (corner(), corner(), corner());
            if Triangle::new(a, b, c).is_ok() {
                world.add_triangle(a, b, c).unwrap();
            }
        }
        for ray in 0..150 {
            // A third of the rays start outside the box (walls are met from either side).
            let origin = if ray % 3 == 0 {
                Vec3::new(rng.random_range(-30.0..70.0), rng.random_range(-30.0..70.0), rng.random_range(-30.0..70.0))
            } else {
                point(&mut rng, 0.5)
            };
            let direction =
                Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
            if direction.length() < 1e-3 {
                continue;
            }
            let max = if rng.random_bool(0.5) { f32::INFINITY } else { rng.random_range(1.0..60.0) };
            let hit = world.cast_ray(origin, direction, max).unwrap();
            let (o, d) = (origin.as_dvec3(), direction.as_dvec3().normalize());
            // The part of the ray that must cross nothing: up to just before the hit, or all of
            // it (up to 200 m, beyond the scene) on a miss.
            let clear = match hit {
                Some(h) => f64::from(h.distance) - 1e-3,
                None => f64::from(max).min(200.0),
            };
            let end = o + d * clear.max(0.0);
            for s in world.spheres() {
                let (c, r) = (s.position.as_dvec3(), f64::from(s.radius));
                if o.distance(c) <= r {
                    continue; // the ray starts inside: not met
                }
                assert!(
                    segment_distance(c, o, end) >= r - 1e-4,
                    "scene {scene}: the ray passed through a sphere first"
                );
            }
            for (k, t) in world.triangles().iter().enumerate() {
                assert!(!segment_crosses(t, o, end), "scene {scene}: the ray crossed triangle {k} first ({hit:?})");
            }
            if bounded {
                // From inside, the clear part stays inside (the box is convex); from outside,
                // it never enters it (a slab test).
                let inside = |p: DVec3| p.cmpge(DVec3::ZERO).all() && p.cmple(DVec3::splat(f64::from(side))).all();
                if inside(o) {
                    assert!(inside(end), "scene {scene}: the ray left the box first");
                } else {
                    assert!(
                        !segment_meets_box(o, end, f64::from(side)),
                        "scene {scene}: the ray entered the box first"
                    );
                }
            }
            let Some(hit) = hit else {
                kinds[3] += 1;
                continue;
            };
            let (p, n) = (hit.point.as_dvec3(), hit.normal.as_dvec3());
            assert!(p.distance(o + d * f64::from(hit.distance)) < 1e-4, "the point is not on the ray");
            assert!(
                (n.length() - 1.0).abs() < 1e-5 && n.dot(d) <= 1e-9,
                "the normal {n:?} must be unit and face the origin"
            );
            match hit.collider {
                Collider::Sphere(id) => {
                    let s = world.sphere(id).unwrap();
                    assert!((p.distance(s.position.as_dvec3()) - f64::from(s.radius)).abs() < 1e-4);
                    kinds[0] += 1;
                }
                Collider::Triangle(k) => {
                    let t = world.triangles()[k];
                    assert!(
                        segment_crosses(&t, o, o + d * (f64::from(hit.distance) + 1e-3)),
                        "the hit is not on triangle {k}"
                    );
                    kinds[1] += 1;
                }
                Collider::Wall(_) => {
                    assert!(bounded);
                    let on_wall = p.to_array().iter().any(|&c| c.abs() < 1e-4 || (c - f64::from(side)).abs() < 1e-4);
                    assert!(on_wall, "{p:?} is on no wall");
                    kinds[2] += 1;
                }
            }
        }
    }
    assert!(kinds.iter().all(|&k| k > 50), "every outcome must be exercised: {kinds:?}");
}

#[test]
fn the_spheres_in_a_ball_are_those_within_the_sum_of_the_radii() {
    let mut world = World::new(None, BroadPhaseKind::BruteForce).unwrap();
    let a = world.add_sphere(Sphere::new(Vec3::ZERO, Vec3::ZERO, 1.0)).unwrap();
    let b = world.add_sphere(Sphere::new(Vec3::new(3.0, 0.0, 0.0), Vec3::ZERO, 1.0)).unwrap();
    let c = world.add_sphere(Sphere::new(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, 0.5)).unwrap();
    let found = |center: Vec3, radius: f32| world.spheres_in_ball(center, radius).unwrap().collect::<Vec<_>>();
    assert_eq!(found(Vec3::new(1.5, 0.0, 0.0), 0.6), vec![a, b]);
    assert_eq!(found(Vec3::new(1.5, 0.0, 0.0), 0.5), Vec::new(), "touching is not overlapping");
    assert_eq!(found(Vec3::new(0.0, 0.0, 2.0), 2.6), vec![a, c]);
    assert_eq!(world.sphere_at(Vec3::new(3.5, 0.2, 0.1)).unwrap(), Some(b));
    assert_eq!(world.sphere_at(Vec3::new(1.5, 0.0, 0.0)).unwrap(), None);
}

#[test]
fn bad_queries_are_refused() {
    let world = World::new(None, BroadPhaseKind::BruteForce).unwrap();
    let message = |e: swerve::Error| e.to_string();
    assert!(message(world.cast_ray(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::X, 1.0).unwrap_err()).contains("ray origin"));
    assert!(message(world.cast_ray(Vec3::ZERO, Vec3::new(0.0, f32::INFINITY, 0.0), 1.0).unwrap_err())
        .contains("ray direction"));
    assert!(message(world.cast_ray(Vec3::ZERO, Vec3::ZERO, 1.0).unwrap_err()).contains("non-zero"));
    assert!(message(world.cast_ray(Vec3::ZERO, Vec3::X, -1.0).unwrap_err()).contains("ray length"));
    assert!(message(world.cast_ray(Vec3::ZERO, Vec3::X, f32::NAN).unwrap_err()).contains("ray length"));
    assert!(world.spheres_in_ball(Vec3::ZERO, -1.0).is_err());
    assert!(world.spheres_in_ball(Vec3::new(0.0, 0.0, f32::NAN), 1.0).is_err());
    assert!(world.sphere_at(Vec3::splat(f32::INFINITY)).is_err());
}
