//! The 3-D ball world: spheres in a box, stepped with continuous collision.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{DVec3, Vec3};

use super::broad_phase::{BroadPhase, BroadPhaseKind, Pair};
use super::contact::{named_contact, BoxWall, Collider, Contact, SphereContactLog};
use super::friction::{impact_friction, ContactSide};
use super::query::{self, RayHit};
use super::resting::{self, RestingContacts};
use super::time_of_impact;
use super::triangle_grid::TriangleGrid;
use super::{sphere_volume, Aabb3, Sphere, SphereId, Triangle};
use crate::error::Error;
use crate::physics::broad_phase::partner_rows;
use crate::physics::response::correction_shares;
use crate::physics::StepStats;

/// A slot of a removed sphere.
const REMOVED: u32 = u32::MAX;

/// Marks the second index of an impact event as a triangle index rather than a sphere index
/// (sphere indices are below 2³¹, see [`World::add_sphere`]).
const TRIANGLE_FLAG: u32 = 1 << 31;

/// A flagged partner that names no triangle (beyond [`MAX_TRIANGLES`]).
const NO_TRIANGLE: u32 = u32::MAX;

/// The most static triangles a world holds: their numbers share the resting contacts' key
/// space with the six walls (module `resting`).
const MAX_TRIANGLES: usize = (1 << 31) - 8;

/// Spheres in a box (or in free space).
///
/// # One step
/// The planar [`crate::physics::World`]'s step with a third coordinate (seed 003 §6.1):
/// 0. With [`World::set_linear_damping`] every velocity is scaled down; with
///    [`World::set_gravity`] gravity is added to it, and after step 1 (whose boxes cover every
///    touching pair) the resting contacts are solved together.
/// 1. Each sphere's *swept* box (the sphere at the start and at the end of the step, including
///    the mirror image of a wall bounce, widened by [`World::CORRECTION_ROOM`]) goes to the
///    broad phase, which reports candidate pairs.
/// 2. Continuous detection for the pairs that move fast relative to each other (more than
///    [`World::CONTINUOUS_FRACTION`] of the smaller radius per step): their times of impact
///    within the step are processed in time order from a heap, each re-checked against the
///    spheres' current paths, and a deflected sphere gets new impacts against its candidate
///    partners. During the step a sphere's `position` holds the *anchor* of its path
///    `position + velocity · t`, so deflecting it at time `t` only moves its anchor. Slower
///    pairs cannot pass through each other within a step and are left to step 4.
/// 3. Every sphere moves to the end of its path; box walls reflect it (mirror image of the
///    overshoot, exact for `e = 1`). A sphere deflected out of its swept box makes the broad
///    phase run again, so step 4 sees every overlapping pair.
/// 4. Discrete pass: overlapping pairs, sorted by index (so the result does not depend on the
///    broad phase), get the approach-only impulse and the mass-weighted position correction
///    ([`World::OVER_RELAXATION`]); up to [`World::CORRECTION_PASSES`] passes while
///    corrections push spheres into others.
///
/// # Precision
/// Velocities are `f32` with an `f32` residual each (a double-`f32` value): impulses are
/// computed in `f64` on `velocity + residual` and split back, with `f64` unit normals, so that
/// energy and momentum are conserved to `f64` rounding, not to `f32`'s (the planar world
/// measured 2·10⁻⁸ relative energy drift without the residual and 4·10⁻¹⁵ with it).
/// [`World::set_velocity_compensation`] turns the residual off.
///
/// Times of impact are `f32` fractions of the (sub)step, so a sphere's place along its path is
/// known to about 2⁻²⁴ of the distance it travels in it: a sphere that travels more than about
/// 10⁶ of its radii in one step (1.5 mm at 337 km/s with a step of 1 s left a 4 dm slab of
/// triangles) can be placed off by more than its radius. Substeps
/// ([`World::set_substeps`]) shorten the travel.
///
/// # Ids and order
/// Spheres are stored packed in insertion order ([`World::spheres`], [`World::sphere_ids`]);
/// a [`SphereId`] names a sphere for its whole life and is never reused. Within a step, ties
/// are broken by that order, so a step's result is the same for every broad phase.
///
/// `step` never panics and does not allocate once its buffers have grown to the scene.
pub struct World {
    bounds: Option<Aabb3>,
    /// The live spheres, packed in insertion order; everything per sphere below is indexed
    /// alike.
    spheres: Vec<Sphere>,
    /// The id of each sphere of `spheres`.
    ids: Vec<SphereId>,
    /// By id: the sphere's index in `spheres`, or `REMOVED`.
    slots: Vec<u32>,
    residual: Vec<Vec3>,
    broad_phase: Box<dyn BroadPhase>,
    compensated: bool,
    continuous: bool,
    /// Linear damping rate (1/s).
    damping: f32,
    /// Acceleration of every non-kinematic sphere (m/s²); zero turns the resting-contact
    /// solver off.
    gravity: Vec3,
    /// Sweeps of the resting-contact solver per step.
    solver_iterations: usize,
    /// Substeps per step.
    substeps: usize,
    /// With gravity: pairs approaching slower than this (m/s) rest (no restitution); set each
    /// step, 0 without gravity.
    resting_speed: f64,
    resting: RestingContacts,
    stats: StepStats,
    swept: Vec<Aabb3>,
    pairs: Vec<Pair>,
    /// Scratch: the pairs overlapping in a discrete pass, in canonical order.
    contacts: Vec<Pair>,
    /// Scratch of the discrete pass: which spheres the last pass moved (all `false` between
    /// steps), and their list.
    moved: Vec<bool>,
    moved_list: Vec<u32>,
    /// Whether a correction of this pass pushed a sphere out of its swept box.
    grown: bool,
    adjacency_start: Vec<u32>,
    adjacency: Vec<u32>,
    /// Impacts by time: `(time bits, sphere, partner)`, the partner a sphere or a flagged
    /// triangle ([`TRIANGLE_FLAG`]).
    events: BinaryHeap<Reverse<(u32, u32, u32)>>,
    /// The static triangles, and the grid that finds those near a box (rebuilt at the first
    /// step after a change).
    triangles: Vec<Triangle>,
    triangle_grid: TriangleGrid,
    triangle_grid_stale: bool,
    /// The step's candidate sphere–triangle pairs (a sphere's swept box meets the triangle),
    /// ordered by sphere, then triangle; `triangle_rows[i]..triangle_rows[i + 1]` are sphere
    /// `i`'s (empty when the world has no triangles).
    triangle_pairs: Vec<(u32, u32)>,
    triangle_rows: Vec<u32>,
    /// Scratch: the triangles near one box.
    near_triangles: Vec<u32>,
    /// Numbers the position passes of all steps; `triangle_pushed[i]` is the pass in which a
    /// triangle last pushed sphere `i` (see [`World::resolve_overlaps_once`]).
    correction_pass: u64,
    triangle_pushed: Vec<u64>,
    /// The step's collisions, when recorded ([`World::set_record_contacts`]).
    contact_log: SphereContactLog,
}

impl World {
    /// Maximum position-correction passes per step (see [`World`], step 4).
    pub const CORRECTION_PASSES: usize = 16;

    /// A pair gets continuous detection when its relative displacement in a step exceeds this
    /// fraction of the smaller radius (see [`World`], step 2).
    pub const CONTINUOUS_FRACTION: f32 = 0.5;

    /// A position correction moves a pair apart by this multiple of its overlap: over-relaxed
    /// Gauss–Seidel, which settles chains of contacts in fewer passes (the planar world
    /// measured this value; see [`crate::physics::World::OVER_RELAXATION`]).
    pub const OVER_RELAXATION: f32 = 1.2;

    /// Swept boxes are widened by this fraction of the sphere's radius, so that a position
    /// correction that pushes a sphere a little off its path finds the pairs it makes among
    /// the candidates already listed.
    pub const CORRECTION_ROOM: f32 = 0.1;

    /// Sweeps of the resting-contact solver per step, unless [`World::set_solver_iterations`]
    /// says otherwise (the planar world's default; Box2D's velocity iterations are 8).
    pub const DEFAULT_SOLVER_ITERATIONS: usize = 10;

    /// The most substeps a step may be split into ([`World::set_substeps`]).
    pub const MAX_SUBSTEPS: usize = 64;

    /// With gravity, a pair that approaches slower than the speed gravity gives in this many
    /// steps (`RESTING_STEPS · |g| · dt`) comes to rest instead of bouncing, as Box2D's
    /// restitution threshold does (the planar world's value).
    pub const RESTING_STEPS: f32 = 4.0;

    /// With gravity, the position passes leave overlaps up to this fraction of the smaller
    /// radius alone and push deeper ones back to half of it, so that resting spheres stay
    /// touching and the resting-contact solver keeps holding them (the planar world's value,
    /// Box2D's linear slop).
    pub const RESTING_SLOP: f32 = 0.01;

