//! `zarr-reshape fixtures`: write the Zarr array fixtures (`arrays/`) and their
//! read-array vectors (`generated/read-array.json`) under a suite root, the same
//! bytes on every run; or, with `--check`, say whether the files there are current.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use zarr_reshape_conformance::fixtures;

/// Options of `zarr-reshape fixtures`.
#[derive(Debug, Args)]
pub struct FixturesArgs {
    /// Write nothing: exit 1 when a file differs from what would be written.
    #[arg(long)]
    check: bool,
    /// Write even when arrays/ holds files this tool did not write (they are kept).
    #[arg(long)]
    force: bool,
    /// The suite root, the folder holding clauses.json [default: the repository's spec-cases/].
    #[arg(value_name = "SUITE_ROOT")]
    root: Option<PathBuf>,
}

/// Exit 0 when written (or current), 1 when `--check` finds a difference, 2 on an
/// error.
pub fn execute(args: &FixturesArgs) -> ExitCode {
    let root = args.root.clone().unwrap_or_else(super::default_cases);
    if !args.check {
        return match fixtures::write_with(&root, args.force) {
            Ok(count) => {
                println!("wrote {count} files under {}", root.display());
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("zarr-reshape fixtures: {error}");
                ExitCode::from(2)
            }
        };
    }
    let rendered = match fixtures::render() {
        Ok(rendered) => rendered,
        Err(error) => {
            eprintln!("zarr-reshape fixtures: {error}");
            return ExitCode::from(2);
        }
    };
    let disk = match fixtures::on_disk(&root) {
        Ok(disk) => disk,
        Err(error) => {
            eprintln!("zarr-reshape fixtures: {}: {error}", root.display());
            return ExitCode::from(2);
        }
    };
    match fixtures::first_difference(&rendered, &disk) {
        None => {
            println!(
                "{} files under {} are current",
                rendered.len(),
                root.display()
            );
            ExitCode::SUCCESS
        }
        Some(difference) => {
            eprintln!(
                "zarr-reshape fixtures: {difference} under {}; run `zarr-reshape fixtures` to rewrite them",
                root.display()
            );
            ExitCode::FAILURE
        }
    }
}
