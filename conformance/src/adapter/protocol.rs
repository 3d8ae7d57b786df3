//! The messages of the adapter protocol (version 2, `conformance/PROTOCOL.md`):
//! requests as lines, and the `start` answer read into [`ImplementationInfo`].

use serde_json::{Value, json};

pub(crate) use crate::answer::{excerpt, excerpt_bytes};
use crate::run::ImplementationInfo;
use crate::wire::OPERATIONS;

/// `value` as one protocol line: compact JSON (strings escape their newlines) and
/// a newline.
pub(crate) fn line(value: &Value) -> Vec<u8> {
    let mut bytes = value.to_string().into_bytes();
    bytes.push(b'\n');
    bytes
}

/// `{"cmd": "start", "protocol": version}`.
pub(crate) fn start_request(version: u64) -> Vec<u8> {
    line(&json!({"cmd": "start", "protocol": version}))
}

/// Why `start` did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StartFailure {
    /// The adapter answered `"ok": false`, with this text: it may speak an older
    /// protocol version.
    Refused(String),
    /// Anything else: no answer, a malformed one, an exit.
    Other(String),
}

impl StartFailure {
    /// What went wrong, for people.
    pub(crate) fn into_text(self) -> String {
        match self {
            Self::Refused(text) | Self::Other(text) => text,
        }
    }
}

/// `{"cmd": "run", "seq": n, "case": ...}`, the case object as written.
pub(crate) fn run_request(seq: u64, case: &Value) -> Vec<u8> {
    line(&json!({"cmd": "run", "seq": seq, "case": case}))
}

/// `{"cmd": "stop"}`.
pub(crate) fn stop_request() -> Vec<u8> {
    line(&json!({"cmd": "stop"}))
}

/// Reads the answer to a `start` that offered `version`.
///
/// # Errors
/// The reason, when the answer is `ok: false` ([`StartFailure::Refused`]) or not
/// of the protocol's form.
pub(crate) fn parse_start(
    answer: &Value,
    version: u64,
) -> Result<ImplementationInfo, StartFailure> {
    if let Some(Value::Bool(false)) = answer.get("ok") {
        let reason = answer
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("no reason given");
        return Err(StartFailure::Refused(format!(
            "the adapter refused to start (protocol {version}): {reason}"
        )));
    }
    read_start(answer, version).map_err(StartFailure::Other)
}

/// Reads an answer to `start` that is not a refusal.
fn read_start(answer: &Value, version: u64) -> Result<ImplementationInfo, String> {
    let object = answer.as_object().ok_or_else(|| {
        format!(
            "the answer to start is not a JSON object: {}",
            excerpt(answer)
        )
    })?;
    if object.get("ok") != Some(&Value::Bool(true)) {
        return Err(format!(
            "the answer to start needs \"ok\": true or false: {}",
            excerpt(answer)
        ));
    }
    let text = |name: &str| -> Result<String, String> {
        object
            .get("implementation")
            .and_then(|implementation| implementation.get(name))
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("the answer to start needs implementation.{name}, a string"))
    };
    let operations = match object.get("operations") {
        None => OPERATIONS.map(String::from).to_vec(),
        Some(listed) => listed
            .as_array()
            .and_then(|items| {
                items
                    .iter()
                    .map(|item| item.as_str().map(str::to_string))
                    .collect::<Option<Vec<String>>>()
            })
            .ok_or_else(|| "operations must be a list of operation names".to_string())?,
    };
    Ok(ImplementationInfo {
        name: text("name")?,
        version: text("version")?,
        language: text("language")?,
        operations,
        protocol: version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{OLDEST_PROTOCOL, PROTOCOL_VERSION};

    #[test]
    fn a_start_answer_without_operations_supports_all_five() {
        let info = parse_start(
            &json!({
                "ok": true,
                "implementation": {"name": "x", "version": "1", "language": "c"}
            }),
            PROTOCOL_VERSION,
        )
        .unwrap();
        assert_eq!(info.operations, OPERATIONS);
        assert_eq!(info.protocol, PROTOCOL_VERSION);
        let info = parse_start(
            &json!({
                "ok": true,
                "implementation": {"name": "x", "version": "1", "language": "c"},
                "operations": ["resolve"]
            }),
            OLDEST_PROTOCOL,
        )
        .unwrap();
        assert_eq!(info.operations, ["resolve"]);
        assert_eq!(info.protocol, OLDEST_PROTOCOL);
    }

    #[test]
    fn a_refusal_or_a_malformed_start_answer_is_an_error() {
        let refusal = parse_start(&json!({"ok": false, "error": "protocol 2 unknown"}), 2);
        assert!(
            matches!(refusal, Err(StartFailure::Refused(text)) if text.contains("protocol 2 unknown"))
        );
        let other = |answer: Value| matches!(parse_start(&answer, 2), Err(StartFailure::Other(_)));
        assert!(other(json!({"ok": true})));
        assert!(other(json!({"ok": "false"})));
        assert!(other(json!([1])));
        assert!(other(json!({
            "ok": true,
            "implementation": {"name": "x", "version": "1", "language": "c"},
            "operations": "resolve"
        })));
    }

    #[test]
    fn excerpts_are_cut_at_two_hundred_bytes() {
        let long = vec![b'a'; 1000];
        assert!(excerpt_bytes(&long).ends_with("... (1000 bytes)"));
        assert_eq!(excerpt_bytes(b"short"), "short");
    }
}
