//! Where the CLI's cases come from: the embedded suite by default (unpacked to a
//! private temporary folder and removed again), or what `--cases` names, said in
//! words; `vectors DIR` says what it found; `--version` names the suite.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::Scratch;
use serde_json::{Value, json};
use zarr_reshape_conformance::vector::embedded::{self, EmbeddedSuite};

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

/// Runs the binary in `dir` with its temporary folder at `tmp`.
fn zarr_reshape(dir: &Path, tmp: &Path, args: &[&str]) -> Output {
    Command::new(BINARY)
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", tmp)
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The cases of the embedded suite whose first clause is `clause`, counted from
/// the vector files themselves.
fn embedded_cases_of(clause: &str) -> usize {
    zarr_reshape_vectors::vector_files()
        .map(|file| {
            let json: Value = serde_json::from_slice(file.bytes).unwrap();
            json["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|case| case["clauses"][0] == clause)
                .count()
        })
        .sum()
}

/// A small suite: the embedded registry and schema, and two vector files.
fn small_suite(root: &Path) {
    for name in ["clauses.json", "vector.schema.json"] {
        std::fs::write(root.join(name), zarr_reshape_vectors::file(name).unwrap()).unwrap();
    }
    let case = |id: &str, clause: &str, shape: Value, expect: Value| {
        json!({"id": id, "description": format!("{id}, made by the test"), "clauses": [clause],
               "level": "must", "operation": "resolve", "configuration": {"shape": shape},
               "decoded_shape": [2, 3], "expect": expect})
    };
    std::fs::create_dir(root.join("shape.size")).unwrap();
    let one = json!({"format": 1, "cases": [
        case("shape.size/six", "shape.size", json!([6]), json!({"encoded_shape": [6]})),
        case("shape.size/zero", "shape.size", json!([0]), json!({"error": "invalid-size"})),
    ]});
    std::fs::write(root.join("shape.size/two.json"), one.to_string()).unwrap();
    std::fs::create_dir(root.join("shape.auto.once")).unwrap();
    let two = json!({"format": 1, "cases": [
        case("shape.auto.once/two", "shape.auto.once", json!([-1, -1]),
             json!({"error": "repeated-auto"})),
    ]});
    std::fs::write(root.join("shape.auto.once/one.json"), two.to_string()).unwrap();
}

fn is_empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

#[test]
fn cases_resolve_to_a_suite_a_folder_below_one_a_file_or_a_clause_id() {
    let scratch = Scratch::new("cli-cases");
    let (suite, tmp) = (scratch.0.join("suite"), scratch.0.join("tmp"));
    std::fs::create_dir_all(&suite).unwrap();
    std::fs::create_dir_all(&tmp).unwrap();
    small_suite(&suite);
    let clause = "input-dims.prefix";
    let output = zarr_reshape(
        &scratch.0,
        &tmp,
        &[
            "run",
            "--cases",
            "suite",
            "suite/shape.size",
            "suite/shape.auto.once/one.json",
            clause,
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let said: Vec<String> = stderr(&output)
        .lines()
        .filter(|line| line.starts_with("cases: "))
        .map(str::to_string)
        .collect();
    let count = embedded_cases_of(clause);
    assert!(count > 0);
    let expected = [
        "cases: suite folder suite: 3 cases in 2 files".to_string(),
        "cases: folder suite/shape.size, in the suite at suite: 2 cases in 1 files".into(),
        "cases: file suite/shape.auto.once/one.json: 1 cases".into(),
        format!(
            "cases: clause {clause} of the {}: its {count} cases (those whose first clause it is)",
            embedded::name()
        ),
    ];
    assert_eq!(said, expected);
    assert!(stdout(&output).contains(&format!("{}", 3 + 2 + 1 + count)));
    assert!(is_empty(&tmp), "the unpacked suite is removed");

    // Neither a path nor a clause: the error says what --cases takes.
    let output = zarr_reshape(&scratch.0, &tmp, &["run", "--cases", "input-dims.prefx"]);
    assert_eq!(output.status.code(), Some(2));
    insta::assert_snapshot!("unknown-cases", stderr(&output));
}

#[test]
fn the_default_is_the_embedded_suite_and_nothing_is_left_behind() {
    let scratch = Scratch::new("cli-default");
    let output = zarr_reshape(&scratch.0, &scratch.0, &["run", "--filter", "codec.name/*"]);
    assert!(output.status.success(), "{output:?}");
    let files = zarr_reshape_vectors::vector_files().count();
    assert!(
        stderr(&output).starts_with(&format!("cases: {}: ", embedded::name())),
        "{output:?}"
    );
    assert!(stderr(&output).contains(&format!(" in {files} files")));
    assert!(is_empty(&scratch.0), "the unpacked suite is removed");

    let output = zarr_reshape(&scratch.0, &scratch.0, &["vectors", "--validate"]);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).starts_with(&embedded::name()));
    assert!(is_empty(&scratch.0));
}

#[test]
fn the_unpacked_suite_is_private_and_only_what_was_written_is_removed() {
    let scratch = Scratch::new("cli-unpack");
    let suite = EmbeddedSuite::unpack_in(&scratch.0).unwrap();
    let root = suite.root().to_path_buf();
    assert!(root.starts_with(&scratch.0));
    assert_eq!(
        std::fs::read(root.join("clauses.json")).unwrap(),
        zarr_reshape_vectors::file("clauses.json").unwrap()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&root).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
    // A second unpack gets a folder of its own.
    let other = EmbeddedSuite::unpack_in(&scratch.0).unwrap();
    assert_ne!(other.root(), root);
    drop(other);

    // Someone else's file is kept, and so is the folder that holds it.
    let theirs = root.join("shape.size").join("theirs.txt");
    std::fs::write(&theirs, b"keep me").unwrap();
    let error = suite.remove().unwrap_err();
    assert!(error.to_string().contains("shape.size"), "{error}");
    assert_eq!(std::fs::read(&theirs).unwrap(), b"keep me");
    assert!(!root.join("clauses.json").exists());
}

#[test]
fn vectors_says_what_it_found() {
    let scratch = Scratch::new("cli-vectors");
    let suite = scratch.0.join("suite");
    std::fs::create_dir(&suite).unwrap();
    small_suite(&suite);
    let output = zarr_reshape(&scratch.0, &scratch.0, &["vectors", "suite"]);
    assert!(output.status.success(), "{output:?}");
    insta::assert_snapshot!("vectors-listing", stdout(&output));

    let output = zarr_reshape(&scratch.0, &scratch.0, &["vectors", "suite/shape.size"]);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).starts_with("suite/shape.size: 2 cases in 1 files, 1 clauses\n"));

    std::fs::create_dir(scratch.0.join("none")).unwrap();
    let output = zarr_reshape(&scratch.0, &scratch.0, &["vectors", "none"]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("vectors-found-nothing", stderr(&output));
}

#[test]
fn version_names_the_suite_format_protocol_and_spec_commit() {
    let output = Command::new(BINARY).arg("--version").output().unwrap();
    assert!(output.status.success());
    let registry: Value =
        serde_json::from_slice(zarr_reshape_vectors::file("clauses.json").unwrap()).unwrap();
    let expected = format!(
        "zarr-reshape {}\nsuite {} (vector format {})\nadapter protocol {}\nspec commit {}\n",
        env!("CARGO_PKG_VERSION"),
        zarr_reshape_vectors::SUITE_VERSION,
        zarr_reshape_vectors::FORMAT,
        zarr_reshape_conformance::PROTOCOL_VERSION,
        registry["spec"]["commit"].as_str().unwrap()
    );
    assert_eq!(stdout(&output), expected);
    // The suite's README, copied into every export, names the same release.
    assert!(
        zarr_reshape_vectors::README.contains(&format!(
            "Suite version: **{}**",
            zarr_reshape_vectors::SUITE_VERSION
        )),
        "spec-cases/README.md names another suite version than {}",
        zarr_reshape_vectors::SUITE_VERSION
    );
    let short = Command::new(BINARY).arg("-V").output().unwrap();
    assert_eq!(
        stdout(&short),
        format!("zarr-reshape {}\n", env!("CARGO_PKG_VERSION"))
    );
    // The embedded files are of the format this runner reads.
    assert_eq!(
        zarr_reshape_vectors::FORMAT,
        zarr_reshape_conformance::vector::FORMAT
    );
}

#[test]
fn when_the_embedded_suite_cannot_be_unpacked_the_error_names_cases() {
    let scratch = Scratch::new("cli-no-tmp");
    let missing = scratch.0.join("missing");
    let output = zarr_reshape(&scratch.0, &missing, &["run"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr(&output).contains("--cases DIR"), "{output:?}");
    assert!(!missing.exists());
}
