//! `check-spec` against hostile file names and files (issue 30): a name that
//! looks like an option is checked, not obeyed (the CLI, the action's check step
//! and the pre-commit hook pass names after `--`); a name with line breaks or
//! control characters cannot forge or silence a workflow command, nor put a raw
//! control character into any output; `--fix` refuses what it cannot write as
//! the user's own (a read-only file, hard links, a linked folder or file) and
//! keeps mode and owner; a FIFO or a pseudo file is refused before it is read.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::Scratch;
use serde_json::Value;

const SLIP: &str = "# reshape codec\n\n```json\n{\"name\": \"reshape\" \"configuration\": {\"shape\": [-1]}}\n```\n";
const CLEAN: &str = "# reshape codec\n\nNothing to check.\n";

fn zarr_reshape(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/action")
        .join(name)
}

/// A folder holding `-h.md` (clean) and `bad.md` (a slip).
fn option_like_names(name: &str) -> Scratch {
    let scratch = Scratch::new(name);
    fs::write(scratch.0.join("-h.md"), CLEAN).unwrap();
    fs::write(scratch.0.join("bad.md"), SLIP).unwrap();
    scratch
}

#[test]
fn a_file_named_like_an_option_is_checked_not_obeyed() {
    let scratch = option_like_names("option-names");
    let dir = &scratch.0;
    let output = zarr_reshape(
        dir,
        &["check-spec", "--format", "github", "--", "-h.md", "bad.md"],
    );
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("::error file=bad.md,"), "{stdout}");
    assert!(stdout.contains("check-spec: -h.md: 0 errors"), "{stdout}");

    // The action's check step: every `*.md`, `-h.md` among them.
    let output = Command::new("bash")
        .arg(script("run.sh"))
        .current_dir(dir)
        .env("ZARR_RESHAPE_BIN", env!("CARGO_BIN_EXE_zarr-reshape"))
        .env("INPUT_FILES", "*.md")
        .env("INPUT_HUMAN", "true")
        .output()
        .unwrap();
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("::error file=bad.md,"), "{stdout}");
    assert!(!stdout.contains("Usage:"), "{stdout}");

    // The pre-commit hook, as pre-commit calls it: its args, then the names.
    for args in [
        &["-h.md", "bad.md"][..],
        &["--format", "github", "-h.md", "bad.md"],
        &["--installed", "--format=github", "-h.md", "bad.md"],
    ] {
        let output = Command::new("bash")
            .arg(script("pre-commit-hook.sh"))
            .args(args)
            .current_dir(dir)
            .env("ZARR_RESHAPE_BIN", env!("CARGO_BIN_EXE_zarr-reshape"))
            .output()
            .unwrap();
        let (stdout, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stdout}{stderr}");
        assert!(stdout.contains("check-spec: -h.md: 0 errors"), "{stdout}");
        assert!(stdout.contains("bad.md"), "{stdout}");
    }
}

/// Every line of `output` that the Actions runner would read as a command.
fn command_lines(output: &str) -> Vec<&str> {
    output
        .split(['\n', '\r'])
        .filter(|line| line.trim_start().starts_with("::"))
        .collect()
}

