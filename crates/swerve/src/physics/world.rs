//! The ball world and its step.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{DVec2, Vec2};

use super::ball::{Ball, BallId};
use super::broad_phase::{
    overlap, pairs_with_grown, partner_rows, BroadPhase, BroadPhaseDebug, BroadPhaseKind, GrownScratch, Pair,
};
use super::contact::{planar_contact, BoxWall, Collider, Contact, PlanarContactLog};
use super::narrow_phase::closest_point_on_segment;
use super::query::{self, RayHit};
use super::response::{ball_ball_impulse, impact_friction, separate, wall_impulse, RimSide};
use super::resting::{self, RestingContacts};
use super::segment_grid::SegmentGrid;
use super::time_of_impact;
use crate::error::Error;
use crate::geom::{validate_polygon, Aabb};

/// Marks the second index of an event as a segment index rather than a ball index.
const SEGMENT_FLAG: u32 = 1 << 31;

/// Marks a removed ball's id in `World::slots`.
const REMOVED: u32 = u32::MAX;

/// A static segment balls bounce off (both sides are solid).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// First end point.
    pub a: Vec2,
    /// Second end point.
    pub b: Vec2,
}

/// What the last [`World::step`] did — of the planar world, and of the 3-D one
/// ([`crate::physics3d::World::last_step_stats`]), whose spheres count as balls here and whose
/// only walls are its box's. With substeps ([`World::set_substeps`]) each count is the sum over
/// the substeps, but [`StepStats::correction_passes`], the most any one ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepStats {
    /// Ball–ball pairs the broad phase reported (a superset of the colliding pairs).
    pub candidate_pairs: usize,
    /// Ball–ball and ball–segment collisions resolved (impulses applied or overlaps corrected);
    /// bounces off the box walls are not counted.
    pub contacts: usize,
    /// Of those, collisions found by continuous detection at their time of impact.
    pub time_of_impact_events: usize,
    /// Balls that ended the step outside their swept box (deflected); when non-zero the broad
    /// phase ran a second time.
    pub escaped_swept_boxes: usize,
    /// Position-correction passes the discrete pass ran: the last one found nothing to correct,
    /// unless the count is [`World::CORRECTION_PASSES`] (dense packings; 16 in both worlds).
    pub correction_passes: usize,
    /// Times a position correction pushed a ball out of its swept box (and its room, see
    /// [`World::CORRECTION_ROOM`]); the pairs its grown box makes were looked up before the
    /// next pass (the 3-D world runs its broad phase again).
    pub pushed_out_of_box: usize,
    /// With gravity: the resting contacts (touching pairs, and balls touching a wall or a
    /// segment) solved together before the move (see [`World::set_gravity`]).
    pub resting_contacts: usize,
}

impl StepStats {
    /// Adds a substep's statistics to the step's.
    pub(crate) fn add(&mut self, substep: &StepStats) {
        self.candidate_pairs += substep.candidate_pairs;
        self.contacts += substep.contacts;
        self.time_of_impact_events += substep.time_of_impact_events;
        self.escaped_swept_boxes += substep.escaped_swept_boxes;
        self.correction_passes = self.correction_passes.max(substep.correction_passes);
        self.pushed_out_of_box += substep.pushed_out_of_box;
        self.resting_contacts += substep.resting_contacts;
    }
}

/// Balls in a box and/or around static segments.
///
/// # One step
/// 0. With [`World::set_linear_damping`], every velocity is scaled down first; with
///    [`World::set_gravity`], gravity is added to it, and after step 1 (whose boxes cover every
///    touching pair) the resting contacts are solved together.
/// 1. Each ball's *swept* box (its disc at the start and at the end of the step, including the
///    mirror image of a wall bounce, widened by [`World::CORRECTION_ROOM`]) goes to the broad
///    phase, which reports candidate pairs.
/// 2. Continuous detection, for the pairs that move fast relative to each other (more than
///    [`World::CONTINUOUS_FRACTION`] of the smaller radius per step) and for every ball near a
///    segment: the time of impact within the step is computed, the impacts are processed in
///    time order from a heap, each re-checked against the balls' current paths (an earlier
///    impact may have deflected them), and a deflected ball gets new impacts against its
///    candidate partners. During the step a ball's `position` holds the *anchor* of its path
///    `position + velocity · t`, so deflecting it at time `t` only moves its anchor. Slower
///    pairs cannot pass through each other within a step and are left to step 4.
/// 3. Every ball moves to the end of its path; box walls reflect it (mirror image of the
///    overshoot, exact for `e = 1`). A ball deflected out of its swept box makes the broad
///    phase run again on the grown boxes, so step 4 sees every overlapping pair.
/// 4. Discrete pass: overlapping pairs, sorted by index (so the result does not depend on the
///    broad phase), get the approach-only impulse and the mass-weighted position correction
///    ([`World::OVER_RELAXATION`]); up to [`World::CORRECTION_PASSES`] passes while corrections
///    push balls into others. A ball pushed out of its swept box gets the pairs of its grown
///    box looked up before the next pass, so the passes see every overlapping pair.
///
/// # Precision
/// Velocities are `f32`, but each has an `f32` residual (a double-`f32` value, like Kahan
/// summation): impulses are computed in `f64` on `velocity + residual` and split back, with
/// `f64` unit normals. With `f32` velocities alone every impulse rounds the two balls' energy by
/// ~2⁻²⁴ with a random sign; on a 1,600-ball pit (`e = 1`, 10,000 steps, ~144,000 contacts)
/// that measured a maximum relative drift of the total energy of 2.1·10⁻⁸ — within the 10⁻⁶
/// budget already. With the residual it measured 4.4·10⁻¹⁵ (`f64` rounding), and momentum is
/// conserved to `f64` precision as well. Positions are integrated with the `f32` velocity (the
/// residual is below one ulp of it). [`World::set_velocity_compensation`] turns the residual off.
///
/// # Ids and order
/// Balls are stored packed in insertion order ([`World::balls`], [`World::ball_ids`]); a
/// [`BallId`] names a ball for its whole life and is never reused after
/// [`World::remove_ball`]. Within a step, ties are broken by that order.
///
/// `step` never panics and does not allocate once its buffers have grown to the scene.
pub struct World {
    bounds: Option<Aabb>,
    /// The live balls, packed in insertion order; everything per ball below is indexed alike.
    balls: Vec<Ball>,
    /// The id of each ball of `balls`.
    ids: Vec<BallId>,
    /// By id: the ball's index in `balls`, or `REMOVED`.
    slots: Vec<u32>,
    residual: Vec<Vec2>,
    segments: Vec<Segment>,
    segment_boxes: Vec<Aabb>,
    /// The segments by place, built at the first step after segments were added.
    segment_grid: SegmentGrid,
    segment_grid_stale: bool,
    /// Scratch: the segments near one ball.
    near_segments: Vec<u32>,
    broad_phase: Box<dyn BroadPhase>,
    compensated: bool,
    continuous: bool,
    /// Linear damping rate (1/s).
    damping: f32,
    /// Acceleration of every non-kinematic ball (m/s²); zero turns the resting-contact solver
    /// off.
    gravity: Vec2,
    /// Sweeps of the resting-contact solver per step.
    solver_iterations: usize,
    /// Substeps per step.
    substeps: usize,
    /// With gravity: pairs approaching slower than this (m/s) rest (no restitution); set each
    /// step, 0 without gravity.
    resting_speed: f64,
    resting: RestingContacts,
    /// How many of the balls are kinematic (with none, and no contact recording, the move
    /// runs its plain loop).
    kinematic_count: usize,
    /// How many of the balls can turn: those with friction (a contact can spin them) or an
    /// angular velocity. With none, the step leaves every angle alone.
    turning_count: usize,
    /// How many of the balls are rough: friction or rolling resistance above 0. With none, the
    /// resting-contact solver has no friction or rolling rows.
    rough_count: usize,
    stats: StepStats,
    swept: Vec<Aabb>,
    pairs: Vec<Pair>,
    /// Scratch: the pairs overlapping in a discrete pass, in canonical order.
    contacts: Vec<Pair>,
    /// Scratch of the discrete pass: which balls the last pass moved (all `false` between
    /// steps), and their list.
    moved: Vec<bool>,
    /// Scratch of the discrete pass: the balls whose swept box a correction has grown since
    /// their pairs were last looked up (`pairs` may lack a pair they now overlap), and the
    /// sort buffer of that lookup.
    is_grown: Vec<bool>,
    grown: Vec<u32>,
    grown_scratch: GrownScratch,
    moved_list: Vec<u32>,
    adjacency_start: Vec<u32>,
    adjacency: Vec<u32>,
    events: BinaryHeap<Reverse<(u32, u32, u32)>>,
    contact_log: PlanarContactLog,
}

impl World {
    /// Maximum position-correction passes per step (see [`World::step`], step 4).
    pub const CORRECTION_PASSES: usize = 16;

    /// A ball pair gets continuous detection when its relative displacement in a step exceeds
    /// this fraction of the smaller radius (see [`World::step`], step 2).
    pub const CONTINUOUS_FRACTION: f32 = 0.5;

    /// A position correction moves a pair apart by this multiple of its overlap. Each pass
    /// corrects pairs one after another (Gauss–Seidel), and a pair set exactly touching is
    /// pushed back into overlap by its neighbours' corrections, so dense packings used every
    /// pass of every step; over-relaxed (successive over-relaxation), chains of contacts settle
    /// in fewer passes. Seed scene at 1,600 balls (half the box covered), 1,000 steps: steps
    /// that used all [`World::CORRECTION_PASSES`] 988 → 151, time per step −9 %; 1.3 settles
    /// more but pushes more balls out of their boxes (the 100,000-ball pit +16 %). The gap
    /// left is a fifth of the overlap, and the impulse is already separating the pair.
    pub const OVER_RELAXATION: f32 = 1.2;

