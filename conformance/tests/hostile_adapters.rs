//! The runner against hostile adapters and a hostile in-process run: an adapter
//! that floods its stdout, answers members of the wrong type, or leaves a
//! grandchild holding its stdout; an in-process case that panics or never ends.
//! Whatever they do, the run ends soon, every case gets one record, and the
//! reports are complete. The fake adapters are small Python 3 scripts written by
//! the tests.

// The helpers below are test code too: clippy.toml's allowances reach only
// `#[test]` functions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{errored_message, outcomes};
use serde_json::{Value, json};
use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::Outcome;
use zarr_reshape_conformance::reference;
use zarr_reshape_conformance::run::{Implementation, MAX_STUCK_CASES, Reference, RunReport};
use zarr_reshape_conformance::vector::Case;
use zarr_reshape_conformance::{AdapterOptions, AdapterProcess, MAX_LINES_BETWEEN_CASES};

/// How many cases each run puts.
const CASES: usize = 12;

/// The first dozen cases of the suite.
fn dozen_cases() -> Vec<Case> {
    common::first_cases(CASES)
}

/// A folder of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile_adapters")
        .join(name);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// The start of every fake adapter: `say`, `answer_start` and `result_for` (the
/// case's expectation as an answer).
const PRELUDE: &str = r#"import json, subprocess, sys
def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
def answer_start():
    sys.stdin.readline()
    say({"ok": True, "implementation": {"name": "hostile", "version": "1", "language": "python"}})
def result_for(expect):
    if "any_of" in expect:
        return result_for(expect["any_of"][0])
    if "error" in expect:
        classes = expect["error"]
        return {"error": {"class": classes if isinstance(classes, str) else classes[0], "message": "x"}}
    return expect
"#;

/// Writes the fake adapter `body` (after [`PRELUDE`]) and returns its command.
fn adapter(folder: &Path, body: &str) -> Vec<String> {
    let script = folder.join("adapter.py");
    std::fs::write(&script, format!("{PRELUDE}{body}")).unwrap();
    vec!["python3".into(), script.display().to_string()]
}

/// A long timeout, so that a test passing quickly shows that no timeout was waited.
fn patient() -> AdapterOptions {
    AdapterOptions {
        timeout: Duration::from_secs(5),
        start_timeout: Duration::from_secs(5),
        ..AdapterOptions::default()
    }
}

/// Runs the dozen cases and checks one record per case, in order.
fn run_all(implementation: &mut dyn Implementation) -> RunReport {
    common::run_in_order(implementation, &dozen_cases())
}

#[test]
fn an_adapter_flooding_its_stdout_after_an_answer_is_killed_and_the_run_ends() {
    let folder = scratch("flood");
    // Answers each case, then writes 100 times the bound of late answers.
    let flood = MAX_LINES_BETWEEN_CASES.checked_mul(100).unwrap();
    let body = format!(
        r#"answer_start()
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] != "run":
        break
    say({{"seq": request["seq"], "result": result_for(request["case"]["expect"])}})
    late = json.dumps({{"seq": request["seq"], "result": {{"skipped": {{"reason": "again"}}}}}}) + "\n"
    try:
        sys.stdout.write(late * {flood})
        sys.stdout.flush()
    except BrokenPipeError:
        sys.exit(0)
"#
    );
    let started = Instant::now();
    let mut process = AdapterProcess::start(&adapter(&folder, &body), patient()).unwrap();
    let report = run_all(&mut process);
    // Each process answers one case and is killed for flooding, before the next
    // case is sent or while it waits for that case's answer (which of the two is
    // a matter of timing); after three restarts every further case is errored at
    // once.
    let outcomes = outcomes(&report);
    assert_eq!(outcomes.matches("pass").count(), 4, "{outcomes}");
    assert!(outcomes.starts_with("pass "), "{outcomes}");
    assert!(outcomes.ends_with(" error error error error"), "{outcomes}");
    let messages: Vec<&str> = report
        .records
        .iter()
        .filter(|record| record.outcome != Outcome::Pass)
        .map(errored_message)
        .collect();
    assert!(
        messages
            .iter()
            .any(|message| message.contains("flooded its stdout")),
        "{messages:?}"
    );
    for record in report.records.iter().skip(8) {
        assert!(errored_message(record).starts_with("adapter restart budget spent"));
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "no timeout waited"
    );
}

