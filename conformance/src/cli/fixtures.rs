//! `zarr-reshape fixtures`: write the Zarr array fixtures (`arrays/`) and their
//! read-array vectors (`generated/read-array.json`) under a suite root, the same
//! bytes on every run; or, with `--check`, say whether the files there are current.

use std::path::PathBuf;
use std::process::ExitCode;

use super::output::outln;
use super::suite::SuiteRoot;
use crate::fixtures;
use crate::report::escape::terminal as safe;
use clap::Args;

/// Options of `zarr-reshape fixtures`.
#[derive(Debug, Args)]
pub struct FixturesArgs {
    /// Write nothing: exit 1 when a file differs from what would be written.
    #[arg(long)]
    check: bool,
    /// Write even when arrays/ holds files this tool did not write (they are kept).
    #[arg(long)]
    force: bool,
    /// Write (or check) the sample data for zarr-extensions' codecs/reshape/sample_data/
    /// into this folder instead of the fixtures.
    #[arg(long, value_name = "DIR", conflicts_with = "root")]
    sample_data: Option<PathBuf>,
    /// With --sample-data: also write the sample arrays' read-array cases to this new
    /// file (for a suite root holding the arrays under arrays/).
    #[arg(
        long,
        value_name = "FILE",
        requires = "sample_data",
        conflicts_with = "check"
    )]
    suite_cases: Option<PathBuf>,
    /// The suite root to write to (or check), the folder holding clauses.json
    /// [default: with --check, the embedded suite; else the spec-cases/ folder of
    /// the zarr-reshape checkout holding the current folder].
    #[arg(value_name = "SUITE_ROOT")]
    root: Option<PathBuf>,
}

/// Exit 0 when written (or current), 1 when `--check` finds a difference, 2 on an
/// error.
pub fn execute(args: &FixturesArgs) -> ExitCode {
    if let Some(dir) = &args.sample_data {
        return super::sample_data::execute(
            dir,
            args.check,
            args.force,
            args.suite_cases.as_deref(),
        );
    }
    if !args.check {
        // Writing needs a checkout's folder, found from where the user stands: never
        // the source tree this binary happened to be built from.
        let root = match args.root.clone().map_or_else(checkout_suite, Ok) {
            Ok(root) => root,
            Err(error) => {
                eprintln!("zarr-reshape fixtures: {error}");
                return ExitCode::from(2);
            }
        };
        return match fixtures::write_with(&root, args.force) {
            Ok(count) => {
                outln!(
                    "wrote {count} files under {}",
                    safe(&root.display().to_string())
                );
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("zarr-reshape fixtures: {}", safe(&error));
                ExitCode::from(2)
            }
        };
    }
    let suite = match SuiteRoot::or_embedded(
        args.root.as_deref(),
        "`zarr-reshape fixtures --check SUITE_ROOT`",
    ) {
        Ok(suite) => suite,
        Err(error) => {
            eprintln!("zarr-reshape fixtures: {error}");
            return ExitCode::from(2);
        }
    };
    let root = suite.path();
    let rendered = match fixtures::render() {
        Ok(rendered) => rendered,
        Err(error) => {
            eprintln!("zarr-reshape fixtures: {error}");
            return ExitCode::from(2);
        }
    };
    let disk = match fixtures::on_disk(root) {
        Ok(disk) => disk,
        Err(error) => {
            eprintln!("zarr-reshape fixtures: {}: {error}", suite.label());
            return ExitCode::from(2);
        }
    };
    match fixtures::first_difference(&rendered, &disk) {
        None => {
            outln!(
                "{} files under {} are current",
                rendered.len(),
                suite.label()
            );
            ExitCode::SUCCESS
        }
        Some(difference) => {
            eprintln!(
                "zarr-reshape fixtures: {difference} under {}; run `zarr-reshape fixtures` to rewrite them",
                suite.label()
            );
            ExitCode::FAILURE
        }
    }
}

/// The folder below the suite root that marks a zarr-reshape checkout.
const CHECKOUT_SUITE: &str = "spec-cases";

/// The `spec-cases/` folder (holding `clauses.json`) of the nearest folder, from
/// the current one up, that has one: the checkout the user is working in.
fn checkout_suite() -> Result<PathBuf, String> {
    let here = std::env::current_dir()
        .map_err(|e| format!("the current folder cannot be read ({e}); name SUITE_ROOT"))?;
    here.ancestors()
        .map(|folder| folder.join(CHECKOUT_SUITE))
        .find(|suite| suite.join("clauses.json").is_file())
        .ok_or_else(|| {
            format!(
                "no suite root to write to: neither {} nor a folder above it holds \
                 {CHECKOUT_SUITE}/clauses.json (a zarr-reshape checkout); run it inside a \
                 checkout, or name the folder: zarr-reshape fixtures SUITE_ROOT",
                safe(&here.display().to_string())
            )
        })
}
