//! The adapter runner under injected faults: fake adapters (Python 3 scripts in
//! `tests/fake_adapters/`, standard library only) that crash, hang, garble, flood
//! or reorder their answers. Whatever they do, the run completes and every case
//! gets exactly one record; and the reference answers alike in-process and through
//! `zarr-reshape adapter`.

// The helpers below are test code too: clippy.toml's allowances reach only
// `#[test]` functions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{errored_message, outcomes};
use zarr_reshape_conformance::ClassCheck;
use zarr_reshape_conformance::reference;
use zarr_reshape_conformance::run::{
    Expectations, Implementation, Reference, RunReport, run_suite,
};
use zarr_reshape_conformance::vector::{self, Case};
use zarr_reshape_conformance::{AdapterOptions, AdapterProcess};

/// How many cases the fault tests run.
const CASES: usize = 12;

fn spec_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases")
}

/// The first dozen cases of the suite, real vector files.
fn dozen_cases() -> Vec<Case> {
    common::first_cases(CASES)
}

/// The fake adapter with `fault` and its arguments.
fn fake(arguments: &[&str]) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_adapters/fake_adapter.py");
    let mut command = vec!["python3".to_string(), script.display().to_string()];
    command.extend(arguments.iter().map(ToString::to_string));
    command
}

/// Short limits, so that the faults cost little time.
fn quick() -> AdapterOptions {
    AdapterOptions {
        timeout: Duration::from_millis(500),
        restart_budget: 3,
        start_timeout: Duration::from_secs(5),
        ..AdapterOptions::default()
    }
}

/// Runs the dozen cases through the fake adapter, and checks that every case has
/// exactly one record, in order.
fn run_fake(arguments: &[&str], options: AdapterOptions) -> (RunReport, u32) {
    let cases = dozen_cases();
    let mut adapter = AdapterProcess::start(&fake(arguments), options).unwrap();
    assert_eq!(adapter.info().name, "fake");
    let report = common::run_in_order(&mut adapter, &cases);
    assert!(!report.interrupted);
    (report, adapter.restarts())
}

fn all_stderr(report: &RunReport) -> String {
    report.records.iter().map(|r| r.stderr.as_str()).collect()
}

#[test]
fn a_well_behaved_adapter_passes_every_case() {
    let (report, restarts) = run_fake(&["echo"], quick());
    assert_eq!(outcomes(&report), ["pass"; CASES].join(" "));
    assert_eq!(restarts, 0);
    assert_eq!(report.implementation.operations.len(), 5);
}

#[test]
fn an_exit_mid_case_errors_that_case_and_the_adapter_restarts() {
    let (report, restarts) = run_fake(&["crash", "5", "exit"], quick());
    assert_eq!(
        outcomes(&report),
        "pass pass pass pass error pass pass pass pass error pass pass"
    );
    assert_eq!(restarts, 2);
    let crashed = &report.records[4];
    assert!(errored_message(crashed).contains("adapter exited: exit status: 3"));
    assert!(crashed.stderr.contains("fake: crashing on seq 5"));
    assert!(report.records[5].stderr.contains("restart 1 of 3"));
}

#[test]
fn a_kill_by_signal_mid_case_errors_that_case_and_names_the_signal() {
    let (report, restarts) = run_fake(&["crash", "5", "kill"], quick());
    assert_eq!(
        outcomes(&report),
        "pass pass pass pass error pass pass pass pass error pass pass"
    );
    assert_eq!(restarts, 2);
    assert!(errored_message(&report.records[4]).contains("signal: 9"));
    assert!(report.records[4].stderr.contains("fake: crashing on seq 5"));
}

#[test]
fn once_the_restart_budget_is_spent_every_further_case_errors_at_once() {
    let options = AdapterOptions {
        restart_budget: 2,
        ..quick()
    };
    let (report, restarts) = run_fake(&["crash", "2", "exit"], options);
    assert_eq!(
        outcomes(&report),
        "pass error pass error pass error error error error error error error"
    );
    assert_eq!(restarts, 2);
    for record in &report.records[6..] {
        assert!(errored_message(record).starts_with("adapter restart budget spent"));
        assert!(record.duration < Duration::from_millis(100));
    }
}

#[test]
fn a_hung_case_times_out_and_the_adapter_restarts() {
    let (report, restarts) = run_fake(&["hang", "4"], quick());
    assert_eq!(
        outcomes(&report),
        "pass pass pass error pass pass pass error pass pass pass error"
    );
    assert_eq!(restarts, 2);
    assert!(errored_message(&report.records[3]).starts_with("timeout after 500 ms"));
    assert!(report.records[3].stderr.contains("fake: hanging on seq 4"));
}

