//! Issue 19: the HTML results page (a snapshot of a small fixed input, its table
//! semantics, its escaping and self-containment) and the shields.io badge.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::Path;

use serde_json::{Value, json};
use zarr_reshape_conformance::Registry;
use zarr_reshape_conformance::report::record::{CaseLine, Footer, Millis, RunLog};
use zarr_reshape_conformance::report::{badge, html, read, verdict};

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/report_fixtures")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

fn log(name: &str) -> RunLog {
    read::parse(&fixture(name), name).unwrap()
}

/// A registry of its own, so that the snapshot does not change with clauses.json's
/// wording; limits.u64 has no sentence (shown in our words), algorithm.ravel is
/// not listed (its own section, last).
fn registry() -> Registry {
    serde_json::from_value(json!({
        "spec": {"name": "the test spec <draft>", "commit": "abc1234"},
        "clauses": [
            {"id": "codec.name", "section": "Codec name", "level": "must",
             "text": "The codec's name is the test's name.", "paraphrase": "The name."},
            {"id": "input-dims.prefix", "section": "Shape & dims", "level": "must",
             "text": "A prefix rule, for the test.", "paraphrase": "The prefix."},
            {"id": "limits.u64", "section": "Shape & dims", "level": "interpretation",
             "paraphrase": "Sizes fit in 64 bits, in the test's words."}
        ],
        "interpretations": []
    }))
    .unwrap()
}

fn page() -> String {
    html::render(&[log("reference.jsonl"), log("mixed.jsonl")], &registry())
}

#[test]
fn results_page_snapshot() {
    insta::assert_snapshot!(page());
}

#[test]
fn the_matrix_is_a_table_with_a_caption_headers_and_one_row_per_clause() {
    let page = page();
    assert_eq!(page.matches("<table").count(), 1);
    assert_eq!(page.matches("<caption>").count(), 1);
    // The clause column and one per run.
    assert_eq!(page.matches("<th scope=\"col\">").count(), 3);
    let rows: Vec<&str> = page
        .lines()
        .filter(|l| l.starts_with("<tr data-clause="))
        .collect();
    let clauses: Vec<&str> = rows
        .iter()
        .map(|row| row.split('"').nth(1).unwrap())
        .collect();
    // Registry order, then the clause it does not list.
    assert_eq!(
        clauses,
        [
            "codec.name",
            "input-dims.prefix",
            "limits.u64",
            "algorithm.ravel"
        ]
    );
    for row in &rows {
        assert_eq!(row.matches("<th scope=\"row\">").count(), 1, "{row}");
        assert_eq!(row.matches("<td ").count(), 2, "{row}");
    }
    // Sections as row groups: two listed, and the unlisted clauses.
    assert_eq!(page.matches("<th scope=\"rowgroup\"").count(), 3);
    assert!(page.contains(html::UNLISTED_SECTION));
    // Not colour alone: every cell has its word.
    for state in ["pass", "fail", "known", "skip", "none"] {
        for cell in page.split(&format!("<td class=\"{state}\"")).skip(1) {
            assert!(
                cell.contains(&format!(" {state}</span>")),
                "{state}: {cell}"
            );
        }
    }
}

#[test]
fn a_failing_cell_lists_its_cases_with_what_they_were_given_expected_and_answered() {
    let page = page();
    let row = page
        .lines()
        .find(|l| l.starts_with("<tr data-clause=\"input-dims.prefix\""))
        .unwrap();
    let mixed = row.split("<td ").nth(2).unwrap();
    assert!(mixed.starts_with("class=\"fail\""), "{mixed}");
    let details = mixed.split("<details>").nth(1).unwrap();
    assert!(details.contains("input-dims.prefix/leading-dim-after-group"));
    assert!(
        details.contains("<dt>given</dt><dd><code>{&quot;configuration&quot;:"),
        "{details}"
    );
    assert!(details.contains(
        "<dt>expected</dt><dd><code>{&quot;error&quot;:&quot;input-dims-misaligned&quot;}"
    ));
    assert!(details.contains("<dt>answered</dt><dd><code>{&quot;encoded_shape&quot;:[1,2,3]}"));
    assert!(details.contains("unexpected pass"));
    assert!(details.contains("known failure (fail)"));
    // The entry's issue_url, as text (the page links to nothing).
    assert!(details.contains(
        "<dt>upstream issue</dt><dd>https&#58;//github.com/example/example-zarr/issues/1</dd>"
    ));
}

