//! The 3-D rigid-ball world (`swerve::physics3d::World`) for C: spheres with mass that bounce
//! off each other, off the walls of an optional box and off static triangles and meshes, with
//! a broad phase chosen by name; gravity and resting contacts, friction and spin, rolling
//! resistance, kinematic spheres, contact records, ray casts and ball queries.

use std::collections::HashSet;
use std::ffi::{c_char, CStr};

use crate::balls::SwerveStepStats;
use crate::orca3d::SwerveVec3;
use crate::status::{arg, change, fill, guard, inner, inner_mut, query, slice, Failure, Handle, Out, SwerveStatus};
use swerve::physics3d::{
    Aabb3, BoxWall, BroadPhaseKind, Collider, Contact, RayHit, Sphere, SphereId, Triangle, Vec3, World,
};

/// A vector of `double`s: the 3-D world's momentum, which is summed in double precision.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveVec3d {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// z.
    pub z: f64,
}

/// An axis-aligned box in space (m): the walls of a 3-D world.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveBounds3d {
    /// The corner with the smallest coordinates.
    pub min: SwerveVec3,
    /// The corner with the largest coordinates.
    pub max: SwerveVec3,
}

/// A sphere: a rigid ball in space. `swerve_sphere_new` fills one with the defaults (unit
/// density, elastic, frictionless, not spinning); change the fields you need before adding it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveSphere {
    /// Centre (m).
    pub position: SwerveVec3,
    /// Velocity (m/s).
    pub velocity: SwerveVec3,
    /// Radius (m), > 0.
    pub radius: f32,
    /// Mass (kg), > 0; `INFINITY` makes the sphere kinematic: it moves only as its velocity
    /// says, pushes the spheres it meets without being pushed back, passes through box walls,
    /// triangles and other kinematic spheres, and is left out of the energy and momentum.
    pub mass: f32,
    /// Coefficient of restitution in [0, 1] (1: perfectly elastic). A pair of spheres uses the
    /// larger of the two.
    pub restitution: f32,
    /// Coulomb friction coefficient, ≥ 0 (0: frictionless, the sphere never spins from a
    /// contact). A pair uses √(μa·μb); a wall or a triangle the sphere's own.
    pub friction: f32,
    /// Rolling resistance coefficient, ≥ 0: with gravity, resting contacts brake the sphere's
    /// rolling (on a floor it slows at 5/7·c·g). A pair uses the larger; a wall the sphere's
    /// own.
    pub rolling_resistance: f32,
    /// Angular velocity (rad/s, about the axis it points along, right-handed). The sphere's
    /// orientation is not tracked.
    pub angular_velocity: SwerveVec3,
}

impl From<SwerveSphere> for Sphere {
    fn from(s: SwerveSphere) -> Sphere {
        Sphere {
            position: s.position.into(),
            velocity: s.velocity.into(),
            radius: s.radius,
            mass: s.mass,
            restitution: s.restitution,
            friction: s.friction,
            rolling_resistance: s.rolling_resistance,
            angular_velocity: s.angular_velocity.into(),
        }
    }
}

impl From<Sphere> for SwerveSphere {
    fn from(s: Sphere) -> SwerveSphere {
        SwerveSphere {
            position: s.position.into(),
            velocity: s.velocity.into(),
            radius: s.radius,
            mass: s.mass,
            restitution: s.restitution,
            friction: s.friction,
            rolling_resistance: s.rolling_resistance,
            angular_velocity: s.angular_velocity.into(),
        }
    }
}

/// A static triangle spheres bounce off (both faces are solid).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveTriangle {
    /// First corner (m).
    pub a: SwerveVec3,
    /// Second corner (m).
    pub b: SwerveVec3,
    /// Third corner (m); the corners' order sets only which face the normal is on.
    pub c: SwerveVec3,
}

/// What kind of thing a sphere touched or a ray met in a 3-D world.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwerveCollider3dKind {
    /// A sphere; the index is its id.
    Sphere = 0,
    /// A static triangle; the index is its place in `swerve_world3d_triangles` (a mesh adds
    /// one per index triple, in order).
    Triangle = 1,
    /// A wall of the world's box; the index is a `SwerveBoxWall3d`.
    Wall = 2,
}

