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

    /// Whether the segment from `a` to `b` meets the box (touching counts): the slab test
    /// (Ericson, RTCD §5.3.3), in `f64`.
    pub fn meets_segment(&self, a: Vec3, b: Vec3) -> bool {
        let (a, b, low, high) = (a.as_dvec3(), b.as_dvec3(), self.min.as_dvec3(), self.max.as_dvec3());
        let direction = b - a;
        let (mut enter, mut leave) = (0.0f64, 1.0f64);
        for axis in 0..3 {
            let (start, step) = (a[axis], direction[axis]);
            if step == 0.0 {
                if start < low[axis] || start > high[axis] {
                    return false;
                }
                continue;
            }
            let (t0, t1) = ((low[axis] - start) / step, (high[axis] - start) / step);
            enter = enter.max(t0.min(t1));
            leave = leave.min(t0.max(t1));
        }
        enter <= leave
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_meets_a_box_it_passes_through_or_touches() {
        let unit = Aabb3 { min: Vec3::ZERO, max: Vec3::ONE };
        assert!(unit.meets_segment(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(2.0, 0.5, 0.5)));
        // Inside, ending inside, and touching a face count; beside, short of it, or parallel
        // outside do not.
        assert!(unit.meets_segment(Vec3::splat(0.5), Vec3::splat(0.6)));
        assert!(unit.meets_segment(Vec3::new(-1.0, 1.0, 0.5), Vec3::new(2.0, 1.0, 0.5)));
        assert!(!unit.meets_segment(Vec3::new(-1.0, 1.4, 0.5), Vec3::new(2.0, 1.4, 0.5)));
        assert!(!unit.meets_segment(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(-0.5, 0.5, 0.5)));
        // Diagonal past a corner: misses by a little.
        assert!(!unit.meets_segment(Vec3::new(-1.0, 0.1, 0.5), Vec3::new(0.1, -1.0, 0.5)));
        assert!(unit.meets_segment(Vec3::new(-1.0, 1.5, 0.5), Vec3::new(1.5, -1.0, 0.5)));
    }
}
