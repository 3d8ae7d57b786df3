//! `zarr-reshape fixtures --sample-data DIR`: write the sample data proposed to
//! zarr-extensions (`codecs/reshape/sample_data/`) into DIR, the same bytes on
//! every run; with `--check`, say whether the files there are current; with
//! `--suite-cases FILE`, also write the arrays' read-array vector file, for a
//! suite root that holds them under `arrays/`.

use std::path::Path;
use std::process::ExitCode;

use super::output::outln;
use crate::fixtures::{first_difference, sample};
use crate::report::escape::terminal as safe;
use crate::write_guard;

fn fail(error: &str) -> ExitCode {
    eprintln!("zarr-reshape fixtures --sample-data: {}", safe(error));
    ExitCode::from(2)
}

/// Exit 0 when written (or current), 1 when `--check` finds a difference, 2 on
/// an error.
pub(super) fn execute(dir: &Path, check: bool, force: bool, cases: Option<&Path>) -> ExitCode {
    let shown = safe(&dir.display().to_string());
    if check {
        let rendered = match sample::render() {
            Ok(rendered) => rendered,
            Err(error) => return fail(&error),
        };
        let disk = match sample::disk::on_disk(dir) {
            Ok(disk) => disk,
            Err(error) => return fail(&error),
        };
        return match first_difference(&rendered, &disk) {
            None => {
                outln!("{} files under {shown} are current", rendered.len());
                ExitCode::SUCCESS
            }
            Some(difference) => {
                eprintln!(
                    "zarr-reshape fixtures --sample-data: {} under {shown}; run \
                     `zarr-reshape fixtures --sample-data {shown}` to rewrite them",
                    safe(&difference)
                );
                ExitCode::FAILURE
            }
        };
    }
    let count = match sample::disk::write_with(dir, force) {
        Ok(count) => count,
        Err(error) => return fail(&error),
    };
    outln!("wrote {count} files under {shown}");
    if let Some(file) = cases {
        // A new file only: an existing one was not written by this run.
        let (parent, name) = match (file.parent(), file.file_name()) {
            (Some(parent), Some(name)) => (parent, name.to_string_lossy().into_owned()),
            _ => return fail(&format!("{}: not a file name", file.display())),
        };
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        match write_guard::check_file(parent, &name) {
            Ok(false) => {}
            Ok(true) => return fail(&format!("{} exists; name a new file", file.display())),
            Err(error) => return fail(&error.to_string()),
        }
        let cases = match sample::vector_file() {
            Ok(cases) => cases,
            Err(error) => return fail(&error),
        };
        if let Err(error) = write_guard::replace_file(parent, &name, &cases) {
            return fail(&error.to_string());
        }
        outln!(
            "wrote the read-array cases to {}",
            safe(&file.display().to_string())
        );
    }
    ExitCode::SUCCESS
}
