//! The 3-D ORCA simulator: RVO2-3D's `RVOSimulator`, bit for bit, stepped in parallel.

use std::cell::RefCell;

use glam::Vec3;
use rayon::prelude::*;

use super::constraints::{agent_plane, Body};
use super::extensions::{overlap_push, Extensions, Mover};
use super::grid::{GridAnswer, NeighborGrid};
use super::kdtree::AgentTree;
use super::linear_program::solve;
use super::obstacles::{Obstacles, Visited};
use super::plane::Plane;
use super::symmetry::is_head_on;
use crate::orca::avoidance_layers::{AvoidanceLayers, LayerView};
use crate::orca::extensions::{share, MoverList, RVO2_RESPONSIBILITY};
use crate::orca::{AgentId, LpOutcome, MoverId, ObstacleId};
use crate::physics3d::{Aabb3, Triangle};
use crate::Error;

/// The parameters RVO2-3D keeps per agent (metres, seconds, metres per second).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentParams {
    /// How far away other agents are taken into account (m).
    pub neighbor_dist: f32,
    /// At most this many nearest agents are taken into account.
    pub max_neighbors: usize,
    /// How far ahead in time collisions with other agents are avoided (s).
    pub time_horizon: f32,
    /// The agent's radius (m).
    pub radius: f32,
    /// The agent's maximum speed (m/s).
    pub max_speed: f32,
}

impl Default for AgentParams {
    /// RVO2-3D's Sphere example values: 15 m, 10 neighbours, 10 s, 1.5 m, 2 m/s.
    fn default() -> Self {
        AgentParams { neighbor_dist: 15.0, max_neighbors: 10, time_horizon: 10.0, radius: 1.5, max_speed: 2.0 }
    }
}

impl AgentParams {
    /// Checks every field: finite; `radius` and `time_horizon` > 0 (ORCA divides by the
    /// horizon); `neighbor_dist` and `max_speed` ≥ 0.
    pub fn validate(&self) -> Result<(), Error> {
        Error::check_non_negative("neighbor distance", self.neighbor_dist)?;
        Error::check_positive("time horizon", self.time_horizon)?;
        Error::check_positive("radius", self.radius)?;
        Error::check_non_negative("max speed", self.max_speed)?;
        Ok(())
    }
}

/// What one agent saw and decided in the last step (kept when
/// [`Simulator::set_record_decisions`] is on, or safe mode needs the neighbours).
#[derive(Clone, Debug, Default)]
struct Record {
    /// Its neighbours by dense index, nearest first.
    neighbors: Vec<u32>,
    planes: Vec<Plane>,
    /// How many of `planes` (the first ones) are the static obstacles'.
    obstacle_planes: usize,
    outcome: LpOutcome,
}

/// A thread's scratch for the decide loop, grown to the largest agent it has decided and then
/// reused, so that a step does not allocate once warm.
#[derive(Default)]
struct Scratch {
    neighbors: Vec<(f32, u32)>,
    /// The grid query's candidate keys.
    keys: Vec<u64>,
    stack: Vec<(u32, f32)>,
    planes: Vec<Plane>,
    projected: Vec<Plane>,
    /// Which obstacle triangles the agent's query has looked at.
    visited: Visited,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Marks a removed agent's entry in `slots`.
const REMOVED: u32 = u32::MAX;

/// Agents decided per rayon task: enough to amortise the task, small enough to balance.
const DECIDE_CHUNK: usize = 64;

/// Below this many agents the overlap projection runs on one thread.
const PARALLEL_OVERLAPS: usize = 1024;

/// A crowd of spheres in 3-D: agents with a preferred velocity and a time step, avoiding each
/// other by ORCA, and — beyond RVO2-3D, which has none — static triangle-mesh obstacles.
///
/// Reproduces RVO2-3D's `RVOSimulator` bit for bit: same parameters, same neighbour search and
/// tie order, same `f32` arithmetic. A step reads only the state at its start, so it runs in
/// parallel (rayon) with identical results for any number of threads, and it allocates
/// nothing once warm. Beyond RVO2-3D, agents can be removed ([`Simulator::remove_agent`]):
/// the others keep their ids and move as if the removed agent had never been there from then
/// on.
///
/// ```
/// use swerve::orca3d::{AgentParams, Simulator, Vec3};
/// let mut sim = Simulator::new(0.125, AgentParams::default())?;
/// let a = sim.add_agent(Vec3::new(-10.0, 0.0, 0.0))?;
/// let b = sim.add_agent(Vec3::new(10.0, 0.0, 0.1))?;
/// sim.set_agent_pref_velocity(a, Vec3::new(1.0, 0.0, 0.0))?;
/// sim.set_agent_pref_velocity(b, Vec3::new(-1.0, 0.0, 0.0))?;
/// for _ in 0..200 {
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

    // Agents, densely packed in insertion order (RVO2-3D's agent order).
    ids: Vec<AgentId>,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    pref_velocities: Vec<Vec3>,
    params: Vec<AgentParams>,
    /// `slots[id]` is the dense index of agent `id`, or [`REMOVED`].
    slots: Vec<u32>,

