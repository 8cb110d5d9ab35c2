//! `swerve.rvo2.PyRVOSimulator`: Python-RVO2's class, method for method (camelCase, tuples
//! in and out), so that `import swerve.rvo2 as rvo2` runs existing code unchanged.

#![allow(non_snake_case)] // The method and argument names are Python-RVO2's.

use crate::convert::vec2;
use crate::errors::invalid_value;
use crate::numbered::NumberedCrowd;
use glam::Vec2;
use pyo3::prelude::*;
use swerve::AgentParams;

/// Reads an obstacle's vertex list: any iterable of `(x, y)` pairs.
pub fn vertex_list(vertices: &Bound<'_, PyAny>) -> PyResult<Vec<Vec2>> {
    vertices.try_iter()?.map(|v| vec2(&v?, "obstacle vertex")).collect()
}

fn pair(v: Vec2) -> (f32, f32) {
    (v.x, v.y)
}

/// Python-RVO2's `PyRVOSimulator`, backed by swerve (RVO2-exact results).
///
/// Unlike RVO2, bad values raise `ValueError` and unknown agent numbers raise `LookupError`
/// (both also `swerve.SwerveError`) instead of corrupting memory.
#[pyclass(module = "swerve.rvo2", name = "PyRVOSimulator")]
pub struct PyRVOSimulator {
    crowd: NumberedCrowd,
}

