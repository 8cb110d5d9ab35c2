//! `swerve.rvo2_3d.PyRVOSimulator`: the class of `rvo23d` (the Python binding of RVO2-3D,
//! PyPI `jt-pyrvo23d`), method for method (camelCase, tuples in and out), so that
//! `import swerve.rvo2_3d as rvo23d` runs existing code unchanged.

#![allow(non_snake_case)] // The method and argument names are rvo23d's.

use crate::errors::{invalid_value, unknown_id, IntoPyResult};
use crate::native3d::vec3;
use glam::Vec3;
use pyo3::prelude::*;
use swerve::orca::AgentId;
use swerve::orca3d::{AgentParams, Simulator};

fn triple(v: Vec3) -> (f32, f32, f32) {
    (v.x, v.y, v.z)
}

fn checked(what: &str, v: Vec3) -> PyResult<Vec3> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(invalid_value(format!("{what} must be finite, got ({}, {}, {})", v.x, v.y, v.z)))
    }
}

/// `rvo23d`'s `PyRVOSimulator` (RVO2-3D's `RVOSimulator`), backed by swerve (RVO2-3D-exact
/// results).
///
/// Unlike RVO2-3D, bad values raise `ValueError` and unknown agent or neighbour numbers raise
/// `LookupError` (both also `swerve.SwerveError`) instead of corrupting memory.
#[pyclass(module = "swerve.rvo2_3d", name = "PyRVOSimulator")]
pub struct PyRVOSimulator3d {
    /// Records decisions: RVO2-3D keeps every agent's neighbours, which
    /// `getAgentAgentNeighbor` reads after a step.
    sim: Simulator,
    /// The velocity `addAgent(pos)` gives new agents (RVO2-3D's default agent velocity).
    default_velocity: Vec3,
}

impl PyRVOSimulator3d {
    /// The agent with RVO2-3D number `number`. Agents are never removed here, so the library's
    /// ids (handed out 0, 1, 2, … in order) are RVO2-3D's numbers.
    fn agent(&self, number: usize) -> PyResult<AgentId> {
        match u32::try_from(number) {
            Ok(n) if self.sim.contains_agent(AgentId(n)) => Ok(AgentId(n)),
            _ => Err(unknown_id(format!("unknown agent number {number} (there are {})", self.sim.num_agents()))),
        }
    }

    fn params(&self, number: usize) -> PyResult<AgentParams> {
        self.sim.agent_params(self.agent(number)?).py()
    }

    /// Changes one parameter of agent `number` (validated; nothing changes on error).
    fn update_params(&mut self, number: usize, change: impl FnOnce(&mut AgentParams)) -> PyResult<()> {
        let id = self.agent(number)?;
        let mut params = self.sim.agent_params(id).py()?;
        change(&mut params);
        self.sim.set_agent_params(id, params).py()
    }

    /// Adds an agent that starts at `velocity` (the library starts agents at rest).
    fn add(&mut self, position: Vec3, params: AgentParams, velocity: Vec3) -> PyResult<usize> {
        // Check the velocity before adding so that a bad one adds nothing.
        let velocity = checked("agent velocity", velocity)?;
        let id = self.sim.add_agent_with(position, params).py()?;
        self.sim.set_agent_velocity(id, velocity).py()?;
        Ok(id.0 as usize)
    }
}

#[pymethods]
impl PyRVOSimulator3d {
    #[new]
    #[pyo3(signature = (timeStep, neighborDist, maxNeighbors, timeHorizon, radius, maxSpeed, velocity = None))]
    fn new(
        timeStep: f32,
        neighborDist: f32,
        maxNeighbors: usize,
        timeHorizon: f32,
        radius: f32,
        maxSpeed: f32,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let params = AgentParams {
            neighbor_dist: neighborDist,
            max_neighbors: maxNeighbors,
            time_horizon: timeHorizon,
            radius,
            max_speed: maxSpeed,
        };
        let velocity = velocity.map(|v| vec3(v, "velocity")).transpose()?.unwrap_or(Vec3::ZERO);
        let default_velocity = checked("default velocity", velocity)?;
        let mut sim = Simulator::new(timeStep, params).py()?;
        sim.set_record_decisions(true);
        Ok(PyRVOSimulator3d { sim, default_velocity })
    }

    /// `addAgent(pos)` with the defaults, or `addAgent(pos, neighborDist, maxNeighbors,
    /// timeHorizon, radius, maxSpeed, velocity)`. Returns the agent number.
    #[pyo3(signature = (pos, neighborDist = None, maxNeighbors = None, timeHorizon = None, radius = None, maxSpeed = None, velocity = None))]
    #[allow(clippy::too_many_arguments)]
    fn addAgent(
        &mut self,
        pos: &Bound<'_, PyAny>,
        neighborDist: Option<f32>,
        maxNeighbors: Option<usize>,
        timeHorizon: Option<f32>,
        radius: Option<f32>,
        maxSpeed: Option<f32>,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let position = vec3(pos, "position")?;
        // rvo23d's rule: without `neighborDist` the short form (the rest is ignored, as
        // there); with it, every argument.
        let Some(neighbor_dist) = neighborDist else {
            return self.add(position, self.sim.agent_defaults(), self.default_velocity);
        };
        let (Some(max_neighbors), Some(time_horizon), Some(radius), Some(max_speed), Some(v)) =
            (maxNeighbors, timeHorizon, radius, maxSpeed, velocity)
        else {
            return Err(invalid_value("Either pass only 'pos', or pass all parameters."));
        };
        let params = AgentParams { neighbor_dist, max_neighbors, time_horizon, radius, max_speed };
        params.validate().py()?;
        self.add(position, params, vec3(v, "velocity")?)
    }

