//! The 3-D ORCA simulator (`swerve::orca3d::Simulator`, RVO2-3D bit for bit) for C: a handle,
//! its agents (spheres), the options beyond RVO2-3D, movers, static triangle-mesh obstacles
//! (RVO2-3D has none) and the per-agent records that show why an agent chose its velocity.

use crate::balls3d::SwerveTriangle;
use crate::orca::{query_radius, SwerveOverlapResolution};
use crate::status::{
    arg, arg_mut, change, fill, guard, inner, inner_mut, query, slice, Failure, Handle, Out, SwerveStatus, Workers,
};
use swerve::orca::{AgentId, MoverId};
use swerve::orca3d::{
    AgentParams, Extensions, Mover, ObstacleId, OverlapResolution, Simulator, SymmetryBreaking, Triangle, Vec3,
};

/// A vector in space: a position (m) or a velocity (m/s).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SwerveVec3 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
}

impl From<SwerveVec3> for Vec3 {
    fn from(v: SwerveVec3) -> Vec3 {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<Vec3> for SwerveVec3 {
    fn from(v: Vec3) -> SwerveVec3 {
        SwerveVec3 { x: v.x, y: v.y, z: v.z }
    }
}

/// The parameters RVO2-3D keeps per agent (the same names and meaning as RVO2-3D's; RVO2-3D
/// has no obstacles, so the obstacle time horizon is set on its own, with
/// `swerve_simulator3d_set_agent_obstacle_time_horizon`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveAgentParams3d {
    /// How far away other agents are taken into account (m), ≥ 0.
    pub neighbor_dist: f32,
    /// At most this many nearest agents are taken into account.
    pub max_neighbors: usize,
    /// How far ahead in time collisions with other agents are avoided (s), > 0.
    pub time_horizon: f32,
    /// The agent's radius (m), > 0.
    pub radius: f32,
    /// The agent's maximum speed (m/s), ≥ 0.
    pub max_speed: f32,
}

impl From<SwerveAgentParams3d> for AgentParams {
    fn from(p: SwerveAgentParams3d) -> AgentParams {
        AgentParams {
            neighbor_dist: p.neighbor_dist,
            max_neighbors: p.max_neighbors,
            time_horizon: p.time_horizon,
            radius: p.radius,
            max_speed: p.max_speed,
        }
    }
}

impl From<AgentParams> for SwerveAgentParams3d {
    fn from(p: AgentParams) -> SwerveAgentParams3d {
        SwerveAgentParams3d {
            neighbor_dist: p.neighbor_dist,
            max_neighbors: p.max_neighbors,
            time_horizon: p.time_horizon,
            radius: p.radius,
            max_speed: p.max_speed,
        }
    }
}

/// One ORCA plane of an agent's last decision (RVO2-3D's `Plane`): the velocities `v` with
/// `(v - point) · normal ≥ 0` are permitted.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwervePlane {
    /// A point on the boundary plane (m/s).
    pub point: SwerveVec3,
    /// The unit normal, pointing into the permitted side.
    pub normal: SwerveVec3,
}

/// A non-cooperative moving sphere (a physics body, a scripted aircraft) that agents avoid
/// with full responsibility; it does not avoid them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveMover3d {
    /// Centre (m).
    pub position: SwerveVec3,
    /// Velocity (m/s); agents extrapolate the mover along it.
    pub velocity: SwerveVec3,
    /// Radius (m), > 0.
    pub radius: f32,
}

impl From<SwerveMover3d> for Mover {
    fn from(m: SwerveMover3d) -> Mover {
        Mover { position: m.position.into(), velocity: m.velocity.into(), radius: m.radius }
    }
}

impl From<Mover> for SwerveMover3d {
    fn from(m: Mover) -> SwerveMover3d {
        SwerveMover3d { position: m.position.into(), velocity: m.velocity.into(), radius: m.radius }
    }
}

