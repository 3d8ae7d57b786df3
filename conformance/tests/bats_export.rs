//! `zarr-reshape export-bats DIR`: the layout against the fixtures it mirrors, the
//! owner manifest (a re-export replaces only its own files, refuses foreign ones
//! where it writes), `--check`; and the bats file itself, run by bats against the
//! reference reader (every test passes) and against wrong readers (the right tests
//! fail). Without bats the bats part says SKIPPED loudly; ZARR_RESHAPE_REQUIRE_BATS=1
//! makes that a failure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::Scratch;
use serde_json::Value;

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");
const MANIFEST: &str = "ZARR-RESHAPE-MANIFEST.txt";

fn arrays() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases/arrays")
}

/// Each fixture's name and its `expected.json`.
fn fixtures() -> BTreeMap<String, Value> {
    std::fs::read_dir(arrays())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .map(|path| {
            let expected = std::fs::read_to_string(path.join("expected.json")).unwrap();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&expected).unwrap(),
            )
        })
        .collect()
}

fn zarr_reshape(args: &[&str], dir: &Path) -> Output {
    Command::new(BINARY).args(args).arg(dir).output().unwrap()
}

fn export(dir: &Path) {
    let output = zarr_reshape(&["export-bats"], dir);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn leaves(value: &Value, into: &mut Vec<Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| leaves(item, into)),
        leaf => into.push(leaf.clone()),
    }
}

/// Every file below `dir`, relative, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

#[test]
fn the_export_mirrors_the_fixtures() {
    let scratch = Scratch::new("bats-layout");
    let dir = scratch.0.join("export");
    export(&dir);
    let script = std::fs::read_to_string(dir.join("tests.bats")).unwrap();
    let fixtures = fixtures();
    assert!(!fixtures.is_empty());
    for (name, expected) in &fixtures {
        let array = dir.join("data").join(format!("{name}.zarr"));
        for file in tree(&arrays().join(name)).keys() {
            let ours = array.join(file);
            if file == "expected.json" || file == "case.json" {
                assert!(
                    !ours.exists(),
                    "{name}: {file} is the suite's, not the array's"
                );
            } else {
                assert_eq!(
                    std::fs::read(&ours).unwrap(),
                    std::fs::read(arrays().join(name).join(file)).unwrap()
                );
            }
        }
        let test = format!("@test \"reshape: {name} (generated/read-array/{name})\"");
        assert!(script.contains(&test), "{test}");
        let values = dir.join("data").join(format!("{name}.expected"));
        match expected.get("data") {
            None => assert!(!values.exists(), "{name} is invalid: no values"),
            Some(data) => {
                let mut want = Vec::new();
                leaves(data, &mut want);
                let text = std::fs::read_to_string(&values).unwrap();
                let got: Vec<Value> = text
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect();
                assert_eq!(got, want, "{name}");
            }
        }
    }
    assert!(
        std::fs::read_to_string(dir.join("README.md"))
            .unwrap()
            .contains("ZARR_CLI=")
    );
}

