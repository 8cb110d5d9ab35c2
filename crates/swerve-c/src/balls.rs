//! The rigid-ball world (`swerve::physics::World`) for C: discs with mass that bounce off each
//! other, off the walls of an optional box and off static segments, with a broad phase chosen
//! by name; gravity and resting contacts, friction, rolling resistance, kinematic balls,
//! contact records, ray casts and circle queries.

use std::collections::HashSet;
use std::ffi::{c_char, CStr};

use crate::orca::{finite, SwerveVec2};
use crate::status::{arg, change, fill, guard, inner, inner_mut, query, slice, Failure, Handle, Out, SwerveStatus};
use swerve::geom::Aabb;
use swerve::physics::{
    Ball, BallId, BoxWall, BroadPhaseKind, Collider, Contact, DebugBoxKind, RayHit, Segment, StepStats, World,
};
use swerve::Vec2;

/// A vector of `double`s: the world's totals (momentum), which are summed in double precision.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveVec2d {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
}

/// An axis-aligned box (m): the walls of a world, or a broad phase's cell.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveBounds {
    /// The corner with the smallest coordinates.
    pub min: SwerveVec2,
    /// The corner with the largest coordinates.
    pub max: SwerveVec2,
}

/// A ball: a rigid disc. `swerve_ball_new` fills one with the defaults (unit areal density,
/// elastic, frictionless, not spinning); change the fields you need before adding it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveBall {
    /// Centre (m).
    pub position: SwerveVec2,
    /// Velocity (m/s).
    pub velocity: SwerveVec2,
    /// Radius (m), > 0.
    pub radius: f32,
    /// Mass (kg), > 0; `INFINITY` makes the ball kinematic: it moves only as its velocity
    /// says, pushes the balls it meets without being pushed back, passes through box walls,
    /// segments and other kinematic balls, and is left out of the energy and momentum.
    pub mass: f32,
    /// Coefficient of restitution in [0, 1] (1: perfectly elastic). A pair of balls uses the
    /// larger of the two.
    pub restitution: f32,
    /// Coulomb friction coefficient, ≥ 0 (0: frictionless, the ball never spins from a
    /// contact). A pair of balls uses √(μa·μb); a wall or a segment the ball's own.
    pub friction: f32,
    /// Rolling resistance coefficient, ≥ 0: with gravity, resting contacts brake the ball's
    /// rolling (on a floor it slows at ⅔·c·g). A pair uses the larger; a wall the ball's own.
    pub rolling_resistance: f32,
    /// Angular velocity (rad/s, counter-clockwise).
    pub angular_velocity: f32,
    /// Orientation (rad, counter-clockwise, kept within [−π, π]); it changes nothing in the
    /// dynamics but shows a rolling ball turn.
    pub angle: f32,
}

impl From<SwerveBall> for Ball {
    fn from(b: SwerveBall) -> Ball {
        Ball {
            position: b.position.into(),
            velocity: b.velocity.into(),
            radius: b.radius,
            mass: b.mass,
            restitution: b.restitution,
            friction: b.friction,
            rolling_resistance: b.rolling_resistance,
            angular_velocity: b.angular_velocity,
            angle: b.angle,
        }
    }
}

impl From<Ball> for SwerveBall {
    fn from(b: Ball) -> SwerveBall {
        SwerveBall {
            position: b.position.into(),
            velocity: b.velocity.into(),
            radius: b.radius,
            mass: b.mass,
            restitution: b.restitution,
            friction: b.friction,
            rolling_resistance: b.rolling_resistance,
            angular_velocity: b.angular_velocity,
            angle: b.angle,
        }
    }
}

/// A static segment balls bounce off (both sides are solid).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveSegment {
    /// First end point (m).
    pub a: SwerveVec2,
    /// Second end point (m).
    pub b: SwerveVec2,
}

/// What kind of thing a ball touched or a ray met.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwerveColliderKind {
    /// A ball; the index is its id.
    Ball = 0,
    /// A static segment; the index is its place in `swerve_world_segments` (a polygon adds
    /// one per edge).
    Segment = 1,
    /// A wall of the world's box; the index is a `SwerveBoxWall`.
    Wall = 2,
}

/// The walls of a world's box, as numbered in a `SwerveCollider` of kind wall.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwerveBoxWall {
    /// The wall at `bounds.min.x`.
    MinX = 0,
    /// The wall at `bounds.max.x`.
    MaxX = 1,
    /// The wall at `bounds.min.y`.
    MinY = 2,
    /// The wall at `bounds.max.y`.
    MaxY = 3,
}

