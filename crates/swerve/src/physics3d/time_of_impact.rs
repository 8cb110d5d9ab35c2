//! Time of impact of two moving spheres (seed 003 §6.3.3, tunnelling, in three dimensions).
//!
//! For two spheres moving linearly the gap closes when `|d + w t| = R` (`d` the centre offset,
//! `w` the relative velocity, `R` the radius sum): the smaller root of
//! `(w·w)t² + 2(d·w)t + (d·d − R²) = 0`, the planar formula with a third coordinate. Roots are
//! computed in `f64`: the discriminant cancels badly in `f32` for grazing contacts.

use glam::Vec3;

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
