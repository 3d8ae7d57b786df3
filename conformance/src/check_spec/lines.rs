//! Line and column of a byte offset, from an index built once per document: a
//! binary search for the line, and a count of characters from the nearest
//! checkpoint for the column, so that no finding rescans the document.

/// Bytes between two character-count checkpoints.
const STRIDE: usize = 64;

/// Where each line starts, and how many characters precede every checkpoint.
#[derive(Debug, Clone)]
pub struct LineIndex<'t> {
    text: &'t str,
    /// Byte offset of each line's first byte; the first is 0.
    starts: Vec<usize>,
    /// `chars[k]`: the characters in the first `k * STRIDE` bytes.
    chars: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    /// Indexes `text`, in one pass.
    #[must_use]
    pub fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        let mut chars = vec![0];
        let mut count: usize = 0;
        for (at, byte) in text.bytes().enumerate() {
            if at > 0 && at.checked_rem(STRIDE) == Some(0) {
                chars.push(count);
            }
            // Every byte that is not a UTF-8 continuation byte starts a character.
            if byte & 0xc0 != 0x80 {
                count = count.saturating_add(1);
            }
            if byte == b'\n' {
                starts.push(at.saturating_add(1));
            }
        }
        Self {
            text,
            starts,
            chars,
        }
    }

    /// The indexed text.
    #[must_use]
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The characters before byte `offset` (clamped to the text).
    fn chars_before(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let checkpoint = offset.checked_div(STRIDE).unwrap_or_default();
        let from = checkpoint.saturating_mul(STRIDE);
        let base = self.chars.get(checkpoint).copied().unwrap_or_default();
        let tail = self
            .text
            .as_bytes()
            .get(from..offset)
            .unwrap_or_default()
            .iter()
            .filter(|byte| **byte & 0xc0 != 0x80)
            .count();
        base.saturating_add(tail)
    }

    /// 1-based line and column (in characters) of byte `offset`; an offset inside a
    /// character counts as that character, one past the end as the end.
    #[must_use]
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = floor_boundary(self.text, offset.min(self.text.len()));
        let line = self.starts.partition_point(|start| *start <= offset);
        let line_start = line
            .checked_sub(1)
            .and_then(|index| self.starts.get(index))
            .copied()
            .unwrap_or_default();
        let column = self
            .chars_before(offset)
            .saturating_sub(self.chars_before(line_start))
            .saturating_add(1);
        (line.max(1), column)
    }

    /// The byte range of 1-based line `line`, its line break excluded.
    #[must_use]
    pub fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let index = line.saturating_sub(1);
        let start = self.starts.get(index).copied().unwrap_or(self.text.len());
        let end = self
            .starts
            .get(index.saturating_add(1))
            .map_or(self.text.len(), |next| next.saturating_sub(1));
        start..end.max(start)
    }
}

/// The largest char boundary at or before `offset`.
pub(crate) fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset = offset.saturating_sub(1);
    }
    offset
}