    /// Swept boxes are widened by this fraction of the ball's radius. A position correction
    /// moves a ball off its path, and a pair whose boxes did not meet is not a candidate: a
    /// correction that pushed one ball into another beyond its box used to leave that overlap
    /// to the next step (up to 17 % of a radius in the seed scene at 1,600 balls). Within the
    /// room, the pair is already a candidate; for a ball pushed further its box grows and the
    /// pairs it makes are looked up before the next pass (see
    /// [`StepStats::pushed_out_of_box`]).
    pub const CORRECTION_ROOM: f32 = 0.1;

    /// The most substeps a step may be split into ([`World::set_substeps`]).
    pub const MAX_SUBSTEPS: usize = 64;

    /// Sweeps of the resting-contact solver per step, unless
    /// [`World::set_solver_iterations`] says otherwise (Box2D's default velocity iterations
    /// are 8; see BENCHMARKS.md, "Gravity", for what more buys).
    pub const DEFAULT_SOLVER_ITERATIONS: usize = 10;

    /// With gravity, a pair that approaches slower than the speed gravity gives in this many
    /// steps (`RESTING_STEPS · |g| · dt`) comes to rest instead of bouncing: restitution acts
    /// only on faster impacts, as Box2D's restitution threshold (1 m/s) does. At `g = 9.81`
    /// and `dt = 1/60` that is 0.65 m/s, the speed of a fall from 2.2 cm.
    pub const RESTING_STEPS: f32 = 4.0;

    /// With gravity, the position passes leave overlaps up to this fraction of the smaller
    /// radius alone (Box2D's linear slop is 0.5 cm, 1 % of a half-metre radius) and push deeper
    /// ones back to half of it: resting balls stay touching, so the resting-contact solver
    /// keeps holding them (see [`World::set_gravity`]).
    pub const RESTING_SLOP: f32 = 0.01;

    /// An empty world. `bounds`, if given, is a box whose walls the balls bounce off.
    pub fn new(bounds: Option<Aabb>, broad_phase: BroadPhaseKind) -> World {
        World {
            bounds,
            balls: Vec::new(),
            ids: Vec::new(),
            slots: Vec::new(),
            residual: Vec::new(),
            segments: Vec::new(),
            segment_boxes: Vec::new(),
            segment_grid: SegmentGrid::default(),
            segment_grid_stale: false,
            near_segments: Vec::new(),
            broad_phase: broad_phase.create(),
            compensated: true,
            continuous: true,
            damping: 0.0,
            gravity: Vec2::ZERO,
            solver_iterations: Self::DEFAULT_SOLVER_ITERATIONS,
            substeps: 1,
            resting_speed: 0.0,
            resting: RestingContacts::default(),
            kinematic_count: 0,
            turning_count: 0,
            rough_count: 0,
            stats: StepStats::default(),
            swept: Vec::new(),
            pairs: Vec::new(),
            contacts: Vec::new(),
            moved: Vec::new(),
            is_grown: Vec::new(),
            grown: Vec::new(),
            grown_scratch: GrownScratch::default(),
            moved_list: Vec::new(),
            adjacency_start: Vec::new(),
            adjacency: Vec::new(),
            events: BinaryHeap::new(),
            contact_log: PlanarContactLog::default(),
        }
    }

    /// Adds a ball. Errors on non-finite numbers (but a kinematic ball's infinite mass), radius
    /// or mass ≤ 0, restitution outside `[0, 1]`, friction or rolling resistance below 0, or a
    /// ball that does not lie inside the bounds (a kinematic ball may).
    pub fn add_ball(&mut self, ball: Ball) -> Result<BallId, Error> {
        self.check_ball(&ball)?;
        // Ids are never reused, and the step's events flag segment indices with the top bit.
        if self.slots.len() >= (SEGMENT_FLAG - 1) as usize {
            return Err(Error::OutOfRange {
                what: "ball count",
                requirement: "below 2^31 (removed balls count: ids are never reused)",
                value: self.slots.len() as f32,
            });
        }
        let id = BallId(self.slots.len() as u32);
        self.kinematic_count += usize::from(ball.is_kinematic());
        self.turning_count += usize::from(can_turn(&ball));
        self.rough_count += usize::from(is_rough(&ball));
        self.slots.push(self.balls.len() as u32);
        self.ids.push(id);
        self.balls.push(ball);
        self.residual.push(Vec2::ZERO);
        Ok(id)
    }

    /// The rules of [`World::add_ball`].
    fn check_ball(&self, ball: &Ball) -> Result<(), Error> {
        Error::check_finite_vec("ball position", ball.position)?;
        Error::check_finite_vec("ball velocity", ball.velocity)?;
        Error::check_positive("ball radius", ball.radius)?;
        // Beyond this the area π r² (`Ball::new`'s mass) overflows to infinity, which would
        // make the ball kinematic by accident.
        if !(std::f32::consts::PI * ball.radius * ball.radius).is_finite() {
            return Err(Error::OutOfRange {
                what: "ball radius",
                requirement: "below 1.04e19 (its area π r² must be finite)",
                value: ball.radius,
            });
        }
        if !ball.is_kinematic() {
            Error::check_positive("ball mass", ball.mass)?;
        }
        Error::check_non_negative("ball restitution", ball.restitution)?;
        if ball.restitution > 1.0 {
            return Err(Error::OutOfRange {
                what: "ball restitution",
                requirement: "at most 1",
                value: ball.restitution,
            });
        }
        Error::check_non_negative("ball friction", ball.friction)?;
        Error::check_non_negative("ball rolling resistance", ball.rolling_resistance)?;
        Error::check_finite("ball angular velocity", ball.angular_velocity)?;
        Error::check_finite("ball angle", ball.angle)?;
        self.check_inside_bounds(ball.position, ball)
    }

    /// Whether `ball` may be at `position`: inside the bounds, unless it is kinematic (it
    /// passes through walls, so it may come from outside).
    fn check_inside_bounds(&self, position: Vec2, ball: &Ball) -> Result<(), Error> {
        let radius = ball.radius;
        if let (Some(b), false) = (self.bounds, ball.is_kinematic()) {
            let r = Vec2::splat(radius);
            if !((b.min + r).cmple(position).all() && position.cmple(b.max - r).all()) {
                return Err(Error::BallOutsideBounds { x: position.x, y: position.y, radius });
            }
        }
        Ok(())
    }

    /// The index in [`World::balls`] of a live ball.
    fn index_of(&self, id: BallId) -> Result<usize, Error> {
        match self.slots.get(id.0 as usize) {
            Some(&slot) if slot != REMOVED => Ok(slot as usize),
            _ => Err(Error::UnknownBall(id.0)),
        }
    }

    /// The number of (live) balls.
    pub fn num_balls(&self) -> usize {
        self.balls.len()
    }

    /// The ids of the live balls, in the order of [`World::balls`] (insertion order).
    pub fn ball_ids(&self) -> &[BallId] {
        &self.ids
    }

    /// Whether `id` names a live ball.
    pub fn contains_ball(&self, id: BallId) -> bool {
        self.index_of(id).is_ok()
    }

    /// A ball's current state.
    pub fn ball(&self, id: BallId) -> Result<Ball, Error> {
        Ok(self.balls[self.index_of(id)?])
    }

    /// Replaces a ball's whole state (position, velocity, radius, mass, restitution, friction,
    /// rolling resistance, angular velocity, angle) with [`World::add_ball`]'s rules; on error
    /// nothing changes. A ball moved onto another is pushed out by the next step's position
    /// correction.
    pub fn set_ball(&mut self, id: BallId, ball: Ball) -> Result<(), Error> {
        let i = self.index_of(id)?;
        self.check_ball(&ball)?;
        if ball.velocity != self.balls[i].velocity {
            self.residual[i] = Vec2::ZERO;
        }
        self.kinematic_count =
            self.kinematic_count + usize::from(ball.is_kinematic()) - usize::from(self.balls[i].is_kinematic());
        self.turning_count = self.turning_count + usize::from(can_turn(&ball)) - usize::from(can_turn(&self.balls[i]));
        self.rough_count = self.rough_count + usize::from(is_rough(&ball)) - usize::from(is_rough(&self.balls[i]));
        self.balls[i] = ball;
        Ok(())
    }

    /// Moves a ball (m), keeping its velocity. Errors, changing nothing, on a non-finite
    /// position or one where the ball does not fit inside the bounds (a kinematic ball may be
    /// anywhere).
    pub fn set_ball_position(&mut self, id: BallId, position: Vec2) -> Result<(), Error> {
        let i = self.index_of(id)?;
        Error::check_finite_vec("ball position", position)?;
        self.check_inside_bounds(position, &self.balls[i])?;
        self.balls[i].position = position;
        Ok(())
    }

    /// Sets a ball's velocity (m/s).
    pub fn set_ball_velocity(&mut self, id: BallId, velocity: Vec2) -> Result<(), Error> {
        let i = self.index_of(id)?;
        self.balls[i].velocity = Error::check_finite_vec("ball velocity", velocity)?;
        self.residual[i] = Vec2::ZERO;
        Ok(())
    }

