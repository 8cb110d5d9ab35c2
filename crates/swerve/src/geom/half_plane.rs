//! The ORCA constraint: a directed line whose left side is permitted.

use super::exact::det;
use glam::Vec2;

/// A half-plane of permitted velocities: the points on or to the **left** of the directed line
/// through `point` with unit `direction`. RVO2 calls this a `Line`.
///
/// Laid out as four `f32` (point x, point y, direction x, direction y), so that a SIMD vector
/// holding one can be stored as it is.
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct HalfPlane {
    /// A point on the boundary line (a velocity, m/s).
    pub point: Vec2,
    /// The boundary's unit direction; permitted velocities lie to its left.
    pub direction: Vec2,
}

impl HalfPlane {
    /// How far `v` lies outside the half-plane (positive = violated, in m/s), computed exactly
    /// as RVO2's linear programs test it: `det(direction, point - v)`.
    #[inline(always)]
    pub fn violation(&self, v: Vec2) -> f32 {
        det(self.direction, self.point - v)
    }

    /// Whether point and direction are finite.
    pub fn is_finite(&self) -> bool {
        self.point.is_finite() && self.direction.is_finite()
    }

    /// Whether `v` is permitted, with a tolerance in m/s.
    pub fn contains(&self, v: Vec2, tolerance: f32) -> bool {
        self.violation(v) <= tolerance
    }
}
