//! `zarr-reshape run` against adapters, as a newcomer and a red team met it
//! (issue 30): a hanging adapter's failures are summarised by reason on the
//! terminal (each case stays in the report files); a long answer is printed once,
//! capped; `--write-expectations` writes the failing cases with reasons left as
//! TODO, which the runner refuses until filled in; an entry's clause must be one of
//! its cases'; an entry's `issue_url` is an https URL, carried to the record; and a
//! run in which no MUST case ran fails unless `--allow-no-must`.

// The helpers below are test code too: clippy.toml's allowances reach only
// `#[test]` functions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Scratch;

fn spec_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases")
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

/// A Python adapter of its own, listing `operations` (a Python list): `on_case` is
/// the body run for each case, with `request` (the run request) and `say` in scope.
fn script(folder: &Path, operations: &str, on_case: &str) -> String {
    let path = folder.join("adapter.py");
    let text = format!(
        "import json, sys\n\
         def say(obj):\n    sys.stdout.write(json.dumps(obj) + '\\n'); sys.stdout.flush()\n\
         for line in sys.stdin:\n    request = json.loads(line)\n\
         \x20   if request['cmd'] == 'stop':\n        break\n\
         \x20   if request['cmd'] == 'start':\n\
         \x20       say({{'ok': True, 'implementation': {{'name': 'own', 'version': '0', 'language': 'python'}}, 'operations': {operations}}})\n\
         \x20       continue\n\
         {on_case}\n"
    );
    std::fs::write(&path, text).unwrap();
    format!("python3 {}", path.display())
}

/// Runs `zarr-reshape run ARGS`; its exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
        .arg("run")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn python_available() -> bool {
    let found = Command::new("python3").arg("--version").output().is_ok();
    if !found {
        println!("note: python3 is not on the PATH; the adapters are not run");
    }
    found
}

#[test]
fn a_hanging_adapter_is_summarised_by_reason_and_each_case_is_in_the_report_file() {
    if !python_available() {
        return;
    }
    let dir = Scratch::new("run-loop-hang");
    let text = dir.0.join("run.txt");
    let cases = spec_cases().join("input-dims.prefix");
    let report = format!("text={}", text.display());
    let (code, stdout, _) = run(&[
        "--adapter",
        &fake(&["hang", "1"]),
        "--cases",
        cases.to_str().unwrap(),
        "--timeout",
        "100",
        "--report",
        &report,
    ]);
    assert_eq!(code, 1, "{stdout}");
    let file = std::fs::read_to_string(&text).unwrap();
    let spent = "adapter restart budget spent";
    let in_file = file.matches(spent).count();
    assert!(in_file > 5, "every case is in the report file: {in_file}");
    // On the terminal: one line for the reason, with its count.
    assert_eq!(stdout.matches(spent).count(), 1, "{stdout}");
    let count = in_file.to_string();
    assert!(
        stdout.lines().any(|line| line
            .trim_start()
            .starts_with(&format!("{count} cases ERROR: {spent}"))),
        "{stdout}"
    );
    assert!(stdout.lines().count() < 60, "{stdout}");
}

