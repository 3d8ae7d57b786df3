//! What an implementation answered for one case: the `result` object of the
//! adapter protocol (version 2, `conformance/PROTOCOL.md`).
//!
//! The harness crate's `Answer` is an adopter's answer in process: its output is
//! JSON text (no `arbitrary_precision` there), and it has no crash, which the
//! harness sees as a panic of its own trial. This one is what crosses the
//! protocol, crashes included, as `serde_json` values.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

use serde_json::{Map, Value, json};

/// The members that mark a result as something other than an output; a result
/// holds at most one of them.
const KINDS: [&str; 4] = ["error", "skipped", "errored", "crashed"];

/// One implementation's answer to one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The operation's output, e.g. `{"encoded_shape": [5000, 64, 3]}`.
    Output(Map<String, Value>),
    /// The implementation reported an error.
    Error {
        /// The error class, when the implementation can name one.
        class: Option<String>,
        /// Its message, for people.
        message: String,
        /// `resolve-grid`: the grid coordinates of a chunk the chain refuses
        /// (the member `chunk` of the protocol's error object).
        chunk: Option<Vec<u64>>,
    },
    /// The implementation does not support the case.
    Skipped {
        /// Why.
        reason: String,
    },
    /// The adapter itself failed (a fault of its own, a timeout, its process
    /// dying, garbage, a protocol violation): no answer of the implementation.
    Errored {
        /// What happened.
        message: String,
    },
    /// The implementation crashed (a panic, an uncaught exception, an abort) rather
    /// than rejecting the input: never a conforming answer.
    Crashed {
        /// What the crash said, and where, when the adapter knows.
        message: String,
    },
}

impl Answer {
    /// The protocol's JSON form of the answer.
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            Self::Output(output) => Value::Object(output.clone()),
            Self::Error {
                class,
                message,
                chunk: None,
            } => json!({"error": {"class": class, "message": message}}),
            Self::Error {
                class,
                message,
                chunk: Some(chunk),
            } => json!({"error": {"class": class, "message": message, "chunk": chunk}}),
            Self::Skipped { reason } => json!({"skipped": {"reason": reason}}),
            Self::Errored { message } => json!({"errored": {"message": message}}),
            Self::Crashed { message } => json!({"crashed": {"message": message}}),
        }
    }

    /// Reads the protocol's JSON form. Anything else is a protocol violation,
    /// answered as `Errored` saying what was wrong: a result that is not an object,
    /// or holds more than one of `error`, `skipped`, `errored` and `crashed`; an
    /// `error` without a string `message` or whose `class` is neither a string nor
    /// null; a `skipped` without a string `reason`; an `errored` or `crashed` whose
    /// `message` is not a string. Members the protocol does not name are ignored, as
    /// `conformance/PROTOCOL.md` asks of both sides.
    #[must_use]
    pub fn from_json(value: &Value) -> Self {
        let Some(object) = value.as_object() else {
            return violation(format!("a result must be a JSON object, got {value}"));
        };
        let kinds: Vec<&str> = KINDS
            .into_iter()
            .filter(|kind| object.contains_key(*kind))
            .collect();
        match kinds.as_slice() {
            [] => Self::Output(object.clone()),
            ["error"] => read_error(object.get("error")),
            ["skipped"] => match inner(object.get("skipped"), "skipped", "reason") {
                Ok(Some(reason)) => Self::Skipped { reason },
                Ok(None) => violation("a skipped result needs a reason, a string".into()),
                Err(message) => violation(message),
            },
            ["errored"] => match inner(object.get("errored"), "errored", "message") {
                Ok(message) => Self::Errored {
                    message: message.unwrap_or_else(|| "(the adapter gave no message)".into()),
                },
                Err(message) => violation(message),
            },
            ["crashed"] => match inner(object.get("crashed"), "crashed", "message") {
                Ok(message) => Self::Crashed {
                    message: message.unwrap_or_else(|| "(the adapter gave no message)".into()),
                },
                Err(message) => violation(message),
            },
            several => violation(format!(
                "a result holds at most one of error, skipped, errored and crashed, this one holds {}: {}",
                several.join(" and "),
                excerpt(value)
            )),
        }
    }
}

/// Runs `run`; a panic becomes an [`Answer::Crashed`] carrying its message. Every
/// place that runs an implementation in this process (the in-process run, the
/// served reference) answers through it.
pub fn catch_panic(run: impl FnOnce() -> Answer) -> Answer {
    panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|payload| Answer::Crashed {
        message: format!(
            "the implementation panicked: {}",
            panic_message(payload.as_ref())
        ),
    })
}

/// The text a panic was raised with.
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Reads the member `error` of a result.
fn read_error(error: Option<&Value>) -> Answer {
    let class = match error.and_then(|error| error.get("class")) {
        None | Some(Value::Null) => None,
        Some(Value::String(class)) => Some(class.clone()),
        Some(other) => {
            return violation(format!(
                "error.class must be a string or null, got {}",
                excerpt(other)
            ));
        }
    };
    let chunk = match error.and_then(|error| error.get("chunk")) {
        None | Some(Value::Null) => None,
        Some(value @ Value::Array(coords)) if coords.len() <= MAX_CHUNK_RANK => {
            match coords
                .iter()
                .map(Value::as_u64)
                .collect::<Option<Vec<u64>>>()
            {
                Some(coords) => Some(coords),
                None => return chunk_violation(value),
            }
        }
        Some(other) => return chunk_violation(other),
    };
    match inner(error, "error", "message") {
        Ok(Some(message)) => Answer::Error {
            class,
            message,
            chunk,
        },
        Ok(None) => violation("an error result needs a message, a string".into()),
        Err(message) => violation(message),
    }
}

/// The string member `name` of the object `outer` (called `kind`); `Ok(None)`
/// when absent.
///
/// # Errors
/// When `outer` is not an object or the member is not a string: what was wrong.
fn inner(outer: Option<&Value>, kind: &str, name: &str) -> Result<Option<String>, String> {
    let Some(object) = outer.and_then(Value::as_object) else {
        return Err(format!(
            "{kind} must be an object, got {}",
            outer.map_or_else(|| "nothing".into(), excerpt)
        ));
    };
    match object.get(name) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(format!(
            "{kind}.{name} must be a string, got {}",
            excerpt(other)
        )),
    }
}

/// The longest `error.chunk` read: a grid has one coordinate per dimension of
/// the array, and the suite's readers take ranks of at most 256 (reading I-10).
pub const MAX_CHUNK_RANK: usize = 256;

fn chunk_violation(chunk: &Value) -> Answer {
    violation(format!(
        "error.chunk must be a list of at most {MAX_CHUNK_RANK} unsigned 64-bit integers, got {}",
        excerpt(chunk)
    ))
}

/// A protocol violation in a result.
fn violation(what: String) -> Answer {
    Answer::Errored {
        message: format!("protocol violation: {what}"),
    }
}

// Here, not in `adapter::protocol`, so that answers do not depend on the adapter.
/// The start of a JSON value's text, for messages.
pub(crate) fn excerpt(value: &Value) -> String {
    excerpt_bytes(value.to_string().as_bytes())
}

/// The start of a line (lossy UTF-8), for messages.
pub(crate) fn excerpt_bytes(bytes: &[u8]) -> String {
    const SHOWN: usize = 200;
    match bytes.get(..SHOWN) {
        Some(start) if bytes.len() > SHOWN => {
            format!(
                "{}... ({} bytes)",
                String::from_utf8_lossy(start),
                bytes.len()
            )
        }
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}
