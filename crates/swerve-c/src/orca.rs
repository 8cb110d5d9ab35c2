//! The planar ORCA simulator (`swerve::Simulator`, RVO2 2.0.3 bit for bit) for C: a handle,
//! its agents, obstacles, options beyond RVO2 and the per-agent records that show why an
//! agent chose its velocity.

use crate::status::{
    arg, arg_mut, change, fill, guard, inner, inner_mut, query, slice, Failure, Handle, Out, SwerveStatus, Workers,
};
use swerve::orca::{Extensions, LpOutcome, Mover, MoverId, ObstacleId, OverlapResolution, SymmetryBreaking};
use swerve::{AgentId, AgentParams, Simulator, Vec2};

/// A vector in the plane: a position (m) or a velocity (m/s).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SwerveVec2 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
}

impl From<SwerveVec2> for Vec2 {
    fn from(v: SwerveVec2) -> Vec2 {
        Vec2::new(v.x, v.y)
    }
}

impl From<Vec2> for SwerveVec2 {
    fn from(v: Vec2) -> SwerveVec2 {
        SwerveVec2 { x: v.x, y: v.y }
    }
}

/// The parameters RVO2 keeps per agent (the same names and meaning as RVO2's).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveAgentParams {
    /// How far away other agents are taken into account (m), ≥ 0.
    pub neighbor_dist: f32,
    /// At most this many nearest agents are taken into account.
    pub max_neighbors: usize,
    /// How far ahead in time collisions with other agents are avoided (s), > 0.
    pub time_horizon: f32,
    /// How far ahead in time collisions with obstacles are avoided (s), > 0.
    pub time_horizon_obst: f32,
    /// The agent's radius (m), > 0.
    pub radius: f32,
    /// The agent's maximum speed (m/s), ≥ 0.
    pub max_speed: f32,
}

impl From<SwerveAgentParams> for AgentParams {
    fn from(p: SwerveAgentParams) -> AgentParams {
        AgentParams {
            neighbor_dist: p.neighbor_dist,
            max_neighbors: p.max_neighbors,
            time_horizon: p.time_horizon,
            time_horizon_obst: p.time_horizon_obst,
            radius: p.radius,
            max_speed: p.max_speed,
        }
    }
}

impl From<AgentParams> for SwerveAgentParams {
    fn from(p: AgentParams) -> SwerveAgentParams {
        SwerveAgentParams {
            neighbor_dist: p.neighbor_dist,
            max_neighbors: p.max_neighbors,
            time_horizon: p.time_horizon,
            time_horizon_obst: p.time_horizon_obst,
            radius: p.radius,
            max_speed: p.max_speed,
        }
    }
}

/// One ORCA half-plane of an agent's last decision (RVO2's `Line`): the velocities to the
/// left of the line through `point` along the unit vector `direction` are permitted.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveHalfPlane {
    /// A point on the boundary (m/s).
    pub point: SwerveVec2,
    /// The boundary's unit direction.
    pub direction: SwerveVec2,
}

/// One vertex of the processed obstacles (RVO2's obstacle vertex list, with the vertices
/// the obstacle tree added by splitting edges). The edge from this vertex to `next` is part
/// of an obstacle.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveObstacleVertex {
    /// Where the vertex is (m).
    pub point: SwerveVec2,
    /// The number of the next vertex along its polygon.
    pub next: u32,
    /// The number of the previous vertex along its polygon.
    pub prev: u32,
}

/// A non-cooperative moving disc (a vehicle, a player) that agents avoid with full
/// responsibility; it does not avoid them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveMover {
    /// Centre (m).
    pub position: SwerveVec2,
    /// Velocity (m/s); agents extrapolate the mover along it.
    pub velocity: SwerveVec2,
    /// Radius (m), > 0.
    pub radius: f32,
}

impl From<SwerveMover> for Mover {
    fn from(m: SwerveMover) -> Mover {
        Mover { position: m.position.into(), velocity: m.velocity.into(), radius: m.radius }
    }
}

/// Breaking the symmetry that makes ORCA agents stall head-on: every preferred velocity gets
/// a reproducible perturbation of length `jitter`, and an agent heading at a neighbour that
/// heads back at it (within `cone` radians) turns right by `turn` radians.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveSymmetryBreaking {
    /// Length of the per-step perturbation of the preferred velocity (m/s), ≥ 0.
    pub jitter: f32,
    /// Seed of the perturbation directions.
    pub seed: u64,
    /// Half-angle of the head-on cone (rad).
    pub cone: f32,
    /// How far the preferred velocity turns clockwise in a head-on conflict (rad).
    pub turn: f32,
}

