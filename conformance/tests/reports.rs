//! The run reports: the terminal summary and the Markdown summary (snapshots), the
//! JSON-lines log (against its schema), and JUnit XML (parsed back).
// Test code: the fixture helpers below may unwrap, like the #[test] functions.
#![allow(clippy::unwrap_used)]

use std::io::BufWriter;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};
use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::report::jsonl::JsonlWriter;
use zarr_reshape_conformance::report::{junit, markdown, text};
use zarr_reshape_conformance::run::{CaseRecord, Expectations, ImplementationInfo, RunReport};
use zarr_reshape_conformance::vector;
use zarr_reshape_conformance::{ClassCheck, judge};

const EXPECTATIONS: &str = r#"
[[failure]]
ids = ["input-dims.prefix/leading-dim-after-group"]
clause = "input-dims.prefix"
reason = "the prefix rule is never checked"
source = "src/array/codec/array_to_array/reshape.rs"
issue_url = "https://github.com/example/example-zarr/issues/1"

[[failure]]
ids = ["shape.auto.once/two-autos"]
clause = "shape.auto.once"
reason = "a repeated -1 is taken for a second inferred size"

[[failure]]
ids = ["input-dims.prefix/a-case-since-removed"]
clause = "input-dims.prefix"
reason = "listed before the case was renamed"

[[failure]]
ids = ["limits.u64/auto-product-two-to-the-64"]
clause = "limits.u64"
reason = "the product of the extents overflows and panics"
source = "src/array/codec/array_to_array/reshape.rs:80"
outcome = "crash"

[[failure]]
ids = ["limits.u64/size-two-to-the-64"]
clause = "limits.u64"
reason = "listed as a wrong answer, but it crashes"
"#;

fn spec_cases() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec-cases")
}

const SKIP: &str = "the implementation does not support encode";
const PANIC: &str = "thread 'main' panicked at src/array/codec/array_to_array/reshape.rs:88:21:
attempt to multiply with overflow
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
";

/// One record per kind of outcome, from real vector files and crafted answers in
/// the protocol's form, with fixed durations (µs).
fn records() -> Vec<CaseRecord> {
    let expectations = Expectations::parse(EXPECTATIONS).unwrap();
    let timeout = "no answer within 10 s (timeout); the adapter was restarted";
    let crash = "the adapter exited with status 101 before answering";
    let repeated = json!({"class": "repeated-auto", "message": "-1 occurs more than once"});
    let panic = json!({"crashed": {"message": "panic: attempt to multiply with overflow (at reshape.rs:80:14)"}});
    let answers = [
        (
            "codec.name/name-reshape",
            json!({"encoded_shape": [6, 4]}),
            1_000,
        ),
        (
            "codec.name/name-capitalised",
            json!({"errored": {"message": timeout}}),
            10_000_000,
        ),
        (
            "input-dims.prefix/auto-before-group",
            json!({"encoded_shape": [6, 4]}),
            1_250,
        ),
        (
            "input-dims.prefix/gap-between-groups",
            json!({"encoded_shape": [2, 4, 3]}),
            1_500,
        ),
        (
            "input-dims.prefix/leading-dim-after-group",
            json!({"encoded_shape": [12, 2]}),
            1_000,
        ),
        ("shape.auto.once/two-autos", json!({"error": repeated}), 750),
        (
            "limits.u64/group-product-two-to-the-64",
            json!({"errored": {"message": crash}}),
            4_000,
        ),
        (
            "algorithm.ravel/encode-int32-merge-leading-dims",
            json!({"skipped": {"reason": SKIP}}),
            0,
        ),
        (
            "algorithm.view/encode-contiguous-merge",
            json!({"skipped": {"reason": SKIP}}),
            0,
        ),
        ("limits.u64/auto-product-beyond-u64", panic.clone(), 2_000),
        (
            "limits.u64/auto-product-two-to-the-64",
            panic.clone(),
            2_000,
        ),
        ("limits.u64/size-two-to-the-64", panic, 2_000),
    ];
    answers
        .into_iter()
        .map(|(id, answer, micros)| {
            let path = spec_cases().join(format!("{id}.json"));
            let case = vector::load_file(&path).unwrap().remove(0);
            assert_eq!(case.id, id);
            let answer = Answer::from_json(&answer);
            CaseRecord {
                outcome: judge(&case, &answer, ClassCheck::WhenNamed),
                known_failure: expectations.known(id).cloned(),
                stderr: if id.starts_with("limits.u64/") {
                    PANIC
                } else {
                    ""
                }
                .into(),
                case,
                answer,
                duration: Duration::from_micros(micros),
            }
        })
        .collect()
}