    /// Sets every ball's velocity (m/s), in the order of [`World::ball_ids`]. Nothing changes
    /// unless the length matches and every value is finite.
    pub fn set_velocities(&mut self, velocities: &[Vec2]) -> Result<(), Error> {
        self.check_count("velocity count", velocities.len())?;
        for &v in velocities {
            Error::check_finite_vec("ball velocity", v)?;
        }
        for (ball, &v) in self.balls.iter_mut().zip(velocities) {
            ball.velocity = v;
        }
        self.residual.iter_mut().for_each(|r| *r = Vec2::ZERO);
        Ok(())
    }

    /// Moves every ball (m), in the order of [`World::ball_ids`]. Nothing changes unless the
    /// length matches and every ball fits inside the bounds at its new position.
    pub fn set_positions(&mut self, positions: &[Vec2]) -> Result<(), Error> {
        self.check_count("position count", positions.len())?;
        for (ball, &p) in self.balls.iter().zip(positions) {
            Error::check_finite_vec("ball position", p)?;
            self.check_inside_bounds(p, ball)?;
        }
        for (ball, &p) in self.balls.iter_mut().zip(positions) {
            ball.position = p;
        }
        Ok(())
    }

    fn check_count(&self, what: &'static str, count: usize) -> Result<(), Error> {
        if count == self.balls.len() {
            Ok(())
        } else {
            Err(Error::OutOfRange { what, requirement: "equal to the number of balls", value: count as f32 })
        }
    }

    /// Applies an impulse (N·s) to a ball: its velocity changes by `impulse / mass`. The sum
    /// is taken in `f64` with the velocity's residual (see *Precision* above), so the world's
    /// [`World::momentum`] changes by `impulse` to `f64` precision. Errors, changing nothing, on
    /// a non-finite impulse or one that would make the velocity overflow `f32`. A kinematic
    /// ball's infinite mass takes any impulse without a change.
    pub fn apply_impulse(&mut self, id: BallId, impulse: Vec2) -> Result<(), Error> {
        let i = self.index_of(id)?;
        Error::check_finite_vec("impulse", impulse)?;
        let v = self.velocity64(i) + impulse.as_dvec2() / f64::from(self.balls[i].mass);
        Error::check_finite_vec("ball velocity after the impulse", v.as_vec2())?;
        self.set_velocity64(i, v);
        Ok(())
    }

    /// Removes a ball and returns its last state. Every other ball keeps its id and its
    /// place in the order; the removed id is never reused.
    ///
    /// Costs O(n) (the balls stay packed in insertion order), and the broad phase rebuilds
    /// from scratch on the next step (its incremental state indexes the old order). To remove
    /// many balls, [`World::retain_balls`] does it in one pass.
    pub fn remove_ball(&mut self, id: BallId) -> Result<Ball, Error> {
        let i = self.index_of(id)?;
        let ball = self.balls[i];
        self.retain_balls(|other, _| other != id);
        Ok(ball)
    }

    /// Keeps only the balls for which `keep(id, &ball)` returns `true`, in one O(n) pass;
    /// the others are removed as by [`World::remove_ball`].
    pub fn retain_balls(&mut self, mut keep: impl FnMut(BallId, &Ball) -> bool) {
        // Ask first, change after: a `keep` that panics leaves the world as it was.
        let verdicts: Vec<bool> = self.ids.iter().zip(&self.balls).map(|(&id, ball)| keep(id, ball)).collect();
        let mut kept = 0;
        for (i, keep) in verdicts.into_iter().enumerate() {
            let id = self.ids[i];
            if keep {
                self.balls.swap(kept, i);
                self.ids.swap(kept, i);
                self.residual.swap(kept, i);
                self.slots[id.0 as usize] = kept as u32;
                kept += 1;
            } else {
                self.slots[id.0 as usize] = REMOVED;
                self.kinematic_count -= usize::from(self.balls[i].is_kinematic());
                self.turning_count -= usize::from(can_turn(&self.balls[i]));
                self.rough_count -= usize::from(is_rough(&self.balls[i]));
            }
        }
        if kept == self.balls.len() {
            return;
        }
        self.balls.truncate(kept);
        self.ids.truncate(kept);
        self.residual.truncate(kept);
        // Incremental broad phases keep state by index, and a ball's index just changed.
        self.broad_phase = self.broad_phase.kind().create();
    }

    /// Adds a static segment from `a` to `b` (solid on both sides).
    pub fn add_segment(&mut self, a: Vec2, b: Vec2) -> Result<(), Error> {
        Error::check_finite_vec("segment end point", a)?;
        Error::check_finite_vec("segment end point", b)?;
        if a == b {
            return Err(Error::RepeatedVertex { first: 0, second: 1 });
        }
        self.segments.push(Segment { a, b });
        self.segment_boxes.push(Aabb { min: a.min(b), max: a.max(b) });
        self.segment_grid_stale = true;
        Ok(())
    }

    /// Adds the edges of a closed polygon as static segments (validated like ORCA obstacles:
    /// at least 2 vertices, no repeated vertex, no self-intersection). Either winding works.
    pub fn add_polygon(&mut self, vertices: &[Vec2]) -> Result<(), Error> {
        validate_polygon(vertices)?;
        let n = vertices.len();
        let edges = if n == 2 { 1 } else { n };
        for i in 0..edges {
            self.add_segment(vertices[i], vertices[(i + 1) % n])?;
        }
        Ok(())
    }

    /// Keeps only the static segments for which `keep(index, &segment)` returns `true`, in
    /// one pass: a wall taken away (a door that opens). The segments kept move down to fill
    /// the gaps, in order, so indices into [`World::segments`] change. Resting contacts start
    /// the next step afresh (their warm start named segments by index).
    pub fn retain_segments(&mut self, mut keep: impl FnMut(usize, &Segment) -> bool) {
        // Ask first, change after: a `keep` that panics leaves the world as it was.
        let verdicts: Vec<bool> = self.segments.iter().enumerate().map(|(i, s)| keep(i, s)).collect();
        if verdicts.iter().all(|&k| k) {
            return;
        }
        let mut verdict = verdicts.iter();
        self.segments.retain(|_| *verdict.next().unwrap_or(&true));
        let mut verdict = verdicts.iter();
        self.segment_boxes.retain(|_| *verdict.next().unwrap_or(&true));
        self.segment_grid_stale = true;
        self.resting.forget();
    }

    /// The live balls, in the order of [`World::ball_ids`] (insertion order).
    pub fn balls(&self) -> &[Ball] {
        &self.balls
    }

    /// The static segments (polygon edges included).
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The box the balls bounce inside, if any.
    pub fn bounds(&self) -> Option<Aabb> {
        self.bounds
    }

    /// Switches the broad phase (the new one starts empty and builds on the next step).
    pub fn set_broad_phase(&mut self, kind: BroadPhaseKind) {
        if kind != self.broad_phase.kind() {
            self.broad_phase = kind.create();
        }
    }

    /// The broad phase in use.
    pub fn broad_phase(&self) -> BroadPhaseKind {
        self.broad_phase.kind()
    }

    /// Whether velocities carry the `f32` residual that makes energy conservation `f64`-exact
    /// (default `true`; see the type docs). Turning it off drops the current residuals.
    pub fn set_velocity_compensation(&mut self, on: bool) {
        self.compensated = on;
        if !on {
            self.residual.iter_mut().for_each(|r| *r = Vec2::ZERO);
        }
    }

    /// Whether collisions are found at their time of impact (default `true`). Off, the step is
    /// the seed's discrete method (move, then resolve overlaps), which lets fast balls tunnel;
    /// kept to demonstrate exactly that.
    pub fn set_continuous_collision(&mut self, on: bool) {
        self.continuous = on;
    }

    /// Linear damping (1/s, default 0): at the start of each step every velocity is scaled by
    /// `1 / (1 + c·dt)`, Box2D's form, which stays stable for any step — the rolling
    /// resistance of a top-down billiard table, the drag on a puck. Errors, changing nothing,
    /// if negative or not finite.
    pub fn set_linear_damping(&mut self, rate: f32) -> Result<(), Error> {
        self.damping = Error::check_non_negative("linear damping", rate)?;
        Ok(())
    }

    /// The linear damping rate (1/s).
    pub fn linear_damping(&self) -> f32 {
        self.damping
    }

