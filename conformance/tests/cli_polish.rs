//! What a user of the binary expects of it: a closed pipe ends it quietly,
//! `--jobs 0` is refused by the parser, and it writes its own shell completions
//! and manual page.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Output, Stdio};

use common::Scratch;

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

/// The subcommands every generated text must mention.
const SUBCOMMANDS: [&str; 12] = [
    "run",
    "report",
    "adapter",
    "read",
    "export-bats",
    "resolve",
    "vectors",
    "check-spec",
    "fixtures",
    "fuzz",
    "completions",
    "man",
];

fn zarr_reshape(args: &[&str]) -> Output {
    Command::new(BINARY).args(args).output().unwrap()
}

/// Starts `args`, reads `lines` lines of its output and closes the pipe; its exit
/// status and standard error.
fn closed_after(args: &[&str], lines: usize, tmp: &std::path::Path) -> (Option<i32>, String) {
    let mut child = Command::new(BINARY)
        .args(args)
        .env("TMPDIR", tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(
            !line.is_empty(),
            "{args:?} printed fewer than {lines} lines"
        );
    }
    drop(reader);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let scratch = Scratch::new("cli-pipe");
    // `zarr-reshape vectors | head -1`: the listing is far longer than a pipe holds.
    let (code, stderr) = closed_after(&["vectors"], 1, &scratch.0);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // `zarr-reshape run | head -0`: the summary meets a pipe already closed.
    let (code, stderr) = closed_after(&["run", "--cases", "codec.name"], 0, &scratch.0);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let man = zarr_reshape(&["man"]);
    assert!(man.stdout.len() > 1000);
    let (code, stderr) = closed_after(&["man"], 1, &scratch.0);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The embedded suite the commands unpacked is gone.
    assert!(std::fs::read_dir(&scratch.0).unwrap().next().is_none());
}

