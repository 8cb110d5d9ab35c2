//! Narrow phase: exact distance tests between discs and between a disc and a segment
//! (seed 003 §3.1: two balls touch when `d ≤ r₁ + r₂`).

use crate::geom::Vec2;

/// Whether two discs overlap or touch (`|a − b| ≤ ra + rb`, compared squared to avoid a root).
#[inline]
pub fn discs_touch(a: Vec2, ra: f32, b: Vec2, rb: f32) -> bool {
    let r = ra + rb;
    a.distance_squared(b) <= r * r
}

/// The point of segment `[a, b]` closest to `p`.
#[inline]
pub fn closest_point_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// Whether a disc overlaps (or touches) segment `[a, b]`.
#[inline]
pub fn disc_touches_segment(center: Vec2, radius: f32, a: Vec2, b: Vec2) -> bool {
    center.distance_squared(closest_point_on_segment(center, a, b)) <= radius * radius
}
