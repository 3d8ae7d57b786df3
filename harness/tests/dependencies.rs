//! What the harness costs its users: the number of packages it pulls stays at or
//! below the number its README states, and a crate depending on the library and
//! the harness (the adopter fixture, tests/adopter/) gets serde_json without
//! `arbitrary_precision`. Both read `cargo tree`, offline, from the lockfiles.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn cargo_tree(arguments: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["tree", "--offline", "--locked"])
        .args(arguments)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Offline, as tests are: every package asked for is one of the host's, which
    // the build of these tests has downloaded.
    assert!(
        output.status.success(),
        "cargo tree {arguments:?} failed (if a package is missing offline, run \
         `cargo fetch --locked` first):\n{stderr}"
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The count the README states: the number in `**N** distinct packages`.
fn stated_count() -> usize {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let (before, _) = readme.split_once("** distinct packages").unwrap();
    let (_, number) = before.rsplit_once("**").unwrap();
    number.parse().unwrap()
}

#[test]
fn the_harness_pulls_no_more_packages_than_the_readme_states() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let tree = cargo_tree(&[
        "--manifest-path",
        manifest.to_str().unwrap(),
        "-p",
        "zarr-reshape-harness",
        "-e",
        "normal",
        // The host's packages: the ones `cargo test` has downloaded, so the count
        // needs no network on a fresh clone. The README also gives the all-targets
        // count, for information.
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]);
    let packages: BTreeSet<&str> = tree
        .lines()
        .map(|line| {
            line.trim_end_matches(" (*)")
                .trim_end_matches(" (proc-macro)")
        })
        .filter(|line| !line.is_empty())
        .collect();
    assert!(
        packages.iter().any(|p| p.starts_with("libtest-mimic ")),
        "{packages:?}"
    );
    assert!(
        packages.len() <= stated_count(),
        "the harness pulls {} packages, the README states {}: {packages:#?}",
        packages.len(),
        stated_count()
    );
}

#[test]
fn an_adopter_of_library_and_harness_gets_serde_json_without_arbitrary_precision() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adopter/Cargo.toml");
    let tree = cargo_tree(&[
        "--manifest-path",
        manifest.to_str().unwrap(),
        "-e",
        "features",
        "-i",
        "serde_json",
    ]);
    // The tree names both dependencies, so it is the build in question.
    for package in [
        "zarr-reshape v",
        "zarr-reshape-harness v",
        "serde_json feature \"raw_value\"",
    ] {
        assert!(tree.contains(package), "{package:?} is not in:\n{tree}");
    }
    assert!(!tree.contains("arbitrary_precision"), "{tree}");
}
