//! A conformance adapter (protocol version 2) for the `reshape` codec of zarrs 0.23.14.
//!
//! It reads one JSON request per line on stdin and answers one per line on stdout
//! (see `conformance/PROTOCOL.md`). Every case is answered by zarrs' own public API:
//! the codec is built from its metadata as zarrs builds it when it opens an array,
//! and driven through zarrs' array-to-array codec interface and partial decoder.

mod answer;
mod array;
mod case;
mod chain;
mod codec;
mod grid;
#[cfg(test)]
mod grid_tests;
mod panics;
mod probe;
mod rawjson;
mod read;
mod write;

use std::io::{BufRead, Write};

use serde_json::{Value, json};

use crate::answer::Answer;

/// The operations this adapter answers.
const OPERATIONS: [&str; 8] = [
    "resolve",
    "encode",
    "decode",
    "map-index",
    "map-region",
    "read-array",
    "resolve-chain",
    "resolve-grid",
];

fn main() {
    // `write-arrays OUT_DIR`: arrays written by zarrs, for other readers (src/write.rs).
    let args: Vec<String> = std::env::args().collect();
    if let Some(command) = args.get(1) {
        let result = match (command.as_str(), args.get(2)) {
            ("write-arrays", Some(out)) if args.len() == 3 => write::main(out.as_ref()),
            _ => Err("usage: zarrs-reshape-adapter [write-arrays OUT_DIR]".to_string()),
        };
        if let Err(error) = result {
            eprintln!("zarrs-reshape-adapter: {error}");
            std::process::exit(2);
        }
        return;
    }
    panics::install_hook();
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&line) {
            Ok(message) => match message.get("cmd").and_then(Value::as_str) {
                Some("start") => Some(start(&message)),
                Some("run") => Some(run(&message, &line)),
                Some("stop") => break,
                _ => None,
            },
            // serde_json, which zarrs reads metadata with, refuses numbers beyond a
            // double (`1e400`): zarrs would refuse such a zarr.json, so answer that.
            Err(error) => match rawjson::Raw::parse(&line) {
                Ok(raw) if raw.get("cmd") == Some(&rawjson::Raw::String("run".into())) => {
                    let seq = match raw.get("seq") {
                        Some(rawjson::Raw::Number(text)) => {
                            text.parse::<u64>().map_or(Value::Null, Value::from)
                        }
                        _ => Value::Null,
                    };
                    let message = format!(
                        "serde_json, which zarrs reads metadata with, refuses the case: {error}"
                    );
                    Some(
                        json!({"seq": seq, "result": {"error": {"class": null, "message": message}}}),
                    )
                }
                _ => {
                    eprintln!("adapter: a line that is not JSON ({error})");
                    None
                }
            },
        };
        if let Some(reply) = reply {
            // One line, flushed: the runner waits for it.
            if writeln!(stdout, "{reply}")
                .and_then(|()| stdout.flush())
                .is_err()
            {
                break;
            }
        }
    }
}

/// The answer to `start`: who we are, or why we cannot serve.
fn start(message: &Value) -> Value {
    if message.get("protocol").and_then(Value::as_u64) != Some(2) {
        return json!({"ok": false, "error": "this adapter speaks protocol version 2 only"});
    }
    let build = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    json!({
        "ok": true,
        "implementation": {
            "name": "zarrs",
            "version": "0.23.14",
            "language": format!("rust ({build} build)"),
        },
        "operations": OPERATIONS,
    })
}

/// The answer to `run`, with the request's `seq`.
fn run(message: &Value, line: &str) -> Value {
    let seq = message.get("seq").cloned().unwrap_or(Value::Null);
    let answer = match message.get("case") {
        Some(case) => case::run(case, line),
        None => Answer::Errored("the run message has no case".into()),
    };
    json!({"seq": seq, "result": answer.into_json()})
}