/// Breaking the symmetry that makes ORCA agents stall head-on, in 3-D: every preferred
/// velocity gets a reproducible perturbation of length `jitter` in a direction over the
/// sphere, and an agent heading at a neighbour that heads back at it (within `cone` radians)
/// turns clockwise about `up` by `turn` radians (passes on the right, seen from above).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveSymmetryBreaking3d {
    /// Length of the per-step perturbation of the preferred velocity (m/s), ≥ 0.
    pub jitter: f32,
    /// Seed of the perturbation directions.
    pub seed: u64,
    /// Half-angle of the head-on cone (rad), ≥ 0.
    pub cone: f32,
    /// How far the preferred velocity turns clockwise about `up` in a head-on conflict (rad).
    pub turn: f32,
    /// Which way is up (finite, any length but zero).
    pub up: SwerveVec3,
}

/// A 3-D ORCA simulator. Create it with `swerve_simulator3d_new`, free it with
/// `swerve_simulator3d_free`.
pub struct SwerveSimulator3d {
    sim: Simulator,
    /// The simulator's own worker threads (`swerve_simulator3d_set_threads`); none: rayon's
    /// global pool.
    workers: Workers,
}

impl Handle for SwerveSimulator3d {
    type Inner = Simulator;
    const WHAT: &'static str = "simulator";
    fn inner(&self) -> &Simulator {
        &self.sim
    }
    fn inner_mut(&mut self) -> &mut Simulator {
        &mut self.sim
    }
}

// ----- the handle -----

/// RVO2-3D's Sphere example parameters: 15 m, 10 neighbours, 10 s, 1.5 m, 2 m/s.
///
/// # Safety
/// `out` is null or valid for writing a `SwerveAgentParams3d`.
#[no_mangle]
pub unsafe extern "C" fn swerve_agent_params3d_default(out: *mut SwerveAgentParams3d) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        unsafe { out.set(AgentParams::default().into()) };
        Ok(())
    })
}

/// Creates a 3-D simulator with time step `time_step` (s, > 0) and the parameters agents get
/// from `swerve_simulator3d_add_agent` (`defaults`; null for
/// `swerve_agent_params3d_default`'s). On success `*out` holds the new handle.
///
/// # Safety
/// `defaults` is null or valid for reading; `out` is null or valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_new(
    time_step: f32,
    defaults: *const SwerveAgentParams3d,
    out: *mut *mut SwerveSimulator3d,
) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let defaults = unsafe { defaults.as_ref() }.map_or_else(AgentParams::default, |d| (*d).into());
        let sim = Simulator::new(time_step, defaults)?;
        unsafe { out.set(Box::into_raw(Box::new(SwerveSimulator3d { sim, workers: Workers::default() }))) };
        Ok(())
    })
}

/// Frees a 3-D simulator. Null is ignored.
///
/// # Safety
/// `sim` is null or a handle from `swerve_simulator3d_new` not yet freed; it is invalid
/// after.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_free(sim: *mut SwerveSimulator3d) {
    if !sim.is_null() {
        // Dropping cannot panic (plain vectors and a thread pool), so nothing unwinds.
        drop(unsafe { Box::from_raw(sim) });
    }
}

/// How many threads `swerve_simulator3d_step` uses: 0 for rayon's global pool (as many as
/// the machine has cores, or `RAYON_NUM_THREADS`), n ≥ 1 for a pool of n threads owned by
/// this simulator. Results are bit for bit the same for any count.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_threads(sim: *mut SwerveSimulator3d, threads: usize) -> SwerveStatus {
    guard(|| {
        let handle = unsafe { arg_mut(sim, "simulator") }?;
        handle.workers.set(threads)
    })
}

/// Advances the simulation by one time step: every agent picks its new velocity from the
/// state at the start of the step (RVO2-3D's `doStep`), then all move. Never fails on a
/// valid handle, and does not allocate once warmed up.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_step(sim: *mut SwerveSimulator3d) -> SwerveStatus {
    guard(|| {
        let handle = unsafe { arg_mut(sim, "simulator") }?;
        let sim = &mut handle.sim;
        handle.workers.run(|| sim.step());
        Ok(())
    })
}

/// The time step (s).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_time_step(sim: *const SwerveSimulator3d, out: *mut f32) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.time_step())) }
}