    /// An empty world. `bounds`, if given, is a box whose walls the spheres bounce off; it
    /// must have finite corners with `min < max` on every axis.
    pub fn new(bounds: Option<Aabb3>, broad_phase: BroadPhaseKind) -> Result<World, Error> {
        if let Some(b) = bounds {
            Error::check_finite_vec3("bounds min", b.min)?;
            Error::check_finite_vec3("bounds max", b.max)?;
            let size = b.max - b.min;
            if !size.cmpgt(Vec3::ZERO).all() {
                return Err(Error::OutOfRange {
                    what: "bounds size",
                    requirement: "greater than 0 on every axis",
                    value: size.min_element(),
                });
            }
        }
        Ok(World {
            bounds,
            spheres: Vec::new(),
            ids: Vec::new(),
            slots: Vec::new(),
            residual: Vec::new(),
            broad_phase: broad_phase.create(),
            compensated: true,
            continuous: true,
            damping: 0.0,
            gravity: Vec3::ZERO,
            solver_iterations: Self::DEFAULT_SOLVER_ITERATIONS,
            substeps: 1,
            resting_speed: 0.0,
            resting: RestingContacts::default(),
            stats: StepStats::default(),
            swept: Vec::new(),
            pairs: Vec::new(),
            contacts: Vec::new(),
            moved: Vec::new(),
            moved_list: Vec::new(),
            grown: false,
            adjacency_start: Vec::new(),
            adjacency: Vec::new(),
            events: BinaryHeap::new(),
            triangles: Vec::new(),
            triangle_grid: TriangleGrid::default(),
            triangle_grid_stale: false,
            triangle_pairs: Vec::new(),
            triangle_rows: Vec::new(),
            near_triangles: Vec::new(),
            correction_pass: 0,
            triangle_pushed: Vec::new(),
            contact_log: SphereContactLog::default(),
        })
    }

    /// Adds a sphere. Errors on non-finite numbers (but a kinematic sphere's infinite mass),
    /// radius or mass ≤ 0, restitution outside `[0, 1]`, or a sphere that does not lie inside
    /// the bounds (a kinematic sphere may).
    pub fn add_sphere(&mut self, sphere: Sphere) -> Result<SphereId, Error> {
        self.check_sphere(&sphere)?;
        if self.slots.len() >= (u32::MAX / 2) as usize {
            return Err(Error::OutOfRange {
                what: "sphere count",
                requirement: "below 2^31 (removed spheres count: ids are never reused)",
                value: self.slots.len() as f32,
            });
        }
        let id = SphereId(self.slots.len() as u32);
        self.slots.push(self.spheres.len() as u32);
        self.ids.push(id);
        self.spheres.push(sphere);
        self.residual.push(Vec3::ZERO);
        Ok(id)
    }

    /// The rules of [`World::add_sphere`].
    fn check_sphere(&self, sphere: &Sphere) -> Result<(), Error> {
        Error::check_finite_vec3("sphere position", sphere.position)?;
        Error::check_finite_vec3("sphere velocity", sphere.velocity)?;
        Error::check_positive("sphere radius", sphere.radius)?;
        // Beyond this the volume (and `Sphere::new`'s mass) overflows to infinity, which would
        // make the sphere kinematic by accident: computed as `Sphere::new` computes its mass.
        // (Checking only `r³`, as before, let radii from 4.3e12 to 6.9e12 through.)
        if !sphere_volume(sphere.radius).is_finite() {
            return Err(Error::OutOfRange {
                what: "sphere radius",
                requirement: "below 4.3e12 (its volume, 4/3 π r³, must be finite)",
                value: sphere.radius,
            });
        }
        if !sphere.is_kinematic() {
            Error::check_positive("sphere mass", sphere.mass)?;
        }
        Error::check_non_negative("sphere restitution", sphere.restitution)?;
        if sphere.restitution > 1.0 {
            return Err(Error::OutOfRange {
                what: "sphere restitution",
                requirement: "at most 1",
                value: sphere.restitution,
            });
        }
        Error::check_non_negative("sphere friction", sphere.friction)?;
        Error::check_non_negative("sphere rolling resistance", sphere.rolling_resistance)?;
        Error::check_finite_vec3("sphere angular velocity", sphere.angular_velocity)?;
        self.check_inside_bounds(sphere.position, sphere)
    }

    /// Whether `sphere` may be at `position`: inside the bounds, unless it is kinematic (it
    /// passes through walls, so it may come from outside).
    fn check_inside_bounds(&self, position: Vec3, sphere: &Sphere) -> Result<(), Error> {
        let radius = sphere.radius;
        if let (Some(b), false) = (self.bounds, sphere.is_kinematic()) {
            let r = Vec3::splat(radius);
            if !((b.min + r).cmple(position).all() && position.cmple(b.max - r).all()) {
                return Err(Error::SphereOutsideBounds { x: position.x, y: position.y, z: position.z, radius });
            }
        }
        Ok(())
    }

    /// The index in [`World::spheres`] of a live sphere.
    fn index_of(&self, id: SphereId) -> Result<usize, Error> {
        match self.slots.get(id.0 as usize) {
            Some(&slot) if slot != REMOVED => Ok(slot as usize),
            _ => Err(Error::UnknownSphere(id.0)),
        }
    }

    /// The number of (live) spheres.
    pub fn num_spheres(&self) -> usize {
        self.spheres.len()
    }

    /// The ids of the live spheres, in the order of [`World::spheres`].
    pub fn sphere_ids(&self) -> &[SphereId] {
        &self.ids
    }

    /// Whether `id` names a live sphere.
    pub fn contains_sphere(&self, id: SphereId) -> bool {
        self.index_of(id).is_ok()
    }

    /// A live sphere's current state (its velocity without the residual, see [`World`]).
    pub fn sphere(&self, id: SphereId) -> Result<Sphere, Error> {
        Ok(self.spheres[self.index_of(id)?])
    }

    /// The live spheres, packed in insertion order.
    pub fn spheres(&self) -> &[Sphere] {
        &self.spheres
    }

    /// Replaces a live sphere's state (checked as by [`World::add_sphere`]); its velocity
    /// residual is cleared.
    pub fn set_sphere(&mut self, id: SphereId, sphere: Sphere) -> Result<(), Error> {
        let i = self.index_of(id)?;
        self.check_sphere(&sphere)?;
        self.spheres[i] = sphere;
        self.residual[i] = Vec3::ZERO;
        Ok(())
    }

    /// Moves a live sphere (it must fit inside the bounds, unless it is kinematic).
    pub fn set_sphere_position(&mut self, id: SphereId, position: Vec3) -> Result<(), Error> {
        let i = self.index_of(id)?;
        Error::check_finite_vec3("sphere position", position)?;
        self.check_inside_bounds(position, &self.spheres[i])?;
        self.spheres[i].position = position;
        Ok(())
    }

    /// Sets a live sphere's velocity (its residual is cleared).
    pub fn set_sphere_velocity(&mut self, id: SphereId, velocity: Vec3) -> Result<(), Error> {
        let i = self.index_of(id)?;
        self.spheres[i].velocity = Error::check_finite_vec3("sphere velocity", velocity)?;
        self.residual[i] = Vec3::ZERO;
        Ok(())
    }

    /// Sets every sphere's velocity (m/s), in the order of [`World::sphere_ids`]; the
    /// residuals are cleared. Nothing changes unless the length matches and every value is
    /// finite.
    pub fn set_velocities(&mut self, velocities: &[Vec3]) -> Result<(), Error> {
        self.check_count("velocity count", velocities.len())?;
        for &v in velocities {
            Error::check_finite_vec3("sphere velocity", v)?;
        }
        for (sphere, &v) in self.spheres.iter_mut().zip(velocities) {
            sphere.velocity = v;
        }
        self.residual.fill(Vec3::ZERO);
        Ok(())
    }

    /// Moves every sphere (m), in the order of [`World::sphere_ids`]. Nothing changes unless
    /// the length matches and every sphere fits inside the bounds at its new position.
    pub fn set_positions(&mut self, positions: &[Vec3]) -> Result<(), Error> {
        self.check_count("position count", positions.len())?;
        for (sphere, &p) in self.spheres.iter().zip(positions) {
            Error::check_finite_vec3("sphere position", p)?;
            self.check_inside_bounds(p, sphere)?;
        }
        for (sphere, &p) in self.spheres.iter_mut().zip(positions) {
            sphere.position = p;
        }
        Ok(())
    }

    fn check_count(&self, what: &'static str, count: usize) -> Result<(), Error> {
        if count == self.spheres.len() {
            Ok(())
        } else {
            Err(Error::OutOfRange { what, requirement: "equal to the number of spheres", value: count as f32 })
        }
    }

    /// Gives a live sphere an impulse (N·s): its velocity changes by `impulse / mass` (in
    /// `f64`, with its residual). A kinematic sphere's infinite mass takes any impulse without
    /// a change.
    pub fn apply_impulse(&mut self, id: SphereId, impulse: Vec3) -> Result<(), Error> {
        let i = self.index_of(id)?;
        Error::check_finite_vec3("impulse", impulse)?;
        let v = self.velocity64(i) + impulse.as_dvec3() / f64::from(self.spheres[i].mass);
        Error::check_finite_vec3("sphere velocity after the impulse", v.as_vec3())?;
        self.set_velocity64(i, v);
        Ok(())
    }

    /// Removes a sphere and returns its last state. Every other sphere keeps its id and its
    /// place in the order; the removed id is never reused.
    ///
    /// Costs O(n) (the spheres stay packed in insertion order), and the broad phase rebuilds
    /// from scratch on the next step. To remove many, [`World::retain_spheres`] does it in one
    /// pass.
    pub fn remove_sphere(&mut self, id: SphereId) -> Result<Sphere, Error> {
        let sphere = self.sphere(id)?;
        self.retain_spheres(|other, _| other != id);
        Ok(sphere)
    }

