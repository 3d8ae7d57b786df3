//! The five kinds of result of the protocol (version 2).

use serde_json::{Value, json};

/// What the adapter answers for one case.
#[derive(Debug)]
pub enum Answer {
    /// zarrs succeeded: the operation's output members.
    Output(Value),
    /// zarrs reported an error: its own text. zarrs has no error classes, so
    /// `class` is always `null`.
    Error(String),
    /// `resolve-grid`: zarrs refused the chunk at these grid coordinates.
    ErrorAt(String, Vec<u64>),
    /// zarrs panicked: the panic's message, where it was raised, and the innermost
    /// zarrs frame. A panic is not a rejection of the input.
    Crashed(String),
    /// zarrs has no API for this request; the reason says why.
    Skipped(String),
    /// The adapter itself failed (a malformed request); no answer of zarrs.
    Errored(String),
}

impl Answer {
    /// The protocol's `result` member.
    pub fn into_json(self) -> Value {
        match self {
            Self::Output(output) => output,
            Self::Error(message) => json!({"error": {"class": null, "message": message}}),
            Self::ErrorAt(message, chunk) => {
                json!({"error": {"class": null, "message": message, "chunk": chunk}})
            }
            Self::Skipped(reason) => json!({"skipped": {"reason": reason}}),
            Self::Errored(message) => json!({"errored": {"message": message}}),
            Self::Crashed(message) => json!({"crashed": {"message": message}}),
        }
    }
}

/// `Result<T, Answer>` lets each step end the case early with its answer.
pub type Step<T> = Result<T, Answer>;