/// Removing the overlaps a dense crowd leaves after each step.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwerveOverlapResolution {
    /// Projection rounds per step.
    pub passes: u32,
    /// Clearance kept between agents, as a fraction of the sum of their radii.
    pub margin: f32,
}

/// A planar ORCA simulator. Create it with `swerve_simulator_new`, free it with
/// `swerve_simulator_free`.
pub struct SwerveSimulator {
    sim: Simulator,
    /// The simulator's own worker threads (`swerve_simulator_set_threads`); none: rayon's
    /// global pool.
    workers: Workers,
}

impl Handle for SwerveSimulator {
    type Inner = Simulator;
    const WHAT: &'static str = "simulator";
    fn inner(&self) -> &Simulator {
        &self.sim
    }
    fn inner_mut(&mut self) -> &mut Simulator {
        &mut self.sim
    }
}

/// `v` when both coordinates are finite (the C interface's own arguments; the library checks
/// what it is given).
pub(crate) fn finite(what: &str, v: SwerveVec2) -> Result<Vec2, Failure> {
    if v.x.is_finite() && v.y.is_finite() {
        Ok(v.into())
    } else {
        Err(Failure::invalid(format!("{what} must be finite, got ({}, {})", v.x, v.y)))
    }
}

/// `radius` when it is finite and at least 0: a visibility query's (planar and 3-D).
pub(crate) fn query_radius(radius: f32) -> Result<f32, Failure> {
    if radius.is_finite() && radius >= 0.0 {
        Ok(radius)
    } else {
        Err(Failure::invalid(format!("radius must be finite and at least 0, got {radius}")))
    }
}

// ----- the handle -----

/// RVO2's Circle example parameters: 15 m, 10 neighbours, 10 s, 10 s, 1.5 m, 2 m/s.
///
/// # Safety
/// `out` is null or valid for writing a `SwerveAgentParams`.
#[no_mangle]
pub unsafe extern "C" fn swerve_agent_params_default(out: *mut SwerveAgentParams) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        unsafe { out.set(AgentParams::default().into()) };
        Ok(())
    })
}

/// Creates a simulator with time step `time_step` (s, > 0) and the parameters agents get
/// from `swerve_simulator_add_agent` (`defaults`; null for `swerve_agent_params_default`'s).
/// On success `*out` holds the new handle.
///
/// # Safety
/// `defaults` is null or valid for reading; `out` is null or valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_new(
    time_step: f32,
    defaults: *const SwerveAgentParams,
    out: *mut *mut SwerveSimulator,
) -> SwerveStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let defaults = unsafe { defaults.as_ref() }.map_or_else(AgentParams::default, |d| (*d).into());
        let sim = Simulator::new(time_step, defaults)?;
        unsafe { out.set(Box::into_raw(Box::new(SwerveSimulator { sim, workers: Workers::default() }))) };
        Ok(())
    })
}

/// Frees a simulator. Null is ignored.
///
/// # Safety
/// `sim` is null or a handle from `swerve_simulator_new` not yet freed; it is invalid after.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_free(sim: *mut SwerveSimulator) {
    if !sim.is_null() {
        // Dropping cannot panic (plain vectors and a thread pool), so nothing unwinds.
        drop(unsafe { Box::from_raw(sim) });
    }
}

/// How many threads `swerve_simulator_step` uses: 0 for rayon's global pool (as many as the
/// machine has cores, or `RAYON_NUM_THREADS`), n ≥ 1 for a pool of n threads owned by this
/// simulator. Results are bit for bit the same for any count.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_threads(sim: *mut SwerveSimulator, threads: usize) -> SwerveStatus {
    guard(|| {
        let handle = unsafe { arg_mut(sim, "simulator") }?;
        handle.workers.set(threads)
    })
}

/// Advances the simulation by one time step: every agent picks its new velocity from the
/// state at the start of the step (RVO2's `doStep`), then all move. Never fails on a valid
/// handle, and does not allocate once warmed up.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_step(sim: *mut SwerveSimulator) -> SwerveStatus {
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
pub unsafe extern "C" fn swerve_simulator_time_step(sim: *const SwerveSimulator, out: *mut f32) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.time_step())) }
}

/// The simulated time (s): the time steps taken so far, summed in `f32` as RVO2 does.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_global_time(sim: *const SwerveSimulator, out: *mut f32) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.global_time())) }
}