fn report() -> RunReport {
    RunReport {
        implementation: ImplementationInfo {
            name: "zarrs".into(),
            version: "0.23.14".into(),
            language: "rust".into(),
            operations: vec!["resolve".into()],
            protocol: 2,
        },
        suite_version: Some(zarr_reshape_vectors::SUITE_VERSION.into()),
        records: records(),
        stale_expectations: vec!["input-dims.prefix/a-case-since-removed".into()],
        interrupted: false,
        duration: Duration::from_millis(10_025),
    }
}

/// The first three records of the run, stopped by Ctrl-C.
fn interrupted() -> RunReport {
    let mut report = report();
    report.records.truncate(3);
    report.stale_expectations.clear();
    report.interrupted = true;
    report
}

/// A run with passes and listed known failures only: a wrong answer and a crash,
/// each listed with its outcome.
fn clean() -> RunReport {
    let mut report = report();
    report.records.retain(|r| {
        r.case.id.ends_with("name-reshape")
            || r.case.id.ends_with("auto-before-group")
            || r.case.id.ends_with("leading-dim-after-group")
            || r.case.id.ends_with("auto-product-two-to-the-64")
    });
    report.stale_expectations.clear();
    report
}

#[test]
fn the_fixture_covers_every_kind_of_record() {
    use zarr_reshape_conformance::report::Status;
    use zarr_reshape_conformance::report::record::CaseLine;
    let report = report();
    let statuses: Vec<Status> = report
        .records
        .iter()
        .map(|record| Status::of(&CaseLine::of(record, 0)))
        .collect();
    assert_eq!(
        statuses,
        [
            Status::Pass,
            Status::Error,
            Status::Pass,
            Status::Fail,
            Status::KnownFailure,
            Status::UnexpectedPass,
            Status::Error,
            Status::Skip,
            Status::Skip,
            Status::Crash,
            Status::KnownFailure,
            Status::Crash,
        ]
    );
    assert!(!report.succeeded());
    assert!(clean().succeeded());
}

#[test]
fn text_summary() {
    insta::assert_snapshot!(text::summary(&report()));
}

#[test]
fn text_summary_of_an_interrupted_run() {
    insta::assert_snapshot!(text::summary(&interrupted()));
}

#[test]
fn text_summary_of_a_clean_run_ends_with_passed() {
    let summary = text::summary(&clean());
    let last = summary.lines().last().unwrap();
    assert_eq!(last, "PASSED: no MUST case fails (2 known failures)");
    assert!(!summary.contains("break the run ("));
}

#[test]
fn markdown_summary() {
    insta::assert_snapshot!(markdown::render(&report()));
}

