//! The exception classes and the mapping from `swerve::Error` to them.
//!
//! Python code catches `swerve.SwerveError` for anything swerve raises; bad values are also
//! `ValueError`s and unknown ids also `LookupError`s, so code written for the standard
//! exceptions keeps working.

use pyo3::exceptions::{PyException, PyLookupError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};

pyo3::create_exception!(swerve, SwerveError, PyException, "Base class of every error swerve raises.");

static INVALID_VALUE: GILOnceCell<Py<PyType>> = GILOnceCell::new();
static UNKNOWN_ID: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// Creates `class name(SwerveError, other)` — a class with two bases, which
/// `create_exception!` cannot express.
fn subclass<'py>(py: Python<'py>, name: &str, other: Bound<'py, PyType>, doc: &str) -> PyResult<Bound<'py, PyType>> {
    let bases = PyTuple::new(py, [py.get_type::<SwerveError>(), other])?;
    let namespace = PyDict::new(py);
    namespace.set_item("__module__", "swerve")?;
    namespace.set_item("__doc__", doc)?;
    let class = py.get_type::<PyType>().call1((name, bases, namespace))?;
    Ok(class.downcast_into::<PyType>()?)
}

/// Adds the exception classes to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("SwerveError", py.get_type::<SwerveError>())?;
    let invalid = subclass(
        py,
        "InvalidValueError",
        py.get_type::<PyValueError>(),
        "A value swerve cannot accept: not finite, out of range, wrong shape, a bad polygon.",
    )?;
    let unknown = subclass(
        py,
        "UnknownIdError",
        py.get_type::<PyLookupError>(),
        "An agent, obstacle, mover, ball, sphere, neighbour or vertex number that does not exist.",
    )?;
    module.add("InvalidValueError", &invalid)?;
    module.add("UnknownIdError", &unknown)?;
    // Module init runs once per interpreter; a second set would only fail harmlessly.
    let _ = INVALID_VALUE.set(py, invalid.unbind());
    let _ = UNKNOWN_ID.set(py, unknown.unbind());
    Ok(())
}

fn raise(cell: &GILOnceCell<Py<PyType>>, message: String) -> PyErr {
    Python::with_gil(|py| match cell.get(py) {
        Some(class) => PyErr::from_type(class.bind(py).clone(), message),
        // Only reachable if the module was never initialised, which cannot happen for code
        // that got hold of one of our objects; fall back to the base class.
        None => SwerveError::new_err(message),
    })
}

/// A `ValueError` (and `SwerveError`) with `message`.
pub fn invalid_value(message: impl Into<String>) -> PyErr {
    raise(&INVALID_VALUE, message.into())
}

/// A `LookupError` (and `SwerveError`) with `message`.
pub fn unknown_id(message: impl Into<String>) -> PyErr {
    raise(&UNKNOWN_ID, message.into())
}

/// Converts the library's error to the matching Python exception.
pub fn to_py(error: swerve::Error) -> PyErr {
    use swerve::Error as E;
    let message = error.to_string();
    match error {
        // Every problem of a scenario file, one line each (the library's message gives the
        // first and a count, as a command line's one-line error does).
        E::Scenario { file, problems } => invalid_value(
            problems
                .iter()
                .map(|p| {
                    let at = p.line.map_or(String::new(), |line| format!(":{line}"));
                    let key = if p.key.is_empty() { String::new() } else { format!("{}: ", p.key) };
                    format!("{file}{at}: {key}{}", p.message)
                })
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        // The library's message names the Rust method; name the Python switch instead.
        E::DecisionsNotRecorded => SwerveError::new_err(
            "agent decisions are not recorded: create the Simulator with record_decisions=True (or set \
             sim.record_decisions = True) before stepping",
        ),
        E::UnknownAgent(_) | E::UnknownObstacle(_) | E::UnknownMover(_) | E::UnknownBall(_) | E::UnknownSphere(_) => {
            unknown_id(message)
        }
        E::NonFinite { .. }
        | E::OutOfRange { .. }
        | E::TooFewVertices { .. }
        | E::RepeatedVertex { .. }
        | E::SelfIntersecting { .. }
        | E::UnknownBroadPhase(_)
        | E::UnknownBroadPhase3d(_)
        | E::BallOutsideBounds { .. }
        | E::SphereOutsideBounds { .. }
        | E::DegenerateTriangle { .. }
        | E::MeshIndexOutOfRange { .. }
        | E::Parse { .. }
        | E::UnknownScenario { .. } => invalid_value(message),
        _ => SwerveError::new_err(message),
    }
}

/// `?`-friendly conversion: `result.map_err(to_py)` in one word.
pub trait IntoPyResult<T> {
    /// Converts a library result to a Python one.
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, swerve::Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}
