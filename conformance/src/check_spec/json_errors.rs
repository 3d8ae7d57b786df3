//! Parsing a JSON example, with diagnostics placed in the markdown file and
//! repairs for the two slips that hide nothing else: one missing comma between
//! members, and a trailing comma. After a repair the example is parsed again, so
//! one run reports the slip and still checks what the example means.

use std::ops::Range;

use serde_json::{Value, json};

use super::finding::{Finding, Kind, Label, Severity, Suggestion};
use super::lines::LineIndex;
use super::markdown;
use super::spans::{token_at, unclosed};

/// How many slips are repaired in one example before giving up.
const MAX_REPAIRS: usize = 8;

/// An example after parsing: its value (when it parses, perhaps after repairs),
/// the text that parsed, and where each byte of that text came from.
#[derive(Debug, Clone)]
pub(crate) struct Parsed {
    pub(crate) value: Option<Value>,
    /// The (repaired) text handed to the parser.
    pub(crate) text: String,
    /// `origin[i]` is the document offset of `text`'s byte `i`; one past the end too.
    origin: Vec<usize>,
    pub(crate) findings: Vec<Finding>,
}

impl Parsed {
    /// The document range of a range of the parsed text.
    pub(crate) fn document_span(&self, span: Range<usize>) -> Range<usize> {
        let start = self.document_offset(span.start);
        let end = self.document_end(span.end).max(start);
        start..end
    }

    /// The document offset right after the parsed text's byte `offset - 1`: where
    /// a point between two bytes belongs when the document has bytes between them
    /// that the parser did not see (a `\r`, a container's prefix, a deleted comma).
    fn document_end(&self, offset: usize) -> usize {
        let after_previous = offset
            .checked_sub(1)
            .and_then(|previous| self.origin.get(previous))
            .map(|previous| previous.saturating_add(1));
        match after_previous {
            // Not past the next byte: an inserted comma shares its successor's origin.
            Some(after) => after.min(self.document_offset(offset)),
            None => self.document_offset(offset),
        }
    }

    fn document_offset(&self, offset: usize) -> usize {
        self.origin
            .get(offset)
            .or_else(|| self.origin.last())
            .copied()
            .unwrap_or_default()
    }
}

enum Repair {
    Insert(usize),
    Delete(usize),
}

/// Parses the example made of `pieces` of the indexed document (their text joined).
pub(crate) fn parse(lines: &LineIndex<'_>, pieces: &[Range<usize>]) -> Parsed {
    let markdown = lines.text();
    let start = pieces.first().map_or(0, |piece| piece.start);
    let mut origin: Vec<usize> = pieces.iter().flat_map(|piece| piece.clone()).collect();
    origin.push(pieces.last().map_or(start, |piece| piece.end));
    let mut parsed = Parsed {
        value: None,
        text: markdown::joined(markdown, pieces),
        origin,
        findings: Vec::new(),
    };
    if parsed.text.trim().is_empty() {
        parsed.findings.push(Finding {
            kind: Kind::JsonSyntax,
            severity: Severity::Warning,
            message: "an empty JSON example".into(),
            primary: Label::new(start..start, "nothing to check here"),
            related: Vec::new(),
            notes: Vec::new(),
            data: json!({"repaired": false}),
            suggestion: None,
        });
        return parsed;
    }
    for _ in 0..=MAX_REPAIRS {
        let error = match serde_json::from_str::<Value>(&parsed.text) {
            Ok(value) => {
                parsed.value = Some(value);
                return parsed;
            }
            Err(error) => error,
        };
        let at = offset_of(&parsed.text, error.line(), error.column());
        let message = error.to_string();
        let message = message
            .rfind(" at line ")
            .and_then(|cut| message.get(..cut))
            .unwrap_or(&message)
            .to_string();
        let (finding, repair) = diagnose(lines, &parsed, at, &message);
        parsed.findings.push(finding);
        match repair {
            Some(Repair::Insert(at)) if parsed.text.is_char_boundary(at) => {
                parsed.text.insert(at, ',');
                let from = parsed.document_end(at);
                parsed.origin.insert(at, from);
            }
            Some(Repair::Delete(at)) if parsed.text.is_char_boundary(at) => {
                parsed.text.remove(at);
                parsed.origin.remove(at);
            }
            _ => return parsed,
        }
    }
    parsed
}

/// The byte offset of serde_json's 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = text
        .match_indices('\n')
        .nth(line.saturating_sub(2))
        .filter(|_| line > 1)
        .map_or(0, |(at, _)| at.saturating_add(1));
    line_start
        .saturating_add(column.saturating_sub(1))
        .min(text.len())
}

