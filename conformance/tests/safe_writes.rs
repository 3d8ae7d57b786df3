//! Nothing written or deleted that is not ours (issue 30, item 6): `fixtures`,
//! `fuzz --out` and `man --out` check every path before they change anything,
//! and never write or delete through a symbolic link or outside their folder;
//! `fixtures` writes into the checkout the user stands in, never the source tree
//! the binary was built from.
#![cfg(unix)]
// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;
mod fuzzing;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output};

use common::Scratch;
use zarr_reshape_conformance::fixtures;

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

fn zarr_reshape(args: &[&str], cwd: &Path) -> Output {
    Command::new(BINARY)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

/// Every path below `dir` (links not followed) with its bytes, sorted.
fn everything_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let entry = entry.unwrap();
            let name = entry.path().display().to_string();
            if entry.file_type().unwrap().is_dir() {
                folders.push(entry.path());
                found.push((name, Vec::new()));
            } else {
                found.push((name, std::fs::read(entry.path()).unwrap_or_default()));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn fixtures_delete_nothing_through_a_linked_arrays_folder() {
    // Another suite's arrays/, whose manifest lists a file the set does not have.
    let scratch = Scratch::new("fixtures-linked-arrays");
    let other = scratch.0.join("other");
    fixtures::write(&other).unwrap();
    let manifest = other.join(fixtures::MANIFEST);
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("arrays/retired/zarr.json\n");
    std::fs::write(&manifest, text).unwrap();
    std::fs::create_dir(other.join("arrays/retired")).unwrap();
    std::fs::write(other.join("arrays/retired/zarr.json"), "theirs").unwrap();
    let before = everything_under(&other);

    let suite = scratch.0.join("suite");
    std::fs::create_dir(&suite).unwrap();
    symlink(other.join("arrays"), suite.join("arrays")).unwrap();
    for force in [false, true] {
        let error = fixtures::write_with(&suite, force).unwrap_err();
        assert!(error.contains("symbolic link"), "{error}");
        assert!(
            everything_under(&other) == before,
            "force {force}: the other folder changed"
        );
    }
    // The same for generated/, and for the suite root itself.
    std::fs::remove_file(suite.join("arrays")).unwrap();
    symlink(other.join("generated"), suite.join("generated")).unwrap();
    assert!(fixtures::write_with(&suite, true).is_err());
    assert!(!suite.join("arrays").exists(), "refused before acting");
    assert!(fixtures::write_with(&scratch.0.join("missing/suite"), true).is_err());
    assert!(!scratch.0.join("missing").exists(), "no parent made");
    symlink(&other, scratch.0.join("linked")).unwrap();
    assert!(fixtures::write_with(&scratch.0.join("linked"), true).is_err());
    assert!(
        everything_under(&other) == before,
        "the other folder changed"
    );
}

#[test]
fn fixtures_write_into_the_checkout_of_the_current_folder_or_refuse() {
    let scratch = Scratch::new("fixtures-default-root");
    // No checkout from here up: refused, with what to do.
    let output = zarr_reshape(&["fixtures"], &scratch.0);
    let said = String::from_utf8_lossy(&output.stderr);
    if !scratch
        .0
        .ancestors()
        .any(|a| a.join("spec-cases/clauses.json").is_file())
    {
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert!(
            said.contains("spec-cases/clauses.json") && said.contains("SUITE_ROOT"),
            "{said}"
        );
        assert!(String::from_utf8_lossy(&output.stdout).is_empty());
    }
    // Inside a checkout, from a folder below its root: its spec-cases/.
    let suite = scratch.0.join("checkout/spec-cases");
    std::fs::create_dir_all(&suite).unwrap();
    std::fs::write(suite.join("clauses.json"), "{}").unwrap();
    let below = scratch.0.join("checkout/conformance/src");
    std::fs::create_dir_all(&below).unwrap();
    let output = zarr_reshape(&["fixtures"], &below);
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("checkout/spec-cases"), "{said}");
    assert_eq!(
        fixtures::on_disk(&suite).unwrap(),
        fixtures::render().unwrap()
    );
}

/// Accepts what the prefix or suffix rule rejects: one finding, fast.
const ACCEPTS_MISALIGNED: &str = r#"def mutate(case, result):
    if result.get("error", {}).get("class") == "input-dims-misaligned":
        return {"encoded_shape": [1]}
"#;

#[test]
fn fuzz_out_never_writes_through_a_planted_link() {
    let dir = fuzzing::scratch("out-links");
    let adapter = fuzzing::buggy_adapter(&dir, ACCEPTS_MISALIGNED);
    let fuzz_into = |out: &Path| {
        let out = out.to_str().unwrap();
        let arguments = ["--adapter", &adapter, "--seed", "1", "--cases", "300"];
        fuzzing::fuzz_run(&[&arguments[..], &["--operations", "resolve", "--out", out]].concat())
    };
    // Where the finding goes, from a first run into a fresh folder.
    let first = dir.join("first");
    assert_eq!(fuzz_into(&first).code, Some(1));
    let written: Vec<String> = everything_under(&first)
        .into_iter()
        .filter(|(_, bytes)| !bytes.is_empty())
        .map(|(path, _)| {
            path.strip_prefix(&format!("{}/", first.display()))
                .unwrap()
                .to_string()
        })
        .collect();
    let [name] = written.as_slice() else {
        panic!("{written:?}")
    };
    let (clause, _) = name.split_once('/').unwrap();
    let victim = dir.join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("keep.json"), "theirs").unwrap();
    let before = everything_under(&victim);

    // --out itself a link: refused before the run.
    let linked = dir.join("linked");
    symlink(&victim, &linked).unwrap();
    let run = fuzz_into(&linked);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    assert!(!run.stdout.contains("fuzz:"), "refused before fuzzing");
    // A link planted where the clause's folder goes, or where the file goes.
    let out = dir.join("planted-folder");
    std::fs::create_dir(&out).unwrap();
    symlink(&victim, out.join(clause)).unwrap();
    let run = fuzz_into(&out);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    let out = dir.join("planted-file");
    std::fs::create_dir_all(out.join(clause)).unwrap();
    symlink(victim.join("keep.json"), out.join(name)).unwrap();
    assert_eq!(fuzz_into(&out).code, Some(2));
    assert_eq!(everything_under(&victim), before, "nothing written through");
    // A missing parent is not made; the same run into the same folder replaces its file.
    assert_eq!(fuzz_into(&dir.join("missing/out")).code, Some(2));
    assert!(!dir.join("missing").exists());
    assert_eq!(fuzz_into(&first).code, Some(1));
}