    /// Gravity (m/s², default zero): every non-kinematic ball accelerates by it, and each step
    /// solves its *resting* contacts together before anything moves — pairs, and balls and
    /// walls or segments, that touch (a gap of at most 5 % of the smaller radius) — with
    /// [`World::solver_iterations`] sweeps of sequential impulses, warm-started from the last
    /// step (Box2D's solver; module `resting`). So a pile presses on the floor through all its
    /// rows and comes to rest. A pair that meets faster than [`World::RESTING_STEPS`] steps of
    /// gravity is an impact and bounces with the pair's restitution; a slower one rests (no
    /// bounce), so a half-elastic ball bounces lower and lower and then stays down. The
    /// position passes leave overlaps up to [`World::RESTING_SLOP`] alone. Balls do not spin
    /// and contacts have no friction: a pile flows flat like a liquid of discs.
    ///
    /// With zero gravity the step is exactly the one without this call. Errors, changing
    /// nothing, on a non-finite component.
    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), Error> {
        self.gravity = Error::check_finite_vec("gravity", gravity)?;
        // Last step's impulses carried another weight.
        self.resting.forget();
        Ok(())
    }

    /// Gravity (m/s²).
    pub fn gravity(&self) -> Vec2 {
        self.gravity
    }

    /// Sets the sweeps of the resting-contact solver per step (see [`World::set_gravity`];
    /// default [`World::DEFAULT_SOLVER_ITERATIONS`]). More sweeps carry weight through taller
    /// piles with less sinking, at a cost proportional to the contacts; shorter steps do more
    /// for the same cost (a 30-row pyramid holds with four steps of `dt / 4` and 10 sweeps, or
    /// with 100 sweeps; BENCHMARKS.md, "Gravity"). Errors, changing nothing, unless between 1
    /// and 1,000.
    pub fn set_solver_iterations(&mut self, iterations: usize) -> Result<(), Error> {
        self.solver_iterations = one_to("solver iterations", "between 1 and 1000", iterations, 1_000)?;
        Ok(())
    }

    /// Splits every step into `substeps` substeps of `dt / substeps` (default 1). Shorter steps
    /// hold tall stacks better than more solver sweeps do, for the same cost (Box2D 3 steps
    /// in four substeps for the same reason): a 30-row pyramid collapses with 10 sweeps and
    /// holds with 4 substeps (BENCHMARKS.md, "Gravity"). The contacts and statistics of a step
    /// cover its substeps. Errors, changing nothing, unless between 1 and
    /// [`World::MAX_SUBSTEPS`].
    pub fn set_substeps(&mut self, substeps: usize) -> Result<(), Error> {
        self.substeps = one_to("substeps", "between 1 and 64", substeps, Self::MAX_SUBSTEPS)?;
        Ok(())
    }

    /// Substeps per step (see [`World::set_substeps`]).
    pub fn substeps(&self) -> usize {
        self.substeps
    }

    /// Sweeps of the resting-contact solver per step.
    pub fn solver_iterations(&self) -> usize {
        self.solver_iterations
    }

    /// What the last step did.
    pub fn last_step_stats(&self) -> StepStats {
        self.stats
    }

    /// Whether each step records its collisions for [`World::contacts`] (default `false`;
    /// recording costs a log entry per resolution and a sort at the end of the step).
    pub fn set_record_contacts(&mut self, on: bool) {
        self.contact_log.set_on(on);
    }

    /// Whether steps record their collisions.
    pub fn records_contacts(&self) -> bool {
        self.contact_log.is_on()
    }

    /// The balls whose disc overlaps the circle (`center`, `radius` ≥ 0), in the order of
    /// [`World::balls`]; with `radius = 0`, the balls that contain `center`. O(n) (see
    /// [`query`]). Errors on a non-finite centre or a negative or non-finite radius.
    pub fn balls_in_circle(&self, center: Vec2, radius: f32) -> Result<impl Iterator<Item = BallId> + '_, Error> {
        Error::check_finite_vec("query centre", center)?;
        Error::check_non_negative("query radius", radius)?;
        Ok(query::balls_in_circle(&self.balls, &self.ids, center, radius))
    }

    /// The first ball that contains `point` (in the order of [`World::balls`]), if any.
    pub fn ball_at(&self, point: Vec2) -> Result<Option<BallId>, Error> {
        Ok(self.balls_in_circle(point, 0.0)?.next())
    }

    /// What the ray from `origin` along `direction` (any length; it is normalised) meets first
    /// within `max_distance` (m; may be infinite): a ball where the ray enters it (balls that
    /// contain the origin are skipped), a segment, or the box's boundary. O(n + segments).
    /// Errors on a non-finite origin or direction, a zero direction, or a negative or NaN
    /// distance.
    pub fn cast_ray(&self, origin: Vec2, direction: Vec2, max_distance: f32) -> Result<Option<RayHit>, Error> {
        Error::check_finite_vec("ray origin", origin)?;
        Error::check_finite_vec("ray direction", direction)?;
        let unit = direction.as_dvec2().normalize_or_zero();
        if unit == DVec2::ZERO {
            return Err(Error::OutOfRange { what: "ray direction", requirement: "non-zero", value: 0.0 });
        }
        if max_distance.is_nan() || max_distance < 0.0 {
            return Err(Error::OutOfRange { what: "ray length", requirement: "at least 0", value: max_distance });
        }
        let max = f64::from(max_distance);
        Ok(query::cast_ray(&self.balls, &self.ids, &self.segments, self.bounds, origin.as_dvec2(), unit, max))
    }

    /// The last step's collisions, one per touching pair (ball–ball, ball–segment, ball–box
    /// wall), ordered by ball (in the order of [`World::balls`]) and partner; empty unless
    /// [`World::set_record_contacts`] is on. The same for every broad phase.
    pub fn contacts(&self) -> &[Contact] {
        self.contact_log.contacts()
    }

    /// Total kinetic energy `Σ ½ m |v|² + ½ I ω²` in `f64` (velocities including their
    /// residuals; `I = ½ m r²`, a solid disc's moment of inertia).
    pub fn kinetic_energy(&self) -> f64 {
        let energy = |(b, r): (&Ball, &Vec2)| {
            let (m, radius, spin) = (f64::from(b.mass), f64::from(b.radius), f64::from(b.angular_velocity));
            0.5 * m * (b.velocity.as_dvec2() + r.as_dvec2()).length_squared() + 0.25 * m * radius * radius * spin * spin
        };
        self.balls.iter().zip(&self.residual).filter(|(b, _)| !b.is_kinematic()).map(energy).sum()
    }

    /// Total momentum `Σ m v` in `f64` (velocities including their residuals).
    pub fn momentum(&self) -> DVec2 {
        self.balls
            .iter()
            .zip(&self.residual)
            .filter(|(b, _)| !b.is_kinematic())
            .map(|(b, r)| f64::from(b.mass) * (b.velocity.as_dvec2() + r.as_dvec2()))
            .sum()
    }

    /// The broad phase's boxes from the last step, for drawing.
    pub fn broad_phase_debug(&self) -> BroadPhaseDebug {
        let mut out = BroadPhaseDebug { broad_phase: self.broad_phase.kind(), layers: Vec::new() };
        self.broad_phase.debug_boxes(&mut out);
        out
    }

    /// Advances the world by `dt` seconds. A `dt` that is not finite and positive does nothing.
    ///
    /// With [`World::set_substeps`] `n`, the step is `n` substeps of `dt / n` (damping is
    /// applied once, for the whole `dt`); its contacts and [`StepStats`] cover them all.
    pub fn step(&mut self, dt: f32) {
        self.stats = StepStats::default();
        self.contact_log.begin_step();
        if !(dt.is_finite() && dt > 0.0) || self.balls.is_empty() {
            return;
        }
        if self.segment_grid_stale {
            self.segment_grid = SegmentGrid::build(&self.segments, &self.segment_boxes);
            self.segment_grid_stale = false;
        }
        if self.damping != 0.0 {
            self.damp(dt);
        }
        if self.substeps == 1 {
            self.substep(dt);
        } else {
            let h = dt / self.substeps as f32;
            let mut total = StepStats::default();
            for k in 0..self.substeps {
                self.stats = StepStats::default();
                self.contact_log.set_time_offset(k as f32 * h);
                self.substep(h);
                total.add(&self.stats);
            }
            self.contact_log.set_time_offset(0.0);
            self.stats = total;
        }
        let ids = &self.ids;
        self.contact_log.finish_step(|r| planar_contact(r, ids));
    }

    /// One (sub)step of `dt` seconds, after damping: steps 0–4 of [`World`].
    fn substep(&mut self, dt: f32) {
        let gravity_on = self.gravity != Vec2::ZERO;
        self.resting_speed = 0.0;
        if gravity_on {
            self.accelerate(dt);
        }
        self.sweep_and_find_pairs(dt);
        if gravity_on {
            self.solve_resting_contacts(dt);
        }
        if self.continuous {
            self.process_impacts(dt);
        }
        self.integrate(dt);
        self.resolve_overlaps(dt);
    }

    /// Step 0, with damping: `v ← v / (1 + c·dt)`, in `f64` on the velocity with its residual
    /// (so that momentum in free space shrinks by exactly that factor).
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn damp(&mut self, dt: f32) {
        let scale = 1.0 / (1.0 + f64::from(self.damping) * f64::from(dt));
        for i in 0..self.balls.len() {
            if !self.balls[i].is_kinematic() {
                let v = self.velocity64(i) * scale;
                self.set_velocity64(i, v);
            }
        }
    }

    /// Step 0, with gravity: `v ← v + g·dt` for every non-kinematic ball (in `f64` with the
    /// residual), and the step's resting speed.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn accelerate(&mut self, dt: f32) {
        let change = self.gravity.as_dvec2() * f64::from(dt);
        self.resting_speed = f64::from(Self::RESTING_STEPS) * change.length();
        for i in 0..self.balls.len() {
            if !self.balls[i].is_kinematic() {
                let v = self.velocity64(i) + change;
                self.set_velocity64(i, v);
            }
        }
    }

    /// Step 1b, with gravity: the resting contacts solved together (module `resting`). Runs
    /// after the broad phase, whose swept boxes (with their room) cover every touching pair,
    /// and before the impacts and the move, which then see velocities that no longer push
    /// resting balls into each other. The swept boxes were made with the velocities before the
    /// solve; a ball the solve sends out of its box is caught by the move, as any deflection.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn solve_resting_contacts(&mut self, dt: f32) {
        let scene = resting::Scene {
            balls: &self.balls,
            residuals: &self.residual,
            ids: &self.ids,
            pairs: &self.pairs,
            bounds: self.bounds,
            segments: &self.segments,
            segment_boxes: &self.segment_boxes,
            segment_grid: &self.segment_grid,
            rough: self.rough_count > 0,
        };
        let count = self.resting.solve(&scene, dt, self.resting_speed, self.solver_iterations);
        self.stats.resting_contacts = count;
        let resting = std::mem::take(&mut self.resting);
        for (i, v, spin) in resting.solved_velocities() {
            if !self.balls[i].is_kinematic() {
                self.set_velocity64(i, v);
                if let Some(spin) = spin {
                    self.balls[i].angular_velocity = spin as f32;
                }
            }
        }
        for (i, partner, impulse, normal) in resting.impulses() {
            self.contact_log.record(i, partner, 0.0, impulse, normal);
        }
        self.resting = resting;
    }

    /// The restitution of a pair (or a ball and a wall) whose relative normal velocity is
    /// `normal_velocity` (negative: approaching): the larger of the two balls' `e`, but 0 for
    /// an approach slower than the resting speed when gravity is on (see
    /// [`World::RESTING_STEPS`]).
    #[inline]
    fn restitution(&self, e: f32, normal_velocity: f64) -> f64 {
        if normal_velocity > -self.resting_speed {
            0.0
        } else {
            f64::from(e)
        }
    }

    /// Step 1: swept boxes and the broad phase.
    ///
    /// The box covers the disc at the start and at the end of its undisturbed path, and the
    /// end mirrored by a wall it would cross. Only an impact found by continuous detection can
    /// carry a ball elsewhere (rare: only fast pairs use it); `integrate` catches that.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn sweep_and_find_pairs(&mut self, dt: f32) {
        let bounds = self.bounds;
        self.swept.clear();
        self.swept.extend(self.balls.iter().map(|b| {
            let end = b.position + b.velocity * dt;
            let r = Vec2::splat(b.radius);
            let room = Vec2::splat(b.radius * (1.0 + Self::CORRECTION_ROOM));
            let (mut lo, mut hi) = (b.position.min(end), b.position.max(end));
            let crosses_wall = bounds.is_some_and(|bd| !((bd.min + r).cmple(end).all() & end.cmple(bd.max - r).all()));
            if let (Some(bounds), true) = (bounds, crosses_wall) {
                // Where `integrate` will put a ball that crosses a wall: the mirror image of
                // the overshoot (the path runs start → wall → mirror image).
                let mut mirrored = *b;
                mirrored.position = end;
                let mut no_residual = Vec2::ZERO;
                reflect_off_walls(&mut mirrored, &mut no_residual, bounds);
                lo = lo.min(mirrored.position);
                hi = hi.max(mirrored.position);
            }
            Aabb { min: lo - room, max: hi + room }
        }));
        self.find_pairs();
    }

    /// Runs the broad phase on the swept boxes.
    fn find_pairs(&mut self) {
        self.pairs.clear();
        self.broad_phase.find_pairs(&self.swept, &mut self.pairs);
        self.stats.candidate_pairs = self.pairs.len();
    }

    /// Whether pair `(i, j)` moves fast enough, relative to each other, to need its time of
    /// impact: more than [`World::CONTINUOUS_FRACTION`] of the smaller radius in this step.
    /// Slower pairs cannot pass through each other (that takes a relative displacement of more
    /// than the sum of the radii); they are resolved by the discrete pass at the end of the step.
    #[inline]
    fn needs_time_of_impact(&self, i: u32, j: u32, dt: f32) -> bool {
        let (a, b) = (&self.balls[i as usize], &self.balls[j as usize]);
        let reach = Self::CONTINUOUS_FRACTION * a.radius.min(b.radius);
        (b.velocity - a.velocity).length_squared() * (dt * dt) > reach * reach
    }

    /// Where ball `i` is at time `t` on its current path.
    #[inline]
    fn position_at(&self, i: usize, t: f32) -> Vec2 {
        self.balls[i].position + self.balls[i].velocity * t
    }

    /// Time of impact of event partners `i` and `j` (ball or flagged segment) from time `now`.
    #[inline]
    fn impact_time(&self, i: u32, j: u32, now: f32, dt: f32) -> Option<f32> {
        let (iu, a) = (i as usize, &self.balls[i as usize]);
        let pa = self.position_at(iu, now);
        let rel = if j & SEGMENT_FLAG != 0 {
            let s = self.segments[(j & !SEGMENT_FLAG) as usize];
            time_of_impact::disc_segment(pa, a.velocity, a.radius, s.a, s.b, dt - now).map(|(t, _)| t)
        } else {
            let b = &self.balls[j as usize];
            let pb = self.position_at(j as usize, now);
            time_of_impact::discs(pa, a.velocity, pb, b.velocity, a.radius + b.radius, dt - now)
        };
        rel.map(|t| now + t)
    }

    /// Step 2: continuous collision detection and time-ordered impacts.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn process_impacts(&mut self, dt: f32) {
        self.events.clear();
        for &(i, j) in &self.pairs {
            if !self.needs_time_of_impact(i, j, dt) {
                continue;
            }
            if let Some(t) = self.impact_time(i, j, 0.0, dt) {
                self.events.push(Reverse((t.to_bits(), i, j)));
            }
        }
        if !self.segments.is_empty() {
            for i in 0..self.balls.len() {
                self.push_segment_impacts(i as u32, 0.0, dt);
            }
        }
        if self.events.is_empty() {
            return;
        }
        self.build_adjacency();
        // Each impact can create new ones (a deflected ball meets a new partner); the budget
        // bounds the work for pathological cases (a ball bouncing between close walls at an
        // absurd speed, a jammed stack).
        let budget = 8 * self.events.len() + 64;
        let mut processed = 0;
        let mut now = 0.0f32;
        while let Some(Reverse((bits, i, j))) = self.events.pop() {
            processed += 1;
            if processed > budget {
                self.events.push(Reverse((bits, i, j)));
                self.stop_pending_balls(now, dt);
                break;
            }
            let stored = f32::from_bits(bits);
            let Some(t) = self.impact_time(i, j, now, dt) else { continue };
            if t > stored + dt * 1e-6 {
                // An earlier impact deflected one of them: the impact moved later.
                self.events.push(Reverse((t.to_bits(), i, j)));
                continue;
            }
            now = now.max(t);
            let resolved = if j & SEGMENT_FLAG != 0 {
                self.bounce_off_segment(i, j & !SEGMENT_FLAG, now)
            } else {
                self.collide(i, j, now)
            };
            if resolved {
                self.stats.contacts += 1;
                self.stats.time_of_impact_events += 1;
                self.push_new_impacts(i, j, now, dt);
                if j & SEGMENT_FLAG == 0 {
                    self.push_new_impacts(j, i, now, dt);
                }
            }
        }
    }

    /// Out of impact budget at time `now`: the balls with impacts still pending stop where they
    /// are for the rest of the step (their paths re-anchored so that `position_at(dt)` is
    /// their position at `now`), rather than fly through what they were about to hit. They
    /// keep their velocities. Allocates a list of them (this only happens in pathological
    /// steps).
    #[cold]
    fn stop_pending_balls(&mut self, now: f32, dt: f32) {
        let mut pending: Vec<u32> = Vec::new();
        for Reverse((_, i, j)) in self.events.drain() {
            pending.push(i);
            if j & SEGMENT_FLAG == 0 {
                pending.push(j);
            }
        }
        pending.sort_unstable();
        pending.dedup();
        for i in pending {
            let k = i as usize;
            if !self.balls[k].is_kinematic() {
                let at_now = self.position_at(k, now);
                self.balls[k].position = at_now - self.balls[k].velocity * dt;
            }
        }
    }

    /// Candidate partners of each ball, as compressed rows (counting sort of the pairs).
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn build_adjacency(&mut self) {
        partner_rows(self.balls.len(), &self.pairs, &mut self.adjacency_start, &mut self.adjacency);
    }

    /// After ball `i` was deflected at `now` by `other`, its impacts with its other partners.
    fn push_new_impacts(&mut self, i: u32, other: u32, now: f32, dt: f32) {
        let (s, e) = (self.adjacency_start[i as usize] as usize, self.adjacency_start[i as usize + 1] as usize);
        for k in s..e {
            let j = self.adjacency[k];
            if j == other {
                continue;
            }
            let (a, b) = if i < j { (i, j) } else { (j, i) };
            if !self.needs_time_of_impact(a, b, dt) {
                continue;
            }
            if let Some(t) = self.impact_time(a, b, now, dt) {
                self.events.push(Reverse((t.to_bits(), a, b)));
            }
        }
        self.push_segment_impacts(i, now, dt);
    }

    /// Impacts of ball `i` with the segments near its swept box, from time `now`.
    fn push_segment_impacts(&mut self, i: u32, now: f32, dt: f32) {
        if self.balls[i as usize].is_kinematic() {
            return; // passes through segments
        }
        // The box of the path from `now` on: after a deflection the ball heads somewhere its
        // swept box (made for the undeflected path) may not cover, such as a second wall.
        let (ball, from) = (self.balls[i as usize], self.position_at(i as usize, now));
        let to = self.position_at(i as usize, dt);
        let path = Aabb { min: from.min(to) - Vec2::splat(ball.radius), max: from.max(to) + Vec2::splat(ball.radius) };
        let mut near = std::mem::take(&mut self.near_segments);
        near.clear();
        self.segment_grid.near(&path, &mut near);
        for &s in &near {
            if overlap(&path, &self.segment_boxes[s as usize]) {
                let j = s | SEGMENT_FLAG;
                if let Some(t) = self.impact_time(i, j, now, dt) {
                    self.events.push(Reverse((t.to_bits(), i, j)));
                }
            }
        }
        self.near_segments = near;
    }

    /// The velocity of ball `i` including its residual, in `f64`.
    #[inline]
    fn velocity64(&self, i: usize) -> DVec2 {
        self.balls[i].velocity.as_dvec2() + self.residual[i].as_dvec2()
    }

    /// Stores an `f64` velocity as `f32` value + `f32` residual.
    #[inline]
    fn set_velocity64(&mut self, i: usize, v: DVec2) {
        let hi = v.as_vec2();
        self.balls[i].velocity = hi;
        self.residual[i] = if self.compensated { (v - hi.as_dvec2()).as_vec2() } else { Vec2::ZERO };
    }

    /// Coulomb friction of an impact between packed balls `i` and `j` that has just given
    /// them the normal impulse `normal_impulse` (N·s) along `normal` (unit, from `i` to `j`)
    /// and the velocities `va`, `vb`: the rims' sliding is stopped, or slowed by at most
    /// `μ · normal_impulse` ([`pair_friction`]), changing `va`, `vb` and both spins.
    fn rub_balls(&mut self, i: usize, j: usize, normal: DVec2, normal_impulse: f64, va: &mut DVec2, vb: &mut DVec2) {
        let limit = f64::from(pair_friction(&self.balls[i], &self.balls[j])) * normal_impulse;
        let (mut a, mut b) = (rim(&self.balls[i], *va), rim(&self.balls[j], *vb));
        impact_friction(&mut a, &mut b, normal, limit);
        for (k, side, v) in [(i, a, va), (j, b, vb)] {
            if !self.balls[k].is_kinematic() {
                *v = side.velocity;
                self.balls[k].angular_velocity = side.spin as f32;
            }
        }
    }

    /// Coulomb friction of packed ball `i`'s impact on something static (a segment) whose
    /// normal impulse changed its velocity by `normal_change` (m/s, ≥ 0) along `-outward`
    /// (`outward`: unit, from the ball towards the obstacle); `v` is its velocity after it.
    fn rub_static(&mut self, i: usize, outward: DVec2, normal_change: f64, v: &mut DVec2) {
        let ball = &self.balls[i];
        let limit = f64::from(ball.friction) * normal_change * f64::from(ball.mass);
        let mut a = rim(ball, *v);
        impact_friction(&mut a, &mut { RimSide::STATIC }, outward, limit);
        *v = a.velocity;
        self.balls[i].angular_velocity = a.spin as f32;
    }

    /// Impulse between balls `i` and `j` touching at time `t`; re-anchors their paths.
    fn collide(&mut self, i: u32, j: u32, t: f32) -> bool {
        let (iu, ju) = (i as usize, j as usize);
        let (pa, pb) = (self.position_at(iu, t), self.position_at(ju, t));
        let normal = (pb.as_dvec2() - pa.as_dvec2()).normalize_or_zero();
        if normal == DVec2::ZERO {
            return false;
        }
        let (a, b) = (&self.balls[iu], &self.balls[ju]);
        let (inv_a, inv_b) = (1.0 / f64::from(a.mass), 1.0 / f64::from(b.mass));
        let (before_a, before_b) = (self.velocity64(iu), self.velocity64(ju));
        let e = self.restitution(a.restitution.max(b.restitution), (before_b - before_a).dot(normal));
        let Some((mut va, mut vb, normal_impulse)) = ball_ball_impulse(before_a, before_b, inv_a, inv_b, normal, e)
        else {
            return false;
        };
        if pair_friction(a, b) > 0.0 {
            self.rub_balls(iu, ju, normal, normal_impulse, &mut va, &mut vb);
        }
        let (a, b) = (&self.balls[iu], &self.balls[ju]);
        let impulse = impulse_on_first(a, va - before_a, b, vb - before_b);
        self.contact_log.record(iu, Collider::Ball(BallId(j)), t, impulse, normal.as_vec2());
        // A kinematic ball's path is not re-anchored: its velocity did not change, and
        // `p + v·t − v·t` may round to another `p`.
        for (k, v, p) in [(iu, va, pa), (ju, vb, pb)] {
            if !self.balls[k].is_kinematic() {
                self.set_velocity64(k, v);
                self.balls[k].position = p - self.balls[k].velocity * t;
            }
        }
        true
    }

    /// Ball `i` bounces off segment `s` at time `t`; re-anchors its path.
    fn bounce_off_segment(&mut self, i: u32, s: u32, t: f32) -> bool {
        let iu = i as usize;
        // In f64: the ball is only a radius away from the segment, so an f32 normal would tilt
        // the bounce by ~ulp / radius.
        let p = self.balls[iu].position.as_dvec2() + self.balls[iu].velocity.as_dvec2() * f64::from(t);
        let seg = self.segments[s as usize];
        let (a, b) = (seg.a.as_dvec2(), seg.b.as_dvec2());
        let ab = b - a;
        let q = a + ab * ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        let normal = (p - q).normalize_or_zero();
        if normal == DVec2::ZERO {
            return false;
        }
        let before = self.velocity64(iu);
        let e = self.restitution(self.balls[iu].restitution, before.dot(normal));
        let Some(mut v) = wall_impulse(before, normal, e) else { return false };
        if self.balls[iu].friction > 0.0 {
            self.rub_static(iu, -normal, (v - before).dot(normal), &mut v);
        }
        let impulse = (v - before) * f64::from(self.balls[iu].mass);
        // `normal` points from the segment to the ball; a contact's, from the ball outwards.
        self.contact_log.record(iu, Collider::Segment(s as usize), t, impulse, -normal.as_vec2());
        self.set_velocity64(iu, v);
        self.balls[iu].position = p.as_vec2() - self.balls[iu].velocity * t;
        true
    }

    /// Step 3: move every ball to the end of its path and reflect it off the box walls.
    ///
    /// A ball deflected by an impact (or a wall) can end outside the swept box the broad phase
    /// saw, and meet a ball that was not its candidate. Such boxes are grown to cover the end
    /// position and, if any grew, the broad phase runs again so the discrete pass sees every
    /// overlapping pair.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn integrate(&mut self, dt: f32) {
        // The plain loop is the whole move of a world without kinematic balls or recording.
        let escaped = if self.kinematic_count == 0 && !self.contact_log.is_on() {
            self.move_balls::<true>(dt)
        } else {
            self.move_balls::<false>(dt)
        };
        if self.turning_count > 0 {
            for ball in &mut self.balls {
                ball.angle = turned(ball.angle, ball.angular_velocity * dt);
            }
        }
        self.stats.escaped_swept_boxes = escaped;
        if escaped > 0 {
            self.find_pairs();
        }
    }

    /// The loop of [`World::integrate`]; returns how many balls left their swept box. `PLAIN`:
    /// no ball is kinematic and no contact is recorded.
    #[inline(always)]
    fn move_balls<const PLAIN: bool>(&mut self, dt: f32) -> usize {
        let mut escaped = 0;
        let log = &mut self.contact_log;
        let record = log.is_on();
        for (i, ((ball, residual), swept)) in
            self.balls.iter_mut().zip(&mut self.residual).zip(&mut self.swept).enumerate()
        {
            ball.position += ball.velocity * dt;
            if let Some(bounds) = self.bounds {
                if PLAIN {
                    reflect_off_walls(ball, residual, bounds);
                } else if !ball.is_kinematic() {
                    let (before, residual_before) = (*ball, *residual);
                    reflect_off_walls(ball, residual, bounds);
                    if record && ball.velocity != before.velocity {
                        log_wall_bounces(log, i, &before, residual_before, ball, *residual, bounds, dt);
                    }
                }
            }
            let end = Aabb::around_disc(ball.position, ball.radius);
            if !swept.contains(&end) {
                swept.min = swept.min.min(end.min);
                swept.max = swept.max.max(end.max);
                escaped += 1;
            }
        }
        escaped
    }

    /// Step 4: impulses and position corrections for whatever overlaps. Correcting one pair can
    /// push a ball into a third, so dense packings get up to [`World::CORRECTION_PASSES`]
    /// passes (the loop stops at a pass that corrected nothing).
    ///
    /// A correction can also push a ball out of its swept box and its room, into a ball that
    /// is not among its candidates; its box then grows, and the pairs that grown boxes make
    /// are looked up before the next pass.
    fn resolve_overlaps(&mut self, dt: f32) {
        self.moved.resize(self.balls.len(), false);
        self.is_grown.resize(self.balls.len(), false);
        // Passes after the first look only at pairs with a moved ball. Scanning the whole pair
        // list for them costs more than listing each ball's partners once a crowd has more
        // pairs than balls (the seed scene's; not the sparse pit's, whose passes are few).
        let mut adjacent_pairs = None;
        for pass in 0..Self::CORRECTION_PASSES {
            self.stats.correction_passes = pass + 1;
            if pass == 1 && self.pairs.len() >= self.balls.len() {
                self.build_adjacency();
                adjacent_pairs = Some(self.pairs.len());
            }
            let corrected = if self.gravity == Vec2::ZERO {
                self.resolve_overlaps_once::<false>(pass == 0, adjacent_pairs, dt)
            } else {
                self.resolve_overlaps_once::<true>(pass == 0, adjacent_pairs, dt)
            };
            if !self.grown.is_empty() {
                self.add_pairs_of_grown_boxes();
            } else if corrected == 0 {
                break;
            }
        }
        self.clear_moved();
        self.clear_grown();
    }

    /// Adds the pairs that the grown swept boxes make to `pairs`, and marks their balls moved
    /// so that the next pass looks at them (the moved-ball rule of
    /// [`World::resolve_overlaps_once`]).
    fn add_pairs_of_grown_boxes(&mut self) {
        pairs_with_grown(&self.swept, &self.grown, &self.is_grown, &mut self.grown_scratch, &mut self.pairs);
        self.stats.candidate_pairs = self.pairs.len();
        for k in 0..self.grown.len() {
            self.mark_moved(self.grown[k]);
        }
        self.clear_grown();
    }

    /// One pass of [`World::resolve_overlaps`]; returns the number of corrections.
    ///
    /// After the first pass only pairs with a ball the last pass moved are looked at: a pair
    /// whose balls both stayed put was found apart at the start of that pass (an overlapping
    /// pair gets corrected, or skipped because an earlier correction moved one of them), and
    /// is still apart. Dense packings run many passes (the seed scene at 1,600 balls keeps
    /// tens of corrections a pass), so this saves most of the later passes' random reads of
    /// both balls.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    ///
    /// `RESTING` (gravity on): the pass leaves overlaps up to [`World::RESTING_SLOP`] alone
    /// and moves deeper ones back to half of it, not apart. A pile's contacts then stay
    /// touching, where the resting-contact solver holds them with last step's impulses; an
    /// over-relaxed correction would open gaps that the pile falls through again each step
    /// (a 300-ball pile never settled that way).
    fn resolve_overlaps_once<const RESTING: bool>(
        &mut self,
        first_pass: bool,
        adjacent_pairs: Option<usize>,
        dt: f32,
    ) -> usize {
        let mut corrected = 0;
        // Gather the overlapping pairs and sort them: the result of sequential corrections
        // depends on their order, and sorting makes it independent of the broad phase.
        let (balls, moved, contacts) = (&self.balls, &self.moved, &mut self.contacts);
        let overlapping = |i: u32, j: u32| {
            let (a, b) = (&balls[i as usize], &balls[j as usize]);
            let r = a.radius + b.radius - Self::slop::<RESTING>(a.radius.min(b.radius));
            a.position.distance_squared(b.position) < r * r
        };
        contacts.clear();
        let scanned_from = match adjacent_pairs {
            // Later passes of a crowd with many pairs per ball: the moved balls' partners.
            Some(listed) if !first_pass => {
                for &i in &self.moved_list {
                    let (s, e) =
                        (self.adjacency_start[i as usize] as usize, self.adjacency_start[i as usize + 1] as usize);
                    let partners = self.adjacency[s..e].iter().filter(|&&j| overlapping(i, j));
                    contacts.extend(partners.map(|&j| (i.min(j), i.max(j))));
                }
                listed
            }
            _ => 0,
        };
        for &(i, j) in &self.pairs[scanned_from..] {
            if (first_pass || moved[i as usize] || moved[j as usize]) && overlapping(i, j) {
                contacts.push((i, j));
            }
        }
        self.clear_moved();
        self.contacts.sort_unstable();
        // A pair is listed twice when found again for a grown box, or as a partner of each of
        // its two moved balls.
        self.contacts.dedup();
        for k in 0..self.contacts.len() {
            let (i, j) = self.contacts[k];
            let (iu, ju) = (i as usize, j as usize);
            let (a, b) = (self.balls[iu], self.balls[ju]);
            let d = b.position - a.position;
            let slop = Self::slop::<RESTING>(a.radius.min(b.radius));
            let r = a.radius + b.radius;
            let dist2 = d.length_squared();
            if dist2 >= (r - slop) * (r - slop) || (a.is_kinematic() && b.is_kinematic()) {
                continue; // an earlier correction already separated them, or both are kinematic
            }
            let dist = dist2.sqrt();
            // Coincident centres have no normal; any fixed direction separates them.
            let normal = if dist > 0.0 { d / dist } else { Vec2::X };
            let (inv_a, inv_b) = (1.0 / f64::from(a.mass), 1.0 / f64::from(b.mass));
            // The impulse conserves energy only for a unit normal: normalise in f64 (an f32
            // unit vector is off by ~1e-7 in length, which leaks 1e-7 of the pair's energy).
            let normal64 = if dist > 0.0 { d.as_dvec2().normalize() } else { DVec2::X };
            let (before_a, before_b) = (self.velocity64(iu), self.velocity64(ju));
            let e = self.restitution(a.restitution.max(b.restitution), (before_b - before_a).dot(normal64));
            let mut impulse = DVec2::ZERO;
            let response = ball_ball_impulse(before_a, before_b, inv_a, inv_b, normal64, e);
            if let Some((mut va, mut vb, normal_impulse)) = response {
                if pair_friction(&a, &b) > 0.0 {
                    self.rub_balls(iu, ju, normal64, normal_impulse, &mut va, &mut vb);
                }
                impulse = impulse_on_first(&a, va - before_a, &b, vb - before_b);
                for (k, v) in [(iu, va), (ju, vb)] {
                    if !self.balls[k].is_kinematic() {
                        self.set_velocity64(k, v);
                    }
                }
            }
            self.contact_log.record(iu, Collider::Ball(BallId(j)), dt, impulse, normal);
            // Apart by the over-relaxed overlap, and a few ulps more: positions are rounded to
            // the `f32` grid of their coordinates (an ulp is 6·10⁻⁵ at 1,000), so a pair moved
            // to exactly `r` may still overlap by an ulp, and would be corrected again in every
            // later pass.
            let margin = 4.0 * f32::EPSILON * a.position.abs().max(b.position.abs()).max_element().max(r);
            let push = if RESTING { r - 0.5 * slop - dist } else { (r - dist) * Self::OVER_RELAXATION + margin };
            let (pa, pb) = separate(a.position, a.mass, b.position, b.mass, normal, push);
            self.balls[iu].position = pa;
            self.balls[ju].position = pb;
            self.clamp_into_bounds(iu);
            self.clamp_into_bounds(ju);
            self.keep_in_swept_box(iu);
            self.keep_in_swept_box(ju);
            self.mark_moved(i);
            self.mark_moved(j);
            self.stats.contacts += 1;
            corrected += 1;
        }
        if !self.segments.is_empty() {
            for i in 0..self.balls.len() {
                corrected += self.resolve_segment_overlaps::<RESTING>(i, dt);
            }
        }
        corrected
    }

    /// Grows ball `i`'s swept box, with room, when a correction has pushed its disc out of it,
    /// and notes that its pairs must be looked up again.
    #[inline]
    fn keep_in_swept_box(&mut self, i: usize) {
        let ball = &self.balls[i];
        let disc = Aabb::around_disc(ball.position, ball.radius);
        let swept = &mut self.swept[i];
        if !swept.contains(&disc) {
            let room = Vec2::splat(ball.radius * Self::CORRECTION_ROOM);
            swept.min = swept.min.min(disc.min - room);
            swept.max = swept.max.max(disc.max + room);
            if !self.is_grown[i] {
                self.is_grown[i] = true;
                self.grown.push(i as u32);
                self.stats.pushed_out_of_box += 1;
            }
        }
    }

    /// Forgets which balls' boxes grew.
    fn clear_grown(&mut self) {
        for &i in &self.grown {
            self.is_grown[i as usize] = false;
        }
        self.grown.clear();
    }

    /// Forgets which balls the last correction pass moved.
    fn clear_moved(&mut self) {
        for &i in &self.moved_list {
            self.moved[i as usize] = false;
        }
        self.moved_list.clear();
    }

    /// Notes that the current correction pass moved ball `i`.
    #[inline]
    fn mark_moved(&mut self, i: u32) {
        if !self.moved[i as usize] {
            self.moved[i as usize] = true;
            self.moved_list.push(i);
        }
    }

    /// Keeps ball `i` inside the bounds after a correction (position only).
    #[inline]
    fn clamp_into_bounds(&mut self, i: usize) {
        if let Some(bounds) = self.bounds {
            let ball = &mut self.balls[i];
            if ball.is_kinematic() {
                return; // goes where its velocity takes it, walls or not
            }
            let r = Vec2::splat(ball.radius);
            let (lo, hi) = (bounds.min + r, bounds.max - r);
            ball.position = ball.position.max(lo).min(hi);
            if lo.x > hi.x {
                ball.position.x = 0.5 * (bounds.min.x + bounds.max.x);
            }
            if lo.y > hi.y {
                ball.position.y = 0.5 * (bounds.min.y + bounds.max.y);
            }
        }
    }

    /// Pushes ball `i` out of every segment it overlaps, reflecting it if it moves inwards.
    /// The overlap the position passes leave alone for a contact whose smaller radius is
    /// `radius`: [`World::RESTING_SLOP`] of it with gravity (`RESTING`), none without.
    #[inline]
    fn slop<const RESTING: bool>(radius: f32) -> f32 {
        if RESTING {
            Self::RESTING_SLOP * radius
        } else {
            0.0
        }
    }

    /// `RESTING`: as in [`World::resolve_overlaps_once`].
    fn resolve_segment_overlaps<const RESTING: bool>(&mut self, i: usize, dt: f32) -> usize {
        let mut corrected = 0;
        if self.balls[i].is_kinematic() {
            return 0; // passes through segments
        }
        // Pushed out of one segment, the ball moves by less than its radius: the segments of
        // a box twice its disc's are all it can meet in this loop.
        let mut near = std::mem::take(&mut self.near_segments);
        near.clear();
        let ball = self.balls[i];
        self.segment_grid.near(&Aabb::around_disc(ball.position, 2.0 * ball.radius), &mut near);
        for &s in &near {
            let s = s as usize;
            let ball = self.balls[i];
            let seg = self.segments[s];
            let bx = Aabb::around_disc(ball.position, ball.radius);
            if !overlap(&bx, &self.segment_boxes[s]) {
                continue;
            }
            let q = closest_point_on_segment(ball.position, seg.a, seg.b);
            let d = ball.position - q;
            let dist2 = d.length_squared();
            let slop = Self::slop::<RESTING>(ball.radius);
            if dist2 >= (ball.radius - slop) * (ball.radius - slop) {
                continue;
            }
            let dist = dist2.sqrt();
            let normal = if dist > 0.0 { d / dist } else { (seg.b - seg.a).perp().normalize_or(Vec2::Y) };
            self.balls[i].position = q + normal * (ball.radius - 0.5 * slop);
            let normal64 = if dist > 0.0 { d.as_dvec2().normalize() } else { normal.as_dvec2() };
            let before = self.velocity64(i);
            let e = self.restitution(ball.restitution, before.dot(normal64));
            let mut impulse = DVec2::ZERO;
            if let Some(mut v) = wall_impulse(before, normal64, e) {
                if ball.friction > 0.0 {
                    self.rub_static(i, -normal64, (v - before).dot(normal64), &mut v);
                }
                impulse = (v - before) * f64::from(ball.mass);
                self.set_velocity64(i, v);
            }
            self.contact_log.record(i, Collider::Segment(s), dt, impulse, -normal);
            self.clamp_into_bounds(i);
            self.keep_in_swept_box(i);
            self.mark_moved(i as u32);
            self.stats.contacts += 1;
            corrected += 1;
        }
        self.near_segments = near;
        corrected
    }
}