/// Something a ball can collide with or a ray can hit.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwerveCollider {
    /// A ball, a segment or a wall.
    pub kind: SwerveColliderKind,
    /// The ball's id, the segment's index or the wall's `SwerveBoxWall` number.
    pub index: u32,
}

impl From<Collider> for SwerveCollider {
    fn from(c: Collider) -> SwerveCollider {
        match c {
            Collider::Ball(id) => SwerveCollider { kind: SwerveColliderKind::Ball, index: id.0 },
            // A segment index beyond u32 needs more segments than memory holds; saturate.
            Collider::Segment(s) => {
                SwerveCollider { kind: SwerveColliderKind::Segment, index: u32::try_from(s).unwrap_or(u32::MAX) }
            }
            Collider::Wall(w) => SwerveCollider {
                kind: SwerveColliderKind::Wall,
                index: match w {
                    BoxWall::MinX => SwerveBoxWall::MinX,
                    BoxWall::MaxX => SwerveBoxWall::MaxX,
                    BoxWall::MinY => SwerveBoxWall::MinY,
                    BoxWall::MaxY => SwerveBoxWall::MaxY,
                } as u32,
            },
        }
    }
}

/// A collision of the last step: every resolution between the same two partners within the
/// step (its substeps included), folded into one.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveContact {
    /// The ball's id; of two balls, the one added first.
    pub ball: u32,
    /// What it touched.
    pub partner: SwerveCollider,
    /// Seconds into the step of the first resolution: 0 for resting contacts (with gravity),
    /// the time of impact for collisions found by continuous detection and for wall bounces,
    /// the step's length for overlaps resolved after the move.
    pub time: f32,
    /// The total impulse on `ball` (N·s): its momentum changed by this much through this
    /// contact, and a partner ball's by the opposite. Zero when the pair was only pushed
    /// apart.
    pub impulse: SwerveVec2,
    /// Unit normal at the first resolution, from the ball towards its partner.
    pub normal: SwerveVec2,
}

impl From<&Contact> for SwerveContact {
    fn from(c: &Contact) -> SwerveContact {
        SwerveContact {
            ball: c.ball.0,
            partner: c.partner.into(),
            time: c.time,
            impulse: c.impulse.into(),
            normal: c.normal.into(),
        }
    }
}

/// What a ray met first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveRayHit {
    /// What it met.
    pub collider: SwerveCollider,
    /// Distance from the ray's origin (m).
    pub distance: f32,
    /// Where it met it.
    pub point: SwerveVec2,
    /// Unit normal of the collider's surface there, facing the ray's origin.
    pub normal: SwerveVec2,
}

impl From<RayHit> for SwerveRayHit {
    fn from(h: RayHit) -> SwerveRayHit {
        SwerveRayHit {
            collider: h.collider.into(),
            distance: h.distance,
            point: h.point.into(),
            normal: h.normal.into(),
        }
    }
}

/// What the last step did (with substeps, each count is the sum over them but
/// `correction_passes`, the most any one ran).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwerveStepStats {
    /// Ball pairs the broad phase reported (a superset of the colliding pairs).
    pub candidate_pairs: usize,
    /// Ball–ball and ball–segment collisions resolved (box-wall bounces are not counted).
    pub contacts: usize,
    /// Of those, collisions found by continuous detection at their time of impact.
    pub time_of_impact_events: usize,
    /// Balls that ended the step outside their swept box (the broad phase then ran again).
    pub escaped_swept_boxes: usize,
    /// Position-correction passes the discrete pass ran.
    pub correction_passes: usize,
    /// Times a position correction pushed a ball out of its swept box.
    pub pushed_out_of_box: usize,
    /// With gravity: the resting contacts solved together before the move.
    pub resting_contacts: usize,
}

impl From<StepStats> for SwerveStepStats {
    fn from(s: StepStats) -> SwerveStepStats {
        SwerveStepStats {
            candidate_pairs: s.candidate_pairs,
            contacts: s.contacts,
            time_of_impact_events: s.time_of_impact_events,
            escaped_swept_boxes: s.escaped_swept_boxes,
            correction_passes: s.correction_passes,
            pushed_out_of_box: s.pushed_out_of_box,
            resting_contacts: s.resting_contacts,
        }
    }
}

