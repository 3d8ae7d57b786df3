//! `zarr-reshape check-spec` on markdown fixtures written for this project (one per
//! kind of finding), with snapshots of the human output, and on the shared copies of
//! the reshape spec when they sit beside the repository.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};
use zarr_reshape_conformance::check_spec::{self, Report, Severity, render};

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/check_spec")
}

/// Checks a fixture; gives the report, its human output (no colours) and its JSON.
fn run(name: &str) -> (Report, String, Value) {
    let path = fixture_dir().join(format!("{name}.md"));
    let text = std::fs::read_to_string(&path).unwrap();
    let report = check_spec::check(&text);
    let shown = format!("tests/check_spec/{name}.md");
    let human = render::human(&report, &text, &shown, false);
    let json = render::json(&report, &text, &shown);
    (report, human, json)
}

/// The findings' ids, in order.
fn ids(json: &Value) -> Vec<String> {
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| finding["id"].as_str().unwrap().to_string())
        .collect()
}

fn findings<'v>(json: &'v Value, id: &str) -> Vec<&'v Value> {
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["id"] == id)
        .collect()
}

fn at(finding: &Value) -> (u64, u64) {
    (
        finding["line"].as_u64().unwrap(),
        finding["column"].as_u64().unwrap(),
    )
}

#[test]
fn missing_comma_is_reported_repaired_and_checked_on() {
    let (report, human, json) = run("missing-comma");
    insta::assert_snapshot!("missing-comma", human);
    assert!(!report.is_ok());
    assert_eq!(ids(&json), ["json-syntax", "encoded-shape"]);
    let syntax = findings(&json, "json-syntax")[0];
    assert_eq!(at(syntax), (14, 22));
    assert_eq!(
        syntax["data"]["insert"],
        json!({"line": 14, "column": 21, "text": ","})
    );
    assert_eq!(
        findings(&json, "encoded-shape")[0]["data"]["encoded_shape"],
        json!([24, 8])
    );
    insta::assert_snapshot!(
        "missing-comma-json",
        serde_json::to_string_pretty(&json).unwrap()
    );
}

#[test]
fn trailing_comma_is_reported_repaired_and_checked_on() {
    let (_, human, json) = run("trailing-comma");
    insta::assert_snapshot!("trailing-comma", human);
    assert_eq!(ids(&json), ["json-syntax", "encoded-shape"]);
    assert_eq!(at(findings(&json, "json-syntax")[0]), (10, 58));
    assert_eq!(
        json["findings"][1]["data"]["encoded_shape"],
        json!([10, 15])
    );
}

#[test]
fn unbalanced_brackets_point_at_the_open_one() {
    let (_, human, json) = run("unbalanced");
    insta::assert_snapshot!("unbalanced", human);
    assert_eq!(ids(&json), ["json-syntax", "json-syntax"]);
    assert_eq!(at(&json["findings"][0]), (6, 1));
    assert_eq!(at(&json["findings"][1]), (16, 59));
    assert_eq!(json["findings"][1]["related"][0]["column"], 48);
}

#[test]
fn codec_order_problems_are_each_reported() {
    let (report, human, json) = run("codec-order");
    insta::assert_snapshot!("codec-order", human);
    assert_eq!(report.count(Severity::Error), 4);
    let order = findings(&json, "codec-order");
    let messages: Vec<&str> = order
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(messages[0].contains("`gzip` comes before the array-to-bytes codec `bytes`"));
    assert!(messages[1].contains("`bytes` comes before the array-to-array codec `transpose`"));
    assert!(messages[2].starts_with("a second array-to-bytes codec"));
    assert!(messages[3].starts_with("no array-to-bytes codec"));
    assert_eq!(findings(&json, "unknown-codec").len(), 1);
    // The heuristic fires on "the gzip codec", not on "the array-to-bytes codec".
    let prose = findings(&json, "prose-codec");
    assert_eq!(prose.len(), 1);
    assert_eq!(at(prose[0]), (3, 51));
}