#[test]
fn the_page_is_self_contained_and_escapes_every_text() {
    let page = page();
    // The mixed adapter's name is `mixed <b>fake</b>`; its messages hold a script
    // element, an escape sequence and a bidi override.
    assert!(page.contains("mixed &lt;b&gt;fake&lt;/b&gt;"));
    assert!(!page.contains("<b>") && !page.contains("<script"));
    assert!(!page.contains('\u{1b}') && !page.contains('\u{202e}'));
    assert!(page.contains("the test spec &lt;draft&gt;"));
    for fetch in ["src=", "href=", "url(", "@import", "http://", "https://"] {
        assert!(!page.contains(fetch), "{fetch}");
    }
    assert!(page.contains("Content-Security-Policy\" content=\"default-src 'none'"));
}

#[test]
fn badge_counts_the_must_cases_that_passed() {
    for (name, color) in [("reference.jsonl", "brightgreen"), ("mixed.jsonl", "red")] {
        let lines: Vec<Value> = fixture(name)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let must: Vec<&Value> = lines
            .iter()
            .filter(|l| l["type"] == "case" && l["level"] == "must")
            .collect();
        let passed = must.iter().filter(|l| l["outcome"] == "pass").count();
        let endpoint: Value = serde_json::from_str(&badge::render(&log(name))).unwrap();
        assert_eq!(
            endpoint,
            json!({"schemaVersion": 1, "label": "zarr reshape",
                   "message": format!("{passed}/{} MUST", must.len()), "color": color}),
            "{name}"
        );
    }
    // Members in shields.io's order.
    assert!(
        badge::render(&log("reference.jsonl"))
            .starts_with("{\"schemaVersion\":1,\"label\":\"zarr reshape\",\"message\":")
    );
}

#[test]
fn badge_is_yellow_when_the_run_passes_with_a_must_case_listed() {
    let mut log = log("reference.jsonl");
    let case = log.cases.iter_mut().find(|c| c.level == "must").unwrap();
    case.outcome = "fail".into();
    case.reason = Some("a wrong answer".into());
    case.known_failure = Some("listed".into());
    case.known_outcome = Some("fail".into());
    log.footer = Some(Footer::of(&log.cases, false, Vec::new(), Millis::default()));
    assert!(log.succeeded());
    let endpoint = badge::badge(&log);
    assert_eq!(endpoint.color, "yellow");
    assert!(endpoint.message.ends_with(" MUST"));
}

#[test]
fn markdown_puts_several_runs_side_by_side_then_each_summary() {
    let logs = [log("reference.jsonl"), log("mixed.jsonl")];
    let out = zarr_reshape_conformance::report::markdown::render_all(&logs);
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("| clause |"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    // Header, rule, four clauses, the verdicts; a cell per run in each.
    assert_eq!(table.len(), 7, "{out}");
    for row in &table {
        assert_eq!(row.replace("\\|", "").matches('|').count(), 4, "{row}");
    }
    assert!(
        table
            .iter()
            .any(|r| r.starts_with("| `input-dims.prefix` | ✓ pass: 4 pass | ✗ fail: "))
    );
    assert_eq!(
        out.matches("\n## `reshape` conformance: ").count(),
        2,
        "{out}"
    );
}

/// The reference run with each case of `clause` changed by `edit`, its footer
/// made again from the cases.
fn edited(clause: &str, edit: impl Fn(&mut CaseLine)) -> RunLog {
    let mut log = log("reference.jsonl");
    for case in log.cases.iter_mut().filter(|c| c.clauses[0] == clause) {
        edit(case);
    }
    log.footer = Some(Footer::of(&log.cases, false, Vec::new(), Millis::default()));
    log
}

/// The `<td>` of `clause` in `column` (from 0) of `page`.
fn cell(page: &str, clause: &str, column: usize) -> String {
    let row = page
        .lines()
        .find(|l| l.starts_with(&format!("<tr data-clause=\"{clause}\"")))
        .unwrap();
    row.split("<td ").nth(column + 1).unwrap().to_string()
}

#[test]
fn an_interpretation_failure_of_a_passing_run_is_not_shown_as_a_fatal_failure() {
    // limits.u64's cases are at level interpretation: a wrong answer does not break the run.
    let log = edited("limits.u64", |case| {
        case.outcome = "fail".into();
        case.reason = Some("a wrong answer".into());
    });
    assert!(log.succeeded() && verdict(&log).starts_with("PASSED"));
    let page = html::render(&[log], &registry());
    let cell = cell(&page, "limits.u64", 0);
    assert!(
        cell.starts_with(
            "class=\"differs\" data-state=\"differs\"><span class=\"state\">\u{2260} differs</span>"
        ),
        "{cell}"
    );
    assert!(!page.contains("<td class=\"fail\""), "{page}");
}

#[test]
fn the_verdicts_come_before_the_matrix() {
    let page = page();
    let verdicts = page.find("<ul id=\"verdicts\">").unwrap();
    assert!(verdicts < page.find("<table").unwrap());
    let list = &page[verdicts..page.find("</ul>").unwrap()];
    assert!(list.contains(
        "<li class=\"verdict passed\"><strong>zarr-reshape 0.1.0 (rust)</strong>: PASSED"
    ));
    assert!(list.contains("<li class=\"verdict failed\"><strong>mixed &lt;b&gt;fake&lt;/b&gt; 0.1 (python)</strong>: FAILED"));
}

#[test]
fn two_runs_of_one_adapter_get_distinct_column_titles() {
    let page = html::render(
        &[log("reference.jsonl"), log("reference.jsonl")],
        &registry(),
    );
    let titles: Vec<&str> = page
        .split("<th scope=\"col\">")
        .skip(2)
        .map(|t| t.split("</th>").next().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "zarr-reshape 0.1.0 (rust), run 1",
            "zarr-reshape 0.1.0 (rust), run 2"
        ]
    );
    // The Markdown table of several runs too.
    let markdown = zarr_reshape_conformance::report::markdown::render_all(&[
        log("reference.jsonl"),
        log("reference.jsonl"),
    ]);
    assert!(
        markdown.contains(
            "| clause | zarr-reshape 0.1.0 (rust), run 1 | zarr-reshape 0.1.0 (rust), run 2 |"
        ),
        "{markdown}"
    );
}

