//! Reports of a conformance run: a summary for the terminal ([`text`]), a Markdown
//! summary per clause ([`markdown`]), a streaming JSON-lines log ([`jsonl`]) and
//! JUnit XML ([`junit`]). Their layouts are documented in `conformance/REPORTS.md`.
//!
//! Every report counts a record in exactly one of pass, fail, error, crash, skip and
//! known failure ([`Status`]): a case listed in the expectations file that ended in
//! the outcome listed (or was skipped) is a known failure; a listed case that
//! ended in another outcome counts as that outcome, and breaks the run; a listed
//! case that passed counts as a pass and is also called out as an unexpected pass,
//! which breaks the run.

pub mod escape;
pub mod jsonl;
pub mod junit;
pub mod markdown;
pub mod text;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::judge::Outcome;
use crate::run::PROTOCOL_VERSION;
use crate::run::{CaseRecord, ListedOutcome, RunReport, listed_as};
use crate::vector::Case;

/// The clause name used for a case that names no clause.
pub const NO_CLAUSE: &str = "(no clause)";

/// How a record is counted in the reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Passed, and not listed as a known failure.
    Pass,
    /// Listed as a known failure, but passed: the list is stale and the run fails.
    UnexpectedPass,
    /// A wrong answer, not listed with that outcome.
    Fail,
    /// No usable answer (a timeout, a process death, a protocol fault), not listed
    /// with that outcome.
    Error,
    /// The implementation crashed, not listed with that outcome.
    Crash,
    /// Skipped by the implementation, not listed.
    Skip,
    /// Listed in the expectations file, and ended as listed (or was skipped).
    KnownFailure,
}

impl Status {
    /// How `record` is counted.
    #[must_use]
    pub fn of(record: &CaseRecord) -> Self {
        if record.is_known_failure() {
            return Self::KnownFailure;
        }
        match &record.outcome {
            Outcome::Pass if record.known_failure.is_some() => Self::UnexpectedPass,
            Outcome::Pass => Self::Pass,
            Outcome::Fail(_) => Self::Fail,
            Outcome::Error(_) => Self::Error,
            Outcome::Crash(_) => Self::Crash,
            Outcome::Skip(_) => Self::Skip,
        }
    }
}

/// Counts of records by [`Status`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Passes, unexpected passes included.
    pub pass: usize,
    /// Unlisted wrong answers.
    pub fail: usize,
    /// Unlisted timeouts, process deaths and protocol faults.
    pub error: usize,
    /// Unlisted crashes.
    pub crash: usize,
    /// Unlisted skips.
    pub skip: usize,
    /// Listed cases that did not pass.
    pub known_failure: usize,
    /// Listed cases that passed (also counted in `pass`).
    pub unexpected_pass: usize,
    /// Records that break the run ([`CaseRecord::breaks_run`]).
    pub breaking: usize,
}

impl Tally {
    /// Counts `records`.
    #[must_use]
    pub fn of<'a>(records: impl IntoIterator<Item = &'a CaseRecord>) -> Self {
        let mut tally = Self::default();
        for record in records {
            tally.add(record);
        }
        tally
    }

    /// Counts one more record.
    pub fn add(&mut self, record: &CaseRecord) {
        let bump = |n: &mut usize| *n = n.saturating_add(1);
        match Status::of(record) {
            Status::Pass => bump(&mut self.pass),
            Status::UnexpectedPass => {
                bump(&mut self.pass);
                bump(&mut self.unexpected_pass);
            }
            Status::Fail => bump(&mut self.fail),
            Status::Error => bump(&mut self.error),
            Status::Crash => bump(&mut self.crash),
            Status::Skip => bump(&mut self.skip),
            Status::KnownFailure => bump(&mut self.known_failure),
        }
        if record.breaks_run() {
            bump(&mut self.breaking);
        }
    }

    /// All records counted.
    #[must_use]
    pub fn total(&self) -> usize {
        [
            self.pass,
            self.fail,
            self.error,
            self.crash,
            self.skip,
            self.known_failure,
        ]
        .iter()
        .fold(0, |sum, n| sum.saturating_add(*n))
    }
}

/// The clause a case is filed under in the reports: its first clause.
#[must_use]
pub fn clause_of(case: &Case) -> &str {
    case.clauses.first().map_or(NO_CLAUSE, String::as_str)
}

/// One clause's line in a per-clause table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClauseRow<'a> {
    /// The clause id (the first clause of its cases).
    pub clause: &'a str,
    /// The levels of its cases: `must`, `should`, `interpretation`, in that order.
    pub levels: Vec<&'a str>,
    /// Its counts.
    pub tally: Tally,
}

