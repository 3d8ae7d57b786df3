//! One cell of the results page: the state (symbol and word), the counts, and the
//! cases that did not pass, each with what it was given, expected and answered.

use std::fmt::Write as _;

use serde_json::Value;

use super::super::compare::{Cell, counts_text};
use super::super::escape::html as escape;
use super::super::record::CaseLine;
use super::super::{Status, listed_reason, one_line, plural, reason};

/// The most cases listed in one cell; the text report lists every one.
pub const MAX_LISTED: usize = 100;
/// The most characters of a JSON value shown (an encode case's array can be large).
pub const MAX_JSON_CHARS: usize = 1000;

/// Writes `cell` as a `<td>`.
pub fn render(out: &mut String, cell: &Cell<'_>) {
    let state = cell.state();
    let _ = write!(
        out,
        "<td class=\"{0}\" data-state=\"{0}\"><span class=\"state\">{1} {0}</span> \
         <span class=\"counts\">{2}</span>",
        state.word(),
        state.symbol(),
        escape(&counts_text(&cell.tally))
    );
    if !cell.not_passing.is_empty() {
        let count = cell.not_passing.len();
        let skipped = cell
            .not_passing
            .iter()
            .filter(|case| Status::of(case) == Status::Skip)
            .count();
        let failing = count.saturating_sub(skipped);
        let summary: Vec<String> = [
            (failing, "case not passing", "cases not passing"),
            (skipped, "case skipped", "cases skipped"),
        ]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| plural(n, one, many))
        .collect();
        let _ = write!(
            out,
            "<details><summary>{}</summary><ul>",
            summary.join(", ")
        );
        for case in cell.not_passing.iter().take(MAX_LISTED) {
            item(out, case);
        }
        if let Some(more) = count.checked_sub(MAX_LISTED).filter(|n| *n > 0) {
            let _ = write!(
                out,
                "<li>and {more} more: the text or Markdown report lists every case</li>"
            );
        }
        out.push_str("</ul></details>");
    }
    out.push_str("</td>");
}

fn item(out: &mut String, case: &CaseLine) {
    let status = match Status::of(case) {
        Status::KnownFailure => format!("known failure ({})", case.outcome),
        Status::UnexpectedPass => "unexpected pass".into(),
        _ => case.outcome.clone(),
    };
    let _ = write!(
        out,
        "<li><code class=\"case-id\">{}</code> <strong>{}</strong> ({})<br>{}<dl>",
        escape(&case.id),
        escape(&status),
        escape(&case.level),
        escape(&one_line(&case.description))
    );
    let given = Value::Object(case.given.clone());
    for (term, value) in [
        ("given", &given),
        ("expected", &case.expected),
        ("answered", &case.answer),
    ] {
        let _ = write!(
            out,
            "<dt>{term}</dt><dd><code>{}</code></dd>",
            escape(&shortened(&value.to_string()))
        );
    }
    let why = reason(case);
    if !why.is_empty() {
        let _ = write!(out, "<dt>why</dt><dd>{}</dd>", escape(&one_line(why)));
    }
    let listed = listed_reason(case);
    if !listed.is_empty() {
        let _ = write!(
            out,
            "<dt>listed</dt><dd>as {}: {}</dd>",
            escape(case.known_outcome.as_deref().unwrap_or_default()),
            escape(&one_line(listed))
        );
    }
    if let Some(url) = &case.known_issue {
        // Text, not a link: the page links to nothing. Its colon as a character
        // reference, so that no `https://` stands in the page's source either.
        let url = escape(url).replace(':', "&#58;");
        let _ = write!(out, "<dt>upstream issue</dt><dd>{url}</dd>");
    }
    out.push_str("</dl></li>");
}

/// `text`, cut to [`MAX_JSON_CHARS`] characters with a note of how much is left out.
fn shortened(text: &str) -> String {
    let total = text.chars().count();
    if total <= MAX_JSON_CHARS {
        return text.to_string();
    }
    let kept: String = text.chars().take(MAX_JSON_CHARS).collect();
    format!(
        "{kept}\u{2026} ({} more characters)",
        total.saturating_sub(MAX_JSON_CHARS)
    )
}