#[test]
fn an_adapter_that_never_answers_costs_one_timeout_per_restart() {
    let started = Instant::now();
    let (report, restarts) = run_fake(&["hang", "0"], quick());
    assert_eq!(outcomes(&report), ["error"; CASES].join(" "));
    assert_eq!(restarts, 3);
    for record in &report.records[..4] {
        assert!(errored_message(record).starts_with("timeout after 500 ms"));
    }
    for record in &report.records[4..] {
        assert!(errored_message(record).starts_with("adapter restart budget spent"));
    }
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_garbage_line_errors_its_case_and_the_late_answer_is_discarded() {
    let (report, restarts) = run_fake(&["garbage", "3"], quick());
    assert_eq!(
        outcomes(&report),
        "pass pass error pass pass pass pass pass pass pass pass pass"
    );
    assert_eq!(restarts, 0);
    assert!(errored_message(&report.records[2]).contains("unparsable answer line"));
    assert!(all_stderr(&report).contains("discarded"));
}

#[test]
fn an_answer_under_a_seq_never_sent_errors_its_case() {
    let (report, restarts) = run_fake(&["wrong-seq", "3"], quick());
    assert_eq!(
        outcomes(&report),
        "pass pass error pass pass pass pass pass pass pass pass pass"
    );
    assert_eq!(restarts, 0);
    assert!(
        errored_message(&report.records[2]).contains("answer for seq 1003 while waiting for 3")
    );
}

#[test]
fn out_of_order_answers_error_one_case_and_are_never_attributed_to_the_next() {
    let (report, restarts) = run_fake(&["out-of-order", "3"], quick());
    assert_eq!(
        outcomes(&report),
        "pass pass error pass pass pass pass pass pass pass pass pass"
    );
    assert_eq!(restarts, 0);
    assert!(errored_message(&report.records[2]).contains("answer for seq 4 while waiting for 3"));
}

#[test]
fn a_repeated_answer_is_discarded() {
    let (report, restarts) = run_fake(&["twice"], quick());
    assert_eq!(outcomes(&report), ["pass"; CASES].join(" "));
    assert_eq!(restarts, 0);
    assert!(all_stderr(&report).contains("discarded"));
}

#[test]
fn stderr_is_captured_per_case_and_bounded() {
    let options = quick();
    let limit = options.max_stderr_bytes;
    let (report, _) = run_fake(&["stderr-spam", "1000000"], options);
    assert_eq!(outcomes(&report), ["pass"; CASES].join(" "));
    for record in &report.records {
        assert!(
            record.stderr.len() < limit + 1000,
            "{} bytes",
            record.stderr.len()
        );
    }
    // A megabyte written just before each answer: its last line is in that
    // case's record, however long the reader took to get through it.
    for (seq, record) in (1..).zip(&report.records) {
        let marker = format!("fake: end of seq {seq}\n");
        assert!(record.stderr.contains(&marker), "{marker}");
    }
    assert!(all_stderr(&report).contains("earlier bytes of stderr dropped"));
}

#[test]
fn stderr_written_just_before_an_answer_belongs_to_that_case() {
    // The answer follows the stderr line at once: nothing to wait out, the record
    // holds the line because the runner reads stderr up to the moment it asks,
    // however late its reader thread runs (a loaded machine).
    for _ in 0..5 {
        let (report, _) = run_fake(&["stderr-spam", "0"], quick());
        for (seq, record) in (1..).zip(&report.records) {
            assert_eq!(
                record.stderr,
                format!("fake: spam for seq {seq}\n\nfake: end of seq {seq}\n"),
                "seq {seq}"
            );
        }
    }
}

#[test]
fn a_hundred_megabyte_line_errors_its_case_without_being_buffered() {
    let options = AdapterOptions {
        timeout: Duration::from_secs(5),
        ..quick()
    };
    let (report, restarts) = run_fake(&["huge-line", "3", "100000000"], options);
    assert_eq!(
        outcomes(&report),
        "pass pass error pass pass pass pass pass pass pass pass pass"
    );
    assert_eq!(restarts, 0);
    assert_eq!(
        errored_message(&report.records[2]),
        format!("answer line longer than {} bytes", 16 << 20)
    );
}

fn start_error(arguments: &[&str], start_timeout: Duration) -> String {
    let options = AdapterOptions {
        start_timeout,
        ..quick()
    };
    AdapterProcess::start(&fake(arguments), options).unwrap_err()
}

#[test]
fn an_adapter_that_exits_at_start_fails_to_start_with_its_stderr() {
    let error = start_error(&["exit-at-start"], Duration::from_secs(5));
    assert!(
        error.contains("exited during start: exit status: 7"),
        "{error}"
    );
    assert!(error.contains("fake: cannot start today"), "{error}");
}

#[test]
fn an_adapter_that_refuses_to_start_fails_to_start_with_its_reason() {
    let error = start_error(&["refuse-start"], Duration::from_secs(5));
    assert!(error.contains("fake: protocol not supported"), "{error}");
}

#[test]
fn an_adapter_silent_at_start_fails_to_start_after_the_start_timeout() {
    let error = start_error(&["silent-start"], Duration::from_millis(500));
    assert!(
        error.contains("no answer to start within 500 ms"),
        "{error}"
    );
}

#[test]
fn a_command_that_cannot_be_run_fails_to_start() {
    let error = AdapterProcess::start(&["/nonexistent/adapter".into()], quick()).unwrap_err();
    assert!(
        error.contains("cannot start /nonexistent/adapter"),
        "{error}"
    );
    assert!(AdapterProcess::start(&[], quick()).is_err());
}

/// The `zarr-reshape` binary, which cargo builds for integration tests.
fn reference_binary() -> &'static str {
    env!("CARGO_BIN_EXE_zarr-reshape")
}