/// What one adapter answers as its `result`, read by the runner.
fn read_result(result: &Value) -> Answer {
    Answer::from_json(result)
}

#[test]
fn a_result_member_of_the_wrong_type_is_a_protocol_violation_saying_what() {
    let violations = [
        (
            json!({"error": {"class": 42, "message": "m"}}),
            "error.class must be a string or null, got 42",
        ),
        (
            json!({"error": {"class": ["overflow"], "message": "m"}}),
            "error.class must be a string or null, got [\"overflow\"]",
        ),
        (
            json!({"error": {"class": {}, "message": "m"}}),
            "error.class must be a string or null, got {}",
        ),
        (
            json!({"error": {"class": "overflow", "message": 5}}),
            "error.message must be a string, got 5",
        ),
        (
            json!({"error": {"class": "overflow"}}),
            "an error result needs a message",
        ),
        (
            json!({"error": "overflow"}),
            "error must be an object, got \"overflow\"",
        ),
        (
            json!({"skipped": {"reason": 1}}),
            "skipped.reason must be a string, got 1",
        ),
        (json!({"skipped": {}}), "a skipped result needs a reason"),
        (
            json!({"skipped": true}),
            "skipped must be an object, got true",
        ),
        (
            json!({"errored": {"message": []}}),
            "errored.message must be a string, got []",
        ),
        (
            json!({"crashed": {"message": 7}}),
            "crashed.message must be a string, got 7",
        ),
        (
            json!({"crashed": "boom"}),
            "crashed must be an object, got \"boom\"",
        ),
        (
            json!({"error": {"class": null, "message": "m"}, "crashed": {"message": "m"}}),
            "holds error and crashed",
        ),
        (
            json!({"error": {"class": null, "message": "m"}, "skipped": {"reason": "r"}}),
            "holds error and skipped",
        ),
        (
            json!({"skipped": {"reason": "r"}, "errored": {"message": "m"}}),
            "holds skipped and errored",
        ),
        (json!([1]), "a result must be a JSON object"),
    ];
    for (result, what) in violations {
        match read_result(&result) {
            Answer::Errored { message } => assert!(
                message.starts_with("protocol violation: ") && message.contains(what),
                "{result}: {message}"
            ),
            other => panic!("{result} was read as {other:?}"),
        }
    }
}

#[test]
fn a_resolve_grid_chunk_that_is_not_a_list_of_u64_is_a_protocol_violation() {
    for chunk in [
        json!("1,0"),
        json!([1, -1]),
        json!([1.5]),
        json!(vec![0; 257]),
    ] {
        let answer =
            read_result(&json!({"error": {"class": null, "message": "m", "chunk": chunk}}));
        let Answer::Errored { message } = &answer else {
            panic!("{chunk}: {answer:?}");
        };
        assert!(message.contains("error.chunk must be"), "{message}");
    }
}

#[test]
fn a_well_formed_result_is_read_and_unknown_members_are_ignored() {
    let error = json!({"error": {"class": "overflow", "message": "m", "detail": 1}});
    assert_eq!(
        read_result(&error),
        Answer::Error {
            class: Some("overflow".into()),
            message: "m".into(),
            chunk: None,
        }
    );
    let unnamed = json!({"error": {"class": null, "message": "m"}});
    assert_eq!(
        read_result(&unnamed),
        Answer::Error {
            class: None,
            message: "m".into(),
            chunk: None,
        }
    );
    let refused_chunk = json!({"error": {"class": "overflow", "message": "m", "chunk": [1, 0]}});
    assert_eq!(
        read_result(&refused_chunk),
        Answer::Error {
            class: Some("overflow".into()),
            message: "m".into(),
            chunk: Some(vec![1, 0]),
        }
    );
    assert_eq!(read_result(&refused_chunk).to_json(), refused_chunk);
    let crashed = json!({"crashed": {"message": "panic: overflow", "at": "x.rs:1"}});
    assert_eq!(
        read_result(&crashed),
        Answer::Crashed {
            message: "panic: overflow".into()
        }
    );
    let skipped = json!({"skipped": {"reason": "r", "since": "1.0"}});
    assert_eq!(
        read_result(&skipped),
        Answer::Skipped { reason: "r".into() }
    );
    let output = json!({"encoded_shape": [6], "note": "extra"});
    assert_eq!(
        read_result(&output),
        Answer::Output(output.as_object().unwrap().clone())
    );
}

