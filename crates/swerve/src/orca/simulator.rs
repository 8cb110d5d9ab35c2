//! The crowd simulator: RVO2's `RVOSimulator`, with stable ids, removal and parallel steps.

use super::avoidance_layers::{AvoidanceLayers, LayerView};
use super::constraints::{agent_half_plane, agent_half_planes_x4, obstacle_half_planes, AgentView, NeighborBatch};
use super::extensions::{
    is_head_on, jitter_direction, share, AccelerationLimit, Extensions, Mover, MoverId, MoverList, OverlapResolution,
    ACCELERATION_SIDES, RVO2_RESPONSIBILITY,
};
use super::linear_program::{solve, LpOutcome};
use super::params::AgentParams;
use crate::geom::{validate_polygon, HalfPlane};
use crate::instruction_set::{avx2_copy, Avx2Detected, InstructionSet};
use crate::spatial::{
    AgentKdTree, GridQuery, Neighbor, NeighborGrid, ObstacleGrid, ObstacleTree, ObstacleVertex, QueryScratch, Staged,
    ANSWER_ROOM,
};
use crate::Error;
use glam::Vec2;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};
use wide::f32x4;

/// A stable handle to an agent. Ids are handed out in order (0, 1, 2, …) and never reused, so
/// removing an agent leaves every other id valid. Without removals an agent's id equals its
/// RVO2 agent number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AgentId(pub u32);

/// A handle to an obstacle polygon, numbered in the order they were added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObstacleId(pub u32);

/// Marks a removed agent in the id → slot table.
const REMOVED: u32 = u32::MAX;

/// Below this many agents a step runs on the calling thread: rayon's hand-off costs more than
/// the work. The result is the same either way (each agent reads only the previous state).
const PARALLEL_THRESHOLD: usize = 256;

/// What one agent saw and decided in the last step. Kept per agent only when decisions are
/// recorded ([`Simulator::set_record_decisions`]) or overlap resolution reads the neighbours;
/// otherwise every agent of a thread's run is decided into the same spare one.
#[derive(Clone, Debug, Default)]
struct AgentRecord {
    agent_neighbors: Vec<Neighbor>,
    obstacle_neighbors: Vec<(f32, u32)>,
    half_planes: Vec<HalfPlane>,
    obstacle_half_plane_count: usize,
    /// How many of the hard half-planes (the last of them) are the acceleration limit's.
    acceleration_half_plane_count: usize,
    outcome: LpOutcome,
}

/// What one agent decided in a step that the step itself reads back, kept densely (12 bytes
/// per agent) apart from the bulky [`AgentRecord`]: the move reads every agent's, the grid
/// sizing samples them.
#[derive(Clone, Copy, Debug, Default)]
struct Decision {
    /// The new velocity (m/s).
    velocity: Vec2,
    /// The radius the neighbour query ended with (m): the next query's hint.
    search_range: f32,
}

/// An agent's [`Decision`], stored by the thread that decided it.
///
/// The threads decide slot by slot and store by agent (see [`StepContext::decisions_by_slot`]
/// for the exception), so that the move reads the decisions in agent order, one after
/// another. Which agent a slot holds is known only at run time, so the stores cannot be split
/// into disjoint slices beforehand; relaxed atomic stores are plain stores (`mov`) on x86-64
/// and AArch64. Each agent is decided once a step, and the move reads only after every
/// decision is in (rayon's join orders them).
#[derive(Debug, Default)]
struct DecisionCell {
    velocity_x: AtomicU32,
    velocity_y: AtomicU32,
    search_range: AtomicU32,
}

impl Clone for DecisionCell {
    fn clone(&self) -> DecisionCell {
        let copy = DecisionCell::default();
        copy.store(self.load());
        copy
    }
}

impl DecisionCell {
    #[inline(always)]
    fn store(&self, decision: Decision) {
        self.velocity_x.store(decision.velocity.x.to_bits(), Ordering::Relaxed);
        self.velocity_y.store(decision.velocity.y.to_bits(), Ordering::Relaxed);
        self.search_range.store(decision.search_range.to_bits(), Ordering::Relaxed);
    }

    #[inline(always)]
    fn load(&self) -> Decision {
        let bits = |cell: &AtomicU32| f32::from_bits(cell.load(Ordering::Relaxed));
        Decision {
            velocity: Vec2::new(bits(&self.velocity_x), bits(&self.velocity_y)),
            search_range: bits(&self.search_range),
        }
    }
}

impl AgentRecord {
    fn with_capacity(params: &AgentParams) -> AgentRecord {
        // Reserve what a typical step needs so that stepping does not allocate once warm
        // (agents near obstacles grow their lists during the first steps), but no more: at a
        // million agents every byte here is a megabyte. The grid's queries write up to
        // `ANSWER_ROOM` candidates into the neighbour list before cutting it to the answer.
        let neighbors = params.max_neighbors.min(256);
        let answer_room = if neighbors == 0 { 0 } else { neighbors.max(ANSWER_ROOM) };
        AgentRecord {
            agent_neighbors: Vec::with_capacity(answer_room),
            half_planes: Vec::with_capacity(neighbors + 2),
            ..AgentRecord::default()
        }
    }
}

/// An ORCA crowd: agents with a preferred velocity, static polygon obstacles, a time step.
///
/// Reproduces RVO2 2.0's `RVOSimulator` bit for bit: same parameters, same obstacle
/// processing, same neighbour search and tie order, same `f32` arithmetic. A step reads only
/// the state at its start, so it runs in parallel (rayon) with identical results for any
/// number of threads.
///
/// ```
/// use swerve::{AgentParams, Simulator, Vec2};
/// let mut sim = Simulator::new(0.25, AgentParams::default())?;
/// let a = sim.add_agent(Vec2::new(-10.0, 0.0))?;
/// let b = sim.add_agent(Vec2::new(10.0, 0.1))?;
/// sim.set_agent_pref_velocity(a, Vec2::new(1.0, 0.0))?;
/// sim.set_agent_pref_velocity(b, Vec2::new(-1.0, 0.0))?;
/// for _ in 0..100 {
///     sim.step();
/// }
/// assert!(sim.agent_position(a)?.distance(sim.agent_position(b)?) > 3.0);
/// # Ok::<(), swerve::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Simulator {
    time_step: f32,
    global_time: f32,
    defaults: AgentParams,

    // Agents, densely packed in insertion order (RVO2's agent order).
    ids: Vec<AgentId>,
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    pref_velocities: Vec<Vec2>,
    params: Vec<AgentParams>,
    /// Each agent's share weight in reciprocal avoidance (RVO2: ½ for everyone).
    responsibilities: Vec<f32>,
    /// How many agents have a weight other than RVO2's ½ (none: every share is ½).
    custom_weights: usize,
    /// Each agent's maximum acceleration (m/s²), `f32::INFINITY` when unlimited (RVO2).
    max_accelerations: Vec<f32>,
    /// How many agents have a finite maximum acceleration.
    limited_accelerations: usize,
    /// Each agent's avoidance layers and mask (who avoids whom; RVO2: everyone everyone).
    avoidance_layers: AvoidanceLayers,
    /// Whether the user asked for every agent's [`AgentRecord`] (see
    /// [`Simulator::set_record_decisions`]).
    record_decisions: bool,
    /// One per agent while [`Simulator::keeps_records`], else empty.
    records: Vec<AgentRecord>,
    /// `slots[id]` is the dense index of agent `id`, or `REMOVED`.
    slots: Vec<u32>,

    /// RVO2's tree, rebuilt every step: it orders the agents of neighbour queries whose
    /// answer depends on ties, and its kept permutation must evolve exactly as RVO2's.
    agent_tree: AgentKdTree,
    /// Answers the (tie-free) neighbour queries fast; see [`NeighborGrid`].
    neighbor_grid: NeighborGrid,
    /// Neighbour queries of the last step that met distance ties: `[ordered by the tree's
    /// visiting order, answered by a whole tree query]`.
    tie_answers: [usize; 2],
    /// Mean over every 16th agent of the squared search radius its last query ended with
    /// (m²); sizes the grid cells. Zero before the first step.
    mean_search_range_squared: f32,
    /// The farthest any agent moved in the last step (m).
    max_displacement: f32,
    /// Whether every agent's position and parameters are as the last step left them, so that
    /// its last search radius bounds this step's (see `StepContext::decide`).
    search_hints_valid: bool,
    /// The live obstacle polygons (not removed), in id order: first the ones the obstacle
    /// tree holds, then those awaiting `process_obstacles` (ids grow, and processing takes
    /// every polygon added so far, so the processed ones are a prefix).
    polygons: Vec<Vec<Vec2>>,
    /// Each live polygon's id, parallel to `polygons`.
    obstacle_ids: Vec<ObstacleId>,
    /// `obstacle_slots[id]` is obstacle `id`'s index in `polygons`, or `REMOVED`.
    obstacle_slots: Vec<u32>,
    /// How many of `polygons` the obstacle tree holds (the rest await `process_obstacles`).
    processed_polygons: usize,
    /// Each live polygon's first vertex number in RVO2's obstacle list (`addObstacle`'s
    /// result), parallel to `polygons`.
    first_vertices: Vec<usize>,
    obstacle_tree: ObstacleTree,
    /// Answers the obstacle-neighbour queries without ties faster than the tree (see
    /// [`ObstacleGrid`]); its reach covers every agent's obstacle range once current.
    obstacle_grid: ObstacleGrid,
    /// The reach (m) `obstacle_grid` was built for from the current `obstacle_tree`, or
    /// `None` when the tree has changed since.
    obstacle_grid_reach: Option<f32>,
    /// The largest obstacle range of any agent (m; see `StepContext::decide`), current with
    /// `params_current`.
    max_obstacle_range: f32,

    extensions: Extensions,
    /// Steps taken so far (seeds symmetry breaking's perturbation).
    step_number: u64,
    /// The non-cooperative movers.
    movers: MoverList<Mover>,
    /// Overlap resolution's per-agent corrections (scratch).
    corrections: Vec<Vec2>,
    /// Each agent's decision in the last step, or each slot's (see
    /// [`StepContext::decisions_by_slot`]; scratch).
    decisions: Vec<DecisionCell>,
    /// Each agent's search radius at the end of its last neighbour query (m), in agent order:
    /// the next query's hint.
    search_ranges: Vec<f32>,
    /// What each slot's decision reads, laid out in slot order (scratch).
    slot_data: SlotData,
    /// The grid's staging buffer for laying out `slot_data` (scratch; see [`Staged`]).
    slot_staging: Vec<Staged<SlotPayload>>,
    /// A staged move's decisions, by agent bucket (scratch; see [`MOVE_BUCKET`]).
    move_staging: Vec<(u32, Decision)>,
    /// Where each bucket's next staged decision goes (scratch).
    move_bucket_start: Vec<u32>,
    /// Each agent's radius, in agent order.
    radii: Vec<f32>,
    /// The radius every agent has, if they all have the same one (as in most crowds): a
    /// batch of neighbours then takes it without gathering four.
    common_radius: Option<f32>,
    /// The parameters every agent has, if they all have the same ones: no agent's are read.
    common_params: Option<AgentParams>,
    /// Whether `radii`, `common_radius` and `common_params` are current.
    params_current: bool,
    /// What the step's hot loops run with (always one this CPU supports).
    instruction_set: InstructionSet,
}