#[test]
fn a_long_answer_is_printed_once_and_capped() {
    if !python_available() {
        return;
    }
    let dir = Scratch::new("run-loop-long");
    // Succeeds with 200 KB of output where an error is expected.
    let adapter = script(
        &dir.0,
        "['resolve']",
        "    say({'seq': request['seq'], 'result': {'encoded_shape': [1], 'padding': 'START' + 'x' * 200000}})",
    );
    let case = spec_cases().join("shape.auto.once/two-autos.json");
    let (code, stdout, _) = run(&["--adapter", &adapter, "--cases", case.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
    // Before: the answer twice in full, on the `answered:` and the `why:` lines.
    assert_eq!(stdout.matches("START").count(), 1, "printed once: {stdout}");
    assert!(stdout.len() < 20_000, "capped: {} bytes", stdout.len());
    assert!(stdout.contains("cut by the runner"), "says it was cut");
}

#[test]
fn written_expectations_list_the_failures_and_are_refused_until_each_reason_is_given() {
    if !python_available() {
        return;
    }
    let dir = Scratch::new("run-loop-write");
    let written = dir.0.join("known.toml");
    let cases = spec_cases().join("shape.auto.once");
    let cases = cases.to_str().unwrap();
    let path = written.to_str().unwrap();
    // Every case errs (a hang, then the restart budget spent).
    let hang = fake(&["hang", "1"]);
    let common = ["--adapter", &hang, "--cases", cases, "--timeout", "100"];
    let (code, _, stderr) = run(&[&common[..], &["--write-expectations", path]].concat());
    assert_eq!(code, 1, "{stderr}");
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("clause = \"shape.auto.once\""), "{text}");
    assert!(text.contains("reason = \"TODO\""), "{text}");
    assert!(text.contains("outcome = \"error\""), "{text}");
    assert!(text.contains("\"shape.auto.once/two-autos\""), "{text}");

    // Never over a file that exists, and refused before any case runs.
    let (code, _, stderr) = run(&[&common[..], &["--write-expectations", path]].concat());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("exists"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&written).unwrap(), text);

    // A TODO reason: refused, naming the entry.
    let (code, _, stderr) = run(&[&common[..], &["--expectations", path]].concat());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("TODO"), "{stderr}");
    assert!(
        stderr.contains("shape.auto.once (shape.auto.once/"),
        "{stderr}"
    );

    // Filled in: the run passes, every failure known.
    let filled = dir.0.join("filled.toml");
    std::fs::write(&filled, text.replace("\"TODO\"", "\"the fake hangs\"")).unwrap();
    let listed = ["--expectations", filled.to_str().unwrap()];
    let (code, stdout, _) = run(&[&common[..], &listed[..]].concat());
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn an_entry_whose_clause_is_not_its_cases_is_refused_naming_both() {
    let dir = Scratch::new("run-loop-clause");
    let file = dir.0.join("wrong.toml");
    std::fs::write(
        &file,
        "[[failure]]\nids = [\"shape.auto.once/two-autos\"]\nclause = \"codec.name\"\nreason = \"r\"\n",
    )
    .unwrap();
    let cases = spec_cases().join("shape.auto.once");
    let (code, _, stderr) = run(&[
        "--cases",
        cases.to_str().unwrap(),
        "--expectations",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "shape.auto.once/two-autos is listed under clause codec.name, which is not among its clauses (shape.auto.once"
        ),
        "{stderr}"
    );
    // A missing clause was already an error; it stays one.
    std::fs::write(
        &file,
        "[[failure]]\nids = [\"shape.auto.once/two-autos\"]\nreason = \"r\"\n",
    )
    .unwrap();
    let (code, _, stderr) = run(&["--expectations", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("clause"), "{stderr}");
}

#[test]
fn a_run_in_which_no_must_case_ran_fails_unless_allowed() {
    if !python_available() {
        return;
    }
    let dir = Scratch::new("run-loop-no-must");
    // Lists no operation: every case is skipped.
    let adapter = script(&dir.0, "[]", "    pass");
    let cases = spec_cases().join("shape.auto.once");
    let cases = cases.to_str().unwrap();
    let (code, stdout, _) = run(&["--adapter", &adapter, "--cases", cases]);
    assert_eq!(code, 1, "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("FAILED: no MUST case ran"), "{last}");
    let (code, stdout, _) = run(&["--adapter", &adapter, "--cases", cases, "--allow-no-must"]);
    assert_eq!(code, 0, "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(last.contains("--allow-no-must"), "{last}");
    assert!(last.contains("no MUST case ran"), "{last}");
}

#[test]
fn an_issue_url_reaches_the_record_and_a_bad_one_is_refused_naming_file_and_entry() {
    let dir = Scratch::new("run-loop-issue");
    let file = dir.0.join("issue.toml");
    let entry = |url: &str| {
        format!(
            "[[failure]]\nids = [\"shape.auto.once/two-autos\"]\nclause = \"shape.auto.once\"\n\
             reason = \"r\"\nissue_url = \"{url}\"\n"
        )
    };
    let cases = spec_cases().join("shape.auto.once");
    let jsonl = dir.0.join("run.jsonl");
    let report = format!("jsonl={}", jsonl.display());
    let arguments = [
        "--cases",
        cases.to_str().unwrap(),
        "--expectations",
        file.to_str().unwrap(),
        "--report",
        &report,
    ];
    std::fs::write(&file, entry("http://example.org/issues/1")).unwrap();
    let (code, _, stderr) = run(&arguments);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(file.to_str().unwrap()), "{stderr}");
    assert!(
        stderr.contains(
            "the entry of shape.auto.once (shape.auto.once/two-autos): issue_url must start with https://"
        ),
        "{stderr}"
    );
    // A good one: the reference passes the case (an unexpected pass, exit 1), and
    // its line carries the URL.
    let url = "https://github.com/example/example-zarr/issues/7";
    std::fs::write(&file, entry(url)).unwrap();
    let (code, stdout, _) = run(&arguments);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(&format!("; upstream issue {url}")),
        "{stdout}"
    );
    let line = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .find(|line| line.contains("\"shape.auto.once/two-autos\""))
        .map(str::to_string)
        .unwrap();
    assert!(
        line.contains(&format!("\"known_issue\":\"{url}\"")),
        "{line}"
    );
}
