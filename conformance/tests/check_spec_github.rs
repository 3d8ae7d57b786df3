//! `zarr-reshape check-spec --format github`: snapshots of the annotations on the
//! shared copies of the reshape spec (when they sit beside the repository), and
//! hostile text that must not forge a second workflow command.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::PathBuf;
use std::process::Command;

use zarr_reshape_conformance::check_spec::{self, Severity, github};

/// The text of a workflow command's message or property as the Actions runner
/// reads it back (its unescaping, written out here from its documentation).
fn unescape(text: &str) -> String {
    text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

/// The workflow commands of an output: every line starting with `::`.
fn commands(output: &str) -> Vec<&str> {
    output
        .lines()
        .filter(|line| line.starts_with("::"))
        .collect()
}

#[test]
fn shared_spec_copies_as_annotations() {
    // Beside the repository's checkout; a worktree elsewhere names it in the environment.
    let dir = std::env::var_os("ZARR_RESHAPE_SHARED_SPEC").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec"),
        PathBuf::from,
    );
    if !dir.is_dir() {
        eprintln!(
            "note: {} is not there; the GitHub format is not tried on the shared spec copies",
            dir.display()
        );
        return;
    }
    for file in ["reshape-codec.md", "reshape-codec.upstream.md"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let report = check_spec::check(&text);
        let output = github::annotations(&report, &text, file);
        insta::assert_snapshot!(format!("github-{file}"), output);
        let wanted = report.count(Severity::Error) + report.count(Severity::Warning);
        assert_eq!(commands(&output).len(), wanted, "{file}");
        assert!(output.contains("::error file="), "{file}");
        assert!(output.ends_with(&format!("{}\n", check_spec::render::summary(&report, file))));
    }
}

#[test]
fn hostile_text_cannot_forge_a_command() {
    // A codec name with a line break and a forged command in it, a file name with
    // `,` and `:` (which would start another property), and `%0A` written out.
    let text = "# reshape codec\n\n```json\n{\"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}},\n \"codecs\": [{\"name\": \"x\\n::error file=forged.md,line=1::forged %0A\\r\"}, {\"name\": \"bytes\"}, {\"name\": \"bytes\"}]}\n```\n";
    let report = check_spec::check(text);
    let path = "a,line=9:b%0A.md";
    let output = github::annotations(&report, text, path);
    let lines = commands(&output);
    let wanted = report.count(Severity::Error) + report.count(Severity::Warning);
    assert!(wanted >= 2, "{output}");
    assert_eq!(lines.len(), wanted, "{output}");
    assert_eq!(output.lines().count(), wanted + 1, "{output}");
    let forged = report
        .findings
        .iter()
        .find(|finding| finding.message.contains("::error file=forged"))
        .expect("the hostile codec name is in a finding");
    for line in lines {
        let (head, message) = line
            .split_once("::")
            .and_then(|(_, rest)| rest.split_once("::"))
            .unwrap();
        let (_, properties) = head.split_once(' ').unwrap();
        let properties: Vec<&str> = properties.split(',').collect();
        assert_eq!(properties.len(), 6, "{line}");
        assert_eq!(unescape(properties[0].strip_prefix("file=").unwrap()), path);
        assert!(!message.contains(['\n', '\r']));
        if unescape(message).starts_with(&forged.message) {
            assert!(unescape(message).contains("forged %0A\r"));
        }
    }
    assert_eq!(github::data("%0A\r\n%"), "%250A%0D%0A%25");
    assert_eq!(github::property("a:b,c%"), "a%3Ab%2Cc%25");
}

#[test]
fn the_command_writes_annotations_for_every_file() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/check_spec");
    let output = Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
        .current_dir(&fixtures)
        .args([
            "check-spec",
            "--format",
            "github",
            "missing-comma.md",
            "good-metadata.md",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines = commands(&stdout);
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(
        lines[0].starts_with("::error file=missing-comma.md,line=14,col=22,"),
        "{stdout}"
    );
    assert!(lines[0].contains("title=check-spec json-syntax::"));
    assert!(
        lines[0].ends_with("%0Ahelp: add the missing comma"),
        "{stdout}"
    );
    assert!(stdout.contains("check-spec: good-metadata.md: 0 errors"));
}
