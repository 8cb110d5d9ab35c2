//! `swerve.pyrvo`: pyrvo's `RVOSimulator` and `Vector2`, method for method (snake_case,
//! `Vector2` results), so that `import swerve.pyrvo as pyrvo` runs existing code unchanged.

use crate::convert::vec2;
use crate::errors::invalid_value;
use crate::numbered::NumberedCrowd;
use crate::rvo2::vertex_list;
use glam::Vec2;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use swerve::AgentParams;

/// pyrvo's 2-D vector (`f32` components, like RVO2's `Vector2`).
#[pyclass(module = "swerve.pyrvo", name = "Vector2", frozen, eq)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vector2 {
    /// The x component.
    #[pyo3(get)]
    pub x: f32,
    /// The y component.
    #[pyo3(get)]
    pub y: f32,
}

impl From<Vec2> for Vector2 {
    fn from(v: Vec2) -> Self {
        Vector2 { x: v.x, y: v.y }
    }
}

#[pymethods]
impl Vector2 {
    #[new]
    #[pyo3(signature = (x = 0.0, y = 0.0))]
    fn new(x: f32, y: f32) -> Self {
        Vector2 { x, y }
    }

    /// `(x, y)` as a tuple of floats.
    // pyrvo's name; PyO3 methods take `&self`, never `self` by value.
    #[allow(clippy::wrong_self_convention)]
    fn to_tuple(&self) -> (f32, f32) {
        (self.x, self.y)
    }

    /// A `Vector2` from a 2-tuple.
    #[staticmethod]
    fn from_tuple(value: &Bound<'_, PyTuple>) -> PyResult<Self> {
        Ok(vec2(value.as_any(), "tuple")?.into())
    }

    /// A `Vector2` from any sequence of two numbers.
    #[staticmethod]
    fn from_list(value: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(vec2(value, "list")?.into())
    }

    fn __repr__(&self) -> String {
        // pyrvo prints with C++'s std::to_string, i.e. printf's "%f".
        format!("Vector2({:.6}, {:.6})", self.x, self.y)
    }

    fn __len__(&self) -> usize {
        2
    }

    fn __getitem__(&self, index: isize) -> PyResult<f32> {
        match index {
            0 | -2 => Ok(self.x),
            1 | -1 => Ok(self.y),
            _ => Err(pyo3::exceptions::PyIndexError::new_err("Vector2 index out of range")),
        }
    }
}

fn params(
    neighbor_dist: f32,
    max_neighbors: usize,
    time_horizon: f32,
    time_horizon_obst: f32,
    radius: f32,
    max_speed: f32,
) -> AgentParams {
    AgentParams { neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed }
}

/// The six agent parameters, all given or none.
type Six = (Option<f32>, Option<usize>, Option<f32>, Option<f32>, Option<f32>, Option<f32>);

fn all_or_none(six: Six, what: &str) -> PyResult<Option<AgentParams>> {
    match six {
        (None, None, None, None, None, None) => Ok(None),
        (Some(a), Some(b), Some(c), Some(d), Some(e), Some(f)) => Ok(Some(params(a, b, c, d, e, f))),
        _ => Err(invalid_value(format!(
            "{what} takes either none or all of neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed"
        ))),
    }
}

/// pyrvo's `RVOSimulator`, backed by swerve (RVO2-exact results).
///
/// Unlike RVO2, bad values raise `ValueError` and unknown agent numbers raise `LookupError`
/// (both also `swerve.SwerveError`) instead of corrupting memory.
#[pyclass(module = "swerve.pyrvo", name = "RVOSimulator")]
pub struct RVOSimulator {
    crowd: NumberedCrowd,
}

