//! Issue 18, reports and inputs: hostile text in vectors and adapter output must
//! not break JUnit XML, a Markdown table or a terminal; unknown levels and error
//! classes are vector errors; folder discovery does not follow links to folders;
//! check-spec stays linear in the number of findings and refuses huge documents.
// Test code: the fixture helpers below may unwrap, like the #[test] functions.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::Outcome;
use zarr_reshape_conformance::check_spec::{self, Kind, MAX_DOCUMENT_BYTES, render};
use zarr_reshape_conformance::report::{junit, markdown, text};
use zarr_reshape_conformance::run::{
    CaseRecord, ImplementationInfo, KnownFailure, ListedOutcome, RunReport,
};
use zarr_reshape_conformance::vector::{self, MAX_FOLDER_DEPTH};

/// Markdown an adapter may send, which a report must show as written: strong and
/// emphasis with underscores, strikethrough, a link, an image, bare URLs, a `www.`
/// name, an e-mail address, a mention, math, an emoji code and a heading marker.
const MARKUP: &str = "__strong__ _em_ ~~struck~~ ~sub~ [link](https://example.com/l) \
    ![img](x.png) https://example.com/a HTTP://EXAMPLE.ORG www.example.com \
    user@example.com @someone $x^2$ :tada: # heading";

/// Bidi controls (embeddings, overrides, isolates) and other format characters:
/// zero-width space and joiner, byte order mark, soft hyphen, a tag, a C1 control.
const FORMAT_CHARACTERS: &str = "a\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{200b}\u{200d}\u{feff}\u{ad}\u{e0041}\u{85}b";

/// Every kind of character a report medium must not receive raw: XML-forbidden
/// (C0, U+FFFE, U+FFFF), terminal controls (ESC, BEL, NUL, DEL, C1), a bidi
/// override, and Markdown structure (line breaks, pipes, HTML, backticks).
const HOSTILE: &str = "a\u{0}\u{1}\u{7}\u{b}\u{1b}[31m\u{7f}\u{85}\u{9b}\u{202e}\u{fffe}\u{ffff}|b\nc\r<script>`x`</script>&";

fn case_json(id: &str, level: &str, text: &str) -> Value {
    json!({
        "id": id, "description": text, "clauses": [format!("shape.size{text}")],
        "level": level, "operation": "resolve", "configuration": {"shape": [[0, 1], -1]},
        "decoded_shape": [2, 3, 4], "expect": {"encoded_shape": [6, 4]},
    })
}

/// A record of each outcome and a known failure, every text hostile.
fn hostile_report() -> RunReport {
    report_saying(HOSTILE)
}

/// A record of each outcome and a known failure, every text `text`.
fn report_saying(text: &str) -> RunReport {
    let outcomes = [
        Outcome::Pass,
        Outcome::Fail(text.into()),
        Outcome::Error(text.into()),
        Outcome::Skip(text.into()),
        Outcome::Fail(text.into()),
        Outcome::Crash(text.into()),
        Outcome::Crash(text.into()),
    ];
    let records = outcomes
        .into_iter()
        .enumerate()
        .map(|(i, outcome)| {
            let mut case =
                vector::parse_case(&case_json(&format!("x/{i}{text}"), "must", text)).unwrap();
            case.level = text.into();
            CaseRecord {
                case,
                answer: Answer::Errored {
                    message: text.into(),
                },
                // Listed from the fifth on: the sixth as it ended, the others otherwise.
                known_failure: (i >= 4).then(|| KnownFailure {
                    reason: text.into(),
                    outcome: if i == 6 {
                        ListedOutcome::Fail
                    } else {
                        ListedOutcome::Crash
                    },
                    issue_url: None,
                }),
                outcome,
                duration: Duration::from_micros(10),
                stderr: format!("{text}\n{text}\n"),
            }
        })
        .collect();
    RunReport {
        implementation: ImplementationInfo {
            name: text.into(),
            version: text.into(),
            language: text.into(),
            operations: vec!["resolve".into()],
            protocol: 1,
        },
        suite_version: Some(text.into()),
        records,
        stale_expectations: vec![text.into()],
        interrupted: true,
        duration: Duration::from_millis(1),
    }
}

#[test]
fn junit_is_well_formed_xml_whatever_the_texts_hold() {
    let xml = junit::render(&hostile_report());
    let document = roxmltree::Document::parse(&xml).unwrap();
    let names: Vec<&str> = document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .filter_map(|node| node.attribute("name"))
        .collect();
    assert_eq!(
        names.len(),
        9,
        "seven cases, a stale expectation, the interruption"
    );
    // Replaced visibly, not dropped: a reader still sees what was there.
    assert!(
        names.iter().any(|name| name.contains(r"\u{fffe}\u{ffff}")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|name| name.contains(r"\u{0}\u{1}")),
        "{names:?}"
    );
}