/// The walls of a 3-D world's box, as numbered in a `SwerveCollider3d` of kind wall.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwerveBoxWall3d {
    /// The wall at `bounds.min.x`.
    MinX = 0,
    /// The wall at `bounds.max.x`.
    MaxX = 1,
    /// The wall at `bounds.min.y`.
    MinY = 2,
    /// The wall at `bounds.max.y`.
    MaxY = 3,
    /// The wall at `bounds.min.z`.
    MinZ = 4,
    /// The wall at `bounds.max.z`.
    MaxZ = 5,
}

/// Something a sphere can collide with or a ray can hit in a 3-D world.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwerveCollider3d {
    /// A sphere, a triangle or a wall.
    pub kind: SwerveCollider3dKind,
    /// The sphere's id, the triangle's index or the wall's `SwerveBoxWall3d` number.
    pub index: u32,
}

impl From<Collider> for SwerveCollider3d {
    fn from(c: Collider) -> SwerveCollider3d {
        match c {
            Collider::Sphere(id) => SwerveCollider3d { kind: SwerveCollider3dKind::Sphere, index: id.0 },
            // A world holds fewer than 2^31 triangles, so the index fits.
            Collider::Triangle(t) => {
                SwerveCollider3d { kind: SwerveCollider3dKind::Triangle, index: u32::try_from(t).unwrap_or(u32::MAX) }
            }
            Collider::Wall(w) => SwerveCollider3d {
                kind: SwerveCollider3dKind::Wall,
                index: match w {
                    BoxWall::MinX => SwerveBoxWall3d::MinX,
                    BoxWall::MaxX => SwerveBoxWall3d::MaxX,
                    BoxWall::MinY => SwerveBoxWall3d::MinY,
                    BoxWall::MaxY => SwerveBoxWall3d::MaxY,
                    BoxWall::MinZ => SwerveBoxWall3d::MinZ,
                    BoxWall::MaxZ => SwerveBoxWall3d::MaxZ,
                } as u32,
            },
        }
    }
}

/// A collision of the last step in a 3-D world: every resolution between the same two
/// partners within the step (its substeps included), folded into one.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveContact3d {
    /// The sphere's id; of two spheres, the one added first.
    pub sphere: u32,
    /// What it touched.
    pub partner: SwerveCollider3d,
    /// Seconds into the step of the first resolution: 0 for resting contacts (with gravity),
    /// the time of impact for collisions found by continuous detection and for wall bounces,
    /// the (sub)step's end for overlaps resolved after the move.
    pub time: f32,
    /// The total impulse on `sphere` (N·s): its momentum changed by this much through this
    /// contact, and a partner sphere's by the opposite. Zero when the pair was only pushed
    /// apart.
    pub impulse: SwerveVec3,
    /// Unit normal at the first resolution, from the sphere towards its partner.
    pub normal: SwerveVec3,
}

impl From<&Contact> for SwerveContact3d {
    fn from(c: &Contact) -> SwerveContact3d {
        SwerveContact3d {
            sphere: c.sphere.0,
            partner: c.partner.into(),
            time: c.time,
            impulse: c.impulse.into(),
            normal: c.normal.into(),
        }
    }
}

/// What a ray met first in a 3-D world.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveRayHit3d {
    /// What it met.
    pub collider: SwerveCollider3d,
    /// Distance from the ray's origin (m).
    pub distance: f32,
    /// Where it met it.
    pub point: SwerveVec3,
    /// Unit normal of the collider's surface there, facing the ray's origin.
    pub normal: SwerveVec3,
}

impl From<RayHit> for SwerveRayHit3d {
    fn from(h: RayHit) -> SwerveRayHit3d {
        SwerveRayHit3d {
            collider: h.collider.into(),
            distance: h.distance,
            point: h.point.into(),
            normal: h.normal.into(),
        }
    }
}

/// A world of spheres. Create it with `swerve_world3d_new`, free it with
/// `swerve_world3d_free`. A world steps on the calling thread.
pub struct SwerveWorld3d {
    world: World,
}

