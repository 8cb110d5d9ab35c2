//! RVO2's view of a simulator, shared by the Python-RVO2 and pyrvo drop-ins.
//!
//! RVO2 numbers agents 0, 1, 2, … in the order they were added and numbers obstacle
//! *vertices* (not polygons) in one list. [`NumberedCrowd`] keeps those numbers on top of
//! [`swerve::Simulator`] and supplies the few RVO2 behaviours the library does not have
//! (agents added with an initial velocity, default-constructed simulators without defaults,
//! removing all agents, replacing obstacles) by composing the library's public API.

use crate::errors::{unknown_id, IntoPyResult, SwerveError};
use glam::Vec2;
use pyo3::prelude::*;
use swerve::{AgentId, AgentParams, HalfPlane, Simulator};

/// One obstacle vertex as RVO2 reports it.
pub struct VertexView {
    pub point: Vec2,
    pub next: usize,
    pub prev: usize,
}

/// A simulator addressed with RVO2's agent and vertex numbers.
pub struct NumberedCrowd {
    sim: Simulator,
    /// False for pyrvo's `RVOSimulator()`: RVO2's time step is then 0 and stepping is refused.
    has_time_step: bool,
    /// RVO2's `defaultAgent_`: `None` until a constructor or `setAgentDefaults` gives one.
    defaults: Option<AgentParams>,
    /// The velocity `addAgent(position)` gives new agents (RVO2's default agent velocity).
    default_velocity: Vec2,
    /// RVO2's obstacle list, as polygons in the order added.
    polygons: Vec<Vec<Vec2>>,
    /// The length of `polygons` at each `processObstacles` since the list last changed other
    /// than by appending (empty before the first): RVO2's tree depends on that history, as
    /// each build starts from the edges the last one split.
    processed: Vec<usize>,
    /// Whether the simulator holds polygons that are no longer in `polygons` (after a clear
    /// or a removal): it is rebuilt at the next `processObstacles`.
    stale: bool,
}

/// Simulator parameters that are valid placeholders until the user sets real ones.
fn placeholder() -> (f32, AgentParams) {
    (1.0, AgentParams::default())
}

/// `sim`, keeping every agent's decision: RVO2's API reads any agent's neighbours and ORCA
/// lines after a step (RVO2 keeps them all), so the numbered crowds do too.
fn recording(mut sim: Simulator) -> Simulator {
    sim.set_record_decisions(true);
    sim
}

impl NumberedCrowd {
    /// RVO2's full constructor.
    pub fn new(time_step: f32, defaults: AgentParams, default_velocity: Vec2) -> PyResult<NumberedCrowd> {
        let sim = recording(Simulator::new(time_step, defaults).py()?);
        let default_velocity = checked_vec("default velocity", default_velocity)?;
        Ok(NumberedCrowd {
            sim,
            has_time_step: true,
            defaults: Some(defaults),
            default_velocity,
            polygons: Vec::new(),
            processed: Vec::new(),
            stale: false,
        })
    }

    /// RVO2's default constructor: no time step and no agent defaults yet.
    pub fn empty() -> NumberedCrowd {
        let (time_step, params) = placeholder();
        NumberedCrowd {
            sim: recording(Simulator::new(time_step, params).expect("the placeholder parameters are valid")),
            has_time_step: false,
            defaults: None,
            default_velocity: Vec2::ZERO,
            polygons: Vec::new(),
            processed: Vec::new(),
            stale: false,
        }
    }

    /// The agent with RVO2 number `number`.
    pub fn agent(&self, number: usize) -> PyResult<AgentId> {
        // Without removals an agent's id is its RVO2 number (the simulator hands ids out in
        // order); `clear_agents` starts a new simulator so numbering restarts at 0 as in RVO2.
        match u32::try_from(number) {
            Ok(n) if self.sim.contains_agent(AgentId(n)) => Ok(AgentId(n)),
            _ => Err(unknown_id(format!("unknown agent number {number} (there are {})", self.sim.num_agents()))),
        }
    }