/// What a broad-phase debug box stands for.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwerveDebugBoxKind {
    /// An occupied grid cell (uniform, hierarchical, or grid + sort-and-sweep).
    GridCell = 0,
    /// A quadtree node's loose bounds.
    QuadtreeNode = 1,
    /// A ball's interval on the sweep axis, drawn across the scene's other extent.
    SweepInterval = 2,
    /// An AABB-tree node's (fat) box.
    TreeNode = 3,
}

/// One box of the structure a broad phase built in the last step, for drawing.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveDebugBox {
    /// What it is.
    pub kind: SwerveDebugBoxKind,
    /// Grid level (0 = finest) or tree depth (0 = root); 0 when meaningless.
    pub level: u32,
    /// The box.
    pub bounds: SwerveBounds,
}

/// A world of balls. Create it with `swerve_world_new`, free it with `swerve_world_free`. A
/// world steps on the calling thread.
pub struct SwerveWorld {
    world: World,
}

impl Handle for SwerveWorld {
    type Inner = World;
    const WHAT: &'static str = "world";
    fn inner(&self) -> &World {
        &self.world
    }
    fn inner_mut(&mut self) -> &mut World {
        &mut self.world
    }
}

/// The broad-phase kind a C string names.
///
/// # Safety
/// `name` is null or a NUL-terminated string.
unsafe fn broad_phase_named(name: *const c_char) -> Result<BroadPhaseKind, Failure> {
    if name.is_null() {
        return Err(Failure::null("broad_phase"));
    }
    let name = unsafe { CStr::from_ptr(name) };
    let name = name.to_str().map_err(|_| Failure::invalid(format!("unknown broad phase {name:?} (not UTF-8)")))?;
    Ok(name.parse::<BroadPhaseKind>()?)
}

/// The name of a broad phase as a static C string (the names of `BroadPhaseKind::name`).
fn broad_phase_name(kind: BroadPhaseKind) -> &'static CStr {
    match kind {
        BroadPhaseKind::BruteForce => c"brute-force",
        BroadPhaseKind::SortAndSweep => c"sort-and-sweep",
        BroadPhaseKind::UniformGrid => c"uniform-grid",
        BroadPhaseKind::HierarchicalGrid => c"hierarchical-grid",
        BroadPhaseKind::GridSortAndSweep => c"grid-sort-and-sweep",
        BroadPhaseKind::Quadtree => c"quadtree",
        BroadPhaseKind::DynamicAabbTree => c"aabb-tree",
    }
}

// ----- balls and broad phases, before a world -----

/// The broad phases' names, as static NUL-terminated strings, brute force first:
/// "brute-force", "sort-and-sweep", "uniform-grid", "hierarchical-grid",
/// "grid-sort-and-sweep", "quadtree", "aabb-tree". All give the same collisions, bit for bit;
/// they differ in speed. `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `out` is null or valid for writing `capacity` pointers; `count` is null or valid for
/// writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_broad_phase_names(
    out: *mut *const c_char,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| unsafe { fill(BroadPhaseKind::ALL.iter().map(|&k| broad_phase_name(k).as_ptr()), out, capacity, count) })
}

/// A ball with the defaults: mass π r² (unit areal density), restitution 1, no friction, no
/// rolling resistance, not spinning, angle 0. Nothing is checked until the ball is added.
///
/// # Safety
/// `out` is null or valid for writing a `SwerveBall`.
#[no_mangle]
pub unsafe extern "C" fn swerve_ball_new(
    position: SwerveVec2,
    velocity: SwerveVec2,
    radius: f32,
    out: *mut SwerveBall,
) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        unsafe { out.set(Ball::new(position.into(), velocity.into(), radius).into()) };
        Ok(())
    })
}

/// A kinematic ball (infinite mass; see `SwerveBall::mass`), otherwise as `swerve_ball_new`.
///
/// # Safety
/// `out` is null or valid for writing a `SwerveBall`.
#[no_mangle]
pub unsafe extern "C" fn swerve_ball_kinematic(
    position: SwerveVec2,
    velocity: SwerveVec2,
    radius: f32,
    out: *mut SwerveBall,
) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        unsafe { out.set(Ball::kinematic(position.into(), velocity.into(), radius).into()) };
        Ok(())
    })
}

// ----- the handle -----