impl Handle for SwerveWorld3d {
    type Inner = World;
    const WHAT: &'static str = "world";
    fn inner(&self) -> &World {
        &self.world
    }
    fn inner_mut(&mut self) -> &mut World {
        &mut self.world
    }
}

/// The body of an all-spheres array: `*count` and `out` as in `fill`.
unsafe fn all<T>(
    handle: *const SwerveWorld3d,
    out: *mut T,
    capacity: usize,
    count: *mut usize,
    value: impl Fn(&Sphere) -> T,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner(handle) }?;
        unsafe { fill(w.spheres().iter().map(value), out, capacity, count) }
    })
}

/// The 3-D broad-phase kind a C string names.
///
/// # Safety
/// `name` is null or a NUL-terminated string.
unsafe fn broad_phase_named(name: *const c_char) -> Result<BroadPhaseKind, Failure> {
    if name.is_null() {
        return Err(Failure::null("broad_phase"));
    }
    let name = unsafe { CStr::from_ptr(name) };
    let name = name.to_str().map_err(|_| Failure::invalid(format!("unknown 3-D broad phase {name:?} (not UTF-8)")))?;
    Ok(name.parse::<BroadPhaseKind>()?)
}

/// The name of a 3-D broad phase as a static C string (the names of `BroadPhaseKind::name`).
fn broad_phase_name(kind: BroadPhaseKind) -> &'static CStr {
    match kind {
        BroadPhaseKind::BruteForce => c"brute-force",
        BroadPhaseKind::SortAndSweep => c"sort-and-sweep",
        BroadPhaseKind::UniformGrid => c"uniform-grid",
        BroadPhaseKind::HierarchicalGrid => c"hierarchical-grid",
        BroadPhaseKind::Octree => c"octree",
    }
}

// ----- spheres and broad phases, before a world -----

/// The 3-D world's broad phases' names, as static NUL-terminated strings, brute force first:
/// "brute-force", "sort-and-sweep", "uniform-grid", "hierarchical-grid", "octree". All give
/// the same collisions, bit for bit; they differ in speed. `*count` and `out` as in
/// `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `out` is null or valid for writing `capacity` pointers; `count` is null or valid for
/// writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_broad_phase3d_names(
    out: *mut *const c_char,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| unsafe { fill(BroadPhaseKind::ALL.iter().map(|&k| broad_phase_name(k).as_ptr()), out, capacity, count) })
}

/// A sphere with the defaults: mass 4/3 π r³ (unit density), restitution 1, no friction, no
/// rolling resistance, not spinning. Nothing is checked until the sphere is added.
///
/// # Safety
/// `out` is null or valid for writing a `SwerveSphere`.
#[no_mangle]
pub unsafe extern "C" fn swerve_sphere_new(
    position: SwerveVec3,
    velocity: SwerveVec3,
    radius: f32,
    out: *mut SwerveSphere,
) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        unsafe { out.set(Sphere::new(position.into(), velocity.into(), radius).into()) };
        Ok(())
    })
}

/// A kinematic sphere (infinite mass; see `SwerveSphere::mass`), otherwise as
/// `swerve_sphere_new`.
///
/// # Safety
/// `out` is null or valid for writing a `SwerveSphere`.
#[no_mangle]
pub unsafe extern "C" fn swerve_sphere_kinematic(
    position: SwerveVec3,
    velocity: SwerveVec3,
    radius: f32,
    out: *mut SwerveSphere,
) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        unsafe { out.set(Sphere::kinematic(position.into(), velocity.into(), radius).into()) };
        Ok(())
    })
}

// ----- the handle -----

/// Creates an empty 3-D world. `bounds` is the box whose walls the spheres bounce off
/// (finite, min below max on every axis), or null for open space; `broad_phase` names the
/// broad phase (one of `swerve_broad_phase3d_names`; `InvalidArgument` for any other). On
/// success `*out` holds the new handle. No gravity, damping or contact records until set.
///
/// # Safety
/// `bounds` is null or valid for reading; `broad_phase` is null or a NUL-terminated string;
/// `out` is null or valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_new(
    bounds: *const SwerveBounds3d,
    broad_phase: *const c_char,
    out: *mut *mut SwerveWorld3d,
) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let kind = unsafe { broad_phase_named(broad_phase) }?;
        let bounds = unsafe { bounds.as_ref() }.map(|b| Aabb3 { min: b.min.into(), max: b.max.into() });
        let handle = SwerveWorld3d { world: World::new(bounds, kind)? };
        unsafe { out.set(Box::into_raw(Box::new(handle))) };
        Ok(())
    })
}