#[test]
fn a_file_name_cannot_forge_or_silence_a_workflow_command() {
    let scratch = Scratch::new("hostile-names");
    let dir = &scratch.0;
    let forged = "x\n::stop-commands::token\n::error file=forged.md::forged\r\u{1b}[31m\u{202e}.md";
    fs::write(dir.join(forged), SLIP).unwrap();
    let missing = "gone\n::error::forged-by-a-read-error.md";

    let output = zarr_reshape(
        dir,
        &["check-spec", "--format", "github", "--", forged, missing],
    );
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    for line in command_lines(&stdout)
        .into_iter()
        .chain(command_lines(&stderr))
    {
        // Only our own annotations, their file names escaped as properties.
        assert!(
            line.starts_with("::error file=x%0A%3A%3Astop-commands%3A%3Atoken%0A")
                || line.starts_with("::error file=gone%0A%3A%3Aerror%3A%3Aforged"),
            "{line}"
        );
        assert!(!line.contains("forged.md::"), "{line}");
    }
    assert_eq!(command_lines(&stdout).len(), 2, "{stdout}");
    for output in [&stdout, &stderr] {
        assert!(!output.contains(['\r', '\u{1b}', '\u{202e}']), "{output:?}");
    }

    for format in ["human", "json"] {
        let output = zarr_reshape(
            dir,
            &["check-spec", "--format", format, "--", forged, missing],
        );
        let (stdout, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
        for output in [&stdout, &stderr] {
            assert!(command_lines(output).is_empty(), "{format}: {output}");
            assert!(
                !output.contains(['\r', '\u{1b}', '\u{202e}']),
                "{format}: {output:?}"
            );
        }
        if format == "json" {
            // The name itself survives, escaped as JSON escapes it.
            let json: Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(json[0]["file"], forged, "{stdout}");
        }
    }
    // --fix says what it fixed without a raw name either.
    let output = zarr_reshape(dir, &["check-spec", "--fix", "--", forged]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("fixed x\\u{a}::stop-commands::token\\u{a}"),
        "{stdout}"
    );
    assert!(command_lines(&stdout).is_empty(), "{stdout}");
}

fn refused(dir: &Path, path: &str, says: &str) {
    let output = zarr_reshape(dir, &["check-spec", "--fix", "--", path]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(2), "{path}: {stdout}{stderr}");
    assert!(stderr.contains(says), "{path}: {stderr}");
}

#[test]
fn fix_writes_only_files_of_its_own_and_keeps_them_as_they_were() {
    let scratch = Scratch::new("fix-safety");
    let dir = &scratch.0;

    let readonly = dir.join("readonly.md");
    fs::write(&readonly, SLIP).unwrap();
    fs::set_permissions(&readonly, fs::Permissions::from_mode(0o444)).unwrap();
    refused(dir, "readonly.md", "read-only");
    assert_eq!(fs::read_to_string(&readonly).unwrap(), SLIP);

    let linked = dir.join("linked.md");
    fs::write(&linked, SLIP).unwrap();
    fs::hard_link(&linked, dir.join("other-name.md")).unwrap();
    refused(dir, "linked.md", "hard links");
    assert_eq!(fs::read_to_string(dir.join("other-name.md")).unwrap(), SLIP);
    assert_eq!(fs::metadata(&linked).unwrap().nlink(), 2);

    fs::create_dir(dir.join("real")).unwrap();
    fs::write(dir.join("real/doc.md"), SLIP).unwrap();
    symlink("real", dir.join("folder-link")).unwrap();
    refused(
        dir,
        "folder-link/doc.md",
        "folder folder-link is a symbolic link",
    );
    symlink("real/doc.md", dir.join("file-link.md")).unwrap();
    refused(dir, "file-link.md", "a symbolic link; not fixed");
    assert_eq!(fs::read_to_string(dir.join("real/doc.md")).unwrap(), SLIP);

    // Mode and owner kept; nothing left beside the file.
    let own = dir.join("real/doc.md");
    fs::set_permissions(&own, fs::Permissions::from_mode(0o640)).unwrap();
    let root = fs::metadata(&own).unwrap().uid() == 0;
    if root {
        std::os::unix::fs::chown(&own, Some(4242), Some(4243)).unwrap();
    }
    let output = zarr_reshape(dir, &["check-spec", "--fix", "--", "real/doc.md"]);
    assert_eq!(output.status.code(), Some(0), "{:?}", text(&output));
    let after = fs::metadata(&own).unwrap();
    assert_ne!(fs::read_to_string(&own).unwrap(), SLIP);
    assert_eq!(after.permissions().mode() & 0o7777, 0o640);
    if root {
        assert_eq!((after.uid(), after.gid()), (4242, 4243));
    }
    assert_eq!(fs::read_dir(dir.join("real")).unwrap().count(), 1);
}

#[test]
fn files_whose_reads_could_block_are_refused_before_they_are_read() {
    let scratch = Scratch::new("blocking-reads");
    let dir = &scratch.0;
    let fifo = dir.join("fifo.md");
    common::mkfifo(&fifo);
    symlink("/proc/self/status", dir.join("proc.md")).unwrap();
    symlink("/proc/kmsg", dir.join("kmsg.md")).unwrap();
    for (name, says) in [
        ("fifo.md", "not a regular file"),
        ("proc.md", "pseudo filesystem at /proc"),
        ("kmsg.md", ""),
    ] {
        for fix in [false, true] {
            let started = Instant::now();
            let mut args = vec!["check-spec"];
            if fix {
                args.push("--fix");
            }
            args.extend(["--", name]);
            let output = zarr_reshape(dir, &args);
            let (stdout, stderr) = text(&output);
            assert_eq!(output.status.code(), Some(2), "{name}: {stdout}{stderr}");
            let says = if fix { "not fixed" } else { says };
            assert!(stderr.contains(says), "{name}: {stderr}");
            assert!(started.elapsed() < Duration::from_secs(20), "{name}");
        }
    }
}
