//! PROTOCOL.md's table of error classes gives an example per class, so that an
//! adapter can be written from that page alone. Each `resolve` example there is
//! sent to the reference's adapter process, which must answer an error of the
//! class on the same row: the page cannot drift from what the reference does.
// A test fails by panicking, helpers included; clippy.toml allows this in #[test]
// functions only.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// The rows of the "Error classes" table: (class, example column).
fn class_rows() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("PROTOCOL.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let table = text
        .split("## Error classes")
        .nth(1)
        .expect("PROTOCOL.md has an \"Error classes\" section");
    table
        .lines()
        .skip_while(|line| !line.starts_with("| class |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split(" | ").collect();
            let class = cells[0].trim_start_matches("| ").trim_matches('`');
            let example = cells.last().unwrap().trim_end_matches(" |");
            (class.to_owned(), example.to_owned())
        })
        .collect()
}

/// `` `{"shape": ...}` on `[2, 3]` `` as (configuration, decoded shape); `None` for
/// the examples of other operations, written in words.
fn resolve_example(example: &str) -> Option<(Value, Value)> {
    let (configuration, decoded) = example.split_once("` on `")?;
    let configuration = serde_json::from_str(configuration.strip_prefix('`')?).ok()?;
    let decoded = serde_json::from_str(decoded.strip_suffix('`')?).ok()?;
    Some((configuration, decoded))
}

#[test]
fn every_resolve_example_of_an_error_class_gets_that_class_from_the_reference() {
    let rows = class_rows();
    assert_eq!(rows.len(), 10, "one row per error class: {rows:?}");
    let examples: Vec<(String, Value, Value)> = rows
        .iter()
        .filter_map(|(class, example)| resolve_example(example).map(|(c, d)| (class.clone(), c, d)))
        .collect();
    assert!(examples.len() >= 8, "the resolve examples: {examples:?}");

    let mut input = json!({"cmd": "start", "protocol": 2}).to_string() + "\n";
    for (seq, (class, configuration, decoded_shape)) in examples.iter().enumerate() {
        let case = json!({
            "id": format!("protocol-md/{class}"), "description": "PROTOCOL.md's example",
            "clauses": ["codec.name"], "level": "must", "operation": "resolve",
            "configuration": configuration, "decoded_shape": decoded_shape,
            "expect": {"error": class},
        });
        input += &(json!({"cmd": "run", "seq": seq + 1, "case": case}).to_string() + "\n");
    }
    input += "{\"cmd\": \"stop\"}\n";

    let mut child = Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
        .arg("adapter")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), examples.len());
    for ((class, configuration, decoded_shape), answer) in examples.iter().zip(&answers) {
        assert_eq!(
            answer["result"]["error"]["class"], *class,
            "PROTOCOL.md's example {configuration} on {decoded_shape}: {answer}"
        );
    }
}