/// Frees a 3-D world. Null is ignored.
///
/// # Safety
/// `world` is null or a handle from `swerve_world3d_new` not yet freed; it is invalid after.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_free(world: *mut SwerveWorld3d) {
    if !world.is_null() {
        // Dropping cannot panic (plain vectors), so nothing unwinds.
        drop(unsafe { Box::from_raw(world) });
    }
}

/// Advances the world by `dt` seconds (finite, > 0): with `swerve_world3d_set_substeps` n, as
/// n substeps of `dt / n`. Collisions are found at their time of impact, so fast spheres do
/// not tunnel; the result is the same for every broad phase. Does not allocate once warmed
/// up.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_step(world: *mut SwerveWorld3d, dt: f32) -> SwerveStatus {
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
pub unsafe extern "C" fn swerve_world3d_bounds(
    world: *const SwerveWorld3d,
    out_bounded: *mut bool,
    out: *mut SwerveBounds3d,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        let bounded = Out::new(out_bounded, "out_bounded")?;
        let out = Out::new(out, "out")?;
        let bounds = w.bounds();
        unsafe { bounded.set(bounds.is_some()) };
        if let Some(b) = bounds {
            unsafe { out.set(SwerveBounds3d { min: b.min.into(), max: b.max.into() }) };
        }
        Ok(())
    })
}

/// The broad phase in use: `*out` receives its name, a static NUL-terminated string.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_broad_phase(
    world: *const SwerveWorld3d,
    out: *mut *const c_char,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(broad_phase_name(w.broad_phase()).as_ptr())) }
}

/// Switches the broad phase (one of `swerve_broad_phase3d_names`); the new one builds on the
/// next step. The trajectories do not change.
///
/// # Safety
/// `world` is null or a live handle; `broad_phase` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_broad_phase(
    world: *mut SwerveWorld3d,
    broad_phase: *const c_char,
) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            w.set_broad_phase(broad_phase_named(broad_phase)?);
            Ok(())
        })
    }
}

/// Gravity (m/s², default (0, 0, 0)).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_gravity(world: *const SwerveWorld3d, out: *mut SwerveVec3) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.gravity().into())) }
}

/// Sets gravity (m/s², finite, e.g. (0, 0, −9.81)). With gravity every non-kinematic sphere
/// accelerates, and each step solves the touching contacts together (sequential impulses,
/// warm-started), so piles come to rest. With (0, 0, 0) the step is exactly the one without
/// gravity.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_gravity(world: *mut SwerveWorld3d, gravity: SwerveVec3) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_gravity(gravity.into())?)) }
}

/// Substeps per step (default 1).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_substeps(world: *const SwerveWorld3d, out: *mut usize) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.substeps())) }
}

/// Splits every step into `substeps` (1 to 64) substeps of `dt / substeps`: deep piles hold
/// better with shorter steps than with more solver sweeps.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_substeps(world: *mut SwerveWorld3d, substeps: usize) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_substeps(substeps)?)) }
}

/// Sweeps of the resting-contact solver per step (default 10).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_solver_iterations(
    world: *const SwerveWorld3d,
    out: *mut usize,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.solver_iterations())) }
}

/// Sets the sweeps of the resting-contact solver per step (1 to 1,000; only with gravity).
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_solver_iterations(
    world: *mut SwerveWorld3d,
    iterations: usize,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_solver_iterations(iterations)?)) }
}

/// Linear damping rate (1/s, default 0).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_linear_damping(world: *const SwerveWorld3d, out: *mut f32) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.linear_damping())) }
}

/// Sets linear damping (1/s, finite, ≥ 0): at the start of each step every velocity is scaled
/// by 1 / (1 + c·dt).
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_linear_damping(world: *mut SwerveWorld3d, rate: f32) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_linear_damping(rate)?)) }
}