fn diagnose(
    lines: &LineIndex<'_>,
    parsed: &Parsed,
    at: usize,
    message: &str,
) -> (Finding, Option<Repair>) {
    let text = parsed.text.as_str();
    let found = text.get(at..).and_then(|rest| rest.chars().next());
    let token = token_at(text, at);
    let mut finding = Finding {
        kind: Kind::JsonSyntax,
        severity: Severity::Error,
        message: format!("invalid JSON: {message}"),
        primary: Label::new(parsed.document_span(token.clone()), message),
        related: Vec::new(),
        notes: Vec::new(),
        data: json!({"parser": message, "repaired": false}),
        suggestion: None,
    };
    let found_text = text.get(token).unwrap_or_default();
    let point = |offset: usize| {
        let start = parsed.document_end(offset);
        start..start
    };
    let rest = text.get(at..).unwrap_or_default();
    if rest.starts_with("...") || rest.starts_with('…') {
        finding.severity = Severity::Warning;
        finding.message = "elided JSON: the example is not checked past this `...`".into();
        finding.primary.message = "not JSON: stands for what the example leaves out".into();
        return (finding, None);
    }
    if ["//", "/*", "#"]
        .iter()
        .any(|comment| rest.starts_with(comment))
    {
        finding.message = "JSON has no comments".into();
        finding.primary.message = "a comment in a JSON example".into();
        return (finding, None);
    }
    if let Some(closer) = expected_closer(message) {
        let members = if closer == '}' {
            "object members"
        } else {
            "array elements"
        };
        if found.is_some_and(starts_value) {
            let insert = text
                .get(..at)
                .map(|before| before.trim_end().len())
                .unwrap_or(at);
            let (line, column) = lines.line_column(parsed.document_end(insert));
            finding.message = format!("missing comma between {members}");
            finding.primary.message = format!("expected `,` or `{closer}` before `{found_text}`");
            finding
                .related
                .push(Label::new(point(insert), "a comma is missing here"));
            finding.notes.push(format!(
                "read as if a comma stood at {line}:{column}, and checked on"
            ));
            finding.data = json!({
                "parser": message, "repaired": true,
                "insert": {"line": line, "column": column, "text": ","},
            });
            finding.suggestion = Some(Suggestion::replace(
                "add the missing comma",
                point(insert),
                ",",
            ));
            return (finding, Some(Repair::Insert(insert)));
        }
        finding.message =
            format!("mismatched brackets: expected `,` or `{closer}`, found `{found_text}`");
        if let Some((open, offset)) = unclosed(text, at) {
            finding.related.push(Label::new(
                parsed.document_span(offset..offset.saturating_add(1)),
                format!("the `{open}` opened here is still open"),
            ));
        }
    } else if message.starts_with("trailing comma") {
        let comma = text
            .get(..at)
            .map(str::trim_end)
            .filter(|before| before.ends_with(','));
        if let Some(before) = comma {
            let comma = before.len().saturating_sub(1);
            let (line, column) = lines.line_column(parsed.document_offset(comma));
            finding.message = "trailing comma".into();
            finding.primary = Label::new(
                parsed.document_span(comma..comma.saturating_add(1)),
                format!("no value follows this comma before `{found_text}`"),
            );
            finding.notes.push(format!(
                "read as if the comma at {line}:{column} were not there, and checked on"
            ));
            finding.data = json!({
                "parser": message, "repaired": true,
                "delete": {"line": line, "column": column, "text": ","},
            });
            let span = finding.primary.span.clone();
            finding.suggestion = (lines.text().get(span.clone()) == Some(","))
                .then(|| Suggestion::replace("remove the trailing comma", span, ""));
            return (finding, Some(Repair::Delete(comma)));
        }
    } else if message.starts_with("EOF while parsing") {
        finding.message = "unbalanced brackets: the example ends inside a value".into();
        if let Some((open, offset)) = unclosed(text, text.len()) {
            finding.primary = Label::new(
                parsed.document_span(offset..offset.saturating_add(1)),
                format!("this `{open}` is never closed"),
            );
            finding.related.push(Label::new(
                point(text.trim_end().len()),
                "the example ends here",
            ));
        }
    } else if message.starts_with("trailing characters") {
        if matches!(found, Some('}' | ']')) {
            finding.message = format!("unbalanced brackets: this `{found_text}` closes nothing");
            finding.primary.message = "the value already ended before it".into();
        } else {
            finding.message = "text after the end of the JSON value".into();
        }
    }
    (finding, None)
}

/// `}` or `]` when the parser wanted a comma or that closer.
fn expected_closer(message: &str) -> Option<char> {
    if message.starts_with("expected `,` or `}`") {
        Some('}')
    } else if message.starts_with("expected `,` or `]`") {
        Some(']')
    } else {
        None
    }
}

fn starts_value(c: char) -> bool {
    matches!(c, '"' | '{' | '[' | '-' | 't' | 'f' | 'n') || c.is_ascii_digit()
}
