//! The bash completion script at work: sourced into bash, its function called as
//! bash calls it on a Tab, it offers each subcommand's own flags (clap_complete's
//! script did not, for a binary whose name has a hyphen: clap-rs/clap#6421).
#![cfg(unix)]
// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::process::Command;

use common::Scratch;

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

/// What the script completes for the words `line` (the last one being completed),
/// or `None` where bash is not installed.
fn complete(script: &std::path::Path, line: &[&str]) -> Option<String> {
    let words: Vec<String> = line.iter().map(|w| format!("'{w}'")).collect();
    let current = line.last().unwrap();
    let previous = line.len().checked_sub(2).map_or("", |i| line[i]);
    let program = format!(
        "source '{}' || exit 3\n\
         COMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE='{}'\nCOMP_POINT=${{#COMP_LINE}}\n\
         fn=$(complete -p zarr-reshape | sed -e 's/.*-F \\([^ ]*\\) .*/\\1/')\n\
         \"$fn\" zarr-reshape '{current}' '{previous}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words.join(" "),
        line.len().saturating_sub(1),
        line.join(" "),
    );
    let output = Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(program)
        .output()
        .ok()?;
    assert!(output.status.success(), "{output:?}");
    Some(String::from_utf8(output.stdout).unwrap())
}

#[test]
fn bash_completes_each_subcommands_flags() {
    let scratch = Scratch::new("completions-bash");
    let script = scratch.0.join("zarr-reshape.bash");
    let output = Command::new(BINARY)
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    std::fs::write(&script, &output.stdout).unwrap();

    let Some(top) = complete(&script, &["zarr-reshape", ""]) else {
        eprintln!("bash is not installed: not checked");
        return;
    };
    assert!(top.lines().any(|w| w == "run"), "{top}");
    let cases: [(&[&str], &[&str]); 4] = [
        (
            &["zarr-reshape", "run", "--"],
            &["--adapter", "--jobs", "--timeout"],
        ),
        (&["zarr-reshape", "run", "--ad"], &["--adapter"]),
        (
            &["zarr-reshape", "check-spec", "--"],
            &["--fix", "--format"],
        ),
        (&["zarr-reshape", "man", "--"], &["--out"]),
    ];
    for (line, flags) in cases {
        let offered = complete(&script, line).unwrap();
        for flag in flags {
            assert!(
                offered.lines().any(|w| w == *flag),
                "{line:?}: {flag} not offered: {offered:?}"
            );
        }
        // Not the top level's words.
        assert!(
            !offered.lines().any(|w| w == "fixtures"),
            "{line:?}: {offered}"
        );
    }
}
