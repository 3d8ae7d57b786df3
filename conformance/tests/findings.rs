//! FINDINGS.md: every bug the suite has found in a real implementation, rendered
//! from the expectations files, conformance/findings.toml and the suite's cases,
//! and up to date (`ZARR_RESHAPE_BLESS=1` rewrites it).
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::path::PathBuf;

use zarr_reshape_conformance::findings::index::{self, Index};
use zarr_reshape_conformance::findings::{self, Effect, ExpectationsFile, effect};
use zarr_reshape_conformance::vector::{self, Case};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> Vec<Case> {
    let root = manifest().join("../spec-cases");
    vector::discover(&root)
        .unwrap()
        .into_iter()
        .flat_map(|path| vector::load_file(&path).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn index_text() -> String {
    std::fs::read_to_string(manifest().join("findings.toml")).unwrap()
}

fn files() -> Vec<ExpectationsFile> {
    findings::read_files(&manifest().join("expectations")).unwrap()
}

#[test]
fn findings_md_is_up_to_date() {
    let path = manifest().join("../FINDINGS.md");
    let fresh =
        findings::render(&index_text(), &files(), &cases()).unwrap_or_else(|e| panic!("{e}"));
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if fresh == current {
        return;
    }
    if std::env::var_os("ZARR_RESHAPE_BLESS").is_some() {
        std::fs::write(&path, fresh).unwrap();
        return;
    }
    panic!(
        "FINDINGS.md is stale; run `ZARR_RESHAPE_BLESS=1 cargo test -p zarr-reshape-conformance --test findings` and commit it"
    );
}

/// An expectations file of one entry listing `ids` under `clause`.
fn file(path: &str, clause: &str, ids: &[&str], outcome: &str) -> ExpectationsFile {
    let ids: Vec<String> = ids.iter().map(|id| format!("{id:?}")).collect();
    ExpectationsFile {
        path: path.into(),
        text: format!(
            "[[failure]]\nids = [{}]\nclause = \"{clause}\"\nreason = \"r\"\noutcome = \"{outcome}\"\n",
            ids.join(", ")
        ),
    }
}

fn case<'a>(cases: &'a [Case], id: &str) -> &'a Case {
    cases.iter().find(|case| case.id == id).unwrap()
}

#[test]
fn the_effect_follows_from_the_listed_outcome_and_the_smallest_case() {
    let cases = cases();
    // Cases of the suite whose expectation is an error, data, or either.
    let error = "input-dims.prefix/gap-between-groups";
    let data = "generated/resolve/1_dims0/on-1";
    let either = "limits.u64/auto-product-beyond-u64";
    for (id, kinds) in [
        (error, (true, false)),
        (data, (false, true)),
        (either, (true, true)),
    ] {
        assert_eq!(effect::kinds(&case(&cases, id).expect), kinds, "{id}");
    }
    let clause = |id: &str| case(&cases, id).clauses[0].clone();
    let effect_of = |id: &str, outcome: &str, answered: &index::Answered| {
        let file = file("x-1.toml", &clause(id), &[id], outcome);
        findings::findings(&file.text, &cases, answered).unwrap()[0].effect
    };
    let none = index::Answered::default();
    assert_eq!(effect_of(error, "fail", &none), Effect::WrongAcceptance);
    assert_eq!(effect_of(either, "fail", &none), Effect::WrongData);
    assert_eq!(effect_of(data, "fail", &none), Effect::WrongAnswer);
    assert_eq!(effect_of(data, "crash", &none), Effect::Crash);
    assert_eq!(effect_of(error, "error", &none), Effect::Fault);
    let refused = index::Answered {
        refused: [data.to_string()].into(),
        ..index::Answered::default()
    };
    assert_eq!(effect_of(data, "fail", &refused), Effect::WrongRefusal);
    let wrong_data = index::Answered {
        wrong_data: [data.to_string()].into(),
        ..index::Answered::default()
    };
    assert_eq!(effect_of(data, "fail", &wrong_data), Effect::WrongData);
}