/// Whether collisions are found at their time of impact (default on). Off, the step moves
/// the spheres and then resolves overlaps, which lets fast spheres tunnel.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_continuous_collision(world: *mut SwerveWorld3d, on: bool) -> SwerveStatus {
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
pub unsafe extern "C" fn swerve_world3d_set_velocity_compensation(world: *mut SwerveWorld3d, on: bool) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            w.set_velocity_compensation(on);
            Ok(())
        })
    }
}

/// What the last step did (the planar world's statistics: "balls" are spheres here, and
/// "segments" triangles).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_last_step_stats(
    world: *const SwerveWorld3d,
    out: *mut SwerveStepStats,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.last_step_stats().into())) }
}

/// Total kinetic energy (J), translational and rotational (I = 2/5 m r²), of the
/// non-kinematic spheres, summed in double precision.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_kinetic_energy(world: *const SwerveWorld3d, out: *mut f64) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.kinetic_energy())) }
}

/// Total momentum (kg·m/s) of the non-kinematic spheres, summed in double precision.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_momentum(world: *const SwerveWorld3d, out: *mut SwerveVec3d) -> SwerveStatus {
    unsafe {
        query(world, out, |w| {
            let p = w.momentum();
            Ok(SwerveVec3d { x: p.x, y: p.y, z: p.z })
        })
    }
}

// ----- spheres -----

/// Adds a sphere; `*out_id` receives its id. Ids are handed out in order (0, 1, 2, …) and
/// never reused. Refused (nothing added): non-finite numbers (but a kinematic sphere's
/// infinite mass), radius or mass ≤ 0, restitution outside [0, 1], negative friction or
/// rolling resistance, a sphere that does not fit inside the bounds (a kinematic one may).
///
/// # Safety
/// `world` is null or a live handle; `sphere` is null or valid for reading; `out_id` is null
/// or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_add_sphere(
    world: *mut SwerveWorld3d,
    sphere: *const SwerveSphere,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let sphere = *unsafe { arg(sphere, "sphere") }?;
        let out = Out::new(out_id, "out_id")?;
        let id = w.add_sphere(sphere.into())?;
        unsafe { out.set(id.0) };
        Ok(())
    })
}

/// Adds `count` spheres; `out_ids` receives their ids, in order. If any sphere is refused (as
/// by `swerve_world3d_add_sphere`), none is added and the message names the first.
///
/// # Safety
/// `world` is null or a live handle; `spheres` is null or valid for reading `count` spheres;
/// `out_ids` is null or valid for writing `count` ids.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_add_spheres(
    world: *mut SwerveWorld3d,
    spheres: *const SwerveSphere,
    count: usize,
    out_ids: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let spheres = unsafe { slice(spheres, count, "spheres") }?;
        if count > 0 && out_ids.is_null() {
            return Err(Failure::null("out_ids"));
        }
        // The library's own rules, on a scratch world with the same bounds first, so that a
        // refused sphere adds nothing.
        let mut scratch = World::new(w.bounds(), BroadPhaseKind::BruteForce)?;
        for (k, &sphere) in spheres.iter().enumerate() {
            scratch.add_sphere(sphere.into()).map_err(|e| Failure::from(e).within(&format!("sphere {k}")))?;
        }
        let mut ids = Vec::with_capacity(count);
        for &sphere in spheres {
            // Only the id space (2^31 spheres ever added) can refuse a sphere here; give back
            // what was added then.
            match w.add_sphere(sphere.into()) {
                Ok(id) => ids.push(id),
                Err(e) => {
                    let added: HashSet<SphereId> = ids.iter().copied().collect();
                    w.retain_spheres(|id, _| !added.contains(&id));
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

/// Removes a sphere; the others keep their ids and their order, and its id is never reused.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_remove_sphere(world: *mut SwerveWorld3d, id: u32) -> SwerveStatus {
    unsafe { change(world, |w| w.remove_sphere(SphereId(id)).map(drop).map_err(Failure::from)) }
}

/// Removes `count` spheres in one pass (repeated ids are fine). If any id names no live
/// sphere, none is removed.
///
/// # Safety
/// `world` is null or a live handle; `ids` is null or valid for reading `count` ids.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_remove_spheres(
    world: *mut SwerveWorld3d,
    ids: *const u32,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let ids = unsafe { slice(ids, count, "ids") }?;
        if let Some(&unknown) = ids.iter().find(|&&id| !w.contains_sphere(SphereId(id))) {
            return Err(swerve::Error::UnknownSphere(unknown).into());
        }
        let gone: HashSet<u32> = ids.iter().copied().collect();
        w.retain_spheres(|id, _| !gone.contains(&id.0));
        Ok(())
    })
}