/// Sets the time step (s, > 0).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_time_step(sim: *mut SwerveSimulator3d, time_step: f32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_time_step(time_step)?)) }
}

/// The simulated time (s): the time steps taken so far, summed in `f32` as RVO2-3D does.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_global_time(sim: *const SwerveSimulator3d, out: *mut f32) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.global_time())) }
}

/// The parameters `swerve_simulator3d_add_agent` gives new agents.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_defaults(
    sim: *const SwerveSimulator3d,
    out: *mut SwerveAgentParams3d,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_defaults().into())) }
}

/// Sets the parameters `swerve_simulator3d_add_agent` gives new agents (existing agents
/// keep theirs; all checked first, nothing changes on error).
///
/// # Safety
/// `sim` is null or a live handle; `params` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_defaults(
    sim: *mut SwerveSimulator3d,
    params: *const SwerveAgentParams3d,
) -> SwerveStatus {
    guard(|| {
        let params = *unsafe { arg(params, "params") }?;
        Ok(unsafe { inner_mut(sim) }?.set_agent_defaults(params.into())?)
    })
}

/// How many agents there are.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_num_agents(sim: *const SwerveSimulator3d, out: *mut usize) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.num_agents())) }
}

// ----- agents -----

/// Adds an agent at `position` (m) with the default parameters, at rest. Ids are handed out
/// in order (0, 1, 2, …, RVO2-3D's agent numbers while none is removed) and never reused.
///
/// # Safety
/// `sim` is null or a live handle; `out_id` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_add_agent(
    sim: *mut SwerveSimulator3d,
    position: SwerveVec3,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let out = Out::new(out_id, "out_id")?;
        let id = sim.add_agent(position.into())?;
        unsafe { out.set(id.0) };
        Ok(())
    })
}

/// Adds an agent at `position` (m) with its own parameters, at rest.
///
/// # Safety
/// `sim` is null or a live handle; `params` is null or valid for reading; `out_id` is null
/// or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_add_agent_with(
    sim: *mut SwerveSimulator3d,
    position: SwerveVec3,
    params: *const SwerveAgentParams3d,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let params = *unsafe { arg(params, "params") }?;
        let out = Out::new(out_id, "out_id")?;
        let id = sim.add_agent_with(position.into(), params.into())?;
        unsafe { out.set(id.0) };
        Ok(())
    })
}

/// Removes an agent; the others keep their ids and move from then on as if it had never
/// been there. The recorded neighbours of the last step are cleared until the next step.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_remove_agent(sim: *mut SwerveSimulator3d, id: u32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.remove_agent(AgentId(id))?)) }
}

/// Whether `id` names a live agent.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_contains_agent(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut bool,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.contains_agent(AgentId(id)))) }
}

/// An agent's position (m).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_position(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut SwerveVec3,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_position(AgentId(id))?.into())) }
}

/// Sets an agent's position (m) (finite).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_position(
    sim: *mut SwerveSimulator3d,
    id: u32,
    value: SwerveVec3,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_position(AgentId(id), value.into())?)) }
}

/// An agent's velocity (m/s).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_velocity(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut SwerveVec3,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_velocity(AgentId(id))?.into())) }
}

/// Sets an agent's velocity (m/s) (finite): what its neighbours see it doing.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_velocity(
    sim: *mut SwerveSimulator3d,
    id: u32,
    value: SwerveVec3,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_velocity(AgentId(id), value.into())?)) }
}

/// An agent's preferred velocity (m/s): where it would go with nobody around; set it before
/// every step.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_pref_velocity(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut SwerveVec3,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_pref_velocity(AgentId(id))?.into())) }
}

/// Sets an agent's preferred velocity (m/s) (finite).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_pref_velocity(
    sim: *mut SwerveSimulator3d,
    id: u32,
    value: SwerveVec3,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_pref_velocity(AgentId(id), value.into())?)) }
}

/// An agent's parameters.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_params(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut SwerveAgentParams3d,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_params(AgentId(id))?.into())) }
}

