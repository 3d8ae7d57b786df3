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

/// Characters that change how a terminal (or an editor, or a CI dashboard) shows
/// the text around them, or hide, rather than showing themselves: the C0 and C1
/// controls and DEL, every format character of Unicode (general category Cf: the
/// explicit bidirectional marks, embeddings, overrides and isolates, zero-width
/// spaces and joiners, the soft hyphen, the byte order mark, tags, ...), the
/// Unicode line and paragraph separators, and the noncharacters U+FFFE, U+FFFF
/// (which no interchanged text should hold, and XML forbids).
#[must_use]
pub fn is_unsafe_for_terminal(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{ad}'
                | '\u{600}'..='\u{605}'
                | '\u{61c}'
                | '\u{6dd}'
                | '\u{70f}'
                | '\u{890}'..='\u{891}'
                | '\u{8e2}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{fffe}'
                | '\u{ffff}'
                | '\u{110bd}'
                | '\u{110cd}'
                | '\u{13430}'..='\u{1343f}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0001}'
                | '\u{e0020}'..='\u{e007f}'
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

/// Text for an XML document: every character XML 1.0 forbids, and every
/// character of [`is_unsafe_for_terminal`] but tab, line feed and carriage return
/// (bidi overrides would reorder a dashboard's text, zero-width characters hide),
/// as `\u{...}` (the XML writer escapes `<`, `&` and quotes).
#[must_use]
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let shown = matches!(c, '\t' | '\n' | '\r') || !is_unsafe_for_terminal(c);
        if is_xml_char(c) && shown {
            out.push(c);
        } else {
            push_escaped(&mut out, c);
        }
    }
    out
}

/// Where Markdown text is split by an empty HTML comment, which renders as
/// nothing: it ends the text run that GitHub's autolinks (an e-mail address,
/// `https://`), `@mentions` and `:emoji:` need whole.
const BREAK: &str = "<!---->";

/// Text for Markdown prose or a table cell, on one line, that renders as written
/// (GitHub-flavoured Markdown: emphasis, strikethrough, code, links, autolinks,
/// math, tables, HTML): controls, format characters and line breaks as `\u{...}`
/// (backslash-escaped, so that they show as written), tabs as spaces, HTML
/// special characters as entities; backslash-escaped: the characters that start
/// emphasis, strikethrough, code, links, math, headings and table cells
/// (`\ * ~ ` [ | # $`, and `_` but inside a word, where it cannot), at the start a
/// list, quote or underline marker (`- + =`, `1.`), and the `.` of `www.`; an empty
/// HTML comment after `@` before a word, after `:` before `/`, and after the `:`
/// that opens an emoji code (`:word:`), so that no bare URL, e-mail address,
/// mention or emoji is recognized.
#[must_use]
pub fn markdown(text: &str) -> String {
    let safe = terminal(text);
    let mut out = String::with_capacity(safe.len());
    let mut chars = safe.chars().peekable();
    // Whether every character so far is a digit (an ordered list's number).
    let mut digits_only = true;
    // The last three characters, the latest last.
    let mut recent: (Option<char>, Option<char>, Option<char>) = (None, None, None);
    while let Some(c) = chars.next() {
        let previous = recent.2;
        let next = chars.peek().copied();
        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        let www = [recent.0, recent.1, recent.2]
            .iter()
            .all(|c| matches!(c, Some('w' | 'W')));
        let escaped = match c {
            '\\' | '*' | '~' | '`' | '[' | '|' | '#' | '$' => true,
            '_' => !(word(previous) && word(next)),
            '-' | '+' | '=' => previous.is_none(),
            '.' | ')' => {
                (digits_only && previous.is_some() && next.is_none_or(char::is_whitespace))
                    || (c == '.' && www)
            }
            _ => false,
        };
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' => out.push(' '),
            _ if escaped => {
                out.push('\\');
                out.push(c);
            }
            '@' if word(next) || matches!(next, Some('_' | '-')) => {
                out.push(c);
                out.push_str(BREAK);
            }
            ':' if next == Some('/') || opens_emoji_code(chars.clone()) => {
                out.push(c);
                out.push_str(BREAK);
            }
            _ => out.push(c),
        }
        digits_only = digits_only && c.is_ascii_digit();
        recent = (recent.1, recent.2, Some(c));
    }
    out
}

/// Whether `rest`, the text after a `:`, starts with an emoji code's name and
/// its closing `:` (`tada:`, `+1:`).
fn opens_emoji_code(rest: impl Iterator<Item = char>) -> bool {
    let mut named = false;
    for c in rest {
        if c == ':' {
            return named;
        }
        if !(c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-')) {
            return false;
        }
        named = true;
    }
    false
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
