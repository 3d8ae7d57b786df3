//! `zarr-reshape export-bats DIR`: the array fixtures as a bats suite in the
//! layout of zarr-conformance-tests (`crate::bats_export`); or, with `--check`,
//! whether an export there is current.

use std::path::PathBuf;
use std::process::ExitCode;

use super::output::outln;
use crate::bats_export;
use crate::report::escape::terminal as safe;
use clap::Args;

/// Options of `zarr-reshape export-bats`.
#[derive(Debug, Args)]
pub struct ExportBatsArgs {
    /// Write nothing: exit 1 when the export in DIR differs from a fresh one.
    #[arg(long)]
    check: bool,
    /// The folder to write (made when missing, its parent must exist): data/,
    /// tests.bats, README.md and ZARR-RESHAPE-MANIFEST.txt go there; a re-export
    /// replaces only the files the manifest lists.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// Exit 0 when written (or current), 1 when `--check` finds a difference, 2 on an
/// error.
pub fn execute(args: &ExportBatsArgs) -> ExitCode {
    let shown = safe(&args.dir.display().to_string());
    if args.check {
        return match bats_export::check(&args.dir) {
            Ok((count, None)) => {
                outln!("{count} files under {shown} are current");
                ExitCode::SUCCESS
            }
            Ok((_, Some(difference))) => {
                eprintln!(
                    "zarr-reshape export-bats: {} under {shown}; run `zarr-reshape export-bats DIR` to rewrite it",
                    safe(&difference)
                );
                ExitCode::FAILURE
            }
            Err(error) => {
                eprintln!("zarr-reshape export-bats: {}", safe(&error));
                ExitCode::from(2)
            }
        };
    }
    match bats_export::write(&args.dir) {
        Ok(count) => {
            outln!("wrote {count} files under {shown}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("zarr-reshape export-bats: {}", safe(&error));
            ExitCode::from(2)
        }
    }
}