/// The records grouped by first clause, clauses in alphabetical order.
#[must_use]
pub fn by_clause(records: &[CaseRecord]) -> Vec<ClauseRow<'_>> {
    let mut rows: BTreeMap<&str, ClauseRow<'_>> = BTreeMap::new();
    for record in records {
        let clause = clause_of(&record.case);
        let row = rows.entry(clause).or_insert_with(|| ClauseRow {
            clause,
            levels: Vec::new(),
            tally: Tally::default(),
        });
        row.tally.add(record);
        let level = record.case.level.as_str();
        if !row.levels.contains(&level) {
            row.levels.push(level);
        }
    }
    rows.into_values()
        .map(|mut row| {
            row.levels.sort_by_key(|level| (level_rank(level), *level));
            row
        })
        .collect()
}

fn level_rank(level: &str) -> u8 {
    match level {
        "must" => 0,
        "should" => 1,
        "interpretation" => 2,
        _ => 3,
    }
}

/// The outcome's reason, empty for a pass.
#[must_use]
pub fn reason(outcome: &Outcome) -> &str {
    outcome.reason()
}

/// The expectations file's reason for a listed record; empty when not listed.
#[must_use]
pub fn listed_reason(record: &CaseRecord) -> &str {
    record
        .known_failure
        .as_ref()
        .map_or("", |known| known.reason.as_str())
}

/// For a listed record that ended in another outcome than the one listed (not a
/// pass, not a skip): that listed outcome.
#[must_use]
pub fn listed_otherwise(record: &CaseRecord) -> Option<ListedOutcome> {
    let known = record.known_failure.as_ref()?;
    let other = !matches!(record.outcome, Outcome::Pass | Outcome::Skip(_))
        && !listed_as(known.outcome, &record.outcome);
    other.then_some(known.outcome)
}

/// The line a report adds for an implementation speaking an older protocol
/// version, whose crashes may hide behind error answers; `None` for the current one.
#[must_use]
pub fn protocol_note(report: &RunReport) -> Option<String> {
    let version = report.implementation.protocol;
    (version < PROTOCOL_VERSION).then(|| {
        format!(
            "The adapter speaks protocol {version}, which has no crashed result: a crash it \
             answers as an error is counted as a rejection. Protocol {PROTOCOL_VERSION} tells them apart."
        )
    })
}

/// The run's verdict in one line, starting with `PASSED`, `FAILED` or `INTERRUPTED`.
#[must_use]
pub fn verdict(report: &RunReport) -> String {
    let tally = Tally::of(&report.records);
    let mut problems = Vec::new();
    if tally.breaking > 0 {
        let failures: Vec<Status> = report
            .records
            .iter()
            .filter(|record| record.breaks_run())
            .map(Status::of)
            .collect();
        let count = |status: Status| failures.iter().filter(|s| **s == status).count();
        let kinds: Vec<String> = [
            (count(Status::Fail), "failure", "failures"),
            (count(Status::Error), "error", "errors"),
            (count(Status::Crash), "crash", "crashes"),
            (
                count(Status::UnexpectedPass),
                "unexpected pass",
                "unexpected passes",
            ),
        ]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| plural(n, one, many))
        .collect();
        problems.push(format!(
            "{} the run ({})",
            plural(tally.breaking, "case breaks", "cases break"),
            kinds.join(", ")
        ));
    }
    if !report.stale_expectations.is_empty() {
        problems.push(plural(
            report.stale_expectations.len(),
            "expectation is stale",
            "expectations are stale",
        ));
    }
    let known = match tally.known_failure {
        0 => String::new(),
        n => format!(" ({})", plural(n, "known failure", "known failures")),
    };
    if report.interrupted {
        let mut text = format!(
            "INTERRUPTED after {}",
            plural(tally.total(), "case", "cases")
        );
        if !problems.is_empty() {
            text.push_str("; ");
            text.push_str(&problems.join("; "));
        }
        text
    } else if problems.is_empty() {
        format!("PASSED: no MUST case fails{known}")
    } else {
        format!("FAILED: {}", problems.join("; "))
    }
}

/// `1 case`, `2 cases`.
#[must_use]
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Compact JSON text of a value.
#[must_use]
pub fn compact(value: &Value) -> String {
    value.to_string()
}

/// `text` on one line: every run of whitespace, line breaks included, becomes one space.
#[must_use]
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