/// Coulomb friction of a bounce off the box wall on `axis` on the side `outward` (−1: the
/// wall at `min`, +1: at `max`), whose normal impulse changed the ball's normal velocity by
/// `normal_change` (m/s) `overshoot` seconds before the end of the step: the tangential
/// velocity and the spin change ([`impact_friction`]), and the position along the wall moves
/// by the change times the overshoot, as if it had happened at the wall.
#[cold]
fn rub_wall(ball: &mut Ball, residual: &mut Vec2, axis: usize, outward: f64, normal_change: f32, overshoot: f32) {
    let along = 1 - axis;
    let mut normal = DVec2::ZERO;
    normal[axis] = outward;
    let mut side = rim(ball, ball.velocity.as_dvec2() + residual.as_dvec2());
    let limit = f64::from(ball.friction) * f64::from(normal_change) * f64::from(ball.mass);
    impact_friction(&mut side, &mut { RimSide::STATIC }, normal, limit);
    let tangential = side.velocity[along];
    let before = ball.velocity[along];
    ball.velocity[along] = tangential as f32;
    // A ball without a residual (velocity compensation off) keeps none.
    if *residual != Vec2::ZERO {
        residual[along] = (tangential - f64::from(ball.velocity[along])) as f32;
    }
    ball.angular_velocity = side.spin as f32;
    if overshoot.is_finite() {
        ball.position[along] += (ball.velocity[along] - before) * overshoot;
    }
}