/// What the decisions of a step read, laid out in slot order (see [`SlotOrder`]) at its start.
#[derive(Clone, Debug, Default)]
struct SlotData {
    /// Each slot's (position x, position y, velocity x, velocity y) at the start of the step,
    /// as one vector: what a neighbour's half-plane reads, in one load.
    motions: Vec<f32x4>,
    /// Each slot's radius, when the agents' radii differ (else empty).
    radii: Vec<f32>,
    /// Each slot's preferred velocity and last search radius.
    own: Vec<OwnState>,
}

/// What a step carries from the agent-order arrays to each agent's slot, besides its position.
#[derive(Clone, Copy, Debug, Default)]
struct SlotPayload {
    velocity: Vec2,
    own: OwnState,
    /// Its radius, when the agents' radii differ (else unread).
    radius: f32,
}

/// What only the agent itself reads of its state.
#[derive(Clone, Copy, Debug, Default)]
struct OwnState {
    /// The preferred velocity (m/s).
    preferred: Vec2,
    /// The search radius its last neighbour query ended with (m): the next query's hint.
    search_range: f32,
}

impl Simulator {
    /// A simulator with time step `time_step` (s, > 0) whose agents get `defaults` unless
    /// added with [`Simulator::add_agent_with`].
    pub fn new(time_step: f32, defaults: AgentParams) -> Result<Simulator, Error> {
        Error::check_positive("time step", time_step)?;
        defaults.validate()?;
        Ok(Simulator {
            time_step,
            global_time: 0.0,
            defaults,
            ids: Vec::new(),
            positions: Vec::new(),
            velocities: Vec::new(),
            pref_velocities: Vec::new(),
            params: Vec::new(),
            responsibilities: Vec::new(),
            custom_weights: 0,
            max_accelerations: Vec::new(),
            avoidance_layers: AvoidanceLayers::default(),
            limited_accelerations: 0,
            record_decisions: false,
            records: Vec::new(),
            slots: Vec::new(),
            agent_tree: AgentKdTree::new(),
            neighbor_grid: NeighborGrid::new(),
            tie_answers: [0; 2],
            mean_search_range_squared: 0.0,
            max_displacement: 0.0,
            search_hints_valid: false,
            polygons: Vec::new(),
            obstacle_ids: Vec::new(),
            obstacle_slots: Vec::new(),
            processed_polygons: 0,
            first_vertices: Vec::new(),
            obstacle_tree: ObstacleTree::default(),
            obstacle_grid: ObstacleGrid::new(),
            obstacle_grid_reach: None,
            max_obstacle_range: 0.0,
            extensions: Extensions::default(),
            step_number: 0,
            movers: MoverList::default(),
            corrections: Vec::new(),
            decisions: Vec::new(),
            search_ranges: Vec::new(),
            slot_data: SlotData::default(),
            slot_staging: Vec::new(),
            move_staging: Vec::new(),
            move_bucket_start: Vec::new(),
            radii: Vec::new(),
            common_radius: None,
            common_params: None,
            params_current: false,
            instruction_set: InstructionSet::best_supported(),
        })
    }

    // ----- global state -----

    /// The time step (s).
    pub fn time_step(&self) -> f32 {
        self.time_step
    }

    /// Changes the time step (s, > 0).
    pub fn set_time_step(&mut self, time_step: f32) -> Result<(), Error> {
        self.time_step = Error::check_positive("time step", time_step)?;
        Ok(())
    }

    /// Simulated time so far (s): the sum of the time steps taken.
    pub fn global_time(&self) -> f32 {
        self.global_time
    }

    /// Sets the simulated time (s), e.g. when restoring a saved state.
    pub fn set_global_time(&mut self, time: f32) -> Result<(), Error> {
        self.global_time = Error::check_finite("global time", time)?;
        Ok(())
    }

    /// The instruction set the step's hot loops run with: the best this CPU supports, unless
    /// changed.
    pub fn instruction_set(&self) -> InstructionSet {
        self.instruction_set
    }

    /// Runs the step's hot loops with `set` (see [`crate::instruction_set`]). Every
    /// instruction set gives the same bits; this is for measuring them against each other.
    /// Fails, changing nothing, if this CPU does not support `set`.
    pub fn set_instruction_set(&mut self, set: InstructionSet) -> Result<(), Error> {
        if !set.is_supported() {
            return Err(Error::UnsupportedInstructionSet(set.name()));
        }
        self.instruction_set = set;
        Ok(())
    }

    /// The parameters new agents get from [`Simulator::add_agent`].
    pub fn agent_defaults(&self) -> AgentParams {
        self.defaults
    }

    /// Changes the parameters new agents get.
    pub fn set_agent_defaults(&mut self, defaults: AgentParams) -> Result<(), Error> {
        defaults.validate()?;
        self.defaults = defaults;
        Ok(())
    }

    // ----- agents -----

    /// Adds an agent with the default parameters, at rest. Returns its id.
    pub fn add_agent(&mut self, position: Vec2) -> Result<AgentId, Error> {
        self.add_agent_with(position, self.defaults)
    }

    /// Adds an agent with its own parameters, at rest. Returns its id.
    pub fn add_agent_with(&mut self, position: Vec2, params: AgentParams) -> Result<AgentId, Error> {
        Error::check_finite_vec("agent position", position)?;
        params.validate()?;
        if self.slots.len() >= (REMOVED - 1) as usize {
            return Err(Error::OutOfRange { what: "agent count", requirement: "below 2^32 - 1", value: f32::MAX });
        }
        let id = AgentId(self.slots.len() as u32);
        self.search_hints_valid = false;
        self.params_current = false;
        self.slots.push(self.ids.len() as u32);
        self.ids.push(id);
        self.positions.push(position);
        self.velocities.push(Vec2::ZERO);
        self.pref_velocities.push(Vec2::ZERO);
        self.params.push(params);
        self.responsibilities.push(RVO2_RESPONSIBILITY);
        self.max_accelerations.push(f32::INFINITY);
        self.avoidance_layers.push();
        if self.keeps_records() {
            self.records.push(AgentRecord::with_capacity(&params));
        }
        self.search_ranges.push(0.0);
        Ok(id)
    }

    /// Removes an agent. Every other agent keeps its id; the removed id is never reused.
    ///
    /// Costs O(n): agents stay packed in insertion order.
    pub fn remove_agent(&mut self, id: AgentId) -> Result<(), Error> {
        let dense = self.dense(id)?;
        self.search_hints_valid = false;
        self.params_current = false;
        self.slots[id.0 as usize] = REMOVED;
        for slot in &mut self.slots {
            if *slot != REMOVED && *slot > dense as u32 {
                *slot -= 1;
            }
        }
        self.ids.remove(dense);
        self.positions.remove(dense);
        self.velocities.remove(dense);
        self.pref_velocities.remove(dense);
        self.params.remove(dense);
        let weight = self.responsibilities.remove(dense);
        self.custom_weights -= usize::from(weight != RVO2_RESPONSIBILITY);
        self.limited_accelerations -= usize::from(self.max_accelerations.remove(dense).is_finite());
        self.avoidance_layers.remove(dense);
        if self.keeps_records() {
            self.records.remove(dense);
        }
        self.search_ranges.remove(dense);
        // Neighbour lists of the last step name dense indices, which just shifted.
        for record in &mut self.records {
            record.agent_neighbors.clear();
        }
        if dense < self.agent_tree.len() {
            self.agent_tree.remove(dense as u32);
        }
        Ok(())
    }

    /// The number of (live) agents.
    pub fn num_agents(&self) -> usize {
        self.ids.len()
    }

    /// The ids of the live agents, in insertion order.
    pub fn agent_ids(&self) -> &[AgentId] {
        &self.ids
    }

    /// Whether `id` names a live agent.
    pub fn contains_agent(&self, id: AgentId) -> bool {
        self.dense(id).is_ok()
    }

    fn dense(&self, id: AgentId) -> Result<usize, Error> {
        match self.slots.get(id.0 as usize) {
            Some(&slot) if slot != REMOVED => Ok(slot as usize),
            _ => Err(Error::UnknownAgent(id.0)),
        }
    }

    /// All positions (m), in the order of [`Simulator::agent_ids`].
    pub fn positions(&self) -> &[Vec2] {
        &self.positions
    }

    /// All velocities (m/s), in the order of [`Simulator::agent_ids`].
    pub fn velocities(&self) -> &[Vec2] {
        &self.velocities
    }

    /// All preferred velocities (m/s), in the order of [`Simulator::agent_ids`].
    pub fn pref_velocities(&self) -> &[Vec2] {
        &self.pref_velocities
    }

    /// Sets all preferred velocities at once, in the order of [`Simulator::agent_ids`].
    /// Nothing changes unless every value is finite and the length matches.
    pub fn set_pref_velocities(&mut self, values: &[Vec2]) -> Result<(), Error> {
        if values.len() != self.ids.len() {
            return Err(Error::OutOfRange {
                what: "preferred velocity count",
                requirement: "equal to the number of agents",
                value: values.len() as f32,
            });
        }
        for v in values {
            Error::check_finite_vec("preferred velocity", *v)?;
        }
        self.pref_velocities.copy_from_slice(values);
        Ok(())
    }

    /// An agent's position (m).
    pub fn agent_position(&self, id: AgentId) -> Result<Vec2, Error> {
        Ok(self.positions[self.dense(id)?])
    }

