//! The summary printed at the end of a run: plain text, no colours, and no clock
//! values, so that the same run always prints the same text. Whatever came from a
//! vector or an adapter is printed through [`safe`](super::escape::terminal), so
//! that no escape sequence reaches the terminal.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::run::RunReport;

use super::escape::terminal as safe;
use super::record::{CaseLine, RunLog};
use super::{
    Status, Tally, answer_is_fault, by_clause, by_level, compact, listed_otherwise,
    listed_with_issue, one_line, plural, protocol_note, reason, verdict,
};

/// The most lines of a case's stderr shown in the summary.
const STDERR_LINES: usize = 10;

/// In the summary printed at the end of a run, failures that more than this many
/// cases share (outcome and reason) are one line with their count, not each case.
pub const MAX_SAME_REASON: usize = 3;

/// The terminal summary of a finished run, rendered from its records.
#[must_use]
pub fn summary(report: &RunReport) -> String {
    render(&RunLog::of(report))
}

/// The terminal summaries of several runs, one after the other.
#[must_use]
pub fn render_all(logs: &[RunLog]) -> String {
    logs.iter().map(render).collect::<Vec<_>>().join("\n")
}

/// The terminal summary of a run: who was tested, a per-clause and a per-level
/// table, every failure, error and crash with its expectation and answer, the
/// known failures, unexpected passes and stale expectations, and a final verdict
/// line.
#[must_use]
pub fn render(report: &RunLog) -> String {
    render_with(report, false)
}

/// [`render`], for the terminal at the end of a run: failures that more than
/// [`MAX_SAME_REASON`] cases share (outcome and reason, as when an adapter's restart
/// budget is spent) are one line with their count; the report files list each case.
#[must_use]
pub fn render_terminal(report: &RunLog) -> String {
    render_with(report, true)
}

fn render_with(report: &RunLog, grouped: bool) -> String {
    let mut out = String::new();
    let info = &report.header.implementation;
    let tally = Tally::of(&report.cases);
    let _ = writeln!(
        out,
        "{} {} ({}), {}: {}",
        safe(&info.name),
        safe(&info.version),
        safe(&info.language),
        safe(&report.header.suite()),
        plural(tally.total(), "case", "cases")
    );
    if report.footer.is_none() {
        let _ = writeln!(
            out,
            "The report has no footer: the run was cut short (a crash or a kill); only the cases run are counted."
        );
    } else if report.interrupted() {
        let _ = writeln!(
            out,
            "The run was interrupted: only the cases run are counted."
        );
    }
    if let Some(note) = protocol_note(report) {
        let _ = writeln!(out, "{note}");
    }
    out.push('\n');
    let clauses: Vec<(String, Tally)> = by_clause(&report.cases)
        .into_iter()
        .map(|row| (safe(row.clause), row.tally))
        .collect();
    table(&mut out, "clause", &clauses, Some(&tally));
    let levels: Vec<(String, Tally)> = by_level(&report.cases)
        .into_iter()
        .map(|(level, tally)| (level.to_string(), tally))
        .collect();
    if !levels.is_empty() {
        out.push('\n');
        table(&mut out, "level", &levels, None);
    }

    let broken: Vec<&CaseLine> = failures(report).filter(|r| r.breaks_run).collect();
    let other: Vec<&CaseLine> = failures(report).filter(|r| !r.breaks_run).collect();
    section(
        &mut out,
        "Failures, errors and crashes that break the run",
        &broken,
        grouped,
    );
    section(
        &mut out,
        "Failures that do not break the run (level should or interpretation)",
        &other,
        grouped,
    );
    skips(&mut out, report);

    let known: Vec<&CaseLine> = with_status(report, Status::KnownFailure).collect();
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
                safe(&record.id),
                safe(&record.outcome),
                safe(&listed_with_issue(record))
            );
        }
    }
    let unexpected: Vec<&CaseLine> = with_status(report, Status::UnexpectedPass).collect();
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
                safe(&record.id),
                safe(&listed_with_issue(record))
            );
        }
    }
    let stale = report.stale_expectations();
    if !stale.is_empty() {
        let _ = writeln!(
            out,
            "\nStale expectations ({}): listed ids that no case of the suite has:",
            stale.len()
        );
        for id in stale {
            let _ = writeln!(out, "  {}", safe(id));
        }
    }
    let _ = writeln!(out, "\n{}", verdict(report));
    out
}

/// The failures, errors and crashes that are not excused, in run order.
fn failures(report: &RunLog) -> impl Iterator<Item = &CaseLine> {
    report
        .cases
        .iter()
        .filter(|r| matches!(Status::of(r), Status::Fail | Status::Error | Status::Crash))
}

fn with_status(report: &RunLog, status: Status) -> impl Iterator<Item = &CaseLine> {
    report.cases.iter().filter(move |r| Status::of(r) == status)
}

/// A table of counts, one row per name, with a total line when given.
fn table(out: &mut String, title: &str, rows: &[(String, Tally)], total: Option<&Tally>) {
    let width = rows
        .iter()
        .map(|(name, _)| name.chars().count())
        .chain([title.len(), "total".len()])
        .max()
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{title:<width$}  pass  fail  error  crash  skip  known"
    );
    let line = |out: &mut String, name: &str, t: &Tally| {
        let _ = writeln!(
            out,
            "{name:<width$}  {:>4}  {:>4}  {:>5}  {:>5}  {:>4}  {:>5}",
            t.pass, t.fail, t.error, t.crash, t.skip, t.known_failure
        );
    };
    for (name, tally) in rows {
        line(out, name, tally);
    }
    if let Some(total) = total {
        line(out, "total", total);
    }
}

/// A titled list of failures, each with its expectation, answer and reason.
fn section(out: &mut String, title: &str, records: &[&CaseLine], grouped: bool) {
    if records.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title} ({}):", records.len());
    let mut shared: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    if grouped {
        for record in records {
            let count = shared.entry((&record.outcome, reason(record))).or_default();
            *count = count.saturating_add(1);
        }
        shared.retain(|_, count| *count > MAX_SAME_REASON);
    }
    for record in records {
        if shared.contains_key(&(record.outcome.as_str(), reason(record))) {
            continue;
        }
        let case = *record;
        let _ = writeln!(
            out,
            "\n{} {} [{}]",
            safe(&record.outcome.to_uppercase()),
            safe(&case.id),
            safe(&case.level)
        );
        let _ = writeln!(out, "  {}", safe(&one_line(&case.description)));
        let _ = writeln!(out, "  expected: {}", safe(&compact(&case.expected)));
        let _ = writeln!(out, "  answered: {}", safe(&compact(&case.answer)));
        if !answer_is_fault(case) {
            // A fault's or a crash's reason is its message, already in the answer.
            let _ = writeln!(out, "  why:      {}", safe(&one_line(reason(record))));
        }
        if let Some(listed) = listed_otherwise(record) {
            let _ = writeln!(
                out,
                "  listed:   as {} in the expectations file, because {}",
                safe(listed),
                safe(&one_line(&listed_with_issue(record)))
            );
        }
        stderr(out, &record.stderr);
    }
    if !shared.is_empty() {
        let _ = writeln!(
            out,
            "\nBy reason, where more than {MAX_SAME_REASON} cases share one (each case is in the report files, --report):"
        );
        for ((outcome, why), count) in shared {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                plural(count, "case", "cases"),
                safe(&outcome.to_uppercase()),
                safe(&one_line(why))
            );
        }
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
fn skips(out: &mut String, report: &RunLog) {
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for record in with_status(report, Status::Skip) {
        let count = reasons.entry(reason(record)).or_default();
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
