//! `swerve.Simulator3d`: the numpy API of the 3-D crowd (`swerve::orca3d`, RVO2-3D-exact).
//! The same shape as `swerve.Simulator` one dimension up: agents are added and read in bulk
//! as `(N, 3)` arrays, so a step of a large crowd costs one Python call, not one per agent.
//! Beyond RVO2-3D (which has none), static triangle-mesh obstacles.

use crate::convert::{bit_mask, per_agent, per_agent_count, query_radius};
use crate::errors::{invalid_value, IntoPyResult};
use crate::world3d::index_triples;
use glam::Vec3;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use swerve::orca::{AgentId, LpOutcome};
use swerve::orca3d::{AgentParams, Mover, MoverId, ObstacleId, Simulator};

/// A point or vector from a tuple, a list or a numpy array of three numbers.
///
/// Each component goes through Python's `float()` and is then rounded to `f32`, which is what
/// RVO2-3D's Cython binding (`rvo23d`) does, so the same input gives the same bits.
pub fn vec3(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec3> {
    let len = value.len().map_err(|_| invalid_value(format!("{what} must be a triple of numbers (x, y, z)")))?;
    if len != 3 {
        return Err(invalid_value(format!("{what} must have 3 components, got {len}")));
    }
    let x: f64 = value.get_item(0)?.extract()?;
    let y: f64 = value.get_item(1)?.extract()?;
    let z: f64 = value.get_item(2)?.extract()?;
    // RVO2-3D stores f32; the rounding cast is the one the C++ binding performs.
    Ok(Vec3::new(x as f32, y as f32, z as f32))
}

/// An `(N, 3)` array of numbers as points; any float or int dtype is converted to `float32`.
pub fn points3(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Vec3>> {
    let numpy = value.py().import("numpy")?;
    let kwargs = PyDict::new(value.py());
    kwargs.set_item("dtype", numpy.getattr("float32")?)?;
    let array = numpy
        .call_method("asarray", (value,), Some(&kwargs))
        .map_err(|e| invalid_value(format!("cannot read a numeric array: {e}")))?;
    let array: PyReadonlyArray2<'_, f32> =
        array.extract().map_err(|_| invalid_value(format!("{what} must be a 2-D array of shape (N, 3)")))?;
    let shape = array.shape();
    if shape[1] != 3 {
        return Err(invalid_value(format!("{what} must have shape (N, 3), got ({}, {})", shape[0], shape[1])));
    }
    let view = array.as_array();
    Ok(view.rows().into_iter().map(|row| Vec3::new(row[0], row[1], row[2])).collect())
}

/// `[x0, y0, z0, x1, …]` as an `(N, 3)` float32 array.
fn to_array<'py>(py: Python<'py>, values: &[Vec3]) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let flat: Vec<f32> = values.iter().flat_map(|v| v.to_array()).collect();
    PyArray1::from_vec(py, flat).reshape([values.len(), 3])
}

fn triple(v: Vec3) -> (f32, f32, f32) {
    (v.x, v.y, v.z)
}

fn id(value: u32) -> AgentId {
    AgentId(value)
}

/// Rejects a non-finite vector with `what` and the row it is in.
fn check_finite(values: &[Vec3], what: &str) -> PyResult<()> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => {
            let v = values[i];
            Err(invalid_value(format!("{what} must be finite, row {i} is ({}, {}, {})", v.x, v.y, v.z)))
        }
    }
}

fn check_rows(values: &[Vec3], n: usize, what: &str) -> PyResult<()> {
    if values.len() != n {
        return Err(invalid_value(format!("{what} must have {n} rows (one per agent), got {}", values.len())));
    }
    check_finite(values, what)
}

/// Keyword parameters of an agent: each `None` keeps the simulator's default.
struct ParamArgs<'a, 'py> {
    neighbor_dist: Option<&'a Bound<'py, PyAny>>,
    max_neighbors: Option<&'a Bound<'py, PyAny>>,
    time_horizon: Option<&'a Bound<'py, PyAny>>,
    radius: Option<&'a Bound<'py, PyAny>>,
    max_speed: Option<&'a Bound<'py, PyAny>>,
}