#[test]
fn a_re_export_replaces_only_its_own_files() {
    let scratch = Scratch::new("bats-owner");
    let dir = scratch.0.join("export");
    export(&dir);
    let first = tree(&dir);
    // Someone else's file beside the export stays; a re-export changes nothing.
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    export(&dir);
    assert_eq!(
        zarr_reshape(&["export-bats", "--check"], &dir)
            .status
            .code(),
        Some(0)
    );
    let mut second = tree(&dir);
    assert_eq!(second.remove("notes.txt").unwrap(), b"mine");
    assert_eq!(second, first);
    // A changed file is stale, and a re-export restores it.
    std::fs::write(dir.join("tests.bats"), "changed").unwrap();
    let check = zarr_reshape(&["export-bats", "--check"], &dir);
    assert_eq!(check.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&check.stderr).contains("tests.bats differs"));
    export(&dir);
    assert_eq!(tree(&dir).get("tests.bats"), first.get("tests.bats"));
    // A file the manifest lists that the export no longer writes goes.
    let mut manifest = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
    manifest.push_str("data/gone.expected\n");
    std::fs::write(dir.join(MANIFEST), manifest).unwrap();
    std::fs::write(dir.join("data/gone.expected"), "1\n").unwrap();
    assert_eq!(
        zarr_reshape(&["export-bats", "--check"], &dir)
            .status
            .code(),
        Some(1)
    );
    export(&dir);
    assert!(!dir.join("data/gone.expected").exists());
    // A foreign file inside an array folder, where a reader would see it: refused,
    // nothing changed; --check names it.
    let name = fixtures().into_keys().next().unwrap();
    let foreign = dir.join("data").join(format!("{name}.zarr")).join("extra");
    std::fs::write(&foreign, "x").unwrap();
    let before = tree(&dir);
    let refused = zarr_reshape(&["export-bats"], &dir);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("did not write"));
    assert_eq!(tree(&dir), before);
    assert_eq!(
        zarr_reshape(&["export-bats", "--check"], &dir)
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn a_folder_holding_foreign_files_where_it_writes_is_refused() {
    let scratch = Scratch::new("bats-foreign");
    let dir = scratch.0.join("theirs");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("tests.bats"), "their tests").unwrap();
    let refused = zarr_reshape(&["export-bats"], &dir);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(dir.join("tests.bats")).unwrap(),
        "their tests"
    );
    assert!(!dir.join("data").exists() && !dir.join(MANIFEST).exists());
    // A manifest that is not the export's is no licence to write.
    std::fs::remove_file(dir.join("tests.bats")).unwrap();
    std::fs::write(dir.join(MANIFEST), "tests.bats\n").unwrap();
    assert_eq!(zarr_reshape(&["export-bats"], &dir).status.code(), Some(2));
}

/// Whether bats runs here; without it, SKIPPED (or a failure under
/// ZARR_RESHAPE_REQUIRE_BATS=1).
fn bats() -> bool {
    if Command::new("bats")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return true;
    }
    assert!(
        std::env::var("ZARR_RESHAPE_REQUIRE_BATS").as_deref() != Ok("1"),
        "bats is not on PATH and ZARR_RESHAPE_REQUIRE_BATS=1 requires it (apt-get install bats)"
    );
    eprintln!("\n*** SKIPPED: bats is not on PATH; the exported tests.bats was NOT run ***\n");
    false
}

/// Runs the export's tests.bats with `cli`; each test's name and whether it passed.
fn run_bats(dir: &Path, cli: &str) -> BTreeMap<String, bool> {
    run_bats_file(&dir.join("tests.bats"), &dir.join("data"), cli, &[])
}

/// `bats --tap file` with `envs` set besides ZARR_CLI and ZARR_CONFORMANCE_DATA.
fn run_bats_file(
    file: &Path,
    data: &Path,
    cli: &str,
    envs: &[(&str, &str)],
) -> BTreeMap<String, bool> {
    let output = Command::new("bats")
        .arg("--tap")
        .arg(file)
        .env("ZARR_CLI", cli)
        .env("ZARR_CONFORMANCE_DATA", data)
        .envs(envs.iter().copied())
        .output()
        .unwrap();
    let tap = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut results = BTreeMap::new();
    for line in tap.lines() {
        let (passed, rest) = match line.strip_prefix("not ok ") {
            Some(rest) => (false, rest),
            None => match line.strip_prefix("ok ") {
                Some(rest) => (true, rest),
                None => continue,
            },
        };
        let name = rest.split_once(' ').unwrap().1.to_string();
        results.insert(name, passed);
    }
    assert_eq!(
        output.status.success(),
        results.values().all(|p| *p),
        "{tap}"
    );
    results
}

/// A reader around the reference: MODE `wrong` adds 1 to the first value of
/// the array named VICTIM and exits 0 on invalid arrays, printing nothing;
/// `nested` prints the values as one JSON list.
const WRAPPER: &str = r#"#!/usr/bin/env python3
from __future__ import annotations
import json, pathlib, subprocess, sys