    /// RVO2-3D's tree: built only in steps where some neighbour query meets a distance tie
    /// (it keeps nothing from one step to the next, unlike the planar RVO2's).
    tree: AgentTree,
    /// Answers the neighbour queries without ties (see [`NeighborGrid`]).
    grid: NeighborGrid,
    /// Each agent's decision in the step: its new velocity and the radius its neighbour
    /// search ended with, or NaN for "ask the tree" (scratch of the step).
    decisions: Vec<(Vec3, f32)>,
    /// The step's decisions in the grid's slot order, before they are put back in agent order.
    slot_decisions: Vec<(Vec3, f32)>,
    /// The radius each agent's last neighbour search ended with (m): the next one's guess.
    search_radii: Vec<f32>,
    /// Whether `search_radii` still describe the agents (no agent added, removed, moved or
    /// changed since the last step).
    hints_valid: bool,
    /// The farthest any agent moved in the last step (m).
    max_displacement: f32,
    /// Neighbour queries of the last step that met a tie and went to the tree.
    tree_queries: usize,
    record_decisions: bool,
    /// One per agent while [`Simulator::keeps_records`], else empty.
    records: Vec<Record>,
    /// Options beyond RVO2-3D (default: none).
    extensions: Extensions,
    /// Steps taken so far (seeds the symmetry breaking's jitter).
    step_number: u64,
    /// The overlap projection's per-agent pushes (scratch).
    corrections: Vec<Vec3>,
    /// Each agent's responsibility weight (RVO2-3D: ½ for all).
    responsibilities: Vec<f32>,
    /// How many agents have a weight other than ½ (0: every pair shares RVO2-3D's halves).
    custom_weights: usize,
    /// Each agent's maximum acceleration (m/s²), `f32::INFINITY` when unlimited (RVO2-3D).
    max_accelerations: Vec<f32>,
    /// How many agents have a finite maximum acceleration.
    limited_accelerations: usize,
    /// Each agent's avoidance layers and mask (who avoids whom; RVO2-3D: everyone everyone).
    avoidance_layers: AvoidanceLayers,
    /// The non-cooperative movers.
    movers: MoverList<Mover>,
    /// The static obstacles (none in RVO2-3D).
    obstacles: Obstacles,
    /// Each agent's obstacle time horizon (s), or 0 for "its time horizon"; empty while no
    /// agent has one of its own.
    obstacle_time_horizons: Vec<f32>,
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
            slots: Vec::new(),
            tree: AgentTree::default(),
            grid: NeighborGrid::default(),
            decisions: Vec::new(),
            slot_decisions: Vec::new(),
            search_radii: Vec::new(),
            hints_valid: false,
            max_displacement: 0.0,
            tree_queries: 0,
            record_decisions: false,
            records: Vec::new(),
            extensions: Extensions::default(),
            step_number: 0,
            corrections: Vec::new(),
            responsibilities: Vec::new(),
            custom_weights: 0,
            max_accelerations: Vec::new(),
            limited_accelerations: 0,
            avoidance_layers: AvoidanceLayers::default(),
            movers: MoverList::default(),
            obstacles: Obstacles::default(),
            obstacle_time_horizons: Vec::new(),
        })
    }

    /// The time step (s).
    pub fn time_step(&self) -> f32 {
        self.time_step
    }

    /// Sets the time step (s, > 0).
    pub fn set_time_step(&mut self, time_step: f32) -> Result<(), Error> {
        self.time_step = Error::check_positive("time step", time_step)?;
        Ok(())
    }

    /// Simulated time so far (s): the sum of the time steps taken.
    pub fn global_time(&self) -> f32 {
        self.global_time
    }

    /// The parameters new agents get from [`Simulator::add_agent`].
    pub fn agent_defaults(&self) -> AgentParams {
        self.defaults
    }

    /// Sets the parameters new agents get (existing agents keep theirs).
    pub fn set_agent_defaults(&mut self, defaults: AgentParams) -> Result<(), Error> {
        defaults.validate()?;
        self.defaults = defaults;
        Ok(())
    }

    /// Adds an agent at `position` (m) with the default parameters, at rest.
    pub fn add_agent(&mut self, position: Vec3) -> Result<AgentId, Error> {
        self.add_agent_with(position, self.defaults)
    }

    /// Adds an agent at `position` (m) with `params`, at rest. Ids count up from 0 and are
    /// never reused.
    pub fn add_agent_with(&mut self, position: Vec3, params: AgentParams) -> Result<AgentId, Error> {
        Error::check_finite_vec3("agent position", position)?;
        params.validate()?;
        if self.slots.len() >= (REMOVED - 1) as usize {
            return Err(Error::OutOfRange { what: "agent count", requirement: "below 2^32 - 1", value: f32::MAX });
        }
        let id = AgentId(self.slots.len() as u32);
        self.hints_valid = false;
        self.search_radii.push(0.0);
        self.slots.push(self.ids.len() as u32);
        self.ids.push(id);
        self.positions.push(position);
        self.velocities.push(Vec3::ZERO);
        self.pref_velocities.push(Vec3::ZERO);
        self.params.push(params);
        self.responsibilities.push(RVO2_RESPONSIBILITY);
        self.max_accelerations.push(f32::INFINITY);
        self.avoidance_layers.push();
        if !self.obstacle_time_horizons.is_empty() {
            self.obstacle_time_horizons.push(0.0);
        }
        if self.keeps_records() {
            self.records.push(Record::default());
        }
        Ok(id)
    }

    /// Removes an agent. Every other agent keeps its id; the removed id is never reused.
    /// Costs O(n): agents stay packed in insertion order, which the tree's tie order needs.
    pub fn remove_agent(&mut self, id: AgentId) -> Result<(), Error> {
        let dense = self.dense(id)?;
        self.hints_valid = false;
        self.search_radii.remove(dense);
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
        if !self.obstacle_time_horizons.is_empty() {
            self.obstacle_time_horizons.remove(dense);
        }
        if self.keeps_records() {
            self.records.remove(dense);
            // The last step's neighbour lists name dense indices, which just shifted.
            for record in &mut self.records {
                record.neighbors.clear();
            }
        }
        Ok(())
    }

    /// The number of live agents.
    pub fn num_agents(&self) -> usize {
        self.ids.len()
    }

    /// The live agents' ids, in insertion order (the order of [`Simulator::positions`]).
    pub fn agent_ids(&self) -> &[AgentId] {
        &self.ids
    }

    /// Whether `id` names a live agent.
    pub fn contains_agent(&self, id: AgentId) -> bool {
        self.dense(id).is_ok()
    }

    /// Every live agent's position (m), in insertion order.
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// Every live agent's velocity (m/s), in insertion order.
    pub fn velocities(&self) -> &[Vec3] {
        &self.velocities
    }

    /// Every live agent's preferred velocity (m/s), in insertion order.
    pub fn pref_velocities(&self) -> &[Vec3] {
        &self.pref_velocities
    }

    /// Sets every live agent's preferred velocity (m/s), in insertion order. Changes nothing
    /// if the length is wrong or a value is not finite.
    pub fn set_pref_velocities(&mut self, values: &[Vec3]) -> Result<(), Error> {
        if values.len() != self.ids.len() {
            return Err(Error::OutOfRange {
                what: "number of preferred velocities",
                requirement: "equal to the number of agents",
                value: values.len() as f32,
            });
        }
        for &v in values {
            Error::check_finite_vec3("preferred velocity", v)?;
        }
        self.pref_velocities.copy_from_slice(values);
        Ok(())
    }

    /// An agent's position (m).
    pub fn agent_position(&self, id: AgentId) -> Result<Vec3, Error> {
        Ok(self.positions[self.dense(id)?])
    }

    /// Moves an agent (m).
    pub fn set_agent_position(&mut self, id: AgentId, position: Vec3) -> Result<(), Error> {
        let dense = self.dense(id)?;
        self.positions[dense] = Error::check_finite_vec3("agent position", position)?;
        self.hints_valid = false;
        Ok(())
    }

    /// An agent's velocity (m/s).
    pub fn agent_velocity(&self, id: AgentId) -> Result<Vec3, Error> {
        Ok(self.velocities[self.dense(id)?])
    }

    /// Sets an agent's velocity (m/s): what its neighbours see it doing.
    pub fn set_agent_velocity(&mut self, id: AgentId, velocity: Vec3) -> Result<(), Error> {
        let dense = self.dense(id)?;
        self.velocities[dense] = Error::check_finite_vec3("agent velocity", velocity)?;
        Ok(())
    }

    /// An agent's preferred velocity (m/s).
    pub fn agent_pref_velocity(&self, id: AgentId) -> Result<Vec3, Error> {
        Ok(self.pref_velocities[self.dense(id)?])
    }

    /// Sets the velocity an agent would take if nothing were in its way (m/s).
    pub fn set_agent_pref_velocity(&mut self, id: AgentId, velocity: Vec3) -> Result<(), Error> {
        let dense = self.dense(id)?;
        self.pref_velocities[dense] = Error::check_finite_vec3("preferred velocity", velocity)?;
        Ok(())
    }

    /// An agent's parameters.
    pub fn agent_params(&self, id: AgentId) -> Result<AgentParams, Error> {
        Ok(self.params[self.dense(id)?])
    }

    /// Sets all of an agent's parameters at once (validated first; nothing changes on error).
    pub fn set_agent_params(&mut self, id: AgentId, params: AgentParams) -> Result<(), Error> {
        let dense = self.dense(id)?;
        params.validate()?;
        self.params[dense] = params;
        self.hints_valid = false;
        Ok(())
    }

    /// An agent's responsibility weight (RVO2-3D: ½).
    pub fn agent_responsibility(&self, id: AgentId) -> Result<f32, Error> {
        Ok(self.responsibilities[self.dense(id)?])
    }

    /// Sets how much of the avoidance an agent takes on (finite, ≥ 0; RVO2-3D fixes ½ for
    /// all). Between agents with weights `a` and `b` the first takes `a / (a + b)` of the
    /// velocity change (`½` if both are 0); an agent with weight 0 facing one with a positive
    /// weight does not yield at all (it gets no plane from it), and the other avoids alone.
    /// The planar simulator's rule ([`crate::orca::Simulator::set_agent_responsibility`]).
    pub fn set_agent_responsibility(&mut self, id: AgentId, weight: f32) -> Result<(), Error> {
        let i = self.dense(id)?;
        let weight = Error::check_non_negative("responsibility", weight)?;
        let old = std::mem::replace(&mut self.responsibilities[i], weight);
        self.custom_weights =
            self.custom_weights + usize::from(weight != RVO2_RESPONSIBILITY) - usize::from(old != RVO2_RESPONSIBILITY);
        Ok(())
    }

    /// An agent's maximum acceleration (m/s²): `f32::INFINITY` (the default, RVO2-3D's agents)
    /// when its velocity may change by any amount in a step.
    pub fn agent_max_acceleration(&self, id: AgentId) -> Result<f32, Error> {
        Ok(self.max_accelerations[self.dense(id)?])
    }

    /// Limits how fast an agent's velocity may change (m/s², > 0; `f32::INFINITY` lifts the
    /// limit): each step its new velocity stays within `max_acceleration · time_step` of its
    /// current one (of the current one brought back to its max speed, if it was faster).
    ///
    /// Unlike the planar simulator's limit, which is hard half-planes inside the linear
    /// program ([`crate::orca::Simulator::set_agent_max_acceleration`]), this one is applied
    /// around it, because RVO2-3D's fallback program has no hard planes: the preferred velocity
    /// is first clamped to the reach (so the program looks for a velocity near what can be
    /// reached), and the program's velocity is then clamped to the reach (DetourCrowd's way).
    /// The limit is the exact sphere; when ORCA asks for a larger change, the agent changes
    /// toward ORCA's velocity as much as the limit allows — so an agent limited too tightly for
    /// its crowd can collide.
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
    /// [`DEFAULT_AVOIDANCE_LAYERS`](crate::orca::DEFAULT_AVOIDANCE_LAYERS), the first layer).
    pub fn agent_avoidance_layers(&self, id: AgentId) -> Result<u32, Error> {
        Ok(self.avoidance_layers.layers(self.dense(id)?))
    }

    /// An agent's avoidance mask: it avoids the agents whose layers share a bit with it
    /// (default [`DEFAULT_AVOIDANCE_MASK`](crate::orca::DEFAULT_AVOIDANCE_MASK)).
    pub fn agent_avoidance_mask(&self, id: AgentId) -> Result<u32, Error> {
        Ok(self.avoidance_layers.mask(self.dense(id)?))
    }

    /// Sets which layers an agent is on (beyond RVO2-3D; Godot's `avoidance_layers`), with the
    /// planar simulator's rule ([`crate::orca::Simulator::set_agent_avoidance_layers`]): agent
    /// A avoids agent B when `A.mask & B.layers != 0`, A's neighbours are the nearest agents it
    /// avoids, and when B ignores A, A takes the whole avoidance of B. The defaults (layers 1,
    /// mask 1 for everyone) are RVO2-3D bit for bit.
    pub fn set_agent_avoidance_layers(&mut self, id: AgentId, layers: u32) -> Result<(), Error> {
        self.avoidance_layers.set_layers(self.dense(id)?, layers);
        self.hints_valid = false;
        Ok(())
    }

    /// Sets which layers an agent avoids (beyond RVO2-3D; Godot's `avoidance_mask`; see
    /// [`Simulator::set_agent_avoidance_layers`]). Mask 0: it avoids no other agent (movers
    /// still).
    pub fn set_agent_avoidance_mask(&mut self, id: AgentId, mask: u32) -> Result<(), Error> {
        self.avoidance_layers.set_mask(self.dense(id)?, mask);
        self.hints_valid = false;
        Ok(())
    }

    /// Adds a non-cooperative mover that agents avoid with full responsibility (its plane
    /// comes after the agents' in an agent's list, when the mover is within the agent's
    /// neighbour distance of its surface). Errors on a non-finite position or velocity or a
    /// radius that is not positive.
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

    /// Adds a static obstacle (beyond RVO2-3D, which has none): the triangles of a mesh,
    /// `triangles` indexing `vertices` (m). Both faces are solid and the mesh need not be
    /// closed: a wall, a floor, a building, terrain. All or nothing: a non-finite vertex, an
    /// index beyond the vertices or a triangle without area adds none of it
    /// ([`Triangle::mesh`]). Ids count up from 0 and are never reused.
    ///
    /// Every agent keeps clear of every triangle by a hard plane in its program (see
    /// [`crate::orca3d`], "Static obstacles"): an agent that starts at least its radius from
    /// every triangle stays so, whatever its neighbours do, unless an acceleration limit moves
    /// it (it acts after the program; safe mode's overlap push, which does too, is not made
    /// where it would bring an agent closer than its radius to an obstacle). The obstacles
    /// take effect at the next step.
    pub fn add_obstacle(&mut self, vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<ObstacleId, Error> {
        self.obstacles.add(Triangle::mesh(vertices, triangles)?)
    }

    /// Adds the solid axis-aligned box from `min` to `max` (m) as a static obstacle (see
    /// [`Simulator::add_obstacle`]): a building, a pillar, a crate. Its surface is 12 triangles
    /// ([`Simulator::obstacle`]), but it gives an agent one plane, through the box's point
    /// nearest the agent, instead of one per triangle: fewer, less conservative planes at a
    /// fraction of the cost, so prefer it to the same box as a mesh. Errors on a non-finite
    /// corner or a box that is not at least 10⁻⁴ m thick in every direction.
    pub fn add_box_obstacle(&mut self, min: Vec3, max: Vec3) -> Result<ObstacleId, Error> {
        Error::check_finite_vec3("box corner", min)?;
        Error::check_finite_vec3("box corner", max)?;
        let thinnest = (max - min).min_element();
        // Finite corners: `thinnest` is a number.
        if thinnest < 1e-4 {
            return Err(Error::OutOfRange { what: "box thickness", requirement: "at least 1e-4 m", value: thinnest });
        }
        let vertices: [Vec3; 8] = std::array::from_fn(|k| {
            Vec3::new(
                if k & 1 == 0 { min.x } else { max.x },
                if k & 2 == 0 { min.y } else { max.y },
                if k & 4 == 0 { min.z } else { max.z },
            )
        });
        // Two triangles a face (corner k has bit 0 for x, 1 for y, 2 for z).
        const FACES: [[u32; 4]; 6] =
            [[0, 2, 6, 4], [1, 5, 7, 3], [0, 4, 5, 1], [2, 3, 7, 6], [0, 1, 3, 2], [4, 6, 7, 5]];
        let triangles: Vec<[u32; 3]> = FACES.iter().flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]]).collect();
        self.obstacles.add_box(Aabb3 { min, max }, Triangle::mesh(&vertices, &triangles)?)
    }

    /// Removes a static obstacle, from the next step on; the other obstacles keep their ids.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<(), Error> {
        self.obstacles.remove(id)
    }

    /// A static obstacle's triangles.
    pub fn obstacle(&self, id: ObstacleId) -> Result<&[Triangle], Error> {
        self.obstacles.mesh(id)
    }

    /// A static obstacle's box, when it was added by [`Simulator::add_box_obstacle`] (`None`
    /// for a mesh).
    pub fn obstacle_box(&self, id: ObstacleId) -> Result<Option<Aabb3>, Error> {
        self.obstacles.solid_box(id)
    }

    /// Whether a sphere of `radius` (m) can travel in a straight line from `from` to `to`
    /// without touching a static obstacle: RVO2's planar `queryVisibility` in space, what a
    /// roadmap ([`crate::navigation3d::Roadmap3d`]) asks of its edges. Touching counts as
    /// blocked; `from == to` asks whether a sphere at `from` is clear of every obstacle. A
    /// removed obstacle blocks nothing from its removal on; a non-finite argument or a negative
    /// radius is never visible.
    ///
    /// It looks at every obstacle (its bounding box first, then its triangles), not the
    /// step's grids: a long segment would cover most of their cells.
    pub fn query_visibility(&self, from: Vec3, to: Vec3, radius: f32) -> bool {
        self.obstacles.is_visible(from, to, radius)
    }

    /// [`Simulator::query_visibility`] looking first at the obstacle that blocked the last
    /// query with the same `hint` (start it at `usize::MAX`): the same answer, faster for
    /// many queries from one point.
    pub(crate) fn query_visibility_hinted(&self, from: Vec3, to: Vec3, radius: f32, hint: &mut usize) -> bool {
        self.obstacles.is_visible_hinted(from, to, radius, hint)
    }

    /// The static obstacles and their triangles, in the order they were added (removed ones
    /// left out).
    pub fn obstacles(&self) -> impl Iterator<Item = (ObstacleId, &[Triangle])> + '_ {
        self.obstacles.iter()
    }

    /// An agent's obstacle time horizon (s): how far ahead it avoids reaching a static
    /// obstacle. Its time horizon ([`AgentParams::time_horizon`]) unless set with
    /// [`Simulator::set_agent_obstacle_time_horizon`].
    pub fn agent_obstacle_time_horizon(&self, id: AgentId) -> Result<f32, Error> {
        let i = self.dense(id)?;
        Ok(match self.obstacle_time_horizons.get(i) {
            Some(&horizon) if horizon > 0.0 => horizon,
            _ => self.params[i].time_horizon,
        })
    }

    /// Sets how far ahead (s, > 0) an agent avoids reaching a static obstacle (RVO2's planar
    /// `timeHorizonObst`): it closes the gap to a triangle at no more than gap / horizon, so it
    /// slows down as it nears one and can pass close by. A horizon shorter than the time step
    /// acts as one time step. With an acceleration limit `a`, a horizon of at least
    /// `max_speed / a` lets the agent brake in time for a wall it flies at head-on.
    pub fn set_agent_obstacle_time_horizon(&mut self, id: AgentId, horizon: f32) -> Result<(), Error> {
        let i = self.dense(id)?;
        let horizon = Error::check_positive("obstacle time horizon", horizon)?;
        if self.obstacle_time_horizons.is_empty() {
            self.obstacle_time_horizons = vec![0.0; self.ids.len()];
        }
        self.obstacle_time_horizons[i] = horizon;
        Ok(())
    }

    fn check_mover(mover: &Mover) -> Result<(), Error> {
        Error::check_finite_vec3("mover position", mover.position)?;
        Error::check_finite_vec3("mover velocity", mover.velocity)?;
        Error::check_positive("mover radius", mover.radius)?;
        Ok(())
    }

    /// The options beyond RVO2-3D in force.
    pub fn extensions(&self) -> Extensions {
        self.extensions
    }

    /// Turns options beyond RVO2-3D on or off ([`Extensions::default`] is RVO2-3D). Checked
    /// first, nothing changes on error: symmetry breaking's `jitter` and `cone` ≥ 0, `turn`
    /// finite, `up` finite and not zero; the overlap margin ≥ 0.
    pub fn set_extensions(&mut self, extensions: Extensions) -> Result<(), Error> {
        if let Some(rule) = extensions.symmetry_breaking {
            Error::check_non_negative("symmetry jitter", rule.jitter)?;
            Error::check_non_negative("symmetry cone", rule.cone)?;
            Error::check_finite("symmetry turn", rule.turn)?;
            Error::check_finite_vec3("symmetry up direction", rule.up)?;
            if rule.up == Vec3::ZERO {
                return Err(Error::OutOfRange {
                    what: "symmetry up direction's length",
                    requirement: "greater than 0",
                    value: 0.0,
                });
            }
        }
        if let Some(o) = extensions.overlap_resolution {
            Error::check_non_negative("overlap margin", o.margin)?;
        }
        self.extensions = extensions;
        self.sync_records();
        Ok(())
    }

    /// Whether each step keeps what every agent saw and decided (off by default).
    pub fn records_decisions(&self) -> bool {
        self.record_decisions
    }

    /// Keeps, from the next step on, every agent's neighbours, ORCA planes and
    /// linear-program outcome ([`Simulator::agent_neighbors`], [`Simulator::agent_planes`],
    /// [`Simulator::agent_lp_outcome`]). Off, a step writes nothing per agent but its state.
    pub fn set_record_decisions(&mut self, record: bool) {
        self.record_decisions = record;
        self.sync_records();
    }

    /// Whether the step keeps per-agent records: asked for, or needed by the overlap
    /// projection (which reads each agent's neighbours).
    fn keeps_records(&self) -> bool {
        self.record_decisions || self.extensions.overlap_resolution.is_some()
    }

    /// One record per agent while they are kept, none otherwise.
    fn sync_records(&mut self) {
        if self.keeps_records() {
            self.records.resize(self.ids.len(), Record::default());
        } else {
            self.records = Vec::new();
        }
    }

    /// The agent's neighbours in the last step, nearest first (RVO2-3D's
    /// `getAgentAgentNeighbor` order). Empty after an agent was removed, until the next step.
    pub fn agent_neighbors(&self, id: AgentId) -> Result<impl ExactSizeIterator<Item = AgentId> + '_, Error> {
        Ok(self.record(id)?.neighbors.iter().map(|&n| self.ids[n as usize]))
    }

    /// The ORCA planes the agent had to respect in the last step: first one per static box,
    /// then per mesh triangle, within reach ([`Simulator::agent_obstacle_plane_count`] of them),
    /// then one per neighbour, in neighbour order (but none from a neighbour it does not yield
    /// to, [`Simulator::set_agent_responsibility`]), then one per nearby mover. An exactly
    /// degenerate pair (two agents on one point) gives a NaN plane, as in RVO2-3D, whose
    /// programs skip it.
    pub fn agent_planes(&self, id: AgentId) -> Result<&[Plane], Error> {
        Ok(&self.record(id)?.planes)
    }

    /// How many of [`Simulator::agent_planes`] (the first ones) came from static obstacles:
    /// hard planes, which the program's fallback does not trade off.
    pub fn agent_obstacle_plane_count(&self, id: AgentId) -> Result<usize, Error> {
        Ok(self.record(id)?.obstacle_planes)
    }

    /// Which linear program decided the agent's velocity in the last step.
    pub fn agent_lp_outcome(&self, id: AgentId) -> Result<LpOutcome, Error> {
        Ok(self.record(id)?.outcome)
    }

    /// Neighbour queries of the last step whose distances tied, so that RVO2-3D's tree had
    /// to order them (the rest were answered by a grid, with the same result).
    pub fn tree_queries(&self) -> usize {
        self.tree_queries
    }

    /// Advances the crowd by one time step: every agent picks its new velocity from the state
    /// at the start of the step (in parallel), then all move.
    pub fn step(&mut self) {
        let count = self.ids.len();
        // Cells as wide as the typical search radius: a query then scans nine rows of three
        // cells or fewer. (Measured on the cube of 100,000: cells of 0.35, 0.5, 0.75, 1 and 1.5
        // radii took 97–111, 108–110, 93–99, 78–90 and 84–93 ms a step; on the sphere, whose
        // shell caps the cell count, they made no difference.)
        let typical_radius = if self.hints_valid && count > 0 {
            self.search_radii.iter().sum::<f32>() / count as f32 + 2.0 * self.max_displacement
        } else {
            self.params.iter().map(|p| p.neighbor_dist).fold(0.0, f32::max)
        };
        self.grid.build(&self.positions, typical_radius);
        self.decisions.resize(count, (Vec3::ZERO, 0.0));
        self.avoidance_layers.prepare();
        let (params, horizons, time_step) = (&self.params, &self.obstacle_time_horizons, self.time_step);
        self.obstacles.prepare(|| {
            let reach =
                |(i, p): (usize, &AgentParams)| p.radius + p.max_speed * obstacle_horizon(p, horizons, i, time_step);
            params.iter().enumerate().map(reach).sum::<f32>() / params.len().max(1) as f32
        });

        let keep_records = self.keeps_records();
        let context = StepContext {
            grid: &self.grid,
            tree: None,
            search_radii: self.hints_valid.then_some(self.search_radii.as_slice()),
            max_displacement: self.max_displacement,
            positions: &self.positions,
            velocities: &self.velocities,
            pref_velocities: &self.pref_velocities,
            params: &self.params,
            ids: &self.ids,
            time_step: self.time_step,
            extensions: self.extensions,
            step_number: self.step_number,
            responsibilities: (self.custom_weights > 0 || self.avoidance_layers.view().is_some())
                .then_some(self.responsibilities.as_slice()),
            layers: self.avoidance_layers.view(),
            max_accelerations: (self.limited_accelerations > 0).then_some(self.max_accelerations.as_slice()),
            movers: self.movers.live(),
            obstacles: (!self.obstacles.is_empty()).then_some(&self.obstacles),
            obstacle_time_horizons: &self.obstacle_time_horizons,
        };
        // A crowd numbered with no regard to place (added at random, say) is decided in the
        // grid's slot order, so that what a decision reads of its neighbours is mostly in
        // cache, and the decisions are put back in agent order after; one numbered along a
        // lattice or a spiral keeps its own order, which measured faster (BENCHMARKS.md, "ORCA
        // in three dimensions"). With records, each agent writes its own record: agent order.
        let order = (!keep_records && self.grid.is_scattered()).then(|| self.grid.agents_by_slot());
        let decided = match order {
            Some(_) => {
                self.slot_decisions.resize(count, (Vec3::ZERO, 0.0));
                &mut self.slot_decisions
            }
            None => &mut self.decisions,
        };
        context.decide_all(decided, order, keep_records.then_some(&mut self.records[..]), false);

        // The queries that met ties: RVO2-3D's tree orders their neighbours.
        self.tree_queries = decided.iter().filter(|d| d.1.is_nan()).count();
        if self.tree_queries > 0 {
            self.tree.build(&self.positions);
            let context = StepContext { tree: Some(&self.tree), ..context };
            context.decide_all(decided, order, keep_records.then_some(&mut self.records[..]), true);
        }
        if let Some(order) = order {
            for (&agent, &decision) in order.iter().zip(&self.slot_decisions) {
                self.decisions[agent as usize] = decision;
            }
        }
        for (radius, decision) in self.search_radii.iter_mut().zip(&self.decisions) {
            *radius = decision.1;
        }

        // RVO2-3D's `update`: take the new velocity, then move along it.
        let time_step = self.time_step;
        let mut largest_squared = 0.0f32;
        for ((position, velocity), decision) in self.positions.iter_mut().zip(&mut self.velocities).zip(&self.decisions)
        {
            *velocity = decision.0;
            let moved = *velocity * time_step;
            *position += moved;
            largest_squared = largest_squared.max(moved.length_squared());
        }
        self.max_displacement = largest_squared.sqrt();
        if let Some(resolution) = self.extensions.overlap_resolution {
            self.max_displacement += self.resolve_overlaps(resolution.passes, resolution.margin);
        }
        self.hints_valid = true;
        self.global_time += self.time_step;
        self.step_number += 1;
    }

    fn dense(&self, id: AgentId) -> Result<usize, Error> {
        match self.slots.get(id.0 as usize) {
            Some(&slot) if slot != REMOVED => Ok(slot as usize),
            _ => Err(Error::UnknownAgent(id.0)),
        }
    }

    fn record(&self, id: AgentId) -> Result<&Record, Error> {
        let dense = self.dense(id)?;
        if !self.record_decisions {
            return Err(Error::DecisionsNotRecorded);
        }
        self.records.get(dense).ok_or(Error::DecisionsNotRecorded)
    }

    /// "Safe mode"'s projection: rounds of pushing every pair closer than the kept clearance
    /// apart, each agent by half the shortfall, all pushes of a round computed from the same
    /// positions (Jacobi), so the result is the same for any thread count and agent order.
    /// Returns how far (m) the projection may have moved an agent, at most.
    fn resolve_overlaps(&mut self, passes: u32, margin: f32) -> f32 {
        let n = self.positions.len();
        self.corrections.resize(n, Vec3::ZERO);
        let scale = 1.0 + margin;
        let mut moved_at_most = 0.0f32;
        for _ in 0..passes {
            let (positions, params, records) = (&self.positions, &self.params, &self.records);
            let radius = |i: usize| params[i].radius;
            // Half of each shortfall, all of it from a neighbour that ignores the agent.
            let layers = self.avoidance_layers.view();
            let share = |i: usize, j: usize| match layers {
                Some(layers) if layers.ignores(j, i) => 1.0,
                _ => 0.5,
            };
            // A push that would take the agent through or into a static obstacle is not made
            // (the planar rule): the obstacle planes' guarantee holds in safe mode too.
            let obstacles = (!self.obstacles.is_empty()).then_some(&self.obstacles);
            let (movers, time_step) = (self.movers.live(), self.time_step);
            let push = |(i, c): (usize, &mut Vec3)| {
                let p = positions[i];
                let mut push = overlap_push(i, positions, radius, share, &records[i].neighbors, scale);
                // A mover takes no share: all of the shortfall is the agent's. It is where its
                // velocity takes it by the step's end (where the agents expected it).
                for mover in movers {
                    let combined = (radius(i) + mover.radius) * scale;
                    let d = p - (mover.position + mover.velocity * time_step);
                    let distance_squared = d.length_squared();
                    if distance_squared < combined * combined && distance_squared.is_finite() {
                        let distance = distance_squared.sqrt();
                        let normal = if distance > 0.0 { d / distance } else { Vec3::X };
                        push += normal * (combined - distance);
                    }
                }
                let blocked = obstacles.is_some_and(|o| push != Vec3::ZERO && !o.allows_push(p, p + push, radius(i)));
                *c = if blocked { Vec3::ZERO } else { push };
            };
            if n >= PARALLEL_OVERLAPS {
                self.corrections.par_iter_mut().enumerate().with_min_len(256).for_each(push);
            } else {
                self.corrections.iter_mut().enumerate().for_each(push);
            }
            let mut largest_squared = 0.0f32;
            for (p, c) in self.positions.iter_mut().zip(&self.corrections) {
                *p += *c;
                largest_squared = largest_squared.max(c.length_squared());
            }
            if largest_squared == 0.0 {
                break;
            }
            moved_at_most += largest_squared.sqrt();
        }
        moved_at_most
    }
}