#[test]
fn reshape_violations_come_with_their_trace() {
    let (_, human, json) = run("reshape-violation");
    insta::assert_snapshot!("reshape-violation", human);
    let violations = findings(&json, "reshape-violation");
    assert_eq!(violations.len(), 2);
    assert_eq!(violations[0]["data"]["clause"], "input-dims.prefix");
    assert_eq!(violations[1]["data"]["clause"], "shape.invariant");
    let trace = violations[0]["notes"][0].as_str().unwrap();
    assert!(trace.contains("prod(B_shape[:1]) = 2, prod(A_shape[:2]) = 6 -> violated"));
}

#[test]
fn good_metadata_prints_its_encoded_shapes() {
    let (report, human, json) = run("good-metadata");
    insta::assert_snapshot!("good-metadata", human);
    assert!(report.is_ok());
    assert_eq!(report.blocks, 2, "the python block is not read");
    let shapes: Vec<&Value> = findings(&json, "encoded-shape")
        .iter()
        .map(|f| &f["data"]["encoded_shape"])
        .collect();
    assert_eq!(shapes, [&json!([2048, 3]), &json!([16, 4])]);
}

#[test]
fn transpose_after_reshape_is_followed() {
    let (_, human, json) = run("transpose-after-reshape");
    insta::assert_snapshot!("transpose-after-reshape", human);
    let shapes: Vec<&Value> = findings(&json, "encoded-shape")
        .iter()
        .map(|f| &f["data"]["encoded_shape"])
        .collect();
    assert_eq!(shapes, [&json!([200, 3]), &json!([3, 200])]);
    assert_eq!(findings(&json, "transpose-invalid").len(), 1);
}