/// `count` if it lies in `1..=max`; otherwise the error naming `what`, with `requirement`
/// saying so in words.
fn one_to(what: &'static str, requirement: &'static str, count: usize, max: usize) -> Result<usize, Error> {
    if (1..=max).contains(&count) {
        Ok(count)
    } else {
        // The value is only shown in the message.
        Err(Error::OutOfRange { what, requirement, value: count as f32 })
    }
}

/// `ball`, moving at `velocity` (with its residual), as one side of a contact with friction.
#[inline]
fn rim(ball: &Ball, velocity: DVec2) -> RimSide {
    RimSide {
        velocity,
        spin: f64::from(ball.angular_velocity),
        inverse_mass: 1.0 / f64::from(ball.mass),
        radius: f64::from(ball.radius),
    }
}

/// Whether `ball` can turn: it has friction (a contact can spin it; without, a pair's mixed
/// coefficient and a wall's are 0) or already spins.
fn can_turn(ball: &Ball) -> bool {
    ball.friction > 0.0 || ball.angular_velocity != 0.0
}

/// Whether `ball` gives its resting contacts friction or rolling rows.
fn is_rough(ball: &Ball) -> bool {
    ball.friction > 0.0 || ball.rolling_resistance > 0.0
}

/// `angle + by`, kept within `[−π, π]`.
#[inline(always)]
fn turned(angle: f32, by: f32) -> f32 {
    let turned = angle + by;
    if turned.abs() <= std::f32::consts::PI {
        turned
    } else {
        wrap_angle(turned)
    }
}