/// Sets an agent's parameters (all checked first; nothing changes on error).
///
/// # Safety
/// `sim` is null or a live handle; `params` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_params(
    sim: *mut SwerveSimulator3d,
    id: u32,
    params: *const SwerveAgentParams3d,
) -> SwerveStatus {
    guard(|| {
        let params = *unsafe { arg(params, "params") }?;
        Ok(unsafe { inner_mut(sim) }?.set_agent_params(AgentId(id), params.into())?)
    })
}

/// An agent's share of avoiding its neighbours (0.5 for everyone is RVO2-3D's reciprocity).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_responsibility(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut f32,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_responsibility(AgentId(id))?)) }
}

/// Sets an agent's responsibility weight (finite, ≥ 0): in a pair, each takes its weight's
/// share of the sum of both; an agent of weight 0 facing a positive weight does not yield
/// at all. Equal weights are RVO2-3D's half each, bit for bit.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_responsibility(
    sim: *mut SwerveSimulator3d,
    id: u32,
    weight: f32,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_responsibility(AgentId(id), weight)?)) }
}

/// An agent's maximum acceleration (m/s²): `INFINITY` (the default, RVO2-3D's agents) when its
/// velocity may change by any amount in a step.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_max_acceleration(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut f32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let limit = sim.agent_max_acceleration(AgentId(id))?;
        unsafe { out.set(limit) };
        Ok(())
    })
}

/// Limits how fast an agent's velocity may change (m/s², > 0; `INFINITY` lifts the limit):
/// each step its new velocity stays within `max_acceleration · time step` of its current one
/// (applied around the linear program in 3-D: the preferred velocity and then the program's
/// velocity are clamped to that reach).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_max_acceleration(
    sim: *mut SwerveSimulator3d,
    id: u32,
    max_acceleration: f32,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_max_acceleration(AgentId(id), max_acceleration)?)) }
}

/// An agent's avoidance layers: the bits other agents' masks look for (1, the first layer,
/// unless set).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_avoidance_layers(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let layers = sim.agent_avoidance_layers(AgentId(id))?;
        unsafe { out.set(layers) };
        Ok(())
    })
}

/// Sets which avoidance layers an agent is on (a bit mask, as Godot's `avoidance_layers`; any
/// value). Agent A avoids agent B when `A.mask & B.layers != 0`: A's neighbours are then the
/// `max_neighbors` nearest agents it avoids, and when A avoids B but B ignores A, A takes the
/// whole avoidance of B. Layers 0: nobody avoids the agent. The defaults (layers 1, mask 1
/// for every agent) are RVO2-3D bit for bit.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_avoidance_layers(
    sim: *mut SwerveSimulator3d,
    id: u32,
    layers: u32,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_avoidance_layers(AgentId(id), layers)?)) }
}

/// An agent's avoidance mask: it avoids the agents whose layers share a bit with it (1, the
/// first layer, unless set).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_avoidance_mask(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let mask = sim.agent_avoidance_mask(AgentId(id))?;
        unsafe { out.set(mask) };
        Ok(())
    })
}

/// Sets which avoidance layers an agent avoids (a bit mask, as Godot's `avoidance_mask`; any
/// value; see `swerve_simulator3d_set_agent_avoidance_layers`). Mask 0: the agent avoids no other
/// agent (it still avoids movers).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_avoidance_mask(
    sim: *mut SwerveSimulator3d,
    id: u32,
    mask: u32,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_avoidance_mask(AgentId(id), mask)?)) }
}

// ----- all agents at once, in the order of swerve_simulator3d_agent_ids -----

/// The live agents' ids, in the order every other all-agents function uses (the order they
/// were added, less the removed ones). `*count` receives the number of agents; `out` must
/// hold that many (`BufferTooSmall` otherwise, with `out` untouched).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_ids(
    sim: *const SwerveSimulator3d,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.agent_ids().iter().map(|id| id.0), out, capacity, count) }
    })
}

/// Every agent's position (m), in the order of `swerve_simulator3d_agent_ids`; `*count` and
/// `out` as there.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_positions(
    sim: *const SwerveSimulator3d,
    out: *mut SwerveVec3,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.positions().iter().map(|&v| v.into()), out, capacity, count) }
    })
}