/// The parameters `swerve_simulator_add_agent` gives new agents.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_defaults(
    sim: *const SwerveSimulator,
    out: *mut SwerveAgentParams,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_defaults().into())) }
}

/// How many agents there are.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_num_agents(sim: *const SwerveSimulator, out: *mut usize) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.num_agents())) }
}

/// How many obstacles there are (added and not removed, processed or not).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_num_obstacles(sim: *const SwerveSimulator, out: *mut usize) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.obstacle_ids().len())) }
}

/// How many vertices the processed obstacles have (RVO2's `getNumObstacleVertices` after
/// `processObstacles`), including those added by splitting edges.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_num_obstacle_vertices(
    sim: *const SwerveSimulator,
    out: *mut usize,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.obstacle_vertices().len())) }
}

/// Sets the time step (s, > 0).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_time_step(sim: *mut SwerveSimulator, time_step: f32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_time_step(time_step)?)) }
}

/// Sets the simulated time (s, finite).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_global_time(sim: *mut SwerveSimulator, time: f32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_global_time(time)?)) }
}

/// Sets the parameters `swerve_simulator_add_agent` gives new agents (existing agents keep
/// theirs).
///
/// # Safety
/// `sim` is null or a live handle; `params` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_defaults(
    sim: *mut SwerveSimulator,
    params: *const SwerveAgentParams,
) -> SwerveStatus {
    guard(|| {
        let params = *unsafe { arg(params, "params") }?;
        Ok(unsafe { inner_mut(sim) }?.set_agent_defaults(params.into())?)
    })
}

// ----- agents -----

/// Adds an agent at `position` (m) with the default parameters, at rest. Ids are handed out
/// in order (0, 1, 2, …, RVO2's agent numbers while none is removed) and never reused.
///
/// # Safety
/// `sim` is null or a live handle; `out_id` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_add_agent(
    sim: *mut SwerveSimulator,
    position: SwerveVec2,
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
pub unsafe extern "C" fn swerve_simulator_add_agent_with(
    sim: *mut SwerveSimulator,
    position: SwerveVec2,
    params: *const SwerveAgentParams,
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

/// Removes an agent; the others keep their ids.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_remove_agent(sim: *mut SwerveSimulator, id: u32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.remove_agent(AgentId(id))?)) }
}

/// Whether `id` names a live agent.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_contains_agent(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut bool,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        unsafe { out.set(sim.contains_agent(AgentId(id))) };
        Ok(())
    })
}

/// An agent's position (m).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_position(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut SwerveVec2,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_position(AgentId(id))?.into())) }
}

/// Sets an agent's position (m) (finite).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_position(
    sim: *mut SwerveSimulator,
    id: u32,
    value: SwerveVec2,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_position(AgentId(id), value.into())?)) }
}

/// An agent's velocity (m/s).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_velocity(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut SwerveVec2,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_velocity(AgentId(id))?.into())) }
}

/// Sets an agent's velocity (m/s) (finite).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_velocity(
    sim: *mut SwerveSimulator,
    id: u32,
    value: SwerveVec2,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_velocity(AgentId(id), value.into())?)) }
}

/// An agent's preferred velocity (m/s): where it would go with nobody around; set it before every step.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_pref_velocity(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut SwerveVec2,
) -> SwerveStatus {
    unsafe { query(sim, out, |sim| Ok(sim.agent_pref_velocity(AgentId(id))?.into())) }
}

/// Sets an agent's preferred velocity (m/s) (finite).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_pref_velocity(
    sim: *mut SwerveSimulator,
    id: u32,
    value: SwerveVec2,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_pref_velocity(AgentId(id), value.into())?)) }
}

/// An agent's parameters.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_params(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut SwerveAgentParams,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let params = sim.agent_params(AgentId(id))?;
        unsafe { out.set(params.into()) };
        Ok(())
    })
}

/// Sets an agent's parameters (all checked first; nothing changes on error).
///
/// # Safety
/// `sim` is null or a live handle; `params` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_params(
    sim: *mut SwerveSimulator,
    id: u32,
    params: *const SwerveAgentParams,
) -> SwerveStatus {
    guard(|| {
        let params = *unsafe { arg(params, "params") }?;
        Ok(unsafe { inner_mut(sim) }?.set_agent_params(AgentId(id), params.into())?)
    })
}