mode, victim, binary = sys.argv[1], sys.argv[2], sys.argv[3]
path = sys.argv[-1]
done = subprocess.run([binary, "read", path], capture_output=True, text=True)
if done.returncode != 0:
    sys.exit(0 if mode == "wrong" else done.returncode)
values = [json.loads(line) for line in done.stdout.splitlines() if line]
if mode == "nested":
    print(json.dumps(values))
    sys.exit(0)
if pathlib.Path(path.removeprefix("--array_path=")).name == victim + ".zarr":
    values[0] = (not values[0]) if isinstance(values[0], bool) else values[0] + 1
for value in values:
    print(json.dumps(value))
"#;

#[test]
fn bats_passes_the_reference_and_fails_wrong_readers() {
    if !bats() {
        return;
    }
    let scratch = Scratch::new("bats-run");
    let dir = scratch.0.join("export");
    export(&dir);
    let fixtures = fixtures();
    let name_of = |name: &str| format!("reshape: {name} (generated/read-array/{name})");
    let results = run_bats(&dir, &format!("{BINARY} read"));
    assert_eq!(results.len(), fixtures.len(), "{results:?}");
    assert!(results.values().all(|p| *p), "{results:?}");
    // Appended to zarr-conformance-tests' tests.bats, the tests run under `set -eu`.
    let strict = dir.join("strict.bats");
    let text = std::fs::read_to_string(dir.join("tests.bats")).unwrap();
    let (shebang, rest) = text.split_once('\n').unwrap();
    std::fs::write(&strict, format!("{shebang}\n\nset -eu\n{rest}")).unwrap();
    let results = run_bats_file(&strict, &dir.join("data"), &format!("{BINARY} read"), &[]);
    assert_eq!(results.len(), fixtures.len(), "{results:?}");
    assert!(results.values().all(|p| *p), "under set -eu: {results:?}");
    std::fs::remove_file(&strict).unwrap();

    if Command::new("python3").arg("--version").output().is_err() {
        return eprintln!("SKIPPED (in part): python3 is not on PATH, no wrong reader was run");
    }
    let wrapper = scratch.0.join("wrapper.py");
    std::fs::write(&wrapper, WRAPPER).unwrap();
    let (victim, _) = fixtures
        .iter()
        .find(|(_, e)| e.get("data").is_some())
        .unwrap();
    let wrong = format!("python3 {} wrong {victim} {BINARY}", wrapper.display());
    let results = run_bats(&dir, &wrong);
    for (name, expected) in &fixtures {
        let should_pass = expected.get("data").is_some() && name != victim;
        assert_eq!(results[&name_of(name)], should_pass, "{name}: {results:?}");
    }
    // With ZARR_RESHAPE_STATUS_ONLY=1 a wrong value is not seen; exit 0 on an
    // invalid array still is.
    let status_only = [("ZARR_RESHAPE_STATUS_ONLY", "1")];
    let results = run_bats_file(
        &dir.join("tests.bats"),
        &dir.join("data"),
        &wrong,
        &status_only,
    );
    for (name, expected) in &fixtures {
        let should_pass = expected.get("data").is_some();
        assert_eq!(results[&name_of(name)], should_pass, "{name}: {results:?}");
    }
    let nested = format!("python3 {} nested - {BINARY}", wrapper.display());
    let results = run_bats(&dir, &nested);
    assert!(
        results.values().all(|p| *p),
        "nested lists pass: {results:?}"
    );
    // A reader that is not there (status 127) refuses nothing: every test fails.
    let results = run_bats(&dir, "/nonexistent/reader");
    assert_eq!(results.len(), fixtures.len(), "{results:?}");
    assert!(results.values().all(|p| !*p), "{results:?}");
}

