//! Reports of a conformance run. The JSON-lines stream ([`jsonl`]) is the run's one
//! record ([`record::RunLog`]); every other format is rendered from those records:
//! a summary for the terminal ([`text`]), a Markdown summary per clause
//! ([`markdown`]), JUnit XML ([`junit`]), a self-contained HTML results page
//! ([`html`]) and a shields.io badge ([`badge`]). [`read`] reads a JSON-lines file
//! back, for `zarr-reshape report`. The layouts are documented in
//! `conformance/REPORTS.md`.
//!
//! Every report counts a case in exactly one of pass, fail, error, crash, skip and
//! known failure ([`Status`]): a case listed in the expectations file that ended in
//! the outcome listed (or was skipped) is a known failure; a listed case that
//! ended in another outcome counts as that outcome, and breaks the run; a listed
//! case that passed counts as a pass and is also called out as an unexpected pass,
//! which breaks the run.

pub mod badge;
pub mod compare;
pub mod escape;
pub mod format;
pub mod html;
pub mod jsonl;
pub mod junit;
pub mod markdown;
pub mod read;
pub mod record;
pub mod tally;
pub mod text;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::wire::PROTOCOL_VERSION;
use record::{CaseLine, FORMAT, Header, RunLog};
pub use tally::{Status, Tally, breaks_run};

/// The clause name used for a case that names no clause.
pub const NO_CLAUSE: &str = "(no clause)";

impl RunLog {
    /// Whether the run was stopped before every case ran: by Ctrl-C, or cut short
    /// by a crash or a kill (no footer).
    #[must_use]
    pub fn interrupted(&self) -> bool {
        self.footer.as_ref().is_none_or(|footer| footer.interrupted)
    }

    /// The listed ids that no case of the suite has.
    #[must_use]
    pub fn stale_expectations(&self) -> &[String] {
        self.footer
            .as_ref()
            .map_or(&[], |footer| footer.stale_expectations.as_slice())
    }

    /// Whether the run succeeded.
    #[must_use]
    pub fn succeeded(&self) -> bool {
        !self.interrupted()
            && self.stale_expectations().is_empty()
            && !self.cases.iter().any(|case| case.breaks_run)
    }

    /// `name version (language)`, unescaped.
    #[must_use]
    pub fn implementation_label(&self) -> String {
        let info = &self.header.implementation;
        format!("{} {} ({})", info.name, info.version, info.language)
    }
}

impl Header {
    /// The suite the cases came from, in words: `suite 3.0.0`; `cases from files
    /// (not a suite release)` for a run on `--cases` files or folders; `suite
    /// release not recorded (report format 3)` for an older file.
    #[must_use]
    pub fn suite(&self) -> String {
        match (&self.suite_version, self.format) {
            (Some(version), _) => format!("suite {version}"),
            (None, format) if format < FORMAT => {
                format!("suite release not recorded (report format {format})")
            }
            (None, _) => "cases from files (not a suite release)".into(),
        }
    }
}