    /// Moves an agent (m).
    pub fn set_agent_position(&mut self, id: AgentId, position: Vec2) -> Result<(), Error> {
        let i = self.dense(id)?;
        self.positions[i] = Error::check_finite_vec("agent position", position)?;
        self.search_hints_valid = false;
        Ok(())
    }

    /// An agent's velocity (m/s).
    pub fn agent_velocity(&self, id: AgentId) -> Result<Vec2, Error> {
        Ok(self.velocities[self.dense(id)?])
    }

    /// Sets an agent's current velocity (m/s).
    pub fn set_agent_velocity(&mut self, id: AgentId, velocity: Vec2) -> Result<(), Error> {
        let i = self.dense(id)?;
        self.velocities[i] = Error::check_finite_vec("agent velocity", velocity)?;
        Ok(())
    }

    /// An agent's preferred velocity (m/s).
    pub fn agent_pref_velocity(&self, id: AgentId) -> Result<Vec2, Error> {
        Ok(self.pref_velocities[self.dense(id)?])
    }

    /// Sets the velocity an agent would take if nobody were around (m/s).
    pub fn set_agent_pref_velocity(&mut self, id: AgentId, velocity: Vec2) -> Result<(), Error> {
        let i = self.dense(id)?;
        self.pref_velocities[i] = Error::check_finite_vec("preferred velocity", velocity)?;
        Ok(())
    }

    /// An agent's parameters.
    pub fn agent_params(&self, id: AgentId) -> Result<AgentParams, Error> {
        Ok(self.params[self.dense(id)?])
    }

    /// Replaces an agent's parameters (validated first; nothing changes on error).
    pub fn set_agent_params(&mut self, id: AgentId, params: AgentParams) -> Result<(), Error> {
        let i = self.dense(id)?;
        params.validate()?;
        self.params[i] = params;
        self.search_hints_valid = false;
        self.params_current = false;
        Ok(())
    }

    /// Applies `change` to a copy of an agent's parameters and keeps the result if valid.
    fn update_params(&mut self, id: AgentId, change: impl FnOnce(&mut AgentParams)) -> Result<(), Error> {
        let mut params = self.agent_params(id)?;
        change(&mut params);
        self.set_agent_params(id, params)
    }

    /// Sets an agent's neighbour distance (m, ≥ 0).
    pub fn set_agent_neighbor_dist(&mut self, id: AgentId, value: f32) -> Result<(), Error> {
        self.update_params(id, |p| p.neighbor_dist = value)
    }

    /// Sets how many neighbours an agent considers at most.
    pub fn set_agent_max_neighbors(&mut self, id: AgentId, value: usize) -> Result<(), Error> {
        self.update_params(id, |p| p.max_neighbors = value)
    }

    /// Sets an agent's time horizon for other agents (s, > 0).
    pub fn set_agent_time_horizon(&mut self, id: AgentId, value: f32) -> Result<(), Error> {
        self.update_params(id, |p| p.time_horizon = value)
    }

    /// Sets an agent's time horizon for obstacles (s, > 0).
    pub fn set_agent_time_horizon_obst(&mut self, id: AgentId, value: f32) -> Result<(), Error> {
        self.update_params(id, |p| p.time_horizon_obst = value)
    }

    /// Sets an agent's radius (m, > 0).
    pub fn set_agent_radius(&mut self, id: AgentId, value: f32) -> Result<(), Error> {
        self.update_params(id, |p| p.radius = value)
    }

    /// Sets an agent's maximum speed (m/s, ≥ 0).
    pub fn set_agent_max_speed(&mut self, id: AgentId, value: f32) -> Result<(), Error> {
        self.update_params(id, |p| p.max_speed = value)
    }

    /// An agent's responsibility weight (RVO2: ½).
    pub fn agent_responsibility(&self, id: AgentId) -> Result<f32, Error> {
        Ok(self.responsibilities[self.dense(id)?])
    }

    /// Sets how much of the avoidance an agent takes on (finite, ≥ 0; RVO2 fixes ½ for all).
    /// Between agents with weights `a` and `b` the first takes `a / (a + b)` of the velocity
    /// change (`½` if both are 0); an agent with weight 0 facing one with a positive weight
    /// does not yield at all, and the other avoids alone.
    pub fn set_agent_responsibility(&mut self, id: AgentId, weight: f32) -> Result<(), Error> {
        let i = self.dense(id)?;
        let weight = Error::check_non_negative("responsibility", weight)?;
        let old = std::mem::replace(&mut self.responsibilities[i], weight);
        self.custom_weights =
            self.custom_weights + usize::from(weight != RVO2_RESPONSIBILITY) - usize::from(old != RVO2_RESPONSIBILITY);
        Ok(())
    }

    /// An agent's maximum acceleration (m/s²): `f32::INFINITY` (the default, RVO2's agents)
    /// when its velocity may change by any amount in a step.
    pub fn agent_max_acceleration(&self, id: AgentId) -> Result<f32, Error> {
        Ok(self.max_accelerations[self.dense(id)?])
    }

    /// Limits how fast an agent's velocity may change (m/s², > 0; `f32::INFINITY` lifts the
    /// limit): each step its new velocity stays within `max_acceleration · time_step` of its
    /// current one (of the current one brought back to its max speed, if it was faster), as
    /// game crowds and robots need (DetourCrowd's `maxAcceleration`; RVO2 has none).
    ///
    /// The limit is a regular octagon inscribed in that circle, given to the linear program
    /// as hard half-planes beside the obstacles': the velocity nearest the preferred one that
    /// ORCA permits within reach is chosen, and when ORCA asks for a larger change than the
    /// limit allows, the fallback program keeps the limit and violates the other agents' half-
    /// planes as little as it can — so an agent limited too tightly for its crowd can collide.
    /// The octagon's half-planes come first in [`Simulator::agent_half_planes`], after the
    /// obstacles', and [`Simulator::agent_obstacle_half_plane_count`] counts them with the
    /// obstacles' (the hard ones).
    pub fn set_agent_max_acceleration(&mut self, id: AgentId, value: f32) -> Result<(), Error> {
        let i = self.dense(id)?;
        if value.is_nan() || value <= 0.0 {
            return Err(Error::OutOfRange { what: "max acceleration", requirement: "greater than 0", value });
        }
        let old = std::mem::replace(&mut self.max_accelerations[i], value);
        self.limited_accelerations =
            self.limited_accelerations + usize::from(value.is_finite()) - usize::from(old.is_finite());
        Ok(())
    }

    /// An agent's avoidance layers: the bits other agents' masks look for (default
    /// [`DEFAULT_AVOIDANCE_LAYERS`](super::DEFAULT_AVOIDANCE_LAYERS), the first layer).
    pub fn agent_avoidance_layers(&self, id: AgentId) -> Result<u32, Error> {
        Ok(self.avoidance_layers.layers(self.dense(id)?))
    }

    /// An agent's avoidance mask: it avoids the agents whose layers share a bit with it
    /// (default [`DEFAULT_AVOIDANCE_MASK`](super::DEFAULT_AVOIDANCE_MASK), the first layer).
    pub fn agent_avoidance_mask(&self, id: AgentId) -> Result<u32, Error> {
        Ok(self.avoidance_layers.mask(self.dense(id)?))
    }

    /// Sets which layers an agent is on (beyond RVO2; Godot's `avoidance_layers`). Agent A
    /// avoids agent B when `A.mask & B.layers != 0`: A's neighbours are then the
    /// `max_neighbors` nearest agents it avoids, and the agents it ignores are not among them.
    /// When A avoids B but B ignores A, A takes the whole avoidance of B (B will not yield).
    /// Layers 0 put an agent on no layer: nobody avoids it. The defaults (layers 1, mask 1 for
    /// everyone) are RVO2 bit for bit.
    pub fn set_agent_avoidance_layers(&mut self, id: AgentId, layers: u32) -> Result<(), Error> {
        self.avoidance_layers.set_layers(self.dense(id)?, layers);
        self.search_hints_valid = false;
        Ok(())
    }

    /// Sets which layers an agent avoids (beyond RVO2; Godot's `avoidance_mask`; see
    /// [`Simulator::set_agent_avoidance_layers`]). Mask 0: the agent avoids no other agent
    /// (it still avoids obstacles and movers).
    pub fn set_agent_avoidance_mask(&mut self, id: AgentId, mask: u32) -> Result<(), Error> {
        self.avoidance_layers.set_mask(self.dense(id)?, mask);
        self.search_hints_valid = false;
        Ok(())
    }

    // ----- extensions and movers -----

    /// The options beyond RVO2 in force.
    pub fn extensions(&self) -> Extensions {
        self.extensions
    }

    /// Turns options beyond RVO2 on or off ([`Extensions::default`] is RVO2).
    pub fn set_extensions(&mut self, extensions: Extensions) -> Result<(), Error> {
        if let Some(o) = extensions.overlap_resolution {
            Error::check_non_negative("overlap margin", o.margin)?;
        }
        if let Some(s) = extensions.symmetry_breaking {
            Error::check_non_negative("symmetry cone", s.cone)?;
            Error::check_non_negative("symmetry jitter", s.jitter)?;
            Error::check_finite("symmetry turn", s.turn)?;
        }
        self.extensions = extensions;
        self.sync_records();
        Ok(())
    }

    /// Adds a non-cooperative mover that agents avoid with full responsibility.
    pub fn add_mover(&mut self, mover: Mover) -> Result<MoverId, Error> {
        Self::check_mover(&mover)?;
        self.movers.add(mover)
    }

    /// Updates a mover (typically every step, from a physics world or a script).
    pub fn set_mover(&mut self, id: MoverId, mover: Mover) -> Result<(), Error> {
        Self::check_mover(&mover)?;
        self.movers.set(id, mover)
    }

    /// Removes a mover; other movers keep their ids.
    pub fn remove_mover(&mut self, id: MoverId) -> Result<(), Error> {
        self.movers.remove(id)
    }

    /// A mover's state.
    pub fn mover(&self, id: MoverId) -> Result<Mover, Error> {
        self.movers.get(id)
    }

    /// The live movers, in the order they were added.
    pub fn movers(&self) -> &[Mover] {
        self.movers.live()
    }

    fn check_mover(mover: &Mover) -> Result<(), Error> {
        Error::check_finite_vec("mover position", mover.position)?;
        Error::check_finite_vec("mover velocity", mover.velocity)?;
        Error::check_positive("mover radius", mover.radius)?;
        Ok(())
    }

