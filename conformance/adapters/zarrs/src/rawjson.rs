//! A small JSON reader that keeps numbers as they are spelled.
//!
//! Array elements are read from their text (`"0.1".parse::<f32>()` rounds once, to
//! the data type), never through `serde_json`'s `f64`: a float32 element read as f64
//! and then narrowed could round twice. `serde_json` (without `arbitrary_precision`)
//! still reads everything that zarrs sees.

/// A JSON value with numbers kept as text.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Raw>),
    Object(Vec<(String, Raw)>),
}

/// How deep arrays and objects may nest (`serde_json`'s own limit is 128).
const MAX_DEPTH: usize = 256;

impl Raw {
    /// Parses one JSON text.
    pub fn parse(text: &str) -> Result<Raw, String> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = reader.value(0)?;
        reader.skip_space();
        if reader.at == reader.bytes.len() {
            Ok(value)
        } else {
            Err(format!("trailing characters at byte {}", reader.at))
        }
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Raw> {
        match self {
            Raw::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", byte as char, self.at))
        }
    }

    fn literal(&mut self, word: &str, value: Raw) -> Result<Raw, String> {
        if self.bytes.get(self.at..self.at + word.len()) == Some(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(format!("unexpected text at byte {}", self.at))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Raw, String> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        self.skip_space();
        match self.peek() {
            Some(b'n') => self.literal("null", Raw::Null),
            Some(b't') => self.literal("true", Raw::Bool(true)),
            Some(b'f') => self.literal("false", Raw::Bool(false)),
            Some(b'"') => self.string().map(Raw::String),
            Some(b'[') => self.sequence(b']', depth, Reader::value).map(Raw::Array),
            Some(b'{') => self.sequence(b'}', depth, Self::member).map(Raw::Object),
            Some(b'-' | b'0'..=b'9') => Ok(self.number()),
            _ => Err(format!("unexpected character at byte {}", self.at)),
        }
    }

    /// The items of an array or object, after its opening bracket.
    fn sequence<T>(
        &mut self,
        close: u8,
        depth: usize,
        mut item: impl FnMut(&mut Self, usize) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(close) {
            self.at += 1;
            return Ok(items);
        }
        loop {
            items.push(item(self, depth + 1)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(byte) if byte == close => {
                    self.at += 1;
                    return Ok(items);
                }
                _ => return Err(format!("expected ',' at byte {}", self.at)),
            }
        }
    }

    fn member(&mut self, depth: usize) -> Result<(String, Raw), String> {
        self.skip_space();
        if self.peek() != Some(b'"') {
            return Err(format!("expected a member name at byte {}", self.at));
        }
        let key = self.string()?;
        self.expect(b':')?;
        Ok((key, self.value(depth)?))
    }

    /// A number's text: the JSON number grammar's characters, checked when parsed.
    fn number(&mut self) -> Raw {
        let start = self.at;
        while matches!(
            self.peek(),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.at += 1;
        }
        Raw::Number(String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned())
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let byte = self.peek().ok_or("an unterminated string")?;
            self.at += 1;
            match byte {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let escape = self.peek().ok_or("an unterminated escape")?;
                    self.at += 1;
                    let decoded = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(format!("a bad escape at byte {}", self.at)),
                    };
                    let mut buffer = [0; 4];
                    out.extend_from_slice(decoded.encode_utf8(&mut buffer).as_bytes());
                }
                _ => out.push(byte),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let text = self
            .bytes
            .get(self.at..self.at + 4)
            .ok_or("a short \\u escape")?;
        self.at += 4;
        let text = std::str::from_utf8(text).map_err(|e| e.to_string())?;
        u32::from_str_radix(text, 16).map_err(|e| e.to_string())
    }

    fn unicode_escape(&mut self) -> Result<char, String> {
        let high = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&high) && self.bytes.get(self.at) == Some(&b'\\') {
            self.at += 2;
            let low = self.hex4()?;
            0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF)
        } else {
            high
        };
        Ok(char::from_u32(code).unwrap_or('\u{FFFD}'))
    }
}

#[cfg(test)]
mod tests {
    use super::Raw;

    #[test]
    fn numbers_keep_their_spelling() {
        let raw = Raw::parse(r#"{"a": [1e1, -0.0, 18446744073709551616, "x\u00e9\"y"]}"#);
        let expected = Raw::Array(vec![
            Raw::Number("1e1".into()),
            Raw::Number("-0.0".into()),
            Raw::Number("18446744073709551616".into()),
            Raw::String("xé\"y".into()),
        ]);
        assert_eq!(raw.ok().as_ref().and_then(|r| r.get("a")), Some(&expected));
    }

    #[test]
    fn rejects_bad_text() {
        assert!(Raw::parse("[1,").is_err());
        assert!(Raw::parse("[1] x").is_err());
        assert!(Raw::parse(&"[".repeat(300)).is_err());
    }
}
