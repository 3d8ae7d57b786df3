//! `zarr-reshape fixtures`: write the Zarr array fixtures (`arrays/`) and their
//! read-array vectors (`generated/read-array.json`) under a suite root, the same
//! bytes on every run; or, with `--check`, say whether the files there are current.

use std::path::PathBuf;
use std::process::ExitCode;

use super::output::outln;
use super::suite::SuiteRoot;
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
    /// The suite root, the folder holding clauses.json [default: with --check, the
    /// embedded suite; else the spec-cases/ folder of the source tree this binary was
    /// built from, when it is there].
    #[arg(value_name = "SUITE_ROOT")]
    root: Option<PathBuf>,
}

/// Exit 0 when written (or current), 1 when `--check` finds a difference, 2 on an
/// error.
pub fn execute(args: &FixturesArgs) -> ExitCode {
    if !args.check {
        // Writing needs the repository's folder: an installed binary has none.
        let Some(root) = args.root.clone().or_else(source_tree_suite) else {
            eprintln!(
                "zarr-reshape fixtures: name the suite root to write to (SUITE_ROOT): this \
                 binary was not built from a source tree that has one"
            );
            return ExitCode::from(2);
        };
        return match fixtures::write_with(&root, args.force) {
            Ok(count) => {
                outln!("wrote {count} files under {}", root.display());
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("zarr-reshape fixtures: {error}");
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

/// The `spec-cases/` folder of the source tree this binary was built from, if it
/// is still there (a development build).
fn source_tree_suite() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
    root.join("clauses.json").is_file().then_some(root)
}
