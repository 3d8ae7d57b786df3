//! `zarr-reshape`: the conformance runner, the reference adapter, and tools for
//! spec editors. See `zarr-reshape --help`.
#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    zarr_reshape_conformance::command_line(std::env::args_os())
}
