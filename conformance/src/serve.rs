//! The embedded reference served over the adapter protocol (versions 2 and 1,
//! `conformance/PROTOCOL.md`): what `zarr-reshape adapter` runs, and a worked
//! example of an adapter for implementers.

use std::io::{self, BufRead, Write};

use serde_json::{Value, json};

use crate::adapter::protocol;
use crate::adapter::{LineRead, read_line, skip_line};
use crate::answer::{Answer, catch_panic};
use crate::reference;
use crate::vector;
use crate::wire::{ALL_OPERATIONS, MAX_LINE_BYTES, OLDEST_PROTOCOL, PROTOCOL_VERSION};

/// Serves the reference: reads requests from `input`, one JSON object per line, and
/// writes one answer line to `output` per request, flushed at once.
///
/// - `start`: `{"ok": true, "implementation": {...}, "operations": [...]}` for
///   protocol version 2 or 1, or `{"ok": false, "error": ...}` for another;
/// - `run`: `{"seq": n, "result": ...}`, the result of [`reference::run`], or an
///   `errored` result when the case cannot be read. A panic of the reference (a
///   bug) is answered `crashed` (`errored` after a version 1 `start`, which has
///   no `crashed`) and serving goes on;
/// - `stop`, or the end of `input`: returns;
/// - a line that is not a request (not JSON, too long, an unknown command):
///   `{"seq": null, "result": {"errored": {"message": ...}}}` (the request's seq
///   when it has one), and serving goes on. Blank lines are ignored.
///
/// Input lines are bounded by [`MAX_LINE_BYTES`]: memory stays bounded whatever the
/// peer sends. So are answer lines: one that would be longer is sent as `errored`
/// with a null seq (the reference already declines answers beyond
/// [`reference::MAX_ANSWER_BYTES`]).
///
/// # Errors
/// When reading `input` or writing `output` fails.
pub fn serve(input: impl BufRead, output: impl Write) -> io::Result<()> {
    serve_bounded(input, output, MAX_LINE_BYTES, MAX_LINE_BYTES)
}

/// [`serve`], with request lines of at most `max_line_bytes` and answer lines of
/// at most `max_answer_bytes` (newlines not counted).
fn serve_bounded(
    mut input: impl BufRead,
    mut output: impl Write,
    max_line_bytes: usize,
    max_answer_bytes: usize,
) -> io::Result<()> {
    // The version of the last accepted `start`.
    let mut version = PROTOCOL_VERSION;
    loop {
        let answer = match read_line(&mut input, max_line_bytes)? {
            LineRead::Eof => return Ok(()),
            LineRead::TooLong => {
                skip_line(&mut input)?;
                errored(
                    Value::Null,
                    format!("a request line longer than {max_line_bytes} bytes"),
                )
            }
            LineRead::Line(line) => {
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match respond(&line, &mut version) {
                    Some(answer) => answer,
                    None => return Ok(()),
                }
            }
        };
        let mut line = protocol::line(&answer);
        // The reader of this line takes at most `max_line_bytes` (the newline not
        // counted): a longer answer (a long echoed seq) is errored instead.
        if line.len() > max_answer_bytes.saturating_add(1) {
            line = protocol::line(&errored(
                Value::Null,
                format!("the answer would be a line longer than {max_answer_bytes} bytes"),
            ));
        }
        output.write_all(&line)?;
        output.flush()?;
    }
}

