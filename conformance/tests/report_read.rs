//! Issue 17: reading a JSON-lines report back is reading hostile input. Lines, line
//! count and size are bounded; every error names the file and the line; formats
//! other than the current one are refused with a message that says what to do; a
//! file whose lines contradict each other is refused.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Scratch;
use zarr_reshape_conformance::report::jsonl;
use zarr_reshape_conformance::report::read::{self, Limits, ReadError};
use zarr_reshape_conformance::report::record::{FORMAT, RunLog};
use zarr_reshape_conformance::report::text;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/report_fixtures")
        .join(name)
}

fn mixed() -> String {
    std::fs::read_to_string(fixture("mixed.jsonl")).unwrap()
}

fn parse(text: &str) -> Result<RunLog, ReadError> {
    read::parse(text, "run.jsonl")
}

/// The error of reading `text`, as printed.
fn refusal(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("read without an error:\n{text}"),
        Err(error) => error.to_string(),
    }
}

/// `text` with line `number` (from 1) changed by `edit`.
fn edit_line(text: &str, number: usize, edit: impl Fn(&str) -> String) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            if i + 1 == number {
                edit(line)
            } else {
                line.to_string()
            }
        })
        .map(|line| line + "\n")
        .collect()
}

#[test]
fn a_report_reads_back_and_writes_the_same_bytes() {
    for name in ["reference.jsonl", "mixed.jsonl"] {
        let text = std::fs::read_to_string(fixture(name)).unwrap();
        let log = parse(&text).unwrap();
        assert_eq!(jsonl::to_string(&log), text, "{name}");
    }
}

#[test]
fn an_older_format_is_refused_with_what_to_do() {
    for old in [1, 2] {
        let text = edit_line(&mixed(), 1, |l| {
            l.replace(
                &format!("\"format\":{FORMAT}"),
                &format!("\"format\":{old}"),
            )
        });
        let message = refusal(&text);
        assert!(
            message.starts_with("run.jsonl:1: report format "),
            "{message}"
        );
        assert!(
            message.contains("older zarr-reshape") && message.contains("run the suite again"),
            "{message}"
        );
    }
    let text = edit_line(&mixed(), 1, |l| {
        l.replace(&format!("\"format\":{FORMAT}"), "\"format\":99")
    });
    let message = refusal(&text);
    assert!(
        message.contains("report format 99 is not one this zarr-reshape reads"),
        "{message}"
    );
}

#[test]
fn a_line_that_is_not_json_is_named_by_its_number() {
    let text = edit_line(&mixed(), 3, |_| "{\"type\": \"case\", ".into());
    let message = refusal(&text);
    assert!(
        message.starts_with("run.jsonl:3: not a JSON line"),
        "{message}"
    );
}

#[test]
fn unknown_members_and_values_are_refused() {
    let message = refusal(&edit_line(&mixed(), 2, |l| {
        l.replacen("{\"type\":\"case\",", "{\"type\":\"case\",\"extra\":1,", 1)
    }));
    assert!(
        message.starts_with("run.jsonl:2: not a line of this layout") && message.contains("extra"),
        "{message}"
    );
    let message = refusal(&edit_line(&mixed(), 2, |l| {
        l.replacen("\"level\":\"must\"", "\"level\":\"MUST\"", 1)
    }));
    assert!(
        message.starts_with("run.jsonl:2:") && message.contains("unknown level \"MUST\""),
        "{message}"
    );
    let message = refusal(&edit_line(&mixed(), 2, |l| {
        l.replacen("\"type\":\"case\"", "\"type\":\"note\"", 1)
    }));
    assert!(message.contains("unknown line type \"note\""), "{message}");
}

#[test]
fn a_case_line_that_contradicts_itself_is_refused() {
    let text = mixed();
    let number = text
        .lines()
        .position(|l| l.contains("\"breaks_run\":false"))
        .unwrap()
        + 1;
    let message = refusal(&edit_line(&text, number, |l| {
        l.replacen("\"breaks_run\":false", "\"breaks_run\":true", 1)
    }));
    assert!(
        message.starts_with(&format!("run.jsonl:{number}:"))
            && message.contains("breaks_run is true"),
        "{message}"
    );
    let number = text
        .lines()
        .position(|l| l.contains("\"outcome\":\"pass\""))
        .unwrap()
        + 1;
    let message = refusal(&edit_line(&text, number, |l| {
        l.replacen("\"reason\":null", "\"reason\":\"why\"", 1)
    }));
    assert!(message.contains("reason is null for a pass"), "{message}");
}

