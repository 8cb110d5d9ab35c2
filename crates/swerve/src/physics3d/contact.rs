//! Contact events in three dimensions: the collisions the last step resolved, for code that
//! reacts to hits (a sound, damage, a reward), as the planar world's
//! [`crate::physics::Contact`]s.
//!
//! Off by default ([`super::World::set_record_contacts`]): the step then only pays a branch
//! per collision. On, each resolution is logged as it happens and the log is folded at the end
//! of the step into one [`Contact`] per touching pair (the planar world's log, generic).

use glam::{DVec3, Vec3};

use super::SphereId;
use crate::physics::contact::{ContactLog, Resolution};

/// A wall of the world's box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BoxWall {
    /// The wall at `bounds.min.x`.
    MinX,
    /// The wall at `bounds.max.x`.
    MaxX,
    /// The wall at `bounds.min.y`.
    MinY,
    /// The wall at `bounds.max.y`.
    MaxY,
    /// The wall at `bounds.min.z`.
    MinZ,
    /// The wall at `bounds.max.z`.
    MaxZ,
}

impl BoxWall {
    /// The wall at the `max` (or `min`) end of `axis` (0 = x, 1 = y, 2 = z).
    pub(crate) fn on(axis: usize, max: bool) -> BoxWall {
        const WALLS: [[BoxWall; 2]; 3] =
            [[BoxWall::MinX, BoxWall::MaxX], [BoxWall::MinY, BoxWall::MaxY], [BoxWall::MinZ, BoxWall::MaxZ]];
        WALLS[axis][usize::from(max)]
    }
}

/// Something a sphere can collide with (and a ray can meet) in a 3-D world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Collider {
    /// A sphere (in a [`Contact`], the one added after [`Contact::sphere`]).
    Sphere(SphereId),
    /// A static triangle, by its index in [`super::World::triangles`].
    Triangle(usize),
    /// A wall of the world's box.
    Wall(BoxWall),
}

/// A collision of the last step: every resolution between the same two partners within the
/// step, folded into one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The sphere; of two spheres, the one added first.
    pub sphere: SphereId,
    /// What it touched.
    pub partner: Collider,
    /// Seconds into the step of the first resolution: 0 for resting contacts (with gravity,
    /// solved before anything moves), the time of impact for collisions found by continuous
    /// detection and for wall bounces, the step's length for overlaps resolved after the move
    /// (with substeps, [`super::World::set_substeps`]: the same within the substep, counted
    /// from the step's start).
    pub time: f32,
    /// The total impulse on [`Contact::sphere`] (N·s): its momentum changed by this much
    /// through this contact, and a partner sphere's by the opposite. Zero when the pair was
    /// only pushed apart (it was already separating).
    pub impulse: Vec3,
    /// Unit normal at the first resolution, from the sphere towards its partner.
    pub normal: Vec3,
}

/// The 3-D world's log.
pub(crate) type SphereContactLog = ContactLog<Collider, DVec3, Vec3, Contact>;

/// The contact of a folded resolution (`ids[i]` is the id of packed sphere `i`).
pub(crate) fn named_contact(r: Resolution<Collider, DVec3, Vec3>, ids: &[SphereId]) -> Contact {
    let partner = match r.partner {
        Collider::Sphere(j) => Collider::Sphere(ids[j.0 as usize]),
        other => other,
    };
    Contact { sphere: ids[r.ball as usize], partner, time: r.time, impulse: r.impulse.as_vec3(), normal: r.normal }
}