/// Creates an empty world. `bounds` is the box whose walls the balls bounce off (finite, min
/// below max on both axes), or null for open space; `broad_phase` names the broad phase (one
/// of `swerve_broad_phase_names`; `InvalidArgument` for any other). On success `*out` holds
/// the new handle. No gravity, damping or contact records until set.
///
/// # Safety
/// `bounds` is null or valid for reading; `broad_phase` is null or a NUL-terminated string;
/// `out` is null or valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_new(
    bounds: *const SwerveBounds,
    broad_phase: *const c_char,
    out: *mut *mut SwerveWorld,
) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let kind = unsafe { broad_phase_named(broad_phase) }?;
        let bounds = match unsafe { bounds.as_ref() } {
            None => None,
            Some(b) => {
                let (min, max): (Vec2, Vec2) = (b.min.into(), b.max.into());
                if !(min.is_finite() && max.is_finite() && min.x < max.x && min.y < max.y) {
                    return Err(Failure::invalid(format!(
                        "bounds must be finite with min < max, got ({}, {}) .. ({}, {})",
                        min.x, min.y, max.x, max.y
                    )));
                }
                Some(Aabb { min, max })
            }
        };
        let handle = SwerveWorld { world: World::new(bounds, kind) };
        unsafe { out.set(Box::into_raw(Box::new(handle))) };
        Ok(())
    })
}

/// Frees a world. Null is ignored.
///
/// # Safety
/// `world` is null or a handle from `swerve_world_new` not yet freed; it is invalid after.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_free(world: *mut SwerveWorld) {
    if !world.is_null() {
        // Dropping cannot panic (plain vectors), so nothing unwinds.
        drop(unsafe { Box::from_raw(world) });
    }
}

/// Advances the world by `dt` seconds (finite, > 0): with `swerve_world_set_substeps` n, as n
/// substeps of `dt / n`. Collisions are found at their time of impact, so fast balls do not
/// tunnel; the result is the same for every broad phase. Does not allocate once warmed up.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_step(world: *mut SwerveWorld, dt: f32) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            // The library ignores such a step; at the C boundary it is a mistake worth saying.
            if !(dt.is_finite() && dt > 0.0) {
                return Err(Failure::invalid(format!("dt must be finite and greater than 0, got {dt}")));
            }
            w.step(dt);
            Ok(())
        })
    }
}

/// Whether the world has a box (`*out_bounded`), and if so the box (`*out`, written only
/// then).
///
/// # Safety
/// `world` is null or a live handle; `out_bounded` and `out` are null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_bounds(
    world: *const SwerveWorld,
    out_bounded: *mut bool,
    out: *mut SwerveBounds,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        let bounded = Out::new(out_bounded, "out_bounded")?;
        let out = Out::new(out, "out")?;
        let bounds = w.bounds();
        unsafe { bounded.set(bounds.is_some()) };
        if let Some(b) = bounds {
            unsafe { out.set(SwerveBounds { min: b.min.into(), max: b.max.into() }) };
        }
        Ok(())
    })
}

/// The broad phase in use: `*out` receives its name, a static NUL-terminated string.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_broad_phase(world: *const SwerveWorld, out: *mut *const c_char) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(broad_phase_name(w.broad_phase()).as_ptr())) }
}

/// Switches the broad phase (one of `swerve_broad_phase_names`); the new one builds on the
/// next step. The trajectories do not change.
///
/// # Safety
/// `world` is null or a live handle; `broad_phase` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_broad_phase(
    world: *mut SwerveWorld,
    broad_phase: *const c_char,
) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            w.set_broad_phase(broad_phase_named(broad_phase)?);
            Ok(())
        })
    }
}

/// Gravity (m/s², default (0, 0)).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_gravity(world: *const SwerveWorld, out: *mut SwerveVec2) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.gravity().into())) }
}

/// Sets gravity (m/s², finite). With gravity every non-kinematic ball accelerates, and each
/// step solves the touching contacts together (sequential impulses, warm-started), so piles
/// and stacks come to rest; slow landings rest, faster impacts bounce with the restitution.
/// With (0, 0) the step is exactly the one without gravity.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_gravity(world: *mut SwerveWorld, gravity: SwerveVec2) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_gravity(gravity.into())?)) }
}

/// Substeps per step (default 1).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_substeps(world: *const SwerveWorld, out: *mut usize) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.substeps())) }
}

