//! Command-line readers (`zarr-reshape run --array-path-reader CMD`) under test:
//! a fake reader (a Python 3 script written to a scratch folder, standard library
//! only) prints each fixture's values from the fixture's own `expected.json`,
//! right or wrong in the ways a reader can be; and the reference as a reader
//! (`zarr-reshape read`), which must pass every whole-array case.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::Scratch;
use serde_json::Value;
use zarr_reshape_conformance::reader::{ArrayPathReader, MAX_STDOUT_BYTES};
use zarr_reshape_conformance::run::{Expectations, RunReport, run_suite};
use zarr_reshape_conformance::vector::{self, Case, Expectation, Operation};
use zarr_reshape_conformance::{Answer, ClassCheck, Outcome};

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

/// The fake reader: `fake_reader.py MODE [ARG] --array_path=PATH`.
const FAKE: &str = r#"#!/usr/bin/env python3
from __future__ import annotations
import json, os, pathlib, subprocess, sys, time

def leaves(value: object) -> list[object]:
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]

def main() -> int:
    mode, argument = sys.argv[1], sys.argv[2]
    path = pathlib.Path(sys.argv[-1].removeprefix("--array_path="))
    fixture = json.loads((path / "expected.json").read_text())
    if mode == "abort":
        os.abort()
    if mode == "hang":
        child = subprocess.Popen(["sleep", "60"])
        pathlib.Path(argument).write_text(str(child.pid))
        time.sleep(60)
    if mode == "flood":
        sys.stdout.buffer.write(b"1\n" * (int(argument) // 2 + 1))
        return 0
    if "error" in fixture:
        if mode == "accept-invalid":
            return 0
        print("refused: " + str(path), file=sys.stderr)
        return 3
    values = leaves(fixture["data"])
    if mode == "nested":
        print(json.dumps(fixture["data"]))
        return 0
    if mode == "wrong" and path.name == argument:
        first = values[0]
        values[0] = (not first) if isinstance(first, bool) else first + 1
    if mode == "near" and fixture["data_type"].startswith("float"):
        values = [v + v * 2.0 ** -int(argument) for v in values]
    if mode == "first":
        print(argument)
        values = values[1:]
    for value in values:
        print(json.dumps(value))
    print()
    return 0

sys.exit(main())
"#;

fn python() -> bool {
    Command::new("python3").arg("--version").output().is_ok()
}

/// The read-array cases of the shipped fixtures, in file order.
fn cases() -> Vec<Case> {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases/generated/read-array.json");
    vector::load_file(&file).unwrap()
}

fn whole(case: &Case) -> bool {
    matches!(case.operation, Operation::ReadArray { region: None, .. })
}

fn valid(case: &Case) -> bool {
    matches!(case.expect, Expectation::Output(_))
}

fn data_type(case: &Case) -> &'static str {
    match &case.operation {
        Operation::ReadArray { data_type, .. } => data_type.name(),
        _ => panic!("{} is no read-array case", case.id),
    }
}

fn folder_name(case: &Case) -> String {
    match &case.operation {
        Operation::ReadArray { path, .. } => {
            path.file_name().unwrap().to_string_lossy().into_owned()
        }
        _ => panic!("{} is no read-array case", case.id),
    }
}

struct Fake {
    _scratch: Scratch,
    script: PathBuf,
}

fn fake(name: &str) -> Fake {
    let scratch = Scratch::new(&format!("reader-{name}"));
    let script = scratch.0.join("fake_reader.py");
    std::fs::write(&script, FAKE).unwrap();
    Fake {
        _scratch: scratch,
        script,
    }
}

fn run(fake: &Fake, mode: &[&str], cases: &[Case], timeout: Duration) -> RunReport {
    let mut argv = vec!["python3".to_string(), fake.script.display().to_string()];
    argv.extend(mode.iter().map(ToString::to_string));
    if mode.len() < 2 {
        argv.push("-".into());
    }
    let mut reader = ArrayPathReader::new(argv, "fake".into(), "0".into(), timeout);
    run_suite(
        &mut reader,
        cases,
        &Expectations::default(),
        ClassCheck::WhenNamed,
        |_| true,
    )
}

const TEN_SECONDS: Duration = Duration::from_secs(10);

#[test]
fn a_correct_reader_passes_every_whole_array_case_and_skips_boxes() {
    if !python() {
        eprintln!("SKIPPED: python3 is not on PATH");
        return;
    }
    let fake = fake("correct");
    let cases = cases();
    assert!(cases.iter().any(|c| !whole(c)), "the fixtures have boxes");
    for mode in ["correct", "nested"] {
        let report = run(&fake, &[mode], &cases, TEN_SECONDS);
        for record in &report.records {
            if whole(&record.case) {
                assert_eq!(record.outcome, Outcome::Pass, "{mode}: {}", record.case.id);
            } else {
                assert!(
                    record.outcome.reason().contains("decoded_region"),
                    "{}: {}",
                    record.case.id,
                    record.outcome
                );
                assert_eq!(record.outcome.name(), "skip");
            }
        }
        // A refusal is an error without a class, with the reader's stderr.
        for record in report
            .records
            .iter()
            .filter(|r| whole(&r.case) && !valid(&r.case))
        {
            let Answer::Error {
                class: None,
                message,
                ..
            } = &record.answer
            else {
                panic!("{}: {:?}", record.case.id, record.answer);
            };
            assert!(
                message.contains("exit status 3") && message.contains("refused"),
                "{message}"
            );
            assert!(record.stderr.contains("refused"), "{}", record.stderr);
        }
    }
}

#[test]
fn a_wrong_value_fails_that_case_only() {
    if !python() {
        return eprintln!("SKIPPED: python3 is not on PATH");
    }
    let fake = fake("wrong");
    let cases: Vec<Case> = cases().into_iter().filter(whole).collect();
    // The whole set for the first victim; the others alone (each data type's
    // element is changed in its own way).
    for (n, victim) in cases.iter().filter(|c| valid(c)).enumerate() {
        let name = folder_name(victim);
        let set = if n == 0 {
            cases.clone()
        } else {
            vec![victim.clone()]
        };
        let report = run(&fake, &["wrong", &name], &set, TEN_SECONDS);
        for record in &report.records {
            let want = if record.case.id == victim.id {
                "fail"
            } else {
                "pass"
            };
            assert_eq!(
                record.outcome.name(),
                want,
                "{name}: {} {}",
                record.case.id,
                record.outcome
            );
        }
    }
}

#[test]
fn exit_zero_on_an_invalid_array_fails() {
    if !python() {
        return eprintln!("SKIPPED: python3 is not on PATH");
    }
    let fake = fake("accept");
    let cases: Vec<Case> = cases().into_iter().filter(whole).collect();
    assert!(
        cases.iter().any(|c| !valid(c)),
        "the fixtures have invalid arrays"
    );
    let report = run(&fake, &["accept-invalid"], &cases, TEN_SECONDS);
    for record in &report.records {
        let want = if valid(&record.case) { "pass" } else { "fail" };
        assert_eq!(
            record.outcome.name(),
            want,
            "{} {}",
            record.case.id,
            record.outcome
        );
    }
}

#[test]
fn death_by_a_signal_is_a_crash() {
    if !python() {
        return eprintln!("SKIPPED: python3 is not on PATH");
    }
    let fake = fake("abort");
    let cases: Vec<Case> = cases().into_iter().filter(whole).take(3).collect();
    let report = run(&fake, &["abort"], &cases, TEN_SECONDS);
    for record in &report.records {
        assert_eq!(
            record.outcome.name(),
            "crash",
            "{} {}",
            record.case.id,
            record.outcome
        );
        assert!(
            record.outcome.reason().contains("SIGABRT"),
            "{}",
            record.outcome
        );
    }
}

#[test]
fn a_hang_times_out_and_its_process_group_is_killed() {
    if !python() {
        return eprintln!("SKIPPED: python3 is not on PATH");
    }
    let fake = fake("hang");
    let pid_file = fake.script.with_file_name("child.pid");
    let cases: Vec<Case> = cases().into_iter().filter(whole).take(1).collect();
    let began = Instant::now();
    let report = run(
        &fake,
        &["hang", &pid_file.display().to_string()],
        &cases,
        Duration::from_millis(1500),
    );
    assert!(
        began.elapsed() < Duration::from_secs(10),
        "{:?}",
        began.elapsed()
    );
    let record = &report.records[0];
    assert_eq!(record.outcome.name(), "error", "{}", record.outcome);
    assert!(
        record.outcome.reason().contains("timeout after 1500 ms"),
        "{}",
        record.outcome
    );
    // The reader's own child went with it.
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let stat = Path::new("/proc").join(pid.trim()).join("stat");
    let gone = (0..100).any(|_| {
        let alive = std::fs::read_to_string(&stat).is_ok_and(|s| !s.contains(") Z "));
        if alive {
            std::thread::sleep(Duration::from_millis(20));
        }
        !alive
    });
    assert!(gone, "the reader's child {pid} still runs");
}

#[test]
fn output_beyond_the_bound_is_an_error() {
    if !python() {
        return eprintln!("SKIPPED: python3 is not on PATH");
    }
    let fake = fake("flood");
    let cases: Vec<Case> = cases().into_iter().filter(whole).take(1).collect();
    let report = run(
        &fake,
        &["flood", &MAX_STDOUT_BYTES.to_string()],
        &cases,
        TEN_SECONDS,
    );
    let record = &report.records[0];
    assert_eq!(record.outcome.name(), "error", "{}", record.outcome);
    assert!(
        record.outcome.reason().contains("more than"),
        "{}",
        record.outcome
    );
    // Within the bound, far more values than the array holds are a wrong answer,
    // not read one by one.
    let report = run(&fake, &["flood", "1048576"], &cases, TEN_SECONDS);
    let record = &report.records[0];
    assert_eq!(record.outcome.name(), "fail", "{}", record.outcome);
    let Answer::Output(output) = &record.answer else {
        panic!("{:?}", record.answer)
    };
    let why = output["unreadable_output"].as_str().unwrap();
    assert!(why.contains("values printed"), "{why}");
}

#[test]
fn floats_are_values_of_the_data_type() {
    if !python() {
        return eprintln!("SKIPPED: python3 is not on PATH");
    }
    let fake = fake("floats");
    let cases: Vec<Case> = cases().into_iter().filter(whole).collect();
    let float32: Vec<Case> = cases
        .iter()
        .filter(|c| data_type(c) == "float32")
        .cloned()
        .collect();
    let float64: Vec<Case> = cases
        .iter()
        .filter(|c| data_type(c) == "float64")
        .cloned()
        .collect();
    assert!(
        !float32.is_empty() && !float64.is_empty(),
        "the fixtures have both float types"
    );
    // 2^-30 of a value is below float32's precision: the printed float64 rounds to
    // the fixture's float32; 2^-20 is not, nor is 2^-30 for float64.
    let near = |cases: &[Case], bits: &str| run(&fake, &["near", bits], cases, TEN_SECONDS);
    assert_eq!(near(&float32, "30").records[0].outcome, Outcome::Pass);
    assert_eq!(near(&float32, "20").records[0].outcome.name(), "fail");
    assert_eq!(near(&float64, "30").records[0].outcome.name(), "fail");
}

/// `case` with its first expected element replaced by `value`.
fn with_first(case: &Case, value: Value) -> Case {
    let mut case = case.clone();
    let Expectation::Output(output) = &mut case.expect else {
        panic!("{}", case.id)
    };
    let mut data = output.get_mut("data").unwrap();
    while let Value::Array(items) = data {
        data = items.first_mut().unwrap();
    }
    *data = value;
    case
}

#[test]
fn nan_matches_any_nan_and_zero_keeps_its_sign() {
    if !python() {
        return eprintln!("SKIPPED: python3 is not on PATH");
    }
    let fake = fake("nan");
    for case in cases()
        .iter()
        .filter(|c| whole(c) && data_type(c).starts_with("float"))
    {
        let payload = if data_type(case) == "float32" {
            "0x7fc00001"
        } else {
            "0x7ff8000000000001"
        };
        let nan = [with_first(case, Value::from(payload))];
        let number = [case.clone()];
        let zero = [with_first(case, serde_json::json!(0.0))];
        let outcome = |cases: &[Case], printed: &str| {
            run(&fake, &["first", printed], cases, TEN_SECONDS).records[0]
                .outcome
                .clone()
        };
        assert_eq!(outcome(&nan, "\"NaN\""), Outcome::Pass, "{}", case.id);
        assert_eq!(
            outcome(&nan, "NaN"),
            Outcome::Pass,
            "{}: a bare NaN line",
            case.id
        );
        assert_eq!(outcome(&number, "\"NaN\"").name(), "fail", "{}", case.id);
        assert_eq!(outcome(&zero, "0"), Outcome::Pass, "{}", case.id);
        assert_eq!(
            outcome(&zero, "-0.0").name(),
            "fail",
            "{}: -0 is not +0",
            case.id
        );
        assert_eq!(outcome(&nan, "\"Infinity\"").name(), "fail", "{}", case.id);
    }
}

#[test]
fn the_reference_as_a_reader_passes_every_whole_array_case() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
    let scratch = Scratch::new("reader-reference");
    let jsonl = scratch.0.join("run.jsonl");
    let output = Command::new(BINARY)
        .args([
            "run",
            "--array-path-reader",
            &format!("{BINARY} read"),
            "--cases",
        ])
        .arg(&spec)
        .arg("--report")
        .arg(format!("jsonl={}", jsonl.display()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let whole_ids: Vec<String> = cases()
        .iter()
        .filter(|c| whole(c))
        .map(|c| c.id.clone())
        .collect();
    for id in &whole_ids {
        let record = records
            .iter()
            .find(|r| r["id"] == id.as_str())
            .unwrap_or_else(|| panic!("no record of {id}"));
        assert_eq!(record["outcome"], "pass", "{record}");
    }
    let passed = records.iter().filter(|r| r["outcome"] == "pass").count();
    assert_eq!(passed, whole_ids.len(), "only whole-array cases run");
    assert!(
        text.contains("\"zarr-reshape\""),
        "the reader is named after its command"
    );
}

#[test]
fn read_refuses_an_invalid_array_with_one_line_naming_it() {
    for case in cases().iter().filter(|c| whole(c)) {
        let Operation::ReadArray { path, .. } = &case.operation else {
            unreachable!()
        };
        let output = Command::new(BINARY)
            .arg("read")
            .arg(format!("--array_path={}", path.display()))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        if valid(case) {
            assert!(output.status.success(), "{}: {stderr}", case.id);
            assert!(stderr.is_empty(), "{stderr}");
        } else {
            assert_eq!(output.status.code(), Some(1), "{}", case.id);
            assert!(output.stdout.is_empty());
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains(&path.display().to_string()), "{stderr}");
        }
    }
}

#[test]
fn reader_flags_exclude_the_adapter_and_strict_classes() {
    for extra in [&["--adapter", "x"][..], &["--strict-classes"][..]] {
        let output = Command::new(BINARY)
            .args(["run", "--array-path-reader", "x"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
    }
    let output = Command::new(BINARY)
        .args(["run", "--reader-name", "x"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "--reader-name needs a reader"
    );
}
