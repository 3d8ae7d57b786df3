//! Checks of the suite as a whole: every vector file against the schema, the
//! cross-file rules the schema cannot express, and CONFORMANCE.md up to date
//! (`ZARR_RESHAPE_BLESS=1` rewrites its generated parts).
// Test helpers outside #[test] functions: a failed unwrap is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use zarr_reshape_conformance::Registry;
use zarr_reshape_conformance::coverage::{self, tally};
use zarr_reshape_conformance::matrix;
use zarr_reshape_conformance::readings;
use zarr_reshape_conformance::report::markdown;
use zarr_reshape_conformance::run::{Expectations, Reference, run_suite};
use zarr_reshape_conformance::vector::{self, Case};
use zarr_reshape_conformance::{ClassCheck, judge};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases")
}

fn registry() -> Registry {
    Registry::load(&root().join("clauses.json")).unwrap()
}

fn all_files() -> Vec<(PathBuf, Vec<Case>)> {
    let files = vector::discover(&root()).unwrap();
    assert!(
        !files.is_empty(),
        "no vector files found under {}",
        root().display()
    );
    files
        .into_iter()
        .map(|path| {
            let cases = vector::load_file(&path).unwrap_or_else(|error| panic!("{error}"));
            (path, cases)
        })
        .collect()
}

#[test]
fn every_vector_file_matches_the_schema() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("vector.schema.json")).unwrap())
            .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut problems = Vec::new();
    for path in vector::discover(&root()).unwrap() {
        let instance: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for error in validator.iter_errors(&instance) {
            problems.push(format!(
                "{} at {}: {error}",
                path.display(),
                error.instance_path()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} schema violations:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_schema_rejects_what_it_should() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("vector.schema.json")).unwrap())
            .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let case = |expect: Value, level: &str| {
        serde_json::json!({"format": 1, "cases": [{
            "id": "shape.size/x", "description": "x", "clauses": ["shape.size"], "level": level,
            "operation": "resolve", "configuration": {"shape": [2]}, "decoded_shape": [2],
            "expect": expect
        }]})
    };
    assert!(validator.is_valid(&case(serde_json::json!({"encoded_shape": [2]}), "must")));
    assert!(!validator.is_valid(&case(serde_json::json!({"error": "no-such-class"}), "must")));
    let any_of = serde_json::json!({"any_of": [{"encoded_shape": [2]}]});
    assert!(!validator.is_valid(&case(any_of.clone(), "must")));
    assert!(validator.is_valid(&case(any_of.clone(), "interpretation")));
    let mut named = case(any_of, "must");
    named["cases"][0]["interpretations"] = serde_json::json!(["I-7"]);
    assert!(validator.is_valid(&named));
}

#[test]
fn the_suite_is_consistent() {
    let problems = coverage::check(&root(), &registry(), &all_files());
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        text.join("\n")
    );
}

#[test]
fn the_registry_mirrors_the_library() {
    let registry = registry();
    let ids: Vec<(&str, &str)> = registry
        .clauses
        .iter()
        .map(|c| (c.id.as_str(), c.level.as_str()))
        .collect();
    let library: Vec<(&str, &str)> = zarr_reshape::Clause::ALL
        .iter()
        .map(|c| (c.id(), c.level().as_str()))
        .collect();
    assert_eq!(
        ids, library,
        "spec-cases/clauses.json and zarr_reshape::Clause differ"
    );
}

/// The source files that cite each clause id.
fn locations() -> BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut locations: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for clause in zarr_reshape::Clause::ALL {
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let cited = text.lines().any(|line| cites(line, clause.id()));
            if cited && !file.ends_with("clause.rs") {
                let name = format!("src/{}", file.file_name().unwrap().to_string_lossy());
                locations
                    .entry(clause.id().to_string())
                    .or_default()
                    .push(name);
            }
        }
    }
    locations
}

/// A comment line whose first word is the clause id, as at every check.
fn cites(line: &str, id: &str) -> bool {
    let comment = line
        .trim_start()
        .trim_start_matches('/')
        .trim_start_matches('!')
        .trim_start();
    line.trim_start().starts_with("//")
        && comment
            .strip_prefix(id)
            .is_some_and(|rest| rest.starts_with([':', ' ', ',']))
}

/// The summary part of a runner Markdown report (everything before the list of
/// cases), its heading moved one level down to sit under "Results".
fn summary_of(markdown: &str) -> String {
    let summary = markdown
        .split("<details>")
        .next()
        .unwrap_or_default()
        .trim_end();
    format!("#{summary}\n")
}