#[pymethods]
impl PyRVOSimulator {
    #[new]
    #[pyo3(signature = (timeStep, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        timeStep: f32,
        neighborDist: f32,
        maxNeighbors: usize,
        timeHorizon: f32,
        timeHorizonObst: f32,
        radius: f32,
        maxSpeed: f32,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let params = AgentParams {
            neighbor_dist: neighborDist,
            max_neighbors: maxNeighbors,
            time_horizon: timeHorizon,
            time_horizon_obst: timeHorizonObst,
            radius,
            max_speed: maxSpeed,
        };
        let velocity = velocity.map(|v| vec2(v, "velocity")).transpose()?.unwrap_or(Vec2::ZERO);
        Ok(PyRVOSimulator { crowd: NumberedCrowd::new(timeStep, params, velocity)? })
    }

    /// `addAgent(pos)` with the defaults, or `addAgent(pos, neighborDist, maxNeighbors,
    /// timeHorizon, timeHorizonObst, radius, maxSpeed, velocity)`. Returns the agent number.
    #[pyo3(signature = (pos, neighborDist = None, maxNeighbors = None, timeHorizon = None, timeHorizonObst = None, radius = None, maxSpeed = None, velocity = None))]
    #[allow(clippy::too_many_arguments)]
    fn addAgent(
        &mut self,
        pos: &Bound<'_, PyAny>,
        neighborDist: Option<f32>,
        maxNeighbors: Option<usize>,
        timeHorizon: Option<f32>,
        timeHorizonObst: Option<f32>,
        radius: Option<f32>,
        maxSpeed: Option<f32>,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let position = vec2(pos, "position")?;
        let Some(neighbor_dist) = neighborDist else {
            return self.crowd.add_default_agent(position);
        };
        // Python-RVO2's own rule: the long form needs every argument.
        let (Some(max_neighbors), Some(time_horizon), Some(time_horizon_obst), Some(radius), Some(max_speed), Some(v)) =
            (maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity)
        else {
            return Err(invalid_value("Either pass only 'pos', or pass all parameters."));
        };
        let params = AgentParams { neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed };
        self.crowd.add_agent(position, params, vec2(v, "velocity")?)
    }

    /// Adds an obstacle polygon (counter-clockwise: solid; clockwise: enclosing boundary).
    /// Returns the number of its first vertex.
    fn addObstacle(&mut self, vertices: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.crowd.add_obstacle(vertex_list(vertices)?)
    }

    /// Forgets every obstacle; agents keep seeing them until the next `processObstacles`.
    fn clearObstacle(&mut self) {
        self.crowd.clear_obstacles();
    }

    /// Removes the obstacle whose first vertex number is `obstacle_no` (what `addObstacle`
    /// returned); takes effect at the next `processObstacles`.
    fn removeObstacle(&mut self, obstacle_no: usize) -> PyResult<()> {
        self.crowd.remove_obstacle(obstacle_no)
    }

    /// One simulation step (the GIL is released meanwhile).
    fn doStep(&mut self, py: Python<'_>) -> PyResult<()> {
        self.crowd.check_can_step()?;
        let sim = self.crowd.sim_mut();
        py.allow_threads(|| sim.step());
        Ok(())
    }

    fn getAgentAgentNeighbor(&self, agent_no: usize, neighbor_no: usize) -> PyResult<usize> {
        self.crowd.agent_neighbor(agent_no, neighbor_no)
    }
    fn getAgentMaxNeighbors(&self, agent_no: usize) -> PyResult<usize> {
        Ok(self.crowd.params(agent_no)?.max_neighbors)
    }
    fn getAgentMaxSpeed(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.max_speed)
    }
    fn getAgentNeighborDist(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.neighbor_dist)
    }
    fn getAgentNumAgentNeighbors(&self, agent_no: usize) -> PyResult<usize> {
        self.crowd.num_agent_neighbors(agent_no)
    }
    fn getAgentNumObstacleNeighbors(&self, agent_no: usize) -> PyResult<usize> {
        self.crowd.num_obstacle_neighbors(agent_no)
    }
    fn getAgentNumORCALines(&self, agent_no: usize) -> PyResult<usize> {
        Ok(self.crowd.half_planes(agent_no)?.len())
    }
    fn getAgentObstacleNeighbor(&self, agent_no: usize, obstacle_no: usize) -> PyResult<usize> {
        self.crowd.obstacle_neighbor(agent_no, obstacle_no)
    }
    /// `(point.x, point.y, direction.x, direction.y)` of ORCA line `line_no` (obstacle lines
    /// first, then one per agent neighbour); the permitted side is the left of the direction.
    fn getAgentORCALine(&self, agent_no: usize, line_no: usize) -> PyResult<(f32, f32, f32, f32)> {
        let h = self.crowd.half_plane(agent_no, line_no)?;
        Ok((h.point.x, h.point.y, h.direction.x, h.direction.y))
    }
    fn getAgentPosition(&self, agent_no: usize) -> PyResult<(f32, f32)> {
        self.crowd.position(agent_no).map(pair)
    }
    fn getAgentPrefVelocity(&self, agent_no: usize) -> PyResult<(f32, f32)> {
        self.crowd.pref_velocity(agent_no).map(pair)
    }
    fn getAgentRadius(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.radius)
    }
    fn getAgentTimeHorizon(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.time_horizon)
    }
    fn getAgentTimeHorizonObst(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.time_horizon_obst)
    }
    fn getAgentVelocity(&self, agent_no: usize) -> PyResult<(f32, f32)> {
        self.crowd.velocity(agent_no).map(pair)
    }
    fn getGlobalTime(&self) -> f32 {
        self.crowd.global_time()
    }
    fn getNumAgents(&self) -> usize {
        self.crowd.num_agents()
    }
    fn getNumObstacleVertices(&self) -> usize {
        self.crowd.num_vertices()
    }
    fn getObstacleVertex(&self, vertex_no: usize) -> PyResult<(f32, f32)> {
        Ok(pair(self.crowd.vertex(vertex_no)?.point))
    }
    fn getNextObstacleVertexNo(&self, vertex_no: usize) -> PyResult<usize> {
        Ok(self.crowd.vertex(vertex_no)?.next)
    }
    fn getPrevObstacleVertexNo(&self, vertex_no: usize) -> PyResult<usize> {
        Ok(self.crowd.vertex(vertex_no)?.prev)
    }
    fn getTimeStep(&self) -> f32 {
        self.crowd.time_step()
    }
    /// Builds the obstacle tree; agents see obstacles added before this call.
    fn processObstacles(&mut self) -> PyResult<()> {
        self.crowd.process_obstacles()
    }
    /// Whether a disc of `radius` can move from `point1` to `point2` without hitting an
    /// obstacle.
    #[pyo3(signature = (point1, point2, radius = 0.0))]
    fn queryVisibility(&self, point1: &Bound<'_, PyAny>, point2: &Bound<'_, PyAny>, radius: f32) -> PyResult<bool> {
        self.crowd.query_visibility(vec2(point1, "point1")?, vec2(point2, "point2")?, radius)
    }
    #[pyo3(signature = (neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed, velocity = None))]
    #[allow(clippy::too_many_arguments)]
    fn setAgentDefaults(
        &mut self,
        neighbor_dist: f32,
        max_neighbors: usize,
        time_horizon: f32,
        time_horizon_obst: f32,
        radius: f32,
        max_speed: f32,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let params = AgentParams { neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed };
        let velocity = velocity.map(|v| vec2(v, "velocity")).transpose()?.unwrap_or(Vec2::ZERO);
        self.crowd.set_defaults(params, velocity)
    }
    fn setAgentMaxNeighbors(&mut self, agent_no: usize, max_neighbors: usize) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.max_neighbors = max_neighbors)
    }
    fn setAgentMaxSpeed(&mut self, agent_no: usize, max_speed: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.max_speed = max_speed)
    }
    fn setAgentNeighborDist(&mut self, agent_no: usize, neighbor_dist: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.neighbor_dist = neighbor_dist)
    }
    fn setAgentPosition(&mut self, agent_no: usize, position: &Bound<'_, PyAny>) -> PyResult<()> {
        self.crowd.set_position(agent_no, vec2(position, "position")?)
    }
    fn setAgentPrefVelocity(&mut self, agent_no: usize, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.crowd.set_pref_velocity(agent_no, vec2(velocity, "preferred velocity")?)
    }
    fn setAgentRadius(&mut self, agent_no: usize, radius: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.radius = radius)
    }
    fn setAgentTimeHorizon(&mut self, agent_no: usize, time_horizon: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.time_horizon = time_horizon)
    }
    fn setAgentTimeHorizonObst(&mut self, agent_no: usize, timeHorizonObst: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.time_horizon_obst = timeHorizonObst)
    }
    fn setAgentVelocity(&mut self, agent_no: usize, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.crowd.set_velocity(agent_no, vec2(velocity, "velocity")?)
    }
    fn setTimeStep(&mut self, time_step: f32) -> PyResult<()> {
        self.crowd.set_time_step(time_step)
    }

    fn __repr__(&self) -> String {
        format!(
            "PyRVOSimulator(agents={}, obstacle_vertices={}, time={})",
            self.crowd.num_agents(),
            self.crowd.num_vertices(),
            self.crowd.global_time()
        )
    }
}
