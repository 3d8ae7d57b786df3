//! Reading the prose around fragments: the verdict a sentence gives ("is
//! allowed", "are NOT allowed") and the clause a paragraph discusses.

use std::ops::Range;

use zarr_reshape::Clause;

use super::document::{Document, Fragment, LineKind};
use super::text::{bullet, indent, is_prose, line_range, paragraph_start, words};

/// What the prose says of a configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    Allowed,
    NotAllowed,
}

impl Verdict {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Allowed => "allowed",
            Self::NotAllowed => "not allowed",
        }
    }
}

/// The most prose lines walked back to find the item or paragraph that leads into
/// a list; a list item further down is read without a lead-in.
pub const MAX_LEAD_IN_LINES: usize = 64;
/// The most bytes of a paragraph, before a fragment, read for the clause it
/// discusses (and of the lead-in); what lies further back is not read.
pub const MAX_CONTEXT_BYTES: usize = 4 << 10;

const POSITIVE: &[&str] = &["allowed", "permitted", "valid", "accepted", "legal"];
const NEGATIVE: &[&str] = &[
    "disallowed",
    "forbidden",
    "invalid",
    "rejected",
    "illegal",
    "prohibited",
];

/// Every verdict phrase in `range`, in order.
fn phrases(text: &str, range: Range<usize>) -> Vec<(Verdict, Range<usize>)> {
    let words = words(text, range);
    let mut found = Vec::new();
    let mut index = 0;
    while let Some((word, span)) = words.get(index) {
        let next = words.get(index.saturating_add(1));
        let negates = word == "not" || word == "t" || word == "never";
        if let Some((_, next_span)) =
            next.filter(|(next, _)| negates && POSITIVE.contains(&next.as_str()))
        {
            found.push((Verdict::NotAllowed, span.start..next_span.end));
            index = index.saturating_add(1);
        } else if NEGATIVE.contains(&word.as_str()) {
            found.push((Verdict::NotAllowed, span.clone()));
        } else if POSITIVE.contains(&word.as_str()) {
            found.push((Verdict::Allowed, span.clone()));
        }
        index = index.saturating_add(1);
    }
    found
}

/// A verdict and the words that give it.
pub(crate) type Said = Option<(Verdict, Range<usize>)>;

/// The verdict the prose gives each fragment, in one pass from the last one, so
/// that a long chain joined by "and" is read once, not once per fragment.
pub(crate) fn verdicts(text: &str, document: &Document) -> Vec<Said> {
    let mut found: Vec<Said> = vec![None; document.fragments.len()];
    for index in (0..document.fragments.len()).rev() {
        let next = found.get(index.saturating_add(1)).cloned().flatten();
        let said = verdict(text, document, index, next);
        if let Some(slot) = found.get_mut(index) {
            *slot = said;
        }
    }
    found
}

/// The verdict the prose gives fragment `index`: in the words right after it, else
/// (through "and", "or") the next fragment's (`next_verdict`), else the lead-in of
/// its list, else a lead-in ending in `:` just before it.
fn verdict(text: &str, document: &Document, index: usize, next_verdict: Said) -> Said {
    let fragment = document.fragments.get(index)?;
    let next = document.fragments.get(index.saturating_add(1));
    let (window, at_next) = after(
        text,
        document,
        fragment.whole.end,
        next.map(|next| next.whole.start),
    );
    if let Some(found) = phrases(text, window.clone()).into_iter().next() {
        return Some(found);
    }
    let between = text
        .get(window)
        .unwrap_or_default()
        .trim_matches(|c: char| c.is_whitespace() || c == '`' || c == ',');
    let joined = matches!(between.to_lowercase().as_str(), "" | "and" | "or" | "nor");
    if at_next && joined {
        if let Some(found) = next_verdict {
            return Some(found);
        }
    }
    if let Some(lead_in) = lead_in(text, document, fragment.line) {
        if text
            .get(lead_in.clone())
            .is_some_and(|lead| lead.trim_end().ends_with(':'))
        {
            return phrases(text, lead_in).pop();
        }
    }
    let start = line_range(
        document,
        paragraph_start(document, text, fragment.line),
        fragment.line,
    )
    .start;
    let previous_end = index
        .checked_sub(1)
        .and_then(|previous| document.fragments.get(previous))
        .map_or(0, |previous| previous.whole.end);
    let before = start.max(previous_end)..fragment.whole.start;
    let ends_with_colon = text.get(before.clone()).is_some_and(|before| {
        before
            .trim_end_matches(|c: char| c.is_whitespace() || c == '`')
            .ends_with(':')
    });
    if ends_with_colon {
        phrases(text, before).pop()
    } else {
        None
    }
}

/// The words after a fragment up to the end of its sentence, its item, or the next fragment.
fn after(
    text: &str,
    document: &Document,
    start: usize,
    next: Option<usize>,
) -> (Range<usize>, bool) {
    let limit = next.unwrap_or(text.len());
    let rest = text.get(start..limit).unwrap_or_default();
    let mut chars = rest.char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        let following = chars.peek().map(|(_, c)| *c);
        let stop = match c {
            '.' | ':' | ';' => following.is_none_or(char::is_whitespace),
            '\n' => {
                let line = document.line_of(start.saturating_add(offset).saturating_add(1));
                !is_prose(document, text, line) || bullet(document.line_text(text, line)).is_some()
            }
            _ => false,
        };
        if stop {
            return (start..start.saturating_add(offset), false);
        }
    }
    (start..limit, next.is_some())
}

