//! Time of impact of two moving spheres (seed 003 §6.3.3, tunnelling, in three dimensions).
//!
//! For two spheres moving linearly the gap closes when `|d + w t| = R` (`d` the centre offset,
//! `w` the relative velocity, `R` the radius sum): the smaller root of
//! `(w·w)t² + 2(d·w)t + (d·d − R²) = 0`, the planar formula with a third coordinate. Roots are
//! computed in `f64`: the discriminant cancels badly in `f32` for grazing contacts.
//!
//! A sphere against a static [`Triangle`] ([`sphere_triangle`]) is its centre, a point,
//! against the triangle inflated by the radius: two offset faces, three cylinders around the
//! edges and three spheres at the corners (Ericson, *Real-Time Collision Detection* §5.5.6),
//! the planar disc–segment test with a third coordinate.

use glam::{DVec3, Vec3};

use super::Triangle;

/// Earliest time `t ∈ [0, t_max]` at which two spheres moving linearly first touch while
/// approaching, or `None`. Spheres that already overlap at `t = 0` return `None`: the
/// discrete contact pass handles them.
#[inline]
pub fn spheres(pa: Vec3, va: Vec3, pb: Vec3, vb: Vec3, radius_sum: f32, t_max: f32) -> Option<f32> {
    let d = pb - pa;
    let w = vb - va;
    let b = d.dot(w);
    if b >= 0.0 {
        return None; // not approaching
    }
    let c = d.length_squared() - radius_sum * radius_sum;
    if c <= 0.0 {
        return None; // already touching
    }
    // Quick reject in f32: even moving straight at each other they cannot close the gap.
    let a = w.length_squared();
    if a * t_max * t_max + 2.0 * b * t_max + c > 0.0 && -b >= a * t_max {
        return None;
    }
    // Quick reject in f32: the paths miss (negative discriminant), with a margin so that
    // grazing cases, where f32 cancellation could flip the sign, go on to the f64 test.
    if b * b - a * c < -1e-3 * (b * b) {
        return None;
    }
    let (d, w) = (d.as_dvec3(), w.as_dvec3());
    let (a, b) = (w.length_squared(), d.dot(w));
    let c = d.length_squared() - f64::from(radius_sum) * f64::from(radius_sum);
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    // Citardauq form of the smaller root: c / (−b + √disc), stable because −b > 0.
    let t = c / (-b + disc.sqrt());
    (t >= 0.0 && t <= f64::from(t_max)).then_some(t as f32)
}

/// Earliest time `t ∈ [0, t_max]` at which a sphere (centre `p`, velocity `v`, `radius`) moving
/// linearly first touches the static `triangle` while approaching it, or `None`. A sphere
/// already touching or overlapping it at `t = 0` (distance ≤ radius) returns `None`: the
/// discrete pass handles it.
///
/// The centre's path is tested, in `f64`, against the triangle inflated by the radius
/// (Ericson, *Real-Time Collision Detection* §5.5.6, the swept sphere against a triangle):
/// * the **face**: the triangle's plane offset by `radius` towards the side the sphere starts
///   on, hit where the hit point projects into the triangle;
/// * the three **edges**: an infinite cylinder of radius `radius` around each edge's line
///   (RTCD §5.3.7), hit where the hit point projects within the edge;
/// * the three **corners**: a sphere of radius `radius` around each;
///
/// and the earliest hit is the first contact. Each piece lies inside the inflated triangle, so
/// no hit is before the true contact; the pieces' hit tests accept points slightly beyond
/// their ranges (relative `10⁻⁹`), so rounding at a boundary between two pieces cannot drop
/// both: a hit on a piece extended a little is at worst a little *early*. The time is rounded
/// down to `f32`, never up: a late time would let the sphere start inside the triangle.
pub fn sphere_triangle(p: Vec3, v: Vec3, radius: f32, triangle: &Triangle, t_max: f32) -> Option<f32> {
    let (p, v) = (p.as_dvec3(), v.as_dvec3());
    let (r, t_max) = (f64::from(radius), f64::from(t_max));
    let corners = [triangle.a.as_dvec3(), triangle.b.as_dvec3(), triangle.c.as_dvec3()];
    let normal = triangle.normal();
    // The face plane: the whole triangle lies in it, so a sphere that is farther from the plane
    // than `r` and does not close the gap within `t_max` cannot touch the triangle (the quick
    // reject for spheres moving parallel to it or away).
    let s0 = (p - corners[0]).dot(normal);
    let side = if s0 >= 0.0 { 1.0 } else { -1.0 };
    let (gap, closing) = (s0 * side - r, -v.dot(normal) * side);
    if gap > 0.0 && gap > closing.max(0.0) * t_max {
        return None;
    }
    if p.distance_squared(triangle.closest_point(p)) <= r * r {
        return None; // already touching: the discrete pass's
    }
    let mut best = f64::INFINITY;
    // Face: reached at `gap / closing`; there the centre projects to `p + v t − side · gap'`
    // in the plane, which must lie inside the triangle (all three edge functions
    // `((e₁ − e₀) × (q − e₀)) · n ≥ 0`, up to the tolerance, relative to twice the area).
    if gap > 0.0 && closing > 0.0 {
        let t = gap / closing;
        let centre = p + v * t;
        let q = centre - normal * (centre - corners[0]).dot(normal);
        let twice_area = (corners[1] - corners[0]).cross(corners[2] - corners[0]).dot(normal);
        let inside = (0..3).all(|i| {
            let (e0, e1) = (corners[i], corners[(i + 1) % 3]);
            (e1 - e0).cross(q - e0).dot(normal) >= -TOLERANCE * twice_area
        });
        if inside {
            best = t;
        }
    }
    for i in 0..3 {
        let (e0, e1) = (corners[i], corners[(i + 1) % 3]);
        let edge = e1 - e0;
        let length = edge.length();
        if length <= 0.0 {
            continue;
        }
        let direction = edge / length;
        // Edge: the components across the edge's line, `|m⊥ + v⊥ t| = r`.
        let m = p - e0;
        let (m_across, v_across) = (m - direction * m.dot(direction), v - direction * v.dot(direction));
        if let Some(t) = first_root(m_across, v_across, r) {
            let along = (m + v * t).dot(direction);
            if along >= -TOLERANCE * length && along <= (1.0 + TOLERANCE) * length {
                best = best.min(t);
            }
        }
        // Corner: `|p − e₀ + v t| = r`.
        if let Some(t) = first_root(m, v, r) {
            best = best.min(t);
        }
    }
    (best >= 0.0 && best <= t_max).then(|| round_down(best))
}