    /// Keeps only the spheres for which `keep(id, &sphere)` returns `true`, in one O(n) pass;
    /// the others are removed as by [`World::remove_sphere`].
    pub fn retain_spheres(&mut self, mut keep: impl FnMut(SphereId, &Sphere) -> bool) {
        // Ask first, change after: a `keep` that panics leaves the world as it was.
        let verdicts: Vec<bool> = self.ids.iter().zip(&self.spheres).map(|(&id, s)| keep(id, s)).collect();
        let mut kept = 0;
        for (i, keep) in verdicts.into_iter().enumerate() {
            let id = self.ids[i];
            if keep {
                self.spheres.swap(kept, i);
                self.ids.swap(kept, i);
                self.residual.swap(kept, i);
                self.slots[id.0 as usize] = kept as u32;
                kept += 1;
            } else {
                self.slots[id.0 as usize] = REMOVED;
            }
        }
        if kept == self.spheres.len() {
            return;
        }
        self.spheres.truncate(kept);
        self.ids.truncate(kept);
        self.residual.truncate(kept);
        // Incremental broad phases keep state by index, and a sphere's index just changed.
        self.broad_phase = self.broad_phase.kind().create();
    }

    /// The box whose walls the spheres bounce off, if any.
    pub fn bounds(&self) -> Option<Aabb3> {
        self.bounds
    }

    /// Adds a static triangle with corners `a`, `b`, `c` (m). Both faces are solid: spheres
    /// bounce off it, rest and roll on it, and with continuous collision do not pass through
    /// it; kinematic spheres pass through, as through the walls. Errors on a non-finite corner
    /// or a triangle without area ([`Triangle::new`]).
    pub fn add_triangle(&mut self, a: Vec3, b: Vec3, c: Vec3) -> Result<(), Error> {
        self.add_triangles(&[Triangle::new(a, b, c)?])
    }

    /// Adds the triangles of a mesh: `triangles` index `vertices` (m). All or nothing: a
    /// non-finite vertex, an index beyond the vertices or a triangle without area adds none of
    /// them. Shared edges are fine: a sphere rolls across the seam of a flat mesh as over one
    /// face (near the seam it also touches the neighbour's edge, at a normal tilted toward
    /// the face; that touch is left out of the resting contacts whenever a face the sphere
    /// touches no farther away goes on past that edge).
    pub fn add_mesh(&mut self, vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<(), Error> {
        self.add_triangles(&Triangle::mesh(vertices, triangles)?)
    }

    /// Adds checked triangles, all or none.
    fn add_triangles(&mut self, triangles: &[Triangle]) -> Result<(), Error> {
        if self.triangles.len() + triangles.len() > MAX_TRIANGLES {
            return Err(Error::OutOfRange {
                what: "triangle count",
                requirement: "below 2^31 - 8",
                value: (self.triangles.len() + triangles.len()) as f32,
            });
        }
        self.triangles.extend_from_slice(triangles);
        self.triangle_grid_stale = true;
        Ok(())
    }

    /// The static triangles, in the order they were added.
    pub fn triangles(&self) -> &[Triangle] {
        &self.triangles
    }

    /// The spheres that overlap the ball (`center`, `radius` ≥ 0), in the order of
    /// [`World::spheres`]; with `radius = 0`, the spheres that contain `center`. O(n). Errors
    /// on a non-finite centre or a negative or non-finite radius.
    pub fn spheres_in_ball(&self, center: Vec3, radius: f32) -> Result<impl Iterator<Item = SphereId> + '_, Error> {
        Error::check_finite_vec3("query centre", center)?;
        Error::check_non_negative("query radius", radius)?;
        Ok(query::spheres_in_ball(&self.spheres, &self.ids, center, radius))
    }

    /// The first sphere that contains `point` (in the order of [`World::spheres`]), if any.
    pub fn sphere_at(&self, point: Vec3) -> Result<Option<SphereId>, Error> {
        Ok(self.spheres_in_ball(point, 0.0)?.next())
    }

    /// What the ray from `origin` along `direction` (any length; it is normalised) meets first
    /// within `max_distance` (m; may be infinite): a sphere where the ray enters it (spheres
    /// that contain the origin are skipped), a static triangle (either face), or a wall of the
    /// box (from either side). O(n + triangles). Errors on a non-finite origin or direction, a
    /// zero direction, or a negative or NaN distance.
    pub fn cast_ray(&self, origin: Vec3, direction: Vec3, max_distance: f32) -> Result<Option<RayHit>, Error> {
        Error::check_finite_vec3("ray origin", origin)?;
        Error::check_finite_vec3("ray direction", direction)?;
        let unit = direction.as_dvec3().normalize_or_zero();
        if unit == DVec3::ZERO {
            return Err(Error::OutOfRange { what: "ray direction", requirement: "non-zero", value: 0.0 });
        }
        if max_distance.is_nan() || max_distance < 0.0 {
            return Err(Error::OutOfRange { what: "ray length", requirement: "at least 0", value: max_distance });
        }
        let (spheres, triangles, max) = (&self.spheres, &self.triangles, f64::from(max_distance));
        Ok(query::cast_ray(spheres, &self.ids, triangles, self.bounds, origin.as_dvec3(), unit, max))
    }

    /// Switches the broad phase (the step's result does not depend on it; see [`World`]).
    pub fn set_broad_phase(&mut self, kind: BroadPhaseKind) {
        if kind != self.broad_phase.kind() {
            self.broad_phase = kind.create();
        }
    }

    /// The broad phase in use.
    pub fn broad_phase(&self) -> BroadPhaseKind {
        self.broad_phase.kind()
    }

    /// Turns the `f64` velocity residual on (the default) or off (see [`World`], precision).
    pub fn set_velocity_compensation(&mut self, on: bool) {
        self.compensated = on;
        if !on {
            self.residual.fill(Vec3::ZERO);
        }
    }

    /// Turns continuous collision detection on (the default) or off: off, fast spheres can
    /// pass through each other within a step (for comparison with purely discrete engines).
    pub fn set_continuous_collision(&mut self, on: bool) {
        self.continuous = on;
    }

    /// Linear damping: each step scales every velocity by `1 / (1 + rate·dt)` (Box2D's form;
    /// `rate` in 1/s, ≥ 0; 0, the default, is none).
    pub fn set_linear_damping(&mut self, rate: f32) -> Result<(), Error> {
        self.damping = Error::check_non_negative("linear damping", rate)?;
        Ok(())
    }

    /// The linear damping rate (1/s).
    pub fn linear_damping(&self) -> f32 {
        self.damping
    }

    /// Gravity (m/s², e.g. `(0, 0, −9.81)`), added to every non-kinematic sphere's velocity
    /// at the start of each step. Non-zero gravity turns on the resting-contact solver: the
    /// touching contacts of each step (pairs and walls) are solved together, warm-started
    /// from the last step, so that piles come to rest; pairs meeting slower than
    /// [`World::RESTING_STEPS`] steps of gravity do not bounce, and the position passes leave
    /// overlaps up to [`World::RESTING_SLOP`] alone.
    pub fn set_gravity(&mut self, gravity: Vec3) -> Result<(), Error> {
        let gravity = Error::check_finite_vec3("gravity", gravity)?;
        if gravity != self.gravity {
            // Last step's contact impulses carried another weight.
            self.resting.forget();
        }
        self.gravity = gravity;
        Ok(())
    }

    /// Sweeps of the resting-contact solver per step (1 to 1,000; default
    /// [`World::DEFAULT_SOLVER_ITERATIONS`]). Tall piles hold better with more.
    pub fn set_solver_iterations(&mut self, iterations: usize) -> Result<(), Error> {
        if !(1..=1000).contains(&iterations) {
            return Err(Error::OutOfRange {
                what: "solver iterations",
                requirement: "between 1 and 1000",
                value: iterations as f32,
            });
        }
        self.solver_iterations = iterations;
        Ok(())
    }

    /// Sweeps of the resting-contact solver per step.
    pub fn solver_iterations(&self) -> usize {
        self.solver_iterations
    }

    /// Splits each [`World::step`] into `substeps` steps of `dt / substeps` (1 to
    /// [`World::MAX_SUBSTEPS`]; default 1). Deep piles under gravity hold better with shorter
    /// steps than with more solver sweeps: each substep's solve carries the weight a little
    /// further down, and the gravity each contact must answer shrinks with the step (the planar
    /// world measured the same). Damping is applied once, for the whole step; the step's
    /// [`StepStats`] cover all its substeps.
    pub fn set_substeps(&mut self, substeps: usize) -> Result<(), Error> {
        if !(1..=Self::MAX_SUBSTEPS).contains(&substeps) {
            return Err(Error::OutOfRange {
                what: "substeps",
                requirement: "between 1 and 64",
                value: substeps as f32,
            });
        }
        self.substeps = substeps;
        Ok(())
    }

    /// Substeps per step.
    pub fn substeps(&self) -> usize {
        self.substeps
    }

    /// The gravity vector (m/s²).
    pub fn gravity(&self) -> Vec3 {
        self.gravity
    }

    /// What the last [`World::step`] did.
    pub fn last_step_stats(&self) -> StepStats {
        self.stats
    }

