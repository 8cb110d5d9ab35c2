//! `swerve.ScenarioRunner`: a scenario file (or a built-in) played step by step from Python,
//! the library's `scenario::Runner` (2-D crowds and balls), `SphereRunner` (3-D spheres) or
//! `Crowd3dRunner` (3-D crowds) behind one class, with numpy accessors.

use crate::errors::IntoPyResult;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyFileNotFoundError;
use pyo3::prelude::*;
use std::path::Path;
use swerve::scenario::{AnyScenario, Crowd3dRunner, Runner, SphereRunner};

/// The runner of any kind of scenario.
enum AnyRunner {
    Plane(Box<Runner>),
    Spheres(Box<SphereRunner>),
    Crowd3d(Box<Crowd3dRunner>),
}

/// A scenario file played step by step: `ScenarioRunner("my-scene.toml")`, or a built-in name
/// (`"circle"`, `"hourglass3d"`, `"window3d"`, `"slalom3d"`; `swerve list` names them). Each
/// `step()` sets the agents' preferred velocities by the scenario's rule and steps the crowd
/// and the balls; for a `[spheres]` file, the spheres; for a `[crowd3d]` file, the 3-D crowd
/// (each agent heads for its goal at up to 1 m/s, straight or along its roadmap), its movers
/// and its obstacle removals. A file with
/// problems raises `ValueError` listing every one as `file:line: key: message`.
#[pyclass(module = "swerve", name = "ScenarioRunner")]
pub struct PyScenarioRunner {
    runner: AnyRunner,
    name: String,
}

/// `N` points of `D` coordinates as a new `(N, D)` float32 array.
fn rows<'py, const D: usize>(
    py: Python<'py>,
    points: impl Iterator<Item = [f32; D]>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let flat: Vec<f32> = points.flatten().collect();
    let n = flat.len() / D;
    PyArray1::from_vec(py, flat).reshape([n, D])
}

#[pymethods]
impl PyScenarioRunner {
    #[new]
    fn new(source: &str) -> PyResult<Self> {
        let path = Path::new(source);
        let scenario = if path.is_file() {
            AnyScenario::load(path).py()?
        } else if swerve::scenario::builtin(source).is_some() {
            // Any kind: `builtin` holds every built-in's text (`window3d` is a `[crowd3d]`).
            AnyScenario::builtin(source).py()?
        } else if path.extension().is_some() || source.contains(['/', '\\']) {
            return Err(PyFileNotFoundError::new_err(format!("{source}: no such file")));
        } else {
            AnyScenario::builtin(source).py()?
        };
        let name = scenario.name().to_string();
        let runner = match &scenario {
            AnyScenario::Plane(s) => AnyRunner::Plane(Box::new(Runner::new(s).py()?)),
            AnyScenario::Spheres(s) => AnyRunner::Spheres(Box::new(SphereRunner::new(s).py()?)),
            AnyScenario::Crowd3d(s) => AnyRunner::Crowd3d(Box::new(Crowd3dRunner::new(s).py()?)),
        };
        Ok(PyScenarioRunner { runner, name })
    }

    /// The scenario's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// 2 for a crowd (and balls) in the plane, 3 for a sphere world or a 3-D crowd.
    #[getter]
    fn dimensions(&self) -> usize {
        match self.runner {
            AnyRunner::Plane(_) => 2,
            AnyRunner::Spheres(_) | AnyRunner::Crowd3d(_) => 3,
        }
    }

    /// Takes `n` steps (default 1), fewer if the scenario finishes first; releases the GIL.
    /// Returns how many were taken.
    #[pyo3(signature = (n = 1))]
    fn step(&mut self, py: Python<'_>, n: usize) -> usize {
        let runner = &mut self.runner;
        py.allow_threads(|| {
            let mut taken = 0;
            while taken < n {
                match runner {
                    AnyRunner::Plane(r) if !r.is_finished() => r.step(),
                    AnyRunner::Spheres(r) if !r.is_finished() => r.step(),
                    AnyRunner::Crowd3d(r) if !r.is_finished() => r.step(),
                    _ => break,
                }
                taken += 1;
            }
            taken
        })
    }

    /// Whether the run is over (its step limit, or its stop rule).
    #[getter]
    fn is_finished(&self) -> bool {
        match &self.runner {
            AnyRunner::Plane(r) => r.is_finished(),
            AnyRunner::Spheres(r) => r.is_finished(),
            AnyRunner::Crowd3d(r) => r.is_finished(),
        }
    }

    /// Steps taken so far.
    #[getter]
    fn steps_done(&self) -> usize {
        match &self.runner {
            AnyRunner::Plane(r) => r.steps_done(),
            AnyRunner::Spheres(r) => r.steps_done(),
            AnyRunner::Crowd3d(r) => r.steps_done(),
        }
    }

    /// The step limit (the file's `steps`, unless set).
    #[getter]
    fn get_max_steps(&self) -> usize {
        match &self.runner {
            AnyRunner::Plane(r) => r.max_steps(),
            AnyRunner::Spheres(r) => r.max_steps(),
            AnyRunner::Crowd3d(r) => r.max_steps(),
        }
    }

    #[setter]
    fn set_max_steps(&mut self, steps: usize) {
        match &mut self.runner {
            AnyRunner::Plane(r) => r.set_max_steps(steps),
            AnyRunner::Spheres(r) => r.set_max_steps(steps),
            AnyRunner::Crowd3d(r) => r.set_max_steps(steps),
        }
    }

