//! Coulomb friction between spheres (and against walls): the tangential impulse at a contact
//! point, which turns spheres as well as slowing them.
//!
//! A contact point on sphere `a` moves at `v + ω × r` (`r` from the centre to the point). An
//! impulse `P` there changes the centre's velocity by `P / m` and the spin by
//! `I⁻¹ (r × P)`, with `I = 2/5 m r²` for a solid sphere; for `P` in the tangent plane (so
//! `P ⊥ r`) the point's velocity changes by `(1/m + r²/I) P = 7/(2m) P`. So a pair's tangential
//! "inverse mass" is `7/2 (1/m_a + 1/m_b)`, and the impulse that stops the two points sliding
//! past each other is their sliding velocity over it, capped by Coulomb's law at `μ` times the
//! normal impulse (a disc in the tangent plane: isotropic friction). The planar world does the
//! same with discs (`I = ½ m r²`, a scalar spin).

use glam::DVec3;

/// One side of a contact: a sphere's velocity and spin (`f64`), inverse mass and inverse moment
/// of inertia, and the arm from its centre to the contact point. A static side (a wall, or a
/// kinematic sphere's infinite mass) has inverse mass and inertia 0.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactSide {
    pub velocity: DVec3,
    pub spin: DVec3,
    pub inverse_mass: f64,
    pub inverse_inertia: f64,
    pub arm: DVec3,
}

impl ContactSide {
    /// A wall: nothing moves, nothing gives way.
    pub const STATIC: ContactSide = ContactSide {
        velocity: DVec3::ZERO,
        spin: DVec3::ZERO,
        inverse_mass: 0.0,
        inverse_inertia: 0.0,
        arm: DVec3::ZERO,
    };

    /// Velocity of the contact point.
    #[inline]
    fn point_velocity(&self) -> DVec3 {
        self.velocity + self.spin.cross(self.arm)
    }

    /// Applies impulse `p` at the contact point.
    #[inline]
    fn push(&mut self, p: DVec3) {
        self.velocity += p * self.inverse_mass;
        self.spin += self.arm.cross(p) * self.inverse_inertia;
    }
}

/// The velocity at which `b`'s contact point slides past `a`'s, in the tangent plane of unit
/// normal `normal`.
#[inline]
pub(crate) fn sliding_velocity(a: &ContactSide, b: &ContactSide, normal: DVec3) -> DVec3 {
    let u = b.point_velocity() - a.point_velocity();
    u - normal * u.dot(normal)
}

/// The change of the sliding velocity per unit of tangential impulse on `b` (and its opposite
/// on `a`): `1/m + r²/I` for each side (module docs).
#[inline]
pub(crate) fn tangent_inverse_mass(a: &ContactSide, b: &ContactSide) -> f64 {
    a.inverse_mass
        + a.inverse_inertia * a.arm.length_squared()
        + b.inverse_mass
        + b.inverse_inertia * b.arm.length_squared()
}

/// Applies the tangential impulse `p` on `b` and `−p` on `a`.
#[inline]
pub(crate) fn apply_tangent_impulse(a: &mut ContactSide, b: &mut ContactSide, p: DVec3) {
    a.push(-p);
    b.push(p);
}

/// Friction of an impact that has just given the pair its normal impulse: the tangential
/// impulse on `b` that stops the contact points sliding, capped at `limit` (N·s: the friction
/// coefficient times the normal impulse); applies it and returns it. A pair that would need
/// more keeps sliding, slower.
#[inline]
pub(crate) fn impact_friction(a: &mut ContactSide, b: &mut ContactSide, normal: DVec3, limit: f64) -> DVec3 {
    let k = tangent_inverse_mass(a, b);
    let u = sliding_velocity(a, b, normal);
    if k == 0.0 || u == DVec3::ZERO {
        return DVec3::ZERO;
    }
    let stop = -u / k;
    let length = stop.length();
    let p = if length > limit { stop * (limit / length) } else { stop };
    apply_tangent_impulse(a, b, p);
    p
}