#[test]
fn an_adapter_answering_a_class_that_is_not_a_string_errors_that_case() {
    let folder = scratch("class");
    let body = r#"answer_start()
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] != "run":
        break
    say({"seq": request["seq"], "result": {"error": {"class": 42, "message": "m"}}})
"#;
    let mut process = AdapterProcess::start(&adapter(&folder, body), patient()).unwrap();
    let report = run_all(&mut process);
    assert_eq!(outcomes(&report), ["error"; CASES].join(" "));
    for record in &report.records {
        assert!(errored_message(record).contains("error.class must be a string or null, got 42"));
    }
    assert_eq!(process.restarts(), 0, "a violation keeps the process");
}

/// Whether process `pid` still runs (a zombie does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let after_name = stat.rsplit_once(')')?.1.trim_start().chars().next()?;
            Some(after_name != 'Z')
        })
        .unwrap_or(false)
}

#[test]
fn a_grandchild_holding_stdout_is_killed_with_the_adapter_and_costs_no_timeout() {
    let folder = scratch("grandchild");
    // Each process starts a `sleep` that inherits its stdout, notes its pid, and
    // exits at the first case without answering.
    let body = r#"child = subprocess.Popen(["sleep", "1000"])
with open(sys.argv[1], "a") as pids:
    pids.write(f"{child.pid}\n")
answer_start()
sys.stdin.readline()
sys.exit(0)
"#;
    let pids_file = folder.join("pids");
    let mut command = adapter(&folder, body);
    command.push(pids_file.display().to_string());
    let started = Instant::now();
    let mut process = AdapterProcess::start(&command, patient()).unwrap();
    let report = run_all(&mut process);
    drop(process);
    assert_eq!(outcomes(&report), ["error"; CASES].join(" "));
    assert!(errored_message(&report.records[0]).starts_with("adapter exited: exit status: 0"));
    // Four processes (the first and three restarts), none waited out its timeout.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "no timeout waited"
    );
    let pids: Vec<u32> = std::fs::read_to_string(&pids_file)
        .unwrap()
        .lines()
        .map(|line| line.parse().unwrap())
        .collect();
    assert_eq!(pids.len(), 4);
    std::thread::sleep(Duration::from_millis(200));
    for pid in pids {
        assert!(!running(pid), "grandchild {pid} is still running");
    }
}

/// The reference, but a panic on the third case of the suite.
fn panics_on_the_third(case: &Case) -> Answer {
    if dozen_cases()
        .get(2)
        .is_some_and(|third| third.id == case.id)
    {
        panic!("hostile: a panic inside the implementation");
    }
    reference::run(case)
}

#[test]
fn an_in_process_panic_is_that_case_crashed_answer_and_the_run_goes_on() {
    let mut implementation =
        Reference::with_case_function(panics_on_the_third, Duration::from_secs(5));
    let report = run_all(&mut implementation);
    let mut expected = ["pass"; CASES];
    expected[2] = "crash";
    assert_eq!(outcomes(&report), expected.join(" "));
    assert_eq!(
        report.records[2].answer,
        Answer::Crashed {
            message: "the implementation panicked: hostile: a panic inside the implementation"
                .into()
        }
    );
    assert!(report.records[2].breaks_run(), "a crash breaks the run");
    assert!(!report.succeeded());
}

/// The reference, but the fifth case never ends (for the test's purposes).
fn hangs_on_the_fifth(case: &Case) -> Answer {
    if dozen_cases()
        .get(4)
        .is_some_and(|fifth| fifth.id == case.id)
    {
        std::thread::sleep(Duration::from_secs(30));
    }
    reference::run(case)
}