/// Whether `id` names a live sphere.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_contains_sphere(
    world: *const SwerveWorld3d,
    id: u32,
    out: *mut bool,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.contains_sphere(SphereId(id)))) }
}

/// How many spheres there are.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_num_spheres(world: *const SwerveWorld3d, out: *mut usize) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.num_spheres())) }
}

/// A sphere's whole state.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_sphere(
    world: *const SwerveWorld3d,
    id: u32,
    out: *mut SwerveSphere,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.sphere(SphereId(id))?.into())) }
}

/// Replaces a sphere's whole state, with `swerve_world3d_add_sphere`'s rules (nothing changes
/// on error). A sphere moved onto another is pushed out by the next step.
///
/// # Safety
/// `world` is null or a live handle; `sphere` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_sphere(
    world: *mut SwerveWorld3d,
    id: u32,
    sphere: *const SwerveSphere,
) -> SwerveStatus {
    guard(|| {
        let sphere = *unsafe { arg(sphere, "sphere") }?;
        Ok(unsafe { inner_mut(world) }?.set_sphere(SphereId(id), sphere.into())?)
    })
}

/// A sphere's position (m).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_sphere_position(
    world: *const SwerveWorld3d,
    id: u32,
    out: *mut SwerveVec3,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.sphere(SphereId(id))?.position.into())) }
}

/// Moves a sphere (m, finite; inside the bounds unless kinematic), keeping its velocity.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_sphere_position(
    world: *mut SwerveWorld3d,
    id: u32,
    position: SwerveVec3,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_sphere_position(SphereId(id), position.into())?)) }
}

/// A sphere's velocity (m/s).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_sphere_velocity(
    world: *const SwerveWorld3d,
    id: u32,
    out: *mut SwerveVec3,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.sphere(SphereId(id))?.velocity.into())) }
}

/// Sets a sphere's velocity (m/s, finite); a kinematic sphere is steered this way.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_sphere_velocity(
    world: *mut SwerveWorld3d,
    id: u32,
    velocity: SwerveVec3,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.set_sphere_velocity(SphereId(id), velocity.into())?)) }
}

/// A sphere's angular velocity (rad/s).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_sphere_angular_velocity(
    world: *const SwerveWorld3d,
    id: u32,
    out: *mut SwerveVec3,
) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.sphere(SphereId(id))?.angular_velocity.into())) }
}

/// Sets a sphere's angular velocity (rad/s, finite); the rest of the sphere stays as it is
/// (this is `swerve_world3d_set_sphere` with one field changed, and refused as that would
/// be).
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_sphere_angular_velocity(
    world: *mut SwerveWorld3d,
    id: u32,
    angular_velocity: SwerveVec3,
) -> SwerveStatus {
    unsafe {
        change(world, |w| {
            let id = SphereId(id);
            let sphere = Sphere { angular_velocity: angular_velocity.into(), ..w.sphere(id)? };
            Ok(w.set_sphere(id, sphere)?)
        })
    }
}

/// Applies an impulse (N·s, finite) to a sphere: its velocity changes by `impulse / mass`,
/// and the world's momentum by `impulse` (double precision). A kinematic sphere does not
/// change.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_apply_impulse(
    world: *mut SwerveWorld3d,
    id: u32,
    impulse: SwerveVec3,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.apply_impulse(SphereId(id), impulse.into())?)) }
}

// ----- all spheres at once, in the order of swerve_world3d_sphere_ids -----

