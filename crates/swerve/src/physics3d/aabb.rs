//! The axis-aligned box of the 3-D ball world.

use glam::Vec3;

/// An axis-aligned box in space (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb3 {
    /// The corner with the smallest coordinates.
    pub min: Vec3,
    /// The corner with the largest coordinates.
    pub max: Vec3,
}

impl Aabb3 {
    /// The box around a sphere.
    #[inline]
    pub fn around_sphere(center: Vec3, radius: f32) -> Aabb3 {
        Aabb3 { min: center - Vec3::splat(radius), max: center + Vec3::splat(radius) }
    }

    /// Whether the two boxes overlap (touching counts).
    ///
    /// Non-short-circuit `&`: one predictable branch on the (rare) overlap instead of up to six
    /// unpredictable ones, as in the planar broad phases.
    #[inline(always)]
    pub fn overlaps(&self, other: &Aabb3) -> bool {
        self.min.cmple(other.max).all() & other.min.cmple(self.max).all()
    }

    /// Whether `inner` lies inside this box (touching counts; a NaN coordinate never does).
    #[inline]
    pub fn contains(&self, inner: &Aabb3) -> bool {
        self.min.cmple(inner.min).all() & inner.max.cmple(self.max).all()
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(&self, other: &Aabb3) -> Aabb3 {
        Aabb3 { min: self.min.min(other.min), max: self.max.max(other.max) }
    }
}