#[test]
fn the_smallest_case_is_the_shortest_given() {
    let cases = cases();
    let ids = [
        "input-dims.prefix/gap-between-groups",
        "input-dims.prefix/leading-dim-after-group",
        "generated/read-array/invalid-prefix",
    ];
    let file = file("x-1.toml", "input-dims.prefix", &ids, "fail");
    let found = findings::findings(&file.text, &cases, &index::Answered::default()).unwrap();
    let smallest = ids
        .iter()
        .map(|id| case(&cases, id))
        .min_by_key(|case| (findings::size_of(case), case.id.clone()))
        .unwrap();
    assert_eq!(found[0].minimal.id, smallest.id);
    assert_eq!(found[0].levels.values().sum::<usize>(), ids.len());
    // An id no case has is refused, naming it.
    let stale = self::file(
        "x-1.toml",
        "input-dims.prefix",
        &["input-dims.prefix/no-such"],
        "fail",
    );
    let error = findings::findings(&stale.text, &cases, &index::Answered::default()).unwrap_err();
    assert!(error.contains("input-dims.prefix/no-such"), "{error}");
}

#[test]
fn a_file_the_index_does_not_name_counts_under_its_file_name() {
    assert_eq!(
        index::from_name("nd-image-codecs-0.2.5.python.toml"),
        ("nd-image-codecs".into(), "0.2.5 (python)".into())
    );
    assert_eq!(
        index::from_name("array-path/zarr-java-0.2.0.toml"),
        ("zarr-java".into(), "0.2.0".into())
    );
    assert_eq!(
        index::from_name("zarr-python-3.4.2-reference-codec.toml"),
        ("zarr-python".into(), "3.4.2 (reference-codec)".into())
    );
    let cases = cases();
    let files = [file(
        "array-path/zarr-java-0.2.0.toml",
        "input-dims.prefix",
        &["input-dims.prefix/gap-between-groups"],
        "fail",
    )];
    let page = findings::render("", &files, &cases).unwrap();
    assert!(page.contains("\n## zarr-java 0.2.0\n"), "{page}");
    assert!(page.contains("not in conformance/findings.toml"), "{page}");
    assert!(
        page.contains("| zarr-java 0.2.0 | 1 | 0 | 0 | 0 | 0 | 0 | 1 | 1 |"),
        "{page}"
    );
}

#[test]
fn the_index_is_checked() {
    let cases = cases();
    let data = "generated/resolve/1_dims0/on-1";
    let error = "input-dims.prefix/gap-between-groups";
    let files = [
        file("a-1.toml", "shape.invariant", &[data], "fail"),
        file("b-1.toml", "input-dims.prefix", &[error], "fail"),
    ];
    let row = |path: &str, extra: &str| {
        format!("[[file]]\npath = \"{path}\"\nimplementation = \"a\"\nversion = \"1\"\n{extra}\n")
    };
    // refused decides an entry whose smallest case expects data.
    let page = findings::render(
        &row("a-1.toml", &format!("refused = [{data:?}]")),
        &files,
        &cases,
    )
    .unwrap();
    assert!(
        page.contains("### Wrong refusal (1 finding, 1 case)"),
        "{page}"
    );
    for (index, says) in [
        (
            row("b-1.toml", &format!("refused = [{error:?}]")),
            "no entry that lists it as fail has a smallest case that expects data only",
        ),
        (row("c-1.toml", ""), "names c-1.toml, which is not under"),
        (
            row("a-1.toml", "") + &row("a-1.toml", ""),
            "a-1.toml is named twice",
        ),
        (
            "[[file]]\npath = \"a-1.toml\"".to_string(),
            "needs implementation and version",
        ),
        (
            "[[file]]\npath = \"a-1.toml\"\ncounted = false".to_string(),
            "needs a why",
        ),
        (row("a-1.toml", "colour = 1"), "unknown field"),
    ] {
        let refused = findings::render(&index, &files, &cases).unwrap_err();
        assert!(refused.contains(says), "{says:?} not in {refused:?}");
    }
    // A file not counted is named at the end, with why, and has no section.
    let page = findings::render(
        "[[file]]\npath = \"b-1.toml\"\ncounted = false\nwhy = \"measured twice\"",
        &files,
        &cases,
    )
    .unwrap();
    assert!(
        page.contains("(conformance/expectations/b-1.toml): measured twice"),
        "{page}"
    );
    assert!(!page.contains("## b 1"), "{page}");
    assert!(Index::parse("").is_ok());
}
