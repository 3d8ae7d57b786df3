//! The Python adapter of PROTOCOL.md, run over the protocol by hand (not through the
//! runner's driver): every `resolve` case of every vector file, judged as the runner
//! judges; it must pass every `must` case, and crash or error on none. Also checks
//! that PROTOCOL.md prints the adapter byte for byte.
// A test fails by panicking, helpers included; clippy.toml allows this in #[test]
// functions only.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::vector::{self, Case, Operation};
use zarr_reshape_conformance::{ClassCheck, Outcome, judge};

/// The HTML comment in PROTOCOL.md that the adapter's fenced block follows.
const MARKER: &str = "<!-- adapter.py: conformance/adapters/python-minimal/adapter.py -->";
/// How long one answer may take before the test gives up on the adapter.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn adapter_path() -> PathBuf {
    crate_dir().join("adapters/python-minimal/adapter.py")
}

fn resolve_cases() -> Vec<Case> {
    let root = crate_dir().join("../spec-cases");
    let files = vector::discover(&root).unwrap();
    let cases: Vec<Case> = files
        .iter()
        .flat_map(|file| vector::load_file(file).unwrap())
        .filter(|case| matches!(case.operation, Operation::Resolve))
        .collect();
    assert!(
        !cases.is_empty(),
        "no resolve case below {}",
        root.display()
    );
    cases
}

fn python_available() -> bool {
    Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// The adapter process: its stdin, and its stdout lines through a thread so that a
/// hung adapter fails the test instead of hanging it.
struct Adapter {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Adapter {
    fn spawn() -> Self {
        let mut child = Command::new("python3")
            .arg(adapter_path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn answer(&mut self, what: &str) -> Value {
        match self.lines.recv_timeout(ANSWER_TIMEOUT) {
            Ok(line) => serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("{what}: the answer is not JSON ({e}): {line}")),
            Err(RecvTimeoutError::Timeout) => panic!("{what}: no answer in {ANSWER_TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("{what}: the adapter closed stdout"),
        }
    }

    /// Sends `stop`, then expects the process to exit 0 without writing another line.
    fn stop(mut self) {
        self.send(&json!({"cmd": "stop"}));
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                self.child.kill().unwrap();
                panic!("the adapter did not exit after stop");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(status.success(), "the adapter exited with {status}");
        let extra: Vec<String> = self.lines.try_iter().collect();
        assert!(extra.is_empty(), "lines after the last answer: {extra:?}");
    }
}

#[test]
fn python_adapter_passes_every_must_resolve_case() {
    if !python_available() {
        println!("note: python3 is not on the PATH; the Python adapter is not tested");
        return;
    }
    let started = Instant::now();
    let cases = resolve_cases();
    let mut adapter = Adapter::spawn();

    adapter.send(&json!({"cmd": "start", "protocol": 2}));
    let hello = adapter.answer("start");
    assert_eq!(hello["ok"], json!(true), "start: {hello}");
    assert_eq!(hello["implementation"]["name"], json!("python-minimal"));
    assert_eq!(hello["implementation"]["language"], json!("python"));
    assert_eq!(hello["operations"], json!(["resolve"]));

    // level -> outcome name -> count; and the cases that did not pass, by level.
    let mut tally: BTreeMap<String, BTreeMap<&str, usize>> = BTreeMap::new();
    let mut failures: Vec<(String, String)> = Vec::new();
    for (seq, case) in (1u64..).zip(&cases) {
        adapter.send(&json!({"cmd": "run", "seq": seq, "case": case.json}));
        let reply = adapter.answer(&case.id);
        assert_eq!(
            reply["seq"],
            json!(seq),
            "{}: wrong seq in {reply}",
            case.id
        );
        let result = reply
            .get("result")
            .unwrap_or_else(|| panic!("{}: no result in {reply}", case.id));
        let outcome = judge(case, &Answer::from_json(result), ClassCheck::WhenNamed);
        *tally
            .entry(case.level.clone())
            .or_default()
            .entry(outcome.name())
            .or_default() += 1;
        if outcome != Outcome::Pass {
            // A crash or an error fails a run at every level, as a must failure does.
            let level = if outcome.is_fault() {
                "must (a crash or an error, at any level)".to_string()
            } else {
                case.level.clone()
            };
            failures.push((level, format!("{}: answered {result}, {outcome}", case.id)));
        }
    }

    // A case of another operation is answered `skipped`, over the same process.
    let other = vector::load_file(
        &crate_dir().join("../spec-cases/algorithm.ravel/encode-int32-merge-leading-dims.json"),
    )
    .unwrap();
    let seq = cases.len() + 1;
    adapter.send(&json!({"cmd": "run", "seq": seq, "case": other[0].json}));
    let reply = adapter.answer("encode");
    assert_eq!(reply["seq"], json!(seq));
    assert!(
        matches!(Answer::from_json(&reply["result"]), Answer::Skipped { .. }),
        "encode: {reply}"
    );
    adapter.stop();

    println!(
        "python-minimal over {} resolve cases in {:?}: {tally:?}",
        cases.len(),
        started.elapsed()
    );
    for (level, failure) in &failures {
        println!("  [{level}] {failure}");
    }
    let must: Vec<&String> = failures
        .iter()
        .filter(|(level, _)| level.starts_with("must"))
        .map(|(_, failure)| failure)
        .collect();
    assert!(
        must.is_empty(),
        "must-level resolve cases the Python adapter does not pass:\n{}",
        must.iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn python_adapter_refuses_another_protocol_version() {
    if !python_available() {
        println!("note: python3 is not on the PATH; the Python adapter is not tested");
        return;
    }
    for version in [1, 3] {
        let mut adapter = Adapter::spawn();
        adapter.send(&json!({"cmd": "start", "protocol": version}));
        let hello = adapter.answer("start");
        assert_eq!(hello["ok"], json!(false), "start: {hello}");
        assert!(hello["error"].is_string(), "start: {hello}");
        adapter.stop();
    }
}

/// The fenced `python` block after [`MARKER`] in `text`.
fn block_after_marker(text: &str) -> Option<String> {
    let (_, after) = text.split_once(MARKER)?;
    let (_, body) = after.split_once("\n```python\n")?;
    let (code, _) = body.split_once("\n```\n")?;
    Some(format!("{code}\n"))
}

#[test]
fn protocol_md_prints_the_python_adapter_byte_for_byte() {
    let protocol = std::fs::read_to_string(crate_dir().join("PROTOCOL.md")).unwrap();
    let printed = block_after_marker(&protocol)
        .unwrap_or_else(|| panic!("PROTOCOL.md has no ```python block after {MARKER}"));
    let file = std::fs::read_to_string(adapter_path()).unwrap();
    if printed != file {
        let line = printed
            .lines()
            .zip(file.lines())
            .position(|(a, b)| a != b)
            .map_or(printed.lines().count().min(file.lines().count()), |i| i);
        panic!(
            "PROTOCOL.md and {} differ from line {} of the block on",
            adapter_path().display(),
            line + 1
        );
    }
}

#[test]
fn marker_block_extraction_reads_only_the_block() {
    let text = format!("intro\n{MARKER}\n```python\nprint(1)\n```\nafter\n```python\nx\n```\n");
    assert_eq!(block_after_marker(&text).as_deref(), Some("print(1)\n"));
    assert_eq!(block_after_marker("no marker"), None);
}
