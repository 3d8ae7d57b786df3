//! Helpers shared by the integration tests: scratch folders and the reading of a
//! run's records. Each test binary uses some of them.
#![allow(dead_code, clippy::panic, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::ClassCheck;
use zarr_reshape_conformance::run::{
    CaseRecord, Expectations, Implementation, RunReport, run_suite,
};
use zarr_reshape_conformance::vector::{self, Case};

/// A scratch folder under the system's temporary directory, named after the test
/// process and `name`, emptied when made and removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("zarr-reshape-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Makes a FIFO at `path` (`mkfifo`): a file whose read blocks until a writer
/// comes, which every reader of hostile input must refuse unread.
pub fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// The outcome names of a run, space-separated.
pub fn outcomes(report: &RunReport) -> String {
    let names: Vec<&str> = report.records.iter().map(|r| r.outcome.name()).collect();
    names.join(" ")
}

/// The message of a case answered `errored`; anything else fails the test.
pub fn errored_message(record: &CaseRecord) -> &str {
    match &record.answer {
        Answer::Errored { message } => message,
        other => panic!("{} was answered {other:?}, not errored", record.case.id),
    }
}

/// The first `count` cases of the shipped vectors, in file order, of the five
/// operations every adapter answers (the fakes list no others).
pub fn first_cases(count: usize) -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
    let cases: Vec<Case> = vector::discover(&root)
        .unwrap()
        .iter()
        .flat_map(|path| vector::load_file(path).unwrap())
        .filter(|case| zarr_reshape_conformance::OPERATIONS.contains(&case.operation.name()))
        .take(count)
        .collect();
    assert_eq!(cases.len(), count);
    cases
}

/// Runs `cases` through `implementation`, judged strictly with no known failures,
/// and checks that every case has exactly one record, in order.
pub fn run_in_order(implementation: &mut dyn Implementation, cases: &[Case]) -> RunReport {
    let report = run_suite(
        implementation,
        cases,
        &Expectations::default(),
        ClassCheck::Strict,
        |_| true,
    );
    let ids: Vec<&str> = report.records.iter().map(|r| r.case.id.as_str()).collect();
    let expected: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, expected, "one record per case, in order");
    report
}
