//! JSON read exactly: numbers keep their text, so that the judgement compares
//! integers beyond 64 bits and floats as written (what the runner does with
//! serde_json's `arbitrary_precision`, which this crate must not turn on).

use std::collections::BTreeMap;
use std::fmt;

use serde_json::value::RawValue;

/// A JSON value whose numbers are their text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Members sorted by name; of a repeated name the last counts, as in serde_json.
    Object(BTreeMap<String, Json>),
}

impl Json {
    /// Reads JSON text.
    ///
    /// # Errors
    /// serde_json's message when the text is not JSON (nesting is bounded by its
    /// recursion limit).
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let raw: &RawValue = serde_json::from_str(text).map_err(|e| e.to_string())?;
        Self::from_raw(raw).map_err(|e| e.to_string())
    }

    /// Each level is read as raw members, then each member again: text already
    /// checked by [`Json::parse`], so only the shape of the value is decided here.
    fn from_raw(raw: &RawValue) -> Result<Self, serde_json::Error> {
        let text = raw.get();
        Ok(match text.as_bytes().first() {
            Some(b'{') => {
                let members: BTreeMap<String, &RawValue> = serde_json::from_str(text)?;
                Self::Object(
                    members
                        .into_iter()
                        .map(|(name, value)| Ok((name, Self::from_raw(value)?)))
                        .collect::<Result<_, serde_json::Error>>()?,
                )
            }
            Some(b'[') => {
                let items: Vec<&RawValue> = serde_json::from_str(text)?;
                Self::Array(
                    items
                        .into_iter()
                        .map(Self::from_raw)
                        .collect::<Result<_, _>>()?,
                )
            }
            Some(b'"') => Self::String(serde_json::from_str(text)?),
            Some(b't' | b'f') => Self::Bool(serde_json::from_str(text)?),
            Some(b'n') => Self::Null,
            _ => Self::Number(text.to_string()),
        })
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(text) => Some(text),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json]> {
        match self {
            Self::Array(items) => Some(items),
            _ => None,
        }
    }

    pub(crate) fn as_object(&self) -> Option<&BTreeMap<String, Json>> {
        match self {
            Self::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The number as a u64, when its text is one (no fraction, no exponent).
    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Self::Number(text) => text.parse().ok(),
            _ => None,
        }
    }

    /// The number as an i64, when its text is one.
    pub(crate) fn as_i64(&self) -> Option<i64> {
        match self {
            Self::Number(text) => text.parse().ok(),
            _ => None,
        }
    }
}

/// Compact JSON, numbers as written.
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Bool(value) => write!(f, "{value}"),
            Self::Number(text) => f.write_str(text),
            Self::String(text) => write_string(f, text),
            Self::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Self::Object(members) => {
                f.write_str("{")?;
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, name)?;
                    write!(f, ":{value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

fn write_string(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    match serde_json::to_string(text) {
        Ok(quoted) => f.write_str(&quoted),
        Err(_) => write!(f, "{text:?}"),
    }
}

/// JSON equality as the runner's judge has it: integers compared by value
/// whatever their spelling, lists item by item; anything else (objects
/// included) exactly, numbers by their text.
pub(crate) fn same_json(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            x == y
                || (a.as_u64().is_some() && a.as_u64() == b.as_u64())
                || (a.as_i64().is_some() && a.as_i64() == b.as_i64())
        }
        (Json::Array(xs), Json::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_json(x, y))
        }
        _ => a == b,
    }
}
