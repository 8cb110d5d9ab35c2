//! Reading Python values: points from any 2-sequence, arrays from numpy.

use crate::errors::invalid_value;
use crate::pyrvo::Vector2;
use glam::Vec2;
use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// A point or vector from a `Vector2`, a tuple, a list or a numpy array of two numbers.
///
/// Each component goes through Python's `float()` and is then rounded to `f32`, which is what
/// Python-RVO2 (Cython) and pyrvo (pybind11) do, so the same input gives the same bits.
pub fn vec2(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec2> {
    if let Ok(v) = value.downcast::<Vector2>() {
        let v = v.borrow();
        return Ok(Vec2::new(v.x, v.y));
    }
    let len = value.len().map_err(|_| invalid_value(format!("{what} must be a pair of numbers (x, y)")))?;
    if len != 2 {
        return Err(invalid_value(format!("{what} must have 2 components, got {len}")));
    }
    let x: f64 = value.get_item(0)?.extract()?;
    let y: f64 = value.get_item(1)?.extract()?;
    // RVO2 stores f32; the rounding cast is the one the C++ bindings perform.
    Ok(Vec2::new(x as f32, y as f32))
}

/// An `(N, 2)` array of numbers as points; any float or int dtype is converted to `float32`.
pub fn points(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Vec2>> {
    let array = as_f32_array(value)?;
    let array: PyReadonlyArray2<'_, f32> =
        array.extract().map_err(|_| invalid_value(format!("{what} must be a 2-D array of shape (N, 2)")))?;
    let shape = array.shape();
    if shape[1] != 2 {
        return Err(invalid_value(format!("{what} must have shape (N, 2), got ({}, {})", shape[0], shape[1])));
    }
    let view = array.as_array();
    Ok(view.rows().into_iter().map(|row| Vec2::new(row[0], row[1])).collect())
}

/// A per-agent value: either one number for all `n` agents or a 1-D array of length `n`.
pub fn per_agent(value: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<Vec<f32>> {
    if let Ok(scalar) = value.extract::<f64>() {
        return Ok(vec![scalar as f32; n]);
    }
    let array = as_f32_array(value)?;
    let array: PyReadonlyArray1<'_, f32> =
        array.extract().map_err(|_| invalid_value(format!("{what} must be a number or a 1-D array")))?;
    if array.len() != n {
        return Err(invalid_value(format!("{what} must have {n} values (one per agent), got {}", array.len())));
    }
    Ok(array.as_array().iter().copied().collect())
}

/// Per-agent counts (max neighbours): one integer or a 1-D integer array of length `n`.
pub fn per_agent_count(value: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<Vec<usize>> {
    if let Ok(scalar) = value.extract::<usize>() {
        return Ok(vec![scalar; n]);
    }
    // Read as float64 and check each value is a whole number, rather than `astype(int64)`,
    // which truncates 1.5 to 1 and turns NaN into -2^63 without a word.
    let numpy = value.py().import("numpy")?;
    let array = numpy.call_method1("asarray", (value,))?.call_method1("astype", ("float64",))?;
    let array: PyReadonlyArray1<'_, f64> =
        array.extract().map_err(|_| invalid_value(format!("{what} must be an integer or a 1-D array")))?;
    if array.len() != n {
        return Err(invalid_value(format!("{what} must have {n} values (one per agent), got {}", array.len())));
    }
    array
        .as_array()
        .iter()
        .map(|&k| {
            // Below 2^53 every whole f64 is exact, and no crowd needs more neighbours.
            if k.is_finite() && k >= 0.0 && k.fract() == 0.0 && k < 9.007_199_254_740_992e15 {
                Ok(k as usize)
            } else {
                Err(invalid_value(format!("{what} must be whole numbers of at least 0, got {k}")))
            }
        })
        .collect()
}

/// `numpy.asarray(value, dtype=float32)`: converts lists and other dtypes, keeps float32
/// arrays as they are (no copy).
fn as_f32_array<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let numpy = value.py().import("numpy")?;
    let kwargs = pyo3::types::PyDict::new(value.py());
    kwargs.set_item("dtype", numpy.getattr("float32")?)?;
    numpy
        .call_method("asarray", (value,), Some(&kwargs))
        .map_err(|e| invalid_value(format!("cannot read a numeric array: {e}")))
}

/// A 32-bit mask (avoidance layers and masks): a Python integer from 0 to 2**32 - 1. PyO3's
/// own conversion would raise "can't convert negative int to unsigned" without saying which
/// argument or what range; this names both.
pub fn bit_mask(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    use pyo3::exceptions::{PyOverflowError, PyTypeError};
    value.extract::<u32>().map_err(|error| {
        if error.is_instance_of::<PyOverflowError>(value.py()) {
            invalid_value(format!("{what} must be an integer from 0 to 2**32 - 1 (32 bits), got {value}"))
        } else {
            let kind = value.get_type().name().map_or_else(|_| "?".to_owned(), |name| name.to_string());
            PyTypeError::new_err(format!("{what} must be an integer bit mask (0 to 2**32 - 1), got {kind}"))
        }
    })
}

/// `radius` when it is finite and at least 0: a visibility query's (planar and 3-D).
pub fn query_radius(radius: f32) -> PyResult<f32> {
    if radius.is_finite() && radius >= 0.0 {
        Ok(radius)
    } else {
        Err(invalid_value(format!("radius must be finite and at least 0, got {radius}")))
    }
}
