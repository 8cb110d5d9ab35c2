//! Contact events: the collisions the last step resolved, for code that reacts to hits (a
//! sound, damage, a reward), like Box2D's contact listener or rapier's collision events.
//!
//! Off by default ([`crate::physics::World::set_record_contacts`]): the step then only pays a
//! branch per collision. On, each resolution is logged as it happens and the log is folded at
//! the end of the step into one [`Contact`] per touching pair.

use glam::{DVec2, Vec2};

use super::ball::BallId;

/// One wall of the world's box.
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
}

impl BoxWall {
    /// The wall a ball meets moving along `axis` (0 = x, 1 = y) towards `+` (`positive`) or `−`.
    pub(crate) fn on(axis: usize, positive: bool) -> BoxWall {
        match (axis, positive) {
            (0, false) => BoxWall::MinX,
            (0, true) => BoxWall::MaxX,
            (_, false) => BoxWall::MinY,
            (_, true) => BoxWall::MaxY,
        }
    }
}

/// Something a ball can collide with (and a ray can hit): a ball, a static segment or a wall
/// of the world's box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Collider {
    /// A ball (in a [`Contact`], the one added after [`Contact::ball`]).
    Ball(BallId),
    /// A static segment, by its index in [`crate::physics::World::segments`].
    Segment(usize),
    /// A wall of the world's box.
    Wall(BoxWall),
}

/// A collision of the last step: every resolution between the same two partners within the
/// step, folded into one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The ball; of two balls, the one added first.
    pub ball: BallId,
    /// What it touched.
    pub partner: Collider,
    /// Seconds into the step of the first resolution: 0 for resting contacts (with gravity,
    /// solved before anything moves), the time of impact for collisions found by continuous
    /// detection and for wall bounces, the step's length for overlaps resolved after the move
    /// (with substeps, [`crate::physics::World::set_substeps`]: the same within the substep,
    /// counted from the step's start).
    pub time: f32,
    /// The total impulse on [`Contact::ball`] (N·s): its momentum changed by this much through
    /// this contact, and a partner ball's by the opposite. Zero when the pair was only pushed
    /// apart (it was already separating).
    pub impulse: Vec2,
    /// Unit normal at the first resolution, from the ball towards its partner.
    pub normal: Vec2,
}

/// One resolution, as the step logged it (`ball` and a partner ball are indices into the
/// world's packed balls until [`ContactLog::finish_step`] names them).
#[derive(Clone, Copy, Debug)]
struct Resolution {
    ball: u32,
    partner: Collider,
    time: f32,
    impulse: DVec2,
    normal: Vec2,
}

/// The world's contact recording: the step's resolutions and last step's folded contacts.
#[derive(Default)]
pub(crate) struct ContactLog {
    on: bool,
    /// Seconds from the step's start to the current substep's, added to every logged time.
    time_offset: f32,
    resolutions: Vec<Resolution>,
    contacts: Vec<Contact>,
}

impl ContactLog {
    pub(crate) fn is_on(&self) -> bool {
        self.on
    }

    pub(crate) fn set_on(&mut self, on: bool) {
        self.on = on;
        self.resolutions.clear();
        self.contacts.clear();
    }

    /// The last step's contacts.
    pub(crate) fn contacts(&self) -> &[Contact] {
        &self.contacts
    }

    /// Sets the start of the current substep, in seconds into the step.
    pub(crate) fn set_time_offset(&mut self, offset: f32) {
        self.time_offset = offset;
    }

    pub(crate) fn begin_step(&mut self) {
        self.resolutions.clear();
        self.contacts.clear();
    }

    /// Logs one resolution of ball `ball` (a packed index) against `partner` (a partner ball
    /// as a packed index too) at `time` into the step; `impulse` is the change of the ball's
    /// momentum.
    #[inline]
    pub(crate) fn record(&mut self, ball: usize, partner: Collider, time: f32, impulse: DVec2, normal: Vec2) {
        if self.on {
            let time = self.time_offset + time;
            self.resolutions.push(Resolution { ball: ball as u32, partner, time, impulse, normal });
        }
    }

    /// Folds the step's resolutions into one contact per pair, ordered by ball and partner,
    /// and names the balls by id (`ids[i]` is the id of packed ball `i`).
    pub(crate) fn finish_step(&mut self, ids: &[BallId]) {
        if !self.on {
            return;
        }
        // Times are ≥ 0, where the bits order like the numbers; the unstable sort does not
        // allocate (a stable one would), and the key makes its order total anyway.
        self.resolutions.sort_unstable_by_key(|r| (r.ball, r.partner, r.time.to_bits()));
        let mut k = 0;
        while k < self.resolutions.len() {
            let first = self.resolutions[k];
            let mut impulse = first.impulse;
            k += 1;
            while k < self.resolutions.len()
                && self.resolutions[k].ball == first.ball
                && self.resolutions[k].partner == first.partner
            {
                impulse += self.resolutions[k].impulse;
                k += 1;
            }
            let partner = match first.partner {
                Collider::Ball(j) => Collider::Ball(ids[j.0 as usize]),
                other => other,
            };
            self.contacts.push(Contact {
                ball: ids[first.ball as usize],
                partner,
                time: first.time,
                impulse: impulse.as_vec2(),
                normal: first.normal,
            });
        }
    }
}