#[test]
fn jobs_zero_is_refused_by_the_parser() {
    let output = zarr_reshape(&["run", "--jobs", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    insta::assert_snapshot!("jobs-zero", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn completions_cover_every_subcommand() {
    for shell in ["bash", "elvish", "fish", "powershell", "zsh"] {
        let output = zarr_reshape(&["completions", shell]);
        assert!(output.status.success(), "{shell}: {output:?}");
        let script = String::from_utf8(output.stdout).unwrap();
        for subcommand in SUBCOMMANDS {
            assert!(script.contains(subcommand), "{shell}: no {subcommand}");
        }
        if shell == "bash" {
            insta::assert_snapshot!("completions-bash", script);
        }
    }
    // bash itself parses the script, where it is installed.
    let output = zarr_reshape(&["completions", "bash"]);
    let scratch = Scratch::new("cli-completions");
    let script = scratch.0.join("zarr-reshape.bash");
    std::fs::write(&script, &output.stdout).unwrap();
    if let Ok(checked) = Command::new("bash").arg("-n").arg(&script).output() {
        assert!(checked.status.success(), "{checked:?}");
    }
    assert_eq!(
        zarr_reshape(&["completions", "cmd.exe"]).status.code(),
        Some(2)
    );
}

#[test]
fn the_manual_page_is_roff_for_every_subcommand() {
    let output = zarr_reshape(&["man"]);
    assert!(output.status.success(), "{output:?}");
    let page = String::from_utf8(output.stdout).unwrap();
    assert!(page.contains(".TH zarr-reshape 1"), "{page}");
    // roff escapes every hyphen.
    let plain = page.replace("\\-", "-");
    for subcommand in SUBCOMMANDS {
        assert!(
            plain.contains(&format!("zarr-reshape-{subcommand}(1)")),
            "no {subcommand}"
        );
    }
    // The snapshot holds no version number, which changes with every release.
    let version = format!("\"zarr-reshape {}\"", env!("CARGO_PKG_VERSION"));
    assert!(page.contains(&version), "{page}");
    insta::assert_snapshot!(
        "man-page",
        page.replace(&version, "\"zarr-reshape VERSION\"")
    );

    // With --out, the page of every command, each rendered by groff without a
    // warning where groff is installed; existing pages are not overwritten.
    let scratch = Scratch::new("cli-man");
    let dir = scratch.0.to_str().unwrap();
    let output = zarr_reshape(&["man", "--out", dir]);
    assert!(output.status.success(), "{output:?}");
    let mut written: Vec<String> = std::fs::read_dir(&scratch.0)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    let mut expected: Vec<String> = SUBCOMMANDS
        .iter()
        .map(|sub| format!("zarr-reshape-{sub}.1"))
        .chain(["zarr-reshape.1".to_string()])
        .collect();
    expected.sort();
    assert_eq!(written, expected);
    assert_eq!(
        std::fs::read_to_string(scratch.0.join("zarr-reshape.1")).unwrap(),
        page
    );
    for name in &written {
        if let Ok(rendered) = Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(scratch.0.join(name))
            .output()
        {
            assert!(rendered.status.success(), "{name}: {rendered:?}");
            assert!(rendered.stderr.is_empty(), "{name}: {rendered:?}");
        }
    }
    std::fs::write(scratch.0.join("zarr-reshape-run.1"), b"mine").unwrap();
    let output = zarr_reshape(&["man", "--out", dir]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_eq!(
        std::fs::read(scratch.0.join("zarr-reshape-run.1")).unwrap(),
        b"mine"
    );
}

/// The fake adapter's command line (`tests/fake_adapters/fake_adapter.py`).
fn fake_adapter(arguments: &str) -> String {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_adapters/fake_adapter.py");
    format!("python3 {} {arguments}", script.display())
}

/// Whether `program` runs here.
fn available(program: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok();
    if !found {
        println!("note: {program} is not on the PATH; skipped");
    }
    found
}

#[test]
fn sigterm_stops_the_run_and_removes_the_unpacked_suite() {
    if !available("python3") {
        return;
    }
    let scratch = Scratch::new("cli-sigterm");
    let child = Command::new(BINARY)
        .args(["run", "--adapter", &fake_adapter("slow 200")])
        .env("TMPDIR", &scratch.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The embedded suite is unpacked, and a case or two have run.
    let started = std::time::Instant::now();
    while std::fs::read_dir(&scratch.0).unwrap().next().is_none() {
        assert!(
            started.elapsed().as_secs() < 30,
            "the suite was never unpacked"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(2000));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Stopped after the case in flight, its summary printed (an interrupted run
    // fails), or, when the signal came while the cases were still being read,
    // at once (130; or 2, when the reading meets the removed folder first); the
    // unpacked suite is removed either way.
    match output.status.code() {
        Some(1) => assert!(stdout.contains("INTERRUPTED"), "{stdout}"),
        Some(130 | 2) => {}
        other => panic!("ended with {other:?}: {stdout}"),
    }
    let left: Vec<_> = std::fs::read_dir(&scratch.0).unwrap().collect();
    assert!(left.is_empty(), "left in the temporary folder: {left:?}");
}

/// `zarr-reshape ARGS` with a terminal (`script` makes one) for its output.
fn on_a_terminal(args: &str) -> String {
    let output = Command::new("script")
        .args(["-qfec", &format!("{BINARY} {args}"), "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_progress_bar_shows_after_a_second_on_a_terminal_only() {
    if !available("python3") || !available("script") {
        return;
    }
    let case = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spec-cases/shape.auto.once/two-autos.json");
    let case = case.display();
    // One case of 2.5 s: the bar shows while it runs (it ticks on its own).
    let slow = on_a_terminal(&format!(
        "run --cases {case} --adapter '{}'",
        fake_adapter("slow 2500")
    ));
    assert!(slow.contains("0/1 cases"), "{slow}");
    // A run shorter than a second prints no bar.
    let quick = on_a_terminal(&format!("run --cases {case}"));
    assert!(quick.contains("PASSED"), "{quick}");
    assert!(!quick.contains("1/1 cases"), "{quick}");
    // Not a terminal: no bar.
    let output = Command::new(BINARY)
        .args(["run", "--cases", &case.to_string(), "--adapter"])
        .arg(fake_adapter("slow 1500"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("/1 cases"), "{stderr}");
}
