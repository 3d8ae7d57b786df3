//! Printing a [`Report`]: diagnostics in the style of rustc for people, and a JSON
//! document for tools (its layout is described in `conformance/CHECK-SPEC.md`).

use annotate_snippets::{AnnotationKind, Group, Level, Patch, Renderer, Snippet};
use serde::ser::{Serialize, SerializeMap as _, Serializer};
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
    let shown = shown_name(path);
    let path = shown.as_str();
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
        "check-spec: {}: {}, {}, {} ({}, {})",
        shown_name(path),
        count(report.count(Severity::Error), "error"),
        count(report.count(Severity::Warning), "warning"),
        count(report.count(Severity::Note), "note"),
        count(report.blocks, "JSON example"),
        count(report.fragments, "fragment"),
    )
}

/// The report as one JSON document, as pretty-printed text: the same document as
/// [`json()`], written finding by finding, so that no tree of the whole document is
/// held beside the report. Format and bidirectional controls in any string are
/// written as `\uXXXX` escapes (serde_json escapes the control characters), so
/// no raw control character of a file name or of the document reaches the output.
#[must_use]
pub fn json_text(report: &Report, text: &str, path: &str) -> String {
    let document = JsonDocument {
        report,
        lines: LineIndex::new(text),
        path,
    };
    let written = serde_json::to_string_pretty(&document).unwrap_or_default();
    // Every string of the output comes from the document, the file name or this
    // program: only the first two can hold a format control.
    if text.contains(is_format_control) || path.contains(is_format_control) {
        escape_format_controls(&written)
    } else {
        written
    }
}

/// A document for [`json_text`]: its members in the order [`json`] gives them.
struct JsonDocument<'r> {
    report: &'r Report,
    lines: LineIndex<'r>,
    path: &'r str,
}

/// The findings of a [`JsonDocument`], each turned into JSON only when written.
struct JsonFindings<'d, 'r>(&'d JsonDocument<'r>);

impl Serialize for JsonDocument<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.report;
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("file", self.path)?;
        map.serialize_entry("findings", &JsonFindings(self))?;
        map.serialize_entry("ok", &report.is_ok())?;
        map.serialize_entry(
            "summary",
            &json!({
                "errors": report.count(Severity::Error),
                "warnings": report.count(Severity::Warning),
                "notes": report.count(Severity::Note),
                "json_examples": report.blocks,
                "fragments": report.fragments,
            }),
        )?;
        map.end()
    }
}

impl Serialize for JsonFindings<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let document = self.0;
        serializer.collect_seq(
            document
                .report
                .findings
                .iter()
                .map(|finding| finding_json(finding, &document.lines)),
        )
    }
}

/// Unicode format controls that reorder or hide text (bidirectional embeddings,
/// overrides and isolates, marks, zero-width characters, the BOM).
#[must_use]
pub fn is_format_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// JSON text with each format control written as a `\uXXXX` escape (they occur
/// only inside strings, where the escape means the same character).
fn escape_format_controls(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if is_format_control(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A file name as shown to people (the human format, the summary line, messages):
/// each control character (line breaks, escape, ...) and each format control
/// written as `\u{..}`, so that a name cannot end a line, start a workflow
/// command, colour a terminal or reorder what follows it.
#[must_use]
pub fn shown_name(path: &str) -> String {
    if !path.contains(|c: char| c.is_control() || is_format_control(c)) {
        return path.to_string();
    }
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if c.is_control() || is_format_control(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
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