/// Splits every step into `substeps` (1 to 64) substeps of `dt / substeps`: shorter steps hold
/// tall stacks better than more solver sweeps, for the same cost.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_substeps(world: *mut SwerveWorld, substeps: usize) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_substeps(substeps)?)) }
}

/// Sweeps of the resting-contact solver per step (default 10).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_solver_iterations(world: *const SwerveWorld, out: *mut usize) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.solver_iterations())) }
}

/// Sets the sweeps of the resting-contact solver per step (1 to 1,000; only with gravity).
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_solver_iterations(
    world: *mut SwerveWorld,
    iterations: usize,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_solver_iterations(iterations)?)) }
}

/// Linear damping rate (1/s, default 0).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_linear_damping(world: *const SwerveWorld, out: *mut f32) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.linear_damping())) }
}

/// Sets linear damping (1/s, finite, ≥ 0): at the start of each step every velocity is scaled
/// by 1 / (1 + c·dt) — the rolling resistance of a top-down table, the drag on a puck.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_linear_damping(world: *mut SwerveWorld, rate: f32) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_linear_damping(rate)?)) }
}

/// Whether collisions are found at their time of impact (default on). Off, the step moves
/// the balls and then resolves overlaps, which lets fast balls tunnel.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_continuous_collision(world: *mut SwerveWorld, on: bool) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            w.set_continuous_collision(on);
            Ok(())
        })
    }
}

/// Whether each velocity carries a float residual that makes energy and momentum
/// conservation double-exact (default on). Turning it off drops the current residuals.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_velocity_compensation(world: *mut SwerveWorld, on: bool) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            w.set_velocity_compensation(on);
            Ok(())
        })
    }
}

/// What the last step did.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_last_step_stats(
    world: *const SwerveWorld,
    out: *mut SwerveStepStats,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.last_step_stats().into())) }
}

/// Total kinetic energy (J), translational and rotational, of the non-kinematic balls, summed
/// in double precision.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_kinetic_energy(world: *const SwerveWorld, out: *mut f64) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.kinetic_energy())) }
}

/// Total momentum (kg·m/s) of the non-kinematic balls, summed in double precision.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_momentum(world: *const SwerveWorld, out: *mut SwerveVec2d) -> SwerveStatus {
    unsafe {
        query(world, out, |w| {
            let p = w.momentum();
            Ok(SwerveVec2d { x: p.x, y: p.y })
        })
    }
}

// ----- balls -----

/// Adds a ball; `*out_id` receives its id. Ids are handed out in order (0, 1, 2, …) and never
/// reused. Refused (nothing added): non-finite numbers (but a kinematic ball's infinite
/// mass), radius or mass ≤ 0, restitution outside [0, 1], negative friction or rolling
/// resistance, a ball that does not fit inside the bounds (a kinematic ball may).
///
/// # Safety
/// `world` is null or a live handle; `ball` is null or valid for reading; `out_id` is null or
/// valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_add_ball(
    world: *mut SwerveWorld,
    ball: *const SwerveBall,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let ball = *unsafe { arg(ball, "ball") }?;
        let out = Out::new(out_id, "out_id")?;
        let id = w.add_ball(ball.into())?;
        unsafe { out.set(id.0) };
        Ok(())
    })
}

/// Adds `count` balls; `out_ids` receives their ids, in order. If any ball is refused (as by
/// `swerve_world_add_ball`), none is added and the message names the first.
///
/// # Safety
/// `world` is null or a live handle; `balls` is null or valid for reading `count` balls;
/// `out_ids` is null or valid for writing `count` ids.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_add_balls(
    world: *mut SwerveWorld,
    balls: *const SwerveBall,
    count: usize,
    out_ids: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let balls = unsafe { slice(balls, count, "balls") }?;
        if count > 0 && out_ids.is_null() {
            return Err(Failure::null("out_ids"));
        }
        // The library's own rules, on a scratch world with the same bounds first, so that a
        // refused ball adds nothing.
        let mut scratch = World::new(w.bounds(), BroadPhaseKind::BruteForce);
        for (k, &ball) in balls.iter().enumerate() {
            scratch.add_ball(ball.into()).map_err(|e| Failure::from(e).within(&format!("ball {k}")))?;
        }
        let mut ids = Vec::with_capacity(count);
        for &ball in balls {
            // Only the id space (2^31 balls ever added) can refuse a ball here; give back
            // what was added then.
            match w.add_ball(ball.into()) {
                Ok(id) => ids.push(id),
                Err(e) => {
                    let added: HashSet<BallId> = ids.iter().copied().collect();
                    w.retain_balls(|id, _| !added.contains(&id));
                    return Err(e.into());
                }
            }
        }
        for (k, id) in ids.into_iter().enumerate() {
            unsafe { out_ids.add(k).write(id.0) };
        }
        Ok(())
    })
}