    // ----- global -----

    pub fn time_step(&self) -> f32 {
        if self.has_time_step {
            self.sim.time_step()
        } else {
            0.0
        }
    }

    pub fn set_time_step(&mut self, time_step: f32) -> PyResult<()> {
        self.sim.set_time_step(time_step).py()?;
        self.has_time_step = true;
        Ok(())
    }

    pub fn global_time(&self) -> f32 {
        self.sim.global_time()
    }

    pub fn set_defaults(&mut self, params: AgentParams, velocity: Vec2) -> PyResult<()> {
        let velocity = checked_vec("default velocity", velocity)?;
        self.sim.set_agent_defaults(params).py()?;
        self.defaults = Some(params);
        self.default_velocity = velocity;
        Ok(())
    }

    /// Mutable access for stepping without the GIL.
    pub fn sim_mut(&mut self) -> &mut Simulator {
        &mut self.sim
    }

    pub fn check_can_step(&self) -> PyResult<()> {
        if self.has_time_step {
            Ok(())
        } else {
            Err(SwerveError::new_err(
                "the simulator has no time step: construct it with one or call set_time_step first",
            ))
        }
    }

    // ----- agents -----

    /// `addAgent(position)`: default parameters and default velocity.
    pub fn add_default_agent(&mut self, position: Vec2) -> PyResult<usize> {
        let Some(params) = self.defaults else {
            return Err(SwerveError::new_err(
                "no agent defaults: construct the simulator with them or call set_agent_defaults first",
            ));
        };
        self.add_agent(position, params, self.default_velocity)
    }

    /// `addAgent(position, …, velocity)`. Nothing is added on error.
    pub fn add_agent(&mut self, position: Vec2, params: AgentParams, velocity: Vec2) -> PyResult<usize> {
        // Check the velocity before adding so that a bad one adds nothing.
        let velocity = checked_vec("agent velocity", velocity)?;
        let id = self.sim.add_agent_with(position, params).py()?;
        // The library starts agents at rest; RVO2 starts them at `velocity`.
        self.sim.set_agent_velocity(id, velocity).py()?;
        Ok(id.0 as usize)
    }

    /// pyrvo's `clear_agents`: removes every agent; numbering starts again at 0.
    pub fn clear_agents(&mut self) -> PyResult<()> {
        self.rebuild(false)
    }

    pub fn num_agents(&self) -> usize {
        self.sim.num_agents()
    }

    pub fn position(&self, n: usize) -> PyResult<Vec2> {
        self.sim.agent_position(self.agent(n)?).py()
    }
    pub fn velocity(&self, n: usize) -> PyResult<Vec2> {
        self.sim.agent_velocity(self.agent(n)?).py()
    }
    pub fn pref_velocity(&self, n: usize) -> PyResult<Vec2> {
        self.sim.agent_pref_velocity(self.agent(n)?).py()
    }
    pub fn params(&self, n: usize) -> PyResult<AgentParams> {
        self.sim.agent_params(self.agent(n)?).py()
    }
    pub fn set_position(&mut self, n: usize, v: Vec2) -> PyResult<()> {
        let id = self.agent(n)?;
        self.sim.set_agent_position(id, v).py()
    }
    pub fn set_velocity(&mut self, n: usize, v: Vec2) -> PyResult<()> {
        let id = self.agent(n)?;
        self.sim.set_agent_velocity(id, v).py()
    }
    pub fn set_pref_velocity(&mut self, n: usize, v: Vec2) -> PyResult<()> {
        let id = self.agent(n)?;
        self.sim.set_agent_pref_velocity(id, v).py()
    }
    /// Changes one parameter of agent `n` (validated; nothing changes on error).
    pub fn update_params(&mut self, n: usize, change: impl FnOnce(&mut AgentParams)) -> PyResult<()> {
        let id = self.agent(n)?;
        let mut params = self.sim.agent_params(id).py()?;
        change(&mut params);
        self.sim.set_agent_params(id, params).py()
    }

