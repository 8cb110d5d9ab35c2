//! `swerve.Simulator`: the native API. Agents are added and read in bulk as numpy arrays, so a
//! step of a large crowd costs one Python call, not one per agent.

use crate::convert::{bit_mask, per_agent, per_agent_count, points, query_radius, vec2};
use crate::errors::{invalid_value, IntoPyResult};
use glam::Vec2;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use swerve::orca::LpOutcome;
use swerve::{AgentId, AgentParams, InstructionSet, ObstacleId, Simulator};

/// `[x0, y0, x1, y1, …]` as an `(N, 2)` float32 array (the vector is moved, not copied).
fn to_array<'py>(py: Python<'py>, values: &[Vec2]) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let flat: Vec<f32> = values.iter().flat_map(|v| [v.x, v.y]).collect();
    PyArray1::from_vec(py, flat).reshape([values.len(), 2])
}

fn id(value: u32) -> AgentId {
    AgentId(value)
}

/// Keyword parameters of an agent: each `None` keeps the simulator's default.
struct ParamArgs<'a, 'py> {
    neighbor_dist: Option<&'a Bound<'py, PyAny>>,
    max_neighbors: Option<&'a Bound<'py, PyAny>>,
    time_horizon: Option<&'a Bound<'py, PyAny>>,
    time_horizon_obst: Option<&'a Bound<'py, PyAny>>,
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
        let time_horizon_obst = floats(self.time_horizon_obst, defaults.time_horizon_obst, "time_horizon_obst")?;
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
                    time_horizon_obst: time_horizon_obst[i],
                    radius: radius[i],
                    max_speed: max_speed[i],
                };
                params.validate().py()?;
                Ok(params)
            })
            .collect()
    }
}

fn check_finite(values: &[Vec2], what: &str) -> PyResult<()> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(invalid_value(format!("{what} must be finite, row {i} is ({}, {})", values[i].x, values[i].y))),
    }
}

fn check_rows(values: &[Vec2], n: usize, what: &str) -> PyResult<()> {
    if values.len() != n {
        return Err(invalid_value(format!("{what} must have {n} rows (one per agent), got {}", values.len())));
    }
    check_finite(values, what)
}

/// An ORCA crowd (RVO2-exact) with a numpy interface.
///
/// Agents are identified by stable integer ids (0, 1, 2, … in order of addition, never
/// reused after `remove_agent`). Bulk methods (`positions()`, `set_pref_velocities()`, …)
/// use the order of `agent_ids()`.
#[pyclass(module = "swerve", name = "Simulator")]
pub struct PySimulator {
    sim: Simulator,
}

