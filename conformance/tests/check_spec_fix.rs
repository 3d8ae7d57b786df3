//! `zarr-reshape check-spec --fix`: deliberate mistakes planted in a copy of the
//! shared reshape spec are repaired, the result checks clean, and nothing else
//! changes; suggestions that are not sound or clash are skipped, never applied
//! in part; files that cannot be fixed safely are refused.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use zarr_reshape_conformance::check_spec::{
    self, Edit, Finding, Kind, Label, Report, Severity, Suggestion, fix, render,
};

fn shared_spec() -> Option<PathBuf> {
    // Beside the repository's checkout; a worktree elsewhere names it in the environment.
    let dir = std::env::var_os("ZARR_RESHAPE_SHARED_SPEC").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec"),
        PathBuf::from,
    );
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "note: {} is not there; --fix is not tried on the shared spec copy",
            dir.display()
        );
        None
    }
}

/// A fresh folder of this test's own under cargo's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("check-spec-fix-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn check_spec(args: &[&str], file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zarr-reshape"))
        .arg("check-spec")
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

fn ids(report: &Report, severity: Severity) -> Vec<&'static str> {
    report
        .findings
        .iter()
        .filter(|finding| finding.severity == severity)
        .map(|finding| finding.kind.as_str())
        .collect()
}

/// Replaces the one occurrence of `from` in `text`.
fn plant(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "the spec copy changed: {from}"
    );
    text.replacen(from, to, 1)
}

#[test]
fn fix_repairs_mistakes_planted_in_the_spec_and_nothing_else() {
    let Some(dir) = shared_spec() else { return };
    let original = std::fs::read_to_string(dir.join("reshape-codec.md")).unwrap();
    // The encoded shape the tool computes for the spec's own example.
    let json = render::json(&check_spec::check(&original), &original, "spec.md");
    let encoded: Vec<u64> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|finding| finding["id"] == "encoded-shape")
        .map(|finding| serde_json::from_value(finding["data"]["encoded_shape"].clone()).unwrap())
        .unwrap();
    let show = |shape: &[u64]| serde_json::to_string(shape).unwrap().replace(',', ", ");
    let mut wrong = encoded.clone();
    *wrong.last_mut().unwrap() += 1;
    let sentence = |shape: &[u64]| format!("Each chunk is encoded as {}.\n\n", show(shape));

    let mut planted = plant(
        &original,
        "[[0, 1], 10, [3, 4]] is allowed but",
        "[[0, 1], 10, [3, 4]] is not allowed but",
    );
    planted = plant(&planted, "[100, 50, 64, 3]", "[100, 50 64, 3]");
    planted = plant(
        &planted,
        "\nFormat and algorithm",
        &format!("\n{}Format and algorithm", sentence(&wrong)),
    );
    let before = check_spec::check(&planted);
    let errors = ids(&before, Severity::Error);
    for id in ["fragment-disagrees", "stated-shape", "json-syntax"] {
        assert!(errors.contains(&id), "{id} not found in {errors:?}");
    }

    let folder = scratch("spec");
    let file = folder.join("reshape-codec.md");
    std::fs::write(&file, &planted).unwrap();
    let output = check_spec(&["--fix"], &file);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert_eq!(
        stdout.matches("\nfixed ").count() + usize::from(stdout.starts_with("fixed ")),
        4,
        "{stdout}"
    );
    assert!(stdout.contains(&format!("the encoded shape is {}", show(&encoded))));
    let fixed = std::fs::read_to_string(&file).unwrap();

    // Exactly the planted spans (and the spec's own missing comma) changed.
    let mut expected = fix::fix(&original).text;
    expected = plant(
        &expected,
        "\nFormat and algorithm",
        &format!("\n{}Format and algorithm", sentence(&encoded)),
    );
    assert_eq!(fixed, expected);
    assert!(check_spec::check(&fixed).is_ok());
    assert!(ids(&check_spec::check(&fixed), Severity::Error).is_empty());
    // Nothing left behind in the folder: the temporary file was renamed.
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);
    let again = check_spec(&["--fix"], &file);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), fixed);
}

fn finding(edits: &[(std::ops::Range<usize>, &str)]) -> Finding {
    Finding {
        kind: Kind::JsonSyntax,
        severity: Severity::Error,
        message: "crafted".into(),
        primary: Label {
            span: 0..0,
            message: String::new(),
        },
        related: Vec::new(),
        notes: Vec::new(),
        data: json!({}),
        suggestion: Some(Suggestion {
            message: format!("crafted {edits:?}"),
            edits: edits
                .iter()
                .map(|(span, text)| Edit {
                    span: span.clone(),
                    replacement: (*text).to_string(),
                })
                .collect(),
        }),
    }
}

