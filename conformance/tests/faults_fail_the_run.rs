//! A crash, an errored case and a protocol violation are never a pass: through the
//! `zarr-reshape run` binary, a fake adapter (`tests/fake_adapters/fake_adapter.py`)
//! that crashes, hangs, dies or violates the protocol on a case that expects an
//! error, at level `should` or `interpretation`, makes the run exit 1. Listing the
//! case with that exact outcome makes it exit 0; listing it with another outcome
//! does not. And an adapter that speaks only protocol 1 is still run, its reports
//! saying so.

// The helpers below are test code too: clippy.toml's allowances reach only
// `#[test]` functions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Scratch;
use serde_json::Value;

/// A real vector: an error-expected case of level `interpretation`.
const INTERPRETATION_CASE: &str = "configuration.members/codec-must-understand-string";

fn spec_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases")
}

/// The vector file of `id` in the shipped suite.
fn vector_file(id: &str) -> PathBuf {
    spec_cases().join(format!("{id}.json"))
}

/// The same case at level `should`, written to `folder` (the suite has no
/// error-expected `should` case; the judgement must not depend on that).
fn should_level_copy(folder: &Path) -> PathBuf {
    let text = std::fs::read_to_string(vector_file(INTERPRETATION_CASE)).unwrap();
    let mut file: Value = serde_json::from_str(&text).unwrap();
    let case = file.pointer_mut("/cases/0").unwrap();
    assert!(
        case["expect"].get("error").is_some(),
        "an error-expected case"
    );
    case["level"] = "should".into();
    let path = folder.join("should-level.json");
    std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    path
}

