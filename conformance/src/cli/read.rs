//! `zarr-reshape read --array_path=PATH`: the reference as a command-line reader
//! (`conformance/PROTOCOL.md`, "Command-line readers"): the whole array read
//! through the reference's own chain (`crate::zarr`), its elements printed one
//! JSON value a line in C order.

use std::path::PathBuf;
use std::process::ExitCode;

use super::output::out;
use crate::reader::values;
use crate::report::escape::terminal as safe;
use clap::Args;

/// Options of `zarr-reshape read`.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// The array's folder, the one holding zarr.json.
    #[arg(long = "array_path", value_name = "PATH")]
    array_path: PathBuf,
}

/// Exit 0 with the elements on stdout; 1 with one line on stderr naming the path
/// and the reason when the array is refused (or uses a codec the reference does
/// not implement); 2 when stdout cannot be written.
pub fn execute(args: &ReadArgs) -> ExitCode {
    match crate::zarr::read_array(&args.array_path, None) {
        Ok(array) => {
            // Bounded by the reader: at most zarr::MAX_ELEMENTS_READ elements.
            out!("{}", values::lines(&array));
            ExitCode::SUCCESS
        }
        Err(error) => {
            // One line: the terminal escape shows any line break as \u{a}.
            eprintln!(
                "zarr-reshape read: {}: {}",
                safe(&args.array_path.display().to_string()),
                safe(&error.to_string())
            );
            ExitCode::FAILURE
        }
    }
}
