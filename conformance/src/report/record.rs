//! The records of a run, as the JSON-lines report holds them: a header, one line
//! per case and a footer. Every report format is rendered from these records (a
//! [`RunLog`]), never from the run's in-memory state, so that `zarr-reshape report`
//! rebuilds any report from a JSON-lines file byte for byte. The layout is
//! documented in `conformance/REPORTS.md` and `conformance/report.schema.json`.

use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::run::{CaseRecord, ImplementationInfo, RunReport, expected_json};
use crate::vector::Case;

/// The version of the JSON-lines layout (the header's `format`, the report format).
/// Format 4 made the header's `suite_version` the suite release (`3.0.0`, or null
/// for cases from files) and added `vector_format`; format 3 added the case's
/// `index`, `description` and `given`, and the footer's `levels`; format 2 added
/// the `crash` outcome and count, `known_outcome` and the implementation's
/// `protocol`. Format 3 files are still read.
pub const FORMAT: u64 = 4;

/// The levels a case may have, in report order.
pub const LEVELS: [&str; 3] = ["must", "should", "interpretation"];

/// A whole run, as read back from (or about to be written as) JSON lines.
#[derive(Debug, Clone, PartialEq)]
pub struct RunLog {
    /// The first line.
    pub header: Header,
    /// One line per case, in the order of the run's selection (`index`).
    pub cases: Vec<CaseLine>,
    /// The last line; `None` when the run was cut short by a crash or a kill.
    pub footer: Option<Footer>,
}

/// The header line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always `header`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The layout version, [`FORMAT`] (3 for a format 3 file read back).
    pub format: u64,
    /// Who was under test.
    pub implementation: Implementation,
    /// The suite release the cases came from (the embedded suite's version, e.g.
    /// `3.0.0`); `None` when some case came from a file or folder named with
    /// `--cases`, whose cases no release vouches for, and for a format 3 file,
    /// which did not record it.
    pub suite_version: Option<String>,
    /// The vector format of the case files (the `format` member of every vector file).
    pub vector_format: u64,
    /// The runner that wrote the file.
    pub runner: Runner,
}

/// The implementation under test, as its adapter's `start` answer said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Implementation {
    /// e.g. `zarrs`.
    pub name: String,
    /// e.g. `0.23.14`.
    pub version: String,
    /// e.g. `rust`.
    pub language: String,
    /// The operations it supports.
    pub operations: Vec<String>,
    /// The adapter protocol version it spoke.
    pub protocol: u64,
}

/// The runner that wrote the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Runner {
    /// This crate's name.
    pub name: String,
    /// This crate's version.
    pub version: String,
}

/// One case's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseLine {
    /// Always `case`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The case's position in the run's selection, from 0: lines are written as
    /// cases finish, which with `--jobs` is not the selection's order.
    pub index: u64,
    /// The case id.
    pub id: String,
    /// What the case shows.
    pub description: String,
    /// Its clauses; the first is the one under test.
    pub clauses: Vec<String>,
    /// `must`, `should` or `interpretation`.
    pub level: String,
    /// The operation.
    pub operation: String,
    /// The case's configuration (or codec object), decoded shape and operation
    /// inputs, as written in its vector file.
    pub given: Map<String, Value>,
    /// `pass`, `fail`, `error`, `crash` or `skip`.
    pub outcome: String,
    /// Why it did not pass; `None` for a pass.
    pub reason: Option<String>,
    /// The expectations file's reason, when the case is listed.
    pub known_failure: Option<String>,
    /// The outcome it is listed with, when listed.
    pub known_outcome: Option<String>,
    /// The upstream issue its entry names (`issue_url`), when listed with one;
    /// left out of the line otherwise, so that a line without it reads as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known_issue: Option<String>,
    /// Whether the case breaks the run.
    pub breaks_run: bool,
    /// The case's `expect`, as written.
    pub expected: Value,
    /// The implementation's result, in the adapter protocol's form.
    pub answer: Value,
    /// How long the answer took, to the microsecond.
    pub duration_ms: Millis,
    /// What the implementation wrote to stderr during the case.
    pub stderr: String,
}

/// The footer line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Footer {
    /// Always `footer`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Whether Ctrl-C stopped the run.
    pub interrupted: bool,
    /// Whether the run succeeded.
    pub succeeded: bool,
    /// Every case counted once.
    pub counts: Counts,
    /// The same counts for each level, in [`LEVELS`] order.
    pub levels: Levels,
    /// Listed ids that no case of the suite has.
    pub stale_expectations: Vec<String>,
    /// How long the run took.
    pub duration_ms: Millis,
}

/// Counts of cases: every case in exactly one of pass, fail, error, crash, skip
/// and `known_failure`; `unexpected_pass` is part of `pass`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// Every case.
    pub total: usize,
    /// Passes, unexpected passes included.
    pub pass: usize,
    /// Unlisted wrong answers.
    pub fail: usize,
    /// Unlisted errors.
    pub error: usize,
    /// Unlisted crashes.
    pub crash: usize,
    /// Unlisted skips.
    pub skip: usize,
    /// Listed cases that ended as listed, or were skipped.
    pub known_failure: usize,
    /// Listed cases that passed.
    pub unexpected_pass: usize,
    /// Cases that break the run.
    pub breaking: usize,
}

/// The counts of each level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Levels {
    /// The `must` cases.
    pub must: Counts,
    /// The `should` cases.
    pub should: Counts,
    /// The `interpretation` cases.
    pub interpretation: Counts,
}