/// An agent's share of avoiding its neighbours (0.5 for everyone is RVO2's reciprocity).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_responsibility(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut f32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let weight = sim.agent_responsibility(AgentId(id))?;
        unsafe { out.set(weight) };
        Ok(())
    })
}

/// Sets an agent's responsibility weight (finite, ≥ 0): in a pair, each takes its weight's
/// share of the sum of both. Equal weights are RVO2's half each, bit for bit.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_responsibility(
    sim: *mut SwerveSimulator,
    id: u32,
    weight: f32,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_responsibility(AgentId(id), weight)?)) }
}

/// An agent's maximum acceleration (m/s²): `INFINITY` (the default, RVO2's agents) when its
/// velocity may change by any amount in a step.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_max_acceleration(
    sim: *const SwerveSimulator,
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
/// each step its new velocity stays within `max_acceleration · time step` of its current one,
/// through eight hard half-planes that come after the obstacles' in
/// `swerve_simulator_agent_half_planes` and are counted with them in `SwerveDecision`'s
/// `obstacle_half_planes`.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_max_acceleration(
    sim: *mut SwerveSimulator,
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
pub unsafe extern "C" fn swerve_simulator_agent_avoidance_layers(
    sim: *const SwerveSimulator,
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
/// for every agent) are RVO2 bit for bit.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_avoidance_layers(
    sim: *mut SwerveSimulator,
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
pub unsafe extern "C" fn swerve_simulator_agent_avoidance_mask(
    sim: *const SwerveSimulator,
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
/// value; see `swerve_simulator_set_agent_avoidance_layers`). Mask 0: the agent avoids no other
/// agent (it still avoids obstacles and movers).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_agent_avoidance_mask(
    sim: *mut SwerveSimulator,
    id: u32,
    mask: u32,
) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.set_agent_avoidance_mask(AgentId(id), mask)?)) }
}

// ----- all agents at once, in the order of swerve_simulator_agent_ids -----

/// The live agents' ids, in the order every other all-agents function uses (the order they
/// were added, less the removed ones). `*count` receives the number of agents; `out` must
/// hold that many (`BufferTooSmall` otherwise, with `out` untouched).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_ids(
    sim: *const SwerveSimulator,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.agent_ids().iter().map(|id| id.0), out, capacity, count) }
    })
}

/// Every agent's position (m), in the order of `swerve_simulator_agent_ids`; `*count` and `out`
/// as there.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_positions(
    sim: *const SwerveSimulator,
    out: *mut SwerveVec2,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.positions().iter().map(|&v| v.into()), out, capacity, count) }
    })
}

/// Every agent's velocity (m/s), in the order of `swerve_simulator_agent_ids`; `*count` and `out`
/// as there.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_velocities(
    sim: *const SwerveSimulator,
    out: *mut SwerveVec2,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.velocities().iter().map(|&v| v.into()), out, capacity, count) }
    })
}

/// Every agent's preferred velocity (m/s), in the order of `swerve_simulator_agent_ids`; `*count` and `out`
/// as there.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_pref_velocities(
    sim: *const SwerveSimulator,
    out: *mut SwerveVec2,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.pref_velocities().iter().map(|&v| v.into()), out, capacity, count) }
    })
}

/// Sets every agent's preferred velocity at once, in the order of
/// `swerve_simulator_agent_ids`. `count` must equal the number of agents and every value be
/// finite; otherwise nothing changes.
///
/// # Safety
/// `sim` is null or a live handle; `values` is null or valid for reading `count` vectors.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_pref_velocities(
    sim: *mut SwerveSimulator,
    values: *const SwerveVec2,
    count: usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let values = unsafe { slice(values, count, "values") }?;
        Ok(sim.set_pref_velocities(bytemuck::cast_slice(values))?)
    })
}

// ----- obstacles -----

/// Adds an obstacle polygon of `count` vertices (RVO2's convention: counter-clockwise for a
/// solid obstacle, clockwise for a boundary around the agents, two vertices for a thin wall).
/// Agents see it after the next `swerve_simulator_process_obstacles`. Ids are handed out in
/// order and never reused. Refused (nothing added): fewer than 2 vertices, non-finite
/// coordinates, repeated consecutive vertices, crossing edges.
///
/// # Safety
/// `sim` is null or a live handle; `vertices` is null or valid for reading `count` vectors;
/// `out_id` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_add_obstacle(
    sim: *mut SwerveSimulator,
    vertices: *const SwerveVec2,
    count: usize,
    out_id: *mut u32,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let vertices = unsafe { slice(vertices, count, "vertices") }?;
        let out = Out::new(out_id, "out_id")?;
        let id = sim.add_obstacle(bytemuck::cast_slice(vertices))?;
        unsafe { out.set(id.0) };
        Ok(())
    })
}