    /// One simulation step (the GIL is released meanwhile).
    fn doStep(&mut self, py: Python<'_>) {
        let sim = &mut self.sim;
        py.allow_threads(|| sim.step());
    }

    /// The number of the `neighbor_no`-th nearest agent that agent `agent_no` took into
    /// account in the last step.
    fn getAgentAgentNeighbor(&self, agent_no: usize, neighbor_no: usize) -> PyResult<usize> {
        let mut neighbors = self.sim.agent_neighbors(self.agent(agent_no)?).py()?;
        let count = neighbors.len();
        neighbors.nth(neighbor_no).map(|id| id.0 as usize).ok_or_else(|| {
            unknown_id(format!("agent {agent_no} has {count} agent neighbours, no number {neighbor_no}"))
        })
    }
    fn getAgentMaxNeighbors(&self, agent_no: usize) -> PyResult<usize> {
        Ok(self.params(agent_no)?.max_neighbors)
    }
    fn getAgentMaxSpeed(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.params(agent_no)?.max_speed)
    }
    fn getAgentNeighborDist(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.params(agent_no)?.neighbor_dist)
    }
    fn getAgentNumAgentNeighbors(&self, agent_no: usize) -> PyResult<usize> {
        Ok(self.sim.agent_neighbors(self.agent(agent_no)?).py()?.len())
    }
    fn getAgentPosition(&self, agent_no: usize) -> PyResult<(f32, f32, f32)> {
        self.sim.agent_position(self.agent(agent_no)?).py().map(triple)
    }
    fn getAgentPrefVelocity(&self, agent_no: usize) -> PyResult<(f32, f32, f32)> {
        self.sim.agent_pref_velocity(self.agent(agent_no)?).py().map(triple)
    }
    fn getAgentRadius(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.params(agent_no)?.radius)
    }
    fn getAgentTimeHorizon(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.params(agent_no)?.time_horizon)
    }
    fn getAgentVelocity(&self, agent_no: usize) -> PyResult<(f32, f32, f32)> {
        self.sim.agent_velocity(self.agent(agent_no)?).py().map(triple)
    }
    fn getGlobalTime(&self) -> f32 {
        self.sim.global_time()
    }
    fn getNumAgents(&self) -> usize {
        self.sim.num_agents()
    }
    fn getTimeStep(&self) -> f32 {
        self.sim.time_step()
    }
    /// The parameters and velocity of agents added with `addAgent(pos)` from now on.
    #[pyo3(signature = (neighbor_dist, max_neighbors, time_horizon, radius, max_speed, velocity = None))]
    fn setAgentDefaults(
        &mut self,
        neighbor_dist: f32,
        max_neighbors: usize,
        time_horizon: f32,
        radius: f32,
        max_speed: f32,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let params = AgentParams { neighbor_dist, max_neighbors, time_horizon, radius, max_speed };
        // rvo23d's default here is the 2-tuple `(0, 0)`, which it then fails to index;
        // at rest is what it means.
        let velocity = velocity.map(|v| vec3(v, "velocity")).transpose()?.unwrap_or(Vec3::ZERO);
        let velocity = checked("default velocity", velocity)?;
        self.sim.set_agent_defaults(params).py()?;
        self.default_velocity = velocity;
        Ok(())
    }
    fn setAgentMaxNeighbors(&mut self, agent_no: usize, max_neighbors: usize) -> PyResult<()> {
        self.update_params(agent_no, |p| p.max_neighbors = max_neighbors)
    }
    fn setAgentMaxSpeed(&mut self, agent_no: usize, max_speed: f32) -> PyResult<()> {
        self.update_params(agent_no, |p| p.max_speed = max_speed)
    }
    fn setAgentNeighborDist(&mut self, agent_no: usize, neighbor_dist: f32) -> PyResult<()> {
        self.update_params(agent_no, |p| p.neighbor_dist = neighbor_dist)
    }
    fn setAgentPosition(&mut self, agent_no: usize, position: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = self.agent(agent_no)?;
        self.sim.set_agent_position(id, vec3(position, "position")?).py()
    }
    fn setAgentPrefVelocity(&mut self, agent_no: usize, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = self.agent(agent_no)?;
        self.sim.set_agent_pref_velocity(id, vec3(velocity, "preferred velocity")?).py()
    }
    fn setAgentRadius(&mut self, agent_no: usize, radius: f32) -> PyResult<()> {
        self.update_params(agent_no, |p| p.radius = radius)
    }
    fn setAgentTimeHorizon(&mut self, agent_no: usize, time_horizon: f32) -> PyResult<()> {
        self.update_params(agent_no, |p| p.time_horizon = time_horizon)
    }
    fn setAgentVelocity(&mut self, agent_no: usize, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = self.agent(agent_no)?;
        self.sim.set_agent_velocity(id, vec3(velocity, "velocity")?).py()
    }
    fn setTimeStep(&mut self, time_step: f32) -> PyResult<()> {
        self.sim.set_time_step(time_step).py()
    }

    fn __repr__(&self) -> String {
        format!("PyRVOSimulator(agents={}, time={})", self.sim.num_agents(), self.sim.global_time())
    }
}
