//! The JSON that parsing walks, whichever way it came in: text (each number kept
//! as written, through serde_json's `RawValue`) or a `serde_json::Value` (numbers
//! as that build parsed them). Both entry points go through the same checks in
//! [`crate::configuration`]; only the source of a number's text differs.
//!
//! Nodes are opened one level at a time, when a check asks for them, so a member
//! the codec never reads is never taken apart.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::error::{ReshapeError, Result};
use crate::limits;

/// One JSON value, not yet opened.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Json<'a> {
    /// A value of checked JSON text.
    Text {
        /// Its text, exactly as written.
        raw: &'a RawValue,
        /// `codec object` or `configuration`, for messages.
        container: &'static str,
    },
    /// A value of a caller's `serde_json::Value`.
    Value(&'a Value),
}

/// A JSON value opened one level: its kind, and its children not yet opened.
pub(crate) enum Node<'a> {
    Null,
    Bool,
    /// The number's text: as written for text, as the `Value` prints it otherwise.
    Number(Cow<'a, str>),
    String(Cow<'a, str>),
    Array(Items<'a>),
    Object(Members<'a>),
}

/// The items of an array: a `Value`'s own, borrowed (nothing is copied before
/// the length is checked), or those of a text array.
pub(crate) enum Items<'a> {
    Value(&'a [Value]),
    Text {
        items: Vec<&'a RawValue>,
        container: &'static str,
    },
}

/// The members of an object: a `Value`'s own map, borrowed, or those of a text
/// object, where a repeated name keeps its last value, as `Value` does.
pub(crate) enum Members<'a> {
    Value(&'a Map<String, Value>),
    Text {
        members: BTreeMap<Cow<'a, str>, &'a RawValue>,
        container: &'static str,
    },
}

impl<'a> Items<'a> {
    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Value(items) => items.len(),
            Self::Text { items, .. } => items.len(),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = Json<'a>> + '_ {
        let (values, texts, container): (&'a [Value], &[&'a RawValue], _) = match self {
            Self::Value(items) => (items, &[], ""),
            Self::Text { items, container } => (&[], items, *container),
        };
        let texts = texts.iter().map(move |raw| Json::Text { raw, container });
        values.iter().map(Json::Value).chain(texts)
    }
}

impl<'a> Members<'a> {
    pub(crate) fn get(&self, name: &str) -> Option<Json<'a>> {
        match self {
            Self::Value(members) => members.get(name).map(Json::Value),
            Self::Text { members, container } => {
                members.get(name).map(|raw| Json::Text { raw, container })
            }
        }
    }

    /// The first name, in sorted order, that `known` lacks: the same in every
    /// build, whatever order a `Value`'s map keeps.
    pub(crate) fn first_unknown(&self, known: &[&str]) -> Option<&str> {
        let unknown = |name: &&str| !known.contains(name);
        match self {
            Self::Value(members) => members.keys().map(String::as_str).filter(unknown).min(),
            Self::Text { members, .. } => members.keys().map(AsRef::as_ref).find(unknown),
        }
    }
}

impl<'a> Json<'a> {
    /// Checks `text`, the whole `container` (`configuration` or `codec object`):
    /// at most [`limits::MAX_JSON_TEXT_LEN`] bytes, one JSON value with nothing
    /// after it, nested less than [`limits::MAX_JSON_DEPTH`] deep.
    ///
    /// # Errors
    /// `malformed-configuration`: `ConfigurationTooLarge` for the length, `NotJson`
    /// (saying where) for the rest.
    pub(crate) fn from_text(text: &'a str, container: &'static str) -> Result<Self> {
        // limits.rank (I-10): no text beyond the limit is parsed at all.
        if text.len() > limits::MAX_JSON_TEXT_LEN {
            return Err(ReshapeError::ConfigurationTooLarge {
                what: format!("the JSON text of the {container}, in bytes,"),
                found: text.len(),
                limit: limits::MAX_JSON_TEXT_LEN,
            });
        }
        let not_json = |message: String| ReshapeError::NotJson { container, message };
        // serde_json checks the syntax (numbers included) and trailing data, but
        // keeps no depth limit for a RawValue, so the depth is checked after it.
        let raw: &RawValue =
            serde_json::from_str(text).map_err(|error| not_json(error.to_string()))?;
        check_depth(text).map_err(not_json)?;
        Ok(Self::Text { raw, container })
    }

    /// Opens this value one level.
    ///
    /// # Errors
    /// `malformed-configuration` if checked text fails to parse again, which
    /// serde_json's own checks rule out.
    pub(crate) fn open(self) -> Result<Node<'a>> {
        match self {
            Self::Value(value) => Ok(open_value(value)),
            Self::Text { raw, container } => open_text(raw, container),
        }
    }

    /// The JSON text of this value, for messages.
    pub(crate) fn text(self) -> Cow<'a, str> {
        match self {
            Self::Value(value) => Cow::Owned(value.to_string()),
            Self::Text { raw, .. } => Cow::Borrowed(raw.get()),
        }
    }
}