/// What every agent's decision reads: the state at the start of the step.
#[derive(Clone, Copy)]
struct StepContext<'a> {
    grid: &'a NeighborGrid,
    /// RVO2-3D's tree, once built (only for the queries that tied).
    tree: Option<&'a AgentTree>,
    /// Each agent's last search radius, when still valid: its query's first guess.
    search_radii: Option<&'a [f32]>,
    max_displacement: f32,
    positions: &'a [Vec3],
    velocities: &'a [Vec3],
    pref_velocities: &'a [Vec3],
    params: &'a [AgentParams],
    ids: &'a [AgentId],
    time_step: f32,
    extensions: Extensions,
    step_number: u64,
    /// Each agent's responsibility weight, when some differ from RVO2-3D's ½ or avoidance
    /// layers are in use.
    responsibilities: Option<&'a [f32]>,
    /// Who avoids whom, when any agent's layers or mask are not the defaults.
    layers: Option<LayerView<'a>>,
    /// Each agent's maximum acceleration, when any agent has a finite one.
    max_accelerations: Option<&'a [f32]>,
    movers: &'a [Mover],
    /// The static obstacles, when there are any.
    obstacles: Option<&'a Obstacles>,
    /// Each agent's own obstacle time horizon, 0 for its time horizon (empty: all 0).
    obstacle_time_horizons: &'a [f32],
}