/// Every agent's velocity (m/s), in the order of `swerve_simulator3d_agent_ids`; `*count`
/// and `out` as there.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_velocities(
    sim: *const SwerveSimulator3d,
    out: *mut SwerveVec3,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.velocities().iter().map(|&v| v.into()), out, capacity, count) }
    })
}

/// Every agent's preferred velocity (m/s), in the order of `swerve_simulator3d_agent_ids`;
/// `*count` and `out` as there.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_pref_velocities(
    sim: *const SwerveSimulator3d,
    out: *mut SwerveVec3,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.pref_velocities().iter().map(|&v| v.into()), out, capacity, count) }
    })
}

/// Sets every agent's preferred velocity at once, in the order of
/// `swerve_simulator3d_agent_ids`. `count` must equal the number of agents and every value
/// be finite; otherwise nothing changes.
///
/// # Safety
/// `sim` is null or a live handle; `values` is null or valid for reading `count` vectors.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_pref_velocities(
    sim: *mut SwerveSimulator3d,
    values: *const SwerveVec3,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let values = unsafe { slice(values, count, "values") }?;
        Ok(sim.set_pref_velocities(bytemuck::cast_slice(values))?)
    })
}

// ----- beyond RVO2-3D -----

/// Turns head-on symmetry breaking on (`value` non-null) or off (null, RVO2-3D's
/// behaviour). Refused (nothing changes): a negative or non-finite `jitter` or `cone`, a
/// non-finite `turn`, an `up` that is not finite or is zero.
///
/// # Safety
/// `sim` is null or a live handle; `value` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_symmetry_breaking(
    sim: *mut SwerveSimulator3d,
    value: *const SwerveSymmetryBreaking3d,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let value = unsafe { value.as_ref() }.map(|v| SymmetryBreaking {
            jitter: v.jitter,
            seed: v.seed,
            cone: v.cone,
            turn: v.turn,
            up: v.up.into(),
        });
        Ok(sim.set_extensions(Extensions { symmetry_breaking: value, ..sim.extensions() })?)
    })
}

/// Turns "safe mode" on (`value` non-null: every radius scaled by 1 + `margin` in the ORCA
/// planes, then `passes` rounds of pushing overlapping agents apart after each step) or off
/// (null, RVO2-3D's behaviour). Refused: a negative or non-finite margin.
///
/// # Safety
/// `sim` is null or a live handle; `value` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_overlap_resolution(
    sim: *mut SwerveSimulator3d,
    value: *const SwerveOverlapResolution,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let value = unsafe { value.as_ref() }.map(|v| OverlapResolution { passes: v.passes, margin: v.margin });
        Ok(sim.set_extensions(Extensions { overlap_resolution: value, ..sim.extensions() })?)
    })
}

/// Clamps every new velocity to the agent's max speed (RVO2-3D's fallback program can
/// exceed it slightly; off by default because the clamp changes those bits).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_strict_speed_limit(
    sim: *mut SwerveSimulator3d,
    on: bool,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_extensions(Extensions { strict_speed_limit: on, ..sim.extensions() })?)) }
}

/// Adds a non-cooperative mover (finite position and velocity, radius > 0); `*out_id`
/// receives its id (never reused). An agent gets a plane from it, after its neighbours',
/// while the mover is within the agent's neighbour distance of the mover's surface.
///
/// # Safety
/// `sim` is null or a live handle; `mover` is null or valid for reading; `out_id` is null or
/// valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_add_mover(
    sim: *mut SwerveSimulator3d,
    mover: *const SwerveMover3d,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let mover = *unsafe { arg(mover, "mover") }?;
        let out = Out::new(out_id, "out_id")?;
        let id = sim.add_mover(mover.into())?;
        unsafe { out.set(id.0) };
        Ok(())
    })
}