impl ParamArgs<'_, '_> {
    /// One `AgentParams` per agent: scalars apply to all, arrays give one value each.
    fn resolve(&self, n: usize, defaults: AgentParams) -> PyResult<Vec<AgentParams>> {
        let floats = |arg: Option<&Bound<'_, PyAny>>, default: f32, what: &str| match arg {
            Some(value) => per_agent(value, n, what),
            None => Ok(vec![default; n]),
        };
        let neighbor_dist = floats(self.neighbor_dist, defaults.neighbor_dist, "neighbor_dist")?;
        let time_horizon = floats(self.time_horizon, defaults.time_horizon, "time_horizon")?;
        let radius = floats(self.radius, defaults.radius, "radius")?;
        let max_speed = floats(self.max_speed, defaults.max_speed, "max_speed")?;
        let max_neighbors = match self.max_neighbors {
            Some(value) => per_agent_count(value, n, "max_neighbors")?,
            None => vec![defaults.max_neighbors; n],
        };
        (0..n)
            .map(|i| {
                let params = AgentParams {
                    neighbor_dist: neighbor_dist[i],
                    max_neighbors: max_neighbors[i],
                    time_horizon: time_horizon[i],
                    radius: radius[i],
                    max_speed: max_speed[i],
                };
                params.validate().py()?;
                Ok(params)
            })
            .collect()
    }
}

/// A 3-D ORCA crowd of spheres (RVO2-3D-exact) with a numpy interface.
///
/// Agents are identified by stable integer ids (0, 1, 2, … in order of addition, never
/// reused after `remove_agent`). Bulk methods (`positions()`, `set_pref_velocities()`, …)
/// use the order of `agent_ids()`. Static obstacles (`add_obstacle`, `add_box_obstacle`) are
/// triangle meshes every agent keeps clear of, beyond RVO2-3D.
#[pyclass(module = "swerve", name = "Simulator3d")]
pub struct PySimulator3d {
    sim: Simulator,
}

#[pymethods]
impl PySimulator3d {
    /// A simulator with time step `time_step` (s) and default agent parameters (RVO2-3D's
    /// Sphere example values unless given): neighbour distance (m), max neighbours, time
    /// horizon (s), radius (m), max speed (m/s). `record_decisions`: see the property.
    #[new]
    #[pyo3(signature = (time_step, *, neighbor_dist = 15.0, max_neighbors = 10, time_horizon = 10.0, radius = 1.5, max_speed = 2.0, record_decisions = false))]
    fn new(
        time_step: f32,
        neighbor_dist: f32,
        max_neighbors: usize,
        time_horizon: f32,
        radius: f32,
        max_speed: f32,
        record_decisions: bool,
    ) -> PyResult<Self> {
        let defaults = AgentParams { neighbor_dist, max_neighbors, time_horizon, radius, max_speed };
        let mut sim = Simulator::new(time_step, defaults).py()?;
        sim.set_record_decisions(record_decisions);
        Ok(PySimulator3d { sim })
    }

    /// Whether each step keeps every agent's neighbours, ORCA planes and linear-program
    /// outcome for `neighbors()`, `planes()`, `obstacle_plane_count()` and
    /// `first_infeasible()` (which raise `SwerveError` otherwise). Off by default, which makes
    /// large crowds step faster; records fill from the next step on.
    #[getter]
    fn get_record_decisions(&self) -> bool {
        self.sim.records_decisions()
    }

    #[setter]
    fn set_record_decisions(&mut self, record: bool) {
        self.sim.set_record_decisions(record);
    }