#[test]
fn a_footer_that_disagrees_with_the_cases_is_refused() {
    // A case line dropped (or joined from another run) leaves the footer's counts wrong.
    let text: String = mixed()
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != 2)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let message = refusal(&text);
    assert!(
        message.contains("the footer disagrees with the 19 case lines"),
        "{message}"
    );
}

#[test]
fn lines_out_of_place_are_refused() {
    let text = mixed();
    let lines: Vec<&str> = text.lines().collect();
    let footer = lines.last().unwrap();
    let message = refusal(&format!("{text}{footer}\n"));
    assert!(
        message.starts_with(&format!(
            "run.jsonl:{}: a line after the footer",
            lines.len() + 1
        )),
        "{message}"
    );
    let message = refusal(&format!("{}\n{text}", lines[1]));
    assert!(
        message.starts_with("run.jsonl:1: the first line is not a header"),
        "{message}"
    );
    let message = refusal(&format!("{}\n{text}", lines[0]));
    assert!(
        message.starts_with("run.jsonl:2: a second header"),
        "{message}"
    );
    let message = refusal("");
    assert_eq!(message, "run.jsonl: empty: no header line");
    let duplicate = edit_line(&text, 3, |l| l.replacen("\"index\":1,", "\"index\":0,", 1));
    assert!(refusal(&duplicate).contains("two case lines have the index 0"));
}