/// Removes a ball; the others keep their ids and their order, and its id is never reused.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_remove_ball(world: *mut SwerveWorld, id: u32) -> SwerveStatus {
    unsafe { change(world, |w| w.remove_ball(BallId(id)).map(drop).map_err(Failure::from)) }
}

/// Removes `count` balls in one pass (repeated ids are fine). If any id names no live ball,
/// none is removed.
///
/// # Safety
/// `world` is null or a live handle; `ids` is null or valid for reading `count` ids.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_remove_balls(
    world: *mut SwerveWorld,
    ids: *const u32,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let ids = unsafe { slice(ids, count, "ids") }?;
        if let Some(&unknown) = ids.iter().find(|&&id| !w.contains_ball(BallId(id))) {
            return Err(swerve::Error::UnknownBall(unknown).into());
        }
        let gone: HashSet<u32> = ids.iter().copied().collect();
        w.retain_balls(|id, _| !gone.contains(&id.0));
        Ok(())
    })
}

/// Whether `id` names a live ball.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_contains_ball(
    world: *const SwerveWorld,
    id: u32,
    out: *mut bool,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.contains_ball(BallId(id)))) }
}

/// How many balls there are.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_num_balls(world: *const SwerveWorld, out: *mut usize) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.num_balls())) }
}

/// A ball's whole state.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_ball(world: *const SwerveWorld, id: u32, out: *mut SwerveBall) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.ball(BallId(id))?.into())) }
}

/// Replaces a ball's whole state, with `swerve_world_add_ball`'s rules (nothing changes on
/// error). A ball moved onto another is pushed out by the next step.
///
/// # Safety
/// `world` is null or a live handle; `ball` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_ball(
    world: *mut SwerveWorld,
    id: u32,
    ball: *const SwerveBall,
) -> SwerveStatus {
    guard(|| {
        let ball = *unsafe { arg(ball, "ball") }?;
        Ok(unsafe { inner_mut(world) }?.set_ball(BallId(id), ball.into())?)
    })
}

/// A ball's position (m).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_ball_position(
    world: *const SwerveWorld,
    id: u32,
    out: *mut SwerveVec2,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.ball(BallId(id))?.position.into())) }
}

/// Moves a ball (m, finite; inside the bounds unless kinematic), keeping its velocity.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_ball_position(
    world: *mut SwerveWorld,
    id: u32,
    position: SwerveVec2,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_ball_position(BallId(id), position.into())?)) }
}

/// A ball's velocity (m/s).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_ball_velocity(
    world: *const SwerveWorld,
    id: u32,
    out: *mut SwerveVec2,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.ball(BallId(id))?.velocity.into())) }
}

/// Sets a ball's velocity (m/s, finite); a kinematic ball is steered this way.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_ball_velocity(
    world: *mut SwerveWorld,
    id: u32,
    velocity: SwerveVec2,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_ball_velocity(BallId(id), velocity.into())?)) }
}

/// A ball's angular velocity (rad/s, counter-clockwise).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_ball_angular_velocity(
    world: *const SwerveWorld,
    id: u32,
    out: *mut f32,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.ball(BallId(id))?.angular_velocity)) }
}

/// Sets a ball's angular velocity (rad/s, finite); the rest of the ball stays as it is (this
/// is `swerve_world_set_ball` with one field changed, and refused as that would be).
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_ball_angular_velocity(
    world: *mut SwerveWorld,
    id: u32,
    angular_velocity: f32,
) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            let id = BallId(id);
            let ball = Ball { angular_velocity, ..w.ball(id)? };
            Ok(w.set_ball(id, ball)?)
        })
    }
}

/// Applies an impulse (N·s, finite) to a ball: its velocity changes by `impulse / mass`, and
/// the world's momentum by `impulse` (double precision). A kinematic ball does not change.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_apply_impulse(
    world: *mut SwerveWorld,
    id: u32,
    impulse: SwerveVec2,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.apply_impulse(BallId(id), impulse.into())?)) }
}

// ----- all balls at once, in the order of swerve_world_ball_ids -----

