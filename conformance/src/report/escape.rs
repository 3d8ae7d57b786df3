//! Text from vectors and adapters made safe for each medium a report is written
//! in. Case ids, clauses, messages and stderr come from files and programs that are
//! not trusted: a terminal must not receive escape sequences, a Markdown table must
//! keep its cells, and JUnit must stay well-formed XML. What is replaced is shown as
//! `\u{...}`, so that a reader still sees that it was there.

use std::fmt::Write as _;

/// `c` as `\u{1b}`.
fn push_escaped(out: &mut String, c: char) {
    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
}

/// Characters that change how a terminal (or an editor) shows the text around
/// them, rather than showing themselves: the C0 and C1 controls and DEL, the
/// explicit bidirectional marks, embeddings, overrides and isolates, the
/// Unicode line and paragraph separators, and the noncharacters U+FFFE, U+FFFF
/// (which no interchanged text should hold, and XML forbids).
#[must_use]
pub fn is_unsafe_for_terminal(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{fffe}'
                | '\u{ffff}'
        )
}

/// One line of text for a terminal: every character of [`is_unsafe_for_terminal`]
/// (line breaks included) as `\u{...}`, tabs kept.
#[must_use]
pub fn terminal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '\t' && is_unsafe_for_terminal(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether XML 1.0 allows `c` in a document (its `Char` production):
/// `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`.
#[must_use]
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

/// Text for an XML document: every character XML 1.0 forbids as `\u{...}`
/// (the XML writer escapes `<`, `&` and quotes).
#[must_use]
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_xml_char(c) {
            out.push(c);
        } else {
            push_escaped(&mut out, c);
        }
    }
    out
}

/// Text for Markdown prose or a table cell, on one line: controls and line
/// breaks as `\u{...}` (backslash-escaped, so that they show as written), HTML
/// special characters as entities, and the characters that start emphasis, code,
/// links or table cells backslash-escaped.
#[must_use]
pub fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in terminal(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' => out.push(' '),
            '\\' | '*' | '`' | '|' | '[' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// `text` as a Markdown code span, on one line: delimited by one more backtick than
/// its longest run of backticks (so that none ends it), controls and line breaks as
/// `\u{...}`. In a table cell (`in_table`), `|` is written `\|`, which GitHub's
/// tables read as a `|` of the span rather than the end of the cell.
#[must_use]
pub fn markdown_code(text: &str, in_table: bool) -> String {
    let mut body = terminal(text).replace('\t', " ");
    if in_table {
        body = body.replace('|', "\\|");
    }
    let mut longest: usize = 0;
    let mut run: usize = 0;
    for c in body.chars() {
        run = if c == '`' { run.saturating_add(1) } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.saturating_add(1));
    // A span that starts or ends with a backtick needs a space inside its fences.
    let pad = if body.starts_with('`') || body.ends_with('`') || body.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// Text for HTML element content or a quoted attribute value: `&`, `<`, `>`, `"`
/// and `'` as character references, and the characters of
/// [`is_unsafe_for_terminal`] but tab and line feed as `\u{...}` (HTML forbids
/// most controls, and bidi overrides would reorder the page around them).
#[must_use]
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if is_unsafe_for_terminal(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    out
}