/// The answer to one request line; `None` for `stop`. A `start` it accepts sets
/// `version`.
fn respond(line: &[u8], version: &mut u64) -> Option<Value> {
    // As deep as a record may be: a rank-256 case, not serde_json's 128.
    let request: Value =
        match crate::input_file::parse_json(line, crate::input_file::MAX_RECORD_DEPTH) {
            Ok(request) => request,
            Err(error) => {
                return Some(errored(
                    Value::Null,
                    format!(
                        "the request is not JSON ({error}): {}",
                        protocol::excerpt_bytes(line)
                    ),
                ));
            }
        };
    let seq = request.get("seq").cloned().unwrap_or(Value::Null);
    match request.get("cmd").and_then(Value::as_str) {
        Some("start") => Some(start(&request, version)),
        Some("run") => Some(run(seq, request, *version)),
        Some("stop") => None,
        Some(other) => Some(errored(seq, format!("unknown command {other:?}"))),
        None => Some(errored(
            seq,
            format!(
                "a request is a JSON object with a \"cmd\" string: {}",
                protocol::excerpt(&request)
            ),
        )),
    }
}

fn start(request: &Value, version: &mut u64) -> Value {
    match request.get("protocol") {
        Some(offered)
            if offered
                .as_u64()
                .is_some_and(|v| (OLDEST_PROTOCOL..=PROTOCOL_VERSION).contains(&v)) =>
        {
            *version = offered.as_u64().unwrap_or(PROTOCOL_VERSION);
            json!({
                "ok": true,
                "implementation": {
                    "name": "zarr-reshape",
                    "version": env!("CARGO_PKG_VERSION"),
                    "language": "rust",
                },
                "operations": ALL_OPERATIONS,
            })
        }
        other => json!({
            "ok": false,
            "error": format!(
                "protocol {} is not spoken here; this adapter speaks protocols \
                 {OLDEST_PROTOCOL} to {PROTOCOL_VERSION}",
                other.map_or_else(|| "(none given)".to_string(), ToString::to_string)
            ),
        }),
    }
}

/// Answers a run request; the request's JSON is dropped before the case runs, and
/// the output moved into the answer, so that no array is held twice more than needed.
fn run(seq: Value, request: Value, version: u64) -> Value {
    let Some(case) = request.get("case") else {
        return errored(seq, "a run request needs a case".into());
    };
    let case = vector::parse_case(case);
    drop(request);
    match case {
        Ok(case) => {
            let result = match catch_panic(|| reference::run(&case)) {
                Answer::Output(output) => Value::Object(output),
                Answer::Crashed { message } if version < PROTOCOL_VERSION => {
                    Answer::Errored { message }.to_json()
                }
                other => other.to_json(),
            };
            drop(case);
            json!({"seq": seq, "result": result})
        }
        Err((pointer, message)) => errored(
            seq,
            format!("the case cannot be read at \"{pointer}\": {message}"),
        ),
    }
}