    // ----- what the last step decided -----

    /// Whether each step keeps what every agent saw and decided — its neighbours, half-planes
    /// and linear-program outcome — for [`Simulator::agent_neighbors`] and the other
    /// inspection methods below. Off by default: a step then writes nothing per agent but its
    /// new state, which at 100,000 agents saves about 25 MB of memory traffic per step and at
    /// 1,000,000 agents about 430 MiB of memory (peak 667 MiB recorded against 240 MiB, in
    /// BENCHMARKS.md). Turned on, the records fill from the next step on; turned off, they are
    /// freed.
    pub fn set_record_decisions(&mut self, record: bool) {
        self.record_decisions = record;
        self.sync_records();
    }

    /// Whether decisions are recorded (see [`Simulator::set_record_decisions`]).
    pub fn records_decisions(&self) -> bool {
        self.record_decisions
    }

    /// Whether every agent keeps its [`AgentRecord`]: when asked, and when overlap
    /// resolution needs the step's neighbour lists.
    fn keeps_records(&self) -> bool {
        self.record_decisions || self.extensions.overlap_resolution.is_some()
    }

    /// One record per agent when they are kept (empty until the next step), none otherwise.
    fn sync_records(&mut self) {
        if !self.keeps_records() {
            self.records = Vec::new();
        } else if self.records.len() != self.params.len() {
            self.records = self.params.iter().map(AgentRecord::with_capacity).collect();
        }
    }

    fn record(&self, id: AgentId) -> Result<&AgentRecord, Error> {
        let dense = self.dense(id)?;
        if !self.record_decisions {
            return Err(Error::DecisionsNotRecorded);
        }
        Ok(&self.records[dense])
    }