impl Levels {
    /// The counts of `level`; `None` for a level outside [`LEVELS`].
    #[must_use]
    pub fn get(&self, level: &str) -> Option<&Counts> {
        match level {
            "must" => Some(&self.must),
            "should" => Some(&self.should),
            "interpretation" => Some(&self.interpretation),
            _ => None,
        }
    }
}

/// A duration in milliseconds, written as an exact decimal to the microsecond
/// (`1.25` for 1250 µs, `3` for 3000 µs) and kept as whole microseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Millis {
    /// Whole microseconds.
    pub micros: u64,
}

impl Millis {
    /// `duration`, to the microsecond.
    #[must_use]
    pub fn of(duration: Duration) -> Self {
        Self {
            micros: u64::try_from(duration.as_micros()).unwrap_or(u64::MAX),
        }
    }

    /// As a [`Duration`].
    #[must_use]
    pub fn duration(self) -> Duration {
        Duration::from_micros(self.micros)
    }

    /// The decimal text: `1.25`, `3`.
    #[must_use]
    pub fn text(self) -> String {
        let (whole, part) = (self.micros / 1000, self.micros % 1000);
        if part == 0 {
            whole.to_string()
        } else {
            // Exact decimal text, not a product of floats: 1.25, never 1.2500000000000002.
            format!("{whole}.{part:03}")
                .trim_end_matches('0')
                .to_string()
        }
    }

    /// Reads decimal millisecond text such as `1.25`; at most three decimals.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let (whole, part) = text.split_once('.').unwrap_or((text, ""));
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || !(part.is_empty() || (digits(part) && part.len() <= 3)) {
            return None;
        }
        let whole: u64 = whole.parse().ok()?;
        let part: u64 = format!("{part:0<3}").parse().ok()?;
        let micros = whole.checked_mul(1000)?.checked_add(part)?;
        Some(Self { micros })
    }
}

impl Serialize for Millis {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The exact text as a JSON number, through serde_json's number parser.
        let number: serde_json::Number = self
            .text()
            .parse()
            .map_err(|_| serde::ser::Error::custom("a duration that is not a number"))?;
        number.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Millis {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let number = serde_json::Number::deserialize(deserializer)?;
        Self::parse(&number.to_string()).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{number} is not a duration in milliseconds (a non-negative decimal with at most 3 decimals)"
            ))
        })
    }
}

/// The case object's members that are not the case's request: the rest is `given`.
const NOT_GIVEN: [&str; 7] = [
    "id",
    "description",
    "clauses",
    "interpretations",
    "level",
    "operation",
    "expect",
];

/// What the case hands the implementation: its object as written, without its
/// id, description, clauses, interpretations, level, operation and expectation.
#[must_use]
pub fn given_of(case: &Case) -> Map<String, Value> {
    case.json
        .as_object()
        .map(|object| {
            object
                .iter()
                .filter(|(key, _)| !NOT_GIVEN.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect()
        })
        .unwrap_or_default()
}

impl Header {
    /// The header of a run of `implementation` on the cases of the suite release
    /// `suite_version` (`None` for cases from files), written by this runner.
    #[must_use]
    pub fn of(implementation: &ImplementationInfo, suite_version: Option<&str>) -> Self {
        Self {
            kind: "header".into(),
            format: FORMAT,
            implementation: Implementation {
                name: implementation.name.clone(),
                version: implementation.version.clone(),
                language: implementation.language.clone(),
                operations: implementation.operations.clone(),
                protocol: implementation.protocol,
            },
            suite_version: suite_version.map(str::to_string),
            vector_format: crate::vector::FORMAT,
            runner: Runner {
                name: env!("CARGO_PKG_NAME").into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
        }
    }
}

impl CaseLine {
    /// The line of `record`, the `index`th case of the run's selection.
    #[must_use]
    pub fn of(record: &CaseRecord, index: usize) -> Self {
        let case = &record.case;
        let reason = record.outcome.reason();
        Self {
            kind: "case".into(),
            index: u64::try_from(index).unwrap_or(u64::MAX),
            id: case.id.clone(),
            description: case.description.clone(),
            clauses: case.clauses.clone(),
            level: case.level.clone(),
            operation: case.operation.name().into(),
            given: given_of(case),
            outcome: record.outcome.name().into(),
            reason: Some(reason.to_string()).filter(|why| !why.is_empty()),
            known_failure: record.known_failure.as_ref().map(|k| k.reason.clone()),
            known_outcome: record
                .known_failure
                .as_ref()
                .map(|k| k.outcome.name().to_string()),
            known_issue: record
                .known_failure
                .as_ref()
                .and_then(|k| k.issue_url.clone()),
            breaks_run: record.breaks_run(),
            expected: expected_json(case),
            answer: record.answer.to_json(),
            duration_ms: Millis::of(record.duration),
            stderr: record.stderr.clone(),
        }
    }
}

impl RunLog {
    /// The records of a finished (or interrupted) run.
    #[must_use]
    pub fn of(report: &RunReport) -> Self {
        let cases: Vec<CaseLine> = report
            .records
            .iter()
            .enumerate()
            .map(|(index, record)| CaseLine::of(record, index))
            .collect();
        let footer = Footer::of(
            &cases,
            report.interrupted,
            report.stale_expectations.clone(),
            Millis::of(report.duration),
        );
        Self {
            header: Header::of(&report.implementation, report.suite_version.as_deref()),
            cases,
            footer: Some(footer),
        }
    }
}
