//! The results page: one self-contained HTML file (inline CSS, no script, no
//! external asset; a Content-Security-Policy forbids every fetch) with the
//! implementations as columns and the clauses as rows, grouped by spec section in
//! the registry's order. Each cell shows a symbol, a word and the counts (never
//! colour alone) and lists the cases that did not pass in a `<details>`, with
//! their inputs, expectation and answer. Every text is escaped with
//! [`escape::html`](super::escape::html): case ids, messages and stderr come from
//! adapters and are hostile.

mod cell;

use std::fmt::Write as _;

use crate::registry::Registry;

use super::compare::{self, Row, State};
use super::escape::html as escape;
use super::record::RunLog;
use super::{tested_nothing, verdict};

/// The section of the clauses that the registry does not list.
pub const UNLISTED_SECTION: &str = "Clauses not in the registry";

const STYLE: &str = include_str!("style.css");

/// The clause registry embedded in the vectors crate.
///
/// # Errors
/// When the embedded file is not a registry (a build of mismatched crates).
pub fn embedded_registry() -> Result<Registry, String> {
    serde_json::from_str(zarr_reshape_vectors::clauses_json())
        .map_err(|e| format!("the embedded clauses.json: {e}"))
}

/// The results page of `logs` (one column each, in the order given), the clauses
/// named and grouped by `registry`.
#[must_use]
pub fn render(logs: &[RunLog], registry: &Registry) -> String {
    let mut out = String::new();
    let spec = &registry.spec;
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>reshape codec conformance results</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <h1>Zarr <code>reshape</code> codec: conformance results</h1>\n\
         <p>Spec: {} at commit <code>{}</code>. {}.</p>\n",
        escape(&spec.name),
        escape(&spec.commit),
        suites(logs)
    );
    verdicts(&mut out, logs);
    out.push_str("<p class=\"legend\">Legend:");
    for state in [
        State::Pass,
        State::Fail,
        State::Differs,
        State::Known,
        State::Skip,
        State::Empty,
    ] {
        let _ = write!(
            out,
            " <span class=\"state {0}\">{1} {0}</span>",
            state.word(),
            state.symbol()
        );
    }
    out.push_str(
        "</p>\n<p>pass: every case that ran passed; fail: a case breaks the run (a MUST case \
         failed, a case errored or crashed, or passed although listed as a known failure); \
         differs: a SHOULD or interpretation case failed, which does not break the run; \
         known: the failures are listed and \
         explained in the implementation's expectations file; skip: the implementation \
         does not support the operation; none: no case of the run tests the clause.</p>\n",
    );
    table(&mut out, logs, registry);
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

fn suites(logs: &[RunLog]) -> String {
    let mut suites: Vec<String> = logs.iter().map(|log| log.header.suite()).collect();
    suites.sort_unstable();
    suites.dedup();
    format!(
        "{} run{}: {}",
        logs.len(),
        if logs.len() == 1 { "" } else { "s" },
        escape(&suites.join("; "))
    )
}

/// Each run's verdict, first on the page: a list item per column, its class the
/// verdict's kind (`passed`, `failed`, `interrupted`, `untested`).
fn verdicts(out: &mut String, logs: &[RunLog]) {
    out.push_str("<ul id=\"verdicts\">\n");
    for (log, title) in logs.iter().zip(compare::column_titles(logs)) {
        let verdict = verdict(log);
        let kind = if !log.succeeded() {
            if log.interrupted() {
                "interrupted"
            } else {
                "failed"
            }
        } else if tested_nothing(log) {
            "untested"
        } else {
            "passed"
        };
        let (passed, total) = super::badge::must_passed(log);
        let _ = writeln!(
            out,
            "<li class=\"verdict {kind}\"><strong>{}</strong>: {} ({passed} of {total} MUST cases passed)</li>",
            escape(&title),
            escape(&verdict)
        );
    }
    out.push_str("</ul>\n");
}

fn table(out: &mut String, logs: &[RunLog], registry: &Registry) {
    let _ = write!(
        out,
        "<table id=\"results\">\n<caption>Each implementation (column) against each clause \
         of the spec that has cases (row), grouped by spec section. A cell gives the \
         clause's state in that run and its counts; open it to see the cases that did not \
         pass.</caption>\n<thead>\n<tr><th scope=\"col\">Clause</th>"
    );
    for title in compare::column_titles(logs) {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(&title));
    }
    out.push_str("</tr>\n</thead>\n");
    let columns = logs.len().saturating_add(1);
    for (section, rows) in sections(compare::rows(logs), registry) {
        let _ = writeln!(
            out,
            "<tbody>\n<tr><th scope=\"rowgroup\" colspan=\"{columns}\">{}</th></tr>",
            escape(&section)
        );
        for row in rows {
            clause_row(out, &row, registry);
        }
        out.push_str("</tbody>\n");
    }
    out.push_str("<tfoot>\n<tr><th scope=\"row\">MUST cases passed</th>");
    for log in logs {
        let (passed, total) = super::badge::must_passed(log);
        let _ = write!(out, "<td>{passed} of {total}</td>");
    }
    out.push_str("</tr>\n<tr><th scope=\"row\">Verdict</th>");
    for log in logs {
        let _ = write!(out, "<td>{}</td>", escape(&verdict(log)));
    }
    out.push_str("</tr>\n</tfoot>\n</table>\n");
}

/// The rows grouped by section, sections and clauses in registry order; clauses
/// the registry does not list last, alphabetically.
fn sections<'a>(rows: Vec<Row<'a>>, registry: &Registry) -> Vec<(String, Vec<Row<'a>>)> {
    let mut groups: Vec<(String, Vec<Row<'a>>)> = Vec::new();
    let mut unlisted = Vec::new();
    let mut placed: Vec<(usize, Row<'a>)> = Vec::new();
    for row in rows {
        match registry.clauses.iter().position(|c| c.id == row.clause) {
            Some(position) => placed.push((position, row)),
            None => unlisted.push(row),
        }
    }
    placed.sort_by_key(|(position, _)| *position);
    for (position, row) in placed {
        let section = registry
            .clauses
            .get(position)
            .map_or(UNLISTED_SECTION, |clause| clause.section.as_str());
        match groups.iter_mut().find(|(name, _)| name == section) {
            Some((_, group)) => group.push(row),
            None => groups.push((section.to_string(), vec![row])),
        }
    }
    if !unlisted.is_empty() {
        groups.push((UNLISTED_SECTION.to_string(), unlisted));
    }
    groups
}

fn clause_row(out: &mut String, row: &Row<'_>, registry: &Registry) {
    let clause = registry.clause(row.clause);
    let _ = write!(
        out,
        "<tr data-clause=\"{0}\"><th scope=\"row\"><code>{0}</code>",
        escape(row.clause)
    );
    if let Some(clause) = clause {
        let _ = write!(
            out,
            " <span class=\"level\">{}</span>",
            escape(&clause.level)
        );
        match &clause.text {
            Some(text) => {
                let _ = write!(
                    out,
                    "<p class=\"sentence\">The spec: \u{201c}{}\u{201d}</p>",
                    escape(text)
                );
            }
            None => {
                let _ = write!(
                    out,
                    "<p class=\"sentence\">In our words: {}</p>",
                    escape(&clause.paraphrase)
                );
            }
        }
    }
    out.push_str("</th>");
    for cell in &row.cells {
        cell::render(out, cell);
    }
    out.push_str("</tr>\n");
}
