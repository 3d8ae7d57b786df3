//! Small readers of markdown prose: words, list items, paragraphs.

use std::ops::Range;

use super::document::{Document, LineKind};

/// The words of `range` (lower case) with their byte ranges.
pub(crate) fn words(text: &str, range: Range<usize>) -> Vec<(String, Range<usize>)> {
    let Some(part) = text.get(range.clone()) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut start: Option<usize> = None;
    for (offset, c) in part.char_indices().chain([(part.len(), ' ')]) {
        let in_word = c.is_alphanumeric() || c == '_';
        match (start, in_word) {
            (None, true) => start = Some(offset),
            (Some(first), false) => {
                let word = part.get(first..offset).unwrap_or_default().to_lowercase();
                found.push((
                    word,
                    range.start.saturating_add(first)..range.start.saturating_add(offset),
                ));
                start = None;
            }
            _ => {}
        }
    }
    found
}

pub(crate) fn indent(line: &str) -> usize {
    line.len().saturating_sub(line.trim_start().len())
}

/// The width of a list marker with its space (`- `, `• `, `12. `), if the line is an item.
pub(crate) fn bullet(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
    let marker = if digits > 0
        && matches!(
            trimmed.get(digits..digits.saturating_add(1)),
            Some("." | ")")
        ) {
        digits.saturating_add(1)
    } else {
        trimmed
            .chars()
            .next()
            .filter(|c| matches!(c, '-' | '*' | '+' | '•'))
            .map(char::len_utf8)?
    };
    let rest = trimmed.get(marker..)?;
    let spaces = rest.len().saturating_sub(rest.trim_start().len());
    (spaces > 0 || rest.is_empty()).then(|| marker.saturating_add(spaces))
}

pub(crate) fn is_prose(document: &Document, text: &str, index: usize) -> bool {
    document
        .lines
        .get(index)
        .is_some_and(|line| line.kind == LineKind::Prose)
        && !document.line_text(text, index).trim().is_empty()
}

/// The first line of the paragraph (or list item) holding line `index`.
pub(crate) fn paragraph_start(document: &Document, text: &str, index: usize) -> usize {
    match document.paragraph_starts.get(index) {
        Some(start) => *start,
        None => walk_back(document, text, index),
    }
}

/// [`paragraph_start`] of every line, in one pass: a line continues the paragraph
/// of the line before it exactly when walking back would step over it.
pub(crate) fn paragraph_starts(document: &Document, text: &str) -> Vec<usize> {
    let mut starts: Vec<usize> = Vec::with_capacity(document.lines.len());
    for index in 0..document.lines.len() {
        let continues = index > 0
            && bullet(document.line_text(text, index)).is_none()
            && is_prose(document, text, index.saturating_sub(1));
        let start = match starts.last() {
            Some(previous) if continues => *previous,
            _ => index,
        };
        starts.push(start);
    }
    starts
}

fn walk_back(document: &Document, text: &str, mut index: usize) -> usize {
    while index > 0
        && bullet(document.line_text(text, index)).is_none()
        && is_prose(document, text, index.saturating_sub(1))
    {
        index = index.saturating_sub(1);
    }
    index
}

pub(crate) fn line_range(document: &Document, first: usize, last: usize) -> Range<usize> {
    let start = document.lines.get(first).map_or(0, |line| line.start);
    let end = document.lines.get(last).map_or(start, |line| line.end);
    start..end.max(start)
}
