//! Collision response: impulses along the contact normal and position correction.
//!
//! Seed 003 §2 decomposes both velocities onto the line of centres with `atan2`, `cos` and
//! `sin` and applies the 1-D elastic formula `v₁'' = ((m₁ − m₂)v₁' + 2m₂v₂') / (m₁ + m₂)`
//! to the normal components. That is algebraically the impulse
//! `j = −(1 + e)(v_rel · n) / (1/m₁ + 1/m₂)` along the unit normal `n` with `e = 1`, which
//! needs no trigonometry and extends to restitution `e < 1` ([`seed_elastic_velocities`]
//! keeps the seed's form as a test oracle). Two fixes over the seed: the impulse is applied
//! only while the balls approach (`v_rel · n < 0`), and masses are real masses.
//!
//! The arithmetic is `f64`: the world keeps each velocity as an `f32` value plus an `f32`
//! residual, and computing the impulse in `f64` is what lets energy and momentum be conserved
//! to `f64` precision (see [`crate::physics::World`]).

use glam::{DVec2, Vec2};

/// Velocities of two balls after an impulse along `normal` (unit, pointing from `a` to `b`),
/// or `None` when they do not approach (separating or resting: no impulse).
///
/// `inv_ma`, `inv_mb` are inverse masses; `e` is the restitution.
#[inline]
pub fn ball_ball_impulse(
    va: DVec2,
    vb: DVec2,
    inv_ma: f64,
    inv_mb: f64,
    normal: DVec2,
    e: f64,
) -> Option<(DVec2, DVec2)> {
    let approach = (vb - va).dot(normal);
    // Two kinematic balls (both inverse masses 0) pass through each other.
    if approach >= 0.0 || inv_ma + inv_mb == 0.0 {
        return None;
    }
    let j = -(1.0 + e) * approach / (inv_ma + inv_mb);
    Some((va - normal * (j * inv_ma), vb + normal * (j * inv_mb)))
}

/// Velocity of a ball after bouncing off a static wall whose unit `normal` points from the
/// wall towards the ball, or `None` when the ball is not moving into the wall.
#[inline]
pub fn wall_impulse(v: DVec2, normal: DVec2, e: f64) -> Option<DVec2> {
    let vn = v.dot(normal);
    if vn >= 0.0 {
        return None;
    }
    Some(v - normal * ((1.0 + e) * vn))
}

/// Moves two overlapping balls apart along `normal` (unit, from `a` to `b`) by `overlap`,
/// each in proportion to the *other's* mass (inverse-mass weighting), so the centre of mass
/// does not move. A kinematic ball (infinite mass) does not move and the other takes the whole
/// correction; two kinematic balls stay where they are. Returns the new positions.
#[inline]
pub fn separate(pa: Vec2, ma: f32, pb: Vec2, mb: f32, normal: Vec2, overlap: f32) -> (Vec2, Vec2) {
    let total = ma + mb;
    let (share_a, share_b) = match (ma.is_finite(), mb.is_finite()) {
        _ if total.is_finite() => (mb / total, ma / total),
        // ∞/∞ would be NaN: the finite side moves all the way, or neither does.
        (true, false) => (1.0, 0.0),
        (false, true) => (0.0, 1.0),
        (false, false) => (0.0, 0.0),
        // Two finite masses whose sum overflows `f32`: about equal, so half each.
        (true, true) => (0.5, 0.5),
    };
    (pa - normal * (overlap * share_a), pb + normal * (overlap * share_b))
}

/// Seed 003 §2.2–2.4 verbatim (angles, `atan2`, `cos`, `sin`): the velocities after a
/// perfectly elastic collision of balls at `pa` and `pb`. Used as an oracle in the tests;
/// the world uses [`ball_ball_impulse`].
pub fn seed_elastic_velocities(pa: DVec2, va: DVec2, ma: f64, pb: DVec2, vb: DVec2, mb: f64) -> (DVec2, DVec2) {
    let theta = (pb.y - pa.y).atan2(pb.x - pa.x);
    let (s1, a1) = (va.length(), va.y.atan2(va.x));
    let (s2, a2) = (vb.length(), vb.y.atan2(vb.x));
    let (vx1, vy1) = (s1 * (a1 - theta).cos(), s1 * (a1 - theta).sin());
    let (vx2, vy2) = (s2 * (a2 - theta).cos(), s2 * (a2 - theta).sin());
    let vx1n = ((ma - mb) * vx1 + 2.0 * mb * vx2) / (ma + mb);
    let vx2n = ((mb - ma) * vx2 + 2.0 * ma * vx1) / (ma + mb);
    let half_pi = std::f64::consts::FRAC_PI_2;
    let back = |vx: f64, vy: f64| {
        DVec2::new(vx * theta.cos() + vy * (theta + half_pi).cos(), vx * theta.sin() + vy * (theta + half_pi).sin())
    };
    (back(vx1n, vy1), back(vx2n, vy2))
}