impl StepContext<'_> {
    /// Decides every agent into `decisions` (and `records`, if kept), in parallel: entry `i`
    /// is agent `order[i]`'s, or agent `i`'s without an `order`. With `tied_only`, only the
    /// agents whose grid query tied (marked by a NaN radius), by the tree.
    fn decide_all(
        &self,
        decisions: &mut [(Vec3, f32)],
        order: Option<&[u32]>,
        records: Option<&mut [Record]>,
        tied_only: bool,
    ) {
        let chunks = decisions.par_chunks_mut(DECIDE_CHUNK).enumerate();
        let decide_chunk = |chunk: usize, out: &mut [(Vec3, f32)], mut records: Option<&mut [Record]>| {
            SCRATCH.with_borrow_mut(|scratch| {
                for (offset, decision) in out.iter_mut().enumerate() {
                    if tied_only && !decision.1.is_nan() {
                        continue;
                    }
                    let record = records.as_mut().map(|r| &mut r[offset]);
                    let entry = chunk * DECIDE_CHUNK + offset;
                    let agent = order.map_or(entry, |order| order[entry] as usize);
                    *decision = self.decide(agent, scratch, record);
                }
            })
        };
        match records {
            Some(records) => chunks
                .zip(records.par_chunks_mut(DECIDE_CHUNK))
                .for_each(|((chunk, out), records)| decide_chunk(chunk, out, Some(records))),
            None => chunks.for_each(|(chunk, out)| decide_chunk(chunk, out, None)),
        }
    }

    /// Agent `index`'s new velocity and the radius its neighbour search ended with (RVO2-3D's
    /// `computeNeighbors` and `computeNewVelocity`): its neighbours, one ORCA plane per
    /// neighbour, then the linear programs. Without the tree, a query whose distances tie
    /// returns `(0, NaN)` at once: the agent is decided again once the tree is built.
    fn decide(&self, index: usize, scratch: &mut Scratch, record: Option<&mut Record>) -> (Vec3, f32) {
        let params = &self.params[index];
        // Room for the largest answer at once, so that a thread's scratch reaches its
        // final size the first time it decides such an agent (no allocation after).
        let room = params.max_neighbors.min(self.positions.len());
        let plane_room = room + self.movers.len();
        scratch.neighbors.clear();
        scratch.stack.clear();
        scratch.planes.clear();
        scratch.projected.clear();
        scratch.neighbors.reserve(room);
        scratch.planes.reserve(plane_room);
        scratch.projected.reserve(plane_room);
        if let Some(tree) = self.tree {
            scratch.stack.reserve(tree.stack_room());
        }
        // Safe mode keeps a clearance: every radius scaled by 1 + margin in the planes.
        let radius_scale = self.extensions.overlap_resolution.map(|o| 1.0 + o.margin);
        let scaled = |radius: f32| radius_scale.map_or(radius, |scale| radius * scale);
        let agent =
            Body { position: self.positions[index], velocity: self.velocities[index], radius: scaled(params.radius) };
        let range_squared = params.neighbor_dist * params.neighbor_dist;
        // Avoidance layers: only the agents this one avoids are candidates.
        let filter = self.layers.and_then(|layers| layers.filter_for(index)).map(|filters| filters.by_agent);
        let radius = match self.tree {
            None => {
                let guess = self.search_radii.map_or(f32::INFINITY, |radii| radii[index] + 2.0 * self.max_displacement);
                let answer = self.grid.neighbors(
                    index as u32,
                    agent.position,
                    range_squared,
                    guess,
                    params.max_neighbors,
                    filter,
                    &mut scratch.keys,
                    &mut scratch.neighbors,
                );
                match answer {
                    GridAnswer::Exact { radius } => radius,
                    GridAnswer::Tied => return (Vec3::ZERO, f32::NAN),
                }
            }
            Some(tree) => {
                tree.neighbors(
                    index as u32,
                    agent.position,
                    range_squared,
                    params.max_neighbors,
                    filter,
                    &mut scratch.neighbors,
                    &mut scratch.stack,
                );
                match scratch.neighbors.last() {
                    Some(&(farthest, _)) if scratch.neighbors.len() == params.max_neighbors => farthest.sqrt(),
                    _ => params.neighbor_dist,
                }
            }
        };

        // Static obstacles first: hard planes, which the program's fallback keeps (beyond
        // RVO2-3D; see `obstacles.rs`).
        if let Some(obstacles) = self.obstacles {
            let horizon = obstacle_horizon(params, self.obstacle_time_horizons, index, self.time_step);
            let inv_horizon = 1.0 / horizon;
            let reach = agent.radius + params.max_speed * horizon;
            let inv_time_step = 1.0 / self.time_step;
            obstacles.planes(
                agent.position,
                agent.radius,
                reach,
                inv_horizon,
                inv_time_step,
                &mut scratch.visited,
                &mut scratch.planes,
            );
            // The fallback copies the hard planes beside the bisectors.
            scratch.projected.reserve(plane_room + scratch.planes.len());
        }
        let obstacle_planes = scratch.planes.len();

        let inv_time_horizon = 1.0 / params.time_horizon;
        let body = |other: usize| Body {
            position: self.positions[other],
            velocity: self.velocities[other],
            radius: scaled(self.params[other].radius),
        };
        // An exactly degenerate pair gives a NaN plane, which RVO2-3D's linear programs skip
        // (all their tests are `>` comparisons). It is kept, so that the record has one plane
        // per neighbour, in neighbour order.
        match self.responsibilities {
            // RVO2-3D: each takes half, in a loop of its own as before the weights (what the
            // weights cost the step: BENCHMARKS.md, "ORCA in three dimensions").
            None => {
                for &(_, other) in &scratch.neighbors {
                    let plane = agent_plane(
                        &agent,
                        &body(other as usize),
                        inv_time_horizon,
                        self.time_step,
                        RVO2_RESPONSIBILITY,
                    );
                    scratch.planes.push(plane);
                }
            }
            // The pair's weights set the shares; a share of 0 (weight 0 against a positive
            // weight: this agent does not yield) gives no plane. A neighbour that ignores this
            // agent (avoidance layers) will not yield: weight 0.
            Some(weights) => {
                for &(_, other) in &scratch.neighbors {
                    let theirs = match self.layers {
                        Some(layers) if layers.ignores(other as usize, index) => 0.0,
                        _ => weights[other as usize],
                    };
                    let responsibility = share(weights[index], theirs);
                    if responsibility != 0.0 {
                        let plane = agent_plane(
                            &agent,
                            &body(other as usize),
                            inv_time_horizon,
                            self.time_step,
                            responsibility,
                        );
                        scratch.planes.push(plane);
                    }
                }
            }
        }
        // Non-cooperative movers: full responsibility, after the agents (the planar
        // simulator's rule). A NaN plane (the agent's centre on the mover's) is left out.
        for mover in self.movers {
            let reach = params.neighbor_dist + mover.radius;
            if (mover.position - agent.position).length_squared() < reach * reach {
                let other = Body { position: mover.position, velocity: mover.velocity, radius: mover.radius };
                let plane = agent_plane(&agent, &other, inv_time_horizon, self.time_step, 1.0);
                if plane.is_finite() {
                    scratch.planes.push(plane);
                }
            }
        }

        let mut preferred = self.pref_velocities[index];
        if let Some(rule) = self.extensions.symmetry_breaking {
            let cos_cone = rule.cone.cos();
            let head_on = scratch.neighbors.iter().any(|&(_, other)| {
                let other = other as usize;
                is_head_on(preferred, self.positions[other] - agent.position, self.pref_velocities[other], cos_cone)
            });
            preferred = rule.steer(preferred, head_on, self.ids[index].0, self.step_number);
        }
        // The acceleration limit, around the program (see `set_agent_max_acceleration`).
        let acceleration = match self.max_accelerations {
            Some(limits) if limits[index].is_finite() => {
                let current = self.velocities[index];
                let centre = if current.length_squared() > params.max_speed * params.max_speed {
                    current * (params.max_speed / current.length())
                } else {
                    current
                };
                let reach = limits[index] * self.time_step;
                preferred = within_reach(preferred, centre, reach);
                Some((centre, reach))
            }
            _ => None,
        };

        let (mut velocity, outcome) =
            solve(&scratch.planes, obstacle_planes, params.max_speed, preferred, &mut scratch.projected);
        if self.extensions.strict_speed_limit && velocity.length_squared() > params.max_speed * params.max_speed {
            velocity *= params.max_speed / velocity.length();
        }
        if let Some((centre, reach)) = acceleration {
            velocity = within_reach(velocity, centre, reach);
        }
        if let Some(record) = record {
            // Each record is sized for its agent's largest answer at once (see `room`).
            record.neighbors.clear();
            record.neighbors.reserve(room);
            record.neighbors.extend(scratch.neighbors.iter().map(|&(_, other)| other));
            record.planes.clear();
            record.planes.reserve(plane_room + obstacle_planes);
            record.planes.extend_from_slice(&scratch.planes);
            record.obstacle_planes = obstacle_planes;
            record.outcome = outcome;
        }
        (velocity, radius)
    }
}

/// Agent `index`'s obstacle time horizon as its planes use it (s): its own, or its time
/// horizon, and at least one time step (a shorter one would let it reach a plane within the
/// step).
fn obstacle_horizon(params: &AgentParams, horizons: &[f32], index: usize, time_step: f32) -> f32 {
    let horizon = match horizons.get(index) {
        Some(&horizon) if horizon > 0.0 => horizon,
        _ => params.time_horizon,
    };
    horizon.max(time_step)
}

/// `v` if it is within `reach` of `centre` (as it is, bit for bit: a limit that never binds
/// changes nothing), else the point at `reach` from `centre` toward it.
fn within_reach(v: Vec3, centre: Vec3, reach: f32) -> Vec3 {
    let change = v - centre;
    if change.length_squared() > reach * reach {
        centre + change * (reach / change.length())
    } else {
        v
    }
}
