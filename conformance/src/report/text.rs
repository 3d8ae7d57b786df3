//! The summary printed at the end of a run: plain text, no colours, and no clock
//! values, so that the same run always prints the same text. Whatever came from a
//! vector or an adapter is printed through [`safe`](super::escape::terminal), so
//! that no escape sequence reaches the terminal.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::answer::Answer;
use crate::run::{CaseRecord, RunReport, expected_json};

use super::escape::terminal as safe;
use super::{
    Status, Tally, by_clause, compact, listed_otherwise, listed_reason, one_line, plural,
    protocol_note, reason, verdict,
};

/// The most lines of a case's stderr shown in the summary.
const STDERR_LINES: usize = 10;

/// The terminal summary of a run: who was tested, a per-clause table, every
/// failure, error and crash with its expectation and answer, the known failures,
/// unexpected passes and stale expectations, and a final verdict line.
#[must_use]
pub fn summary(report: &RunReport) -> String {
    let mut out = String::new();
    let info = &report.implementation;
    let tally = Tally::of(&report.records);
    let _ = writeln!(
        out,
        "{} {} ({}), suite version {}: {}",
        safe(&info.name),
        safe(&info.version),
        safe(&info.language),
        report.suite_version,
        plural(tally.total(), "case", "cases")
    );
    if report.interrupted {
        let _ = writeln!(
            out,
            "The run was interrupted: only the cases run are counted."
        );
    }
    if let Some(note) = protocol_note(report) {
        let _ = writeln!(out, "{note}");
    }
    out.push('\n');
    table(&mut out, report);

    let broken: Vec<&CaseRecord> = failures(report).filter(|r| r.breaks_run()).collect();
    let other: Vec<&CaseRecord> = failures(report).filter(|r| !r.breaks_run()).collect();
    section(
        &mut out,
        "Failures, errors and crashes that break the run",
        &broken,
    );
    section(
        &mut out,
        "Failures that do not break the run (level should or interpretation)",
        &other,
    );
    skips(&mut out, report);

    let known: Vec<&CaseRecord> = with_status(report, Status::KnownFailure).collect();
    if !known.is_empty() {
        let _ = writeln!(
            out,
            "\nKnown failures ({}), listed in the expectations file:",
            known.len()
        );
        for record in known {
            let _ = writeln!(
                out,
                "  {} [{}]: {}",
                safe(&record.case.id),
                record.outcome.name(),
                safe(listed_reason(record))
            );
        }
    }
    let unexpected: Vec<&CaseRecord> = with_status(report, Status::UnexpectedPass).collect();
    if !unexpected.is_empty() {
        let _ = writeln!(
            out,
            "\nUnexpected passes ({}): listed as known failures but passed; remove them from the expectations file:",
            unexpected.len()
        );
        for record in unexpected {
            let _ = writeln!(
                out,
                "  {}: listed because {}",
                safe(&record.case.id),
                safe(listed_reason(record))
            );
        }
    }
    if !report.stale_expectations.is_empty() {
        let _ = writeln!(
            out,
            "\nStale expectations ({}): listed ids that no case of the suite has:",
            report.stale_expectations.len()
        );
        for id in &report.stale_expectations {
            let _ = writeln!(out, "  {}", safe(id));
        }
    }
    let _ = writeln!(out, "\n{}", verdict(report));
    out
}

/// The failures, errors and crashes that are not excused, in run order.
fn failures(report: &RunReport) -> impl Iterator<Item = &CaseRecord> {
    report
        .records
        .iter()
        .filter(|r| matches!(Status::of(r), Status::Fail | Status::Error | Status::Crash))
}

fn with_status(report: &RunReport, status: Status) -> impl Iterator<Item = &CaseRecord> {
    report
        .records
        .iter()
        .filter(move |r| Status::of(r) == status)
}

/// The per-clause table, with a total line.
fn table(out: &mut String, report: &RunReport) {
    let rows: Vec<(String, Tally)> = by_clause(&report.records)
        .into_iter()
        .map(|row| (safe(row.clause), row.tally))
        .collect();
    let width = rows
        .iter()
        .map(|(clause, _)| clause.chars().count())
        .chain(["clause".len(), "total".len()])
        .max()
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{:<width$}  pass  fail  error  crash  skip  known",
        "clause"
    );
    let line = |out: &mut String, name: &str, t: &Tally| {
        let _ = writeln!(
            out,
            "{name:<width$}  {:>4}  {:>4}  {:>5}  {:>5}  {:>4}  {:>5}",
            t.pass, t.fail, t.error, t.crash, t.skip, t.known_failure
        );
    };
    for (clause, tally) in &rows {
        line(out, clause, tally);
    }
    line(out, "total", &Tally::of(&report.records));
}

/// A titled list of failures, each with its expectation, answer and reason.
fn section(out: &mut String, title: &str, records: &[&CaseRecord]) {
    if records.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title} ({}):", records.len());
    for record in records {
        let case = &record.case;
        let _ = writeln!(
            out,
            "\n{} {} [{}]",
            record.outcome.name().to_uppercase(),
            safe(&case.id),
            safe(&case.level)
        );
        let _ = writeln!(out, "  {}", safe(&one_line(&case.description)));
        let _ = writeln!(out, "  expected: {}", safe(&compact(&expected_json(case))));
        let _ = writeln!(
            out,
            "  answered: {}",
            safe(&compact(&record.answer.to_json()))
        );
        if !matches!(
            record.answer,
            Answer::Errored { .. } | Answer::Crashed { .. }
        ) {
            // A fault's or a crash's reason is its message, already in the answer.
            let _ = writeln!(
                out,
                "  why:      {}",
                safe(&one_line(reason(&record.outcome)))
            );
        }
        if let Some(listed) = listed_otherwise(record) {
            let _ = writeln!(
                out,
                "  listed:   as {listed} in the expectations file, because {}",
                safe(&one_line(listed_reason(record)))
            );
        }
        stderr(out, &record.stderr);
    }
}

/// The first lines of a case's stderr, indented.
fn stderr(out: &mut String, text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "  stderr:");
    for line in lines.iter().take(STDERR_LINES) {
        let _ = writeln!(out, "    | {}", safe(line));
    }
    if let Some(more) = lines.len().checked_sub(STDERR_LINES).filter(|n| *n > 0) {
        let _ = writeln!(
            out,
            "    | ... ({})",
            plural(more, "more line", "more lines")
        );
    }
}

/// Unlisted skips, counted by reason.
fn skips(out: &mut String, report: &RunReport) {
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for record in with_status(report, Status::Skip) {
        let count = reasons.entry(reason(&record.outcome)).or_default();
        *count = count.saturating_add(1);
    }
    if reasons.is_empty() {
        return;
    }
    let total = reasons
        .values()
        .fold(0_usize, |sum, n| sum.saturating_add(*n));
    let _ = writeln!(out, "\nSkipped ({total}), by reason:");
    for (why, count) in reasons {
        let _ = writeln!(
            out,
            "  {}: {}",
            plural(count, "case", "cases"),
            safe(&one_line(why))
        );
    }
}