fn jsonl(report: &RunReport) -> Vec<Value> {
    let mut out = Vec::new();
    let mut writer = JsonlWriter::new(
        &mut out,
        &report.implementation,
        report.suite_version.as_deref(),
    )
    .unwrap();
    for record in &report.records {
        writer.record(record).unwrap();
    }
    writer.finish(report).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn validator() -> jsonschema::Validator {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("report.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(lines: &[Value]) {
    let validator = validator();
    for line in lines {
        let errors: Vec<String> = validator
            .iter_errors(line)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{line}\n{}", errors.join("\n"));
    }
}

#[test]
fn jsonl_lines_match_the_schema_header_cases_footer() {
    let report = report();
    let lines = jsonl(&report);
    assert_valid(&lines);
    assert_eq!(lines.len(), report.records.len() + 2);
    assert_eq!(lines[0]["type"], "header");
    assert_eq!(lines[0]["implementation"]["name"], "zarrs");
    // The suite release and, apart, the vector format of its files (report format 4).
    assert_eq!(lines[0]["format"], 4);
    assert_eq!(
        lines[0]["suite_version"],
        zarr_reshape_vectors::SUITE_VERSION
    );
    assert_eq!(lines[0]["vector_format"], vector::FORMAT);
    assert!(
        lines[1..lines.len() - 1]
            .iter()
            .all(|l| l["type"] == "case")
    );
    // The entry's issue_url, only on the lines of the ids it lists.
    let issues: Vec<(&Value, &Value)> = lines
        .iter()
        .filter_map(|l| l.get("known_issue").map(|url| (&l["id"], url)))
        .collect();
    assert_eq!(
        issues,
        [(
            &json!("input-dims.prefix/leading-dim-after-group"),
            &json!("https://github.com/example/example-zarr/issues/1")
        )]
    );
    let footer = lines.last().unwrap();
    assert_eq!(footer["type"], "footer");
    assert_eq!(footer["interrupted"], false);
    assert_eq!(footer["succeeded"], false);
    assert_eq!(
        footer["counts"],
        json!({"total": 12, "pass": 3, "fail": 1, "error": 2, "crash": 2, "skip": 2,
               "known_failure": 2, "unexpected_pass": 1, "breaking": 6})
    );
    assert_eq!(
        footer["stale_expectations"],
        json!(["input-dims.prefix/a-case-since-removed"])
    );
    let gap = lines
        .iter()
        .find(|l| l["id"] == "input-dims.prefix/gap-between-groups")
        .unwrap();
    assert_eq!(gap["outcome"], "fail");
    assert_eq!(gap["breaks_run"], true);
    assert_eq!(gap["expected"], json!({"error": "input-dims-misaligned"}));
    assert_eq!(gap["answer"], json!({"encoded_shape": [2, 4, 3]}));
    assert_eq!(gap["duration_ms"], 1.5);
}

#[test]
fn jsonl_schema_rejects_a_case_line_without_an_outcome() {
    let mut lines = jsonl(&report());
    let case = lines[1].as_object_mut().unwrap();
    case.remove("outcome");
    assert!(!validator().is_valid(&lines[1]));
}

#[test]
fn jsonl_of_an_interrupted_run_ends_with_a_footer_that_says_so() {
    let report = interrupted();
    let lines = jsonl(&report);
    assert_valid(&lines);
    let footer = lines.last().unwrap();
    assert_eq!(footer["type"], "footer");
    assert_eq!(footer["interrupted"], true);
    assert_eq!(footer["succeeded"], false);
    assert_eq!(footer["counts"]["total"], 3);
}

#[test]
fn jsonl_flushes_every_line_as_it_is_written() {
    let report = report();
    let buffered = BufWriter::with_capacity(1 << 16, Vec::new());
    let mut writer = JsonlWriter::new(
        buffered,
        &report.implementation,
        report.suite_version.as_deref(),
    )
    .unwrap();
    let on_disk = |w: &JsonlWriter<BufWriter<Vec<u8>>>| {
        String::from_utf8(w.get_ref().get_ref().clone())
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!(on_disk(&writer), 1, "the header is written at once");
    for (i, record) in report.records.iter().enumerate() {
        writer.record(record).unwrap();
        assert_eq!(on_disk(&writer), i + 2);
    }
}

#[test]
fn junit_maps_outcomes_to_failure_error_and_skipped() {
    let xml = junit::render(&report());
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    // 12 cases plus the stale expectation; the unexpected pass and the stale entry
    // are failures, the crashes errors, the known failures skipped.
    assert_eq!(root.attribute("tests"), Some("13"));
    assert_eq!(root.attribute("failures"), Some("3"));
    assert_eq!(root.attribute("errors"), Some("4"));
    assert_eq!(root.attribute("skipped"), Some("4"));
    let suites: Vec<&str> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .map(|n| n.attribute("name").unwrap())
        .collect();
    assert_eq!(
        suites,
        [
            "algorithm.ravel",
            "algorithm.view",
            "codec.name",
            "input-dims.prefix",
            "limits.u64",
            "shape.auto.once",
            "(run)"
        ]
    );
    let case = |id: &str| {
        doc.descendants()
            .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some(id))
            .unwrap_or_else(|| panic!("no testcase {id}"))
    };
    let child = |id: &str, tag: &str| case(id).children().find(|n| n.has_tag_name(tag));

    let gap = case("input-dims.prefix/gap-between-groups");
    assert_eq!(gap.attribute("classname"), Some("input-dims.prefix"));
    assert_eq!(gap.attribute("time"), Some("0.002"));
    let failure = child("input-dims.prefix/gap-between-groups", "failure").unwrap();
    assert_eq!(failure.attribute("type"), Some("must"));
    assert!(
        failure
            .attribute("message")
            .unwrap()
            .starts_with("succeeded with")
    );
    let text = failure.text().unwrap();
    assert!(
        text.contains(r#"expected: {"error":"input-dims-misaligned"}"#),
        "{text}"
    );
    assert!(
        text.contains(r#"answered: {"encoded_shape":[2,4,3]}"#),
        "{text}"
    );

    assert!(child("codec.name/name-capitalised", "error").is_some());
    let crash = "limits.u64/group-product-two-to-the-64";
    assert!(child(crash, "error").is_some());
    assert!(
        child(crash, "system-err")
            .unwrap()
            .text()
            .unwrap()
            .contains("attempt to multiply with overflow")
    );

    let crashed = child("limits.u64/auto-product-beyond-u64", "error").unwrap();
    let message = crashed.attribute("message").unwrap();
    assert!(
        message.starts_with("crash: panic: attempt to multiply"),
        "{message}"
    );
    let listed_otherwise = child("limits.u64/size-two-to-the-64", "error").unwrap();
    let message = listed_otherwise.attribute("message").unwrap();
    assert!(message.starts_with("crash: "), "{message}");
    assert!(
        message
            .ends_with("(listed as fail: listed as a wrong answer, but it crashes (limits.u64))"),
        "{message}"
    );
    let known_crash = child("limits.u64/auto-product-two-to-the-64", "skipped").unwrap();
    assert!(
        known_crash
            .attribute("message")
            .unwrap()
            .starts_with("known failure: the product of the extents overflows")
    );

    let known = child("input-dims.prefix/leading-dim-after-group", "skipped").unwrap();
    assert!(
        known
            .attribute("message")
            .unwrap()
            .starts_with("known failure: the prefix rule is never checked")
    );
    assert!(
        known
            .attribute("message")
            .unwrap()
            .ends_with("; upstream issue https://github.com/example/example-zarr/issues/1")
    );
    let skip = child("algorithm.ravel/encode-int32-merge-leading-dims", "skipped").unwrap();
    assert_eq!(
        skip.attribute("message"),
        Some("the implementation does not support encode")
    );

    let unexpected = child("shape.auto.once/two-autos", "failure").unwrap();
    assert_eq!(unexpected.attribute("type"), Some("unexpected-pass"));
    assert!(child("input-dims.prefix/auto-before-group", "failure").is_none());
    let stale = child(
        "stale-expectation/input-dims.prefix/a-case-since-removed",
        "failure",
    )
    .unwrap();
    assert_eq!(stale.attribute("type"), Some("stale-expectation"));
}

#[test]
fn junit_of_an_interrupted_run_has_an_interrupted_error() {
    let xml = junit::render(&interrupted());
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let interrupted = doc
        .descendants()
        .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some("interrupted"))
        .unwrap();
    let error = interrupted
        .children()
        .find(|n| n.has_tag_name("error"))
        .unwrap();
    assert_eq!(
        error.attribute("message"),
        Some("the run was interrupted after 3 cases")
    );
}

#[test]
fn junit_of_a_clean_run_has_no_failure_or_error() {
    let xml = junit::render(&clean());
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("failures"), Some("0"));
    assert_eq!(root.attribute("errors"), Some("0"));
    assert_eq!(root.attribute("skipped"), Some("2"));
}