/// An angle outside `[−π, π]` brought back into it.
#[cold]
fn wrap_angle(angle: f32) -> f32 {
    let tau = std::f32::consts::TAU;
    (angle + std::f32::consts::PI).rem_euclid(tau) - std::f32::consts::PI
}

/// The friction coefficient of a ball pair: `√(μ_a · μ_b)`, Box2D's mixing rule (0 unless both
/// balls have friction).
#[inline]
fn pair_friction(a: &Ball, b: &Ball) -> f32 {
    (a.friction * b.friction).sqrt()
}

/// The impulse on ball `a` (N·s) of a contact that changed the velocities of `a` and `b` by
/// `dva` and `dvb`: `m_a·dva`, or `−m_b·dvb` when `a` is kinematic (its `∞·0` would be NaN).
#[inline]
fn impulse_on_first(a: &Ball, dva: DVec2, b: &Ball, dvb: DVec2) -> DVec2 {
    if a.is_kinematic() {
        -dvb * f64::from(b.mass)
    } else {
        dva * f64::from(a.mass)
    }
}

/// Logs the wall bounces `reflect_off_walls` just made: packed ball `i` ended its path as
/// `before` (with `residual_before`) and was reflected into `after` (with `residual`). The time
/// of impact is when the path reached the wall: `dt` minus the overshoot's time.
#[allow(clippy::too_many_arguments)] // one call site, the step's own state
#[cold]
fn log_wall_bounces(
    log: &mut PlanarContactLog,
    i: usize,
    before: &Ball,
    residual_before: Vec2,
    after: &Ball,
    residual: Vec2,
    bounds: Aabb,
    dt: f32,
) {
    let v_before = before.velocity.as_dvec2() + residual_before.as_dvec2();
    let v_after = after.velocity.as_dvec2() + residual.as_dvec2();
    // The axes whose walls the ball bounced off: it crossed one moving into it
    // (`bounce_on_axis`' test). With friction a bounce changes the velocity along the wall too,
    // which is that wall's impulse as well, unless the ball met both walls of a corner: then
    // each wall is given its own axis.
    let r = before.radius;
    let crossed = |axis: usize| {
        let (p, v) = (before.position[axis], before.velocity[axis]);
        (p < bounds.min[axis] + r && v < 0.0) || (p > bounds.max[axis] - r && v > 0.0)
    };
    let corner = crossed(0) && crossed(1);
    for axis in (0..2).filter(|&axis| crossed(axis)) {
        let positive = before.velocity[axis] > 0.0;
        let wall = if positive { bounds.max[axis] - before.radius } else { bounds.min[axis] + before.radius };
        let overshoot_time = (before.position[axis] - wall).abs() / before.velocity[axis].abs();
        let mut impulse = (v_after - v_before) * f64::from(before.mass);
        if corner {
            impulse[1 - axis] = 0.0;
        }
        let mut normal = Vec2::ZERO;
        normal[axis] = if positive { 1.0 } else { -1.0 };
        let partner = Collider::Wall(BoxWall::on(axis, positive));
        log.record(i, partner, (dt - overshoot_time).clamp(0.0, dt), impulse, normal);
    }
}