    /// Adds `N` agents at `positions` (shape `(N, 3)`); every parameter is one number for all
    /// or an array of `N`; `velocities` and `pref_velocities` are `(N, 3)` (default: zero).
    /// Returns their ids as a uint32 array. Nothing is added if any value is invalid.
    #[pyo3(signature = (positions, *, velocities = None, pref_velocities = None, neighbor_dist = None, max_neighbors = None, time_horizon = None, radius = None, max_speed = None))]
    #[allow(clippy::too_many_arguments)]
    fn add_agents<'py>(
        &mut self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        velocities: Option<&Bound<'py, PyAny>>,
        pref_velocities: Option<&Bound<'py, PyAny>>,
        neighbor_dist: Option<&Bound<'py, PyAny>>,
        max_neighbors: Option<&Bound<'py, PyAny>>,
        time_horizon: Option<&Bound<'py, PyAny>>,
        radius: Option<&Bound<'py, PyAny>>,
        max_speed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let positions = points3(positions, "positions")?;
        let n = positions.len();
        check_finite(&positions, "positions")?;
        let velocities = match velocities {
            Some(v) => points3(v, "velocities")?,
            None => vec![Vec3::ZERO; n],
        };
        check_rows(&velocities, n, "velocities")?;
        let pref_velocities = match pref_velocities {
            Some(v) => points3(v, "pref_velocities")?,
            None => vec![Vec3::ZERO; n],
        };
        check_rows(&pref_velocities, n, "pref_velocities")?;
        let args = ParamArgs { neighbor_dist, max_neighbors, time_horizon, radius, max_speed };
        let params = args.resolve(n, self.sim.agent_defaults())?;
        // Everything is validated: the adds below cannot fail on values.
        let mut ids = Vec::with_capacity(n);
        for i in 0..n {
            let id = self.sim.add_agent_with(positions[i], params[i]).py()?;
            self.sim.set_agent_velocity(id, velocities[i]).py()?;
            self.sim.set_agent_pref_velocity(id, pref_velocities[i]).py()?;
            ids.push(id.0);
        }
        Ok(PyArray1::from_vec(py, ids))
    }

    /// Adds one agent; returns its id. Parameters default to the simulator's.
    #[pyo3(signature = (position, *, velocity = None, pref_velocity = None, neighbor_dist = None, max_neighbors = None, time_horizon = None, radius = None, max_speed = None))]
    #[allow(clippy::too_many_arguments)]
    fn add_agent(
        &mut self,
        position: &Bound<'_, PyAny>,
        velocity: Option<&Bound<'_, PyAny>>,
        pref_velocity: Option<&Bound<'_, PyAny>>,
        neighbor_dist: Option<f32>,
        max_neighbors: Option<usize>,
        time_horizon: Option<f32>,
        radius: Option<f32>,
        max_speed: Option<f32>,
    ) -> PyResult<u32> {
        let d = self.sim.agent_defaults();
        let params = AgentParams {
            neighbor_dist: neighbor_dist.unwrap_or(d.neighbor_dist),
            max_neighbors: max_neighbors.unwrap_or(d.max_neighbors),
            time_horizon: time_horizon.unwrap_or(d.time_horizon),
            radius: radius.unwrap_or(d.radius),
            max_speed: max_speed.unwrap_or(d.max_speed),
        };
        params.validate().py()?;
        let position = vec3(position, "position")?;
        let velocity = velocity.map(|v| vec3(v, "velocity")).transpose()?.unwrap_or(Vec3::ZERO);
        let pref = pref_velocity.map(|v| vec3(v, "pref_velocity")).transpose()?.unwrap_or(Vec3::ZERO);
        check_finite(&[velocity, pref], "velocity")?;
        let id = self.sim.add_agent_with(position, params).py()?;
        self.sim.set_agent_velocity(id, velocity).py()?;
        self.sim.set_agent_pref_velocity(id, pref).py()?;
        Ok(id.0)
    }

    /// Removes an agent; the other ids stay valid and the id is never reused.
    fn remove_agent(&mut self, agent: u32) -> PyResult<()> {
        self.sim.remove_agent(id(agent)).py()
    }

    /// Whether `agent` is a live agent id.
    fn contains_agent(&self, agent: u32) -> bool {
        self.sim.contains_agent(id(agent))
    }

    /// The live agents' ids (uint32), in the row order of the bulk arrays.
    fn agent_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_iter(py, self.sim.agent_ids().iter().map(|a| a.0))
    }

    /// The number of live agents.
    fn __len__(&self) -> usize {
        self.sim.num_agents()
    }

    /// The number of live agents.
    #[getter]
    fn num_agents(&self) -> usize {
        self.sim.num_agents()
    }

    /// Positions (m) as a new `(N, 3)` float32 array.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        to_array(py, self.sim.positions())
    }

    /// Velocities (m/s) as a new `(N, 3)` float32 array.
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        to_array(py, self.sim.velocities())
    }

    /// Preferred velocities (m/s) as a new `(N, 3)` float32 array.
    fn pref_velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        to_array(py, self.sim.pref_velocities())
    }

    /// Radii (m) as a new `(N,)` float32 array.
    fn radii<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let radii: PyResult<Vec<f32>> =
            self.sim.agent_ids().iter().map(|&a| Ok(self.sim.agent_params(a).py()?.radius)).collect();
        Ok(PyArray1::from_vec(py, radii?))
    }

    /// Sets every preferred velocity from an `(N, 3)` array (nothing changes on error).
    fn set_pref_velocities(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points3(values, "pref_velocities")?;
        self.sim.set_pref_velocities(&values).py()
    }

    /// Sets every velocity from an `(N, 3)` array (nothing changes on error).
    fn set_velocities(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points3(values, "velocities")?;
        check_rows(&values, self.sim.num_agents(), "velocities")?;
        for (i, v) in values.into_iter().enumerate() {
            let agent = self.sim.agent_ids()[i];
            self.sim.set_agent_velocity(agent, v).py()?;
        }
        Ok(())
    }

    /// Moves every agent to the rows of an `(N, 3)` array (nothing changes on error).
    fn set_positions(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points3(values, "positions")?;
        check_rows(&values, self.sim.num_agents(), "positions")?;
        for (i, v) in values.into_iter().enumerate() {
            let agent = self.sim.agent_ids()[i];
            self.sim.set_agent_position(agent, v).py()?;
        }
        Ok(())
    }

    /// An agent's position (m) as `(x, y, z)`.
    fn agent_position(&self, agent: u32) -> PyResult<(f32, f32, f32)> {
        self.sim.agent_position(id(agent)).py().map(triple)
    }

    /// An agent's velocity (m/s) as `(x, y, z)`.
    fn agent_velocity(&self, agent: u32) -> PyResult<(f32, f32, f32)> {
        self.sim.agent_velocity(id(agent)).py().map(triple)
    }

    /// Sets one agent's position (m).
    fn set_agent_position(&mut self, agent: u32, position: &Bound<'_, PyAny>) -> PyResult<()> {
        self.sim.set_agent_position(id(agent), vec3(position, "position")?).py()
    }

    /// Sets one agent's velocity (m/s).
    fn set_agent_velocity(&mut self, agent: u32, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.sim.set_agent_velocity(id(agent), vec3(velocity, "velocity")?).py()
    }

    /// Sets one agent's preferred velocity (m/s).
    fn set_agent_pref_velocity(&mut self, agent: u32, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.sim.set_agent_pref_velocity(id(agent), vec3(velocity, "pref_velocity")?).py()
    }

    /// An agent's parameters as a dict.
    fn agent_params<'py>(&self, py: Python<'py>, agent: u32) -> PyResult<Bound<'py, PyDict>> {
        let p = self.sim.agent_params(id(agent)).py()?;
        let d = PyDict::new(py);
        d.set_item("neighbor_dist", p.neighbor_dist)?;
        d.set_item("max_neighbors", p.max_neighbors)?;
        d.set_item("time_horizon", p.time_horizon)?;
        d.set_item("radius", p.radius)?;
        d.set_item("max_speed", p.max_speed)?;
        Ok(d)
    }

    /// Changes some of an agent's parameters (validated; nothing changes on error).
    #[pyo3(signature = (agent, *, neighbor_dist = None, max_neighbors = None, time_horizon = None, radius = None, max_speed = None))]
    fn set_agent_params(
        &mut self,
        agent: u32,
        neighbor_dist: Option<f32>,
        max_neighbors: Option<usize>,
        time_horizon: Option<f32>,
        radius: Option<f32>,
        max_speed: Option<f32>,
    ) -> PyResult<()> {
        let mut p = self.sim.agent_params(id(agent)).py()?;
        p.neighbor_dist = neighbor_dist.unwrap_or(p.neighbor_dist);
        p.max_neighbors = max_neighbors.unwrap_or(p.max_neighbors);
        p.time_horizon = time_horizon.unwrap_or(p.time_horizon);
        p.radius = radius.unwrap_or(p.radius);
        p.max_speed = max_speed.unwrap_or(p.max_speed);
        self.sim.set_agent_params(id(agent), p).py()
    }

    /// Turns the options beyond RVO2-3D on or off (all off: RVO2-3D's behaviour, bit for
    /// bit). `symmetry_breaking`: agents meeting head-on pass on the right of `up`, plus a
    /// seeded jitter of `jitter` m/s; `safe_mode`: `margin` clearance between agents plus
    /// `passes` rounds of overlap projection; `strict_speed_limit`: never exceed max speed.
    #[pyo3(signature = (*, symmetry_breaking = false, safe_mode = false, strict_speed_limit = false, jitter = 0.001, seed = 0, up = None, margin = 0.05, passes = 2))]
    #[allow(clippy::too_many_arguments)]
    fn set_extensions(
        &mut self,
        symmetry_breaking: bool,
        safe_mode: bool,
        strict_speed_limit: bool,
        jitter: f32,
        seed: u64,
        up: Option<&Bound<'_, PyAny>>,
        margin: f32,
        passes: u32,
    ) -> PyResult<()> {
        use swerve::orca3d::{Extensions, OverlapResolution, SymmetryBreaking};
        // A bad value is a mistake even for an option left off (it would surface only when
        // the option is switched on, far from where it was written).
        for (what, value) in [("jitter", jitter), ("margin", margin)] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(crate::errors::invalid_value(format!("{what} must be finite and at least 0, got {value}")));
            }
        }
        let up = match up {
            Some(up) => vec3(up, "up")?,
            None => SymmetryBreaking::default().up,
        };
        let extensions = Extensions {
            symmetry_breaking: symmetry_breaking.then(|| SymmetryBreaking {
                jitter,
                seed,
                up,
                ..SymmetryBreaking::default()
            }),
            overlap_resolution: safe_mode.then_some(OverlapResolution { passes, margin }),
            strict_speed_limit,
        };
        self.sim.set_extensions(extensions).py()
    }

    /// Advances `n` time steps. The GIL is released meanwhile, so other Python threads run.
    #[pyo3(signature = (n = 1))]
    fn step(&mut self, py: Python<'_>, n: usize) {
        let sim = &mut self.sim;
        py.allow_threads(|| {
            for _ in 0..n {
                sim.step();
            }
        });
    }

    /// The time step (s).
    #[getter]
    fn time_step(&self) -> f32 {
        self.sim.time_step()
    }

    #[setter]
    fn set_time_step(&mut self, value: f32) -> PyResult<()> {
        self.sim.set_time_step(value).py()
    }

    /// Simulated time so far (s).
    #[getter]
    fn global_time(&self) -> f32 {
        self.sim.global_time()
    }

    /// The ORCA planes of an agent in the last step as a `(K, 6)` float32 array of rows
    /// `(point_x, point_y, point_z, normal_x, normal_y, normal_z)`: first one per static
    /// obstacle triangle within reach (`obstacle_plane_count(agent)` of them, hard planes), then
    /// one per neighbour in `neighbors()` order (none from a neighbour it does not yield to),
    /// then one per nearby mover: permitted velocities `v` have `(v - point) · normal ≥ 0`.
    fn planes<'py>(&self, py: Python<'py>, agent: u32) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let planes = self.sim.agent_planes(id(agent)).py()?;
        let flat: Vec<f32> =
            planes.iter().flat_map(|p| [p.point.x, p.point.y, p.point.z, p.normal.x, p.normal.y, p.normal.z]).collect();
        PyArray1::from_vec(py, flat).reshape([planes.len(), 6])
    }

    /// How much of the avoidance `agent` takes on (RVO2-3D: 0.5 for everyone); between
    /// weights a and b the first takes a / (a + b); 0 means it never yields.
    fn set_responsibility(&mut self, agent: u32, weight: f32) -> PyResult<()> {
        self.sim.set_agent_responsibility(id(agent), weight).py()
    }

    /// An agent's responsibility weight.
    fn responsibility(&self, agent: u32) -> PyResult<f32> {
        self.sim.agent_responsibility(id(agent)).py()
    }

    /// Limits how fast `agent`'s velocity may change (m/s², > 0; `math.inf` lifts the limit,
    /// RVO2-3D's unlimited agents are the default): each step it changes by at most
    /// `max_acceleration * time_step`.
    fn set_max_acceleration(&mut self, agent: u32, max_acceleration: f32) -> PyResult<()> {
        self.sim.set_agent_max_acceleration(id(agent), max_acceleration).py()
    }

    /// An agent's maximum acceleration (m/s²; `inf` when unlimited).
    fn max_acceleration(&self, agent: u32) -> PyResult<f32> {
        self.sim.agent_max_acceleration(id(agent)).py()
    }

    /// Puts `agent` on the avoidance layers whose bits are set in `layers` (an integer from 0
    /// to 2**32 - 1; default 1, the first layer), as Godot's `avoidance_layers`. Agent A
    /// avoids agent B when `A.avoidance_mask & B.avoidance_layers != 0`: A's neighbours are the
    /// nearest agents it avoids, and when B ignores A, A takes the whole avoidance. Layers 0:
    /// nobody avoids the agent. The defaults (layers 1, mask 1) are RVO2-3D bit for bit.
    fn set_avoidance_layers(&mut self, agent: u32, layers: &Bound<'_, PyAny>) -> PyResult<()> {
        let layers = bit_mask(layers, "avoidance layers")?;
        self.sim.set_agent_avoidance_layers(id(agent), layers).py()
    }

    /// An agent's avoidance layers (a 32-bit mask; 1 unless set).
    fn avoidance_layers(&self, agent: u32) -> PyResult<u32> {
        self.sim.agent_avoidance_layers(id(agent)).py()
    }

    /// Sets which layers `agent` avoids (an integer from 0 to 2**32 - 1; default 1), as Godot's
    /// `avoidance_mask`; see `set_avoidance_layers`. Mask 0: the agent avoids no other agent
    /// (it still avoids movers).
    fn set_avoidance_mask(&mut self, agent: u32, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        let mask = bit_mask(mask, "avoidance mask")?;
        self.sim.set_agent_avoidance_mask(id(agent), mask).py()
    }

    /// An agent's avoidance mask (a 32-bit mask; 1 unless set).
    fn avoidance_mask(&self, agent: u32) -> PyResult<u32> {
        self.sim.agent_avoidance_mask(id(agent)).py()
    }

    /// Adds a non-cooperative moving sphere that agents avoid with full responsibility (a
    /// physics sphere, an aircraft that does not avoid). Returns its id; update it every step
    /// with `set_mover`.
    fn add_mover(&mut self, position: &Bound<'_, PyAny>, velocity: &Bound<'_, PyAny>, radius: f32) -> PyResult<u32> {
        let mover =
            Mover { position: vec3(position, "mover position")?, velocity: vec3(velocity, "mover velocity")?, radius };
        Ok(self.sim.add_mover(mover).py()?.0)
    }

    /// Moves a mover.
    fn set_mover(
        &mut self,
        mover: u32,
        position: &Bound<'_, PyAny>,
        velocity: &Bound<'_, PyAny>,
        radius: f32,
    ) -> PyResult<()> {
        let state =
            Mover { position: vec3(position, "mover position")?, velocity: vec3(velocity, "mover velocity")?, radius };
        self.sim.set_mover(MoverId(mover), state).py()
    }

    /// Removes a mover; the other movers keep their ids.
    fn remove_mover(&mut self, mover: u32) -> PyResult<()> {
        self.sim.remove_mover(MoverId(mover)).py()
    }

    /// Adds a static obstacle (beyond RVO2-3D, which has none): a triangle mesh, `vertices` an
    /// `(N, 3)` array (m) and `triangles` an `(M, 3)` integer array of vertex indices. Both
    /// faces are solid and the mesh need not be closed (a wall, a floor, a building). Every
    /// agent keeps at least its radius from every triangle by a hard plane in its program, from
    /// the next step on. Returns the obstacle's id (0, 1, 2, … never reused). All or nothing: a
    /// non-finite vertex, an index out of range or a triangle without area raises
    /// `InvalidValueError` (a `ValueError`) and adds nothing.
    fn add_obstacle(&mut self, vertices: &Bound<'_, PyAny>, triangles: &Bound<'_, PyAny>) -> PyResult<u32> {
        let vertices = points3(vertices, "vertices")?;
        let triangles = index_triples(triangles)?;
        Ok(self.sim.add_obstacle(&vertices, &triangles).py()?.0)
    }

    /// Adds the solid axis-aligned box from `min` to `max` (each `(x, y, z)`, m) as a static
    /// obstacle; returns its id. Its surface is 12 triangles (`obstacle_triangles`), but it gives
    /// an agent one plane, through the box's nearest point: prefer it to the same box as a mesh. Raises `InvalidValueError` for a non-finite corner or
    /// a box thinner than 1e-4 m in any direction.
    fn add_box_obstacle(&mut self, min: &Bound<'_, PyAny>, max: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.sim.add_box_obstacle(vec3(min, "box min")?, vec3(max, "box max")?).py()?.0)
    }

    /// Removes a static obstacle, from the next step on; the others keep their ids. Raises
    /// `UnknownIdError` (a `LookupError`), changing nothing, for an id never added or removed.
    fn remove_obstacle(&mut self, obstacle: u32) -> PyResult<()> {
        self.sim.remove_obstacle(ObstacleId(obstacle)).py()
    }

    /// Whether a sphere of `radius` (m) can fly straight from `a` to `b` (each `(x, y, z)`)
    /// without touching a static obstacle: the 3-D `query_visibility` (touching counts as
    /// blocked; `a == b` asks whether a sphere at `a` is clear). Raises `InvalidValueError`
    /// for a non-finite point or a radius that is not finite and at least 0.
    #[pyo3(signature = (a, b, radius = 0.0))]
    fn query_visibility(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, radius: f32) -> PyResult<bool> {
        let (a, b) = (vec3(a, "a")?, vec3(b, "b")?);
        check_finite(&[a, b], "query points")?;
        Ok(self.sim.query_visibility(a, b, query_radius(radius)?))
    }

    /// The ids of the static obstacles not removed (uint32), in the order they were added.
    fn obstacle_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_iter(py, self.sim.obstacles().map(|(id, _)| id.0))
    }

    /// A static obstacle's triangles as a new `(M, 3, 3)` float32 array: triangle, corner,
    /// coordinate (a box's 12, a mesh's in the order given).
    fn obstacle_triangles<'py>(&self, py: Python<'py>, obstacle: u32) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let triangles = self.sim.obstacle(ObstacleId(obstacle)).py()?;
        let flat: Vec<f32> = triangles.iter().flat_map(|t| [t.a, t.b, t.c]).flat_map(|v| v.to_array()).collect();
        PyArray1::from_vec(py, flat).reshape([triangles.len(), 3, 3])
    }

    /// Sets how far ahead (s, > 0) `agent` avoids reaching a static obstacle (RVO2's
    /// `timeHorizonObst`): it closes the gap to a triangle at no more than gap / horizon, so a
    /// short horizon lets it fly close before slowing. Default: its `time_horizon`.
    fn set_obstacle_time_horizon(&mut self, agent: u32, horizon: f32) -> PyResult<()> {
        self.sim.set_agent_obstacle_time_horizon(id(agent), horizon).py()
    }

    /// An agent's obstacle time horizon (s): its `time_horizon` unless set.
    fn obstacle_time_horizon(&self, agent: u32) -> PyResult<f32> {
        self.sim.agent_obstacle_time_horizon(id(agent)).py()
    }

    /// How many of `planes(agent)` (the first ones) came from static obstacles in the last
    /// step. Needs `record_decisions`, as `planes()` does.
    fn obstacle_plane_count(&self, agent: u32) -> PyResult<usize> {
        self.sim.agent_obstacle_plane_count(id(agent)).py()
    }

    /// The ids of the agents `agent` took into account in the last step, nearest first.
    fn neighbors<'py>(&self, py: Python<'py>, agent: u32) -> PyResult<Bound<'py, PyArray1<u32>>> {
        Ok(PyArray1::from_iter(py, self.sim.agent_neighbors(id(agent)).py()?.map(|a| a.0)))
    }

    /// `None` if the agent's last velocity met all its planes (linear program 3), else the
    /// index of the first plane that could not be met (linear program 4 then minimised the
    /// largest violation).
    fn first_infeasible(&self, agent: u32) -> PyResult<Option<usize>> {
        Ok(match self.sim.agent_lp_outcome(id(agent)).py()? {
            LpOutcome::Fallback { first_infeasible } => Some(first_infeasible),
            _ => None,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Simulator3d(agents={}, time_step={}, time={})",
            self.sim.num_agents(),
            self.sim.time_step(),
            self.sim.global_time()
        )
    }
}
