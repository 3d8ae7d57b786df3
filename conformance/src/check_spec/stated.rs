//! Encoded shapes the prose states for an example ("the encoded shape is
//! `[6, 4]`", "encodes each chunk as [6, 4]"), in the paragraph that introduces it
//! or the one right after it, against the shapes the example's codecs give. A
//! heuristic on English words, like `prose` and `intro`: a phrase it misses is
//! not checked, never reported.

use std::ops::Range;

use serde_json::{Value, json};

use super::document::{Block, Document, LineKind};
use super::finding::{Finding, Kind, Label, Severity, Suggestion, shape_text};
use super::prose::{MAX_CONTEXT_BYTES, MAX_LEAD_IN_LINES};
use super::text::{is_prose, line_range, paragraph_start};

/// Findings on the shapes the prose around `block` states, given the example's
/// findings (its `encoded-shape` notes of the top-level chain are the truth).
/// `next` is the example after it: a paragraph between two examples introduces
/// the next one, and is read for it only.
pub(crate) fn check(
    text: &str,
    document: &Document,
    block: &Block,
    next: Option<&Block>,
    content: &[Finding],
) -> Vec<Finding> {
    let encoded: Vec<&Finding> = content
        .iter()
        .filter(|finding| {
            finding.kind == Kind::EncodedShape
                && finding
                    .data
                    .get("path")
                    .and_then(Value::as_str)
                    .is_some_and(|path| !path.contains('.'))
        })
        .collect();
    let shapes: Vec<Vec<u64>> = encoded
        .iter()
        .filter_map(|finding| finding.data.get("encoded_shape").and_then(extents))
        .collect();
    let (Some(last), Some(chunk), Some(shape)) = (
        encoded.last(),
        encoded
            .first()
            .and_then(|finding| finding.data.get("decoded_shape").and_then(extents)),
        shapes.last(),
    ) else {
        return Vec::new();
    };
    let mut paragraphs = vec![before(text, document, block.first_line)];
    let after = after(text, document, block, next.map(|next| next.first_line));
    let introduces_next = next.map(|next| before(text, document, next.first_line));
    if after.is_some() && after != introduces_next.flatten() {
        paragraphs.push(after);
    }
    let mut found = Vec::new();
    for range in paragraphs.into_iter().flatten() {
        for (stated, span) in stated_shapes(text, range) {
            if shapes.contains(&stated) {
                continue;
            }
            let right = shape_text(shape);
            found.push(Finding {
                kind: Kind::StatedShape,
                severity: Severity::Error,
                message: format!(
                    "the prose gives the encoded shape as {}, but the example encodes {} as {right}",
                    shape_text(&stated),
                    shape_text(&chunk)
                ),
                primary: Label::new(span.clone(), "not the encoded shape"),
                related: vec![Label::new(
                    last.primary.span.clone(),
                    format!("encoded shape {right}"),
                )],
                notes: Vec::new(),
                data: json!({"stated": stated, "encoded_shape": shape, "decoded_shape": chunk}),
                suggestion: Some(Suggestion::replace(
                    format!("the encoded shape is {right}"),
                    span,
                    &right,
                )),
            });
        }
    }
    found
}

fn extents(value: &Value) -> Option<Vec<u64>> {
    value.as_array()?.iter().map(Value::as_u64).collect()
}

/// The paragraph ending on the last prose line before line `first_line`.
fn before(text: &str, document: &Document, first_line: usize) -> Option<Range<usize>> {
    // Bounded: many examples with no prose between them walk back a few lines each.
    let last = (0..first_line)
        .rev()
        .take(MAX_LEAD_IN_LINES)
        .find(|index| {
            let kind = document.lines.get(*index).map(|line| line.kind);
            kind == Some(LineKind::Prose) && is_prose(document, text, *index)
        })?;
    Some(bounded(line_range(
        document,
        paragraph_start(document, text, last),
        last,
    )))
}

/// The paragraph starting on the first prose line after the example, if it
/// comes before the next example (which starts on line `next`).
fn after(
    text: &str,
    document: &Document,
    block: &Block,
    next: Option<usize>,
) -> Option<Range<usize>> {
    let end = block.pieces.last().map_or(0, |piece| piece.end);
    let mut index = document.line_of(end).saturating_add(1);
    let stop = next
        .unwrap_or(document.lines.len())
        .min(document.lines.len());
    while index < stop && !is_prose(document, text, index) {
        index = index.saturating_add(1);
    }
    if index >= stop {
        return None;
    }
    let first = index;
    while is_prose(document, text, index.saturating_add(1))
        && paragraph_start(document, text, index.saturating_add(1)) == first
    {
        index = index.saturating_add(1);
    }
    Some(bounded(line_range(document, first, index)))
}

fn bounded(range: Range<usize>) -> Range<usize> {
    range.start..range.end.min(range.start.saturating_add(MAX_CONTEXT_BYTES))
}

/// Every `[a, b, ...]` of non-negative integers in `range` that its sentence
/// gives as an encoded shape, with its byte range.
fn stated_shapes(text: &str, range: Range<usize>) -> Vec<(Vec<u64>, Range<usize>)> {
    let Some(part) = text.get(range.clone()) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (open, _) in part.match_indices('[') {
        let Some(rest) = part.get(open..) else {
            continue;
        };
        // Only digits, commas and spaces may stand before the `]`: each `[` is
        // read up to its first other character, so the scan stays linear.
        let inner = rest.get(1..).unwrap_or_default();
        let run = inner
            .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == ' '))
            .unwrap_or(inner.len());
        if inner.get(run..).is_none_or(|after| !after.starts_with(']')) {
            continue;
        }
        let close = run.saturating_add(1);
        let inner = inner.get(..run).unwrap_or_default();
        let Ok(shape) = inner
            .split(',')
            .map(|item| item.trim().parse::<u64>())
            .collect::<Result<Vec<u64>, _>>()
        else {
            continue;
        };
        let sentence = part.get(..open).unwrap_or_default();
        if gives_encoded_shape(sentence) {
            let start = range.start.saturating_add(open);
            found.push((shape, start..start.saturating_add(close).saturating_add(1)));
        }
    }
    found
}

/// True when the text before a shape, in its sentence, ends by saying that the
/// shape is the encoded one.
fn gives_encoded_shape(before: &str) -> bool {
    let lower = before.to_lowercase();
    let sentence = lower
        .rsplit([';', '\n'])
        .next()
        .unwrap_or_default()
        .rsplit(". ")
        .next()
        .unwrap_or_default();
    let words: Vec<&str> = sentence
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .collect();
    let tail = |n: usize| {
        words
            .get(words.len().saturating_sub(n)..)
            .unwrap_or_default()
    };
    let closing = sentence.trim_end_matches(|c: char| c.is_whitespace() || "`:=".contains(c));
    let ends_at_word = closing.ends_with(|c: char| c.is_alphanumeric());
    ends_at_word
        && (tail(2) == ["encoded", "shape"]
            || tail(3) == ["encoded", "shape", "is"]
            || tail(3) == ["encoded", "shape", "becomes"]
            || (tail(1) == ["as"] && words.iter().any(|word| word.starts_with("encod"))))
}