#[test]
fn the_reference_answers_alike_in_process_and_through_the_adapter() {
    let cases: Vec<Case> = vector::discover(&spec_cases())
        .unwrap()
        .iter()
        .flat_map(|path| vector::load_file(path).unwrap())
        .collect();
    assert!(cases.len() > 100);
    let command = [reference_binary().to_string(), "adapter".into()];
    let mut adapter = AdapterProcess::start(&command, AdapterOptions::default()).unwrap();
    assert_eq!(adapter.info(), Reference::default().info());
    let report = run_suite(
        &mut adapter,
        &cases,
        &Expectations::default(),
        ClassCheck::Strict,
        |_| true,
    );
    assert_eq!(report.records.len(), cases.len());
    for (record, case) in report.records.iter().zip(&cases) {
        assert_eq!(record.case.id, case.id);
        assert_eq!(record.answer, reference::run(case), "{}", case.id);
        assert_eq!(record.stderr, "", "{}", case.id);
    }
    assert_eq!(adapter.restarts(), 0);
}

/// Ctrl-C (SIGINT to the runner) mid-run: the run stops after the case in flight,
/// the JSON-lines report is valid line by line and ends with a footer saying
/// `"interrupted": true`, every record before it is one case at most once, and the
/// exit code says failure.
#[test]
fn an_interrupted_run_leaves_a_valid_partial_report_with_an_interrupted_footer() {
    let dir = std::env::temp_dir().join(format!("zarr-reshape-sigint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.jsonl");
    let adapter = fake(&["slow", "100"])
        .iter()
        .map(|word| shlex::try_quote(word).unwrap().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let mut child = std::process::Command::new(reference_binary())
        .arg("run")
        .arg("--adapter")
        .arg(&adapter)
        .arg("--report")
        .arg(format!("jsonl={}", report.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for a few records, then interrupt.
    let begun = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&report)
            .map(|text| text.lines().count())
            .unwrap_or(0);
        if lines >= 4 {
            break;
        }
        assert!(begun.elapsed() < Duration::from_secs(60), "no records");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The shell's builtin kill: no dependency on a kill binary being installed.
    let status = std::process::Command::new("sh")
        .args(["-c", "kill -INT \"$0\"", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert_eq!(exit.code(), Some(1), "an interrupted run fails: {exit}");

    let text = std::fs::read_to_string(&report).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let footer = lines.last().unwrap();
    assert_eq!(footer["type"], "footer", "{footer}");
    assert_eq!(footer["interrupted"], true, "{footer}");
    assert_eq!(footer["succeeded"], false, "{footer}");
    let records: Vec<&str> = lines
        .iter()
        .filter(|line| line["type"] == "case")
        .map(|line| line["id"].as_str().unwrap())
        .collect();
    let total = footer["counts"]["total"].as_u64().unwrap();
    assert_eq!(
        u64::try_from(records.len()).unwrap(),
        total,
        "one record per counted case"
    );
    let unique: std::collections::HashSet<&&str> = records.iter().collect();
    assert_eq!(unique.len(), records.len(), "no case twice");
    assert!((3..200).contains(&total), "stopped early: {total} records");
    std::fs::remove_dir_all(&dir).unwrap();
}