    pub fn num_agent_neighbors(&self, n: usize) -> PyResult<usize> {
        Ok(self.sim.agent_neighbors(self.agent(n)?).py()?.len())
    }
    pub fn agent_neighbor(&self, n: usize, k: usize) -> PyResult<usize> {
        let mut neighbors = self.sim.agent_neighbors(self.agent(n)?).py()?;
        let count = neighbors.len();
        neighbors
            .nth(k)
            .map(|id| id.0 as usize)
            .ok_or_else(|| unknown_id(format!("agent {n} has {count} agent neighbours, no number {k}")))
    }
    pub fn num_obstacle_neighbors(&self, n: usize) -> PyResult<usize> {
        Ok(self.sim.agent_obstacle_neighbors(self.agent(n)?).py()?.len())
    }
    pub fn obstacle_neighbor(&self, n: usize, k: usize) -> PyResult<usize> {
        let mut neighbors = self.sim.agent_obstacle_neighbors(self.agent(n)?).py()?;
        let count = neighbors.len();
        neighbors
            .nth(k)
            .map(|v| v as usize)
            .ok_or_else(|| unknown_id(format!("agent {n} has {count} obstacle neighbours, no number {k}")))
    }
    pub fn half_planes(&self, n: usize) -> PyResult<&[HalfPlane]> {
        self.sim.agent_half_planes(self.agent(n)?).py()
    }
    pub fn half_plane(&self, n: usize, k: usize) -> PyResult<HalfPlane> {
        let planes = self.half_planes(n)?;
        planes
            .get(k)
            .copied()
            .ok_or_else(|| unknown_id(format!("agent {n} has {} ORCA lines, no number {k}", planes.len())))
    }

    // ----- obstacles -----

    /// `addObstacle(vertices)`: returns the number of the polygon's first vertex.
    pub fn add_obstacle(&mut self, vertices: Vec<Vec2>) -> PyResult<usize> {
        let first = self.num_vertices();
        self.sim.add_obstacle(&vertices).py()?;
        self.polygons.push(vertices);
        Ok(first)
    }

    /// `processObstacles()`: agents see the obstacles from the next step on.
    pub fn process_obstacles(&mut self) -> PyResult<()> {
        if self.stale {
            self.rebuild(true)?;
        }
        self.sim.process_obstacles();
        self.processed.push(self.polygons.len());
        Ok(())
    }

    /// Python-RVO2's `clearObstacle`: empties the obstacle list; as there, agents keep seeing
    /// the old obstacles until the next `processObstacles`.
    pub fn clear_obstacles(&mut self) {
        self.polygons.clear();
        self.processed.clear();
        self.stale = true;
    }

    /// Python-RVO2's `removeObstacle(number)`, where `number` is what `addObstacle` returned.
    /// (Python-RVO2 itself erases the single vertex with that number from its list, leaving
    /// the polygon's ring dangling; removing the whole polygon is what callers mean.)
    pub fn remove_obstacle(&mut self, first_vertex: usize) -> PyResult<()> {
        let Some(k) = (0..self.polygons.len()).find(|&k| self.first_vertex(k) == first_vertex) else {
            return Err(unknown_id(format!("no obstacle starts at vertex {first_vertex}")));
        };
        self.polygons.remove(k);
        self.processed.clear();
        self.stale = true;
        Ok(())
    }

    /// The number of polygon `k`'s first vertex in RVO2's vertex list. Processed polygons keep
    /// their numbers (the tree appends split vertices after all of them); polygons added
    /// since follow the tree's vertices.
    fn first_vertex(&self, k: usize) -> usize {
        if self.stale {
            // The simulator still holds the old list; number the new one from scratch.
            return self.polygons[..k].iter().map(Vec::len).sum();
        }
        // The simulator holds exactly `polygons` and numbers them as RVO2 does.
        self.sim.obstacle_first_vertex(swerve::orca::ObstacleId(k as u32)).unwrap_or(usize::MAX)
    }