    /// Whether each step records its collisions for [`World::contacts`] (default `false`;
    /// recording costs a log entry per resolution and a sort at the end of the step).
    /// Switching it either way forgets the last step's contacts.
    pub fn set_record_contacts(&mut self, on: bool) {
        self.contact_log.set_on(on);
    }

    /// Whether steps record their collisions.
    pub fn records_contacts(&self) -> bool {
        self.contact_log.is_on()
    }

    /// The last step's collisions, one per touching pair (sphere–sphere, sphere–triangle,
    /// sphere–box wall), ordered by sphere (in the order of [`World::spheres`]) and partner;
    /// empty unless [`World::set_record_contacts`] is on. The same for every broad phase.
    pub fn contacts(&self) -> &[Contact] {
        self.contact_log.contacts()
    }

    /// Total kinetic energy `Σ ½ m |v|² + ½ I |ω|²` (translation and spin, `I = 2/5 m r²`) of
    /// the non-kinematic spheres, in `f64` with the velocity residuals (joules).
    pub fn kinetic_energy(&self) -> f64 {
        let energy = |i: usize| {
            let s = &self.spheres[i];
            let (m, r) = (f64::from(s.mass), f64::from(s.radius));
            0.5 * m * self.velocity64(i).length_squared()
                + 0.2 * m * r * r * s.angular_velocity.as_dvec3().length_squared()
        };
        (0..self.spheres.len()).filter(|&i| !self.spheres[i].is_kinematic()).map(energy).sum()
    }

    /// Total momentum `Σ m v` of the non-kinematic spheres, in `f64` with the velocity
    /// residuals (kg·m/s).
    pub fn momentum(&self) -> DVec3 {
        (0..self.spheres.len())
            .filter(|&i| !self.spheres[i].is_kinematic())
            .map(|i| f64::from(self.spheres[i].mass) * self.velocity64(i))
            .sum()
    }

    /// Advances the world by `dt` seconds. A `dt` that is not finite and positive does
    /// nothing.
    pub fn step(&mut self, dt: f32) {
        self.stats = StepStats::default();
        self.contact_log.begin_step();
        if !(dt.is_finite() && dt > 0.0) || self.spheres.is_empty() {
            return;
        }
        if self.triangle_grid_stale {
            self.triangle_grid = TriangleGrid::build(&self.triangles);
            self.triangle_grid_stale = false;
        }
        if self.damping != 0.0 {
            let scale = 1.0 / (1.0 + f64::from(self.damping) * f64::from(dt));
            self.change_velocities(|v| v * scale);
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
        self.contact_log.finish_step(|r| named_contact(r, ids));
    }

    /// One (sub)step of `dt` seconds, after damping: steps 0–4 of [`World`].
    fn substep(&mut self, dt: f32) {
        let gravity_on = self.gravity != Vec3::ZERO;
        self.resting_speed = 0.0;
        if gravity_on {
            let change = self.gravity.as_dvec3() * f64::from(dt);
            self.resting_speed = f64::from(Self::RESTING_STEPS) * change.length();
            self.change_velocities(|v| v + change);
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

    /// Step 0: `v ← f(v)` in `f64` with the residual, for every non-kinematic sphere.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn change_velocities(&mut self, f: impl Fn(DVec3) -> DVec3) {
        for i in 0..self.spheres.len() {
            if !self.spheres[i].is_kinematic() {
                let v = f(self.velocity64(i));
                self.set_velocity64(i, v);
            }
        }
    }

    /// Step 1b, with gravity: the resting contacts solved together (module `resting`). Runs
    /// after the broad phase, whose swept boxes (with their room) cover every touching pair,
    /// and before the impacts and the move, which then see velocities that no longer push
    /// resting spheres into each other.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn solve_resting_contacts(&mut self, dt: f32) {
        let scene = resting::Scene {
            spheres: &self.spheres,
            residuals: &self.residual,
            ids: &self.ids,
            pairs: &self.pairs,
            bounds: self.bounds,
            triangles: &self.triangles,
            triangle_pairs: &self.triangle_pairs,
        };
        self.stats.resting_contacts = self.resting.solve(&scene, dt, self.resting_speed, self.solver_iterations);
        let resting = std::mem::take(&mut self.resting);
        for (i, v, spin) in resting.solved_velocities() {
            if !self.spheres[i].is_kinematic() {
                self.set_velocity64(i, v);
                if let Some(spin) = spin {
                    self.spheres[i].angular_velocity = spin.as_vec3();
                }
            }
        }
        if self.contact_log.is_on() {
            for (i, partner, impulse, normal) in resting.impulses() {
                let partner = match partner {
                    resting::Partner::Sphere(j) => Collider::Sphere(SphereId(j)),
                    resting::Partner::Wall(axis, max) => Collider::Wall(BoxWall::on(axis, max)),
                    resting::Partner::Triangle(t) => Collider::Triangle(t),
                };
                self.contact_log.record(i, partner, 0.0, impulse, normal);
            }
        }
        self.resting = resting;
    }

    /// Step 1: swept boxes and the broad phase.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn sweep_and_find_pairs(&mut self, dt: f32) {
        let bounds = self.bounds;
        self.swept.clear();
        self.swept.extend(self.spheres.iter().map(|s| {
            let end = s.position + s.velocity * dt;
            let r = Vec3::splat(s.radius);
            let room = Vec3::splat(s.radius * (1.0 + Self::CORRECTION_ROOM));
            let (mut lo, mut hi) = (s.position.min(end), s.position.max(end));
            if let Some(bounds) = bounds {
                if !((bounds.min + r).cmple(end).all() & end.cmple(bounds.max - r).all()) && !s.is_kinematic() {
                    // Where `integrate` puts a sphere that crosses a wall: the mirror image
                    // of the overshoot (the path runs start → wall → mirror image).
                    let mut mirrored = *s;
                    mirrored.position = end;
                    let mut no_residual = Vec3::ZERO;
                    reflect_off_walls(&mut mirrored, &mut no_residual, bounds, false);
                    lo = lo.min(mirrored.position);
                    hi = hi.max(mirrored.position);
                }
            }
            Aabb3 { min: lo - room, max: hi + room }
        }));
        self.find_pairs();
    }

    /// Runs the broad phase on the swept boxes, and lists the triangles each box meets.
    fn find_pairs(&mut self) {
        self.pairs.clear();
        self.broad_phase.find_pairs(&self.swept, &mut self.pairs);
        self.stats.candidate_pairs = self.pairs.len();
        if !self.triangles.is_empty() {
            self.find_triangle_pairs();
        }
    }