impl Node<'_> {
    /// The JSON type, for messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool => "a boolean",
            Self::Number(_) => "a number",
            Self::String(_) => "a string",
            Self::Array(_) => "an array",
            Self::Object(_) => "an object",
        }
    }
}

fn open_value(value: &Value) -> Node<'_> {
    match value {
        Value::Null => Node::Null,
        Value::Bool(_) => Node::Bool,
        Value::Number(number) => Node::Number(Cow::Owned(number.to_string())),
        Value::String(string) => Node::String(Cow::Borrowed(string)),
        Value::Array(items) => Node::Array(Items::Value(items)),
        Value::Object(members) => Node::Object(Members::Value(members)),
    }
}

fn open_text<'a>(raw: &'a RawValue, container: &'static str) -> Result<Node<'a>> {
    let text = raw.get();
    let reparse = |error: serde_json::Error| ReshapeError::NotJson {
        container,
        message: format!("{error} (in {text:.40})"),
    };
    // A RawValue starts at its first character: that alone gives the kind.
    Ok(match text.as_bytes().first() {
        Some(b'{') => {
            let members: BTreeMap<Cow<'a, str>, &'a RawValue> =
                serde_json::from_str(text).map_err(reparse)?;
            Node::Object(Members::Text { members, container })
        }
        Some(b'[') => {
            let items: Vec<&'a RawValue> = serde_json::from_str(text).map_err(reparse)?;
            Node::Array(Items::Text { items, container })
        }
        Some(b'"') => Node::String(serde_json::from_str(text).map_err(reparse)?),
        Some(b't' | b'f') => Node::Bool,
        Some(b'n') => Node::Null,
        // The grammar left only a number: keep it as written.
        _ => Node::Number(Cow::Borrowed(text)),
    })
}

/// Finds the first array or object opened [`limits::MAX_JSON_DEPTH`] deep in
/// checked JSON text, where serde_json's `from_str` stops with "recursion limit
/// exceeded", and says where it is.
fn check_depth(text: &str) -> std::result::Result<(), String> {
    let mut depth: usize = 0;
    let mut in_string = false;
    let mut escaped = false;
    let (mut line, mut column) = (1_usize, 0_usize);
    for character in text.chars() {
        if character == '\n' {
            line = line.saturating_add(1);
            column = 0;
        } else {
            column = column.saturating_add(1);
        }
        if in_string {
            match (escaped, character) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match character {
            '"' => in_string = true,
            '[' | '{' => {
                depth = depth.saturating_add(1);
                if depth >= limits::MAX_JSON_DEPTH {
                    return Err(format!(
                        "arrays and objects nested {depth} deep at line {line} column {column}, \
                         beyond serde_json's recursion limit (fewer than {})",
                        limits::MAX_JSON_DEPTH
                    ));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// A JSON number written as an integer, read exactly.
pub(crate) enum Integer {
    MinusOne,
    Negative,
    /// `None` when it is beyond 64 bits.
    NonNegative(Option<u64>),
}

/// Reads a number from its text (as written, for JSON text; as a `Value` prints
/// it, which is the text as written only with `arbitrary_precision`): `None` for
/// a fraction or an exponent, even `2.0` or `1e1` (reading I-6). A `Value`'s float
/// always prints with a `.` or an `e`, so it is never taken for an integer.
pub(crate) fn integer_literal(text: &str) -> Option<Integer> {
    if text.contains(['.', 'e', 'E']) {
        return None;
    }
    match text.strip_prefix('-') {
        Some(magnitude) if magnitude.bytes().all(|digit| digit == b'0') => {
            Some(Integer::NonNegative(Some(0)))
        }
        Some("1") => Some(Integer::MinusOne),
        Some(_) => Some(Integer::Negative),
        None => Some(Integer::NonNegative(text.parse::<u64>().ok())),
    }
}
