//! What an implementation answers for one case: the `result` of the adapter
//! protocol (`conformance/PROTOCOL.md`), in process.

use serde_json::value::RawValue;

use crate::json::Json;

/// An implementation's answer to one case.
#[derive(Debug, Clone)]
pub enum Answer {
    /// The operation's output, a JSON object such as `{"encoded_shape": [5000, 64, 3]}`,
    /// kept as text so that no number is rounded. [`Answer::output`] builds it from a
    /// `serde_json::Value`, [`Answer::output_text`] from text.
    Output(Box<RawValue>),
    /// The implementation refused the case.
    Error {
        /// The error class (`spec-cases/README.md`), when the implementation can name
        /// one; `None` passes any expected error, as in the runner.
        class: Option<String>,
        /// Its message, for people.
        message: String,
    },
    /// The implementation does not support the case: the trial is shown as ignored.
    Skipped {
        /// Why.
        reason: String,
    },
    /// The implementation could not answer (a fault of its own, not a refusal):
    /// the trial fails, as a panic does.
    Errored {
        /// What happened.
        message: String,
    },
}

impl Answer {
    /// An output built with `serde_json::json!` or any `Value`.
    ///
    /// ```
    /// use zarr_reshape_harness::Answer;
    /// let answer = Answer::output(&serde_json::json!({"encoded_shape": [6, 4]}));
    /// assert_eq!(answer.to_json_text(), r#"{"encoded_shape":[6,4]}"#);
    /// ```
    #[must_use]
    pub fn output(value: &serde_json::Value) -> Self {
        match serde_json::value::to_raw_value(value) {
            Ok(raw) => Self::Output(raw),
            Err(error) => Self::Errored {
                message: format!("the output could not be written as JSON: {error}"),
            },
        }
    }

    /// An output given as JSON text, for numbers a `Value` cannot hold.
    ///
    /// ```
    /// use zarr_reshape_harness::Answer;
    /// let answer = Answer::output_text(r#"{"encoded_shape": [18446744073709551616]}"#.into());
    /// assert!(matches!(answer, Answer::Output(_)));
    /// assert!(matches!(Answer::output_text("{".into()), Answer::Errored { .. }));
    /// ```
    #[must_use]
    pub fn output_text(text: String) -> Self {
        match RawValue::from_string(text) {
            Ok(raw) => Self::Output(raw),
            Err(error) => Self::Errored {
                message: format!("the output is not JSON: {error}"),
            },
        }
    }

    /// An error of the given class.
    #[must_use]
    pub fn error(class: &str, message: impl Into<String>) -> Self {
        Self::Error {
            class: Some(class.to_string()),
            message: message.into(),
        }
    }

    /// A skip, with why.
    #[must_use]
    pub fn skipped(reason: impl Into<String>) -> Self {
        Self::Skipped {
            reason: reason.into(),
        }
    }

    /// The protocol's JSON form of the answer, compact.
    #[must_use]
    pub fn to_json_text(&self) -> String {
        let quoted = |text: &str| Json::String(text.to_string()).to_string();
        match self {
            Self::Output(raw) => Json::parse(raw.get())
                .map_or_else(|_| raw.get().to_string(), |json| json.to_string()),
            Self::Error { class, message } => format!(
                r#"{{"error":{{"class":{},"message":{}}}}}"#,
                class.as_deref().map_or_else(|| "null".into(), quoted),
                quoted(message)
            ),
            Self::Skipped { reason } => format!(r#"{{"skipped":{{"reason":{}}}}}"#, quoted(reason)),
            Self::Errored { message } => {
                format!(r#"{{"errored":{{"message":{}}}}}"#, quoted(message))
            }
        }
    }
}
