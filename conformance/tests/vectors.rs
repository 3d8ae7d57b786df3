//! Every vector file is a test of the reference: `cargo test -p zarr-reshape-conformance
//! --test vectors -- input-dims.prefix` runs one clause's files.
//!
//! One of three harnesses over the same vectors, each for its own purpose: this one
//! (datatest-stable, one test per vector FILE, the reference called directly and
//! judged strictly) is the suite's own check that the reference passes every file;
//! the in-process run (`src/run/in_process.rs`) is what `zarr-reshape run` does
//! without `--adapter`; the `zarr-reshape-harness` crate (`harness/`) gives other
//! Rust implementations one `cargo test` per case.

use std::fmt::Write as _;
use std::path::Path;

use zarr_reshape_conformance::{ClassCheck, Outcome, judge};
use zarr_reshape_conformance::{reference, vector};

fn reference_passes(path: &Path) -> datatest_stable::Result<()> {
    let cases = vector::load_file(path)?;
    let mut report = String::new();
    for case in &cases {
        let answer = reference::run(case);
        let outcome = judge(case, &answer, ClassCheck::Strict);
        if outcome != Outcome::Pass {
            writeln!(
                report,
                "{}\n  expected: {}\n  answered: {}\n  {outcome}",
                case.id,
                case.json
                    .get("expect")
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                answer.to_json()
            )?;
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(Box::new(Failures(report)))
    }
}

/// The failures of one file, printed as text (datatest-stable prints errors with `{:?}`).
struct Failures(String);

impl std::fmt::Debug for Failures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Display for Failures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failures {}

datatest_stable::harness! {
    { test = reference_passes, root = "../spec-cases", pattern = r"^[^/]+/[^/]+\.json$" },
}
