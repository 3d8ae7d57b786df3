//! The inline `"shape": [...]` fragments of the prose, in backticks or not (a
//! rendered copy loses its backticks); the array is balanced across wrapped lines.

use std::ops::Range;

use super::document::{Document, Fragment, LineKind};

/// The longest fragment array read, in bytes; a longer one is cut there (and then
/// reported as unbalanced JSON), so that a stray `[` costs no more than this.
pub const MAX_FRAGMENT_BYTES: usize = 1 << 10;

/// Every `"shape": [...]` in prose lines, the array balanced across wrapped lines.
pub(crate) fn find(text: &str, document: &Document) -> Vec<Fragment> {
    let mut found = Vec::new();
    for (index, line) in document.lines.iter().enumerate() {
        if line.kind != LineKind::Prose {
            continue;
        }
        let body = text.get(line.start..line.end).unwrap_or_default();
        for (at, _) in body.match_indices("\"shape\"") {
            let start = line.start.saturating_add(at);
            let array = fragment_array(text, document, start.saturating_add(7));
            // `[...]` stands for any shape: a placeholder, not a fragment.
            let elided = |array: &Range<usize>| {
                text.get(array.clone())
                    .is_some_and(|array| array.contains("...") || array.contains('…'))
            };
            if let Some(array) = array.filter(|array| !elided(array)) {
                found.push(Fragment {
                    whole: start..array.end,
                    array,
                    line: index,
                });
            }
        }
    }
    found
}

/// After `"shape"`: `:` then `[`, balanced; stops at a backtick, a blank line or a block.
fn fragment_array(text: &str, document: &Document, after_key: usize) -> Option<Range<usize>> {
    let rest = text.get(after_key..)?;
    let colon = rest.find(|c: char| !c.is_whitespace())?;
    rest.get(colon..)?.strip_prefix(':')?;
    let after_colon = colon.saturating_add(1);
    let bracket = after_colon.saturating_add(
        rest.get(after_colon..)?
            .find(|c: char| !c.is_whitespace())?,
    );
    if rest.get(bracket..)?.chars().next()? != '[' {
        return None;
    }
    let open = after_key.saturating_add(bracket);
    let mut depth: usize = 0;
    let mut end = open;
    for (offset, c) in text.get(open..)?.char_indices() {
        let at = open.saturating_add(offset);
        end = at;
        if offset >= MAX_FRAGMENT_BYTES {
            break;
        }
        if c == '`' {
            break;
        }
        if c == '\n' {
            let next = document.line_of(at.saturating_add(1));
            let blank = document.is_blank(text, next);
            let prose = document.lines.get(next).map(|line| line.kind) == Some(LineKind::Prose);
            if blank || !prose {
                break;
            }
        }
        match c {
            '[' => depth = depth.saturating_add(1),
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(open..at.saturating_add(1));
                }
            }
            _ => {}
        }
        end = at.saturating_add(c.len_utf8());
    }
    // Unbalanced: hand the text up to where it stopped to the JSON parser, which says so.
    Some(open..end.max(open.saturating_add(1)))
}