/// The fake adapter's command line, for `--adapter`.
fn fake(arguments: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_adapters/fake_adapter.py");
    let mut words = vec!["python3".to_string(), script.display().to_string()];
    words.extend(arguments.iter().map(ToString::to_string));
    words
        .iter()
        .map(|word| shlex::try_quote(word).unwrap().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// An expectations file listing `INTERPRETATION_CASE` with `outcome` (none: the
/// default, `fail`).
fn listing(folder: &Path, name: &str, outcome: Option<&str>) -> PathBuf {
    let outcome = outcome.map_or(String::new(), |o| format!("outcome = \"{o}\"\n"));
    let text = format!(
        "[[failure]]\nids = [\"{INTERPRETATION_CASE}\"]\nclause = \"configuration.members\"\n\
         reason = \"a known fault of the fake\"\n{outcome}"
    );
    let path = folder.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the one case of `cases` through the fake adapter; returns the exit code
/// and the printed summary.
fn run(cases: &Path, adapter: &[&str], expectations: Option<&Path>) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_zarr-reshape"));
    command
        .arg("run")
        .arg("--adapter")
        .arg(fake(adapter))
        .arg("--cases")
        .arg(cases)
        .args(["--timeout", "500"])
        // One case of level should or interpretation: no MUST case runs, which
        // would fail the run by itself.
        .arg("--allow-no-must");
    if let Some(path) = expectations {
        command.arg("--expectations").arg(path);
    }
    let output = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    (
        output.status.code().unwrap_or(-1),
        format!("{stdout}{stderr}"),
    )
}

/// Each fault, with the outcome it ends in.
const FAULTS: [(&[&str], &str); 4] = [
    (&["crashed", "1"], "crash"),
    (&["hang", "1"], "error"),
    (&["crash", "1", "exit"], "error"),
    (&["violate", "1"], "error"),
];

#[test]
fn a_fault_on_an_error_expected_case_fails_the_run_at_every_level() {
    if !python_available() {
        return;
    }
    let scratch = Scratch::new("faults-every-level");
    let levels = [
        ("interpretation", vector_file(INTERPRETATION_CASE)),
        ("should", should_level_copy(&scratch.0)),
    ];
    for (level, cases) in &levels {
        let (code, summary) = run(cases, &["echo"], None);
        assert_eq!(
            code, 0,
            "a well-behaved adapter passes ({level}):\n{summary}"
        );
        for (fault, outcome) in FAULTS {
            let (code, summary) = run(cases, fault, None);
            assert_eq!(code, 1, "{fault:?} at level {level}:\n{summary}");
            let marker = format!("{} {INTERPRETATION_CASE} [{level}]", outcome.to_uppercase());
            assert!(summary.contains(&marker), "{fault:?}: {marker}\n{summary}");
            assert!(summary.contains("break the run"), "{summary}");
        }
    }
}

#[test]
fn listing_the_exact_outcome_excuses_a_fault_and_another_outcome_does_not() {
    if !python_available() {
        return;
    }
    let scratch = Scratch::new("faults-listed");
    let cases = vector_file(INTERPRETATION_CASE);
    let as_listed = |outcome: Option<&str>| listing(&scratch.0, outcome.unwrap_or("fail"), outcome);
    for (fault, outcome) in FAULTS {
        let exact = as_listed(Some(outcome));
        let (code, summary) = run(&cases, fault, Some(&exact));
        assert_eq!(code, 0, "{fault:?} listed as {outcome}:\n{summary}");
        // Nothing breaks the run; its one case is not a MUST case, so it passes
        // only as --allow-no-must asked, and says so.
        assert!(
            summary.contains("PASSED, as --allow-no-must asked, though no MUST case ran"),
            "{summary}"
        );
        assert!(
            summary.contains(&format!("[{outcome}]: a known fault")),
            "{summary}"
        );

        let others = ["fail", "error", "crash"]
            .into_iter()
            .filter(|o| *o != outcome);
        for other in others {
            let wrong = as_listed(Some(other));
            let (code, summary) = run(&cases, fault, Some(&wrong));
            assert_eq!(code, 1, "{fault:?} listed as {other}:\n{summary}");
            assert!(
                summary.contains(&format!("listed:   as {other} in the expectations file")),
                "{summary}"
            );
        }
    }
    // No outcome given means `fail`: it excuses a wrong answer, never a crash.
    let default = listing(&scratch.0, "default", None);
    let (code, summary) = run(&cases, &["crashed", "1"], Some(&default));
    assert_eq!(code, 1, "{summary}");
    // A listed case that passes is stale, whatever its outcome.
    let crash = as_listed(Some("crash"));
    let (code, summary) = run(&cases, &["echo"], Some(&crash));
    assert_eq!(code, 1, "{summary}");
    assert!(summary.contains("Unexpected passes (1)"), "{summary}");
}

#[test]
fn an_outcome_the_expectations_format_does_not_know_is_refused() {
    let scratch = Scratch::new("faults-unknown-outcome");
    let path = listing(&scratch.0, "unknown", Some("panic"));
    let (code, summary) = run(&vector_file(INTERPRETATION_CASE), &["echo"], Some(&path));
    assert_eq!(code, 2, "{summary}");
    assert!(summary.contains("panic"), "{summary}");
}

#[test]
fn an_adapter_that_refuses_protocol_two_is_run_in_protocol_one_and_the_reports_say_so() {
    if !python_available() {
        return;
    }
    let scratch = Scratch::new("faults-protocol-one");
    let jsonl = scratch.0.join("report.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
        .arg("run")
        .arg("--adapter")
        .arg(fake(&["v1-only"]))
        .arg("--cases")
        .arg(vector_file(INTERPRETATION_CASE))
        .arg("--report")
        .arg(format!("jsonl={}", jsonl.display()))
        .arg("--allow-no-must")
        .output()
        .unwrap();
    let summary = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{summary}");
    assert!(
        summary.contains("The adapter speaks protocol 1, which has no crashed result"),
        "{summary}"
    );
    let header: Value = serde_json::from_str(
        std::fs::read_to_string(&jsonl)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(header["implementation"]["protocol"], 1);

    // Refused in both versions: the run cannot start, and says both reasons.
    let (code, summary) = run(&vector_file(INTERPRETATION_CASE), &["refuse-start"], None);
    assert_eq!(code, 2, "{summary}");
    assert!(
        summary.contains("(protocol 2): fake: protocol not supported"),
        "{summary}"
    );
    assert!(
        summary.contains("(protocol 1): fake: protocol not supported"),
        "{summary}"
    );
}

fn python_available() -> bool {
    let found = Command::new("python3").arg("--version").output().is_ok();
    if !found {
        println!("note: python3 is not on the PATH; the fake adapter is not run");
    }
    found
}
