//! What an implementation answered for one case: the `result` object of the
//! adapter protocol (version 1, `conformance/PROTOCOL.md`).

use serde_json::{Map, Value, json};

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
    },
    /// The implementation does not support the case.
    Skipped {
        /// Why.
        reason: String,
    },
    /// The adapter itself failed (crash, timeout, garbage, protocol fault).
    Errored {
        /// What happened.
        message: String,
    },
}

impl Answer {
    /// The protocol's JSON form of the answer.
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            Self::Output(output) => Value::Object(output.clone()),
            Self::Error { class, message } => {
                json!({"error": {"class": class, "message": message}})
            }
            Self::Skipped { reason } => json!({"skipped": {"reason": reason}}),
            Self::Errored { message } => json!({"errored": {"message": message}}),
        }
    }

    /// Reads the protocol's JSON form; anything else is `Errored`, saying why.
    #[must_use]
    pub fn from_json(value: &Value) -> Self {
        let Some(object) = value.as_object() else {
            return Self::Errored {
                message: format!("a result must be a JSON object, got {value}"),
            };
        };
        let text = |outer: &str, inner: &str| {
            object
                .get(outer)
                .and_then(|o| o.get(inner))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        if object.contains_key("error") {
            let class = text("error", "class");
            return match text("error", "message") {
                Some(message) => Self::Error { class, message },
                None => Self::Errored {
                    message: format!("an error result needs a message: {value}"),
                },
            };
        }
        if object.contains_key("skipped") {
            return Self::Skipped {
                reason: text("skipped", "reason").unwrap_or_default(),
            };
        }
        if object.contains_key("errored") {
            return Self::Errored {
                message: text("errored", "message").unwrap_or_default(),
            };
        }
        Self::Output(object.clone())
    }
}
