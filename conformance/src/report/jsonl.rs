//! The JSON-lines report: a header line, one line per case as it finishes, and a
//! footer. Every line is flushed as it is written, so a run that is killed leaves
//! every finished case on disk; a run stopped by Ctrl-C still writes its footer,
//! with `"interrupted": true`. A file without a footer was cut short by a crash or
//! a kill. Each line validates against `conformance/report.schema.json`.

use std::io::{self, Write};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::run::{CaseRecord, ImplementationInfo, RunReport, expected_json};

use super::{Tally, reason};

/// The version of this report layout (the `format` member of the header). Format
/// 2 added the `crash` outcome and count, `known_outcome` and the implementation's
/// `protocol`.
pub const FORMAT: u64 = 2;

/// Writes a JSON-lines report as the run goes.
#[derive(Debug)]
pub struct JsonlWriter<W: Write> {
    out: W,
}

impl<W: Write> JsonlWriter<W> {
    /// Starts a report on `out`, writing and flushing the header line at once.
    ///
    /// # Errors
    /// When `out` cannot be written.
    pub fn new(
        out: W,
        implementation: &ImplementationInfo,
        suite_version: u64,
    ) -> io::Result<Self> {
        let mut writer = Self { out };
        writer.line(&header_line(implementation, suite_version))?;
        Ok(writer)
    }

    /// Writes and flushes one case's line.
    ///
    /// # Errors
    /// When the line cannot be written.
    pub fn record(&mut self, record: &CaseRecord) -> io::Result<()> {
        self.line(&case_line(record))
    }

    /// Writes and flushes the footer, from the finished (or interrupted) run.
    ///
    /// # Errors
    /// When the footer cannot be written.
    pub fn finish(mut self, report: &RunReport) -> io::Result<()> {
        self.line(&footer_line(report))
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    fn line(&mut self, line: &impl Serialize) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, line)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

/// The header line. Members are written in the order of the fields.
#[derive(Debug, Serialize)]
pub struct Header<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    format: u64,
    implementation: Implementation<'a>,
    suite_version: u64,
    runner: Runner,
}

#[derive(Debug, Serialize)]
struct Implementation<'a> {
    name: &'a str,
    version: &'a str,
    language: &'a str,
    operations: &'a [String],
    protocol: u64,
}

#[derive(Debug, Serialize)]
struct Runner {
    name: &'static str,
    version: &'static str,
}

/// One case's line.
#[derive(Debug, Serialize)]
pub struct CaseLine<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'a str,
    clauses: &'a [String],
    level: &'a str,
    operation: &'static str,
    outcome: &'static str,
    reason: Option<&'a str>,
    known_failure: Option<&'a str>,
    known_outcome: Option<&'static str>,
    breaks_run: bool,
    expected: Value,
    answer: Value,
    duration_ms: Value,
    stderr: &'a str,
}

/// The footer line.
#[derive(Debug, Serialize)]
pub struct Footer<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    interrupted: bool,
    succeeded: bool,
    counts: Counts,
    stale_expectations: &'a [String],
    duration_ms: Value,
}

/// The footer's counts: every case is in exactly one of pass, fail, error, crash,
/// skip and known_failure; `unexpected_pass` is part of `pass`.
#[derive(Debug, Serialize)]
struct Counts {
    total: usize,
    pass: usize,
    fail: usize,
    error: usize,
    crash: usize,
    skip: usize,
    known_failure: usize,
    unexpected_pass: usize,
    breaking: usize,
}

/// The header line of a run of `implementation`.
#[must_use]
pub fn header_line(implementation: &ImplementationInfo, suite_version: u64) -> Header<'_> {
    Header {
        kind: "header",
        format: FORMAT,
        implementation: Implementation {
            name: &implementation.name,
            version: &implementation.version,
            language: &implementation.language,
            operations: &implementation.operations,
            protocol: implementation.protocol,
        },
        suite_version,
        runner: Runner {
            name: env!("CARGO_PKG_NAME"),
            version: env!("CARGO_PKG_VERSION"),
        },
    }
}

/// The line of one case.
#[must_use]
pub fn case_line(record: &CaseRecord) -> CaseLine<'_> {
    let case = &record.case;
    CaseLine {
        kind: "case",
        id: &case.id,
        clauses: &case.clauses,
        level: &case.level,
        operation: case.operation.name(),
        outcome: record.outcome.name(),
        reason: Some(reason(&record.outcome)).filter(|why| !why.is_empty()),
        known_failure: record
            .known_failure
            .as_ref()
            .map(|known| known.reason.as_str()),
        known_outcome: record
            .known_failure
            .as_ref()
            .map(|known| known.outcome.name()),
        breaks_run: record.breaks_run(),
        expected: expected_json(case),
        answer: record.answer.to_json(),
        duration_ms: milliseconds(record.duration),
        stderr: &record.stderr,
    }
}

/// The footer line of a finished or interrupted run.
#[must_use]
pub fn footer_line(report: &RunReport) -> Footer<'_> {
    let tally = Tally::of(&report.records);
    Footer {
        kind: "footer",
        interrupted: report.interrupted,
        succeeded: report.succeeded(),
        counts: Counts {
            total: tally.total(),
            pass: tally.pass,
            fail: tally.fail,
            error: tally.error,
            crash: tally.crash,
            skip: tally.skip,
            known_failure: tally.known_failure,
            unexpected_pass: tally.unexpected_pass,
            breaking: tally.breaking,
        },
        stale_expectations: &report.stale_expectations,
        duration_ms: milliseconds(report.duration),
    }
}

/// Milliseconds to the microsecond: `1.25` for 1250 µs, `3` for 3000 µs.
fn milliseconds(duration: Duration) -> Value {
    let micros = u64::try_from(duration.as_micros()).unwrap_or(u64::MAX);
    let (whole, part) = (micros / 1000, micros % 1000);
    if part == 0 {
        Value::from(whole)
    } else {
        // Exact decimal text, not a product of floats: 1.25, never 1.2500000000000002.
        let text = format!("{whole}.{part:03}");
        serde_json::from_str(text.trim_end_matches('0')).unwrap_or(Value::from(whole))
    }
}
