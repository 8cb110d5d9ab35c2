//! Time of impact of moving discs, against each other and against static segments.
//!
//! Seed 003 §6.3.3 describes tunnelling: a bullet that is left of a wall in one frame and right
//! of it in the next never overlaps it. Continuous detection asks instead *when* within the
//! step the swept shapes first touch. For two discs moving linearly, the gap closes when
//! `|d + w t| = R` (`d` the centre offset, `w` the relative velocity, `R` the radius sum): the
//! smaller root of `(w·w)t² + 2(d·w)t + (d·d − R²) = 0`. A disc against a segment is a point
//! against the segment inflated by the radius (a capsule): two offset lines and two end discs.
//!
//! Roots are computed in `f64`: the discriminant cancels badly in `f32` for grazing contacts.

use glam::{DVec2, Vec2};

/// Earliest time `t ∈ [0, t_max]` at which two discs moving linearly first touch while
/// approaching, or `None`. Discs that already overlap at `t = 0` return `None`: the
/// discrete contact pass handles them.
#[inline]
pub fn discs(pa: Vec2, va: Vec2, pb: Vec2, vb: Vec2, radius_sum: f32, t_max: f32) -> Option<f32> {
    // The spheres' formula with z = 0: the zero terms add exactly, so the bits are the discs'.
    crate::physics3d::time_of_impact::spheres(
        pa.extend(0.0),
        va.extend(0.0),
        pb.extend(0.0),
        vb.extend(0.0),
        radius_sum,
        t_max,
    )
}

/// Earliest time `t ∈ [0, t_max]` at which a disc (`p`, `v`, `radius`) moving linearly first
/// touches the static segment `[a, b]` while approaching it, with the contact normal (from the
/// segment towards the disc), or `None`. A disc already touching the segment returns `None`.
pub fn disc_segment(p: Vec2, v: Vec2, radius: f32, a: Vec2, b: Vec2, t_max: f32) -> Option<(f32, Vec2)> {
    let (p, v, a, b) = (p.as_dvec2(), v.as_dvec2(), a.as_dvec2(), b.as_dvec2());
    let r = f64::from(radius);
    let t_max = f64::from(t_max);
    let ab = b - a;
    let len = ab.length();
    if len <= 0.0 {
        return None;
    }
    let dir = ab / len;
    let mut best: Option<(f64, DVec2)> = None;
    let mut consider = |t: f64, n: DVec2| {
        if t >= 0.0 && t <= t_max && best.map_or(true, |(bt, _)| t < bt) {
            best = Some((t, n));
        }
    };
    // Interior: the offset line on the side the disc starts on.
    let normal = dir.perp();
    let s0 = (p - a).dot(normal);
    let vn = v.dot(normal);
    let side = if s0 >= 0.0 { 1.0 } else { -1.0 };
    let dist0 = s0 * side;
    if dist0 <= r {
        // Already touching the supporting line: only a contact if within the segment's span,
        // in which case the discrete pass owns it; otherwise only the end discs can be hit.
        let along = (p - a).dot(dir);
        if (0.0..=len).contains(&along) {
            return None;
        }
    } else if vn * side < 0.0 {
        let t = (dist0 - r) / (-vn * side);
        let along = (p + v * t - a).dot(dir);
        if (0.0..=len).contains(&along) {
            consider(t, normal * side);
        }
    }
    // End points: a moving disc against a fixed point.
    for end in [a, b] {
        let d = end - p;
        let w = -v;
        let bq = d.dot(w);
        let c = d.length_squared() - r * r;
        if bq >= 0.0 || c <= 0.0 {
            continue;
        }
        let disc = bq * bq - w.length_squared() * c;
        if disc < 0.0 {
            continue;
        }
        let t = c / (-bq + disc.sqrt());
        let contact = p + v * t;
        consider(t, (contact - end).normalize_or_zero());
    }
    best.map(|(t, n)| (t as f32, n.as_vec2()))
}
