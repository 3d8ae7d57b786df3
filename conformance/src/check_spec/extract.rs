//! Finding the JSON examples and the `"shape": [...]` fragments of a markdown document.
//!
//! Fenced blocks (found by pulldown-cmark, see `markdown`) tagged `json` are JSON;
//! untagged fenced blocks are JSON when they start with `{` followed by a key (or
//! `}`). Outside fences, a line that begins with `{` starts a block when the line
//! before it is only the tag `json` (a rendered copy that lost its fences) or when
//! a key follows the brace; the block runs to the brace that balances it. No
//! markdown parser knows a rendered copy, so that part is written by hand.

use std::ops::Range;

use super::document::{Block, Document, Line, LineKind};
use super::{inline, markdown, spans, text};

/// Cuts `text` into lines and finds its blocks and fragments.
pub(crate) fn extract(text: &str) -> Document {
    let mut lines = Vec::new();
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let body = piece.trim_end_matches(['\n', '\r']);
        lines.push(Line {
            start,
            end: start.saturating_add(body.len()),
            kind: LineKind::Prose,
        });
        start = start.saturating_add(piece.len());
    }
    let mut document = Document {
        lines,
        blocks: Vec::new(),
        fragments: Vec::new(),
        paragraph_starts: Vec::new(),
    };
    fenced_blocks(text, &mut document);
    unfenced_blocks(text, &mut document);
    document.paragraph_starts = text::paragraph_starts(&document, text);
    document.blocks.sort_by_key(Block::start);
    document.fragments = inline::find(text, &document);
    document
}

fn set_kind(document: &mut Document, index: usize, kind: LineKind) {
    if let Some(line) = document.lines.get_mut(index) {
        line.kind = kind;
    }
}

/// Fenced code blocks and HTML comments, as pulldown-cmark finds them.
fn fenced_blocks(text: &str, document: &mut Document) {
    let structure = markdown::structure(text);
    for comment in &structure.comments {
        mark(document, comment, LineKind::Comment);
    }
    for fence in structure.fences {
        mark(document, &fence.range, LineKind::Code);
        let first_line = document.line_at(fence.range.start);
        let is_json = if fence.language.is_empty() {
            looks_like_object(&markdown::joined(text, &fence.pieces))
        } else {
            fence.language.eq_ignore_ascii_case("json")
        };
        let pieces = if fence.pieces.is_empty() {
            // Empty: a closed fence is an empty example, at its closing line; a
            // fence opened on the last line holds nothing at all.
            let after_open = text
                .get(fence.range.clone())
                .and_then(|block| block.find('\n'))
                .map(|newline| fence.range.start.saturating_add(newline).saturating_add(1));
            match after_open.filter(|after| *after < fence.range.end) {
                Some(after) => std::iter::once(after..after).collect(),
                None => continue,
            }
        } else {
            fence.pieces
        };
        if is_json {
            document.blocks.push(Block { pieces, first_line });
        }
    }
}

/// Sets the kind of every line `range` touches.
fn mark(document: &mut Document, range: &Range<usize>, kind: LineKind) {
    let first = document.line_at(range.start);
    let last = document.line_at(range.end.saturating_sub(1).max(range.start));
    for index in first..=last {
        set_kind(document, index, kind);
    }
}

/// `{` followed by a key or by `}`: an object, not pseudo-code.
fn looks_like_object(body: &str) -> bool {
    let mut chars = body.trim_start().chars();
    chars.next() == Some('{') && matches!(chars.find(|c| !c.is_whitespace()), Some('"' | '}'))
}

/// Blocks whose fences were lost: a `json` tag line, or a brace line followed by a key.
fn unfenced_blocks(text: &str, document: &mut Document) {
    let mut index = 0;
    while index < document.lines.len() {
        let line = document.lines.get(index).cloned();
        let Some(line) = line.filter(|line| line.kind == LineKind::Prose) else {
            index = index.saturating_add(1);
            continue;
        };
        let body = document.line_text(text, index);
        let tag_line = (0..index)
            .rev()
            .find(|previous| !document.is_blank(text, *previous))
            .filter(|previous| {
                document
                    .line_text(text, *previous)
                    .trim()
                    .eq_ignore_ascii_case("json")
            });
        let rest = text.get(line.start..).unwrap_or_default();
        if !body.trim_start().starts_with('{') || (tag_line.is_none() && !looks_like_object(rest)) {
            index = index.saturating_add(1);
            continue;
        }
        let open = line
            .start
            .saturating_add(body.len().saturating_sub(body.trim_start().len()));
        let last = match balanced_end(text, open) {
            Some(close) => document.line_of(close),
            None => unbalanced_end(text, document, index),
        };
        for covered in index..=last {
            set_kind(document, covered, LineKind::Code);
        }
        if let Some(tag) = tag_line {
            set_kind(document, tag, LineKind::Code);
        }
        let end = document.lines.get(last).map_or(line.end, |line| line.end);
        document.blocks.push(Block {
            pieces: std::iter::once(line.start..end).collect(),
            first_line: index,
        });
        index = last.saturating_add(1);
    }
}

/// The offset of the brace that closes the one at `open`, strings skipped.
fn balanced_end(text: &str, open: usize) -> Option<usize> {
    let mut depth: usize = 0;
    for (offset, c) in spans::outside_strings(text.get(open..)?) {
        match c {
            '{' | '[' => depth = depth.saturating_add(1),
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(open.saturating_add(offset));
                }
            }
            _ => {}
        }
    }
    None
}

/// Where an unbalanced unfenced block ends: before a blank line followed by prose
/// at the left margin, or at the end of the document.
fn unbalanced_end(text: &str, document: &Document, first: usize) -> usize {
    let count = document.lines.len();
    for index in first.saturating_add(1)..count {
        let next = document.line_text(text, index.saturating_add(1));
        let starts_prose = next
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace() && !matches!(c, '{' | '}' | '[' | ']' | '"'));
        if document.is_blank(text, index) && starts_prose {
            return index.saturating_sub(1);
        }
    }
    count.saturating_sub(1)
}

/// A block of JSON Lines (one object per line, as a report stream is written):
/// the range of each line, when there are two or more and each parses alone.
pub(crate) fn json_lines(text: &str, pieces: &[Range<usize>]) -> Option<Vec<Range<usize>>> {
    let mut lines = Vec::new();
    // A container's prefix and a `\r` are cut only at line breaks, so each line of
    // a piece is a line of the example.
    for piece in pieces {
        let body = text.get(piece.clone())?;
        let mut start = piece.start;
        for part in body.split_inclusive('\n') {
            let line = part.trim_end();
            let trimmed = line.trim_start();
            if !trimmed.is_empty() {
                let parses = serde_json::from_str::<serde_json::Value>(trimmed).is_ok();
                if !(trimmed.starts_with('{') && parses) {
                    return None;
                }
                lines.push(start..start.saturating_add(line.len()));
            }
            start = start.saturating_add(part.len());
        }
    }
    (lines.len() >= 2).then_some(lines)
}