    /// The candidate sphere–triangle pairs: each non-kinematic sphere's swept box (which
    /// covers its path, its contact margin and its corrections' room) against the triangle
    /// grid, then against each triangle's box.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn find_triangle_pairs(&mut self) {
        self.triangle_pairs.clear();
        self.triangle_rows.clear();
        let mut near = std::mem::take(&mut self.near_triangles);
        for (i, (sphere, swept)) in self.spheres.iter().zip(&self.swept).enumerate() {
            self.triangle_rows.push(self.triangle_pairs.len() as u32);
            if sphere.is_kinematic() {
                continue; // passes through triangles, as through walls
            }
            self.triangle_grid.near(swept, &mut near);
            let meets = |&&t: &&u32| self.triangles[t as usize].bounding_box().overlaps(swept);
            self.triangle_pairs.extend(near.iter().filter(meets).map(|&t| (i as u32, t)));
        }
        self.triangle_rows.push(self.triangle_pairs.len() as u32);
        self.near_triangles = near;
    }

    /// The triangles near sphere `i` this step (after [`World::find_pairs`]).
    #[inline]
    fn triangles_near(&self, i: u32) -> std::ops::Range<usize> {
        match self.triangle_rows.get(i as usize..i as usize + 2) {
            Some(&[start, end]) => start as usize..end as usize,
            _ => 0..0,
        }
    }

    /// Whether pair `(i, j)` moves fast enough, relative to each other, to need its time of
    /// impact: more than [`World::CONTINUOUS_FRACTION`] of the smaller radius in this step.
    /// Slower pairs cannot pass through each other (that takes a relative displacement of more
    /// than the sum of the radii); the discrete pass resolves them.
    /// The same for sphere `i` and a flagged triangle `j`, which is still.
    #[inline]
    fn needs_time_of_impact(&self, i: u32, j: u32, dt: f32) -> bool {
        let a = &self.spheres[i as usize];
        let (velocity, radius) = match self.spheres.get(j as usize) {
            Some(b) => (b.velocity - a.velocity, a.radius.min(b.radius)),
            None => (a.velocity, a.radius), // a triangle
        };
        let reach = Self::CONTINUOUS_FRACTION * radius;
        velocity.length_squared() * (dt * dt) > reach * reach
    }

    /// Where sphere `i` is at time `t` on its current path.
    #[inline]
    fn position_at(&self, i: usize, t: f32) -> Vec3 {
        self.spheres[i].position + self.spheres[i].velocity * t
    }

    /// Time of impact of sphere `i` and sphere (or flagged triangle) `j` from time `now`.
    #[inline]
    fn impact_time(&self, i: u32, j: u32, now: f32, dt: f32) -> Option<f32> {
        let a = &self.spheres[i as usize];
        let pa = self.position_at(i as usize, now);
        let t = if j & TRIANGLE_FLAG != 0 {
            let triangle = &self.triangles[(j & !TRIANGLE_FLAG) as usize];
            time_of_impact::sphere_triangle(pa, a.velocity, a.radius, triangle, dt - now).or_else(|| {
                // Already touching, which `sphere_triangle` leaves to the discrete pass: too
                // fast for it (an impact pushed the sphere back into a face it touches).
                let fraction = Self::CONTINUOUS_FRACTION;
                let plunges =
                    time_of_impact::plunges_into_triangle(pa, a.velocity, a.radius, triangle, dt - now, fraction);
                (plunges || passes_through(triangle, pa, a.velocity, dt - now)).then_some(0.0)
            })
        } else {
            let (b, pb) = (&self.spheres[j as usize], self.position_at(j as usize, now));
            time_of_impact::spheres(pa, a.velocity, pb, b.velocity, a.radius + b.radius, dt - now)
        };
        t.map(|t| now + t)
    }

    /// Step 2: continuous collision detection and time-ordered impacts.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn process_impacts(&mut self, dt: f32) {
        self.events.clear();
        for &(i, j) in &self.pairs {
            if self.needs_time_of_impact(i, j, dt) {
                if let Some(t) = self.impact_time(i, j, 0.0, dt) {
                    self.events.push(Reverse((t.to_bits(), i, j)));
                }
            }
        }
        for k in 0..self.triangle_pairs.len() {
            let (i, triangle) = self.triangle_pairs[k];
            let j = triangle | TRIANGLE_FLAG;
            if self.needs_time_of_impact(i, j, dt) {
                if let Some(t) = self.impact_time(i, j, 0.0, dt) {
                    self.events.push(Reverse((t.to_bits(), i, j)));
                }
            }
        }
        if self.gravity != Vec3::ZERO && !self.triangles.is_empty() {
            // The resting contacts changed velocities after the swept boxes were made: a path
            // may now leave its box (a sphere sliding on a slanted face towards another).
            for i in 0..self.spheres.len() as u32 {
                if !self.spheres[i as usize].is_kinematic() {
                    self.push_triangle_impacts_off_the_swept_box(i, NO_TRIANGLE, 0.0, dt);
                }
            }
        }
        if self.events.is_empty() {
            return;
        }
        self.build_adjacency();
        // Each impact can create new ones (a deflected sphere meets a new partner); the budget
        // bounds the work for pathological cases (a jammed cluster at an absurd speed).
        let budget = 8 * self.events.len() + 64;
        let mut processed = 0;
        let mut now = 0.0f32;
        while let Some(Reverse((bits, i, j))) = self.events.pop() {
            processed += 1;
            if processed > budget {
                self.events.push(Reverse((bits, i, j)));
                self.stop_pending_spheres(now, dt);
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
            if j & TRIANGLE_FLAG != 0 {
                if self.bounce_off_triangle(i, j & !TRIANGLE_FLAG, now, dt) {
                    self.stats.contacts += 1;
                    self.stats.time_of_impact_events += 1;
                    self.push_new_impacts(i, j, now, dt);
                }
            } else if self.collide(i, j, now) {
                self.stats.contacts += 1;
                self.stats.time_of_impact_events += 1;
                self.push_new_impacts(i, j, now, dt);
                self.push_new_impacts(j, i, now, dt);
            }
        }
    }

    /// Out of impact budget at time `now`: the spheres with impacts still pending stop where
    /// they are for the rest of the step (their paths re-anchored so that `position_at(dt)`
    /// is their position at `now`), rather than fly through what they were about to hit. They
    /// keep their velocities. Allocates (this only happens in pathological steps).
    #[cold]
    fn stop_pending_spheres(&mut self, now: f32, dt: f32) {
        let mut pending: Vec<u32> = self.events.drain().flat_map(|Reverse((_, i, j))| [i, j]).collect();
        pending.retain(|&k| k & TRIANGLE_FLAG == 0);
        pending.sort_unstable();
        pending.dedup();
        for i in pending {
            let k = i as usize;
            if !self.spheres[k].is_kinematic() {
                let at_now = self.position_at(k, now);
                self.spheres[k].position = at_now - self.spheres[k].velocity * dt;
            }
        }
    }

    /// Candidate partners of each sphere, as compressed rows (counting sort of the pairs).
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn build_adjacency(&mut self) {
        partner_rows(self.spheres.len(), &self.pairs, &mut self.adjacency_start, &mut self.adjacency);
    }

    /// The candidate partners of sphere `i` (after [`World::build_adjacency`]).
    #[inline]
    fn partners(&self, i: u32) -> std::ops::Range<usize> {
        self.adjacency_start[i as usize] as usize..self.adjacency_start[i as usize + 1] as usize
    }

    /// After sphere `i` was deflected at `now` by `other` (a sphere or a flagged triangle),
    /// its impacts with its other partners and triangles.
    fn push_new_impacts(&mut self, i: u32, other: u32, now: f32, dt: f32) {
        for k in self.partners(i) {
            let j = self.adjacency[k];
            if j == other {
                continue;
            }
            let (a, b) = (i.min(j), i.max(j));
            if self.needs_time_of_impact(a, b, dt) {
                if let Some(t) = self.impact_time(a, b, now, dt) {
                    self.events.push(Reverse((t.to_bits(), a, b)));
                }
            }
        }
        for k in self.triangles_near(i) {
            let j = self.triangle_pairs[k].1 | TRIANGLE_FLAG;
            if j != other && self.needs_time_of_impact(i, j, dt) {
                if let Some(t) = self.impact_time(i, j, now, dt) {
                    self.events.push(Reverse((t.to_bits(), i, j)));
                }
            }
        }
        if !self.triangles.is_empty() && !self.spheres[i as usize].is_kinematic() {
            self.push_triangle_impacts_off_the_swept_box(i, other, now, dt);
        }
    }

    /// After sphere `i` was deflected at `now` (by `other`, a sphere or a flagged triangle, or
    /// by the resting contacts: [`NO_TRIANGLE`]): if the rest of its path leaves its swept box,
    /// its impacts with the triangles outside the step's candidates
    /// ([`World::triangles_near`]) whose plane the rest of its path crosses or ends within a
    /// radius of. Without this a sphere that bounces back off a face early in a step passes
    /// through a face behind it unseen, or ends the step past its plane (or on it) and is
    /// pushed out on the far side.
    #[inline]
    fn push_triangle_impacts_off_the_swept_box(&mut self, i: u32, other: u32, now: f32, dt: f32) {
        let iu = i as usize;
        let (from, to, radius) = (self.position_at(iu, now), self.position_at(iu, dt), self.spheres[iu].radius);
        let room = Vec3::splat(radius * (1.0 + Self::CORRECTION_ROOM));
        let path = Aabb3 { min: from.min(to) - room, max: from.max(to) + room };
        if self.swept[iu].contains(&path) {
            return;
        }
        let mut near = std::mem::take(&mut self.near_triangles);
        self.triangle_grid.near(&path, &mut near);
        let known = &self.triangle_pairs[self.triangles_near(i)];
        for &t in &near {
            let (j, triangle) = (t | TRIANGLE_FLAG, &self.triangles[t as usize]);
            let candidate = known.binary_search_by_key(&t, |&(_, k)| k).is_ok();
            if j == other || candidate || !triangle.bounding_box().overlaps(&path) {
                continue;
            }
            let (a, normal) = (triangle.a.as_dvec3(), triangle.normal());
            let (start, end) = ((from.as_dvec3() - a).dot(normal), (to.as_dvec3() - a).dot(normal));
            // Crosses the plane, or ends within a radius of it: a path that ends with its
            // centre a hair before the plane of a face it was never checked against left the
            // sphere half through, and the discrete pass pushed it out on the far side.
            let reaches = (start >= 0.0) != (end >= 0.0) || end.abs() < f64::from(radius);
            if reaches && self.needs_time_of_impact(i, j, dt) {
                if let Some(time) = self.impact_time(i, j, now, dt) {
                    self.events.push(Reverse((time.to_bits(), i, j)));
                }
            }
        }
        self.near_triangles = near;
    }

    /// The velocity of sphere `i` in `f64`, with its residual.
    #[inline]
    fn velocity64(&self, i: usize) -> DVec3 {
        self.spheres[i].velocity.as_dvec3() + self.residual[i].as_dvec3()
    }

    /// Stores an `f64` velocity as `f32` value + `f32` residual.
    #[inline]
    fn set_velocity64(&mut self, i: usize, v: DVec3) {
        let hi = v.as_vec3();
        self.spheres[i].velocity = hi;
        self.residual[i] = if self.compensated { (v - hi.as_dvec3()).as_vec3() } else { Vec3::ZERO };
    }

    /// The approach-only impulse between spheres `i` and `j` along `normal` (unit, `f64`, from
    /// `i` to `j`), applied to their velocities; returns the impulse on `i` (N·s, with
    /// friction's), or `None` if they were not approaching.
    fn apply_pair_impulse(&mut self, i: usize, j: usize, normal: DVec3) -> Option<DVec3> {
        let (a, b) = (&self.spheres[i], &self.spheres[j]);
        let (inv_a, inv_b) = (1.0 / f64::from(a.mass), 1.0 / f64::from(b.mass));
        let (va, vb) = (self.velocity64(i), self.velocity64(j));
        let approach = (vb - va).dot(normal);
        // With gravity, a pair meeting slower than the resting speed comes to rest.
        let e = if approach > -self.resting_speed { 0.0 } else { f64::from(a.restitution.max(b.restitution)) };
        // Two kinematic spheres (both inverse masses 0) pass through each other.
        if approach >= 0.0 || inv_a + inv_b == 0.0 {
            return None;
        }
        let (before_a, before_b) = (va, vb);
        let impulse = -(1.0 + e) * approach / (inv_a + inv_b);
        let (mut va, mut vb) = (va - normal * (impulse * inv_a), vb + normal * (impulse * inv_b));
        let friction = pair_friction(a, b);
        if friction > 0.0 {
            // The contact point is on the line of centres: at `r_a·n` from a, `−r_b·n` from b.
            let side = |s: &Sphere, v: DVec3, arm: f64| ContactSide {
                velocity: v,
                spin: s.angular_velocity.as_dvec3(),
                inverse_mass: 1.0 / f64::from(s.mass),
                inverse_inertia: s.inverse_inertia(),
                arm: normal * arm,
            };
            let (mut sa, mut sb) = (side(a, va, f64::from(a.radius)), side(b, vb, -f64::from(b.radius)));
            impact_friction(&mut sa, &mut sb, normal, f64::from(friction) * impulse);
            (va, vb) = (sa.velocity, sb.velocity);
            for (k, side) in [(i, sa), (j, sb)] {
                if !self.spheres[k].is_kinematic() {
                    self.spheres[k].angular_velocity = side.spin.as_vec3();
                }
            }
        }
        for (k, v) in [(i, va), (j, vb)] {
            if !self.spheres[k].is_kinematic() {
                self.set_velocity64(k, v);
            }
        }
        // A kinematic sphere's velocity does not change: its impulse is its partner's, reversed.
        Some(if inv_a == 0.0 { (before_b - vb) / inv_b } else { (va - before_a) / inv_a })
    }

    /// The approach-only impulse of sphere `i` against something static in direction `toward`
    /// (unit, `f64`, from the sphere's centre to the contact), with Coulomb friction; returns
    /// the impulse on the sphere (N·s), or `None` if it was not approaching. As a wall bounce:
    /// the normal velocity is reversed and scaled by the restitution (none below the resting
    /// speed).
    fn apply_static_impulse(&mut self, i: usize, toward: DVec3) -> Option<DVec3> {
        let sphere = self.spheres[i];
        let before = self.velocity64(i);
        let approach = before.dot(toward);
        if approach <= 0.0 || sphere.is_kinematic() {
            return None;
        }
        let e = if approach < self.resting_speed { 0.0 } else { f64::from(sphere.restitution) };
        let normal_change = (1.0 + e) * approach;
        let mut v = before - toward * normal_change;
        if sphere.friction > 0.0 {
            let mut side = ContactSide {
                velocity: v,
                spin: sphere.angular_velocity.as_dvec3(),
                inverse_mass: 1.0 / f64::from(sphere.mass),
                inverse_inertia: sphere.inverse_inertia(),
                arm: toward * f64::from(sphere.radius),
            };
            let limit = f64::from(sphere.friction) * f64::from(sphere.mass) * normal_change;
            impact_friction(&mut side, &mut { ContactSide::STATIC }, toward, limit);
            v = side.velocity;
            self.spheres[i].angular_velocity = side.spin.as_vec3();
        }
        self.set_velocity64(i, v);
        Some((v - before) * f64::from(sphere.mass))
    }

    /// Sphere `i` touching triangle `t` at time `time` bounces off it; re-anchors its path.
    fn bounce_off_triangle(&mut self, i: u32, t: u32, time: f32, dt: f32) -> bool {
        let i = i as usize;
        let at = self.position_at(i, time);
        // In f64: the sphere is only a radius away, and an f32 normal would tilt the bounce
        // (energy would drift, as the planar world measured for segments).
        let triangle = &self.triangles[t as usize];
        let nearest = triangle.closest_point(at.as_dvec3());
        let velocity = self.spheres[i].velocity;
        let normal = triangle.normal();
        let (center, a) = (at.as_dvec3(), triangle.a.as_dvec3());
        // The nearest point lies on an edge or corner, not inside the face (where the line to
        // it is the face normal, and the bounce is the usual one, bit for bit).
        let off_face = center.distance(nearest) - normal.dot(center - a).abs() > 1e-9 * center.distance(nearest);
        let toward = if off_face && passes_through(triangle, at, velocity, dt - time) {
            // Touching near an edge, its centre about to pass through the face: the line to
            // the nearest point (on the edge) runs nearly across the path, so it bounces off
            // the face itself.
            if normal.dot(velocity.as_dvec3()) >= 0.0 {
                normal
            } else {
                -normal
            }
        } else {
            toward_triangle(triangle, at.as_dvec3(), nearest, velocity)
        };
        let Some(impulse) = self.apply_static_impulse(i, toward) else { return false };
        self.contact_log.record(i, Collider::Triangle(t as usize), time, impulse, toward.as_vec3());
        self.spheres[i].position = at - self.spheres[i].velocity * time;
        true
    }

    /// Impulse between spheres `i` and `j` touching at time `t`; re-anchors their paths.
    fn collide(&mut self, i: u32, j: u32, t: f32) -> bool {
        let (iu, ju) = (i as usize, j as usize);
        let (pa, pb) = (self.position_at(iu, t), self.position_at(ju, t));
        let normal = (pb.as_dvec3() - pa.as_dvec3()).normalize_or_zero();
        if normal == DVec3::ZERO {
            return false;
        }
        let Some(impulse) = self.apply_pair_impulse(iu, ju, normal) else { return false };
        self.contact_log.record(iu, Collider::Sphere(SphereId(j)), t, impulse, normal.as_vec3());
        // A kinematic sphere's path is not re-anchored: its velocity did not change, and
        // `p + v·t − v·t` may round to another `p`.
        for (k, p) in [(iu, pa), (ju, pb)] {
            if !self.spheres[k].is_kinematic() {
                self.spheres[k].position = p - self.spheres[k].velocity * t;
            }
        }
        true
    }

    /// Step 3: every sphere to the end of its path, walls reflecting it.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn integrate(&mut self, dt: f32) {
        let (mut escaped, compensated) = (0, self.compensated);
        let record = self.contact_log.is_on();
        let log = &mut self.contact_log;
        let moving = self.spheres.iter_mut().zip(&mut self.residual).zip(&mut self.swept).enumerate();
        for (i, ((sphere, residual), swept)) in moving {
            sphere.position += sphere.velocity * dt;
            if let (Some(bounds), false) = (self.bounds, sphere.is_kinematic()) {
                if record {
                    let (before, residual_before) = (*sphere, *residual);
                    reflect_off_walls(sphere, residual, bounds, compensated);
                    if sphere.velocity != before.velocity {
                        log_wall_bounces(log, i, (&before, residual_before), (sphere, *residual), bounds, dt);
                    }
                } else {
                    reflect_off_walls(sphere, residual, bounds, compensated);
                }
            }
            let end = Aabb3::around_sphere(sphere.position, sphere.radius);
            if !swept.contains(&end) {
                *swept = swept.union(&end);
                escaped += 1;
            }
        }
        self.stats.escaped_swept_boxes = escaped;
        if escaped > 0 {
            self.find_pairs();
        }
    }

    /// Step 4: impulses and position corrections for whatever overlaps, up to
    /// [`World::CORRECTION_PASSES`] passes (the loop stops at a pass that corrected nothing).
    fn resolve_overlaps(&mut self, dt: f32) {
        self.moved.resize(self.spheres.len(), false);
        // Passes after the first look only at the moved spheres' partners.
        let mut adjacency_built = false;
        for pass in 0..Self::CORRECTION_PASSES {
            self.stats.correction_passes = pass + 1;
            if pass == 1 && !adjacency_built {
                self.build_adjacency();
                adjacency_built = true;
            }
            let corrected = if self.gravity == Vec3::ZERO {
                self.resolve_overlaps_once::<false>(pass == 0, dt)
            } else {
                self.resolve_overlaps_once::<true>(pass == 0, dt)
            };
            if self.grown {
                // A correction pushed a sphere out of its (grown) box: its new pairs may be
                // missing. Grown boxes only grow, so the new list holds the old one.
                self.grown = false;
                self.find_pairs();
                self.build_adjacency();
                adjacency_built = true;
            } else if corrected == 0 {
                break;
            }
        }
        self.clear_moved();
    }

    /// One pass of [`World::resolve_overlaps`]; returns the number of corrections.
    ///
    /// After the first pass only pairs with a sphere the last pass moved are looked at: a pair
    /// whose spheres both stayed put was found apart at the start of that pass, and is still
    /// apart.
    ///
    /// `RESTING` (gravity on): the pass leaves overlaps up to [`World::RESTING_SLOP`] alone
    /// and moves deeper ones back to half of it, not apart, so that a pile's contacts stay
    /// touching, where the resting-contact solver holds them.
    #[inline(never)] // a phase of the step: kept out of line so profiles attribute it
    fn resolve_overlaps_once<const RESTING: bool>(&mut self, first_pass: bool, dt: f32) -> usize {
        let spheres = &self.spheres;
        let overlapping = |i: u32, j: u32| {
            let (a, b) = (&spheres[i as usize], &spheres[j as usize]);
            let r = a.radius + b.radius - slop::<RESTING>(a.radius.min(b.radius));
            a.position.distance_squared(b.position) < r * r
        };
        self.contacts.clear();
        if first_pass {
            self.contacts.extend(self.pairs.iter().filter(|&&(i, j)| overlapping(i, j)));
        } else {
            for &i in &self.moved_list {
                let range = self.adjacency_start[i as usize] as usize..self.adjacency_start[i as usize + 1] as usize;
                let partners = self.adjacency[range].iter().filter(|&&j| overlapping(i, j));
                self.contacts.extend(partners.map(|&j| (i.min(j), i.max(j))));
            }
        }
        self.clear_moved();
        // The result of sequential corrections depends on their order: sorting makes it
        // independent of the broad phase. A pair of two moved spheres is listed twice.
        self.contacts.sort_unstable();
        self.contacts.dedup();
        let mut corrected = 0;
        for k in 0..self.contacts.len() {
            let (i, j) = self.contacts[k];
            let (iu, ju) = (i as usize, j as usize);
            let (a, b) = (self.spheres[iu], self.spheres[ju]);
            let d = b.position - a.position;
            let r = a.radius + b.radius;
            let slop = slop::<RESTING>(a.radius.min(b.radius));
            let dist2 = d.length_squared();
            if dist2 >= (r - slop) * (r - slop) || (a.is_kinematic() && b.is_kinematic()) {
                continue; // an earlier correction already separated them, or both are kinematic
            }
            let dist = dist2.sqrt();
            // Coincident centres have no normal; any fixed direction separates them.
            let normal = if dist > 0.0 { d / dist } else { Vec3::X };
            // The impulse conserves energy only for a unit normal: normalise in f64.
            let normal64 = if dist > 0.0 { d.as_dvec3().normalize() } else { DVec3::X };
            let impulse = self.apply_pair_impulse(iu, ju, normal64).unwrap_or(DVec3::ZERO);
            self.contact_log.record(iu, Collider::Sphere(SphereId(j)), dt, impulse, normal);
            // Apart by the over-relaxed overlap, and a few ulps more: positions are rounded to
            // the `f32` grid of their coordinates, so a pair moved to exactly `r` may still
            // overlap by an ulp, and would be corrected again in every later pass.
            let margin = 4.0 * f32::EPSILON * a.position.abs().max(b.position.abs()).max_element().max(r);
            let push = if RESTING { r - 0.5 * slop - dist } else { (r - dist) * Self::OVER_RELAXATION + margin };
            let (share_a, share_b) = correction_shares(a.mass, b.mass);
            let (to_a, to_b) = (a.position - normal * (push * share_a), b.position + normal * (push * share_b));
            let (to_a, to_b) = if self.triangles.is_empty() {
                (to_a, to_b)
            } else {
                self.keep_corrections_off_triangles((iu, to_a), (ju, to_b), normal)
            };
            self.spheres[iu].position = to_a;
            self.spheres[ju].position = to_b;
            for k in [iu, ju] {
                self.clamp_into_bounds(k);
                self.keep_in_swept_box(k);
                self.mark_moved(k as u32);
            }
            self.stats.contacts += 1;
            corrected += 1;
        }
        // Triangles are checked on the first pass, then only for the spheres this pass moved
        // or a triangle pushed in the last pass: any other sphere was last checked against
        // all its triangles after its last move, and found clear (a tenth of a 10,000-sphere
        // hourglass's step went to nearest points found clear).
        self.correction_pass += 1;
        if !self.triangle_pairs.is_empty() {
            self.triangle_pushed.resize(self.spheres.len(), 0);
            let pass = self.correction_pass;
            for k in 0..self.triangle_pairs.len() {
                let (i, t) = (self.triangle_pairs[k].0 as usize, self.triangle_pairs[k].1 as usize);
                if first_pass || self.moved[i] || self.triangle_pushed[i] + 1 == pass {
                    corrected += self.resolve_triangle_overlap::<RESTING>(i, t, dt);
                }
            }
        }
        corrected
    }

    /// A pair's position correction that would carry sphere `i` (to `to_i`) or `j` (to `to_j`)
    /// across a static triangle stops short of it, and the other sphere, if it can move, takes
    /// the rest of the push along `normal` (from `i` to `j`), as if the blocked one were a wall.
    /// Returns the two corrected positions.
    ///
    /// Why: the triangle pass pushes a sphere out of a triangle to whichever side its centre is
    /// on. A light sphere crushed into a mesh's corner by a heavy one got nearly all of the
    /// pair's correction, its centre passed a face, and the triangle pass then pushed it out
    /// on the far side: out of a closed mesh. The box's walls already hold corrections back
    /// ([`World::clamp_into_bounds`]); this does the same for triangles.
    fn keep_corrections_off_triangles(
        &mut self,
        (i, to_i): (usize, Vec3),
        (j, to_j): (usize, Vec3),
        normal: Vec3,
    ) -> (Vec3, Vec3) {
        let stop_i = self.stop_short_of_triangles(i, to_i);
        let stop_j = self.stop_short_of_triangles(j, to_j);
        let movable = |k: usize| !self.spheres[k].is_kinematic();
        match (stop_i == to_i, stop_j == to_j) {
            (false, true) if movable(j) => {
                let rest = (to_i - stop_i).length();
                (stop_i, self.stop_short_of_triangles(j, to_j + normal * rest))
            }
            (true, false) if movable(i) => {
                let rest = (to_j - stop_j).length();
                (self.stop_short_of_triangles(i, to_i - normal * rest), stop_j)
            }
            _ => (stop_i, stop_j),
        }
    }

    /// Where sphere `i`'s centre, moved by a correction from where it is to `to`, must stop so
    /// as not to cross a static triangle: `to` when the way there crosses none; else a point on
    /// the side it started on, a thousandth of its radius short of the first triangle's plane;
    /// or, when it started nearer than that, where it is. Kinematic spheres pass
    /// through triangles, as through walls, and are never stopped.
    fn stop_short_of_triangles(&mut self, i: usize, to: Vec3) -> Vec3 {
        let sphere = self.spheres[i];
        let from = sphere.position;
        if from == to || sphere.is_kinematic() {
            return to;
        }
        let mut near = std::mem::take(&mut self.near_triangles);
        self.triangle_grid.near(&Aabb3 { min: from.min(to), max: from.max(to) }, &mut near);
        let (p, q) = (from.as_dvec3(), to.as_dvec3());
        let crossed = near
            .iter()
            .filter_map(|&t| self.triangles[t as usize].segment_crossing(p, q).map(|s| (s, t)))
            .min_by(|x, y| x.0.total_cmp(&y.0));
        self.near_triangles = near;
        let Some((fraction, t)) = crossed else { return to };
        // Stopped a thousandth of the radius from the plane (or, if more, a few ulps of the
        // coordinates, to which positions are rounded), so that which side the centre is on
        // stays clear: a centre left within ulps of a mesh's corner went out through it.
        let ulps = 4.0 * f64::from(f32::EPSILON) * f64::from(from.abs().max(to.abs()).max_element());
        let margin = ulps.max(1e-3 * f64::from(sphere.radius));
        let triangle = &self.triangles[t as usize];
        let approach = (q - p).dot(triangle.normal()).abs();
        let back = (fraction - margin / approach).max(0.0);
        let stop = (p + (q - p) * back).as_vec3();
        if triangle.segment_crossing(p, stop.as_dvec3()).is_some() {
            return from;
        }
        stop
    }

    /// Pushes sphere `i` out of triangle `t` if it overlaps it (beyond the slop), and bounces
    /// it off if it moves inwards; returns 1 if it did. `RESTING`: as in
    /// [`World::resolve_overlaps_once`].
    fn resolve_triangle_overlap<const RESTING: bool>(&mut self, i: usize, t: usize, dt: f32) -> usize {
        let sphere = self.spheres[i];
        let center = sphere.position.as_dvec3();
        let nearest = self.triangles[t].closest_point(center);
        let (r, slop) = (f64::from(sphere.radius), f64::from(slop::<RESTING>(sphere.radius)));
        if center.distance_squared(nearest) >= (r - slop) * (r - slop) {
            return 0;
        }
        let toward = toward_triangle(&self.triangles[t], center, nearest, sphere.velocity);
        // Out to the radius and a few ulps more (see the pairs above), or, resting, to half the
        // slop.
        let margin = 4.0 * f64::from(f32::EPSILON) * f64::from(sphere.position.abs().max_element().max(sphere.radius));
        let distance = if RESTING { r - 0.5 * slop } else { r + margin };
        // Not across another triangle: in a mesh's corner, the way out of one face can cross
        // the next (see `keep_corrections_off_triangles`).
        let out = (nearest - toward * distance).as_vec3();
        self.spheres[i].position = self.stop_short_of_triangles(i, out);
        let impulse = self.apply_static_impulse(i, toward).unwrap_or(DVec3::ZERO);
        self.contact_log.record(i, Collider::Triangle(t), dt, impulse, toward.as_vec3());
        self.clamp_into_bounds(i);
        self.keep_in_swept_box(i);
        self.mark_moved(i as u32);
        self.triangle_pushed[i] = self.correction_pass;
        self.stats.contacts += 1;
        1
    }

    /// Grows sphere `i`'s swept box, with room, when a correction has pushed it out of it, and
    /// notes that the pairs must be looked up again.
    #[inline]
    fn keep_in_swept_box(&mut self, i: usize) {
        let sphere = &self.spheres[i];
        let bounding = Aabb3::around_sphere(sphere.position, sphere.radius);
        let swept = &mut self.swept[i];
        if !swept.contains(&bounding) {
            let room = Vec3::splat(sphere.radius * Self::CORRECTION_ROOM);
            *swept = swept.union(&Aabb3 { min: bounding.min - room, max: bounding.max + room });
            self.grown = true;
            self.stats.pushed_out_of_box += 1;
        }
    }

    /// Forgets which spheres the last correction pass moved.
    fn clear_moved(&mut self) {
        for &i in &self.moved_list {
            self.moved[i as usize] = false;
        }
        self.moved_list.clear();
    }

    /// Notes that the current correction pass moved sphere `i`.
    #[inline]
    fn mark_moved(&mut self, i: u32) {
        if !self.moved[i as usize] {
            self.moved[i as usize] = true;
            self.moved_list.push(i);
        }
    }

    /// Keeps sphere `i` inside the bounds after a correction (position only).
    #[inline]
    fn clamp_into_bounds(&mut self, i: usize) {
        if let Some(bounds) = self.bounds {
            let sphere = &mut self.spheres[i];
            if sphere.is_kinematic() {
                return; // goes where its velocity takes it, walls or not
            }
            let r = Vec3::splat(sphere.radius);
            let (lo, hi) = (bounds.min + r, bounds.max - r);
            for axis in 0..3 {
                sphere.position[axis] = if lo[axis] <= hi[axis] {
                    sphere.position[axis].clamp(lo[axis], hi[axis])
                } else {
                    0.5 * (bounds.min[axis] + bounds.max[axis]) // wider than the box
                };
            }
        }
    }
}