fn errored(seq: Value, message: String) -> Value {
    json!({"seq": seq, "result": Answer::Errored { message }.to_json()})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serves `requests` (one per line) and returns the answers, parsed.
    fn answers(requests: &str, max_line_bytes: usize) -> Vec<Value> {
        answers_within(requests, max_line_bytes, MAX_LINE_BYTES)
    }

    /// As `answers`, with answer lines of at most `max_answer_bytes`.
    fn answers_within(
        requests: &str,
        max_line_bytes: usize,
        max_answer_bytes: usize,
    ) -> Vec<Value> {
        let mut output = Vec::new();
        serve_bounded(
            requests.as_bytes(),
            &mut output,
            max_line_bytes,
            max_answer_bytes,
        )
        .unwrap();
        String::from_utf8(output)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    const CASE: &str = r#"{"id": "x/y", "description": "d", "clauses": ["shape.size"], "level": "must", "operation": "resolve", "configuration": {"shape": [[0, 1], -1]}, "decoded_shape": [2, 3, 4], "expect": {"encoded_shape": [6, 4]}}"#;

    #[test]
    fn start_announces_the_reference_and_every_operation() {
        let got = answers("{\"cmd\": \"start\", \"protocol\": 2}\n", 1000);
        assert_eq!(got[0]["ok"], true);
        assert_eq!(got[0]["implementation"]["name"], "zarr-reshape");
        assert_eq!(
            got[0]["implementation"]["version"],
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(got[0]["operations"], json!(ALL_OPERATIONS));
    }

    #[test]
    fn start_accepts_protocol_version_one_too() {
        let got = answers("{\"cmd\": \"start\", \"protocol\": 1}\n", 1000);
        assert_eq!(got[0]["ok"], true);
    }

    #[test]
    fn start_refuses_another_protocol_version() {
        for other in ["3", "0", "\"2\""] {
            let got = answers(
                &format!("{{\"cmd\": \"start\", \"protocol\": {other}}}\n"),
                1000,
            );
            assert_eq!(got[0]["ok"], false, "{other}");
            assert!(got[0]["error"].as_str().unwrap().contains(other), "{other}");
        }
    }

    #[test]
    fn run_answers_with_the_reference_and_the_seq() {
        let requests = format!("{{\"cmd\": \"run\", \"seq\": 7, \"case\": {CASE}}}\n");
        let got = answers(&requests, 1000);
        assert_eq!(
            got,
            [json!({"seq": 7, "result": {"encoded_shape": [6, 4]}})]
        );
    }

    #[test]
    fn a_case_that_cannot_be_read_is_errored_with_its_seq() {
        let got = answers(
            "{\"cmd\": \"run\", \"seq\": 3, \"case\": {\"id\": 1}}\n",
            1000,
        );
        assert_eq!(got[0]["seq"], 3);
        assert!(got[0]["result"]["errored"]["message"].is_string());
    }

    #[test]
    fn garbage_and_long_lines_are_errored_and_serving_goes_on() {
        let long = "x".repeat(50);
        let requests = format!(
            "not json\n{long}\n\n{{\"cmd\": \"jump\", \"seq\": 4}}\n{{\"cmd\": \"run\", \"seq\": 5, \"case\": {CASE}}}\n"
        );
        let got = answers(&requests, 40);
        // The case line is longer than 40 bytes too.
        assert_eq!(got.len(), 4);
        assert_eq!(got[0]["seq"], Value::Null);
        assert!(
            got[1]["result"]["errored"]["message"]
                .as_str()
                .unwrap()
                .contains("longer than 40")
        );
        assert_eq!(got[2]["seq"], 4);
        assert_eq!(got[3]["seq"], Value::Null);
        let got = answers(&requests, 1000);
        assert_eq!(
            got[3],
            json!({"seq": 5, "result": {"encoded_shape": [6, 4]}})
        );
    }

    #[test]
    fn an_answer_longer_than_the_line_limit_is_errored_instead() {
        // Eight elements encoded into [8, 1, ..., 1]: each wrapped in 100 lists.
        let ones = vec!["1"; 100].join(", ");
        let case = format!(
            r#"{{"id": "x/y", "description": "d", "clauses": ["algorithm.ravel"], "level": "must", "operation": "encode", "configuration": {{"shape": [-1, {ones}]}}, "decoded_shape": [8], "input": {{"data_type": "uint8", "shape": [8], "data": [0, 0, 0, 0, 0, 0, 0, 0]}}, "expect": {{"shape": [], "data": []}}}}"#
        );
        let requests = format!("{{\"cmd\": \"run\", \"seq\": 1, \"case\": {case}}}\n");
        assert!(requests.len() < 1000);
        let got = answers_within(&requests, 1000, 1000);
        assert_eq!(got[0]["seq"], Value::Null);
        assert!(
            got[0]["result"]["errored"]["message"]
                .as_str()
                .unwrap()
                .contains("longer than 1000 bytes")
        );
        // With room for it, the answer is sent.
        let got = answers_within(&requests, 1000, 4000);
        assert_eq!(got[0]["seq"], 1);
        assert_eq!(got[0]["result"]["shape"][0], 8);
    }

    #[test]
    fn stop_ends_serving_before_the_next_request() {
        let got = answers(
            "{\"cmd\": \"stop\"}\n{\"cmd\": \"start\", \"protocol\": 1}\n",
            1000,
        );
        assert!(got.is_empty());
    }
}