/// The text that introduces the list holding line `index`: its parent item or paragraph.
fn lead_in(text: &str, document: &Document, index: usize) -> Option<Range<usize>> {
    let item = paragraph_start(document, text, index);
    let item_line = document.line_text(text, item);
    let width = bullet(item_line)?;
    let item_indent = indent(item_line);
    let content_indent = item_indent.saturating_add(width);
    let mut parent = item.checked_sub(1)?;
    let floor = item.saturating_sub(MAX_LEAD_IN_LINES);
    loop {
        if parent < floor {
            return None;
        }
        let line = document.line_text(text, parent);
        let kind = document.lines.get(parent).map(|line| line.kind);
        let sibling = match bullet(line) {
            Some(_) => indent(line) >= item_indent,
            None => indent(line) >= content_indent,
        };
        if kind != Some(LineKind::Prose) {
            return None;
        }
        if !(line.trim().is_empty() || sibling) {
            break;
        }
        parent = parent.checked_sub(1)?;
    }
    Some(tail(
        text,
        line_range(document, paragraph_start(document, text, parent), parent),
    ))
}

/// The last [`MAX_CONTEXT_BYTES`] of `range` (from a character boundary).
fn tail(text: &str, range: Range<usize>) -> Range<usize> {
    let mut start = range.start.max(range.end.saturating_sub(MAX_CONTEXT_BYTES));
    while start < range.end && !text.is_char_boundary(start) {
        start = start.saturating_add(1);
    }
    start..range.end
}

/// The words that say which clause a paragraph discusses, and the clauses.
const KEYWORDS: &[(&[&str], &[Clause])] = &[
    (&["increas"], &[Clause::InputDimsIncreasing]),
    (
        &["at most once", "at most one -1"],
        &[Clause::ShapeAutoOnce],
    ),
    (&["positive"], &[Clause::ShapeSize]),
    (&["prefix", "prod(b_shape[:i])"], &[Clause::InputDimsPrefix]),
    (
        &["suffix", "prod(b_shape[i+1:])"],
        &[Clause::InputDimsSuffix],
    ),
    (
        &["invariant", "prod(b_shape) == prod(a_shape)"],
        &[Clause::ShapeInvariant, Clause::ShapeAutoValue],
    ),
];

/// Which of [`KEYWORDS`] a piece of text holds, bit `k` for entry `k`, case
/// folded (the keywords are ASCII).
fn keyword_mask(piece: &str) -> u8 {
    let lower = piece.to_ascii_lowercase();
    KEYWORDS
        .iter()
        .zip(0_u8..)
        .filter(|((words, _), _)| words.iter().any(|word| lower.contains(word)))
        .fold(0, |mask, (_, bit)| mask | (1_u8 << bit))
}

/// [`keyword_mask`] of every line of the document, in one pass: a keyword never
/// holds a line break, so a paragraph's mask is the union of its lines'. The
/// paragraph before each fragment line is then read line by line from these,
/// not lowercased and searched again for every fragment line.
pub(crate) fn line_masks(text: &str, document: &Document) -> Vec<u8> {
    (0..document.lines.len())
        .map(|index| keyword_mask(document.line_text(text, index)))
        .collect()
}

/// The keywords in `range` (which ends at a line's end): the lines wholly inside
/// it from `masks`, the first one, cut by [`MAX_CONTEXT_BYTES`], read afresh.
fn range_mask(text: &str, document: &Document, masks: &[u8], range: Range<usize>) -> u8 {
    let first = document.line_at(range.start);
    let last = document.line_of(range.end);
    let mut mask = 0;
    for index in first..=last {
        let Some(line) = document.lines.get(index) else {
            break;
        };
        let whole = line.start >= range.start && line.end <= range.end;
        mask |= if whole {
            masks.get(index).copied().unwrap_or_default()
        } else {
            let piece = range.start.max(line.start)..range.end.min(line.end);
            keyword_mask(text.get(piece).unwrap_or_default())
        };
    }
    mask
}

/// The clauses the paragraph around `fragment` (and its lead-in) discusses;
/// `masks` is [`line_masks`] of the document.
pub(crate) fn discussed(
    text: &str,
    document: &Document,
    masks: &[u8],
    fragment: &Fragment,
) -> Vec<Clause> {
    let own = tail(
        text,
        line_range(
            document,
            paragraph_start(document, text, fragment.line),
            fragment.line,
        ),
    );
    let mut mask = range_mask(text, document, masks, own);
    if let Some(lead) = lead_in(text, document, fragment.line) {
        mask |= range_mask(text, document, masks, lead);
    }
    KEYWORDS
        .iter()
        .zip(0_u8..)
        .filter(|(_, bit)| mask & (1_u8 << bit) != 0)
        .flat_map(|((_, clauses), _)| clauses.iter().copied())
        .collect()
}
