//! A Markdown summary per clause (GitHub-flavoured), for CONFORMANCE.md and
//! `$GITHUB_STEP_SUMMARY`. No clock values, so the same run renders the same text.

use std::fmt::Write as _;

use crate::run::RunReport;

use super::escape::{markdown as escape, markdown_code as code};
use super::record::{CaseLine, RunLog};
use super::{
    Status, Tally, by_clause, by_level, listed_otherwise, listed_with_issue, one_line, plural,
    protocol_note, reason, verdict,
};

/// The Markdown summary of a finished run, rendered from its records.
#[must_use]
pub fn render(report: &RunReport) -> String {
    render_log(&RunLog::of(report))
}

/// The Markdown summary of a run: a heading naming the implementation, the
/// totals and verdict, a table per clause and one per level, and a collapsed list
/// of the cases that did not pass (and of unexpected passes), each with a one-line
/// reason.
#[must_use]
pub fn render_log(report: &RunLog) -> String {
    let mut out = String::new();
    let info = &report.header.implementation;
    let tally = Tally::of(&report.cases);
    let _ = writeln!(
        out,
        "## `reshape` conformance: {} {} ({})\n",
        escape(&info.name),
        escape(&info.version),
        escape(&info.language)
    );
    let _ = writeln!(
        out,
        "{}, {}: {} pass, {} fail, {} error, {} crash, {} skip, {}.\n",
        escape(&capitalized(&report.header.suite())),
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
    for row in by_clause(&report.cases) {
        let t = &row.tally;
        let levels: Vec<String> = row.levels.iter().map(|level| escape(level)).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            code(row.clause, true),
            levels.join(", "),
            outcome_cells(t)
        );
    }
    let _ = writeln!(out, "| **total** | | {} |", outcome_cells(&tally));
    let levels = by_level(&report.cases);
    if !levels.is_empty() {
        let _ = writeln!(
            out,
            "\n| level | cases | pass | fail | error | crash | skip | known failures |"
        );
        let _ = writeln!(out, "|---|--:|--:|--:|--:|--:|--:|--:|");
    }
    for (level, t) in levels {
        let _ = writeln!(out, "| {level} | {} | {} |", t.total(), outcome_cells(&t));
    }

    let listed: Vec<&CaseLine> = report
        .cases
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
    let stale = report.stale_expectations();
    if !stale.is_empty() {
        let ids: Vec<String> = stale.iter().map(|id| code(id, false)).collect();
        let _ = writeln!(
            out,
            "\nStale expectations (listed, but no case of the suite has the id): {}",
            ids.join(", ")
        );
    }
    out
}

/// One line of the collapsed list.
fn item(record: &CaseLine) -> String {
    let case = record;
    let listed = listed_with_issue(record);
    let what = match Status::of(record) {
        Status::KnownFailure => format!(
            "known failure ({}): {}",
            escape(&record.outcome),
            escape(&one_line(&listed))
        ),
        Status::UnexpectedPass => format!(
            "**unexpected pass**: listed because {}",
            escape(&one_line(&listed))
        ),
        _ => {
            let name = escape(&record.outcome);
            let name = if record.breaks_run {
                format!("**{name}**")
            } else {
                name
            };
            let mut text = format!("{name}: {}", escape(&one_line(reason(record))));
            if let Some(outcome) = listed_otherwise(record) {
                let _ = write!(
                    text,
                    " (listed as {}: {})",
                    escape(outcome),
                    escape(&one_line(&listed))
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

/// The Markdown report of several runs: a table of clauses (rows) by
/// implementation (columns), each cell a symbol, a word and the counts, then each
/// run's own summary. One run gives [`render_log`] alone.
#[must_use]
pub fn render_all(logs: &[RunLog]) -> String {
    if let [log] = logs {
        return render_log(log);
    }
    let mut out = String::from("## `reshape` conformance, side by side\n\n");
    let _ = write!(out, "| clause |");
    for title in super::compare::column_titles(logs) {
        let _ = write!(out, " {} |", escape(&title));
    }
    let _ = write!(out, "\n|---|");
    out.push_str(&"---|".repeat(logs.len()));
    out.push('\n');
    for row in super::compare::rows(logs) {
        let _ = write!(out, "| {} |", code(row.clause, true));
        for cell in &row.cells {
            let state = cell.state();
            let _ = write!(
                out,
                " {} {}: {} |",
                state.symbol(),
                state.word(),
                super::compare::counts_text(&cell.tally)
            );
        }
        out.push('\n');
    }
    let _ = write!(out, "| **verdict** |");
    for log in logs {
        let _ = write!(out, " {} |", escape(&verdict(log)));
    }
    out.push('\n');
    for log in logs {
        out.push('\n');
        out.push_str(&render_log(log));
    }
    out
}

/// The six outcome columns of the clause, total and level rows: pass, fail, error,
/// crash, skip, known failures.
fn outcome_cells(t: &Tally) -> String {
    format!(
        "{} | {} | {} | {} | {} | {}",
        t.pass, t.fail, t.error, t.crash, t.skip, t.known_failure
    )
}

/// `text` with its first letter in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
