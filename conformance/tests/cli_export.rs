//! `zarr-reshape vectors --export DIR`: a self-contained copy of the embedded suite
//! that validates against its own schema, whose SHA256SUMS hold (and catch a
//! changed byte), that runs as a suite, and that is never written over anything.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::Scratch;
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use zarr_reshape_conformance::vector;

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

fn zarr_reshape(args: &[&str]) -> Output {
    Command::new(BINARY).args(args).output().unwrap()
}

fn export(dir: &Path) -> Output {
    zarr_reshape(&["vectors", "--export", dir.to_str().unwrap()])
}

/// Every regular file below `root`, as '/'-separated relative paths.
fn files_below(root: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                folders.push(entry.path());
            } else {
                assert!(
                    kind.is_file(),
                    "{}: not a regular file",
                    entry.path().display()
                );
                let relative = entry.path().strip_prefix(root).unwrap().to_path_buf();
                let parts: Vec<String> = relative
                    .components()
                    .map(|part| part.as_os_str().to_str().unwrap().to_string())
                    .collect();
                found.insert(parts.join("/"));
            }
        }
    }
    found
}

/// The paths whose checksum in `dir/SHA256SUMS` does not match the file; the
/// manifest is read as `sha256sum -c` reads it (`<hex>  <path>` per line).
fn checksum_mismatches(dir: &Path) -> (BTreeSet<String>, Vec<String>) {
    let manifest = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let mut listed = BTreeSet::new();
    let mut wrong = Vec::new();
    for line in manifest.lines() {
        let (hex, path) = line.split_once("  ").unwrap();
        assert_eq!(hex.len(), 64, "{line}");
        assert!(listed.insert(path.to_string()), "{path} listed twice");
        let bytes = std::fs::read(dir.join(path)).unwrap();
        let actual: String = Sha256::digest(&bytes)
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        if actual != hex {
            wrong.push(path.to_string());
        }
    }
    (listed, wrong)
}

#[test]
fn the_export_is_the_embedded_suite_with_a_manifest_that_holds() {
    let scratch = Scratch::new("export");
    let dir = scratch.0.join("suite");
    let output = export(&dir);
    assert!(output.status.success(), "{output:?}");

    // Every embedded file, byte for byte, and nothing else but the manifest.
    let embedded: BTreeSet<String> = zarr_reshape_vectors::files()
        .iter()
        .map(|file| file.path.to_string())
        .collect();
    for file in zarr_reshape_vectors::files() {
        assert_eq!(
            std::fs::read(dir.join(file.path)).unwrap(),
            file.bytes,
            "{}",
            file.path
        );
    }
    let mut expected = embedded.clone();
    expected.insert("SHA256SUMS".into());
    assert_eq!(files_below(&dir), expected);
    for needed in ["clauses.json", "vector.schema.json", "README.md"] {
        assert!(embedded.contains(needed), "{needed} is exported");
    }
    assert!(embedded.iter().any(|path| path.starts_with("arrays/")));

    // The manifest lists every suite file once, and each checksum holds.
    let (listed, wrong) = checksum_mismatches(&dir);
    assert_eq!(listed, embedded);
    assert_eq!(wrong, Vec::<String>::new());

    // A changed byte is caught.
    let victim = dir.join(zarr_reshape_vectors::vector_files().next().unwrap().path);
    let mut bytes = std::fs::read(&victim).unwrap();
    bytes[0] ^= 1;
    std::fs::write(&victim, &bytes).unwrap();
    let (_, wrong) = checksum_mismatches(&dir);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(victim.ends_with(&wrong[0]), "{wrong:?}");
}

#[test]
fn sha256sum_accepts_the_manifest_where_it_is_installed() {
    if Command::new("sha256sum").arg("--version").output().is_err() {
        eprintln!("sha256sum is not installed: only the in-process check ran");
        return;
    }
    let scratch = Scratch::new("export-sha256sum");
    let dir = scratch.0.join("suite");
    assert!(export(&dir).status.success());
    let check = |dir: &Path| {
        Command::new("sha256sum")
            .args(["--check", "--quiet", "--strict", "SHA256SUMS"])
            .current_dir(dir)
            .output()
            .unwrap()
    };
    let output = check(&dir);
    assert!(output.status.success(), "{output:?}");
    std::fs::write(dir.join("clauses.json"), b"{}").unwrap();
    assert!(!check(&dir).status.success());
}

#[test]
fn every_exported_vector_file_validates_against_the_exported_schema() {
    let scratch = Scratch::new("export-schema");
    let dir = scratch.0.join("suite");
    assert!(export(&dir).status.success());
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("vector.schema.json")).unwrap())
            .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let files = vector::discover(&dir).unwrap();
    assert_eq!(files.len(), zarr_reshape_vectors::vector_files().count());
    for file in &files {
        let instance: Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .map(|error| format!("{} at {}: {error}", file.display(), error.instance_path()))
            .collect();
        assert_eq!(errors, Vec::<String>::new());
    }
    // A file that breaks the schema is caught by the same check.
    let broken = serde_json::json!({"format": 1, "cases": [{"id": 1}]});
    assert!(!validator.is_valid(&broken));

    // And the export is a suite: its own fixtures read, every MUST case passes.
    let output = zarr_reshape(&["run", "--cases", dir.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("cases: suite folder"), "{said}");
}

#[test]
fn an_export_never_writes_over_or_outside_its_folder() {
    let scratch = Scratch::new("export-refusals");
    let root = &scratch.0;

    // A folder that is not empty is left as it was.
    let busy = root.join("busy");
    std::fs::create_dir(&busy).unwrap();
    std::fs::write(busy.join("clauses.json"), b"mine").unwrap();
    let output = export(&busy);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("not empty"));
    assert_eq!(
        files_below(&busy),
        BTreeSet::from(["clauses.json".to_string()])
    );
    assert_eq!(std::fs::read(busy.join("clauses.json")).unwrap(), b"mine");

    // A missing parent is not made: it would be outside the folder.
    let deep: PathBuf = root.join("missing").join("suite");
    assert_eq!(export(&deep).status.code(), Some(2));
    assert!(!root.join("missing").exists());

    // A file, and a link (even to an empty folder), are refused.
    let file = root.join("file");
    std::fs::write(&file, b"x").unwrap();
    assert_eq!(export(&file).status.code(), Some(2));
    #[cfg(unix)]
    {
        let empty = root.join("empty");
        std::fs::create_dir(&empty).unwrap();
        let link = root.join("link");
        std::os::unix::fs::symlink(&empty, &link).unwrap();
        let output = export(&link);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("link"));
        assert_eq!(files_below(&empty), BTreeSet::new());
        // A dangling link: refused, and the folder it names is not made.
        let dangling = root.join("dangling");
        std::os::unix::fs::symlink(root.join("nowhere"), &dangling).unwrap();
        assert_eq!(export(&dangling).status.code(), Some(2));
        assert!(!root.join("nowhere").exists());
    }

    // An empty folder is used.
    let empty = root.join("fresh");
    std::fs::create_dir(&empty).unwrap();
    assert!(export(&empty).status.success());
    assert!(empty.join("SHA256SUMS").is_file());
}