/// Coulomb friction of sphere `sphere`'s bounce off the wall on `axis` (`outward`: ±1, from
/// the sphere towards the wall), whose normal impulse changed its velocity by `normal_change`
/// (m/s): the tangential impulse that stops its contact point sliding, capped at
/// `μ · m · normal_change`, in `f64` on the velocity with its residual.
#[cold]
fn rub_wall(
    sphere: &mut Sphere,
    residual: &mut Vec3,
    axis: usize,
    outward: f64,
    normal_change: f32,
    compensated: bool,
) {
    let mut normal = DVec3::ZERO;
    normal[axis] = outward;
    let mut side = ContactSide {
        velocity: sphere.velocity.as_dvec3() + residual.as_dvec3(),
        spin: sphere.angular_velocity.as_dvec3(),
        inverse_mass: 1.0 / f64::from(sphere.mass),
        inverse_inertia: sphere.inverse_inertia(),
        arm: normal * f64::from(sphere.radius),
    };
    let limit = f64::from(sphere.friction) * f64::from(sphere.mass) * f64::from(normal_change);
    impact_friction(&mut side, &mut { ContactSide::STATIC }, normal, limit);
    let hi = side.velocity.as_vec3();
    sphere.velocity = hi;
    *residual = if compensated { (side.velocity - hi.as_dvec3()).as_vec3() } else { Vec3::ZERO };
    sphere.angular_velocity = side.spin.as_vec3();
}

