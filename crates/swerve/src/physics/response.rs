//! Collision response: impulses along the contact normal, Coulomb friction along its tangent,
//! and position correction.
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
/// and the impulse's magnitude (N·s, > 0, which a contact with friction caps its tangential
/// impulse by), or `None` when they do not approach (separating or resting: no impulse).
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
) -> Option<(DVec2, DVec2, f64)> {
    let approach = (vb - va).dot(normal);
    // Two kinematic balls (both inverse masses 0) pass through each other.
    if approach >= 0.0 || inv_ma + inv_mb == 0.0 {
        return None;
    }
    let j = -(1.0 + e) * approach / (inv_ma + inv_mb);
    Some((va - normal * (j * inv_ma), vb + normal * (j * inv_mb), j))
}

/// One side of a contact with friction: a ball's velocity (`f64`, with its residual),
/// angular velocity, inverse mass and radius (the lever arm from its centre to the contact
/// point). A static partner (box wall, segment) is [`RimSide::STATIC`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RimSide {
    /// Velocity of the centre (m/s).
    pub velocity: DVec2,
    /// Angular velocity (rad/s, counter-clockwise positive).
    pub spin: f64,
    /// `1 / m`; 0 for a kinematic ball or a static partner.
    pub inverse_mass: f64,
    /// Distance from the centre to the contact point (m).
    pub radius: f64,
}

impl RimSide {
    /// A static partner: it does not move, and its rim has no speed.
    pub const STATIC: RimSide = RimSide { velocity: DVec2::ZERO, spin: 0.0, inverse_mass: 0.0, radius: 0.0 };

    /// How much a tangential impulse `j` at the rim changes the spin, per unit of `j`: the
    /// lever arm over the moment of inertia of a solid disc, `r / (½ m r²) = 2 / (m r)` (0 for
    /// infinite mass).
    #[inline]
    pub fn spin_per_impulse(&self) -> f64 {
        if self.inverse_mass == 0.0 {
            0.0
        } else {
            2.0 * self.inverse_mass / self.radius
        }
    }
}

/// The inverse of a contact's effective mass along its tangent: how much a unit tangential
/// impulse changes the relative sliding speed at the contact. For solid discs each side adds
/// `1/m + r²/I = 3/m` (the rim turns as well as the centre moving).
#[inline]
pub fn tangent_inverse_mass(a: &RimSide, b: &RimSide) -> f64 {
    3.0 * (a.inverse_mass + b.inverse_mass)
}

/// How fast `b`'s rim slides past `a`'s at their contact, along the tangent `perp(normal)`
/// (`normal`: unit, from `a` towards `b`; the contact point is `r_a` along it from `a` and
/// `r_b` back from `b`). A rim point moves at `v + ω × r`, and `ω × (r·n) = ω r · perp(n)`.
#[inline]
pub fn sliding_speed(a: &RimSide, b: &RimSide, normal: DVec2) -> f64 {
    (b.velocity - a.velocity).dot(normal.perp()) - b.spin * b.radius - a.spin * a.radius
}

/// Applies a tangential impulse `j` to both sides of a contact along `perp(normal)`: `+j` on
/// `b`, `−j` on `a`. Each rim's impulse turns its disc the same way, `Δω = −j · 2/(m r)`
/// (a push along `+perp(n)` at `−r·n` from `b`'s centre turns `b` clockwise; the opposite push
/// at `+r·n` from `a`'s centre turns `a` clockwise too).
#[inline]
pub fn apply_tangent_impulse(a: &mut RimSide, b: &mut RimSide, normal: DVec2, j: f64) {
    let tangent = normal.perp();
    a.velocity -= tangent * (j * a.inverse_mass);
    b.velocity += tangent * (j * b.inverse_mass);
    a.spin -= j * a.spin_per_impulse();
    b.spin -= j * b.spin_per_impulse();
}

/// Coulomb friction of an impact between `a` and `b` (after its normal impulse): the
/// tangential impulse that stops the rims sliding past each other, capped at `limit` (the
/// friction coefficient times the normal impulse); returns it (on `b`, along `perp(normal)`)
/// and applies it. A rim that would need more than `limit` to stop keeps sliding, slower.
#[inline]
pub fn impact_friction(a: &mut RimSide, b: &mut RimSide, normal: DVec2, limit: f64) -> f64 {
    let k = tangent_inverse_mass(a, b);
    if k == 0.0 {
        return 0.0;
    }
    let j = (-sliding_speed(a, b, normal) / k).clamp(-limit, limit);
    apply_tangent_impulse(a, b, normal, j);
    j
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
    let (share_a, share_b) = correction_shares(ma, mb);
    (pa - normal * (overlap * share_a), pb + normal * (overlap * share_b))
}

/// The shares of a position correction that bodies of masses `ma` and `mb` take (each the
/// *other's* mass over the total; a kinematic body, of infinite mass, takes none). Shared with
/// the 3-D world.
#[inline]
pub(crate) fn correction_shares(ma: f32, mb: f32) -> (f32, f32) {
    let total = ma + mb;
    match (ma.is_finite(), mb.is_finite()) {
        _ if total.is_finite() => (mb / total, ma / total),
        // ∞/∞ would be NaN: the finite side moves all the way, or neither does.
        (true, false) => (1.0, 0.0),
        (false, true) => (0.0, 1.0),
        (false, false) => (0.0, 0.0),
        // Two finite masses whose sum overflows `f32`: about equal, so half each.
        (true, true) => (0.5, 0.5),
    }
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
