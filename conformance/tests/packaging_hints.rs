//! The packaging scripts' usage lines name only flags the binary has: each
//! `--flag` on a comment line of `packaging/*.sh` that sends arguments to
//! `zarr-reshape run` is one `zarr-reshape run --help` lists (install-crate.sh
//! once suggested a `--level` that never existed).

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

/// The `--flag` words of `line`.
fn flags(line: &str) -> Vec<String> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|word| word.starts_with("--") && word.len() > 2)
        .map(str::to_string)
        .collect()
}

#[test]
fn packaging_scripts_suggest_only_flags_that_run_has() {
    let help = Command::new(BINARY)
        .args(["run", "--help"])
        .output()
        .unwrap();
    assert!(help.status.success(), "{help:?}");
    let help = String::from_utf8(help.stdout).unwrap();
    let packaging = Path::new(env!("CARGO_MANIFEST_DIR")).join("../packaging");
    let mut checked = 0;
    for entry in std::fs::read_dir(&packaging).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "sh") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|line| {
            line.trim_start().starts_with('#') && line.contains("go to `zarr-reshape run`")
        }) {
            for flag in flags(line) {
                assert!(
                    help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n")),
                    "{}: `{flag}` is no flag of `zarr-reshape run`: {line}",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no usage line with a flag found");
}
