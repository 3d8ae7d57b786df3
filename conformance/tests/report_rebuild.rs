//! Issue 17: the JSON-lines stream is the one record of a run. For every format,
//! `zarr-reshape report` on a run's JSON-lines file writes the very bytes that
//! `run --report` wrote in the same run: for the in-process reference (two threads,
//! so lines are written out of order) and for a fake adapter whose run has passes,
//! failures, errors, crashes, skips, known failures, an unexpected pass, a case
//! listed with another outcome and a stale expectation.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::Scratch;
use serde_json::Value;

/// The formats `report` renders; jsonl is the input.
const FORMATS: [&str; 5] = ["text", "markdown", "junit", "html", "badge"];

fn runner() -> Command {
    Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
}

fn mixed_adapter() -> String {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/report_fixtures/mixed_adapter.py");
    format!("python3 {}", script.display())
}

const EXPECTATIONS: &str = r#"
[[failure]]
ids = ["input-dims.prefix/gap-between-groups"]
clause = "input-dims.prefix"
reason = "the prefix rule is never checked"
issue_url = "https://github.com/example/example-zarr/issues/1"

[[failure]]
ids = ["limits.u64/auto-product-two-to-the-64"]
clause = "limits.u64"
reason = "the product overflows and panics"
outcome = "crash"

[[failure]]
ids = ["limits.u64/auto-u64-max"]
clause = "limits.u64"
reason = "listed as a wrong answer, but it crashes"

[[failure]]
ids = ["input-dims.prefix/auto-before-group"]
clause = "input-dims.prefix"
reason = "listed, but it passes"

[[failure]]
ids = ["input-dims.prefix/a-case-since-removed"]
clause = "input-dims.prefix"
reason = "listed before the case was renamed"
"#;

/// Runs `run` with every report, then `report` in each format on its JSON lines;
/// returns the run's output and the JSON-lines path.
fn run_with_every_report(dir: &Path, extra: &[&str]) -> (Output, PathBuf) {
    let jsonl = dir.join("run.jsonl");
    let mut command = runner();
    command.arg("run").args(extra);
    command
        .arg("--report")
        .arg(format!("jsonl={}", jsonl.display()));
    for format in FORMATS {
        command
            .arg("--report")
            .arg(format!("{format}={}", dir.join(format).display()));
    }
    let output = command.output().unwrap();
    assert_ne!(
        output.status.code(),
        Some(2),
        "the run could not start: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (output, jsonl)
}

fn assert_rebuilt(dir: &Path, jsonl: &Path) {
    for format in FORMATS {
        let written = std::fs::read(dir.join(format)).unwrap();
        let rebuilt = runner()
            .args(["report", "--format", format])
            .arg(jsonl)
            .output()
            .unwrap();
        assert!(
            rebuilt.status.success(),
            "report --format {format}: {}",
            String::from_utf8_lossy(&rebuilt.stderr)
        );
        assert!(
            rebuilt.stdout == written,
            "report --format {format} differs from what run --report wrote"
        );
        // --out writes the same bytes.
        let out = dir.join(format!("{format}.again"));
        let status = runner()
            .args(["report", "--format", format, "--out"])
            .arg(&out)
            .arg(jsonl)
            .status()
            .unwrap();
        assert!(status.success());
        assert!(std::fs::read(&out).unwrap() == written, "--out {format}");
    }
}

fn lines(jsonl: &Path) -> Vec<Value> {
    std::fs::read_to_string(jsonl)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_reference_run_rebuilds_byte_for_byte() {
    let scratch = Scratch::new("report-rebuild-reference");
    let (output, jsonl) = run_with_every_report(&scratch.0, &["--jobs", "2"]);
    assert!(output.status.success());
    assert_rebuilt(&scratch.0, &jsonl);
    // The printed summary is the text report too.
    let text = std::fs::read(scratch.0.join("text")).unwrap();
    assert!(output.stdout == text);
    let badge: Value =
        serde_json::from_slice(&std::fs::read(scratch.0.join("badge")).unwrap()).unwrap();
    assert_eq!(badge["color"], "brightgreen");
}

#[test]
fn a_run_with_every_outcome_rebuilds_byte_for_byte() {
    let scratch = Scratch::new("report-rebuild-mixed");
    let expectations = scratch.0.join("expectations.toml");
    std::fs::write(&expectations, EXPECTATIONS).unwrap();
    let adapter = mixed_adapter();
    let (output, jsonl) = run_with_every_report(
        &scratch.0,
        &[
            "--adapter",
            &adapter,
            "--expectations",
            expectations.to_str().unwrap(),
            "--cases",
            "input-dims.prefix",
            "limits.u64",
            "codec.name",
            "algorithm.ravel",
            "--jobs",
            "2",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "the run fails");
    assert_rebuilt(&scratch.0, &jsonl);

    // The run has every kind of case the reports tell apart.
    let records = lines(&jsonl);
    let cases: Vec<&Value> = records.iter().filter(|l| l["type"] == "case").collect();
    let outcome_of = |id: &str| {
        cases
            .iter()
            .find(|c| c["id"] == id)
            .map(|c| (c["outcome"].as_str().unwrap(), c["known_outcome"].as_str()))
            .unwrap_or_else(|| panic!("no case {id}"))
    };
    assert_eq!(
        outcome_of("input-dims.prefix/gap-between-groups"),
        ("fail", Some("fail"))
    );
    assert_eq!(
        outcome_of("input-dims.prefix/leading-dim-after-group"),
        ("fail", None)
    );
    assert_eq!(
        outcome_of("limits.u64/auto-product-two-to-the-64"),
        ("crash", Some("crash"))
    );
    assert_eq!(
        outcome_of("limits.u64/auto-u64-max"),
        ("crash", Some("fail"))
    );
    assert_eq!(
        outcome_of("input-dims.prefix/auto-before-group"),
        ("pass", Some("fail"))
    );
    assert_eq!(outcome_of("codec.name/name-capitalised"), ("error", None));
    assert!(cases.iter().any(|c| c["outcome"] == "skip"));
    assert!(
        cases
            .iter()
            .any(|c| c["stderr"].as_str().unwrap().contains("<script>"))
    );
    let footer = records.last().unwrap();
    assert_eq!(
        footer["stale_expectations"][0],
        "input-dims.prefix/a-case-since-removed"
    );
    // Written as cases finished, but indexed in the selection's order.
    let mut indices: Vec<u64> = cases.iter().map(|c| c["index"].as_u64().unwrap()).collect();
    indices.sort_unstable();
    assert_eq!(
        indices,
        (0..u64::try_from(cases.len()).unwrap()).collect::<Vec<_>>()
    );

    let badge: Value =
        serde_json::from_slice(&std::fs::read(scratch.0.join("badge")).unwrap()).unwrap();
    assert_eq!(badge["color"], "red");
    let html = std::fs::read_to_string(scratch.0.join("html")).unwrap();
    assert!(
        !html.contains("<script>"),
        "adapter text reaches the page unescaped"
    );
    assert!(!html.contains("<b>fake</b>"));
}