/// The live spheres' ids, in the order every other all-spheres function uses (the order they
/// were added, less the removed ones). `*count` receives the number of spheres; `out` must
/// hold that many (`BufferTooSmall` otherwise, with `out` untouched).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_sphere_ids(
    world: *const SwerveWorld3d,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.sphere_ids().iter().map(|id| id.0), out, capacity, count) }
    })
}

/// Every sphere's whole state; `*count` and `out` as in `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` spheres;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_spheres(
    world: *const SwerveWorld3d,
    out: *mut SwerveSphere,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    unsafe { all(world, out, capacity, count, |&s| s.into()) }
}

/// Every sphere's position (m); `*count` and `out` as in `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_positions(
    world: *const SwerveWorld3d,
    out: *mut SwerveVec3,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    unsafe { all(world, out, capacity, count, |s| s.position.into()) }
}

/// Every sphere's velocity (m/s); `*count` and `out` as in `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_velocities(
    world: *const SwerveWorld3d,
    out: *mut SwerveVec3,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    unsafe { all(world, out, capacity, count, |s| s.velocity.into()) }
}

/// Every sphere's angular velocity (rad/s); `*count` and `out` as in
/// `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_angular_velocities(
    world: *const SwerveWorld3d,
    out: *mut SwerveVec3,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    unsafe { all(world, out, capacity, count, |s| s.angular_velocity.into()) }
}

/// Every sphere's radius (m); `*count` and `out` as in `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_radii(
    world: *const SwerveWorld3d,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    unsafe { all(world, out, capacity, count, |s| s.radius) }
}

/// Every sphere's mass (kg; `INFINITY` for kinematic spheres); `*count` and `out` as in
/// `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_masses(
    world: *const SwerveWorld3d,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    unsafe { all(world, out, capacity, count, |s| s.mass) }
}

/// Moves every sphere at once, in the order of `swerve_world3d_sphere_ids`. `count` must
/// equal the number of spheres and every sphere fit inside the bounds at its new place
/// (kinematic spheres excepted); otherwise nothing changes.
///
/// # Safety
/// `world` is null or a live handle; `values` is null or valid for reading `count` vectors.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_positions(
    world: *mut SwerveWorld3d,
    values: *const SwerveVec3,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let values = unsafe { slice(values, count, "values") }?;
        Ok(w.set_positions(bytemuck::cast_slice(values))?)
    })
}

/// Sets every sphere's velocity at once, in the order of `swerve_world3d_sphere_ids`. `count`
/// must equal the number of spheres and every value be finite; otherwise nothing changes.
///
/// # Safety
/// `world` is null or a live handle; `values` is null or valid for reading `count` vectors.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_velocities(
    world: *mut SwerveWorld3d,
    values: *const SwerveVec3,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let values = unsafe { slice(values, count, "values") }?;
        Ok(w.set_velocities(bytemuck::cast_slice(values))?)
    })
}

// ----- static triangles -----

/// Adds a static triangle with corners `a`, `b`, `c` (m, finite), solid on both faces.
/// Refused: a triangle without area (repeated corners, corners in a line, or a sliver so thin
/// its normal would be rounding noise). Triangles are numbered in the order they are added,
/// from 0.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_add_triangle(
    world: *mut SwerveWorld3d,
    a: SwerveVec3,
    b: SwerveVec3,
    c: SwerveVec3,
) -> SwerveStatus {
    unsafe { change(world, |w| Ok(w.add_triangle(a.into(), b.into(), c.into())?)) }
}

/// Adds the triangles of a mesh, in order: `indices` holds `triangle_count` triples of
/// indices into the `vertex_count` `vertices`. All or nothing: a non-finite vertex, an index
/// beyond the vertices or a triangle without area adds none of them (the message names the
/// triangle). Shared edges are fine.
///
/// # Safety
/// `world` is null or a live handle; `vertices` is null or valid for reading `vertex_count`
/// vectors; `indices` is null or valid for reading `3 * triangle_count` indices.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_add_mesh(
    world: *mut SwerveWorld3d,
    vertices: *const SwerveVec3,
    vertex_count: usize,
    indices: *const u32,
    triangle_count: usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { inner_mut(world) }?;
        let vertices = unsafe { slice(vertices, vertex_count, "vertices") }?;
        let index_count = triangle_count
            .checked_mul(3)
            .ok_or_else(|| Failure::invalid(format!("{triangle_count} triangles are more than memory holds")))?;
        let indices = unsafe { slice(indices, index_count, "indices") }?;
        let triangles: Vec<[u32; 3]> = indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
        Ok(w.add_mesh(bytemuck::cast_slice(vertices), &triangles)?)
    })
}

