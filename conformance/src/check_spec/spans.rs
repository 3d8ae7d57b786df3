//! Where a value sits in JSON text that parses: the byte range of the value at a
//! path such as `codecs[1].configuration.shape`, for placing labels; and, for the
//! syntax errors, the token at an offset and the bracket still open there.
//!
//! Hand-written on purpose. serde_json has already parsed the text (with every
//! number as written, `arbitrary_precision`), and a label needs the range of a
//! handful of values: a walk along one path over text known to be JSON does that
//! without a second parse. The span-keeping crates (`jsonc-parser`,
//! `json-spanned-value`) would parse the whole example again into a tree of their
//! own, to read a few ranges from it; `serde_json`'s `RawValue` gives a value's
//! text but not its offset (only by pointer arithmetic, which this crate's lints
//! forbid). And the error helpers below read text that is *not* JSON, which no
//! parser hands back.

use std::ops::Range;

/// One step of a path into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// The byte range of the value at `path` in `text`, if it is there.
pub(crate) fn locate(text: &str, path: &[Step]) -> Option<Range<usize>> {
    let mut cursor = Cursor {
        bytes: text.as_bytes(),
        at: 0,
    };
    for step in path {
        cursor.skip_whitespace();
        match step {
            Step::Key(key) => cursor.enter_member(key)?,
            Step::Index(index) => cursor.enter_element(*index)?,
        }
    }
    cursor.skip_whitespace();
    let start = cursor.at;
    cursor.skip_value()?;
    Some(start..cursor.at)
}

/// A path as text, e.g. `codecs[1].configuration`.
pub(crate) fn path_text(path: &[Step]) -> String {
    let mut text = String::new();
    for step in path {
        match step {
            Step::Key(key) if text.is_empty() => text.push_str(key),
            Step::Key(key) => {
                text.push('.');
                text.push_str(key);
            }
            Step::Index(index) => text.push_str(&format!("[{index}]")),
        }
    }
    text
}

struct Cursor<'t> {
    bytes: &'t [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn bump(&mut self) {
        self.at = self.at.saturating_add(1);
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_whitespace();
        (self.peek()? == byte).then(|| self.bump())
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(|byte| byte.is_ascii_whitespace()) {
            self.bump();
        }
    }

    /// Moves to the value of member `key` of the object here.
    fn enter_member(&mut self, key: &str) -> Option<()> {
        self.eat(b'{')?;
        loop {
            self.skip_whitespace();
            let start = self.at.saturating_add(1);
            self.skip_string()?;
            let name = self.bytes.get(start..self.at.saturating_sub(1))?;
            self.eat(b':')?;
            if name == key.as_bytes() {
                return Some(());
            }
            self.skip_whitespace();
            self.skip_value()?;
            self.eat(b',')?;
        }
    }

    /// Moves to element `index` of the array here.
    fn enter_element(&mut self, index: usize) -> Option<()> {
        self.eat(b'[')?;
        for _ in 0..index {
            self.skip_whitespace();
            self.skip_value()?;
            self.eat(b',')?;
        }
        self.skip_whitespace();
        (self.peek()? != b']').then_some(())
    }

    fn skip_string(&mut self) -> Option<()> {
        (self.peek()? == b'"').then(|| self.bump())?;
        let mut escaped = false;
        while let Some(byte) = self.peek() {
            self.bump();
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => return Some(()),
                _ => {}
            }
        }
        None
    }

    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' | b'[' => {
                let mut depth: usize = 0;
                while let Some(byte) = self.peek() {
                    match byte {
                        b'"' => {
                            self.skip_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth = depth.saturating_add(1),
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                self.bump();
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.bump();
                }
                None
            }
            _ => {
                while self
                    .peek()
                    .is_some_and(|byte| !byte.is_ascii_whitespace() && !b",]}".contains(&byte))
                {
                    self.bump();
                }
                Some(())
            }
        }
    }
}

/// The token starting at `at`: a whole string, a word or number, or one character.
pub(crate) fn token_at(text: &str, at: usize) -> Range<usize> {
    let Some(rest) = text.get(at..) else {
        return at..at;
    };
    let length = if rest.starts_with('"') {
        rest.char_indices()
            .skip(1)
            .scan(false, |escaped, (offset, c)| {
                let closes = !*escaped && c == '"';
                *escaped = !*escaped && c == '\\';
                Some((offset, closes))
            })
            .find(|(_, closes)| *closes)
            .map(|(offset, _)| offset.saturating_add(1))
            .unwrap_or_else(|| rest.find('\n').unwrap_or(rest.len()))
    } else {
        let word = rest
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '+' | '.' | '_')))
            .unwrap_or(rest.len());
        if word > 0 {
            word
        } else {
            rest.chars().next().map_or(0, char::len_utf8)
        }
    };
    at..at.saturating_add(length)
}

/// The characters of `text` outside JSON strings (quotes included), with their offsets.
pub(crate) fn outside_strings(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut in_string = false;
    let mut escaped = false;
    text.char_indices().filter(move |&(_, c)| {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            return false;
        }
        in_string = c == '"';
        true
    })
}

/// The innermost bracket still open before `end`, strings skipped.
pub(crate) fn unclosed(text: &str, end: usize) -> Option<(char, usize)> {
    let mut stack: Vec<(char, usize)> = Vec::new();
    for (offset, c) in outside_strings(text.get(..end)?) {
        match c {
            '{' | '[' => stack.push((c, offset)),
            '}' | ']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack.pop()
}
