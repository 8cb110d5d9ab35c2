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

/// One resolution, as a step logged it: `ball` (and a partner ball or sphere) are indices
/// into the world's packed bodies until [`ContactLog::finish_step`] names them. Generic over
/// the partner `P`, the `f64` impulse `I` and the normal `N`, so that the planar and the
/// 3-D worlds share one log.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Resolution<P, I, N> {
    /// Packed index of the body.
    pub ball: u32,
    pub partner: P,
    /// Seconds into the step.
    pub time: f32,
    /// The change of the body's momentum (N·s).
    pub impulse: I,
    pub normal: N,
}

/// A world's contact recording: the step's resolutions and last step's folded contacts `C`.
pub(crate) struct ContactLog<P, I, N, C> {
    on: bool,
    /// Seconds from the step's start to the current substep's, added to every logged time.
    time_offset: f32,
    resolutions: Vec<Resolution<P, I, N>>,
    contacts: Vec<C>,
}

impl<P, I, N, C> Default for ContactLog<P, I, N, C> {
    fn default() -> Self {
        ContactLog { on: false, time_offset: 0.0, resolutions: Vec::new(), contacts: Vec::new() }
    }
}

/// The planar world's log.
pub(crate) type PlanarContactLog = ContactLog<Collider, DVec2, Vec2, Contact>;

impl<P: Copy + Ord, I: Copy + std::ops::AddAssign, N: Copy, C> ContactLog<P, I, N, C> {
    pub(crate) fn is_on(&self) -> bool {
        self.on
    }

    pub(crate) fn set_on(&mut self, on: bool) {
        self.on = on;
        self.resolutions.clear();
        self.contacts.clear();
    }

    /// The last step's contacts.
    pub(crate) fn contacts(&self) -> &[C] {
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

    /// Logs one resolution of body `ball` (a packed index) against `partner` (a partner body
    /// as a packed index too) at `time` into the substep; `impulse` is the change of the
    /// body's momentum.
    #[inline]
    pub(crate) fn record(&mut self, ball: usize, partner: P, time: f32, impulse: I, normal: N) {
        if self.on {
            let time = self.time_offset + time;
            self.resolutions.push(Resolution { ball: ball as u32, partner, time, impulse, normal });
        }
    }

    /// Folds the step's resolutions into one contact per pair, ordered by body and partner:
    /// the first resolution's time and normal, the sum of the impulses. `contact` turns the
    /// folded resolution into the world's contact (naming its bodies by id).
    pub(crate) fn finish_step(&mut self, contact: impl Fn(Resolution<P, I, N>) -> C) {
        if !self.on {
            return;
        }
        // Times are ≥ 0, where the bits order like the numbers; the unstable sort does not
        // allocate (a stable one would), and the key makes its order total anyway.
        self.resolutions.sort_unstable_by_key(|r| (r.ball, r.partner, r.time.to_bits()));
        let mut k = 0;
        while k < self.resolutions.len() {
            let mut folded = self.resolutions[k];
            k += 1;
            while k < self.resolutions.len()
                && self.resolutions[k].ball == folded.ball
                && self.resolutions[k].partner == folded.partner
            {
                folded.impulse += self.resolutions[k].impulse;
                k += 1;
            }
            self.contacts.push(contact(folded));
        }
    }
}

/// The planar world's contact from a folded resolution (`ids[i]` is the id of packed ball
/// `i`).
pub(crate) fn planar_contact(r: Resolution<Collider, DVec2, Vec2>, ids: &[BallId]) -> Contact {
    let partner = match r.partner {
        Collider::Ball(j) => Collider::Ball(ids[j.0 as usize]),
        other => other,
    };
    Contact { ball: ids[r.ball as usize], partner, time: r.time, impulse: r.impulse.as_vec2(), normal: r.normal }
}
