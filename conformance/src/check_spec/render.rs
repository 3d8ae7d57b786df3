//! Printing a [`Report`]: diagnostics in the style of rustc for people, and a JSON
//! document for tools (its layout is described in `conformance/CHECK-SPEC.md`).

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde_json::{Value, json};

use super::{Finding, Label, Report, Severity, line_column};

/// The report as diagnostics, one per finding, then a summary line.
/// `styled` adds terminal colours.
#[must_use]
pub fn human(report: &Report, text: &str, path: &str, styled: bool) -> String {
    let renderer = if styled {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for finding in &report.findings {
        let level = match finding.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
            Severity::Note => Level::NOTE,
        };
        let snippet = Snippet::source(text)
            .line_start(1)
            .path(path)
            .annotation(
                AnnotationKind::Primary
                    .span(finding.primary.span.clone())
                    .label(finding.primary.message.as_str()),
            )
            .annotations(finding.related.iter().map(|label| {
                AnnotationKind::Context
                    .span(label.span.clone())
                    .label(label.message.as_str())
            }));
        let group: Group<'_> = level
            .primary_title(finding.message.as_str())
            .id(finding.kind.as_str())
            .element(snippet)
            .elements(
                finding
                    .notes
                    .iter()
                    .map(|note| Level::NOTE.message(note.as_str())),
            );
        out.push_str(&renderer.render(&[group]));
        out.push_str("\n\n");
    }
    out.push_str(&summary(report, path));
    out.push('\n');
    out
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
        "findings": report.findings.iter().map(|finding| finding_json(finding, text)).collect::<Vec<_>>(),
    })
}

fn finding_json(finding: &Finding, text: &str) -> Value {
    let (end_line, end_column) = line_column(text, finding.primary.span.end);
    let mut value = label_json(&finding.primary, text);
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
            .map(|label| label_json(label, text))
            .collect();
        object.insert("related".into(), json!(related));
        object.insert("notes".into(), json!(finding.notes));
        object.insert("data".into(), finding.data.clone());
    }
    value
}

fn label_json(label: &Label, text: &str) -> Value {
    let (line, column) = line_column(text, label.span.start);
    json!({"line": line, "column": column, "message": label.message})
}