/// The reference run over every vector, as the runner reports it in Markdown.
fn reference_results() -> String {
    let cases: Vec<Case> = all_files()
        .into_iter()
        .flat_map(|(_, cases)| cases)
        .collect();
    let mut report = run_suite(
        &mut Reference::default(),
        &cases,
        &Expectations::default(),
        ClassCheck::Strict,
        |_| true,
    );
    // These files are the embedded suite's: the release its reports name.
    report.suite_version = Some(zarr_reshape_vectors::SUITE_VERSION.into());
    summary_of(&markdown::render(&report))
}

/// The committed zarrs run (written by conformance/adapters/zarrs/run.sh; .ci/run checks it is current).
fn zarrs_results() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/zarrs-0.23.14.results.md");
    let markdown = std::fs::read_to_string(path).unwrap();
    summary_of(&markdown)
        + "\nEvery case that does not pass, with its reason, is in \
           [conformance/reports/zarrs-0.23.14.results.md](conformance/reports/zarrs-0.23.14.results.md); \
           the divergences are explained for zarrs' maintainers in \
           [conformance/reports/zarrs-0.23.14.md](conformance/reports/zarrs-0.23.14.md).\n"
}

/// The committed nd-image-codecs run (written by conformance/adapters/nd-image-codecs/run.sh;
/// .ci/run checks it is current).
fn nd_image_codecs_results() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/nd-image-codecs-0.2.5.results.md");
    let markdown = std::fs::read_to_string(path).unwrap();
    summary_of(&markdown)
        + "\nEvery case that does not pass, with its reason, is in \
           [conformance/reports/nd-image-codecs-0.2.5.results.md](conformance/reports/nd-image-codecs-0.2.5.results.md); \
           the causes are explained for nd-image-codecs' maintainers, each with a reproduction, in \
           [conformance/reports/nd-image-codecs-0.2.5.md](conformance/reports/nd-image-codecs-0.2.5.md).\n"
}

/// The outcome of each read-array case in a committed runner Markdown report: a
/// case in its list of cases that did not pass shows the outcome given there.
fn outcomes_in(report: &str) -> BTreeMap<String, String> {
    report
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("- `")?;
            let (id, rest) = rest.split_once('`')?;
            let outcome = rest.split_once("): ")?.1.split(':').next()?.to_string();
            Some((id.to_string(), outcome))
        })
        .collect()
}

/// Fixture by reader: the reference in-process, then the committed runs of the peers.
fn arrays_table(files: &[(PathBuf, Vec<Case>)]) -> String {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let peers = [
        ("zarrs 0.23.14", "zarrs-0.23.14.results.md"),
        (
            "zarr-python 3.4.2 + zarrs-python 0.2.3",
            "zarr-python-3.4.2.results.md",
        ),
        (
            "nd-image-codecs 0.2.5 (zarr-python 3.4.2)",
            "nd-image-codecs-0.2.5.results.md",
        ),
    ];
    let peer_outcomes: Vec<BTreeMap<String, String>> = peers
        .iter()
        .map(|(_, file)| outcomes_in(&std::fs::read_to_string(reports.join(file)).unwrap()))
        .collect();
    let mut out = String::from("| case | level | reference |");
    for (name, _) in &peers {
        out += &format!(" {name} |");
    }
    out += "\n|---|---|---|";
    out += &"---|".repeat(peers.len());
    out += "\n";
    let cases = files.iter().flat_map(|(_, cases)| cases);
    for case in cases.filter(|case| case.operation.name() == "read-array") {
        let reference = judge(
            case,
            &zarr_reshape_conformance::reference::run(case),
            ClassCheck::Strict,
        );
        out += &format!("| `{}` | {} | {} |", case.id, case.level, reference.name());
        for outcomes in &peer_outcomes {
            out += &format!(
                " {} |",
                outcomes.get(&case.id).map_or("pass", String::as_str)
            );
        }
        out += "\n";
    }
    out
}

/// The planted-bugs table that `conformance/adapters/bugs/run_all.py` writes (CI
/// checks it is current with `--check`), without its title and preamble.
fn planted_bugs() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/bug-injection.results.md");
    let text = std::fs::read_to_string(&path).unwrap();
    // The title and the preamble are the first two paragraphs.
    let paragraphs: Vec<&str> = text.splitn(3, "\n\n").collect();
    assert_eq!(
        paragraphs.len(),
        3,
        "{}: a title, a preamble, then the table",
        path.display()
    );
    paragraphs.last().unwrap().to_string()
}