/// Whether a sphere (centre `p`, velocity `v`, `radius`) that already touches or overlaps the
/// static `triangle`, which [`sphere_triangle`] leaves to the discrete pass, moves into it so
/// fast that the discrete pass cannot be trusted with it: more than `fraction` of its radius
/// (along the line from its centre to its nearest point on the triangle) within `t_max`. The
/// discrete pass pushes a sphere out along that line, so a sphere whose centre reaches the
/// triangle is pushed out on the far side or not at all. That happens within a step when an
/// impact sends a sphere back into a face it touches (at an acute edge or corner).
pub(crate) fn plunges_into_triangle(
    p: Vec3,
    v: Vec3,
    radius: f32,
    triangle: &Triangle,
    t_max: f32,
    fraction: f32,
) -> bool {
    let (p, v, r) = (p.as_dvec3(), v.as_dvec3(), f64::from(radius));
    // Farther from the plane than `r`: not touching (the common case, without a nearest point).
    if (p - triangle.a.as_dvec3()).dot(triangle.normal()).abs() > r {
        return false;
    }
    let toward = triangle.closest_point(p) - p;
    let distance_squared = toward.length_squared();
    // `v·toward · t_max > fraction · r · |toward|`: the approach speed times `t_max` is more
    // than `fraction · r`.
    let approach = v.dot(toward) * f64::from(t_max);
    distance_squared <= r * r
        && approach > 0.0
        && approach * approach > (f64::from(fraction) * r).powi(2) * distance_squared
}

/// How far beyond its range (relative) a piece of the inflated triangle still counts as hit in
/// [`sphere_triangle`]: far above `f64` rounding (`10⁻¹⁶`), far below `f32`'s (`6·10⁻⁸`).
const TOLERANCE: f64 = 1e-9;

/// The first time `t ≥ 0` at which `|d + w t| = r`, for `|d| > r` and `d` approaching, or
/// `None`: the smaller root of `(w·w) t² + 2 (d·w) t + (d·d − r²) = 0`, in the citardauq form
/// `c / (−b + √(b² − ac))`, stable because `−b > 0` (as in [`spheres`]).
fn first_root(d: DVec3, w: DVec3, r: f64) -> Option<f64> {
    let b = d.dot(w);
    let c = d.length_squared() - r * r;
    if b >= 0.0 || c <= 0.0 {
        return None; // moving away or along, or already within `r` (another piece's then)
    }
    let discriminant = b * b - w.length_squared() * c;
    (discriminant >= 0.0).then(|| c / (-b + discriminant.sqrt()))
}

/// `t` as `f32`, rounded towards zero (for `t ≥ 0`), so that a time of impact is never late.
fn round_down(t: f64) -> f32 {
    let rounded = t as f32;
    if f64::from(rounded) > t && rounded > 0.0 {
        f32::from_bits(rounded.to_bits() - 1)
    } else {
        rounded
    }
}
