//! `--fix`: a report's suggestions applied to the document's text. Each suggestion
//! is checked before it is applied (its edits inside the text, on character
//! boundaries, apart from each other and from every edit already taken), so a
//! suggestion that is wrong or clashes with another is skipped, never half-applied.

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

use super::check::check;
use super::finding::{Edit, Report, Suggestion};
use super::lines::LineIndex;

/// How many rounds of check-then-repair one document gets: a repair can let the
/// checker read further and find the next slip.
pub const MAX_FIX_ROUNDS: usize = 4;

/// A suggestion applied, or skipped, with where it was (line, column in the text
/// of its round) and its help text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Change {
    /// 1-based line of its first edit.
    pub line: usize,
    /// 1-based column (in characters) of its first edit.
    pub column: usize,
    /// The suggestion's help text.
    pub message: String,
    /// Why it was skipped; `None` when it was applied.
    pub skipped: Option<&'static str>,
}

/// The text after the repairs, and what was done.
#[derive(Debug, Clone, PartialEq)]
pub struct Fixed {
    /// The repaired text (the input when nothing applied).
    pub text: String,
    /// Every suggestion met, in the order met.
    pub changes: Vec<Change>,
    /// The report on the repaired text.
    pub report: Report,
}

/// Checks `text` and applies the suggestions, round after round, until none
/// applies or [`MAX_FIX_ROUNDS`] rounds are done.
#[must_use]
pub fn fix(text: &str) -> Fixed {
    let mut current = text.to_string();
    let mut changes = Vec::new();
    let mut skipped: HashSet<Change> = HashSet::new();
    let mut report = check(&current);
    for _ in 0..MAX_FIX_ROUNDS {
        let (next, round) = apply(&current, &report);
        let applied = round.iter().any(|change| change.skipped.is_none());
        // A suggestion skipped again in a later round is reported once.
        for change in round {
            if change.skipped.is_none() || skipped.insert(change.clone()) {
                changes.push(change);
            }
        }
        if !applied {
            break;
        }
        current = next;
        report = check(&current);
    }
    Fixed {
        text: current,
        changes,
        report,
    }
}

/// Applies the report's suggestions to `text`, in document order, skipping any
/// that is not sound or clashes with one already taken.
#[must_use]
pub fn apply(text: &str, report: &Report) -> (String, Vec<Change>) {
    let lines = LineIndex::new(text);
    // The edits taken, by where they start: they never touch each other, so the one
    // that starts last before an edit's end is the only one that can meet it, and
    // each check is a lookup, not a pass over every edit taken so far.
    let mut taken: BTreeMap<usize, &Edit> = BTreeMap::new();
    let mut changes = Vec::new();
    for suggestion in report.findings.iter().filter_map(|f| f.suggestion.as_ref()) {
        let at = suggestion.edits.first().map_or(0, |edit| edit.span.start);
        let (line, column) = lines.line_column(at.min(text.len()));
        let skipped = unsound(text, suggestion).or_else(|| {
            let clash = suggestion.edits.iter().any(|edit| {
                taken
                    .range(..=edit.span.end)
                    .next_back()
                    .is_some_and(|(_, other)| touch(&edit.span, &other.span))
            });
            clash.then_some("it overlaps another repair")
        });
        if skipped.is_none() {
            taken.extend(suggestion.edits.iter().map(|edit| (edit.span.start, edit)));
        }
        changes.push(Change {
            line,
            column,
            message: suggestion.message.clone(),
            skipped,
        });
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in taken.into_values() {
        // Sound and apart (checked above), so these ranges exist and increase.
        out.push_str(text.get(at..edit.span.start).unwrap_or_default());
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    (out, changes)
}

/// Why a suggestion cannot be applied to `text` as it stands, if it cannot.
fn unsound(text: &str, suggestion: &Suggestion) -> Option<&'static str> {
    if suggestion.edits.is_empty() {
        return Some("it has no edit");
    }
    let inside = |edit: &Edit| {
        edit.span.start <= edit.span.end
            && text.get(edit.span.clone()).is_some()
            && !edit.replacement.contains(['\r', '\n'])
    };
    if !suggestion.edits.iter().all(inside) {
        return Some("it lies outside the document or cuts a character");
    }
    let apart = suggestion.edits.iter().enumerate().all(|(index, edit)| {
        suggestion
            .edits
            .iter()
            .skip(index.saturating_add(1))
            .all(|other| !touch(&edit.span, &other.span))
    });
    (!apart).then_some("its edits overlap each other")
}

/// True when two edits meet: they overlap, or touch (an insertion at the edge of
/// another edit could go on either side of it, so neither order is obvious).
fn touch(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start <= b.end && b.start <= a.end
}