    /// How many vertices RVO2's list takes from the built tree, and from how many polygons.
    fn tree_part(&self) -> (usize, usize) {
        match self.processed.last() {
            Some(&k) if !self.stale => (self.sim.obstacle_vertices().len(), k),
            _ => (0, 0),
        }
    }

    /// RVO2's vertex list: the processed tree's vertices (with split ones), then the
    /// vertices of polygons added since.
    fn vertex_view(&self, index: usize) -> Option<VertexView> {
        let tree = self.sim.obstacle_vertices();
        let (tree_len, after) = self.tree_part();
        if index < tree_len {
            let v = &tree[index];
            return Some(VertexView { point: v.point, next: v.next as usize, prev: v.prev as usize });
        }
        let mut start = tree_len;
        for polygon in &self.polygons[after..] {
            let len = polygon.len();
            if index < start + len {
                let i = index - start;
                return Some(VertexView {
                    point: polygon[i],
                    next: start + (i + 1) % len,
                    prev: start + (i + len - 1) % len,
                });
            }
            start += len;
        }
        None
    }

    pub fn num_vertices(&self) -> usize {
        let (tree_len, processed) = self.tree_part();
        tree_len + self.polygons[processed..].iter().map(Vec::len).sum::<usize>()
    }

    pub fn vertex(&self, index: usize) -> PyResult<VertexView> {
        self.vertex_view(index)
            .ok_or_else(|| unknown_id(format!("unknown obstacle vertex {index} (there are {})", self.num_vertices())))
    }

    pub fn query_visibility(&self, a: Vec2, b: Vec2, radius: f32) -> PyResult<bool> {
        let a = checked_vec("point1", a)?;
        let b = checked_vec("point2", b)?;
        let radius = swerve_check_non_negative("radius", radius)?;
        Ok(self.sim.query_visibility(a, b, radius))
    }

    /// Starts a fresh simulator with the same settings and obstacle list, keeping the agents
    /// (in order, with their state) or not.
    fn rebuild(&mut self, keep_agents: bool) -> PyResult<()> {
        let old = &self.sim;
        let mut sim = recording(Simulator::new(old.time_step(), old.agent_defaults()).py()?);
        sim.set_global_time(old.global_time()).py()?;
        // Rebuild the obstacle state as it was: the same processing history (each build
        // starts from the last one's split edges), then the polygons added since (agents see
        // them after the next processObstacles, as before).
        let history: &[usize] = if self.stale { &[] } else { &self.processed };
        let mut added = 0;
        for &mark in history {
            for polygon in &self.polygons[added..mark] {
                sim.add_obstacle(polygon).py()?;
            }
            added = mark;
            sim.process_obstacles();
        }
        for polygon in &self.polygons[added..] {
            sim.add_obstacle(polygon).py()?;
        }
        if keep_agents {
            for &id in old.agent_ids() {
                let new = sim.add_agent_with(old.agent_position(id).py()?, old.agent_params(id).py()?).py()?;
                sim.set_agent_velocity(new, old.agent_velocity(id).py()?).py()?;
                sim.set_agent_pref_velocity(new, old.agent_pref_velocity(id).py()?).py()?;
            }
        }
        self.sim = sim;
        self.stale = false;
        Ok(())
    }
}

fn checked_vec(what: &'static str, v: Vec2) -> PyResult<Vec2> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(crate::errors::invalid_value(format!("{what} must be finite, got ({}, {})", v.x, v.y)))
    }
}

fn swerve_check_non_negative(what: &'static str, value: f32) -> PyResult<f32> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(crate::errors::invalid_value(format!("{what} must be finite and at least 0, got {value}")))
    }
}