#[test]
fn unsound_or_clashing_suggestions_are_skipped_whole() {
    let text = "ab\u{e9}cdef\n";
    let report = Report {
        findings: vec![
            finding(&[(0..1, "A")]),
            finding(&[(1..2, "B"), (100..101, "x")]), // outside the text
            finding(&[(3..4, "x")]),                  // cuts the two-byte character
            finding(&[(0..1, "again")]),              // overlaps the first
            finding(&[(1..1, "touching")]),           // at the first one's edge
            finding(&[(5..6, "x"), (5..7, "y")]),     // its own edits overlap
            finding(&[(6..6, "line\n::error::forged")]), // would break a line
            finding(&[(7..8, "G")]),
        ],
        blocks: 0,
        fragments: 0,
    };
    let (fixed, changes) = fix::apply(text, &report);
    assert_eq!(fixed, "Ab\u{e9}cdeG\n");
    let applied: Vec<bool> = changes.iter().map(|c| c.skipped.is_none()).collect();
    assert_eq!(
        applied,
        [true, false, false, false, false, false, false, true]
    );
}

#[test]
fn many_slips_in_one_example_are_repaired_over_rounds() {
    let elements: Vec<String> = (1..=20).map(|n| n.to_string()).collect();
    let text = format!(
        "# reshape codec\n\n```json\n{{\"name\": \"reshape\", \"configuration\": {{\"shape\": [{}],}}}}\n```\n",
        elements.join(" ")
    );
    let fixed = fix::fix(&text);
    assert!(fixed.report.is_ok(), "{:?}", fixed.report.findings);
    assert_eq!(
        fixed.text,
        text.replace(&elements.join(" "), &elements.join(", "))
            .replace("],}", "]}")
    );
}

#[test]
fn files_that_cannot_be_fixed_safely_are_refused_and_left_alone() {
    let folder = scratch("refused");
    let target = folder.join("target.md");
    let slip = "# reshape codec\n\n```json\n{\"name\": \"reshape\" \"configuration\": {\"shape\": [-1]}}\n```\n";
    std::fs::write(&target, slip).unwrap();
    #[cfg(unix)]
    {
        let link = folder.join("link.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let output = check_spec(&["--fix"], &link);
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains("symbolic link"));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), slip);
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
    let binary = folder.join("binary.md");
    std::fs::write(&binary, b"\xff\xfe not text").unwrap();
    assert_eq!(check_spec(&["--fix"], &binary).status.code(), Some(2));
    assert_eq!(std::fs::read(&binary).unwrap(), b"\xff\xfe not text");
    assert_eq!(check_spec(&["--fix"], &folder).status.code(), Some(2));
    // Without --fix nothing is written, whatever is found.
    assert_eq!(check_spec(&[], &target).status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), slip);
    // A finding with no repair keeps the exit status at 1 after --fix.
    let order = folder.join("order.md");
    let unfixable = "# reshape codec\n\n```json\n{\"codecs\": [{\"name\": \"zstd\"}, {\"name\": \"bytes\"}]}\n```\n";
    std::fs::write(&order, unfixable).unwrap();
    let output = check_spec(&["--fix", "--format", "json"], &order);
    assert_eq!(output.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let found = json["findings"].as_array().unwrap();
    assert!(found.iter().any(|finding| finding["id"] == "codec-order"));
    assert_eq!(std::fs::read_to_string(&order).unwrap(), unfixable);
}

/// The worked example of CHECK-SPEC.md: every slip with a repair is repaired,
/// the codec order (which has none) is left, and only the repaired lines change.
#[test]
fn fix_on_the_worked_example_leaves_only_what_has_no_repair() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/check_spec/worked-example.md");
    let text = std::fs::read_to_string(path).unwrap();
    let before = check_spec::check(&text);
    let repairable: Vec<&Finding> = before
        .findings
        .iter()
        .filter(|finding| finding.suggestion.is_some())
        .collect();
    assert!(repairable.len() >= 3);
    let fixed = fix::fix(&text);
    assert_eq!(ids(&fixed.report, Severity::Error), ["codec-order"]);
    assert!(fixed.changes.iter().all(|change| change.skipped.is_none()));
    assert_eq!(fixed.changes.len(), repairable.len());
    let changed: Vec<usize> = text
        .lines()
        .zip(fixed.text.lines())
        .enumerate()
        .filter(|(_, (old, new))| old != new)
        .map(|(index, _)| index + 1)
        .collect();
    let lines = |finding: &&Finding| {
        let start = finding.suggestion.as_ref().unwrap().edits[0].span.start;
        text[..start].matches('\n').count() + 1
    };
    let mut expected: Vec<usize> = repairable.iter().map(lines).collect();
    expected.sort_unstable();
    assert_eq!(changed, expected);
    assert_eq!(text.lines().count(), fixed.text.lines().count());
}