/// How many static triangles there are (mesh triangles included).
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_num_triangles(world: *const SwerveWorld3d, out: *mut usize) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.triangles().len())) }
}

/// The static triangles, by number; `*count` and `out` as in `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` triangles;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_triangles(
    world: *const SwerveWorld3d,
    out: *mut SwerveTriangle,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        let triangles =
            w.triangles().iter().map(|&Triangle { a, b, c }| SwerveTriangle { a: a.into(), b: b.into(), c: c.into() });
        unsafe { fill(triangles, out, capacity, count) }
    })
}

// ----- contacts -----

/// Whether each step records its collisions for `swerve_world3d_contacts` (off by default).
/// Turning it on or off clears the last step's records.
///
/// # Safety
/// `world` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_set_record_contacts(world: *mut SwerveWorld3d, on: bool) -> SwerveStatus {
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
pub unsafe extern "C" fn swerve_world3d_records_contacts(world: *const SwerveWorld3d, out: *mut bool) -> SwerveStatus {
    unsafe { query(world, out, |w| Ok(w.records_contacts())) }
}

/// The last step's collisions, one per touching pair (sphere–sphere, sphere–triangle,
/// sphere–wall), ordered by sphere (in the order of `swerve_world3d_sphere_ids`) and partner;
/// none unless contacts are recorded. The same for every broad phase. `*count` and `out` as
/// in `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` contacts;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_contacts(
    world: *const SwerveWorld3d,
    out: *mut SwerveContact3d,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        unsafe { fill(w.contacts().iter().map(SwerveContact3d::from), out, capacity, count) }
    })
}

// ----- queries -----

/// The ids of the spheres that overlap the ball (`center`, `radius` ≥ 0), in the order of
/// `swerve_world3d_sphere_ids`; with `radius` 0, the spheres that contain `center`.
/// O(spheres). `*count` and `out` as in `swerve_world3d_sphere_ids`.
///
/// # Safety
/// `world` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_spheres_in_ball(
    world: *const SwerveWorld3d,
    center: SwerveVec3,
    radius: f32,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        // Collected first: the iterator's length is not known until it has run.
        let found: Vec<u32> = w.spheres_in_ball(center.into(), radius)?.map(|id| id.0).collect();
        unsafe { fill(found.into_iter(), out, capacity, count) }
    })
}

/// The first sphere (in the order of `swerve_world3d_sphere_ids`) that contains `point`
/// (finite): `*out_found` says whether there is one, and `*out_id` (written only then) is its
/// id.
///
/// # Safety
/// `world` is null or a live handle; `out_found` and `out_id` are null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_sphere_at(
    world: *const SwerveWorld3d,
    point: SwerveVec3,
    out_found: *mut bool,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let w = unsafe { self::inner(world) }?;
        let found = Out::new(out_found, "out_found")?;
        let out_id = Out::new(out_id, "out_id")?;
        let id = w.sphere_at(Vec3::from(point))?;
        unsafe { found.set(id.is_some()) };
        if let Some(id) = id {
            unsafe { out_id.set(id.0) };
        }
        Ok(())
    })
}

/// What the ray from `origin` along `direction` (finite, non-zero, any length) meets first
/// within `max_distance` (m, ≥ 0, may be `INFINITY`): a sphere where the ray enters it
/// (spheres that contain the origin are skipped), a triangle (either face), or a wall of the
/// box. `*out_hit` says whether it meets anything, and `*out` (written only then) what.
/// O(spheres + triangles).
///
/// # Safety
/// `world` is null or a live handle; `out_hit` and `out` are null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_world3d_cast_ray(
    world: *const SwerveWorld3d,
    origin: SwerveVec3,
    direction: SwerveVec3,
    max_distance: f32,
    out_hit: *mut bool,
    out: *mut SwerveRayHit3d,
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