/// Builds the obstacle tree from the obstacles added so far (RVO2's `processObstacles`).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_process_obstacles(sim: *mut SwerveSimulator) -> SwerveStatus {
    guard(|| {
        unsafe { inner_mut(sim) }?.process_obstacles();
        Ok(())
    })
}

/// Removes an obstacle at once (processed or not); other ids stay valid. From then on the
/// simulator steps as one that never had it.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_remove_obstacle(sim: *mut SwerveSimulator, id: u32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.remove_obstacle(ObstacleId(id))?)) }
}

/// The live obstacles' ids (added and not removed), in the order they were added; `*count`
/// and `out` as in `swerve_simulator_agent_ids`.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_obstacle_ids(
    sim: *const SwerveSimulator,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        unsafe { fill(sim.obstacle_ids().iter().map(|id| id.0), out, capacity, count) }
    })
}

/// An obstacle's vertices as they were added (for drawing it); `*count` and `out` as in
/// `swerve_simulator_agent_ids`.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_obstacle_polygon(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut SwerveVec2,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let polygon = sim.obstacle_polygon(ObstacleId(id))?;
        unsafe { fill(polygon.iter().map(|&v| v.into()), out, capacity, count) }
    })
}

/// The number of an obstacle's first vertex in RVO2's vertex list (what RVO2's
/// `addObstacle` returns).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_obstacle_first_vertex(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let first = sim.obstacle_first_vertex(ObstacleId(id))?;
        unsafe { out.set(first) };
        Ok(())
    })
}

/// Processed obstacle vertex number `index` (0 ≤ index < `swerve_simulator_num_obstacle_vertices`).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_obstacle_vertex(
    sim: *const SwerveSimulator,
    index: usize,
    out: *mut SwerveObstacleVertex,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let vertices = sim.obstacle_vertices();
        let v = vertices.get(index).ok_or_else(|| {
            Failure::new(
                SwerveStatus::UnknownId,
                format!("unknown obstacle vertex {index} (the processed obstacles have {})", vertices.len()),
            )
        })?;
        unsafe { out.set(SwerveObstacleVertex { point: v.point.into(), next: v.next, prev: v.prev }) };
        Ok(())
    })
}

/// Whether a disc of `radius` (m, ≥ 0) can travel from `from` to `to` without touching a
/// processed obstacle (RVO2's `queryVisibility`).
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_query_visibility(
    sim: *const SwerveSimulator,
    from: SwerveVec2,
    to: SwerveVec2,
    radius: f32,
    out: *mut bool,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let out = Out::new(out, "out")?;
        let (from, to) = (finite("from", from)?, finite("to", to)?);
        unsafe { out.set(sim.query_visibility(from, to, query_radius(radius)?)) };
        Ok(())
    })
}

// ----- beyond RVO2 -----

/// Turns head-on symmetry breaking on (`value` non-null) or off (null, RVO2's behaviour).
///
/// # Safety
/// `sim` is null or a live handle; `value` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_symmetry_breaking(
    sim: *mut SwerveSimulator,
    value: *const SwerveSymmetryBreaking,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let value = unsafe { value.as_ref() }.map(|v| SymmetryBreaking {
            jitter: v.jitter,
            seed: v.seed,
            cone: v.cone,
            turn: v.turn,
        });
        Ok(sim.set_extensions(Extensions { symmetry_breaking: value, ..sim.extensions() })?)
    })
}

/// Turns overlap resolution on (`value` non-null) or off (null, RVO2's behaviour).
///
/// # Safety
/// `sim` is null or a live handle; `value` is null or valid for reading.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_overlap_resolution(
    sim: *mut SwerveSimulator,
    value: *const SwerveOverlapResolution,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        let value = unsafe { value.as_ref() }.map(|v| OverlapResolution { passes: v.passes, margin: v.margin });
        Ok(sim.set_extensions(Extensions { overlap_resolution: value, ..sim.extensions() })?)
    })
}

/// Clamps every new velocity to the agent's max speed (RVO2's fallback program can exceed
/// it slightly; off by default because the clamp changes those bits).
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_strict_speed_limit(sim: *mut SwerveSimulator, on: bool) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner_mut(sim) }?;
        Ok(sim.set_extensions(Extensions { strict_speed_limit: on, ..sim.extensions() })?)
    })
}

