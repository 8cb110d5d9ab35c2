//! Questions about a world between steps: which balls overlap a circle (or hold a point), and
//! what a ray meets first — picking with the mouse, line of sight, a shot.
//!
//! Each query scans every ball and segment once: O(n), meant for a few queries a step (picking,
//! a shot), not for one per ball or a lidar sweep. Measured on the 2-core machine (ball pit,
//! 2,000 random queries, three runs): 1,600 balls 3.6–4.7 µs a ray and 1.6–1.8 µs a circle;
//! 100,000 balls 176–226 µs and 98–114 µs. The arithmetic is `f64`, so a hit lies on its
//! collider to `f32` precision wherever the world is.

use glam::{DVec2, Vec2};

use super::ball::{Ball, BallId};
use super::contact::{BoxWall, Collider};
use super::world::Segment;
use crate::geom::Aabb;

/// What a ray met first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// What it met.
    pub collider: Collider,
    /// Distance from the ray's origin (m).
    pub distance: f32,
    /// Where it met it.
    pub point: Vec2,
    /// Unit normal of the collider's surface there, facing the ray's origin.
    pub normal: Vec2,
}

/// The ids of the balls whose disc overlaps the circle (`center`, `radius`): closer than the
/// sum of the radii. With `radius = 0`, the balls that contain `center`.
pub(crate) fn balls_in_circle<'a>(
    balls: &'a [Ball],
    ids: &'a [BallId],
    center: Vec2,
    radius: f32,
) -> impl Iterator<Item = BallId> + 'a {
    let c = center.as_dvec2();
    balls.iter().zip(ids).filter_map(move |(b, &id)| {
        let reach = f64::from(b.radius) + f64::from(radius);
        (b.position.as_dvec2().distance_squared(c) < reach * reach).then_some(id)
    })
}

/// The first collider the ray `origin + t·direction` (unit `direction`, `0 ≤ t ≤ max`) meets:
/// a ball's rim where the ray enters it (balls that contain the origin are not met: the ray
/// starts inside them), a segment, or the box's boundary. Ties go to balls, in the order of
/// `balls`, then segments, then walls.
pub(crate) fn cast_ray(
    balls: &[Ball],
    ids: &[BallId],
    segments: &[Segment],
    bounds: Option<Aabb>,
    origin: DVec2,
    direction: DVec2,
    max: f64,
) -> Option<RayHit> {
    let mut best: Option<(f64, Collider, DVec2)> = None;
    let mut consider = |t: f64, collider: Collider, normal: DVec2| {
        if t <= max && best.map_or(true, |(bt, _, _)| t < bt) {
            best = Some((t, collider, normal));
        }
    };
    for (b, &id) in balls.iter().zip(ids) {
        let centre = b.position.as_dvec2();
        if let Some(t) = ray_enters_disc(origin, direction, centre, f64::from(b.radius)) {
            consider(t, Collider::Ball(id), (origin + direction * t - centre).normalize_or_zero());
        }
    }
    for (s, seg) in segments.iter().enumerate() {
        if let Some((t, normal)) = ray_meets_segment(origin, direction, seg.a.as_dvec2(), seg.b.as_dvec2()) {
            consider(t, Collider::Segment(s), normal);
        }
    }
    if let Some(bounds) = bounds {
        let (lo, hi) = (bounds.min.as_dvec2(), bounds.max.as_dvec2());
        let corners = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
        let walls = [BoxWall::MinY, BoxWall::MaxX, BoxWall::MaxY, BoxWall::MinX];
        for k in 0..4 {
            if let Some((t, normal)) = ray_meets_segment(origin, direction, corners[k], corners[(k + 1) % 4]) {
                consider(t, Collider::Wall(walls[k]), normal);
            }
        }
    }
    best.map(|(t, collider, normal)| RayHit {
        collider,
        distance: t as f32,
        point: (origin + direction * t).as_vec2(),
        normal: normal.as_vec2(),
    })
}

/// Where the ray enters the disc, if it does at `t ≥ 0`; `None` from inside or on the rim. The
/// sphere's formula with z = 0 (the zero terms add exactly: the same bits).
fn ray_enters_disc(origin: DVec2, direction: DVec2, centre: DVec2, radius: f64) -> Option<f64> {
    crate::physics3d::query::ray_enters_sphere(origin.extend(0.0), direction.extend(0.0), centre.extend(0.0), radius)
}

/// Where the ray crosses segment `a`–`b` at `t ≥ 0`, with the segment's normal facing the
/// ray's origin; `None` if it misses or runs parallel.
fn ray_meets_segment(origin: DVec2, direction: DVec2, a: DVec2, b: DVec2) -> Option<(f64, DVec2)> {
    let edge = b - a;
    let denominator = direction.perp_dot(edge);
    if denominator == 0.0 {
        return None;
    }
    let to_a = a - origin;
    let t = to_a.perp_dot(edge) / denominator;
    let u = to_a.perp_dot(direction) / denominator;
    if t < 0.0 || !(0.0..=1.0).contains(&u) {
        return None;
    }
    let normal = edge.perp().normalize_or_zero();
    Some((t, if normal.dot(direction) > 0.0 { -normal } else { normal }))
}