/// The live balls' ids, in the order every other all-balls function uses (the order they
/// were added, less the removed ones). `*count` receives the number of balls; `out` must hold
/// that many (`BufferTooSmall` otherwise, with `out` untouched).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_ball_ids(
    world: *const SwerveWorld,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.ball_ids().iter().map(|id| id.0), out, capacity, count) }
    })
}

/// Every ball's whole state; `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` balls;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_balls(
    world: *const SwerveWorld,
    out: *mut SwerveBall,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.balls().iter().map(|&b| b.into()), out, capacity, count) }
    })
}

/// Every ball's position (m); `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_positions(
    world: *const SwerveWorld,
    out: *mut SwerveVec2,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.balls().iter().map(|b| b.position.into()), out, capacity, count) }
    })
}

/// Every ball's velocity (m/s); `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_velocities(
    world: *const SwerveWorld,
    out: *mut SwerveVec2,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.balls().iter().map(|b| b.velocity.into()), out, capacity, count) }
    })
}

/// Every ball's radius (m); `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_radii(
    world: *const SwerveWorld,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.balls().iter().map(|b| b.radius), out, capacity, count) }
    })
}

/// Every ball's mass (kg; `INFINITY` for kinematic balls); `*count` and `out` as in
/// `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_masses(
    world: *const SwerveWorld,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.balls().iter().map(|b| b.mass), out, capacity, count) }
    })
}

/// Every ball's angular velocity (rad/s); `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_angular_velocities(
    world: *const SwerveWorld,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.balls().iter().map(|b| b.angular_velocity), out, capacity, count) }
    })
}

/// Every ball's orientation (rad, within [−π, π]); `*count` and `out` as in
/// `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_angles(
    world: *const SwerveWorld,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.balls().iter().map(|b| b.angle), out, capacity, count) }
    })
}

/// Moves every ball at once, in the order of `swerve_world_ball_ids`. `count` must equal the
/// number of balls and every ball fit inside the bounds at its new place (kinematic balls
/// excepted); otherwise nothing changes.
///
/// # Safety
/// `world` is null or a live handle; `values` is null or valid for reading `count` vectors.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_positions(
    world: *mut SwerveWorld,
    values: *const SwerveVec2,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let values = unsafe { slice(values, count, "values") }?;
        Ok(w.set_positions(bytemuck::cast_slice(values))?)
    })
}

/// Sets every ball's velocity at once, in the order of `swerve_world_ball_ids`. `count` must
/// equal the number of balls and every value be finite; otherwise nothing changes.
///
/// # Safety
/// `world` is null or a live handle; `values` is null or valid for reading `count` vectors.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_velocities(
    world: *mut SwerveWorld,
    values: *const SwerveVec2,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let values = unsafe { slice(values, count, "values") }?;
        Ok(w.set_velocities(bytemuck::cast_slice(values))?)
    })
}

// ----- static segments -----

/// Adds a static segment from `a` to `b` (finite, distinct), solid on both sides. Segments
/// are numbered in the order they are added, from 0.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_add_segment(
    world: *mut SwerveWorld,
    a: SwerveVec2,
    b: SwerveVec2,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.add_segment(a.into(), b.into())?)) }
}

/// Adds the edges of a closed polygon of `count` vertices as static segments, in order (the
/// edge from vertex i to i + 1, and the closing one; a single segment for 2 vertices). Either
/// winding works. Refused (nothing added): fewer than 2 vertices, non-finite coordinates,
/// repeated consecutive vertices, crossing edges.
///
/// # Safety
/// `world` is null or a live handle; `vertices` is null or valid for reading `count` vectors.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_add_polygon(
    world: *mut SwerveWorld,
    vertices: *const SwerveVec2,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let vertices = unsafe { slice(vertices, count, "vertices") }?;
        Ok(w.add_polygon(bytemuck::cast_slice(vertices))?)
    })
}

/// How many static segments there are (polygon edges included).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_num_segments(world: *const SwerveWorld, out: *mut usize) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.segments().len())) }
}

/// The static segments, by number; `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` segments;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_segments(
    world: *const SwerveWorld,
    out: *mut SwerveSegment,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        let segments = w.segments().iter().map(|&Segment { a, b }| SwerveSegment { a: a.into(), b: b.into() });
        unsafe { fill(segments, out, capacity, count) }
    })
}

// ----- contacts -----