/// Adds a non-cooperative mover; `*out_id` receives its id (never reused).
///
/// # Safety
/// `sim` is null or a live handle; `mover` is null or valid for reading; `out_id` is null or
/// valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_add_mover(
    sim: *mut SwerveSimulator,
    mover: *const SwerveMover,
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
pub unsafe extern "C" fn swerve_simulator_set_mover(
    sim: *mut SwerveSimulator,
    id: u32,
    mover: *const SwerveMover,
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
pub unsafe extern "C" fn swerve_simulator_mover(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut SwerveMover,
) -> SwerveStatus {
    unsafe {
        query(sim, out, |sim| {
            let m = sim.mover(MoverId(id))?;
            Ok(SwerveMover { position: m.position.into(), velocity: m.velocity.into(), radius: m.radius })
        })
    }
}

/// Removes a mover; other movers keep their ids.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_remove_mover(sim: *mut SwerveSimulator, id: u32) -> SwerveStatus {
    unsafe { change(sim, |sim| Ok(sim.remove_mover(MoverId(id))?)) }
}

// ----- why an agent chose its velocity -----

/// Whether each step keeps every agent's neighbours and ORCA half-planes for the functions
/// below (off by default: it costs memory traffic). Turned on, records fill from the next
/// step on.
///
/// # Safety
/// `sim` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_set_record_decisions(sim: *mut SwerveSimulator, on: bool) -> SwerveStatus {
    guard(|| {
        unsafe { inner_mut(sim) }?.set_record_decisions(on);
        Ok(())
    })
}

/// The agents an agent took into account in the last step, nearest first (RVO2's
/// `getAgentAgentNeighbor`); `*count` and `out` as in `swerve_simulator_agent_ids`.
/// `NotRecorded` unless decisions are recorded.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
/// `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_neighbors(
    sim: *const SwerveSimulator,
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

/// The obstacle edges an agent took into account in the last step, nearest first, as
/// obstacle vertex numbers (RVO2's `getAgentObstacleNeighbor`); as above.
///
/// # Safety
/// As `swerve_simulator_agent_neighbors`.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_obstacle_neighbors(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let neighbors = sim.agent_obstacle_neighbors(AgentId(id))?;
        unsafe { fill(neighbors, out, capacity, count) }
    })
}

/// An agent's ORCA half-planes of the last step (RVO2's `getAgentORCALine`): first the
/// obstacles', then one per agent neighbour; as above.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing `capacity`
/// half-planes; `count` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_half_planes(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut SwerveHalfPlane,
    capacity: usize,
    count: *mut usize,
) -> SwerveStatus {
    guard(|| {
        let sim = unsafe { inner(sim) }?;
        let planes = sim.agent_half_planes(AgentId(id))?;
        let planes = planes.iter().map(|p| SwerveHalfPlane { point: p.point.into(), direction: p.direction.into() });
        unsafe { fill(planes, out, capacity, count) }
    })
}

/// What an agent's last decision came to: which linear program chose its velocity and how
/// many of its half-planes came from obstacles.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwerveDecision {
    /// True when every half-plane could be met (RVO2's linear program 2 chose the velocity
    /// nearest the preferred one); false when they conflict and the velocity minimises the
    /// largest violation (linear program 3, a dense crowd).
    pub feasible: bool,
    /// With `feasible` false: the first half-plane linear program 2 could not meet.
    pub first_infeasible: usize,
    /// How many of the agent's half-planes (the first ones) come from obstacles.
    pub obstacle_half_planes: usize,
}

/// An agent's last decision (see `SwerveDecision`). `NotRecorded` unless decisions are
/// recorded.
///
/// # Safety
/// `sim` is null or a live handle; `out` is null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn swerve_simulator_agent_decision(
    sim: *const SwerveSimulator,
    id: u32,
    out: *mut SwerveDecision,
) -> SwerveStatus {
    unsafe {
        query(sim, out, |sim| {
            let obstacle_half_planes = sim.agent_obstacle_half_plane_count(AgentId(id))?;
            Ok(match sim.agent_lp_outcome(AgentId(id))? {
                LpOutcome::Feasible => SwerveDecision { feasible: true, first_infeasible: 0, obstacle_half_planes },
                LpOutcome::Fallback { first_infeasible } => {
                    SwerveDecision { feasible: false, first_infeasible, obstacle_half_planes }
                }
            })
        })
    }
}
