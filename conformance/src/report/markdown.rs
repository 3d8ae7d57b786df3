//! A Markdown summary per clause (GitHub-flavoured), for CONFORMANCE.md and
//! `$GITHUB_STEP_SUMMARY`. No clock values, so the same run renders the same text.

use std::fmt::Write as _;

use crate::run::{CaseRecord, RunReport};

use super::escape::{markdown as escape, markdown_code as code};
use super::{
    Status, Tally, by_clause, listed_otherwise, listed_reason, one_line, plural, protocol_note,
    reason, verdict,
};

/// The Markdown summary of a run: a heading naming the implementation, the
/// totals and verdict, a table per clause, and a collapsed list of the cases that
/// did not pass (and of unexpected passes), each with a one-line reason.
#[must_use]
pub fn render(report: &RunReport) -> String {
    let mut out = String::new();
    let info = &report.implementation;
    let tally = Tally::of(&report.records);
    let _ = writeln!(
        out,
        "## `reshape` conformance: {} {} ({})\n",
        escape(&info.name),
        escape(&info.version),
        escape(&info.language)
    );
    let _ = writeln!(
        out,
        "Suite version {}, {}: {} pass, {} fail, {} error, {} crash, {} skip, {}.\n",
        report.suite_version,
        plural(tally.total(), "case", "cases"),
        tally.pass,
        tally.fail,
        tally.error,
        tally.crash,
        tally.skip,
        plural(tally.known_failure, "known failure", "known failures"),
    );
    let _ = writeln!(out, "**{}**\n", escape(&verdict(report)));
    if let Some(note) = protocol_note(report) {
        let _ = writeln!(out, "{}\n", escape(&note));
    }

    let _ = writeln!(
        out,
        "| clause | level | pass | fail | error | crash | skip | known failures |"
    );
    let _ = writeln!(out, "|---|---|--:|--:|--:|--:|--:|--:|");
    for row in by_clause(&report.records) {
        let t = &row.tally;
        let levels: Vec<String> = row.levels.iter().map(|level| escape(level)).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            code(row.clause, true),
            levels.join(", "),
            t.pass,
            t.fail,
            t.error,
            t.crash,
            t.skip,
            t.known_failure
        );
    }
    let _ = writeln!(
        out,
        "| **total** | | {} | {} | {} | {} | {} | {} |",
        tally.pass, tally.fail, tally.error, tally.crash, tally.skip, tally.known_failure
    );

    let listed: Vec<&CaseRecord> = report
        .records
        .iter()
        .filter(|r| !matches!(Status::of(r), Status::Pass | Status::Skip))
        .collect();
    if !listed.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>Cases that did not pass, and unexpected passes ({})</summary>\n",
            listed.len()
        );
        for record in listed {
            let _ = writeln!(out, "- {}", item(record));
        }
        let _ = writeln!(out, "\n</details>");
    }
    if !report.stale_expectations.is_empty() {
        let ids: Vec<String> = report
            .stale_expectations
            .iter()
            .map(|id| code(id, false))
            .collect();
        let _ = writeln!(
            out,
            "\nStale expectations (listed, but no case of the suite has the id): {}",
            ids.join(", ")
        );
    }
    out
}

/// One line of the collapsed list.
fn item(record: &CaseRecord) -> String {
    let case = &record.case;
    let listed = listed_reason(record);
    let what = match Status::of(record) {
        Status::KnownFailure => format!(
            "known failure ({}): {}",
            record.outcome.name(),
            escape(&one_line(listed))
        ),
        Status::UnexpectedPass => format!(
            "**unexpected pass**: listed because {}",
            escape(&one_line(listed))
        ),
        _ => {
            let name = record.outcome.name();
            let name = if record.breaks_run() {
                format!("**{name}**")
            } else {
                name.to_string()
            };
            let mut text = format!("{name}: {}", escape(&one_line(reason(&record.outcome))));
            if let Some(outcome) = listed_otherwise(record) {
                let _ = write!(
                    text,
                    " (listed as {outcome}: {})",
                    escape(&one_line(listed))
                );
            }
            text
        }
    };
    format!(
        "{} ({}): {what}",
        code(&case.id, false),
        escape(&case.level)
    )
}
