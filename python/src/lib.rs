//! `zarr_reshape._native`: the reference library, the embedded suite and the
//! `zarr-reshape` command, for the Python package in `python/zarr_reshape/`.
//!
//! Low-level on purpose: configurations and structured answers cross as JSON
//! text, so every integer stays exact (Python's `json` reads any size of
//! integer; the library reads numbers from the raw text). The Python package
//! turns [`Refused`] into its `ReshapeError` classes and gives the documented API.
#![forbid(unsafe_code)]

mod arrays;
mod shapes;
mod suite;

use std::ffi::OsString;
use std::process::ExitCode;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use zarr_reshape::ReshapeError;

create_exception!(
    _native,
    Refused,
    PyException,
    "A rule of the reshape codec was broken: args are (error class, clause id, position or None, message)."
);

/// The error the Python package turns into a `ReshapeError` subclass.
fn refused(error: &ReshapeError) -> PyErr {
    Refused::new_err((
        error.class().as_str(),
        error.clause().id(),
        error.position().map(|position| position.to_string()),
        error.to_string(),
    ))
}

/// A refusal that is not the library's own (the Zarr reader's, or a chain's),
/// with the clause unknown.
fn refused_class(class: &str, message: String) -> PyErr {
    Refused::new_err((class.to_string(), None::<String>, None::<String>, message))
}

/// Runs the `zarr-reshape` command on `args` (the program name first) and returns
/// its exit code; what the console script calls. The interpreter's lock is
/// released while it runs: the runner spawns adapters and threads of its own.
#[pyfunction]
fn command_line(py: Python<'_>, args: Vec<OsString>) -> u8 {
    let code = py.detach(|| zarr_reshape_conformance::command_line(args));
    // `ExitCode` has no accessor; it compares equal to the code it was made from.
    (0..=u8::MAX)
        .find(|candidate| ExitCode::from(*candidate) == code)
        .unwrap_or(1)
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("Refused", module.py().get_type::<Refused>())?;
    module.add(
        "SUITE_VERSION",
        zarr_reshape_harness::vectors::SUITE_VERSION,
    )?;
    module.add("VECTOR_FORMAT", zarr_reshape_harness::vectors::FORMAT)?;
    module.add("SPEC_COMMIT", zarr_reshape_harness::vectors::SPEC_COMMIT)?;
    module.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    let classes: Vec<&str> = zarr_reshape::ErrorClass::ALL
        .iter()
        .map(|class| class.as_str())
        .collect();
    module.add("ERROR_CLASSES", classes)?;
    module.add_function(wrap_pyfunction!(command_line, module)?)?;
    shapes::register(module)?;
    arrays::register(module)?;
    suite::register(module)?;
    Ok(())
}