/// Updates a mover (typically every step).
///
/// # Safety
/// `sim` is null or a live handle; `mover` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_mover(
    sim: *mut SwerveSimulator3d,
    id: u32,
    mover: *const SwerveMover3d,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let mover = *unsafe { arg(mover, "mover") }?;
        Ok(sim.set_mover(MoverId(id), mover.into())?)
    })
}

/// A mover's state.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_mover(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut SwerveMover3d,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.mover(MoverId(id))?.into())) }
}

/// Removes a mover; other movers keep their ids.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_remove_mover(sim: *mut SwerveSimulator3d, id: u32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.remove_mover(MoverId(id))?)) }
}

// ----- static obstacles (beyond RVO2-3D, which has none) -----

/// Adds a static obstacle: the triangles of a mesh, `indices` holding `triangle_count`
/// triples of indices into the `vertex_count` `vertices` (m). Both faces are solid and the
/// mesh need not be closed (a wall, a floor, a building). Every agent keeps at least its
/// radius from every triangle by a hard plane in its program, from the next step on (unless
/// an acceleration limit moves it; safe mode's push never takes an agent into an obstacle). `*out_id` receives the obstacle's id
/// (0, 1, 2, … never reused). All or nothing: a non-finite vertex, an index beyond the
/// vertices or a triangle without area adds none of it (the message names the triangle).
///
/// # Safety
/// `sim` is null or a live handle; `vertices` is null or valid for reading `vertex_count`
/// vectors; `indices` is null or valid for reading `3 * triangle_count` indices; `out_id` is
/// null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_add_obstacle(
    sim: *mut SwerveSimulator3d,
    vertices: *const SwerveVec3,
    vertex_count: usize,
    indices: *const u32,
    triangle_count: usize,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let vertices = unsafe { slice(vertices, vertex_count, "vertices") }?;
        let index_count = triangle_count
            .checked_mul(3)
            .ok_or_else(|| Failure::invalid(format!("{triangle_count} triangles are more than memory holds")))?;
        let indices = unsafe { slice(indices, index_count, "indices") }?;
        let out = Out::new(out_id, "out_id")?;
        let triangles: Vec<[u32; 3]> = indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
        let id = sim.add_obstacle(bytemuck::cast_slice(vertices), &triangles)?;
        unsafe { out.set(id.0) };
        Ok(())
    })
}

/// Adds the solid axis-aligned box from `min` to `max` (m) as a static obstacle (see
/// `swerve_simulator3d_add_obstacle`): its surface is 12 triangles, but it gives an agent one
/// plane, through the box's nearest point, so prefer it to the same box as a mesh (fewer, less
/// conservative planes, faster). `*out_id` receives its id. Refused: a non-finite
/// corner, a box thinner than 1e-4 m in any direction.
///
/// # Safety
/// `sim` is null or a live handle; `out_id` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_add_box_obstacle(
    sim: *mut SwerveSimulator3d,
    min: SwerveVec3,
    max: SwerveVec3,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let out = Out::new(out_id, "out_id")?;
        let id = sim.add_box_obstacle(min.into(), max.into())?;
        unsafe { out.set(id.0) };
        Ok(())
    })
}

/// Removes a static obstacle, from the next step on; the others keep their ids.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_remove_obstacle(sim: *mut SwerveSimulator3d, id: u32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.remove_obstacle(ObstacleId(id))?)) }
}

/// `v` when every coordinate is finite (the C interface's own arguments, as the planar
/// `finite`).
fn finite3(what: &str, v: SwerveVec3) -> Result<Vec3, Failure> {
    if v.x.is_finite() && v.y.is_finite() && v.z.is_finite() {
        Ok(v.into())
    } else {
        Err(Failure::invalid(format!("{what} must be finite, got ({}, {}, {})", v.x, v.y, v.z)))
    }
}

/// Whether a sphere of `radius` (m, ≥ 0) can fly straight from `from` to `to` without
/// touching a static obstacle (the 3-D `queryVisibility`; touching counts as blocked, and
/// `from == to` asks whether a sphere at `from` is clear).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_query_visibility(
    sim: *const SwerveSimulator3d,
    from: SwerveVec3,
    to: SwerveVec3,
    radius: f32,
    out: *mut bool,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let (from, to) = (finite3("from", from)?, finite3("to", to)?);
        unsafe { out.set(sim.query_visibility(from, to, query_radius(radius)?)) };
        Ok(())
    })
}

