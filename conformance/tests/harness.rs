//! The reference through the Rust harness (`zarr_reshape_conformance::harness`), over
//! every vector: the same five lines an implementer writes, with the crate's own
//! vectors. `cargo test -p zarr-reshape-conformance --test harness -- input-dims.prefix`
//! runs one clause's cases.

use std::path::Path;

use zarr_reshape_conformance::{harness, reference};

fn main() -> std::process::ExitCode {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
    harness::run(&cases, reference::run)
}