#[test]
fn markdown_keeps_each_table_row_on_one_line_and_no_raw_html() {
    let out = markdown::render(&hostile_report());
    // HTML is literal inside a code span; outside, it must be escaped.
    assert!(!outside_code_spans(&out).contains("<script>"), "{out}");
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{fffe}'),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().filter(|line| line.starts_with('|')).collect();
    // Header, rule, the one clause, total: a line break in the clause would add rows.
    assert_eq!(rows.len(), 4, "{out}");
    for row in rows {
        // Cells split at the pipes that are not backslash-escaped.
        let cells = row.replace("\\|", "").matches('|').count();
        assert_eq!(cells, 9, "eight cells: {row}");
    }
    // Every item of the collapsed list is one line starting with a dash.
    let details = out.split("<details>").nth(1).unwrap();
    let items = details
        .lines()
        .filter(|line| line.starts_with("- "))
        .count();
    assert_eq!(items, 5, "{out}");
}

/// `text` without its code spans: a run of backticks (not backslash-escaped)
/// up to the next run of the same length.
fn outside_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let run_at = |at: usize| chars[at..].iter().take_while(|c| **c == '`').count();
    let mut out = String::new();
    let mut at = 0;
    while at < chars.len() {
        let opens = chars[at] == '`' && (at == 0 || chars[at - 1] != '\\');
        if !opens {
            out.push(chars[at]);
            at += 1;
            continue;
        }
        let fence = run_at(at);
        let mut end = at + fence;
        while end < chars.len() && !(chars[end] == '`' && run_at(end) == fence) {
            end += if chars[end] == '`' { run_at(end) } else { 1 };
        }
        at = (end + fence).min(chars.len());
    }
    out
}

#[test]
fn terminal_summary_shows_control_characters_as_escapes() {
    let out = text::summary(&hostile_report());
    let raw: Vec<char> = out
        .chars()
        .filter(|c| *c != '\n' && (c.is_control() || matches!(c, '\u{202a}'..='\u{202e}')))
        .collect();
    assert!(raw.is_empty(), "raw controls {raw:?} in:\n{out}");
    assert!(
        out.contains(r"\u{1b}[31m") && out.contains(r"\u{202e}"),
        "{out}"
    );
}

fn load_fault(case: &Value) -> (String, String) {
    vector::parse_file(&json!({"format": 1, "cases": [case]})).unwrap_err()
}

#[test]
fn an_unknown_level_is_a_load_error_at_its_pointer() {
    for level in ["MUST", "Must", "required", ""] {
        let (pointer, message) = load_fault(&case_json("x/level", level, HOSTILE));
        assert_eq!(pointer, "/cases/0/level", "{level}: {message}");
        assert!(message.contains("unknown level"), "{message}");
    }
}

#[test]
fn an_unknown_error_class_is_a_load_error_at_its_pointer() {
    for error in [
        json!("overflw"),
        json!(["overflow", "Overflow"]),
        json!([]),
        json!(3),
    ] {
        let mut case = case_json("x/class", "must", HOSTILE);
        case["expect"] = json!({ "error": error });
        let (pointer, _) = load_fault(&case);
        assert_eq!(pointer, "/cases/0/expect/error", "{error}");
    }
}