#[pymethods]
impl PySimulator {
    /// A simulator with time step `time_step` (s) and default agent parameters (RVO2's Circle
    /// example values unless given): neighbour distance (m), max neighbours, time horizons
    /// for agents and obstacles (s), radius (m), max speed (m/s). `record_decisions`: see
    /// the property of that name.
    #[new]
    #[pyo3(signature = (time_step, *, neighbor_dist = 15.0, max_neighbors = 10, time_horizon = 10.0, time_horizon_obst = 10.0, radius = 1.5, max_speed = 2.0, record_decisions = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        time_step: f32,
        neighbor_dist: f32,
        max_neighbors: usize,
        time_horizon: f32,
        time_horizon_obst: f32,
        radius: f32,
        max_speed: f32,
        record_decisions: bool,
    ) -> PyResult<Self> {
        let defaults = AgentParams { neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed };
        let mut sim = Simulator::new(time_step, defaults).py()?;
        sim.set_record_decisions(record_decisions);
        Ok(PySimulator { sim })
    }

    /// Whether each step keeps every agent's neighbours, half-planes and linear-program
    /// outcome for `neighbors()`, `half_planes()`, `obstacle_half_plane_count()` and
    /// `first_infeasible()` (which raise `SwerveError` otherwise). Off by default, which
    /// makes large crowds step faster; records fill from the next step on.
    #[getter]
    fn get_record_decisions(&self) -> bool {
        self.sim.records_decisions()
    }

    #[setter]
    fn set_record_decisions(&mut self, record: bool) {
        self.sim.set_record_decisions(record);
    }

    /// The instructions the step's hottest loops run with: `"avx2"` or `"baseline"` (the
    /// best this CPU has by default). Both give the same bits; the choice is for timing
    /// them. Setting a name not in `supported_instruction_sets()` raises `ValueError` when
    /// the name is unknown and `SwerveError` when this CPU lacks it, and changes nothing.
    #[getter]
    fn get_instruction_set(&self) -> &'static str {
        self.sim.instruction_set().name()
    }

    #[setter]
    fn set_instruction_set(&mut self, name: &str) -> PyResult<()> {
        let set = InstructionSet::by_name(name).ok_or_else(|| {
            let known: Vec<&str> = InstructionSet::ALL.iter().map(|s| s.name()).collect();
            invalid_value(format!("unknown instruction set '{name}' (expected {})", known.join(" or ")))
        })?;
        self.sim.set_instruction_set(set).py()
    }

    /// The names of the instruction sets this CPU can run, baseline first.
    #[staticmethod]
    fn supported_instruction_sets() -> Vec<&'static str> {
        InstructionSet::ALL.into_iter().filter(|s| s.is_supported()).map(InstructionSet::name).collect()
    }

    /// Adds `N` agents at `positions` (shape `(N, 2)`); every parameter is one number for all
    /// or an array of `N`; `velocities` and `pref_velocities` are `(N, 2)` (default: zero).
    /// Returns their ids as a uint32 array. Nothing is added if any value is invalid.
    #[pyo3(signature = (positions, *, velocities = None, pref_velocities = None, neighbor_dist = None, max_neighbors = None, time_horizon = None, time_horizon_obst = None, radius = None, max_speed = None))]
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
        time_horizon_obst: Option<&Bound<'py, PyAny>>,
        radius: Option<&Bound<'py, PyAny>>,
        max_speed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let positions = points(positions, "positions")?;
        let n = positions.len();
        check_finite(&positions, "positions")?;
        let velocities = match velocities {
            Some(v) => points(v, "velocities")?,
            None => vec![Vec2::ZERO; n],
        };
        check_rows(&velocities, n, "velocities")?;
        let pref_velocities = match pref_velocities {
            Some(v) => points(v, "pref_velocities")?,
            None => vec![Vec2::ZERO; n],
        };
        check_rows(&pref_velocities, n, "pref_velocities")?;
        let args = ParamArgs { neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed };
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
    #[pyo3(signature = (position, *, velocity = None, pref_velocity = None, neighbor_dist = None, max_neighbors = None, time_horizon = None, time_horizon_obst = None, radius = None, max_speed = None))]
    #[allow(clippy::too_many_arguments)]
    fn add_agent(
        &mut self,
        position: &Bound<'_, PyAny>,
        velocity: Option<&Bound<'_, PyAny>>,
        pref_velocity: Option<&Bound<'_, PyAny>>,
        neighbor_dist: Option<f32>,
        max_neighbors: Option<usize>,
        time_horizon: Option<f32>,
        time_horizon_obst: Option<f32>,
        radius: Option<f32>,
        max_speed: Option<f32>,
    ) -> PyResult<u32> {
        let d = self.sim.agent_defaults();
        let params = AgentParams {
            neighbor_dist: neighbor_dist.unwrap_or(d.neighbor_dist),
            max_neighbors: max_neighbors.unwrap_or(d.max_neighbors),
            time_horizon: time_horizon.unwrap_or(d.time_horizon),
            time_horizon_obst: time_horizon_obst.unwrap_or(d.time_horizon_obst),
            radius: radius.unwrap_or(d.radius),
            max_speed: max_speed.unwrap_or(d.max_speed),
        };
        params.validate().py()?;
        let position = vec2(position, "position")?;
        let velocity = velocity.map(|v| vec2(v, "velocity")).transpose()?.unwrap_or(Vec2::ZERO);
        let pref = pref_velocity.map(|v| vec2(v, "pref_velocity")).transpose()?.unwrap_or(Vec2::ZERO);
        check_finite(&[velocity, pref], "velocity")?;
        let id = self.sim.add_agent_with(position, params).py()?;
        self.sim.set_agent_velocity(id, velocity).py()?;
        self.sim.set_agent_pref_velocity(id, pref).py()?;
        Ok(id.0)
    }

    /// The state's metrics, from the library's recorder (`swerve::metrics`): overlapping agent
    /// pairs and the deepest penetration, agent-obstacle overlaps, the smallest gaps, and —
    /// given `goals` (an `(N, 2)` array in row order) — how many agents are within `tolerance`
    /// metres of theirs. A dict; overlaps count pairs deeper than `overlap_tolerance`.
    #[pyo3(signature = (goals = None, tolerance = 0.5))]
    fn metrics<'py>(
        &self,
        py: Python<'py>,
        goals: Option<&Bound<'py, PyAny>>,
        tolerance: f32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let n = self.sim.num_agents();
        let goals = match goals {
            Some(g) => {
                let g = points(g, "goals")?;
                check_rows(&g, n, "goals")?;
                Some(g)
            }
            None => None,
        };
        if !(tolerance >= 0.0 && tolerance.is_finite()) {
            return Err(invalid_value(format!("tolerance must be a finite number ≥ 0, got {tolerance}")));
        }
        let ids = self.sim.agent_ids();
        let positions = self.sim.positions();
        let mut recorder = swerve::metrics::MetricsRecorder::new(self.sim.obstacle_polygons());
        let mut radius_by_id = Vec::new();
        for (k, (&agent, &p)) in ids.iter().zip(positions).enumerate() {
            let goal = goals.as_ref().map_or(p, |g| g[k]);
            recorder.add_agent(agent, 0, p, goal, tolerance, 0.0);
            let i = agent.0 as usize;
            if radius_by_id.len() <= i {
                radius_by_id.resize(i + 1, 0.0);
            }
            radius_by_id[i] = self.sim.agent_params(agent).py()?.radius;
        }
        let time = self.sim.global_time();
        recorder.observe_agents(time, false, ids, positions, self.sim.velocities(), &radius_by_id);
        let m = recorder.metrics();
        let mean_speed = if n == 0 {
            0.0
        } else {
            self.sim.velocities().iter().map(|v| f64::from(v.length())).sum::<f64>() / n as f64
        };
        let dict = PyDict::new(py);
        dict.set_item("agents", n)?;
        dict.set_item("time", time)?;
        dict.set_item("overlap_tolerance", m.overlap_tolerance)?;
        dict.set_item("agent_overlaps", m.agent_overlaps)?;
        dict.set_item("max_agent_penetration", m.max_agent_penetration)?;
        dict.set_item("obstacle_overlaps", m.obstacle_overlaps)?;
        dict.set_item("max_obstacle_penetration", m.max_obstacle_penetration)?;
        dict.set_item("min_separation", m.min_separation)?;
        dict.set_item("min_obstacle_clearance", m.min_obstacle_clearance)?;
        dict.set_item("mean_speed", mean_speed)?;
        if goals.is_some() {
            dict.set_item("at_goal", m.arrived)?;
        }
        Ok(dict)
    }

    /// Turns the options beyond RVO2 on or off (all off: RVO2's behaviour, bit for bit).
    /// `symmetry_breaking`: seeded jitter of `jitter` m/s plus pass-on-the-right;
    /// `safe_mode`: `margin` clearance between agents plus `passes` rounds of overlap
    /// projection; `strict_speed_limit`: never exceed max speed.
    #[pyo3(signature = (*, symmetry_breaking = false, safe_mode = false, strict_speed_limit = false, jitter = 0.001, seed = 0, margin = 0.05, passes = 2))]
    #[allow(clippy::too_many_arguments)]
    fn set_extensions(
        &mut self,
        symmetry_breaking: bool,
        safe_mode: bool,
        strict_speed_limit: bool,
        jitter: f32,
        seed: u64,
        margin: f32,
        passes: u32,
    ) -> PyResult<()> {
        use swerve::orca::{Extensions, OverlapResolution, SymmetryBreaking};
        // A bad value is a mistake even for an option left off (it would surface only when
        // the option is switched on, far from where it was written).
        for (what, value) in [("jitter", jitter), ("margin", margin)] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(crate::errors::invalid_value(format!("{what} must be finite and at least 0, got {value}")));
            }
        }
        let extensions = Extensions {
            symmetry_breaking: symmetry_breaking.then(|| SymmetryBreaking {
                jitter,
                seed,
                ..SymmetryBreaking::default()
            }),
            overlap_resolution: safe_mode.then_some(OverlapResolution { passes, margin }),
            strict_speed_limit,
        };
        self.sim.set_extensions(extensions).py()
    }

    /// How much of the avoidance `agent` takes on (RVO2: 0.5 for everyone); between weights
    /// a and b the first takes a / (a + b); 0 means it never yields.
    fn set_responsibility(&mut self, agent: u32, weight: f32) -> PyResult<()> {
        self.sim.set_agent_responsibility(id(agent), weight).py()
    }

    /// An agent's responsibility weight.
    fn responsibility(&self, agent: u32) -> PyResult<f32> {
        self.sim.agent_responsibility(id(agent)).py()
    }

    /// Limits how fast `agent`'s velocity may change (m/s², > 0; `math.inf` lifts the limit,
    /// RVO2's unlimited agents are the default): each step it changes by at most
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
    /// nobody avoids the agent. The defaults (layers 1, mask 1) are RVO2 bit for bit.
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
    /// (it still avoids obstacles and movers).
    fn set_avoidance_mask(&mut self, agent: u32, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        let mask = bit_mask(mask, "avoidance mask")?;
        self.sim.set_agent_avoidance_mask(id(agent), mask).py()
    }

    /// An agent's avoidance mask (a 32-bit mask; 1 unless set).
    fn avoidance_mask(&self, agent: u32) -> PyResult<u32> {
        self.sim.agent_avoidance_mask(id(agent)).py()
    }

    /// Adds a non-cooperative moving disc that agents avoid with full responsibility (a ball,
    /// a vehicle). Returns its id; update it every step with `set_mover`.
    fn add_mover(&mut self, position: (f32, f32), velocity: (f32, f32), radius: f32) -> PyResult<u32> {
        let mover = swerve::orca::Mover { position: position.into(), velocity: velocity.into(), radius };
        Ok(self.sim.add_mover(mover).py()?.0)
    }

    /// Moves a mover.
    fn set_mover(&mut self, mover: u32, position: (f32, f32), velocity: (f32, f32), radius: f32) -> PyResult<()> {
        let state = swerve::orca::Mover { position: position.into(), velocity: velocity.into(), radius };
        self.sim.set_mover(swerve::orca::MoverId(mover), state).py()
    }

    /// Removes a mover.
    fn remove_mover(&mut self, mover: u32) -> PyResult<()> {
        self.sim.remove_mover(swerve::orca::MoverId(mover)).py()
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

    /// Positions (m) as a new `(N, 2)` float32 array.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        to_array(py, self.sim.positions())
    }

    /// Velocities (m/s) as a new `(N, 2)` float32 array.
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        to_array(py, self.sim.velocities())
    }

    /// Preferred velocities (m/s) as a new `(N, 2)` float32 array.
    fn pref_velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        to_array(py, self.sim.pref_velocities())
    }

    /// Radii (m) as a new `(N,)` float32 array.
    fn radii<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let radii: PyResult<Vec<f32>> =
            self.sim.agent_ids().iter().map(|&a| Ok(self.sim.agent_params(a).py()?.radius)).collect();
        Ok(PyArray1::from_vec(py, radii?))
    }

    /// Sets every preferred velocity from an `(N, 2)` array (nothing changes on error).
    fn set_pref_velocities(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points(values, "pref_velocities")?;
        self.sim.set_pref_velocities(&values).py()
    }

    /// Sets every velocity from an `(N, 2)` array (nothing changes on error).
    fn set_velocities(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points(values, "velocities")?;
        check_rows(&values, self.sim.num_agents(), "velocities")?;
        for (i, v) in values.into_iter().enumerate() {
            let agent = self.sim.agent_ids()[i];
            self.sim.set_agent_velocity(agent, v).py()?;
        }
        Ok(())
    }

    /// Moves every agent to the rows of an `(N, 2)` array (nothing changes on error).
    fn set_positions(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points(values, "positions")?;
        check_rows(&values, self.sim.num_agents(), "positions")?;
        for (i, v) in values.into_iter().enumerate() {
            let agent = self.sim.agent_ids()[i];
            self.sim.set_agent_position(agent, v).py()?;
        }
        Ok(())
    }

    /// An agent's position (m) as `(x, y)`.
    fn agent_position(&self, agent: u32) -> PyResult<(f32, f32)> {
        self.sim.agent_position(id(agent)).py().map(|v| (v.x, v.y))
    }

    /// An agent's velocity (m/s) as `(x, y)`.
    fn agent_velocity(&self, agent: u32) -> PyResult<(f32, f32)> {
        self.sim.agent_velocity(id(agent)).py().map(|v| (v.x, v.y))
    }

    /// Sets one agent's position (m).
    fn set_agent_position(&mut self, agent: u32, position: &Bound<'_, PyAny>) -> PyResult<()> {
        self.sim.set_agent_position(id(agent), vec2(position, "position")?).py()
    }

    /// Sets one agent's velocity (m/s).
    fn set_agent_velocity(&mut self, agent: u32, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.sim.set_agent_velocity(id(agent), vec2(velocity, "velocity")?).py()
    }

    /// Sets one agent's preferred velocity (m/s).
    fn set_agent_pref_velocity(&mut self, agent: u32, velocity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.sim.set_agent_pref_velocity(id(agent), vec2(velocity, "pref_velocity")?).py()
    }

    /// An agent's parameters as a dict.
    fn agent_params<'py>(&self, py: Python<'py>, agent: u32) -> PyResult<Bound<'py, PyDict>> {
        let p = self.sim.agent_params(id(agent)).py()?;
        let d = PyDict::new(py);
        d.set_item("neighbor_dist", p.neighbor_dist)?;
        d.set_item("max_neighbors", p.max_neighbors)?;
        d.set_item("time_horizon", p.time_horizon)?;
        d.set_item("time_horizon_obst", p.time_horizon_obst)?;
        d.set_item("radius", p.radius)?;
        d.set_item("max_speed", p.max_speed)?;
        Ok(d)
    }

    /// Changes some of an agent's parameters (validated; nothing changes on error).
    #[pyo3(signature = (agent, *, neighbor_dist = None, max_neighbors = None, time_horizon = None, time_horizon_obst = None, radius = None, max_speed = None))]
    #[allow(clippy::too_many_arguments)]
    fn set_agent_params(
        &mut self,
        agent: u32,
        neighbor_dist: Option<f32>,
        max_neighbors: Option<usize>,
        time_horizon: Option<f32>,
        time_horizon_obst: Option<f32>,
        radius: Option<f32>,
        max_speed: Option<f32>,
    ) -> PyResult<()> {
        let mut p = self.sim.agent_params(id(agent)).py()?;
        p.neighbor_dist = neighbor_dist.unwrap_or(p.neighbor_dist);
        p.max_neighbors = max_neighbors.unwrap_or(p.max_neighbors);
        p.time_horizon = time_horizon.unwrap_or(p.time_horizon);
        p.time_horizon_obst = time_horizon_obst.unwrap_or(p.time_horizon_obst);
        p.radius = radius.unwrap_or(p.radius);
        p.max_speed = max_speed.unwrap_or(p.max_speed);
        self.sim.set_agent_params(id(agent), p).py()
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

    /// The ORCA half-planes of an agent in the last step as a `(K, 4)` float32 array of rows
    /// `(point_x, point_y, direction_x, direction_y)`: permitted velocities lie left of the
    /// directed line. Obstacle half-planes come first (`obstacle_half_plane_count`).
    fn half_planes<'py>(&self, py: Python<'py>, agent: u32) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let planes = self.sim.agent_half_planes(id(agent)).py()?;
        let flat: Vec<f32> = planes.iter().flat_map(|h| [h.point.x, h.point.y, h.direction.x, h.direction.y]).collect();
        PyArray1::from_vec(py, flat).reshape([planes.len(), 4])
    }

    /// How many of `half_planes(agent)` come from obstacles.
    fn obstacle_half_plane_count(&self, agent: u32) -> PyResult<usize> {
        self.sim.agent_obstacle_half_plane_count(id(agent)).py()
    }

    /// The ids of the agents `agent` took into account in the last step, nearest first.
    fn neighbors<'py>(&self, py: Python<'py>, agent: u32) -> PyResult<Bound<'py, PyArray1<u32>>> {
        Ok(PyArray1::from_iter(py, self.sim.agent_neighbors(id(agent)).py()?.map(|a| a.0)))
    }

    /// `None` if the agent's last velocity met all its half-planes (linear program 2), else
    /// the index of the first half-plane that could not be met (linear program 3 then
    /// minimised the largest violation).
    fn first_infeasible(&self, agent: u32) -> PyResult<Option<usize>> {
        Ok(match self.sim.agent_lp_outcome(id(agent)).py()? {
            LpOutcome::Fallback { first_infeasible } => Some(first_infeasible),
            _ => None,
        })
    }

    /// Adds an obstacle polygon (`(M, 2)` vertices; counter-clockwise: solid, clockwise: an
    /// enclosing boundary). Returns its id (0, 1, 2, … in order of addition, never reused
    /// after `remove_obstacle`). Agents see it after `process_obstacles()`.
    fn add_obstacle(&mut self, vertices: &Bound<'_, PyAny>) -> PyResult<u32> {
        let vertices = points(vertices, "vertices")?;
        Ok(self.sim.add_obstacle(&vertices).py()?.0)
    }

    /// Builds the obstacle tree from every obstacle added so far.
    fn process_obstacles(&mut self) {
        self.sim.process_obstacles();
    }

    /// Removes an obstacle (beyond RVO2), at once: no `process_obstacles()` needed. Other
    /// obstacles keep their ids; the removed id is never reused. A processed obstacle's
    /// removal builds the obstacle tree again from the remaining processed obstacles, as a
    /// fresh simulator given them and processing once would (so the crowd then moves as
    /// there); one not processed yet is dropped as if never added. Raises `UnknownIdError`
    /// (a `LookupError`), changing nothing, for an id never added or already removed.
    fn remove_obstacle(&mut self, obstacle: u32) -> PyResult<()> {
        self.sim.remove_obstacle(ObstacleId(obstacle)).py()
    }

    /// The ids of the obstacles not removed (uint32), in the order they were added.
    fn obstacle_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_iter(py, self.sim.obstacle_ids().iter().map(|o| o.0))
    }

    /// RVO2's vertex number of an obstacle's first vertex.
    fn obstacle_first_vertex(&self, obstacle: u32) -> PyResult<usize> {
        self.sim.obstacle_first_vertex(ObstacleId(obstacle)).py()
    }

    /// The processed obstacle vertices (including those added by splitting edges) as an
    /// `(M, 2)` float32 array; empty before `process_obstacles()`.
    fn obstacle_vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let points: Vec<Vec2> = self.sim.obstacle_vertices().iter().map(|v| v.point).collect();
        to_array(py, &points)
    }

    /// Whether a disc of `radius` (m) can travel from `a` to `b` without hitting an obstacle.
    #[pyo3(signature = (a, b, radius = 0.0))]
    fn query_visibility(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, radius: f32) -> PyResult<bool> {
        let a = vec2(a, "a")?;
        let b = vec2(b, "b")?;
        check_finite(&[a, b], "query points")?;
        Ok(self.sim.query_visibility(a, b, query_radius(radius)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "Simulator(agents={}, obstacles={}, time_step={}, time={})",
            self.sim.num_agents(),
            self.sim.obstacle_polygons().len(),
            self.sim.time_step(),
            self.sim.global_time()
        )
    }
}
