//! Encode and decode on NumPy arrays, through the reference's own `encode` and
//! `decode`: the result is a view of the input whenever the reference returns
//! one, and the reference's copy otherwise.
//!
//! Elements cross as unsigned integers of their size (1, 2, 4 or 8 bytes): the
//! codec moves elements and never reads them, so the Python package views any
//! data type of those sizes as one of these and back.

use numpy::{PyArray, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use zarr_reshape::ReshapeCodec;

use crate::refused;
use crate::shapes::codec;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(encode, module)?)?;
    module.add_function(wrap_pyfunction!(decode, module)?)?;
    Ok(())
}

#[derive(Clone, Copy)]
enum Direction {
    Encode,
    Decode,
}

/// `decoded` encoded to B_shape; A_shape is `a_shape` when given (the array must
/// then have it: `shape-mismatch`), and the array's own shape otherwise.
#[pyfunction]
#[pyo3(signature = (text, decoded, a_shape = None))]
fn encode<'py>(
    text: &str,
    decoded: &Bound<'py, PyAny>,
    a_shape: Option<Vec<u64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let a_shape = match a_shape {
        Some(a_shape) => a_shape,
        None => shape_of(decoded)?,
    };
    let codec = codec(text, &a_shape)?;
    dispatch(&codec, decoded, Direction::Encode)
}

/// `encoded` (of shape B_shape) decoded to A_shape, the decoded shape given.
#[pyfunction]
fn decode<'py>(
    text: &str,
    encoded: &Bound<'py, PyAny>,
    a_shape: Vec<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let codec = codec(text, &a_shape)?;
    dispatch(&codec, encoded, Direction::Decode)
}

fn shape_of(array: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    let array = array.cast::<numpy::PyUntypedArray>()?;
    array
        .shape()
        .iter()
        .map(|extent| {
            u64::try_from(*extent).map_err(|_| PyTypeError::new_err("an extent beyond 2^64"))
        })
        .collect()
}

fn dispatch<'py>(
    codec: &ReshapeCodec,
    array: &Bound<'py, PyAny>,
    direction: Direction,
) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(array) = array.cast::<PyArrayDyn<u8>>() {
        return transform(codec, array, direction);
    }
    if let Ok(array) = array.cast::<PyArrayDyn<u16>>() {
        return transform(codec, array, direction);
    }
    if let Ok(array) = array.cast::<PyArrayDyn<u32>>() {
        return transform(codec, array, direction);
    }
    if let Ok(array) = array.cast::<PyArrayDyn<u64>>() {
        return transform(codec, array, direction);
    }
    Err(PyTypeError::new_err(
        "the native encode and decode take arrays of uint8, uint16, uint32 or uint64 (zarr_reshape.encode views other data types as these)",
    ))
}

fn transform<'py, T: numpy::Element + Clone>(
    codec: &ReshapeCodec,
    array: &Bound<'py, PyArrayDyn<T>>,
    direction: Direction,
) -> PyResult<Bound<'py, PyAny>> {
    let py = array.py();
    let readonly = array.try_readonly()?;
    let input = readonly.as_array();
    let result = match direction {
        Direction::Encode => codec.encode(&input),
        Direction::Decode => codec.decode(&input),
    }
    .map_err(|error| refused(&error))?;
    // A view of the input, starting at its first element (a reshape never moves
    // it): NumPy is handed the reference's shape and strides over the same buffer.
    if result.is_view() && result.as_ptr() == input.as_ptr() {
        let shape = result.shape().to_vec();
        let itemsize = isize::try_from(std::mem::size_of::<T>()).unwrap_or(isize::MAX);
        let strides = result
            .strides()
            .iter()
            .map(|stride| stride.checked_mul(itemsize))
            .collect::<Option<Vec<isize>>>()
            .ok_or_else(|| {
                PyRuntimeError::new_err("a stride in bytes beyond isize (a bug of the reference)")
            })?;
        drop(readonly);
        let stride_tricks = py.import("numpy.lib.stride_tricks")?;
        let keywords = PyDict::new(py);
        keywords.set_item("shape", shape)?;
        keywords.set_item("strides", strides)?;
        return stride_tricks.call_method("as_strided", (array,), Some(&keywords));
    }
    Ok(PyArray::from_owned_array(py, result.into_owned()).into_any())
}
