//! Printing a [`Report`]: diagnostics in the style of rustc for people, and a JSON
//! document for tools (its layout is described in `conformance/CHECK-SPEC.md`).

use annotate_snippets::{AnnotationKind, Group, Level, Patch, Renderer, Snippet};
use serde_json::{Value, json};

use super::finding::{Finding, Label, Report, Severity, Suggestion};
use super::lines::LineIndex;

/// The most lines between a finding's first and last label that one snippet
/// shows; a related label farther away is given as a note with its line and column.
pub const MAX_SNIPPET_LINES: usize = 40;
/// The most bytes one snippet shows; a finding whose lines are longer is shown
/// without its source text, with its line and column in a note (a long line
/// would otherwise be laid out again for every finding on it).
pub const MAX_SNIPPET_BYTES: usize = 8 << 10;

/// The report as diagnostics, one per finding, then a summary line.
/// `styled` adds terminal colours.
#[must_use]
pub fn human(report: &Report, text: &str, path: &str, styled: bool) -> String {
    let renderer = if styled {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let lines = LineIndex::new(text);
    let mut out = String::new();
    for finding in &report.findings {
        let level = match finding.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
            Severity::Note => Level::NOTE,
        };
        let shown = window(&lines, finding);
        let mut notes: Vec<String> = shown
            .far
            .iter()
            .map(|label| {
                let (line, column) = lines.line_column(label.span.start);
                format!("{path}:{line}:{column}: {}", label.message)
            })
            .collect();
        let snippet = shown.source.map(|(first_line, range)| {
            let shift = |span: &std::ops::Range<usize>| {
                let start = span.start.clamp(range.start, range.end);
                let end = span.end.clamp(start, range.end);
                start.saturating_sub(range.start)..end.saturating_sub(range.start)
            };
            Snippet::source(text.get(range.clone()).unwrap_or_default())
                .line_start(first_line)
                .path(path)
                .annotation(
                    AnnotationKind::Primary
                        .span(shift(&finding.primary.span))
                        .label(finding.primary.message.as_str()),
                )
                .annotations(shown.near.iter().map(move |label| {
                    AnnotationKind::Context
                        .span(shift(&label.span))
                        .label(label.message.as_str())
                }))
        });
        if snippet.is_none() {
            let (line, column) = lines.line_column(finding.primary.span.start);
            notes.insert(
                0,
                format!(
                    "at {path}:{line}:{column}: {} (the line is too long to show)",
                    finding.primary.message
                ),
            );
        }
        notes.extend(finding.notes.iter().cloned());
        let help = finding
            .suggestion
            .as_ref()
            .map(|suggestion| (suggestion, patch(&lines, text, path, suggestion)));
        let inline_help = help
            .as_ref()
            .filter(|(_, patch)| patch.is_none())
            .map(|(suggestion, _)| Level::HELP.message(suggestion.message.as_str()));
        let group: Group<'_> = level
            .primary_title(finding.message.as_str())
            .id(finding.kind.as_str())
            .elements(snippet)
            .elements(notes.iter().map(|note| Level::NOTE.message(note.as_str())))
            .elements(inline_help);
        let mut groups = vec![group];
        if let Some((suggestion, Some(patch))) = help {
            groups.push(
                Level::HELP
                    .secondary_title(suggestion.message.as_str())
                    .element(patch),
            );
        }
        out.push_str(&renderer.render(&groups));
        out.push_str("\n\n");
    }
    out.push_str(&summary(report, path));
    out.push('\n');
    out
}

/// The lines a suggestion changes, with its edits as a rustc-style patch; `None`
/// when an edit is not sound for `text` or the lines are too long to show.
fn patch<'t>(
    lines: &LineIndex<'_>,
    text: &'t str,
    path: &'t str,
    suggestion: &'t Suggestion,
) -> Option<Snippet<'t, Patch<'t>>> {
    let first = lines.line_column(suggestion.edits.first()?.span.start).0;
    let last = lines.line_column(suggestion.edits.last()?.span.end).0;
    let range = lines.line_range(first).start..lines.line_range(last).end;
    let fits = range.end.saturating_sub(range.start) <= MAX_SNIPPET_BYTES;
    let source = text.get(range.clone()).filter(|_| fits)?;
    let mut patches = Vec::new();
    for edit in &suggestion.edits {
        let start = edit.span.start.checked_sub(range.start)?;
        let end = edit.span.end.checked_sub(range.start)?;
        source.get(start..end)?;
        patches.push(Patch::new(start..end, edit.replacement.as_str()));
    }
    Some(
        Snippet::source(source)
            .line_start(first)
            .path(path)
            .patches(patches),
    )
}

