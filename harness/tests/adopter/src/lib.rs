//! A fixture crate: an implementation of the reshape codec (here, the zarr-reshape
//! library) adopting the harness. See tests/reshape_conformance.rs.
#![forbid(unsafe_code)]
