//! `zarr-reshape`: the conformance runner, the reference adapter, and tools for
//! spec editors. See `zarr-reshape --help`.
#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    cli::Cli::parse().execute()
}