#[test]
fn fragments_that_agree_with_the_prose() {
    let (report, human, json) = run("fragments-agree");
    insta::assert_snapshot!("fragments-agree", human);
    assert!(report.is_ok());
    assert_eq!(report.fragments, 8);
    let verdicts: Vec<(&str, &str)> = findings(&json, "fragment-agrees")
        .iter()
        .map(|f| {
            (
                f["data"]["verdict"].as_str().unwrap(),
                f["data"]["decided_by"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("allowed", "-"),
            ("not allowed", "input-dims.increasing"),
            ("not allowed", "input-dims.increasing"),
            ("not allowed", "shape.auto.once"),
            ("not allowed", "shape.size"),
            ("not allowed", "input-dims.prefix"),
            ("allowed", "-"),
            ("allowed", "-"),
        ]
    );
}

#[test]
fn fragments_that_disagree_with_the_prose() {
    let (report, human, json) = run("fragments-disagree");
    insta::assert_snapshot!("fragments-disagree", human);
    assert!(!report.is_ok());
    assert_eq!(
        ids(&json),
        [
            "fragment-disagrees",
            "fragment-disagrees",
            "fragment-agrees",
            "fragment-other-clause",
            "fragment-no-verdict",
            "json-syntax",
            "fragment-agrees",
        ]
    );
    let other = findings(&json, "fragment-other-clause")[0];
    assert_eq!(other["data"]["decided_by"], "shape.invariant");
    assert_eq!(other["data"]["discussed"], json!(["input-dims.prefix"]));
}

#[test]
fn unfenced_blocks_of_a_rendered_copy_are_read() {
    let (_, human, json) = run("unfenced");
    insta::assert_snapshot!("unfenced", human);
    assert_eq!(json["summary"]["json_examples"], 2);
    assert_eq!(at(findings(&json, "json-syntax")[0]), (14, 5));
    assert_eq!(
        findings(&json, "encoded-shape")[0]["data"]["encoded_shape"],
        json!([6, 20])
    );
    assert_eq!(findings(&json, "codec-order").len(), 1);
    assert_eq!(findings(&json, "chunk-shape").len(), 1);
}

#[test]
fn examples_in_block_quotes_and_list_items_are_read_as_commonmark_reads_them() {
    let (_, human, json) = run("containers");
    insta::assert_snapshot!("containers", human);
    assert_eq!(json["summary"]["json_examples"], 2);
    assert_eq!(
        ids(&json),
        [
            "json-syntax",
            "encoded-shape",
            "json-syntax",
            "fragment-agrees"
        ]
    );
    // In the block quote: the `>` is not part of the example, the column is the file's.
    let comma = findings(&json, "json-syntax")[0];
    assert_eq!(at(comma), (7, 65));
    assert_eq!(comma["data"]["insert"]["column"], 64);
    assert_eq!(
        findings(&json, "encoded-shape")[0]["data"]["encoded_shape"],
        json!([4, 6])
    );
    // The unclosed fence ends with its list item: the next item is prose again.
    assert_eq!(at(findings(&json, "json-syntax")[1]), (13, 3));
    assert_eq!(json["summary"]["fragments"], 1);
}

/// CRLF line breaks: every finding at the same line and column as with LF.
#[test]
fn crlf_documents_get_the_same_places() {
    let lf = std::fs::read_to_string(fixture_dir().join("missing-comma.md")).unwrap();
    let crlf = lf.replace('\n', "\r\n");
    let places = |text: &str| {
        let report = check_spec::check(text);
        let json = render::json(&report, text, "spec.md");
        json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (at(f), f["data"]["insert"].clone()))
            .collect::<Vec<_>>()
    };
    assert!(!places(&lf).is_empty());
    assert_eq!(places(&crlf), places(&lf));
}

/// CHECK-SPEC.md shows the worked example's output; it must be what the command prints.
#[test]
fn worked_example_in_check_spec_md_is_current() {
    let (report, human, _) = run("worked-example");
    assert_eq!(report.count(Severity::Error), 4);
    let doc = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("CHECK-SPEC.md");
    let doc = std::fs::read_to_string(doc).unwrap();
    assert!(
        doc.contains(&format!("```text\n{human}```")),
        "CHECK-SPEC.md's worked example is stale; it should show:\n{human}"
    );
    let example = std::fs::read_to_string(fixture_dir().join("worked-example.md")).unwrap();
    assert!(doc.contains(&format!("````markdown\n{example}````")));
}

#[test]
fn the_command_exits_by_what_it_found() {
    let binary = env!("CARGO_BIN_EXE_zarr-reshape");
    let check = |file: PathBuf, format: &str| {
        Command::new(binary)
            .args(["check-spec", "--format", format])
            .arg(file)
            .output()
            .unwrap()
    };
    let bad = check(fixture_dir().join("missing-comma.md"), "json");
    assert_eq!(bad.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(json["ok"], false);
    let good = check(fixture_dir().join("good-metadata.md"), "human");
    assert_eq!(good.status.code(), Some(0));
    let stdout = String::from_utf8(good.stdout).unwrap();
    assert!(stdout.contains("encoded shape [2048, 3]"));
    assert!(
        !stdout.contains('\u{1b}'),
        "no colours when not on a terminal"
    );
    let missing = check(fixture_dir().join("no-such-file.md"), "human");
    assert_eq!(missing.status.code(), Some(2));
}

/// The done-when of the issue, on the shared copies of the spec: the missing comma
/// at its line and column in each file, the codec order problem only upstream, the
/// encoded shape [5000, 64, 3], and the four fragments agreeing with the prose.
#[test]
fn shared_spec_copies() {
    // Beside the checkout on the team's machines; ZARR_RESHAPE_SHARED_SPEC elsewhere.
    let dir = std::env::var_os("ZARR_RESHAPE_SHARED_SPEC").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec"),
        PathBuf::from,
    );
    if !dir.is_dir() {
        eprintln!(
            "note: {} is not there; the shared spec copies are not checked",
            dir.display()
        );
        return;
    }
    // (file, where the parser stops, where the comma belongs, codec order problems)
    let cases = [
        ("reshape-codec.md", (73, 9), (72, 24), 0),
        ("reshape-codec.upstream.md", (99, 9), (98, 24), 1),
    ];
    for (file, stop, comma, order_problems) in cases {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let report = check_spec::check(&text);
        let json = render::json(&report, &text, file);
        assert!(!report.is_ok(), "{file}");
        let syntax = findings(&json, "json-syntax");
        assert_eq!(syntax.len(), 1, "{file}");
        assert_eq!(syntax[0]["message"], "missing comma between object members");
        assert_eq!(at(syntax[0]), stop, "{file}");
        let insert = &syntax[0]["data"]["insert"];
        assert_eq!(
            (
                insert["line"].as_u64().unwrap(),
                insert["column"].as_u64().unwrap()
            ),
            comma
        );
        let order = findings(&json, "codec-order");
        assert_eq!(order.len(), order_problems, "{file}");
        if let Some(order) = order.first() {
            assert_eq!(
                order["message"],
                "bytes-to-bytes codec `zstd` comes before the array-to-bytes codec `bytes`"
            );
        }
        let shapes = findings(&json, "encoded-shape");
        assert_eq!(shapes.len(), 1, "{file}");
        assert_eq!(shapes[0]["data"]["decoded_shape"], json!([100, 50, 64, 3]));
        assert_eq!(shapes[0]["data"]["encoded_shape"], json!([5000, 64, 3]));
        let fragments: Vec<String> = findings(&json, "fragment-agrees")
            .iter()
            .map(|f| format!("{} {}", f["data"]["fragment"], f["data"]["verdict"]))
            .collect();
        assert_eq!(
            fragments,
            [
                "[[0,1],10,[3,4]] \"allowed\"",
                "[[1],[0]] \"not allowed\"",
                "[[1,0],10,[3,4]] \"not allowed\"",
                "[[3,4],10,[0,1]] \"not allowed\"",
            ],
            "{file}"
        );
        assert!(findings(&json, "fragment-disagrees").is_empty(), "{file}");
        assert_eq!(
            findings(&json, "prose-codec").len(),
            1,
            "{file}: erratum E5"
        );
    }
}

/// The boundary of issue 17: check_spec and meaning use the library and nothing of
/// this crate (no `crate::`, so a change to them cannot touch the runner), and
/// their modules import each other one way only (no circle of `super::` imports).
#[test]
fn check_spec_and_meaning_stand_apart_and_import_one_way() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let meaning = std::fs::read_to_string(src.join("meaning.rs")).unwrap();
    assert!(!meaning.contains("crate::"), "meaning.rs uses the crate");
    for dir in ["check_spec", "meaning"] {
        let mut modules: Vec<(String, String)> = std::fs::read_dir(src.join(dir))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .map(|path| {
                let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).unwrap();
                // Unit tests may use anything of their own module.
                let code = text.split("#[cfg(test)]").next().unwrap().to_string();
                (name, code)
            })
            .collect();
        modules.sort();
        let names: Vec<String> = modules.iter().map(|(name, _)| name.clone()).collect();
        for (name, code) in &modules {
            assert!(!code.contains("crate::"), "{dir}/{name}.rs uses the crate");
        }
        // Edges: module -> the sibling modules it names after `super::`.
        let deps = |code: &str| -> Vec<usize> {
            names
                .iter()
                .enumerate()
                .filter(|(_, name)| {
                    code.split("super::").skip(1).any(|after| {
                        let list = after
                            .strip_prefix('{')
                            .map_or(after, |inner| inner.split('}').next().unwrap());
                        list.split(',')
                            .map(|item| item.trim().split("::").next().unwrap())
                            .any(|item| item == name.as_str())
                    })
                })
                .map(|(index, _)| index)
                .collect()
        };
        let edges: Vec<Vec<usize>> = modules
            .iter()
            .map(|(name, code)| {
                if name == "mod" {
                    Vec::new()
                } else {
                    deps(code)
                }
            })
            .collect();
        // Kahn's algorithm: every module is removed once its imports are.
        let mut left: Vec<usize> = (0..names.len()).collect();
        while !left.is_empty() {
            let before = left.len();
            let done: Vec<usize> = left
                .iter()
                .copied()
                .filter(|&m| edges[m].iter().all(|d| !left.contains(d) || *d == m))
                .collect();
            left.retain(|m| !done.contains(m));
            assert!(
                left.len() < before,
                "{dir}: an import circle among {:?}",
                left.iter().map(|m| &names[*m]).collect::<Vec<_>>()
            );
        }
    }
}