/// The clause a case is filed under in the reports: its first clause.
#[must_use]
pub fn clause_of(case: &CaseLine) -> &str {
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

/// The cases grouped by first clause, clauses in alphabetical order.
#[must_use]
pub fn by_clause(cases: &[CaseLine]) -> Vec<ClauseRow<'_>> {
    let mut rows: BTreeMap<&str, ClauseRow<'_>> = BTreeMap::new();
    for case in cases {
        let clause = clause_of(case);
        let row = rows.entry(clause).or_insert_with(|| ClauseRow {
            clause,
            levels: Vec::new(),
            tally: Tally::default(),
        });
        row.tally.add(case);
        let level = case.level.as_str();
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

/// The counts of each level that has cases, in the order must, should, interpretation.
#[must_use]
pub fn by_level(cases: &[CaseLine]) -> Vec<(&'static str, Tally)> {
    record::LEVELS
        .into_iter()
        .map(|level| (level, Tally::of(cases.iter().filter(|c| c.level == level))))
        .filter(|(_, tally)| tally.total() > 0)
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

/// The case's reason, empty for a pass.
#[must_use]
pub fn reason(case: &CaseLine) -> &str {
    case.reason.as_deref().unwrap_or_default()
}

/// The expectations file's reason for a listed case; empty when not listed.
#[must_use]
pub fn listed_reason(case: &CaseLine) -> &str {
    case.known_failure.as_deref().unwrap_or_default()
}

/// The expectations file's reason for a listed case, followed by its upstream
/// issue when its entry names one (`...; upstream issue https://...`); empty when
/// not listed.
#[must_use]
pub fn listed_with_issue(case: &CaseLine) -> String {
    let listed = listed_reason(case);
    match &case.known_issue {
        Some(url) => format!("{listed}; upstream issue {url}"),
        None => listed.to_string(),
    }
}

/// For a listed case that ended in another outcome than the one listed (not a
/// pass, not a skip): that listed outcome.
#[must_use]
pub fn listed_otherwise(case: &CaseLine) -> Option<&str> {
    let listed = case.known_outcome.as_deref()?;
    let other = !matches!(case.outcome.as_str(), "pass" | "skip") && case.outcome != listed;
    other.then_some(listed)
}

/// Whether the answer is a fault (`errored`) or a crash (`crashed`): its reason is
/// its message, already shown with the answer.
#[must_use]
pub fn answer_is_fault(case: &CaseLine) -> bool {
    case.answer.get("errored").is_some() || case.answer.get("crashed").is_some()
}

/// The line a report adds for an implementation speaking an older protocol
/// version, whose crashes may hide behind error answers; `None` for the current one.
#[must_use]
pub fn protocol_note(log: &RunLog) -> Option<String> {
    let version = log.header.implementation.protocol;
    (version < PROTOCOL_VERSION).then(|| {
        format!(
            "The adapter speaks protocol {version}, which has no crashed result: a crash it \
             answers as an error is counted as a rejection. Protocol {PROTOCOL_VERSION} tells them apart."
        )
    })
}

/// How many MUST cases ran: neither skipped by the implementation nor skipped
/// as listed.
#[must_use]
pub fn must_cases_run(log: &RunLog) -> usize {
    log.cases
        .iter()
        .filter(|case| case.level == "must" && case.outcome != "skip")
        .count()
}

/// Whether the run tested nothing: no MUST case ran (no case at all, every case
/// skipped, or none of level must). Such a run is never shown as passed, whatever
/// `run` was told to accept: the reports judge from the records alone.
#[must_use]
pub fn tested_nothing(log: &RunLog) -> bool {
    must_cases_run(log) == 0
}

/// The run's verdict in one line, starting with `PASSED`, `FAILED`,
/// `INTERRUPTED` or, for a run in which no MUST case ran, `NOT TESTED`.
#[must_use]
pub fn verdict(log: &RunLog) -> String {
    let tally = Tally::of(&log.cases);
    let mut problems = Vec::new();
    if tally.breaking > 0 {
        let failures: Vec<Status> = log
            .cases
            .iter()
            .filter(|case| case.breaks_run)
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
    let stale = log.stale_expectations();
    if !stale.is_empty() {
        problems.push(plural(
            stale.len(),
            "expectation is stale",
            "expectations are stale",
        ));
    }
    let known = match tally.known_failure {
        0 => String::new(),
        n => format!(" ({})", plural(n, "known failure", "known failures")),
    };
    if log.interrupted() {
        let mut text = format!(
            "INTERRUPTED after {}",
            plural(tally.total(), "case", "cases")
        );
        if !problems.is_empty() {
            text.push_str("; ");
            text.push_str(&problems.join("; "));
        }
        text
    } else if !problems.is_empty() {
        format!("FAILED: {}", problems.join("; "))
    } else if tested_nothing(log) {
        format!("NOT TESTED: no MUST case ran ({})", untested(log))
    } else {
        format!("PASSED: no MUST case fails{known}")
    }
}

/// Why no MUST case ran, in words: `the run has no case`, `every case was
/// skipped: 3`, `2 cases ran, none of level must; 1 skipped`.
fn untested(log: &RunLog) -> String {
    let total = log.cases.len();
    let skipped = log
        .cases
        .iter()
        .filter(|case| case.outcome == "skip")
        .count();
    if total == 0 {
        "the run has no case".into()
    } else if skipped == total {
        format!("every case was skipped: {total}")
    } else {
        format!(
            "{} ran, none of level must; {skipped} skipped",
            plural(total.saturating_sub(skipped), "case", "cases")
        )
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