/// The committed mutation results, `conformance/reports/mutants.json`.
fn mutation_results() -> matrix::MutationResults {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/mutants.json");
    let text = std::fs::read_to_string(&path).unwrap();
    matrix::MutationResults::from_json_str(&text)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// A missed mutant needs a reason the file defines; a caught one needs none.
#[test]
fn mutation_results_refuse_a_missed_mutant_without_a_reason() {
    let file = |outcome: &str, reason: &str| {
        format!(
            r#"{{"format": 1, "runs": [], "reasons": {{"wording": {{"kind": "untestable", "why": "w", "pinned_by": "-"}}}},
               "mutants": [{{"name": "src/a.rs:1:1: replace f", "file": "src/a.rs", "line": 1,
                             "outcome": "{outcome}", "run": "r"{reason}}}]}}"#
        )
    };
    let read = |text: String| matrix::MutationResults::from_json_str(&text);
    assert!(read(file("caught", "")).is_ok());
    assert!(read(file("missed", r#", "reason": "wording""#)).is_ok());
    for (outcome, reason) in [
        ("missed", ""),
        ("timeout", ""),
        ("missed", r#", "reason": "no-such-reason""#),
        ("passed", ""),
    ] {
        let error = read(file(outcome, reason)).map(|_| ()).unwrap_err();
        assert!(error.contains("src/a.rs:1:1"), "{outcome}{reason}: {error}");
    }
    let summary =
        matrix::mutants_summary(&read(file("missed", r#", "reason": "wording""#)).unwrap());
    assert!(
        summary.starts_with("1 mutants of `src/`: caught 0, missed 1,"),
        "{summary}"
    );
    assert!(summary.contains("by reason: 1 untestable"), "{summary}");
}

/// `conformance/reports/mutants.md`'s tables are rendered from mutants.json.
#[test]
fn mutants_md_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/mutants.md");
    let current = std::fs::read_to_string(&path).unwrap();
    let tables = matrix::mutants_tables(&mutation_results());
    let fresh = matrix::replace_block(&current, "mutants", &tables)
        .expect("mutants.md lacks the markers of the generated block mutants");
    bless_or_fail(&path, &current, &fresh, "conformance/reports/mutants.md");
}

/// Passes when `fresh` is what `path` holds; else rewrites it under
/// `ZARR_RESHAPE_BLESS`, or fails saying how to.
fn bless_or_fail(path: &Path, current: &str, fresh: &str, name: &str) {
    if fresh == current {
        return;
    }
    if std::env::var_os("ZARR_RESHAPE_BLESS").is_some() {
        std::fs::write(path, fresh).unwrap();
        return;
    }
    panic!(
        "{name} is stale; run `ZARR_RESHAPE_BLESS=1 cargo test -p zarr-reshape-conformance --test suite` and commit it"
    );
}

#[test]
fn conformance_md_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../CONFORMANCE.md");
    let current = std::fs::read_to_string(&path).unwrap();
    let registry = registry();
    let files = all_files();
    let tallies = tally(files.iter().flat_map(|(_, cases)| cases));
    let meaning = std::fs::read_to_string(root().join("generated/MEANING.md")).unwrap_or_default();
    let blocks = [
        (
            "clause-matrix",
            matrix::clause_matrix(&registry, &tallies, &locations()),
        ),
        ("readings", matrix::readings(&registry)),
        (
            "contested-musts",
            readings::contested::table(files.iter().flat_map(|(_, cases)| cases)),
        ),
        ("meaning-check", meaning),
        ("reference-results", reference_results()),
        ("zarrs-results", zarrs_results()),
        ("nd-image-codecs-results", nd_image_codecs_results()),
        ("arrays", arrays_table(&files)),
        ("planted-bugs", planted_bugs()),
        ("mutants", matrix::mutants_summary(&mutation_results())),
    ];
    let mut fresh = current.clone();
    for (name, content) in &blocks {
        fresh = matrix::replace_block(&fresh, name, content).unwrap_or_else(|| {
            panic!("CONFORMANCE.md lacks the markers of the generated block {name}")
        });
    }
    bless_or_fail(&path, &current, &fresh, "CONFORMANCE.md");
}
