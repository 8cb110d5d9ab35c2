//! The ORCA plane, and the few vector operations whose rounding RVO2-3D fixes.

use glam::Vec3;

/// An ORCA constraint in velocity space: the closed half-space of velocities `v` with
/// `(v - point) · normal ≥ 0` (RVO2-3D's `Plane`; the 3-D analogue of
/// [`HalfPlane`](crate::HalfPlane)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Plane {
    /// A point on the boundary plane (m/s).
    pub point: Vec3,
    /// The unit normal, pointing into the permitted side.
    pub normal: Vec3,
}

impl Plane {
    /// By how much `velocity` lies on the forbidden side (m/s; > 0 means it breaks the
    /// constraint). RVO2-3D's test `normal · (point − v) > 0`, in its order of operations.
    #[inline(always)]
    pub fn violation(&self, velocity: Vec3) -> f32 {
        self.normal.dot(self.point - velocity)
    }

    /// Whether the point and the normal are finite (an exactly degenerate pair gives a NaN
    /// plane, which every one of RVO2-3D's linear programs skips).
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.point.is_finite() && self.normal.is_finite()
    }
}

/// `v / s` as RVO2-3D's `Vector3::operator/` computes it: times the reciprocal, which rounds
/// differently from three divisions.
#[inline(always)]
pub(crate) fn div(v: Vec3, s: f32) -> Vec3 {
    v * (1.0 / s)
}

/// `v / |v|` in RVO2-3D's rounding (`normalize`).
#[inline(always)]
pub(crate) fn unit(v: Vec3) -> Vec3 {
    div(v, v.length())
}

/// `x²`.
#[inline(always)]
pub(crate) fn sqr(x: f32) -> f32 {
    x * x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glam_agrees_with_rvo2_3d_on_dot_cross_and_length() {
        // RVO2-3D sums a dot product x, y, z from the left and crosses as (y1 z2 − z1 y2, …);
        // the exactness of everything above rests on glam doing the same.
        let a = Vec3::new(0.1, -7.3, 2.9);
        let b = Vec3::new(3.3, 0.7, -1.1);
        let dot = (a.x * b.x + a.y * b.y) + a.z * b.z;
        assert_eq!(a.dot(b).to_bits(), dot.to_bits());
        let cross = Vec3::new(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
        assert_eq!(a.cross(b).to_array().map(f32::to_bits), cross.to_array().map(f32::to_bits));
        assert_eq!(a.length().to_bits(), dot_self(a).sqrt().to_bits());
        // Times the reciprocal, which for 10 / 3 rounds one unit away from the quotient.
        let ten_thirds = div(Vec3::new(10.0, 0.0, 0.0), 3.0).x;
        assert_eq!(ten_thirds.to_bits(), (10.0 * (1.0f32 / 3.0)).to_bits());
        assert_ne!(ten_thirds.to_bits(), (10.0f32 / 3.0).to_bits());
    }

    fn dot_self(a: Vec3) -> f32 {
        (a.x * a.x + a.y * a.y) + a.z * a.z
    }
}