#[test]
fn an_in_process_case_past_the_time_limit_is_errored_and_the_run_goes_on() {
    let started = Instant::now();
    let mut implementation =
        Reference::with_case_function(hangs_on_the_fifth, Duration::from_millis(300));
    let report = run_all(&mut implementation);
    let mut expected = ["pass"; CASES];
    expected[4] = "error";
    assert_eq!(outcomes(&report), expected.join(" "));
    assert!(errored_message(&report.records[4]).starts_with("timeout after 300 ms"));
    assert!(started.elapsed() < Duration::from_secs(5));
}

fn hangs_always(_: &Case) -> Answer {
    std::thread::sleep(Duration::from_secs(30));
    Answer::Skipped {
        reason: "never".into(),
    }
}

#[test]
fn after_the_most_stuck_cases_every_further_in_process_case_is_errored_at_once() {
    let started = Instant::now();
    let mut implementation =
        Reference::with_case_function(hangs_always, Duration::from_millis(100));
    let report = run_all(&mut implementation);
    assert_eq!(outcomes(&report), ["error"; CASES].join(" "));
    for record in &report.records[..MAX_STUCK_CASES] {
        assert!(errored_message(record).starts_with("timeout after 100 ms"));
    }
    for record in &report.records[MAX_STUCK_CASES..] {
        assert!(errored_message(record).contains("every further case is errored"));
        assert!(record.duration < Duration::from_millis(50));
    }
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// A read-array case of `path` in the suite of hostile arrays.
fn read_array_case(id: &str, path: &str) -> Value {
    json!({
        "id": id, "description": "a hostile array", "clauses": ["algorithm.ravel"],
        "level": "must", "operation": "read-array", "configuration": {"shape": [-1]},
        "decoded_shape": [6], "array": {"path": path, "data_type": "uint8"},
        "expect": {"error": "overflow"}
    })
}

#[test]
fn an_in_process_run_over_hostile_arrays_ends_in_time_with_every_report_written() {
    let suite = scratch("in-process-reports");
    let clauses = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases/clauses.json");
    std::fs::copy(clauses, suite.join("clauses.json")).unwrap();
    // A shape whose element count is 0 but whose extent is beyond isize (it made
    // ndarray panic), and a FIFO as zarr.json that nobody writes (it hung).
    std::fs::create_dir(suite.join("huge")).unwrap();
    let metadata = r#"{"zarr_format": 3, "node_type": "array", "shape": [0, 18446744073709551615],
        "data_type": "uint8", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1, 1]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0, "codecs": [{"name": "reshape", "configuration": {"shape": [[0, 1]]}},
        {"name": "bytes", "configuration": {"endian": "little"}}]}"#;
    std::fs::write(suite.join("huge/zarr.json"), metadata).unwrap();
    std::fs::create_dir(suite.join("fifo")).unwrap();
    common::mkfifo(&suite.join("fifo/zarr.json"));
    let plain = json!({
        "id": "hostile/plain", "description": "a plain case", "clauses": ["algorithm.ravel"],
        "level": "must", "operation": "resolve", "configuration": {"shape": [-1]},
        "decoded_shape": [2, 3], "expect": {"encoded_shape": [6]}
    });
    let cases = json!({"format": 1, "cases": [
        read_array_case("hostile/huge", "huge"), read_array_case("hostile/fifo", "fifo"), plain
    ]});
    std::fs::write(suite.join("cases.json"), cases.to_string()).unwrap();
    let (jsonl, junit) = (suite.join("run.jsonl"), suite.join("run.xml"));
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
        .arg("run")
        .arg("--cases")
        .arg(suite.join("cases.json"))
        .args(["--timeout", "1000"])
        .arg(format!("--report=jsonl={}", jsonl.display()))
        .arg(format!("--report=junit={}", junit.display()))
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    // The FIFO case cannot pass: the run fails (1), it does not give up (2).
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    let footer: Value = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
    assert_eq!(footer["type"], "footer");
    assert_eq!(footer["counts"]["total"], 3);
    assert!(footer["counts"]["pass"].as_u64().unwrap() >= 1);
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let testcases = document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"));
    assert_eq!(testcases.count(), 3);
}