#[test]
fn man_out_replaces_its_own_pages_and_nothing_else() {
    let scratch = Scratch::new("man-out");
    let dir = scratch.0.join("man1");
    let man = |dir: &Path| zarr_reshape(&["man", "--out", dir.to_str().unwrap()], &scratch.0);
    // A new folder, then the same folder again: its own pages are replaced.
    assert!(man(&dir).status.success());
    let pages = everything_under(&dir);
    assert_eq!(pages.len(), 13);
    let output = man(&dir);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(everything_under(&dir), pages);
    // Another file of a page's name: refused with a hint, before writing anything.
    std::fs::remove_file(dir.join("zarr-reshape.1")).unwrap();
    std::fs::write(dir.join("zarr-reshape-run.1"), "mine").unwrap();
    let output = man(&dir);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("Move it away") && said.contains("nothing was written"),
        "{said}"
    );
    assert!(
        !dir.join("zarr-reshape.1").exists(),
        "checked before acting"
    );
    assert_eq!(
        std::fs::read(dir.join("zarr-reshape-run.1")).unwrap(),
        b"mine"
    );
    // A link, as the folder or as a page, is never written through.
    let victim = scratch.0.join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("page"), "theirs").unwrap();
    symlink(&victim, scratch.0.join("linked")).unwrap();
    let output = man(&scratch.0.join("linked"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("symbolic link"));
    std::fs::remove_file(dir.join("zarr-reshape-run.1")).unwrap();
    symlink(victim.join("page"), dir.join("zarr-reshape-run.1")).unwrap();
    assert_eq!(man(&dir).status.code(), Some(2));
    assert_eq!(std::fs::read(victim.join("page")).unwrap(), b"theirs");
    assert_eq!(std::fs::read_dir(&victim).unwrap().count(), 1);
    // An empty existing folder is used; a missing parent is not made.
    let empty = scratch.0.join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert!(man(&empty).status.success());
    assert_eq!(man(&scratch.0.join("missing/man1")).status.code(), Some(2));
    assert!(!scratch.0.join("missing").exists());
}