/// Reflects a ball that ended the step beyond a wall: the overshoot is mirrored (scaled by the
/// restitution) and the normal velocity component flipped, which conserves energy exactly for
/// `e = 1` (a sign change is exact in floating point).
#[inline]
fn reflect_off_walls(ball: &mut Ball, residual: &mut Vec2, bounds: Aabb) {
    let r = ball.radius;
    for axis in 0..2 {
        let (lo, hi) = (bounds.min[axis] + r, bounds.max[axis] - r);
        let p = ball.position[axis];
        // Between the walls (nearly every ball, every step) or NaN: nothing to mirror. The
        // bounces are out of line so that this test is all the move loop carries.
        if p < lo || p > hi {
            bounce_on_axis(ball, residual, axis, lo, hi);
        }
    }
}

/// [`reflect_off_walls`] on one axis, for a ball beyond `lo` or `hi` (its centre's limits).
/// A ball that crosses the whole box within a step bounces back and forth: mirror again while
/// the image lies beyond the other wall. Past this many bounces in one step (an absurd speed)
/// the ball is put on the wall it last reached.
#[inline(never)]
fn bounce_on_axis(ball: &mut Ball, residual: &mut Vec2, axis: usize, lo: f32, hi: f32) {
    const MAX_BOUNCES: usize = 16;
    let e = ball.restitution;
    for _ in 0..MAX_BOUNCES {
        let p = ball.position[axis];
        if p < lo {
            ball.position[axis] = lo + (lo - p) * e;
            if ball.velocity[axis] < 0.0 {
                let speed_in = -ball.velocity[axis];
                ball.velocity[axis] = -ball.velocity[axis] * e;
                residual[axis] = -residual[axis] * e;
                if ball.friction > 0.0 {
                    rub_wall(ball, residual, axis, -1.0, speed_in * (1.0 + e), (lo - p) / speed_in);
                }
            }
        } else if p > hi {
            ball.position[axis] = hi - (p - hi) * e;
            if ball.velocity[axis] > 0.0 {
                let speed_in = ball.velocity[axis];
                ball.velocity[axis] = -ball.velocity[axis] * e;
                residual[axis] = -residual[axis] * e;
                if ball.friction > 0.0 {
                    rub_wall(ball, residual, axis, 1.0, speed_in * (1.0 + e), (p - hi) / speed_in);
                }
            }
        } else {
            return;
        }
    }
    let p = ball.position[axis];
    if lo <= hi && !(lo..=hi).contains(&p) && !p.is_nan() {
        ball.position[axis] = p.clamp(lo, hi);
    }
}