    /// The agents an agent took into account in the last step, nearest first.
    /// [`Error::DecisionsNotRecorded`] unless decisions are recorded.
    pub fn agent_neighbors(&self, id: AgentId) -> Result<impl ExactSizeIterator<Item = AgentId> + '_, Error> {
        Ok(self.record(id)?.agent_neighbors.iter().map(|n| self.ids[n.index as usize]))
    }

    /// The obstacle edges an agent took into account in the last step, nearest first, as
    /// indices into [`Simulator::obstacle_vertices`] (each edge runs from that vertex to its
    /// `next`).
    /// [`Error::DecisionsNotRecorded`] unless decisions are recorded.
    pub fn agent_obstacle_neighbors(&self, id: AgentId) -> Result<impl ExactSizeIterator<Item = u32> + '_, Error> {
        Ok(self.record(id)?.obstacle_neighbors.iter().map(|n| n.1))
    }

    /// The ORCA half-planes of an agent in the last step: first the obstacle ones
    /// ([`Simulator::agent_obstacle_half_plane_count`] of them), then one per agent neighbour.
    /// [`Error::DecisionsNotRecorded`] unless decisions are recorded.
    pub fn agent_half_planes(&self, id: AgentId) -> Result<&[HalfPlane], Error> {
        Ok(&self.record(id)?.half_planes)
    }

    /// How many of [`Simulator::agent_half_planes`] come from obstacles — and from the agent's
    /// acceleration limit, when it has one (the hard half-planes, which come first).
    /// [`Error::DecisionsNotRecorded`] unless decisions are recorded.
    pub fn agent_obstacle_half_plane_count(&self, id: AgentId) -> Result<usize, Error> {
        Ok(self.record(id)?.obstacle_half_plane_count)
    }

    /// How many of the hard half-planes counted by
    /// [`Simulator::agent_obstacle_half_plane_count`] are the agent's acceleration limit (the
    /// last of them, after the obstacles'): 8 when it had a limit in the last step, else 0.
    /// [`Error::DecisionsNotRecorded`] unless decisions are recorded.
    pub fn agent_acceleration_half_plane_count(&self, id: AgentId) -> Result<usize, Error> {
        Ok(self.record(id)?.acceleration_half_plane_count)
    }

    /// Which linear program decided the agent's velocity in the last step.
    /// [`Error::DecisionsNotRecorded`] unless decisions are recorded.
    pub fn agent_lp_outcome(&self, id: AgentId) -> Result<LpOutcome, Error> {
        Ok(self.record(id)?.outcome)
    }

    // ----- obstacles -----

    /// Adds an obstacle polygon (RVO2's convention: counter-clockwise vertices make a solid
    /// obstacle, clockwise ones a boundary enclosing the agents; two vertices make a thin
    /// wall). Agents see it after the next [`Simulator::process_obstacles`]. Ids are handed
    /// out in order (0, 1, 2, …) and never reused, so removing an obstacle
    /// ([`Simulator::remove_obstacle`]) leaves every other id valid.
    ///
    /// Errors (nothing is added): fewer than 2 vertices, non-finite coordinates, repeated
    /// consecutive vertices, crossing edges.
    pub fn add_obstacle(&mut self, vertices: &[Vec2]) -> Result<ObstacleId, Error> {
        validate_polygon(vertices)?;
        if self.obstacle_slots.len() >= REMOVED as usize {
            return Err(Error::OutOfRange { what: "obstacle count", requirement: "below 2^32 - 1", value: f32::MAX });
        }
        let id = ObstacleId(self.obstacle_slots.len() as u32);
        // RVO2 appends the vertices to its one obstacle list, after the vertices earlier
        // processing added by splitting edges.
        let pending: usize = self.polygons[self.processed_polygons..].iter().map(Vec::len).sum();
        self.first_vertices.push(self.obstacle_tree.vertices().len() + pending);
        self.obstacle_slots.push(self.polygons.len() as u32);
        self.obstacle_ids.push(id);
        self.polygons.push(vertices.to_vec());
        Ok(id)
    }

    /// Builds the obstacle tree over every obstacle added so far. Call after adding obstacles
    /// and before stepping (as in RVO2); until then agents ignore new obstacles.
    ///
    /// As in RVO2, processing again builds over the edges as the last build left them (split
    /// where that build cut them) followed by the obstacles added since, so a program that adds
    /// obstacles and processes them more than once gets RVO2's tree, vertex numbers and motion.
    /// After [`Simulator::remove_obstacle`] of a processed obstacle, "the last build" is the
    /// one the removal made.
    pub fn process_obstacles(&mut self) {
        self.obstacle_tree.rebuild_with(&self.polygons[self.processed_polygons..]);
        self.processed_polygons = self.polygons.len();
        self.obstacle_grid_reach = None;
    }

    /// Removes an obstacle; every other obstacle keeps its id, and the removed id is never
    /// reused. RVO2 has no such call (a door opens, a wall falls, a parked vehicle leaves).
    ///
    /// Takes effect at once: no [`Simulator::process_obstacles`] is needed (calling it
    /// anyway builds again over the current edges, as a second call does in RVO2).
    ///
    /// - **A processed obstacle** leaves the obstacle tree now: the tree is built again, in
    ///   one build, from the original polygons of the remaining processed obstacles in id
    ///   order, exactly as a fresh simulator to which those polygons are added and then
    ///   processed once builds it. Edges that earlier builds split (see
    ///   [`Simulator::process_obstacles`]) are whole again before this build, which may split
    ///   them anew; vertex numbers ([`Simulator::obstacle_vertices`],
    ///   [`Simulator::obstacle_first_vertex`]) are that fresh simulator's. Obstacles added but
    ///   not processed yet stay pending, numbered after the new tree's vertices. So from now
    ///   on the simulator steps bit for bit as a fresh simulator with the same agents that
    ///   was given the remaining processed obstacles, `process_obstacles`, then the remaining
    ///   pending ones (up to the order of agents at equal distances, which RVO2's agent tree
    ///   keeps from step to step). Each agent's recorded obstacle neighbours
    ///   ([`Simulator::agent_obstacle_neighbors`]) named vertices of the old numbering and
    ///   are emptied until the next step; its recorded half-planes and outcome stay what the
    ///   last step decided. Costs what processing the remaining obstacles costs; the next
    ///   step rebuilds the obstacle grid.
    /// - **An obstacle not processed yet** is dropped as if it had never been added: the tree,
    ///   the vertex numbers and the motion stay as they are, and the pending obstacles added
    ///   after it number their first vertex as they would have without it.
    ///
    /// [`Error::UnknownObstacle`] (and nothing changes) if `id` was never added or is
    /// already removed.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<(), Error> {
        let index = self.obstacle_index(id)?;
        self.obstacle_slots[id.0 as usize] = REMOVED;
        for slot in &mut self.obstacle_slots[id.0 as usize + 1..] {
            // (Later ids come later in `polygons`: one place earlier now.)
            if *slot != REMOVED {
                *slot -= 1;
            }
        }
        self.obstacle_ids.remove(index);
        self.first_vertices.remove(index);
        let removed = self.polygons.remove(index);
        if index >= self.processed_polygons {
            // Only the pending obstacles after it move up in RVO2's list.
            for first in &mut self.first_vertices[index..] {
                *first -= removed.len();
            }
            return Ok(());
        }
        self.processed_polygons -= 1;
        self.obstacle_tree = ObstacleTree::build(&self.polygons[..self.processed_polygons]);
        // One build numbers the polygons' own vertices in order, then the split ones; the
        // pending polygons follow.
        let mut next = 0;
        for (k, polygon) in self.polygons.iter().enumerate() {
            if k == self.processed_polygons {
                next = self.obstacle_tree.vertices().len();
            }
            self.first_vertices[k] = next;
            next += polygon.len();
        }
        // The grid lists edges by the old vertex numbers: dropped, and built again from the
        // new tree by the next step (if any edge is left).
        self.obstacle_grid = ObstacleGrid::new();
        self.obstacle_grid_reach = None;
        for record in &mut self.records {
            // (`clear` keeps the capacity: the next step does not allocate for it.)
            record.obstacle_neighbors.clear();
        }
        Ok(())
    }

    /// The ids of the obstacles not removed, in the order they were added.
    pub fn obstacle_ids(&self) -> &[ObstacleId] {
        &self.obstacle_ids
    }

    /// Whether `id` names an obstacle that was added and not removed (processed or not).
    pub fn contains_obstacle(&self, id: ObstacleId) -> bool {
        self.obstacle_index(id).is_ok()
    }

    /// `id`'s place in `polygons` (and the lists parallel to it).
    fn obstacle_index(&self, id: ObstacleId) -> Result<usize, Error> {
        match self.obstacle_slots.get(id.0 as usize) {
            Some(&slot) if slot != REMOVED => Ok(slot as usize),
            _ => Err(Error::UnknownObstacle(id.0)),
        }
    }

    /// The polygons of the obstacles not removed, as added, in the order of
    /// [`Simulator::obstacle_ids`] (processed or not). Without removals, obstacle `id` is at
    /// index `id`.
    pub fn obstacle_polygons(&self) -> &[Vec<Vec2>] {
        &self.polygons
    }

    /// One obstacle's polygon, as added. [`Error::UnknownObstacle`] if `id` was never added
    /// or is removed.
    pub fn obstacle_polygon(&self, id: ObstacleId) -> Result<&[Vec2], Error> {
        Ok(&self.polygons[self.obstacle_index(id)?])
    }

    /// Index in RVO2's obstacle vertex list of an obstacle's first vertex (RVO2's return
    /// value of `addObstacle`): the vertices of the obstacles added before it, and those that
    /// processing added by splitting edges before it was added. Once processed, it indexes
    /// [`Simulator::obstacle_vertices`]. Removing a processed obstacle renumbers the others
    /// (see [`Simulator::remove_obstacle`]). [`Error::UnknownObstacle`] if `id` was never
    /// added or is removed.
    pub fn obstacle_first_vertex(&self, id: ObstacleId) -> Result<usize, Error> {
        Ok(self.first_vertices[self.obstacle_index(id)?])
    }

    /// The processed obstacle vertices (empty before [`Simulator::process_obstacles`]),
    /// including those added by splitting edges in the tree build. Each vertex's `polygon`
    /// is its obstacle's index in [`Simulator::obstacle_polygons`] (and
    /// [`Simulator::obstacle_ids`]). Empty again once every processed obstacle is removed.
    pub fn obstacle_vertices(&self) -> &[ObstacleVertex] {
        self.obstacle_tree.vertices()
    }

    /// Whether a disc of `radius` (m) can travel from `from` to `to` without hitting a
    /// processed obstacle (RVO2's `queryVisibility`); a removed obstacle blocks nothing from
    /// its removal on.
    pub fn query_visibility(&self, from: Vec2, to: Vec2, radius: f32) -> bool {
        self.obstacle_tree.is_visible(from, to, radius)
    }

    // ----- stepping -----

    /// Advances the simulation by one time step: every agent picks its new velocity from
    /// the state at the start of the step, then all move. Never fails and, once warmed up,
    /// does not allocate (per-agent buffers are reused). One caveat from rayon: when a large
    /// crowd is stepped from a thread outside any rayon pool, rayon's job injector allocates
    /// one small block every 63 steps; call `step` inside `ThreadPool::install` to avoid it.
    pub fn step(&mut self) {
        let n = self.positions.len();
        let cell_size = self.grid_cell_size();
        if !self.params_current {
            self.radii.clear();
            self.radii.extend(self.params.iter().map(|p| p.radius));
            self.common_radius = self.radii.first().copied().filter(|&r| self.radii.iter().all(|&other| other == r));
            self.common_params = self.params.first().copied().filter(|p| self.params.iter().all(|other| other == p));
            self.max_obstacle_range = self.params.iter().map(AgentParams::obstacle_range).fold(0.0, f32::max);
            self.params_current = true;
        }
        // (Built for the largest range asked so far: it may answer none, see
        // `ObstacleGrid::build`, and is then not rebuilt every step.)
        let max_range = self.max_obstacle_range;
        if !self.obstacle_tree.is_empty() && !matches!(self.obstacle_grid_reach, Some(reach) if reach >= max_range) {
            self.obstacle_grid = ObstacleGrid::build(self.obstacle_tree.vertices(), max_range);
            self.obstacle_grid_reach = Some(max_range);
        }
        self.avoidance_layers.prepare();
        let agents = AgentArrays {
            positions: &self.positions,
            velocities: &self.velocities,
            pref_velocities: &self.pref_velocities,
            search_ranges: &self.search_ranges,
            radii: &self.radii,
            common_radius: self.common_radius,
        };
        let positions = agents.positions;
        let (slot_data, staging) = (&mut self.slot_data, &mut self.slot_staging);
        let (tree, grid) = (&mut self.agent_tree, &mut self.neighbor_grid);
        // The grid's counting sort, laying out each agent's data in its slot on the way,
        // overlaps the tree's build.
        let mut grid_and_slots = || {
            slot_data.resize(n, agents.common_radius.is_none());
            let payload = |agent| agents.payload(agent);
            let place = |slot, position, payload| slot_data.place(slot, position, payload);
            if !grid.rebuild_unless_coarse_placing(positions, cell_size, staging, payload, place) {
                // Slots are agents.
                (0..n).for_each(|agent| slot_data.place(agent, positions[agent], agents.payload(agent)));
            }
        };
        // The tree's places let it order tied agents without a whole query; noting them
        // costs a pass over the crowd, paid when the last step had ties in one query of a
        // hundred or more (a ring, a lattice: about one in ten at circle 100,000; hardly ever
        // in a random crowd, whose rare ties are then answered by whole queries).
        let index_places = 100 * (self.tie_answers[0] + self.tie_answers[1]) >= n;
        let mut rebuild_tree = || {
            tree.rebuild(positions);
            if index_places {
                tree.index_places();
            }
        };
        if n >= PARALLEL_THRESHOLD {
            rayon::join(rebuild_tree, grid_and_slots);
        } else {
            rebuild_tree();
            grid_and_slots();
        }
        let order = SlotOrder::of(&self.neighbor_grid);
        if self.avoidance_layers.view().is_some() && matches!(order, SlotOrder::Cells { .. }) {
            self.avoidance_layers.arrange_by_slot(self.neighbor_grid.agents_by_slot());
        }
        let by_agent = !self.records.is_empty();
        let decisions_by_slot = !by_agent && self.neighbor_grid.was_staged();
        self.decisions.resize_with(n, DecisionCell::default);
        let context = StepContext {
            order,
            by_agent,
            positions: &self.positions,
            pref_velocities: &self.pref_velocities,
            params: &self.params,
            slot_data: &self.slot_data,
            common_radius: self.common_radius,
            common_params: self.common_params,
            agent_tree: &self.agent_tree,
            neighbor_grid: &self.neighbor_grid,
            obstacle_tree: &self.obstacle_tree,
            obstacle_grid: &self.obstacle_grid,
            time_step: self.time_step,
            hint_growth: if self.search_hints_valid { Some(2.0 * self.max_displacement) } else { None },
            responsibilities: &self.responsibilities,
            rvo2_shares: self.custom_weights == 0 && self.avoidance_layers.view().is_none(),
            layers: self.avoidance_layers.view(),
            max_accelerations: if self.limited_accelerations > 0 { Some(&self.max_accelerations) } else { None },
            movers: self.movers.live(),
            extensions: self.extensions,
            ids: &self.ids,
            step_number: self.step_number,
            avx2: Avx2Detected::for_set(self.instruction_set),
            decisions: &self.decisions,
            decisions_by_slot,
        };
        // Every agent decides (into its record too, when kept), and the ties are counted on
        // the way (sums: exact in any order, so threads cannot change them). Agents go slot
        // after slot, unless records are kept: those are in agent order (what the inspection
        // methods and overlap resolution read), and the agents then go in agent order too, so
        // that each writes its own record. Each decision is stored by agent (by slot in a
        // scattered crowd).
        let records = &mut self.records;
        let decide = |run: usize, records: &mut [AgentRecord]| {
            let first = run * DECISION_RUN;
            decide_run(&context, first..n.min(first + DECISION_RUN), records)
        };
        let add = |[a, b]: [usize; 2], [c, d]: [usize; 2]| [a + c, b + d];
        let ties = match (n >= PARALLEL_THRESHOLD, records.is_empty()) {
            (false, _) => decide_run(&context, 0..n, records),
            (true, false) => {
                let runs = records.par_chunks_mut(DECISION_RUN).enumerate();
                runs.map(|(run, records)| decide(run, records)).reduce(|| [0; 2], add)
            }
            (true, true) => {
                let runs = (0..n.div_ceil(DECISION_RUN)).into_par_iter();
                runs.map(|run| decide(run, &mut [])).reduce(|| [0; 2], add)
            }
        };
        // Move everyone in agent order, each reading its decision, keep each search radius
        // as the next step's hint, and note the largest step (it bounds how far search radii
        // can grow; a maximum, exact in any order).
        let time_step = self.time_step;
        let (positions, velocities, search_ranges) =
            (&mut self.positions, &mut self.velocities, &mut self.search_ranges);
        let max_step_squared = if decisions_by_slot {
            // Reading each agent's decision from its slot would land far from the last read
            // every time (a million agents on 2 threads: 13–28 ms, against 3 in order). The
            // decisions go first, in slot order, into buckets of consecutive agents, and each
            // bucket moves its agents in cache (the whole step's per-step minima 6 % lower
            // than with the reads scattered).
            let staging = &mut self.move_staging;
            staging.resize(n, (0, Decision::default()));
            let bucket_start = &mut self.move_bucket_start;
            bucket_start.clear();
            bucket_start.extend((0..n.div_ceil(MOVE_BUCKET)).map(|b| (b * MOVE_BUCKET) as u32));
            for (&agent, decision) in self.neighbor_grid.agents_by_slot().iter().zip(&self.decisions) {
                let cursor = &mut bucket_start[agent as usize / MOVE_BUCKET];
                staging[*cursor as usize] = (agent, decision.load());
                *cursor += 1;
            }
            let buckets = positions.par_chunks_mut(MOVE_BUCKET).zip(velocities.par_chunks_mut(MOVE_BUCKET));
            let buckets = buckets.zip(search_ranges.par_chunks_mut(MOVE_BUCKET)).zip(staging.par_chunks(MOVE_BUCKET));
            type Bucket<'a> = (usize, (((&'a mut [Vec2], &'a mut [Vec2]), &'a mut [f32]), &'a [(u32, Decision)]));
            let move_bucket = |(bucket, (((positions, velocities), search_ranges), staged)): Bucket<'_>| {
                let first = bucket * MOVE_BUCKET;
                let step = |max: f32, &(agent, decision): &(u32, Decision)| {
                    let k = agent as usize - first;
                    max.max(advance(&mut positions[k], &mut velocities[k], &mut search_ranges[k], decision, time_step))
                };
                staged.iter().fold(0.0, step)
            };
            buckets.enumerate().map(move_bucket).reduce(|| 0.0, f32::max)
        } else {
            let advance_agent = |max_step_squared: f32,
                                 (((position, velocity), search_range), decision): (
                ((&mut Vec2, &mut Vec2), &mut f32),
                &DecisionCell,
            )| {
                max_step_squared.max(advance(position, velocity, search_range, decision.load(), time_step))
            };
            let agents = (positions, velocities, search_ranges, &self.decisions);
            if n >= PARALLEL_THRESHOLD {
                let agents = agents.0.par_iter_mut().zip(agents.1).zip(agents.2).zip(agents.3);
                agents.with_min_len(4096).fold(|| 0.0, advance_agent).reduce(|| 0.0, f32::max)
            } else {
                agents.0.iter_mut().zip(agents.1).zip(agents.2).zip(agents.3).fold(0.0, advance_agent)
            }
        };
        self.tie_answers = ties;
        self.max_displacement = max_step_squared.sqrt();
        self.search_hints_valid = true;
        if let Some(resolution) = self.extensions.overlap_resolution {
            self.resolve_overlaps(resolution);
        }
        // A sample is enough to size the next step's grid cells.
        let sample = self.decisions.iter().step_by(16).map(|d| d.load().search_range as f64).map(|r| r * r);
        let (sum, count) = sample.fold((0.0, 0usize), |(s, c), r| (s + r, c + 1));
        if count > 0 {
            self.mean_search_range_squared = (sum / count as f64) as f32;
        }
        self.global_time += self.time_step;
        self.step_number += 1;
    }

    /// [`OverlapResolution`]: push overlapping agents apart, never into obstacles.
    ///
    /// The candidates for overlapping an agent are its ORCA neighbours of this step (the
    /// nearest ones, found before everyone moved by at most `max_speed · dt`): no extra
    /// neighbour search, so a round costs about ten distance checks per agent.
    fn resolve_overlaps(&mut self, resolution: OverlapResolution) {
        let n = self.positions.len();
        self.corrections.resize(n, Vec2::ZERO);
        for _ in 0..resolution.passes {
            let context = OverlapContext {
                positions: &self.positions,
                params: &self.params,
                records: &self.records,
                obstacle_tree: &self.obstacle_tree,
                scale: 1.0 + resolution.margin,
                layers: self.avoidance_layers.view(),
                movers: self.movers.live(),
                time_step: self.time_step,
            };
            let correct = |(i, c): (usize, &mut Vec2)| *c = context.correction(i);
            if n >= PARALLEL_THRESHOLD {
                self.corrections.par_iter_mut().enumerate().with_min_len(256).for_each(correct);
            } else {
                self.corrections.iter_mut().enumerate().for_each(correct);
            }
            let mut largest_squared = 0.0f32;
            for (p, c) in self.positions.iter_mut().zip(&self.corrections) {
                *p += *c;
                largest_squared = largest_squared.max(c.length_squared());
            }
            if largest_squared == 0.0 {
                break;
            }
            // Corrections move agents too: the next step's search hint must cover them.
            self.max_displacement += largest_squared.sqrt();
        }
    }

    /// How many agents' neighbour queries in the last step met distance ties, whose order
    /// only RVO2's k-d tree knows (a diagnostic; results are identical either way). Most are
    /// settled by asking the tree which of the tied agents it visits first
    /// ([`AgentKdTree::visits_before`]); the rest, [`Simulator::tie_tree_queries`], by a
    /// whole tree query.
    pub fn tie_fallbacks(&self) -> usize {
        self.tie_answers[0] + self.tie_answers[1]
    }

    /// How many of the last step's [`Simulator::tie_fallbacks`] were answered by a whole
    /// query of RVO2's k-d tree: groups of more than eight equal distances, ties met while a
    /// long candidate list was cut short, and every tie of a step after one with ties in
    /// fewer than one query of a hundred (the tree's places are then not noted).
    pub fn tie_tree_queries(&self) -> usize {
        self.tie_answers[1]
    }

    /// The neighbour grid's cell size: half the typical search radius of the last step (the
    /// distance to the farthest neighbour kept, or the neighbour distance when fewer were
    /// found), so that a query usually spans three of the grid's rows (each twice the cell
    /// size tall). Before the first step: the mean agent spacing over the crowd's bounding
    /// box.
    fn grid_cell_size(&self) -> f32 {
        if self.mean_search_range_squared > 0.0 {
            return 0.5 * self.mean_search_range_squared.sqrt();
        }
        let n = self.positions.len().max(1) as f32;
        let (mut min, mut max) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for p in &self.positions {
            min = min.min(*p);
            max = max.max(*p);
        }
        let extent = (max - min).max(Vec2::splat(1e-3));
        (extent.x * extent.y / n).sqrt()
    }
}