/// Whether the centre of a sphere at `p` moving at `v` passes through `triangle` (within its
/// edges) in the next `t_max` seconds.
fn passes_through(triangle: &Triangle, p: Vec3, v: Vec3, t_max: f32) -> bool {
    let p = p.as_dvec3();
    triangle.segment_crossing(p, p + v.as_dvec3() * f64::from(t_max)).is_some()
}

/// The unit direction from a sphere centred at `center` to `nearest`, its nearest point on
/// `triangle`; for a centre on the triangle, the face normal on the side `velocity` moves to.
fn toward_triangle(triangle: &Triangle, center: DVec3, nearest: DVec3, velocity: Vec3) -> DVec3 {
    let toward = nearest - center;
    let length = toward.length();
    if length > 0.0 {
        return toward / length;
    }
    let normal = triangle.normal();
    if normal.dot(velocity.as_dvec3()) >= 0.0 {
        normal
    } else {
        -normal
    }
}

/// A pair's friction coefficient: `√(μ_a·μ_b)` (Box2D's mixing rule), 0 when either is
/// frictionless.
#[inline]
pub(crate) fn pair_friction(a: &Sphere, b: &Sphere) -> f32 {
    (a.friction * b.friction).sqrt()
}

/// The overlap the position passes leave alone for a contact whose smaller radius is
/// `radius`: [`World::RESTING_SLOP`] of it with gravity (`RESTING`), none without.
#[inline]
fn slop<const RESTING: bool>(radius: f32) -> f32 {
    if RESTING {
        World::RESTING_SLOP * radius
    } else {
        0.0
    }
}