#[pymethods]
impl RVOSimulator {
    /// `RVOSimulator()` (set a time step and defaults later) or
    /// `RVOSimulator(time_step, neighbor_dist, max_neighbors, time_horizon, time_horizon_obst,
    /// radius, max_speed[, velocity])`.
    #[new]
    #[pyo3(signature = (time_step = None, neighbor_dist = None, max_neighbors = None, time_horizon = None, time_horizon_obst = None, radius = None, max_speed = None, velocity = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        time_step: Option<f32>,
        neighbor_dist: Option<f32>,
        max_neighbors: Option<usize>,
        time_horizon: Option<f32>,
        time_horizon_obst: Option<f32>,
        radius: Option<f32>,
        max_speed: Option<f32>,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let defaults = all_or_none(
            (neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed),
            "RVOSimulator()",
        )?;
        let crowd = match (time_step, defaults) {
            (None, None) if velocity.is_none() => NumberedCrowd::empty(),
            (Some(time_step), Some(defaults)) => {
                let velocity = velocity.map(|v| vec2(v, "velocity")).transpose()?.unwrap_or(Vec2::ZERO);
                NumberedCrowd::new(time_step, defaults, velocity)?
            }
            _ => return Err(invalid_value("RVOSimulator() takes no arguments, 7 arguments or 8 arguments")),
        };
        Ok(RVOSimulator { crowd })
    }

    /// `add_agent(position)` with the defaults, or `add_agent(position, neighbor_dist,
    /// max_neighbors, time_horizon, time_horizon_obst, radius, max_speed[, velocity])`.
    /// Returns the agent number.
    #[pyo3(signature = (position, neighbor_dist = None, max_neighbors = None, time_horizon = None, time_horizon_obst = None, radius = None, max_speed = None, velocity = None))]
    #[allow(clippy::too_many_arguments)]
    fn add_agent(
        &mut self,
        position: &Bound<'_, PyAny>,
        neighbor_dist: Option<f32>,
        max_neighbors: Option<usize>,
        time_horizon: Option<f32>,
        time_horizon_obst: Option<f32>,
        radius: Option<f32>,
        max_speed: Option<f32>,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let position = vec2(position, "position")?;
        let six = (neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed);
        match (all_or_none(six, "add_agent")?, velocity) {
            (None, None) => self.crowd.add_default_agent(position),
            (Some(p), None) => self.crowd.add_agent(position, p, Vec2::ZERO),
            (Some(p), Some(v)) => self.crowd.add_agent(position, p, vec2(v, "velocity")?),
            (None, Some(_)) => Err(invalid_value("add_agent: a velocity needs the six agent parameters before it")),
        }
    }

    /// Adds an obstacle polygon (counter-clockwise: solid; clockwise: enclosing boundary).
    /// Returns the number of its first vertex.
    fn add_obstacle(&mut self, vertices: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.crowd.add_obstacle(vertex_list(vertices)?)
    }

    /// Removes every agent; agent numbers start again at 0. Obstacles stay.
    fn clear_agents(&mut self) -> PyResult<()> {
        self.crowd.clear_agents()
    }

    /// One simulation step (the GIL is released meanwhile).
    fn do_step(&mut self, py: Python<'_>) -> PyResult<()> {
        self.crowd.check_can_step()?;
        let sim = self.crowd.sim_mut();
        py.allow_threads(|| sim.step());
        Ok(())
    }

    /// Builds the obstacle tree; agents see obstacles added before this call.
    fn process_obstacles(&mut self) -> PyResult<()> {
        self.crowd.process_obstacles()
    }

    fn get_global_time(&self) -> f32 {
        self.crowd.global_time()
    }
    fn get_num_agents(&self) -> usize {
        self.crowd.num_agents()
    }
    fn get_num_obstacle_vertices(&self) -> usize {
        self.crowd.num_vertices()
    }
    fn get_time_step(&self) -> f32 {
        self.crowd.time_step()
    }
    fn set_time_step(&mut self, time_step: f32) -> PyResult<()> {
        self.crowd.set_time_step(time_step)
    }

    fn get_agent_agent_neighbor(&self, agent_no: usize, neighbor_no: usize) -> PyResult<usize> {
        self.crowd.agent_neighbor(agent_no, neighbor_no)
    }
    fn get_agent_max_neighbors(&self, agent_no: usize) -> PyResult<usize> {
        Ok(self.crowd.params(agent_no)?.max_neighbors)
    }
    fn get_agent_max_speed(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.max_speed)
    }
    fn get_agent_neighbor_dist(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.neighbor_dist)
    }
    fn get_agent_num_agent_neighbors(&self, agent_no: usize) -> PyResult<usize> {
        self.crowd.num_agent_neighbors(agent_no)
    }
    fn get_agent_num_obstacle_neighbors(&self, agent_no: usize) -> PyResult<usize> {
        self.crowd.num_obstacle_neighbors(agent_no)
    }
    fn get_agent_num_orca_lines(&self, agent_no: usize) -> PyResult<usize> {
        Ok(self.crowd.half_planes(agent_no)?.len())
    }
    fn get_agent_obstacle_neighbor(&self, agent_no: usize, neighbor_no: usize) -> PyResult<usize> {
        self.crowd.obstacle_neighbor(agent_no, neighbor_no)
    }
    /// `((direction.x, direction.y), (point.x, point.y))` of ORCA line `line_no` (pyrvo's
    /// order: direction first). Obstacle lines come first, then one per agent neighbour.
    fn get_agent_orca_line(&self, agent_no: usize, line_no: usize) -> PyResult<((f32, f32), (f32, f32))> {
        let h = self.crowd.half_plane(agent_no, line_no)?;
        Ok(((h.direction.x, h.direction.y), (h.point.x, h.point.y)))
    }
    fn get_agent_position(&self, agent_no: usize) -> PyResult<Vector2> {
        self.crowd.position(agent_no).map(Vector2::from)
    }
    fn get_agent_pref_velocity(&self, agent_no: usize) -> PyResult<Vector2> {
        self.crowd.pref_velocity(agent_no).map(Vector2::from)
    }
    fn get_agent_radius(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.radius)
    }
    fn get_agent_time_horizon(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.time_horizon)
    }
    fn get_agent_time_horizon_obst(&self, agent_no: usize) -> PyResult<f32> {
        Ok(self.crowd.params(agent_no)?.time_horizon_obst)
    }
    fn get_agent_velocity(&self, agent_no: usize) -> PyResult<Vector2> {
        self.crowd.velocity(agent_no).map(Vector2::from)
    }
    fn get_obstacle_vertex(&self, vertex_no: usize) -> PyResult<Vector2> {
        Ok(self.crowd.vertex(vertex_no)?.point.into())
    }
    fn get_next_obstacle_vertex(&self, vertex_no: usize) -> PyResult<usize> {
        Ok(self.crowd.vertex(vertex_no)?.next)
    }
    fn get_prev_obstacle_vertex(&self, vertex_no: usize) -> PyResult<usize> {
        Ok(self.crowd.vertex(vertex_no)?.prev)
    }

    /// Whether a disc of `radius` (default 0) can move from `point1` to `point2` without
    /// hitting an obstacle.
    #[pyo3(signature = (point1, point2, radius = 0.0))]
    fn query_visibility(&self, point1: &Bound<'_, PyAny>, point2: &Bound<'_, PyAny>, radius: f32) -> PyResult<bool> {
        self.crowd.query_visibility(vec2(point1, "point1")?, vec2(point2, "point2")?, radius)
    }

    /// The parameters (and velocity) `add_agent(position)` gives new agents.
    #[pyo3(signature = (neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed, velocity = None))]
    #[allow(clippy::too_many_arguments)]
    fn set_agent_defaults(
        &mut self,
        neighbor_dist: f32,
        max_neighbors: usize,
        time_horizon: f32,
        time_horizon_obst: f32,
        radius: f32,
        max_speed: f32,
        velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let p = params(neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed);
        let velocity = velocity.map(|v| vec2(v, "velocity")).transpose()?.unwrap_or(Vec2::ZERO);
        self.crowd.set_defaults(p, velocity)
    }
    fn set_agent_max_neighbors(&mut self, agent_no: usize, max_neighbors: usize) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.max_neighbors = max_neighbors)
    }
    fn set_agent_max_speed(&mut self, agent_no: usize, max_speed: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.max_speed = max_speed)
    }
    fn set_agent_neighbor_dist(&mut self, agent_no: usize, neighbor_dist: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.neighbor_dist = neighbor_dist)
    }
    fn set_agent_position(&mut self, agent_no: usize, position: &Bound<'_, PyAny>) -> PyResult<()> {
        self.crowd.set_position(agent_no, vec2(position, "position")?)
    }
    fn set_agent_pref_velocity(&mut self, agent_no: usize, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.crowd.set_pref_velocity(agent_no, vec2(velocity, "preferred velocity")?)
    }
    fn set_agent_radius(&mut self, agent_no: usize, radius: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.radius = radius)
    }
    fn set_agent_time_horizon(&mut self, agent_no: usize, time_horizon: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.time_horizon = time_horizon)
    }
    fn set_agent_time_horizon_obst(&mut self, agent_no: usize, time_horizon_obst: f32) -> PyResult<()> {
        self.crowd.update_params(agent_no, |p| p.time_horizon_obst = time_horizon_obst)
    }
    fn set_agent_velocity(&mut self, agent_no: usize, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.crowd.set_velocity(agent_no, vec2(velocity, "velocity")?)
    }

    fn __repr__(&self) -> String {
        format!(
            "RVOSimulator(agents={}, obstacle_vertices={}, time={})",
            self.crowd.num_agents(),
            self.crowd.num_vertices(),
            self.crowd.global_time()
        )
    }
}