    /// The agents' ids (uint32), in the order of `positions()`; empty for a `[spheres]` file.
    fn agent_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        let ids = match &self.runner {
            AnyRunner::Plane(r) => r.simulator().agent_ids().iter().map(|a| a.0).collect(),
            AnyRunner::Spheres(_) => Vec::new(),
            AnyRunner::Crowd3d(r) => r.simulator().agent_ids().iter().map(|a| a.0).collect(),
        };
        PyArray1::from_vec(py, ids)
    }

    /// The agents' positions, `(N, 2)` float32; for a 3-D crowd `(N, 3)`; for a `[spheres]`
    /// file the spheres', `(N, 3)`.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        match &self.runner {
            AnyRunner::Plane(r) => rows(py, r.simulator().positions().iter().map(|p| p.to_array())),
            AnyRunner::Spheres(r) => rows(py, r.world().spheres().iter().map(|s| s.position.to_array())),
            AnyRunner::Crowd3d(r) => rows(py, r.simulator().positions().iter().map(|p| p.to_array())),
        }
    }

    /// The agents' velocities, `(N, 2)` float32; for a 3-D crowd `(N, 3)`; for a `[spheres]`
    /// file the spheres', `(N, 3)`.
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        match &self.runner {
            AnyRunner::Plane(r) => rows(py, r.simulator().velocities().iter().map(|v| v.to_array())),
            AnyRunner::Spheres(r) => rows(py, r.world().spheres().iter().map(|s| s.velocity.to_array())),
            AnyRunner::Crowd3d(r) => rows(py, r.simulator().velocities().iter().map(|v| v.to_array())),
        }
    }

    /// Each agent's current goal, `(N, 2)` float32 (NaN for an agent without one); for a 3-D
    /// crowd `(N, 3)` (an agent without a goal in the file has its start); `(0, 2)` for a
    /// `[spheres]` file.
    fn goals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        match &self.runner {
            AnyRunner::Plane(r) => {
                let ids = r.simulator().agent_ids();
                rows(py, ids.iter().map(|&id| r.goal(id).map_or([f32::NAN; 2], |g| g.to_array())))
            }
            AnyRunner::Spheres(_) => rows::<2>(py, std::iter::empty()),
            AnyRunner::Crowd3d(r) => rows(py, r.goals().map(|g| g.to_array())),
        }
    }

    /// The way agent `agent` (an id) means to go from where it is, for a crowd that navigates
    /// by roadmap: `(K, 2)` float32 (`(K, 3)` for a 3-D crowd), its position, the roadmap's
    /// waypoints, its goal (two rows when it heads straight for its goal). Empty without a
    /// roadmap, for an agent not present, or (planar) one that sees no vertex.
    fn route<'py>(&self, py: Python<'py>, agent: u32) -> PyResult<Bound<'py, PyArray2<f32>>> {
        match &self.runner {
            AnyRunner::Plane(r) => rows(py, r.route(swerve::AgentId(agent)).iter().map(|v| v.to_array())),
            AnyRunner::Spheres(_) => rows::<3>(py, std::iter::empty()),
            AnyRunner::Crowd3d(r) => rows(py, r.route(swerve::AgentId(agent)).iter().map(|v| v.to_array())),
        }
    }

    /// The balls' positions, `(M, 2)` float32 (empty without `[balls]`; for a `[spheres]`
    /// file, the spheres are `positions()`; `(0, 3)` for a 3-D crowd, which has no balls).
    fn ball_positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        match &self.runner {
            AnyRunner::Plane(r) => {
                let balls = r.world().map_or(&[][..], |w| w.balls());
                rows(py, balls.iter().map(|b| b.position.to_array()))
            }
            AnyRunner::Spheres(_) => rows::<2>(py, std::iter::empty()),
            AnyRunner::Crowd3d(_) => rows::<3>(py, std::iter::empty()),
        }
    }

    /// The movers (a file's `[[movers]]`, or `[[crowd3d.mover]]` in 3-D) as they are now, in
    /// file order: `(M, 2)` float32 positions (`(M, 3)` in 3-D), then their velocities and
    /// radii, as `(positions, velocities, radii)`. Empty for a `[spheres]` file.
    #[allow(clippy::type_complexity)]
    fn movers<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)> {
        match &self.runner {
            AnyRunner::Plane(r) => Ok((
                rows(py, r.movers().map(|m| m.position.to_array()))?,
                rows(py, r.movers().map(|m| m.velocity.to_array()))?,
                PyArray1::from_vec(py, r.movers().map(|m| m.radius).collect()),
            )),
            AnyRunner::Spheres(_) => Ok((
                rows::<3>(py, std::iter::empty())?,
                rows::<3>(py, std::iter::empty())?,
                PyArray1::from_vec(py, Vec::new()),
            )),
            AnyRunner::Crowd3d(r) => Ok((
                rows(py, r.movers().map(|m| m.position.to_array()))?,
                rows(py, r.movers().map(|m| m.velocity.to_array()))?,
                PyArray1::from_vec(py, r.movers().map(|m| m.radius).collect()),
            )),
        }
    }

    /// The crowd's metrics so far as a dict (the `metrics.json` of `swerve run`: arrivals,
    /// overlaps, speeds, ...; for a 3-D crowd its own: arrivals, agent, obstacle and mover
    /// overlaps and clearances, path lengths, speeds); `None` for a `[spheres]` file.
    fn metrics<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let text = match &self.runner {
            AnyRunner::Plane(r) => serde_json::to_string(&r.metrics()),
            AnyRunner::Spheres(_) => return Ok(None),
            AnyRunner::Crowd3d(r) => serde_json::to_string(&r.metrics()),
        };
        let text = text.map_err(|e| crate::errors::invalid_value(e.to_string()))?;
        Ok(Some(py.import("json")?.call_method1("loads", (text,))?))
    }

    fn __repr__(&self) -> String {
        format!("ScenarioRunner({:?}, dimensions={}, steps_done={})", self.name, self.dimensions(), self.steps_done())
    }
}
