//! A conformance run: every selected case through one implementation, judged,
//! with known failures taken from an expectations file.

mod expectations;
mod implementation;
mod in_process;
mod kept;

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::answer::{Answer, catch_panic};
use crate::judge::{ClassCheck, Outcome, judge};
use crate::vector::Case;

pub use expectations::{
    Expectations, KnownFailure, ListedOutcome, TODO, breaks_run, listed_as,
    read_file as read_expectations,
};
// The report names the protocol version (one path: the crate root re-exports it).
pub use implementation::{Implementation, ImplementationInfo};
pub use in_process::{DEFAULT_TIMEOUT, MAX_STUCK_CASES, Reference};
pub use kept::{MAX_KEPT_ANSWER_BYTES, MAX_KEPT_ANSWER_VALUES, kept};

/// One case's record in a run.
#[derive(Debug, Clone)]
pub struct CaseRecord {
    /// The case.
    pub case: Case,
    /// What the implementation answered, as kept for the reports: cut when it is
    /// large ([`kept`]), after it was judged whole.
    pub answer: Answer,
    /// The judgement.
    pub outcome: Outcome,
    /// The expectations file's listing of the case (reason and outcome), when it
    /// is listed.
    pub known_failure: Option<KnownFailure>,
    /// How long the answer took.
    pub duration: Duration,
    /// What the implementation wrote to stderr during the case.
    pub stderr: String,
}

impl CaseRecord {
    /// Whether the record breaks the run, by the rule of [`breaks_run`] (which
    /// `fuzz` applies too).
    #[must_use]
    pub fn breaks_run(&self) -> bool {
        breaks_run(&self.case.level, &self.outcome, self.known_failure.as_ref())
    }

    /// Whether the case is listed and ended as listed (or skipped): a known
    /// failure, excused.
    #[must_use]
    pub fn is_known_failure(&self) -> bool {
        self.known_failure.as_ref().is_some_and(|known| {
            listed_as(known.outcome, &self.outcome) || matches!(self.outcome, Outcome::Skip(_))
        })
    }
}

/// A whole run.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// Who was under test.
    pub implementation: ImplementationInfo,
    /// The suite release the cases came from (e.g. `3.0.0`); `None`, as
    /// [`run_suite`] leaves it, when some case came from a file or folder: the
    /// caller knows where its cases came from.
    pub suite_version: Option<String>,
    /// One record per case, in the order run.
    pub records: Vec<CaseRecord>,
    /// Listed known failures whose ids no case of the suite has.
    pub stale_expectations: Vec<String>,
    /// Whether the run was cut short (Ctrl-C).
    pub interrupted: bool,
    /// How long the whole run took.
    pub duration: Duration,
}

impl RunReport {
    /// Whether the run succeeds: nothing breaks it and no expectation is stale.
    #[must_use]
    pub fn succeeded(&self) -> bool {
        !self.interrupted
            && self.stale_expectations.is_empty()
            && !self.records.iter().any(CaseRecord::breaks_run)
    }
}

/// Runs `cases` through `implementation`, calling `progress` after each case; a
/// `false` from `progress` stops the run as interrupted. The caller fills in
/// `stale_expectations`, as only it knows every case id of the suite (a filter
/// may have left some out of `cases`).
pub fn run_suite(
    implementation: &mut dyn Implementation,
    cases: &[Case],
    expectations: &Expectations,
    classes: ClassCheck,
    mut progress: impl FnMut(&CaseRecord) -> bool,
) -> RunReport {
    let started = Instant::now();
    let supported = implementation.info().operations.clone();
    let mut records = Vec::with_capacity(cases.len());
    let mut interrupted = false;
    for case in cases {
        let began = Instant::now();
        let answer = if supported.iter().any(|op| op == case.operation.name()) {
            // A panic of one case is that case's answer: the run goes on, and its
            // reports are complete.
            catch_panic(|| implementation.run(case))
        } else {
            Answer::Skipped {
                reason: format!(
                    "the implementation does not support {}",
                    case.operation.name()
                ),
            }
        };
        let outcome = judge(case, &answer, classes);
        let record = CaseRecord {
            known_failure: expectations.known(&case.id).cloned(),
            case: case.clone(),
            answer: kept(answer),
            outcome,
            duration: began.elapsed(),
            stderr: implementation.take_stderr(),
        };
        let keep_going = progress(&record);
        records.push(record);
        if !keep_going {
            interrupted = true;
            break;
        }
    }
    RunReport {
        implementation: implementation.info().clone(),
        suite_version: None,
        stale_expectations: Vec::new(),
        records,
        interrupted,
        duration: started.elapsed(),
    }
}

/// The case's expectation, as written in its file.
#[must_use]
pub fn expected_json(case: &Case) -> Value {
    case.json.get("expect").cloned().unwrap_or(Value::Null)
}