/// Whether each step records its collisions for `swerve_world_contacts` (off by default; on,
/// a step logs every resolution and sorts the log at its end). Turning it on or off clears
/// the last step's records.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_set_record_contacts(world: *mut SwerveWorld, on: bool) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            w.set_record_contacts(on);
            Ok(())
        })
    }
}

/// Whether steps record their collisions.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_records_contacts(world: *const SwerveWorld, out: *mut bool) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.records_contacts())) }
}

/// The last step's collisions, one per touching pair (ball–ball, ball–segment, ball–wall),
/// ordered by ball (in the order of `swerve_world_ball_ids`) and partner; none unless
/// contacts are recorded. The same for every broad phase. `*count` and `out` as in
/// `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` contacts;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_contacts(
    world: *const SwerveWorld,
    out: *mut SwerveContact,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.contacts().iter().map(SwerveContact::from), out, capacity, count) }
    })
}

// ----- queries -----

/// The ids of the balls whose disc overlaps the circle (`center`, `radius` ≥ 0), in the order
/// of `swerve_world_ball_ids`; with `radius` 0, the balls that contain `center`. O(balls).
/// `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_balls_in_circle(
    world: *const SwerveWorld,
    center: SwerveVec2,
    radius: f32,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        // Collected first: the iterator's length is not known until it has run.
        let found: Vec<u32> = w.balls_in_circle(center.into(), radius)?.map(|id| id.0).collect();
        unsafe { fill(found.into_iter(), out, capacity, count) }
    })
}

/// The first ball (in the order of `swerve_world_ball_ids`) that contains `point`:
/// `*out_found` says whether there is one, and `*out_id` (written only then) is its id.
///
/// # Safety
/// `world` is null or a live handle; `out_found` and `out_id` are null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_ball_at(
    world: *const SwerveWorld,
    point: SwerveVec2,
    out_found: *mut bool,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        let found = Out::new(out_found, "out_found")?;
        let out_id = Out::new(out_id, "out_id")?;
        let id = w.ball_at(finite("point", point)?)?;
        unsafe { found.set(id.is_some()) };
        if let Some(id) = id {
            unsafe { out_id.set(id.0) };
        }
        Ok(())
    })
}

/// What the ray from `origin` along `direction` (finite, non-zero, any length) meets first
/// within `max_distance` (m, ≥ 0, may be `INFINITY`): a ball where the ray enters it (balls
/// that contain the origin are skipped), a segment, or a wall of the box. `*out_hit` says
/// whether it meets anything, and `*out` (written only then) what. O(balls + segments).
///
/// # Safety
/// `world` is null or a live handle; `out_hit` and `out` are null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_cast_ray(
    world: *const SwerveWorld,
    origin: SwerveVec2,
    direction: SwerveVec2,
    max_distance: f32,
    out_hit: *mut bool,
    out: *mut SwerveRayHit,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        let hit_out = Out::new(out_hit, "out_hit")?;
        let out = Out::new(out, "out")?;
        let hit = w.cast_ray(origin.into(), direction.into(), max_distance)?;
        unsafe { hit_out.set(hit.is_some()) };
        if let Some(hit) = hit {
            unsafe { out.set(hit.into()) };
        }
        Ok(())
    })
}

/// The boxes the broad phase built in the last step (grid cells, tree nodes, sweep
/// intervals), for drawing over the balls; `*count` and `out` as in `swerve_world_ball_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` boxes;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world_broad_phase_boxes(
    world: *const SwerveWorld,
    out: *mut SwerveDebugBox,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        let debug = w.broad_phase_debug();
        let boxes = debug.layers.iter().flat_map(|layer| {
            let kind = match layer.kind {
                DebugBoxKind::GridCell => SwerveDebugBoxKind::GridCell,
                DebugBoxKind::QuadtreeNode => SwerveDebugBoxKind::QuadtreeNode,
                DebugBoxKind::SweepInterval => SwerveDebugBoxKind::SweepInterval,
                DebugBoxKind::TreeNode => SwerveDebugBoxKind::TreeNode,
            };
            layer.boxes.iter().map(move |b| SwerveDebugBox {
                kind,
                level: layer.level,
                bounds: SwerveBounds { min: b.min.into(), max: b.max.into() },
            })
        });
        let boxes: Vec<SwerveDebugBox> = boxes.collect();
        unsafe { fill(boxes.into_iter(), out, capacity, count) }
    })
}
