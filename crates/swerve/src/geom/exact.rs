//! Vector operations with RVO2's exact rounding.
//!
//! RVO2 2.0 (`Vector.h`) computes `v / s` as `v * (1 / s)`, `abs(v)` as `sqrt(v · v)` and
//! `normalize(v)` as `v / abs(v)`; dot and determinant are the obvious two products and one
//! sum. Rust never contracts `a * b + c` into a fused multiply-add on its own, so writing the
//! same expressions in the same order gives the same `f32` bits as RVO2 compiled without FMA
//! (`-ffp-contract=off`), which is how the reference recordings were made.

use glam::Vec2;

/// RVO2's `RVO_EPSILON`: the tolerance for "parallel" lines in the linear programs and for
/// "on the line" in obstacle processing.
pub const EPSILON: f32 = 0.00001;

/// `a · b`, as `a.x * b.x + a.y * b.y`.
#[inline(always)]
pub fn dot(a: Vec2, b: Vec2) -> f32 {
    a.x * b.x + a.y * b.y
}

/// The 2-D cross product `a × b = a.x * b.y - a.y * b.x` (RVO2's `det`).
///
/// Positive when `b` points to the left of `a`.
#[inline(always)]
pub fn det(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// `|v|²`.
#[inline(always)]
pub fn length_squared(v: Vec2) -> f32 {
    dot(v, v)
}

/// `|v|`, as `sqrt(v · v)`.
#[inline(always)]
pub fn length(v: Vec2) -> f32 {
    length_squared(v).sqrt()
}

/// `v / s`, as RVO2 computes it: multiplied by the reciprocal `1 / s`.
#[inline(always)]
pub fn div(v: Vec2, s: f32) -> Vec2 {
    let inv = 1.0 / s;
    Vec2::new(v.x * inv, v.y * inv)
}

/// `v / |v|` (through [`div`], so with RVO2's rounding).
#[inline(always)]
pub fn normalize(v: Vec2) -> Vec2 {
    div(v, length(v))
}

/// How far `c` lies to the left of the directed line from `a` to `b`, times `|b - a|`
/// (RVO2's `leftOf`: `det(a - c, b - a)`). Positive on the left.
#[inline(always)]
pub fn left_of(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    det(a - c, b - a)
}

/// The squared distance from `c` to the segment `a`–`b` (RVO2's `distSqPointLineSegment`).
#[inline(always)]
pub fn distance_squared_to_segment(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    let r = dot(c - a, b - a) / length_squared(b - a);
    if r < 0.0 {
        length_squared(c - a)
    } else if r > 1.0 {
        length_squared(c - b)
    } else {
        length_squared(c - (a + r * (b - a)))
    }
}

/// `std::min` of C++: `b` when `b < a`, otherwise `a` (so NaN and signed-zero ties resolve
/// exactly as in RVO2, unlike `f32::min`).
#[inline(always)]
pub fn cpp_min(a: f32, b: f32) -> f32 {
    if b < a {
        b
    } else {
        a
    }
}

/// `std::max` of C++: `b` when `a < b`, otherwise `a`.
#[inline(always)]
pub fn cpp_max(a: f32, b: f32) -> f32 {
    if a < b {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_uses_the_reciprocal() {
        // `div` must equal multiplication by the rounded reciprocal, which for some of these
        // values differs from a correctly rounded division (else the test would prove nothing).
        let mut differs = 0;
        for i in 1..200 {
            let x = i as f32 * 0.37;
            for s in [3.0f32, 7.0, 10.0, 0.3, 1.7, 49.0] {
                let got = div(Vec2::new(x, -x), s);
                assert_eq!(got.x.to_bits(), (x * (1.0 / s)).to_bits());
                assert_eq!(got.y.to_bits(), (-x * (1.0 / s)).to_bits());
                if got.x.to_bits() != (x / s).to_bits() {
                    differs += 1;
                }
            }
        }
        assert!(differs > 0);
    }

    #[test]
    fn det_sign_means_left() {
        assert!(det(Vec2::X, Vec2::Y) > 0.0);
        assert!(left_of(Vec2::ZERO, Vec2::X, Vec2::new(0.5, 1.0)) > 0.0);
        assert!(left_of(Vec2::ZERO, Vec2::X, Vec2::new(0.5, -1.0)) < 0.0);
    }

    #[test]
    fn cpp_min_max_keep_first_on_ties_and_nan() {
        assert_eq!(cpp_min(0.0, -0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(cpp_max(-0.0, 0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(cpp_min(1.0, f32::NAN), 1.0);
        assert_eq!(cpp_max(1.0, f32::NAN), 1.0);
    }

    #[test]
    fn segment_distance_clamps_to_endpoints() {
        let a = Vec2::new(0.0, 0.0);
        let b = Vec2::new(2.0, 0.0);
        assert_eq!(distance_squared_to_segment(a, b, Vec2::new(1.0, 3.0)), 9.0);
        assert_eq!(distance_squared_to_segment(a, b, Vec2::new(-3.0, 4.0)), 25.0);
        assert_eq!(distance_squared_to_segment(a, b, Vec2::new(5.0, 4.0)), 25.0);
    }
}
