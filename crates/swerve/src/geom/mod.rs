//! Planar geometry shared by the crowd and the ball halves of the library.
//!
//! The vector type is [`glam::Vec2`] (`f32`). RVO2 compatibility is decided by the exact order
//! of floating-point operations, so the few operations whose rounding differs between
//! reasonable implementations (division by a scalar, normalisation, cross products) live in
//! [`exact`] and are used everywhere the ORCA code needs RVO2's bits.

pub mod exact;
mod half_plane;
mod polygon;

pub use glam::Vec2;
pub use half_plane::HalfPlane;
pub(crate) use polygon::inside_polygon;
pub use polygon::{distance_to_segment, validate_polygon, Winding};

/// An axis-aligned bounding box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub min: Vec2,
    /// The corner with the largest coordinates.
    pub max: Vec2,
}

impl Aabb {
    /// The box around a disc.
    pub fn around_disc(center: Vec2, radius: f32) -> Aabb {
        Aabb { min: center - Vec2::splat(radius), max: center + Vec2::splat(radius) }
    }

    /// Whether the two boxes overlap (touching counts).
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x && other.min.x <= self.max.x && self.min.y <= other.max.y && other.min.y <= self.max.y
    }

    /// Whether `inner` lies inside this box (touching counts; a NaN coordinate never does).
    #[inline]
    pub fn contains(&self, inner: &Aabb) -> bool {
        self.min.cmple(inner.min).all() & inner.max.cmple(self.max).all()
    }

    /// The smallest box holding all `points`; `None` for no points.
    pub fn from_points(points: impl IntoIterator<Item = Vec2>) -> Option<Aabb> {
        let mut it = points.into_iter();
        let first = it.next()?;
        let mut aabb = Aabb { min: first, max: first };
        for p in it {
            aabb.min = aabb.min.min(p);
            aabb.max = aabb.max.max(p);
        }
        Some(aabb)
    }
}