#[test]
fn any_of_above_interpretation_needs_the_readings_it_lists() {
    let mut case = case_json("x/any", "must", HOSTILE);
    case["expect"] = json!({"any_of": [{"error": "overflow"}, {"encoded_shape": [6, 4]}]});
    assert_eq!(load_fault(&case).0, "/cases/0/expect/any_of");
    case["interpretations"] = json!(["I-7"]);
    vector::parse_file(&json!({"format": 1, "cases": [case.clone()]})).unwrap();
    case["interpretations"] = json!([]);
    case["level"] = json!("interpretation");
    vector::parse_file(&json!({"format": 1, "cases": [case]})).unwrap();
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zarr-reshape-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_case(folder: &Path) {
    std::fs::create_dir_all(folder).unwrap();
    let file = json!({"format": 1, "cases": [case_json("x/one", "must", HOSTILE)]});
    std::fs::write(folder.join("one.json"), file.to_string()).unwrap();
}

#[cfg(unix)]
#[test]
fn discovery_does_not_follow_links_to_folders() {
    let root = scratch("links");
    let folder = root.join("a");
    write_case(&folder);
    // Two links to the parent: followed, the walk would double at every level.
    std::os::unix::fs::symlink("..", folder.join("up1")).unwrap();
    std::os::unix::fs::symlink("..", folder.join("up2")).unwrap();
    std::os::unix::fs::symlink("one.json", folder.join("linked.json")).unwrap();
    let started = Instant::now();
    let found = vector::discover_all(&root).unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        found.files,
        [folder.join("linked.json"), folder.join("one.json")]
    );
    assert_eq!(
        found.skipped_links,
        [folder.join("up1"), folder.join("up2")]
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn discovery_refuses_folders_nested_past_the_limit() {
    let root = scratch("nested");
    let mut deep = root.clone();
    for _ in 0..MAX_FOLDER_DEPTH {
        deep.push("d");
    }
    write_case(&deep);
    assert_eq!(vector::discover(&root).unwrap().len(), 1);
    write_case(&deep.join("d"));
    let error = vector::discover(&root).unwrap_err().to_string();
    assert!(error.contains("deeper than"), "{error}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// A document of `n` examples, each with one JSON syntax error.
fn many_findings(n: usize) -> String {
    "```json\n{\"shape\": [1 2]}\n```\n\n".repeat(n)
}

#[test]
fn check_spec_renders_eight_thousand_findings_in_linear_time() {
    let text = many_findings(8_000);
    let started = Instant::now();
    let report = check_spec::check(&text);
    let human = render::human(&report, &text, "spec.md", false);
    let json = render::json(&report, &text, "spec.md");
    let elapsed = started.elapsed();
    assert_eq!(report.findings.len(), 8_000);
    assert!(human.contains("spec.md:31998:"), "the last finding's line");
    assert_eq!(json["findings"][7_999]["line"], 31_998);
    // Before the line index: 32 s. Linear, it takes well under a second in release.
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn check_spec_survives_a_long_chain_of_fragments_on_one_line() {
    let text = format!(
        "{}is allowed.\n",
        "`\"shape\": [1, -1]` and ".repeat(20_000)
    );
    let started = Instant::now();
    let report = check_spec::check(&text);
    let human = render::human(&report, &text, "spec.md", false);
    assert_eq!(report.fragments, 20_000);
    assert!(human.contains("too long to show"));
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn check_spec_refuses_a_document_over_its_limit() {
    let text = "x".repeat(MAX_DOCUMENT_BYTES + 1);
    let report = check_spec::check(&text);
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].kind, Kind::TooLarge);
    assert!(!report.is_ok());
}

#[test]
fn markdown_shows_adapter_markup_as_written_never_as_emphasis_links_or_math() {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let out = markdown::render(&report_saying(MARKUP));
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_MATH;
    let mut strong = Vec::new();
    let mut in_strong = false;
    let mut headings = 0;
    for event in Parser::new_ext(&out, options) {
        match event {
            Event::Start(
                tag @ (Tag::Emphasis | Tag::Strikethrough | Tag::Link { .. } | Tag::Image { .. }),
            ) => panic!("{tag:?} in:\n{out}"),
            Event::InlineMath(math) | Event::DisplayMath(math) => panic!("math {math} in:\n{out}"),
            Event::Start(Tag::Heading { .. }) => headings += 1,
            Event::Start(Tag::Strong) => in_strong = true,
            Event::End(pulldown_cmark::TagEnd::Strong) => in_strong = false,
            Event::Text(text) if in_strong => strong.push(text.to_string()),
            _ => {}
        }
    }
    assert_eq!(headings, 1, "the report's own heading only:\n{out}");
    // The report's own bold (the verdict, outcomes that break the run), never the adapter's.
    assert!(
        strong.iter().all(|text| !text.contains("strong")),
        "{strong:?}"
    );
    // GitHub's autolinks, mentions and emoji codes (pulldown-cmark has none): no
    // scheme, `www.`, address or code stays whole outside code spans.
    let prose = outside_code_spans(&out);
    for whole in [
        "https://",
        "HTTP://",
        "www.",
        "user@example",
        "@someone",
        ":tada:",
    ] {
        assert!(!prose.contains(whole), "{whole} in:\n{out}");
    }
    assert!(
        prose.contains("\\_\\_strong\\_\\_") && prose.contains("\\~\\~struck\\~\\~"),
        "{out}"
    );
}

#[test]
fn junit_shows_bidi_controls_and_format_characters_as_escapes() {
    let xml = junit::render(&report_saying(FORMAT_CHARACTERS));
    roxmltree::Document::parse(&xml).unwrap();
    for c in FORMAT_CHARACTERS.chars().filter(|c| !c.is_ascii()) {
        assert!(!xml.contains(c), "{c:?} raw in the XML");
        assert!(
            xml.contains(&format!("\\u{{{:x}}}", u32::from(c))),
            "{c:?} not shown"
        );
    }
    // The other media too.
    for out in [
        markdown::render(&report_saying(FORMAT_CHARACTERS)),
        text::summary(&report_saying(FORMAT_CHARACTERS)),
    ] {
        assert!(
            FORMAT_CHARACTERS
                .chars()
                .filter(|c| !c.is_ascii())
                .all(|c| !out.contains(c)),
            "{out}"
        );
    }
}