/// The static obstacles' ids (added and not removed), in the order they were added; `*count`
/// and `out` as in `swerve_simulator3d_agent_ids`.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_obstacle_ids(
    sim: *const SwerveSimulator3d,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let ids: Vec<u32> = sim.obstacles().map(|(id, _)| id.0).collect();
        unsafe { fill(ids.into_iter(), out, capacity, count) }
    })
}

/// A static obstacle's triangles (a mesh's in the order given, a box's 12); `*count` and
/// `out` as in `swerve_simulator3d_agent_ids`.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` triangles;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_obstacle_triangles(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut SwerveTriangle,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let triangles = sim.obstacle(ObstacleId(id))?;
        let triangles =
            triangles.iter().map(|&Triangle { a, b, c }| SwerveTriangle { a: a.into(), b: b.into(), c: c.into() });
        unsafe { fill(triangles, out, capacity, count) }
    })
}

/// An agent's obstacle time horizon (s): how far ahead it avoids reaching a static obstacle;
/// its time horizon unless set with `swerve_simulator3d_set_agent_obstacle_time_horizon`.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_obstacle_time_horizon(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut f32,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_obstacle_time_horizon(AgentId(id))?)) }
}

/// Sets how far ahead (s, > 0, finite) an agent avoids reaching a static obstacle (RVO2's
/// `timeHorizonObst`): it closes the gap to a triangle at no more than gap / horizon, so a
/// short horizon lets it fly close before slowing.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_agent_obstacle_time_horizon(
    sim: *mut SwerveSimulator3d,
    id: u32,
    horizon: f32,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_obstacle_time_horizon(AgentId(id), horizon)?)) }
}

// ----- why an agent chose its velocity -----

/// Whether each step keeps every agent's neighbours and ORCA planes for the functions
/// below (off by default: it costs memory traffic). Turned on, records fill from the next
/// step on.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_set_record_decisions(
    sim: *mut SwerveSimulator3d,
    on: bool,
) -> SwerveStatus {
    unsafe {
        change(sim, |sim| {
            sim.set_record_decisions(on);
            Ok(())
        })
    }
}

/// The agents an agent took into account in the last step, nearest first (RVO2-3D's
/// `getAgentAgentNeighbor`); `*count` and `out` as in `swerve_simulator3d_agent_ids`.
/// `NotRecorded` unless decisions are recorded; none after an agent was removed, until the
/// next step.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_neighbors(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let neighbors = sim.agent_neighbors(AgentId(id))?;
        unsafe { fill(neighbors.map(|n| n.0), out, capacity, count) }
    })
}

/// An agent's ORCA planes of the last step (RVO2-3D's `getAgentORCAPlane`): first one per
/// static obstacle triangle within reach (`swerve_simulator3d_agent_obstacle_plane_count` of
/// them), then one per neighbour in neighbour order (none from a neighbour it does not yield
/// to, see `swerve_simulator3d_set_agent_responsibility`), then one per nearby mover. Two
/// agents on one point give a NaN plane, as in RVO2-3D, whose programs skip it. `*count` and
/// `out` as in `swerve_simulator3d_agent_ids`; `NotRecorded` unless decisions are recorded.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` planes;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_planes(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut SwervePlane,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let planes = sim.agent_planes(AgentId(id))?;
        let planes = planes.iter().map(|p| SwervePlane { point: p.point.into(), normal: p.normal.into() });
        unsafe { fill(planes, out, capacity, count) }
    })
}

/// How many of an agent's planes of the last step (the first ones of
/// `swerve_simulator3d_agent_planes`) came from static obstacles: hard planes, which the
/// program's fallback does not trade off. `NotRecorded` unless decisions are recorded.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator3d_agent_obstacle_plane_count(
    sim: *const SwerveSimulator3d,
    id: u32,
    out: *mut usize,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_obstacle_plane_count(AgentId(id))?)) }
}
