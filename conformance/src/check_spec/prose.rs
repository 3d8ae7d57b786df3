//! Reading the prose around fragments: the verdict a sentence gives ("is
//! allowed", "are NOT allowed") and the clause a paragraph discusses.

use std::ops::Range;

use zarr_reshape::Clause;

use super::extract::{Document, LineKind};
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

/// The verdict the prose gives fragment `index`: in the words right after it, else
/// (through "and", "or") the next fragment's, else the lead-in of its list, else a
/// lead-in ending in `:` just before it.
pub(crate) fn verdict(
    text: &str,
    document: &Document,
    index: usize,
) -> Option<(Verdict, Range<usize>)> {
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
    if at_next && matches!(between.to_lowercase().as_str(), "" | "and" | "or" | "nor") {
        if let Some(found) = verdict(text, document, index.saturating_add(1)) {
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
    loop {
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
    Some(line_range(
        document,
        paragraph_start(document, text, parent),
        parent,
    ))
}

/// The clauses the paragraph around fragment `index` (and its lead-in) discusses.
pub(crate) fn discussed(text: &str, document: &Document, index: usize) -> Vec<Clause> {
    let Some(fragment) = document.fragments.get(index) else {
        return Vec::new();
    };
    let own = line_range(
        document,
        paragraph_start(document, text, fragment.line),
        fragment.line,
    );
    let mut context = text.get(own).unwrap_or_default().to_lowercase();
    if let Some(lead) = lead_in(text, document, fragment.line).and_then(|lead| text.get(lead)) {
        context.push_str(&lead.to_lowercase());
    }
    let keywords: &[(&[&str], &[Clause])] = &[
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
    keywords
        .iter()
        .filter(|(words, _)| words.iter().any(|word| context.contains(word)))
        .flat_map(|(_, clauses)| clauses.iter().copied())
        .collect()
}