/// Scratch space of the decide loop, one per thread (rather than per agent), grown to the
/// largest need and then reused.
#[derive(Default)]
struct Scratch {
    /// The grid query's candidate list and row spans.
    query: QueryScratch,
    /// Linear program 3's projected half-planes.
    projected: Vec<HalfPlane>,
}

/// A thread's scratch for the decide loop, and its spare record: what each agent saw and
/// decided when records are not kept (one agent after another, so that it stays in cache).
#[derive(Default)]
struct ThreadScratch {
    scratch: Scratch,
    spare_record: AgentRecord,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<ThreadScratch> = std::cell::RefCell::default();
}

/// The order a step decides the agents in, one slot after another.
///
/// The grid's cell order keeps agents that are near each other in space near each other in
/// memory, whatever order they were added in: each agent's neighbours are then mostly in
/// cache, where in agent order a crowd added at random fetches each one from memory (jgrid
/// 1,000,000 added in random order, 2 threads: median step 945 ms in agent order, 349 ms in
/// grid order; docs/orca-performance-log.md, seventh round). Ids and agent order stay as they
/// are; only the step's scratch is in slots.
#[derive(Clone, Copy)]
enum SlotOrder<'a> {
    /// Slot `i` holds agent `i` (when the grid is not filled: a crowd so spread out that even
    /// the grid's sparse layout would need too many rows, whose queries the tree answers).
    Agents,
    /// The grid's cell order ([`NeighborGrid::agents_by_slot`]).
    Cells {
        /// The agent in each slot.
        agent_of: &'a [u32],
        /// Each agent's slot.
        slot_of: &'a [u32],
    },
}

impl SlotOrder<'_> {
    /// The order of a step over `grid` (just rebuilt): its cell order when filled.
    fn of(grid: &NeighborGrid) -> SlotOrder<'_> {
        if grid.is_filled() {
            SlotOrder::Cells { agent_of: grid.agents_by_slot(), slot_of: grid.slot_of_agents() }
        } else {
            SlotOrder::Agents
        }
    }

    /// The agent in `slot`.
    #[inline(always)]
    fn agent(self, slot: usize) -> usize {
        match self {
            SlotOrder::Agents => slot,
            SlotOrder::Cells { agent_of, .. } => agent_of[slot] as usize,
        }
    }

    /// The slot of `agent`.
    #[inline(always)]
    fn slot(self, agent: usize) -> usize {
        match self {
            SlotOrder::Agents => agent,
            SlotOrder::Cells { slot_of, .. } => slot_of[agent] as usize,
        }
    }
}

/// The agent-order arrays a step lays out by slot.
struct AgentArrays<'a> {
    positions: &'a [Vec2],
    velocities: &'a [Vec2],
    pref_velocities: &'a [Vec2],
    search_ranges: &'a [f32],
    radii: &'a [f32],
    common_radius: Option<f32>,
}

impl AgentArrays<'_> {
    /// What `agent`'s slot needs of it besides its position.
    #[inline(always)]
    fn payload(&self, agent: usize) -> SlotPayload {
        SlotPayload {
            velocity: self.velocities[agent],
            own: OwnState { preferred: self.pref_velocities[agent], search_range: self.search_ranges[agent] },
            radius: if self.common_radius.is_none() { self.radii[agent] } else { 0.0 },
        }
    }
}

impl SlotData {
    /// Sizes the slot arrays for `n` agents (radii only if `each_radius`).
    fn resize(&mut self, n: usize, each_radius: bool) {
        self.motions.resize(n, f32x4::ZERO);
        self.own.resize(n, OwnState::default());
        self.radii.resize(if each_radius { n } else { 0 }, 0.0);
    }

    /// Writes an agent's data, at `position`, into `slot`. (Called by the grid's counting sort
    /// as it places each agent, so that in grid order the data is laid out in the same pass.)
    #[inline(always)]
    fn place(&mut self, slot: usize, position: Vec2, payload: SlotPayload) {
        let (p, v) = (position, payload.velocity);
        self.motions[slot] = f32x4::new([p.x, p.y, v.x, v.y]);
        self.own[slot] = payload.own;
        if !self.radii.is_empty() {
            self.radii[slot] = payload.radius;
        }
    }
}

/// The read-only state one step decides from.
struct StepContext<'a> {
    /// Which agent each slot holds.
    order: SlotOrder<'a>,
    /// Whether the decide loop goes in agent order (records kept) rather than slot order.
    by_agent: bool,
    positions: &'a [Vec2],
    pref_velocities: &'a [Vec2],
    params: &'a [AgentParams],
    /// `Simulator::slot_data`.
    slot_data: &'a SlotData,
    /// `Simulator::common_radius`.
    common_radius: Option<f32>,
    /// `Simulator::common_params`.
    common_params: Option<AgentParams>,
    agent_tree: &'a AgentKdTree,
    neighbor_grid: &'a NeighborGrid,
    obstacle_tree: &'a ObstacleTree,
    obstacle_grid: &'a ObstacleGrid,
    time_step: f32,
    /// When every agent moved at most `d` since the last step and nothing else changed:
    /// `Some(2 d)`, the most any agent's k-th neighbour distance can have grown.
    hint_growth: Option<f32>,
    responsibilities: &'a [f32],
    /// Whether every agent has RVO2's weight and avoids every other, so that every share is ½.
    rvo2_shares: bool,
    /// Who avoids whom, when any agent's layers or mask are not the defaults.
    layers: Option<LayerView<'a>>,
    /// Each agent's maximum acceleration, when any agent has a finite one.
    max_accelerations: Option<&'a [f32]>,
    movers: &'a [Mover],
    extensions: Extensions,
    ids: &'a [AgentId],
    step_number: u64,
    /// Present when the hot loops run their AVX2 copies (see [`crate::instruction_set`]).
    avx2: Option<Avx2Detected>,
    /// Where each agent's decision goes.
    decisions: &'a [DecisionCell],
    /// Whether the decisions go by slot rather than by agent: when the grid staged its fill
    /// (`NeighborGrid::was_staged`), the crowd's agent order says little of where agents
    /// are, and stores by agent would each land far from the last (a million agents on 2
    /// threads: the decisions 50–60 ms slower).
    decisions_by_slot: bool,
}