/// The export's `reshape_compare` (bash and awk), run on `expected` and `got`.
fn compare(dir: &Path, function: &str, data_type: &str, expected: &str, got: &str) -> bool {
    std::fs::write(dir.join("want"), expected).unwrap();
    std::fs::write(dir.join("got"), got).unwrap();
    let status = Command::new("bash")
        .arg("-c")
        .arg(format!("{function}\nreshape_compare \"$1\" \"$2\" \"$3\""))
        .arg("bash")
        .arg(data_type)
        .arg(dir.join("want"))
        .arg(dir.join("got"))
        .output()
        .unwrap();
    status.status.success()
}

#[test]
fn the_bats_comparison_is_the_contracts_as_far_as_awk_goes() {
    let scratch = Scratch::new("bats-compare");
    let dir = scratch.0.join("export");
    export(&dir);
    let script = std::fs::read_to_string(dir.join("tests.bats")).unwrap();
    let start = script.find("reshape_compare() {").unwrap();
    let end = start + script[start..].find("\n}\n").unwrap() + 3;
    let function = &script[start..end];
    let big = "12345678901234567890\n-5\n";
    // (data type, expected, printed, accepted)
    let table = [
        ("uint64", big, big, true),
        ("uint64", big, "[12345678901234567890, -5]", true),
        // Equal as doubles, not as integers.
        ("uint64", big, "12345678901234567891\n-5\n", false),
        ("int8", big, "12345678901234567890\n-5.0\n", false),
        ("int8", "0\n", "-0\n", true),
        ("bool", "true\nfalse\n", "true\nfalse\n\n\n", true),
        ("bool", "true\nfalse\n", "true\n0\n", false),
        ("bool", "true\nfalse\n", "true\n\nfalse\n", false),
        ("bool", "true\nfalse\n", "true\n", false),
        ("float32", "1.5\n-0\n\"NaN\"\n", "1.50\n-0.0\nNaN\n", true),
        (
            "float32",
            "1.5\n-0\n\"NaN\"\n",
            "[[1.5e0, -0.0], [\"NaN\"]]",
            true,
        ),
        ("float32", "1.5\n-0\n\"NaN\"\n", "1.5\n0\n\"NaN\"\n", false),
        ("float64", "1.5\n\"-Infinity\"\n", "1.5\n-Infinity\n", true),
        (
            "float64",
            "1.5\n\"-Infinity\"\n",
            "1.5\n\"Infinity\"\n",
            false,
        ),
        ("float64", "1.5\n", "1.5000001\n", false),
    ];
    for (data_type, expected, got, accepted) in table {
        assert_eq!(
            compare(&scratch.0, function, data_type, expected, got),
            accepted,
            "{data_type} {got:?}"
        );
    }
}

#[test]
fn no_symbolic_link_is_written_through() {
    use std::os::unix::fs::symlink;
    let scratch = Scratch::new("bats-links");
    let elsewhere = scratch.0.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    // The folder itself, data/, and an array folder, each a link in turn.
    let linked_dir = scratch.0.join("linked");
    symlink(&elsewhere, &linked_dir).unwrap();
    assert_eq!(
        zarr_reshape(&["export-bats"], &linked_dir).status.code(),
        Some(2)
    );
    let dir = scratch.0.join("export");
    std::fs::create_dir(&dir).unwrap();
    symlink(&elsewhere, dir.join("data")).unwrap();
    assert_eq!(zarr_reshape(&["export-bats"], &dir).status.code(), Some(2));
    std::fs::remove_file(dir.join("data")).unwrap();
    export(&dir);
    let name = fixtures().into_keys().next().unwrap();
    let array = dir.join("data").join(format!("{name}.zarr"));
    std::fs::remove_dir_all(&array).unwrap();
    symlink(&elsewhere, &array).unwrap();
    assert_eq!(zarr_reshape(&["export-bats"], &dir).status.code(), Some(2));
    assert_eq!(
        zarr_reshape(&["export-bats", "--check"], &dir)
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        0,
        "nothing written there"
    );
}
