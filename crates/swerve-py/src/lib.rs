//! The Python extension module `swerve._swerve`: thin adapters from Python to the `swerve`
//! library. All simulation logic lives in the library; this crate converts values, maps
//! errors to exceptions and releases the GIL while stepping.
//!
//! * `native` — `swerve.Simulator`, the numpy API;
//! * `native3d` — `swerve.Simulator3d`, the numpy API of the 3-D crowd (RVO2-3D);
//! * `rvo2` — `swerve.rvo2.PyRVOSimulator`, Python-RVO2's API;
//! * `pyrvo` — `swerve.pyrvo.RVOSimulator` and `Vector2`, pyrvo's API;
//! * `rvo2_3d` — `swerve.rvo2_3d.PyRVOSimulator`, rvo23d's (RVO2-3D's) API;
//! * `world` — `swerve.World`, the ball physics with a selectable broad phase;
//! * `world3d` — `swerve.World3d`, the same for spheres in 3-D (`swerve::physics3d`);
//! * `scenario` — `swerve.ScenarioRunner`, a scenario file played step by step;
//! * `numbered` — RVO2's agent and vertex numbering, shared by the two 2-D drop-ins.
#![warn(missing_docs)]

mod convert;
mod errors;
mod native;
mod native3d;
mod numbered;
mod pyrvo;
mod rvo2;
mod rvo2_3d;
mod scenario;
mod world;
mod world3d;

use pyo3::prelude::*;

/// The module `swerve._swerve`; `swerve/__init__.py` re-exports it.
#[pymodule]
fn _swerve(module: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(module)?;
    module.add_class::<native::PySimulator>()?;
    module.add_class::<native3d::PySimulator3d>()?;
    module.add_class::<rvo2::PyRVOSimulator>()?;
    // Python name `swerve.rvo2_3d.PyRVOSimulator`; here under another name, as
    // `PyRVOSimulator` is Python-RVO2's class.
    module.add("PyRVOSimulator3d", module.py().get_type::<rvo2_3d::PyRVOSimulator3d>())?;
    module.add_class::<pyrvo::RVOSimulator>()?;
    module.add_class::<pyrvo::Vector2>()?;
    module.add_class::<world::PyWorld>()?;
    module.add_class::<world3d::PyWorld3d>()?;
    module.add_class::<scenario::PyScenarioRunner>()?;
    Ok(())
}