/// An agent's move by its `decision`: its new velocity and position, and the search radius
/// kept as the next query's hint. Returns the squared length of the step taken.
#[inline(always)]
fn advance(
    position: &mut Vec2,
    velocity: &mut Vec2,
    search_range: &mut f32,
    decision: Decision,
    time_step: f32,
) -> f32 {
    // The step from the decision itself, not read back from `velocity`: just stored
    // there, as two lanes, it could not be forwarded to one wide load.
    let step = decision.velocity * time_step;
    *velocity = decision.velocity;
    *search_range = decision.search_range;
    *position += step;
    step.length_squared()
}

/// Consecutive agents moved together by a staged move (see [`Simulator::step`]): their
/// positions, velocities and search radii stay in cache while the bucket is moved.
const MOVE_BUCKET: usize = 4096;

/// Agents decided one after another by one task of the parallel step.
const DECISION_RUN: usize = 64;

/// Decides the agents at `run` of the loop's order (slots, or agents when records are kept;
/// see [`StepContext::decide`]), in order, into their records (`records` is either as long
/// as `run` or empty: records not kept), and returns how many neighbour queries met ties:
/// `[ordered, whole tree queries]` ([`TieAnswer`]). Runs the AVX2 copy when the step asks
/// for it, and a copy of its own when avoidance layers are in use (so that the crowds without
/// them run a loop with no trace of the layers: about 20 instructions an agent).
fn decide_run(context: &StepContext<'_>, run: Range<usize>, records: &mut [AgentRecord]) -> [usize; 2] {
    match (context.layers.is_some(), context.avx2) {
        (false, Some(proof)) => decide_run_avx2(proof, context, run, records),
        (false, None) => decide_run_inline::<false>(context, run, records),
        (true, Some(proof)) => decide_run_layered_avx2(proof, context, run, records),
        (true, None) => decide_run_inline::<true>(context, run, records),
    }
}

avx2_copy! {
    /// [`decide_run_inline`] compiled for AVX2.
    fn decide_run_avx2<'a>(
        context: &StepContext<'a>,
        run: Range<usize>,
        records: &mut [AgentRecord],
    ) -> [usize; 2] = decide_run_inline::<false>;
}

avx2_copy! {
    /// [`decide_run_inline`] with avoidance layers, compiled for AVX2.
    fn decide_run_layered_avx2<'a>(
        context: &StepContext<'a>,
        run: Range<usize>,
        records: &mut [AgentRecord],
    ) -> [usize; 2] = decide_run_inline::<true>;
}

/// [`decide_run`]'s work, inlined into each copy. `LAYERED`: avoidance layers are in use.
#[inline(always)]
fn decide_run_inline<const LAYERED: bool>(
    context: &StepContext<'_>,
    run: Range<usize>,
    records: &mut [AgentRecord],
) -> [usize; 2] {
    // Taken out of the thread-local for the run and put back, rather than borrowed by a
    // closure around each agent's query and linear programs.
    let mut thread = SCRATCH.with_borrow_mut(std::mem::take);
    let ThreadScratch { scratch, spare_record } = &mut thread;
    let mut ties = [0; 2];
    for (k, index) in run.enumerate() {
        let record = match records.get_mut(k) {
            Some(record) => record,
            None => &mut *spare_record,
        };
        match context.decide::<LAYERED>(index, record, scratch) {
            TieAnswer::NoTie => {}
            TieAnswer::Ordered => ties[0] += 1,
            TieAnswer::TreeQuery => ties[1] += 1,
        }
    }
    SCRATCH.with_borrow_mut(|kept| *kept = thread);
    ties
}

/// How a neighbour query dealt with distance ties.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TieAnswer {
    /// None competed: the grid's answer.
    NoTie,
    /// The grid's candidates, tied ones in the k-d tree's visiting order.
    Ordered,
    /// A whole query of the k-d tree.
    TreeQuery,
}

/// The read-only state of one overlap-resolution round.
struct OverlapContext<'a> {
    positions: &'a [Vec2],
    params: &'a [AgentParams],
    records: &'a [AgentRecord],
    obstacle_tree: &'a ObstacleTree,
    /// `1 + margin`: pairs are separated to this multiple of their radii's sum.
    scale: f32,
    /// Who avoids whom (avoidance layers), when not everyone everyone.
    layers: Option<LayerView<'a>>,
    /// The movers as the step began; they go on along their velocity for `time_step`.
    movers: &'a [Mover],
    time_step: f32,
}

impl OverlapContext<'_> {
    /// Agent `i`'s push away from every neighbour closer than the kept clearance (half of the
    /// shortfall, the neighbour doing the other half; all of it from a neighbour that ignores
    /// `i`, and from a mover), or zero when that push would cross an obstacle edge or bring it
    /// closer than its radius to one.
    fn correction(&self, i: usize) -> Vec2 {
        let p = self.positions[i];
        let radius = self.params[i].radius;
        let mut push = Vec2::ZERO;
        for n in &self.records[i].agent_neighbors {
            let j = n.index as usize;
            let combined = (radius + self.params[j].radius) * self.scale;
            let d = p - self.positions[j];
            let distance_squared = d.length_squared();
            if distance_squared >= combined * combined {
                continue;
            }
            let distance = distance_squared.sqrt();
            // Coincident centres: separate along a direction fixed by the indices, so that the
            // two agents move apart (opposite directions) deterministically.
            let normal = if distance > 0.0 {
                d / distance
            } else if (i as u32) < n.index {
                Vec2::X
            } else {
                Vec2::NEG_X
            };
            let share = match self.layers {
                Some(layers) if layers.ignores(j, i) => 1.0,
                _ => 0.5,
            };
            push += normal * (share * (combined - distance));
        }
        // A mover takes no share: all of the shortfall is the agent's. It is where its
        // velocity takes it by the step's end (where the agents expected it).
        for mover in self.movers {
            let combined = (radius + mover.radius) * self.scale;
            let d = p - (mover.position + mover.velocity * self.time_step);
            let distance_squared = d.length_squared();
            if distance_squared >= combined * combined || !distance_squared.is_finite() {
                continue;
            }
            let distance = distance_squared.sqrt();
            let normal = if distance > 0.0 { d / distance } else { Vec2::X };
            push += normal * (combined - distance);
        }
        // No obstacle edge within the agent's obstacle range this step (which is far wider
        // than any push): nothing to check.
        if push == Vec2::ZERO || self.records[i].obstacle_neighbors.is_empty() {
            return push;
        }
        let target = p + push;
        // Never across an edge, and never deeper into an obstacle than the agent already is.
        if !self.obstacle_tree.is_visible(p, target, 0.0) {
            return Vec2::ZERO;
        }
        let clearance = |c: Vec2| self.obstacle_tree.clearance(c, radius + push.length());
        if clearance(target) < radius.min(clearance(p)) {
            return Vec2::ZERO;
        }
        push
    }
}