/// Logs the wall bounces [`reflect_off_walls`] just made: packed sphere `i` ended its path as
/// `before` (sphere and velocity residual) and was reflected into `after`. The time of impact
/// is when the path reached the wall: `dt` minus the overshoot's time.
#[cold]
fn log_wall_bounces(
    log: &mut SphereContactLog,
    i: usize,
    before: (&Sphere, Vec3),
    after: (&Sphere, Vec3),
    bounds: Aabb3,
    dt: f32,
) {
    let ((sphere, residual_before), (reflected, residual_after)) = (before, after);
    let velocity = |s: &Sphere, residual: Vec3| s.velocity.as_dvec3() + residual.as_dvec3();
    let momentum = (velocity(reflected, residual_after) - velocity(sphere, residual_before)) * f64::from(sphere.mass);
    // The axes whose walls the sphere bounced off: it crossed one moving into it
    // (`bounce_on_axis`' test).
    let r = sphere.radius;
    let crossed = |axis: usize| {
        let (p, v) = (sphere.position[axis], sphere.velocity[axis]);
        (p < bounds.min[axis] + r && v < 0.0) || (p > bounds.max[axis] - r && v > 0.0)
    };
    let walls = [crossed(0), crossed(1), crossed(2)];
    let first = walls.iter().position(|&met| met);
    for axis in (0..3).filter(|&axis| walls[axis]) {
        // Each wall takes the change along its own axis. Friction changes the velocity along
        // the wall too: that is the wall's impulse as well, but a sphere that met two or three
        // walls of a corner cannot tell whose, so the change along an axis whose walls it did
        // not meet goes to the first wall.
        let mut impulse = DVec3::ZERO;
        for k in (0..3).filter(|&k| k == axis || (!walls[k] && first == Some(axis))) {
            impulse[k] = momentum[k];
        }
        let positive = sphere.velocity[axis] > 0.0;
        let wall = if positive { bounds.max[axis] - r } else { bounds.min[axis] + r };
        let overshoot_time = (sphere.position[axis] - wall).abs() / sphere.velocity[axis].abs();
        let mut normal = Vec3::ZERO;
        normal[axis] = if positive { 1.0 } else { -1.0 };
        let partner = Collider::Wall(BoxWall::on(axis, positive));
        log.record(i, partner, (dt - overshoot_time).clamp(0.0, dt), impulse, normal);
    }
}

/// Reflects a sphere that ended the step beyond a wall: the overshoot is mirrored (scaled by
/// the restitution) and the normal velocity component flipped, which conserves energy exactly
/// for `e = 1` (a sign change is exact in floating point).
#[inline]
fn reflect_off_walls(sphere: &mut Sphere, residual: &mut Vec3, bounds: Aabb3, compensated: bool) {
    let r = sphere.radius;
    for axis in 0..3 {
        let (lo, hi) = (bounds.min[axis] + r, bounds.max[axis] - r);
        let p = sphere.position[axis];
        // Between the walls (nearly every sphere, every step) or NaN: nothing to mirror. The
        // bounces are out of line so that this test is all the move loop carries.
        if p < lo || p > hi {
            bounce_on_axis(sphere, residual, axis, lo, hi, compensated);
        }
    }
}

/// [`reflect_off_walls`] on one axis, for a sphere beyond `lo` or `hi` (its centre's limits).
/// A sphere that crosses the whole box within a step bounces back and forth: mirror again
/// while the image lies beyond the other wall. Past this many bounces in one step (an absurd
/// speed) the sphere is put on the wall it last reached.
#[inline(never)]
fn bounce_on_axis(sphere: &mut Sphere, residual: &mut Vec3, axis: usize, lo: f32, hi: f32, compensated: bool) {
    const MAX_BOUNCES: usize = 16;
    let e = sphere.restitution;
    for _ in 0..MAX_BOUNCES {
        let p = sphere.position[axis];
        let inward = if p < lo {
            sphere.position[axis] = lo + (lo - p) * e;
            sphere.velocity[axis] < 0.0
        } else if p > hi {
            sphere.position[axis] = hi - (p - hi) * e;
            sphere.velocity[axis] > 0.0
        } else {
            return;
        };
        if inward {
            let speed_in = sphere.velocity[axis].abs();
            sphere.velocity[axis] = -sphere.velocity[axis] * e;
            residual[axis] = -residual[axis] * e;
            if sphere.friction > 0.0 {
                // Outward: from the sphere towards the wall it hit.
                let outward = if p < lo { -1.0 } else { 1.0 };
                rub_wall(sphere, residual, axis, outward, speed_in * (1.0 + e), compensated);
            }
        }
    }
    let p = sphere.position[axis];
    if lo <= hi && !(lo..=hi).contains(&p) && !p.is_nan() {
        sphere.position[axis] = p.clamp(lo, hi);
    }
}