#[test]
fn a_cell_of_skips_only_says_skipped_not_not_passing() {
    let log = edited("algorithm.ravel", |case| {
        case.outcome = "skip".into();
        case.reason = Some("not supported".into());
    });
    let cell = cell(&html::render(&[log], &registry()), "algorithm.ravel", 0);
    assert!(
        cell.contains("<summary>3 cases skipped</summary>"),
        "{cell}"
    );
    assert!(!cell.contains("not passing"), "{cell}");
}

#[test]
fn code_in_the_title_is_sized_relative_to_its_text() {
    // `code { font: 13px ... }` made the title's `reshape` smaller than the title.
    let page = page();
    let rule = page.lines().find(|l| l.starts_with("code {")).unwrap();
    assert!(!rule.contains("px") && rule.contains("em;"), "{rule}");
}

#[test]
fn a_run_that_tested_nothing_is_never_green_nor_passed() {
    let empty = {
        let mut log = log("reference.jsonl");
        log.cases.clear();
        log.footer = Some(Footer::of(&log.cases, false, Vec::new(), Millis::default()));
        log
    };
    let skipped = edited_all(|case| {
        case.outcome = "skip".into();
        case.reason = Some("not supported".into());
    });
    let no_must = {
        let mut log = log("reference.jsonl");
        log.cases.retain(|case| case.level != "must");
        log.footer = Some(Footer::of(&log.cases, false, Vec::new(), Millis::default()));
        log
    };
    for (log, message, why) in [
        (empty, "not tested", "the run has no case"),
        (
            skipped,
            "not tested: 15 MUST skipped",
            "every case was skipped: 20",
        ),
        (
            no_must,
            "not tested",
            "5 cases ran, none of level must; 0 skipped",
        ),
    ] {
        assert!(log.succeeded(), "the footer's succeeded is the run's own");
        assert_eq!(
            verdict(&log),
            format!("NOT TESTED: no MUST case ran ({why})")
        );
        let endpoint = badge::badge(&log);
        assert_eq!(
            (endpoint.color, endpoint.message.as_str()),
            ("lightgrey", message)
        );
        let page = html::render(std::slice::from_ref(&log), &registry());
        assert!(!page.contains("PASSED"), "{page}");
        assert!(page.contains("<li class=\"verdict untested\">"), "{page}");
    }
}

/// The reference run with every case changed by `edit`.
fn edited_all(edit: impl Fn(&mut CaseLine)) -> RunLog {
    let mut log = log("reference.jsonl");
    log.cases.iter_mut().for_each(edit);
    log.footer = Some(Footer::of(&log.cases, false, Vec::new(), Millis::default()));
    log
}