/// What one finding's snippet shows.
struct Window<'f> {
    /// The first line's number and the byte range of the lines shown, or `None`
    /// when they are longer than [`MAX_SNIPPET_BYTES`].
    source: Option<(usize, std::ops::Range<usize>)>,
    /// Related labels shown in the snippet.
    near: Vec<&'f Label>,
    /// Related labels too far from the primary one, given as notes.
    far: Vec<&'f Label>,
}

/// The lines around a finding's labels: only these are handed to the renderer,
/// so that each finding costs what it shows, not the document's size.
fn window<'f>(lines: &LineIndex<'_>, finding: &'f Finding) -> Window<'f> {
    let line_of = |offset: usize| lines.line_column(offset).0;
    let mut first = line_of(finding.primary.span.start);
    let mut last = line_of(finding.primary.span.end).max(first);
    let (near, far): (Vec<&Label>, Vec<&Label>) = finding.related.iter().partition(|label| {
        let (start, end) = (line_of(label.span.start), line_of(label.span.end));
        start.saturating_add(MAX_SNIPPET_LINES) >= last
            && end <= first.saturating_add(MAX_SNIPPET_LINES)
    });
    for label in &near {
        first = first.min(line_of(label.span.start));
        last = last.max(line_of(label.span.end));
    }
    let range = lines.line_range(first).start..lines.line_range(last).end;
    let fits = range.end.saturating_sub(range.start) <= MAX_SNIPPET_BYTES;
    Window {
        source: fits.then_some((first, range)),
        near,
        far,
    }
}

/// `check-spec: FILE: 1 error, 2 warnings, 3 notes (1 JSON example, 4 fragments)`.
#[must_use]
pub fn summary(report: &Report, path: &str) -> String {
    let count = |n: usize, what: &str| {
        if n == 1 {
            format!("1 {what}")
        } else {
            format!("{n} {what}s")
        }
    };
    format!(
        "check-spec: {path}: {}, {}, {} ({}, {})",
        count(report.count(Severity::Error), "error"),
        count(report.count(Severity::Warning), "warning"),
        count(report.count(Severity::Note), "note"),
        count(report.blocks, "JSON example"),
        count(report.fragments, "fragment"),
    )
}

/// The report as one JSON document.
#[must_use]
pub fn json(report: &Report, text: &str, path: &str) -> Value {
    let lines = LineIndex::new(text);
    json!({
        "file": path,
        "ok": report.is_ok(),
        "summary": {
            "errors": report.count(Severity::Error),
            "warnings": report.count(Severity::Warning),
            "notes": report.count(Severity::Note),
            "json_examples": report.blocks,
            "fragments": report.fragments,
        },
        "findings": report.findings.iter().map(|finding| finding_json(finding, &lines)).collect::<Vec<_>>(),
    })
}

fn finding_json(finding: &Finding, lines: &LineIndex<'_>) -> Value {
    let (end_line, end_column) = lines.line_column(finding.primary.span.end);
    let mut value = label_json(&finding.primary, lines);
    if let Some(object) = value.as_object_mut() {
        object.insert("id".into(), json!(finding.kind.as_str()));
        object.insert("severity".into(), json!(finding.severity.as_str()));
        object.insert("message".into(), json!(finding.message));
        object.insert("end_line".into(), json!(end_line));
        object.insert("end_column".into(), json!(end_column));
        object.insert("label".into(), json!(finding.primary.message));
        let related: Vec<Value> = finding
            .related
            .iter()
            .map(|label| label_json(label, lines))
            .collect();
        object.insert("related".into(), json!(related));
        object.insert("notes".into(), json!(finding.notes));
        object.insert("data".into(), finding.data.clone());
        let suggestion = finding.suggestion.as_ref().map(|suggestion| {
            let edits: Vec<Value> = suggestion
                .edits
                .iter()
                .map(|edit| {
                    let (line, column) = lines.line_column(edit.span.start);
                    let (end_line, end_column) = lines.line_column(edit.span.end);
                    json!({"line": line, "column": column, "end_line": end_line,
                           "end_column": end_column, "replacement": edit.replacement})
                })
                .collect();
            json!({"message": suggestion.message, "edits": edits})
        });
        object.insert("suggestion".into(), json!(suggestion));
    }
    value
}

fn label_json(label: &Label, lines: &LineIndex<'_>) -> Value {
    let (line, column) = lines.line_column(label.span.start);
    json!({"line": line, "column": column, "message": label.message})
}
