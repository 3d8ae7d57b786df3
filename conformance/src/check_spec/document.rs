//! The document as check-spec sees it: lines of prose, code and comment, the JSON
//! examples and the `"shape": [...]` fragments of the prose. Types only; `extract`
//! builds them.

use std::ops::Range;

/// What a line of the document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// Running text, lists and headings.
    Prose,
    /// Inside a code block, or one of its fences or tag line.
    Code,
    /// Inside an HTML comment.
    Comment,
}

/// One line: its byte range (without the line break) and kind.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) kind: LineKind,
}

/// A JSON example: the byte ranges of its content in the document.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// The content, in pieces that leave out what a container puts before each
    /// line; at least one (empty for an empty example).
    pub(crate) pieces: Vec<Range<usize>>,
    /// The line index of its first line (the opening fence of a fenced block).
    pub(crate) first_line: usize,
}

impl Block {
    /// Where the content starts.
    pub(crate) fn start(&self) -> usize {
        self.pieces.first().map_or(0, |piece| piece.start)
    }
}

/// An inline `"shape": [...]` fragment of the prose.
#[derive(Debug, Clone)]
pub(crate) struct Fragment {
    /// From `"shape"` to the closing bracket.
    pub(crate) whole: Range<usize>,
    /// The array after the colon.
    pub(crate) array: Range<usize>,
    /// The line index it starts on.
    pub(crate) line: usize,
}

/// The document cut into lines, blocks and fragments.
#[derive(Debug, Clone)]
pub(crate) struct Document {
    pub(crate) lines: Vec<Line>,
    pub(crate) blocks: Vec<Block>,
    pub(crate) fragments: Vec<Fragment>,
    /// For each line, the first line of its paragraph (or list item), found once
    /// so that no fragment walks back over a long paragraph again.
    pub(crate) paragraph_starts: Vec<usize>,
}

impl Document {
    /// The text of line `index`, or "" past the end.
    pub(crate) fn line_text<'t>(&self, text: &'t str, index: usize) -> &'t str {
        self.lines
            .get(index)
            .and_then(|line| text.get(line.start..line.end))
            .unwrap_or_default()
    }

    /// The index of the line holding byte `offset`, its line break included.
    pub(crate) fn line_at(&self, offset: usize) -> usize {
        self.lines
            .partition_point(|line| line.start <= offset)
            .saturating_sub(1)
    }

    /// The index of the line holding byte `offset` (a line break counts as the next line's).
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.lines
            .partition_point(|line| line.end < offset)
            .min(self.lines.len().saturating_sub(1))
    }

    pub(crate) fn is_blank(&self, text: &str, index: usize) -> bool {
        self.line_text(text, index).trim().is_empty()
    }
}