impl StepContext<'_> {
    /// A batch of one to four neighbours (named by slot) of agent `me` of weight `mine`, their
    /// radii scaled by `radius_scale`; unused lanes repeat the last one. `LAYERED`: avoidance
    /// layers are in use.
    #[inline(always)]
    fn neighbor_batch<const LAYERED: bool>(
        &self,
        neighbors: &[Neighbor],
        me: usize,
        mine: f32,
        radius_scale: f32x4,
    ) -> NeighborBatch {
        let last = neighbors.len() - 1;
        let index = |lane: usize| neighbors[last.min(lane)].index as usize;
        let lanes = [index(0), index(1), index(2), index(3)];
        // RVO2: each takes half. Otherwise shares are normalised per pair; a share of 0
        // (weight 0 against a positive weight: this agent does not yield) gives no
        // half-plane. A neighbour that ignores this agent (avoidance layers) will not yield:
        // weight 0.
        let responsibility = if self.rvo2_shares {
            f32x4::splat(RVO2_RESPONSIBILITY)
        } else {
            f32x4::new(lanes.map(|j| {
                let other = self.order.agent(j);
                let theirs = match self.layers {
                    Some(layers) if LAYERED && layers.ignores(other, me) => 0.0,
                    _ => self.responsibilities[other],
                };
                share(mine, theirs)
            }))
        };
        let radius = match self.common_radius {
            Some(radius) => f32x4::splat(radius),
            None => f32x4::new(lanes.map(|j| self.slot_data.radii[j])),
        };
        NeighborBatch::from_motions(
            lanes.map(|j| self.slot_data.motions[j]),
            radius * radius_scale,
            responsibility,
            last + 1,
        )
    }

    /// The decision of the agent at `index` of the loop's order (slot `index`, or agent
    /// `index` when records are kept): neighbours, half-planes, linear program, into `record`
    /// and the agent's [`DecisionCell`], working in the thread's `scratch`. Neighbours are
    /// named by slot while deciding, and by agent in a kept record. Returns how the neighbour
    /// query dealt with distance ties. `LAYERED`: avoidance layers are in use (`self.layers`).
    #[inline(always)]
    fn decide<const LAYERED: bool>(&self, index: usize, record: &mut AgentRecord, scratch: &mut Scratch) -> TieAnswer {
        let (slot, i) = if self.by_agent { (self.order.slot(index), index) } else { (index, self.order.agent(index)) };
        let params = match &self.common_params {
            Some(common) => common,
            None => &self.params[i],
        };
        // Its own state from its slot (in cache, unlike the agent-order arrays).
        let own = self.slot_data.own[slot];
        let [x, y, vx, vy] = self.slot_data.motions[slot].to_array();
        let agent = AgentView {
            position: Vec2::new(x, y),
            velocity: Vec2::new(vx, vy),
            radius: params.radius,
            time_horizon: params.time_horizon,
            time_horizon_obst: params.time_horizon_obst,
        };

        // Neighbours (RVO2's computeNeighbors): obstacle edges the agent could reach within
        // its obstacle horizon, and the nearest agents within its neighbour distance.
        let obstacle_range = params.obstacle_range();
        let (obstacle_range_squared, near_edges) = (obstacle_range * obstacle_range, &mut record.obstacle_neighbors);
        if self.obstacle_tree.is_empty() {
            near_edges.clear();
        } else {
            // Equal distances (typically a corner's two edges): RVO2's tree orders them.
            let visits_before = |a, b| self.obstacle_tree.visits_before(agent.position, a, b);
            let query =
                self.obstacle_grid.edges_near(agent.position, obstacle_range_squared, near_edges, visits_before);
            if query == GridQuery::Tied {
                // A range beyond the grid's reach: the tree's walk.
                self.obstacle_tree.edges_near(agent.position, obstacle_range_squared, near_edges);
            }
        }
        let mut ties = TieAnswer::NoTie;
        let search_range = if params.max_neighbors > 0 {
            let range_squared = params.neighbor_dist * params.neighbor_dist;
            let (center, k) = (agent.position, params.max_neighbors);
            // Two pruning hints for the grid (each only a speed-up: a wrong one costs time,
            // never correctness). The k-th nearest distance is 1-Lipschitz in the positions:
            // if every agent moved at most d, it grew by at most 2d, so last step's radius
            // plus 2d (with a margin for rounding) bounds this step's. Tried first, a guess:
            // crowds change slowly, and last step's radius plus 1/64 nearly always suffices.
            let hints = match self.hint_growth {
                Some(growth) => {
                    let last = own.search_range as f64;
                    let bound = (last + growth as f64) * (1.0 + 1e-5) + 1e-5;
                    let guess = last * (1.0 + 1.0 / 64.0);
                    [guess as f32, bound as f32]
                }
                None => [f32::INFINITY; 2],
            };
            let out = &mut record.agent_neighbors;
            // Avoidance layers: only the agents this one avoids are candidates.
            let filter = if LAYERED { self.layers.and_then(|layers| layers.filter_for(i)) } else { None };
            let tree_query = |out: &mut Vec<Neighbor>| match filter {
                None => self.agent_tree.nearest(center, i as u32, range_squared, k, out),
                Some(filters) => {
                    self.agent_tree.nearest_filtered(center, i as u32, range_squared, k, filters.by_agent, out)
                }
            };
            match self.order {
                // The grid is not filled for a crowd too spread out even for its sparse
                // layout: RVO2's tree adapts to it, the grid's forced-large cells would not.
                // (Slots are agents here.)
                SlotOrder::Agents => tree_query(out),
                SlotOrder::Cells { agent_of, slot_of } => {
                    let grid = self.neighbor_grid;
                    // Equal distances: only RVO2's tree knows their order. Asked pair by pair
                    // which agent it visits first; failing that, the whole query.
                    let visits_before = |a: u32, b: u32| {
                        self.agent_tree.visits_before(center, agent_of[a as usize], agent_of[b as usize])
                    };
                    let query = grid.nearest_slots(
                        center,
                        slot as u32,
                        range_squared,
                        k,
                        &hints,
                        filter.map(|filters| filters.by_slot),
                        &mut scratch.query,
                        out,
                        &visits_before,
                        self.avx2,
                    );
                    match query {
                        GridQuery::Exact => {}
                        GridQuery::TiesOrdered => ties = TieAnswer::Ordered,
                        GridQuery::Tied => {
                            tree_query(out);
                            for neighbor in out.iter_mut() {
                                neighbor.index = slot_of[neighbor.index as usize];
                            }
                            ties = TieAnswer::TreeQuery;
                        }
                    }
                }
            }
            match record.agent_neighbors.last() {
                Some(farthest) if record.agent_neighbors.len() == k => farthest.distance_squared.sqrt(),
                _ => params.neighbor_dist,
            }
        } else {
            record.agent_neighbors.clear();
            0.0
        };

        // Half-planes: obstacles first (they stay hard in the fallback), then agents.
        record.half_planes.clear();
        // (Most agents of most crowds have no obstacle edge near: no call then.)
        if !record.obstacle_neighbors.is_empty() {
            obstacle_half_planes(
                &agent,
                &record.obstacle_neighbors,
                self.obstacle_tree.vertices(),
                &mut record.half_planes,
            );
            // RVO2 divides by zero in degenerate geometry (two agents at one point with one
            // velocity) and gets a NaN half-plane, which its linear programs then skip (every
            // comparison with NaN is false). Dropping it up front gives the same velocity and
            // keeps NaN out of the inspection data.
            record.half_planes.retain(HalfPlane::is_finite);
        }
        // The acceleration limit: hard too, so it joins the obstacles' half-planes.
        let acceleration = match self.max_accelerations {
            Some(limits) if limits[i].is_finite() => {
                let limit = AccelerationLimit::new(agent.velocity, params.max_speed, limits[i] * self.time_step);
                limit.half_planes(&mut record.half_planes);
                Some(limit)
            }
            _ => None,
        };
        record.acceleration_half_plane_count = if acceleration.is_some() { ACCELERATION_SIDES } else { 0 };
        record.obstacle_half_plane_count = record.half_planes.len();
        // Safe mode plans with radii grown by the clearance margin.
        let radius_scale = self.extensions.overlap_resolution.map(|o| 1.0 + o.margin);
        let planner = match radius_scale {
            None => agent,
            Some(scale) => AgentView { radius: agent.radius * scale, ..agent },
        };
        // The neighbours' half-planes, four at a time (one per SIMD lane), in neighbour order.
        // (Read only when weights differ: in agent order, it would be one more cache miss.)
        let mine = if self.rvo2_shares { RVO2_RESPONSIBILITY } else { self.responsibilities[i] };
        // (× 1 is exact: RVO2's radii unchanged.)
        let radius_scale = f32x4::splat(radius_scale.unwrap_or(1.0));
        // Whole batches of four (fixed lanes: no index arithmetic per lane), then the rest.
        let mut batches = record.agent_neighbors.chunks_exact(4);
        for batch in &mut batches {
            let batch = self.neighbor_batch::<LAYERED>(batch, i, mine, radius_scale);
            agent_half_planes_x4(&planner, &batch, self.time_step, &mut record.half_planes);
        }
        let rest = batches.remainder();
        if !rest.is_empty() {
            let batch = self.neighbor_batch::<LAYERED>(rest, i, mine, radius_scale);
            agent_half_planes_x4(&planner, &batch, self.time_step, &mut record.half_planes);
        }
        // Non-cooperative movers: full responsibility, after the agents.
        for mover in self.movers {
            let reach = params.neighbor_dist + mover.radius;
            if (mover.position - agent.position).length_squared() < reach * reach {
                let half_plane =
                    agent_half_plane(&agent, mover.position, mover.velocity, mover.radius, self.time_step, 1.0);
                if half_plane.is_finite() {
                    record.half_planes.push(half_plane);
                }
            }
        }

        let mut preferred = own.preferred;
        if let Some(rule) = self.extensions.symmetry_breaking {
            let cos_cone = rule.cone.cos();
            let head_on = record.agent_neighbors.iter().any(|n| {
                let j = self.order.agent(n.index as usize);
                is_head_on(preferred, self.positions[j] - agent.position, self.pref_velocities[j], cos_cone)
            });
            if head_on {
                preferred = Vec2::from_angle(-rule.turn).rotate(preferred);
            }
            preferred += rule.jitter * jitter_direction(rule.seed, self.ids[i].0, self.step_number);
        }
        if let Some(limit) = acceleration {
            preferred = limit.toward(preferred);
        }

        let (new_velocity, outcome) = solve(
            &record.half_planes,
            record.obstacle_half_plane_count,
            params.max_speed,
            preferred,
            &mut scratch.projected,
        );
        let velocity = if self.extensions.strict_speed_limit
            && new_velocity.length_squared() > params.max_speed * params.max_speed
        {
            new_velocity * (params.max_speed / new_velocity.length())
        } else {
            new_velocity
        };
        self.decisions[if self.decisions_by_slot { slot } else { i }].store(Decision { velocity, search_range });
        record.outcome = outcome;
        if self.by_agent {
            // A kept record names its neighbours by agent.
            for neighbor in &mut record.agent_neighbors {
                neighbor.index = self.order.agent(neighbor.index as usize) as u32;
            }
        }
        ties
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spatial::StagingRule;
    use rand::{Rng, SeedableRng};

    /// A crowd whose agent order says nothing of where agents are takes the same path, bit
    /// for bit, whether each step stages its slot layout and its move (buckets of a few
    /// agents' cells, several buckets of moved agents) or not.
    #[test]
    fn staged_steps_equal_direct_steps() {
        const N: usize = 10_000;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let side = (N as f32 * 10.0).sqrt();
        let mut point = || Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
        let starts: Vec<Vec2> = (0..N).map(|_| point()).collect();
        let goals: Vec<Vec2> = (0..N).map(|_| point()).collect();
        let run = |force: bool| {
            let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
            for &start in &starts {
                sim.add_agent(start).unwrap();
            }
            sim.neighbor_grid.set_staging_rule(StagingRule { force: Some(force), agents_per_bucket: 16 });
            let mut staged = 0;
            for _ in 0..12 {
                let prefs: Vec<Vec2> =
                    sim.positions().iter().zip(&goals).map(|(p, g)| (*g - *p).clamp_length_max(1.0)).collect();
                sim.set_pref_velocities(&prefs).unwrap();
                sim.step();
                staged += usize::from(sim.neighbor_grid.was_staged());
            }
            let bits = |v: &[Vec2]| v.iter().map(|p| [p.x.to_bits(), p.y.to_bits()]).collect::<Vec<_>>();
            (bits(sim.positions()), bits(sim.velocities()), sim.search_ranges.clone(), staged)
        };
        let (direct, staged) = (run(false), run(true));
        assert_eq!((direct.3, staged.3), (0, 12), "each run took its own path every step");
        const { assert!(N > 2 * MOVE_BUCKET, "several buckets of moved agents") };
        assert_eq!(direct.0, staged.0, "positions");
        assert_eq!(direct.1, staged.1, "velocities");
        assert_eq!(direct.2, staged.2, "search radii");
        assert!(staged.1.iter().any(|v| *v != [0, 0]), "nobody moved");
    }
}