#[test]
fn lines_count_and_size_are_bounded() {
    let text = mixed();
    let longest = text.lines().map(str::len).max().unwrap();
    let limits = |file_bytes: u64, line_bytes: usize, case_lines: usize| Limits {
        file_bytes,
        line_bytes,
        case_lines,
    };
    let read = |limits: Limits| {
        read::read_limited(text.as_bytes(), "run.jsonl", limits)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(read(limits(1 << 20, longest, 20)), Ok(()));
    let too_long = read(limits(1 << 20, longest - 1, 20)).unwrap_err();
    assert!(
        too_long.contains(&format!("a line longer than {} bytes", longest - 1)),
        "{too_long}"
    );
    let too_many = read(limits(1 << 20, longest, 19)).unwrap_err();
    assert!(
        too_many.starts_with("run.jsonl:21: more than 19 case lines"),
        "{too_many}"
    );
    let too_big = read(limits(1000, longest, 20)).unwrap_err();
    assert!(
        too_big.contains("the file is longer than 1000 bytes"),
        "{too_big}"
    );
    assert_eq!(read::MAX_LINE_BYTES, Limits::default().line_bytes);
}

#[test]
fn a_file_cut_short_reads_as_an_interrupted_run() {
    let text = mixed();
    let cut: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    let log = parse(&cut).unwrap();
    assert!(log.footer.is_none());
    assert_eq!(log.cases.len(), 4);
    let summary = text::render(&log);
    assert!(summary.contains("the run was cut short"), "{summary}");
    assert_eq!(
        summary.lines().last().unwrap(),
        "INTERRUPTED after 4 cases; 2 cases break the run (1 failure, 1 unexpected pass)"
    );
}

fn zarr_reshape(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_report_command_names_the_file_and_refuses_several_runs_where_one_is_meant() {
    let reference = fixture("reference.jsonl");
    let reference = reference.to_str().unwrap();
    for format in ["badge", "junit"] {
        let output = zarr_reshape(&["report", "--format", format, reference, reference]);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains(&format!(
                "--format {format} describes one implementation, and 2 files were given"
            )),
            "{stderr}"
        );
    }
    let scratch = Scratch::new("report-read-cli");
    let bad = scratch.0.join("bad.jsonl");
    std::fs::write(&bad, edit_line(&mixed(), 4, |_| "not json".into())).unwrap();
    let output = zarr_reshape(&[
        "report",
        "--format",
        "text",
        reference,
        bad.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        output.stdout.is_empty(),
        "nothing is written when a file is refused"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(&format!("{}:4: not a JSON line", bad.display())),
        "{stderr}"
    );
    let output = zarr_reshape(&["report", "--format", "html", scratch.0.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .contains("not a regular file")
    );
}

#[test]
fn a_format_3_file_still_reads_its_suite_version_as_the_vector_format() {
    // format3.jsonl is mixed.jsonl as report format 3 wrote it: `"suite_version":1`
    // was the vector format, and no release was recorded.
    let old = read::read_file(&fixture("format3.jsonl")).unwrap();
    let mut new = parse(&mixed()).unwrap();
    // Format 3 had no issue URLs; mixed.jsonl gives one.
    for case in &mut new.cases {
        case.known_issue = None;
    }
    assert_eq!((old.header.format, new.header.format), (3, FORMAT));
    assert_eq!(old.header.suite_version, None);
    assert_eq!(old.header.vector_format, 1);
    assert_eq!((&old.cases, &old.footer), (&new.cases, &new.footer));
    assert_eq!(
        old.header.suite(),
        "suite release not recorded (report format 3)"
    );
    // mixed.jsonl is a run on --cases files: no release either, said otherwise.
    assert_eq!(new.header.suite(), "cases from files (not a suite release)");
    let fixture = fixture("format3.jsonl");
    for format in ["text", "markdown", "junit", "html", "badge"] {
        let output = zarr_reshape(&["report", "--format", format, fixture.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{format}");
    }
    let output = zarr_reshape(&["report", "--format", "text", fixture.to_str().unwrap()]);
    let first = String::from_utf8(output.stdout).unwrap();
    assert!(
        first.starts_with(
            "mixed <b>fake</b> 0.1 (python), suite release not recorded (report format 3): 20 cases\n"
        ),
        "{first}"
    );
}

#[test]
fn a_format_4_header_names_the_suite_release_and_the_vector_format_apart() {
    let reference = read::read_file(&fixture("reference.jsonl")).unwrap();
    assert_eq!(reference.header.suite_version.as_deref(), Some("3.0.0"));
    assert_eq!(reference.header.vector_format, 1);
    assert!(
        text::render(&reference).starts_with("zarr-reshape 0.1.0 (rust), suite 3.0.0: 20 cases\n")
    );
    // A format 4 header must say both.
    let text = edit_line(&mixed(), 1, |l| l.replace(",\"vector_format\":1", ""));
    assert!(
        refusal(&text).contains("missing field `vector_format`"),
        "{}",
        refusal(&text)
    );
}

#[test]
fn a_run_header_names_the_release_only_for_cases_of_the_embedded_suite() {
    let scratch = Scratch::new("report-read-header");
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases/codec.name");
    let header = |name: &str, args: &[&str]| {
        let jsonl = scratch.0.join(name);
        let report = format!("jsonl={}", jsonl.display());
        let mut all = vec![
            "run",
            "--filter",
            "codec.name/codec-is-*",
            "--report",
            &report,
        ];
        all.extend_from_slice(args);
        let output = zarr_reshape(&all);
        assert_ne!(output.status.code(), Some(2), "{output:?}");
        let text = std::fs::read_to_string(&jsonl).unwrap();
        let line: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        (
            line["suite_version"].clone(),
            line["vector_format"].clone(),
            line["format"].clone(),
        )
    };
    let release = serde_json::Value::from(zarr_reshape_vectors::SUITE_VERSION);
    assert_eq!(
        header("embedded.jsonl", &[]),
        (release.clone(), 1.into(), FORMAT.into())
    );
    // A clause id selects from the embedded suite: still the release.
    assert_eq!(
        header("clause.jsonl", &["--cases", "codec.name"]).0,
        release
    );
    // A folder, even of the same files: no release vouches for it.
    let folder = folder.to_str().unwrap();
    assert_eq!(
        header("folder.jsonl", &["--cases", folder]).0,
        serde_json::Value::Null
    );
}

#[test]
fn a_known_issue_is_an_https_url_of_a_listed_case() {
    let url = r#""known_issue":"https://github.com/example/example-zarr/issues/1""#;
    assert!(mixed().contains(url));
    let read = parse(&mixed()).unwrap();
    let listed: Vec<&str> = read
        .cases
        .iter()
        .filter(|case| case.known_issue.is_some())
        .map(|case| case.id.as_str())
        .collect();
    assert_eq!(listed, ["input-dims.prefix/gap-between-groups"]);
    // Line 4 is that case; a URL that is not https is refused, and so is a URL on
    // line 3, a case that is not listed.
    let bad = edit_line(&mixed(), 4, |line| {
        line.replace(url, r#""known_issue":"javascript:alert(1)""#)
    });
    assert!(
        refusal(&bad).contains("known_issue: issue_url must start with https://"),
        "{}",
        refusal(&bad)
    );
    let unlisted = edit_line(&mixed(), 3, |line| {
        line.replace(
            r#""known_outcome":null"#,
            &format!(r#""known_outcome":null,{url}"#),
        )
    });
    assert!(
        refusal(&unlisted).contains("known_issue is given only with known_failure"),
        "{}",
        refusal(&unlisted)
    );
}
