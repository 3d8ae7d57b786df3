//! Levels follow from the readings (issue 26): every case is answered under every
//! combination of the documented readings it raises (`readings::verdicts`), and
//! - its level is `must` unless two readings give different verdicts (then
//!   `interpretation`), or `should` where its clause is the spec's `should`;
//! - where every reading errs, its expectation accepts every class a reading gives;
//! - a case below `must` names a reading that changes its verdict;
//! - the plain exact evaluation (`readings::exact`) under the reference's readings
//!   gives the library's verdict on every `resolve` case with a bare configuration.
//!
//! `ZARR_RESHAPE_LEVELS_OUT=FILE` writes every disagreement as a JSON line (id,
//! file, derived level, classes to add) for the tool that fixes the hand-written
//! files; the generated ones follow from `meaning::generate_vectors`.
// Test code: a failed unwrap is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::print_stderr)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use zarr_reshape_conformance::readings::exact::{self, Mode};
use zarr_reshape_conformance::readings::{clause_under_test, verdicts};
use zarr_reshape_conformance::vector::{self, Case, CodecJson, Expectation, Operation};
use zarr_reshape_conformance::{Answer, ClassCheck, Outcome, judge};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases")
}

fn all_cases() -> Vec<(PathBuf, Case)> {
    let files = vector::discover(&root()).unwrap();
    assert!(
        !files.is_empty(),
        "no vector files under {}",
        root().display()
    );
    files
        .into_iter()
        .flat_map(|path| {
            let cases = vector::load_file(&path).unwrap_or_else(|error| panic!("{error}"));
            cases.into_iter().map(move |case| (path.clone(), case))
        })
        .collect()
}

/// Every class the expectation accepts.
fn accepted_classes(expect: &Expectation) -> BTreeSet<String> {
    match expect {
        Expectation::Error(classes) => classes.iter().cloned().collect(),
        Expectation::AnyOf(entries) => entries.iter().flat_map(accepted_classes).collect(),
        Expectation::Output(_) => BTreeSet::new(),
    }
}

/// Every success the expectation accepts.
fn accepted_outputs(expect: &Expectation) -> Vec<&serde_json::Map<String, Value>> {
    match expect {
        Expectation::Output(output) => vec![output],
        Expectation::AnyOf(entries) => entries.iter().flat_map(accepted_outputs).collect(),
        Expectation::Error(_) => Vec::new(),
    }
}

fn describe(answer: &Answer) -> String {
    match answer {
        Answer::Output(output) => Value::Object(output.clone()).to_string(),
        Answer::Error { class, .. } => format!("error {}", class.as_deref().unwrap_or("null")),
        other => format!("{other:?}"),
    }
}

#[test]
fn every_case_has_the_level_and_classes_its_readings_give() {
    let cases = all_cases();
    let mut problems = Vec::new();
    let mut fixes = Vec::new();
    let mut below_must = 0_usize;
    for (path, case) in &cases {
        let verdicts = match verdicts(case) {
            Ok(verdicts) => verdicts,
            Err(reason) => {
                problems.push(format!("{}: cannot be judged: {reason}", case.id));
                continue;
            }
        };
        let level = verdicts.level(clause_under_test(case)).as_str();
        let answers: Vec<String> = verdicts
            .answers
            .iter()
            .map(|(taken, answer)| {
                let taken: Vec<&str> = taken.iter().map(|a| a.reading()).collect();
                format!("[{}] {}", taken.join("+"), describe(answer))
            })
            .collect();
        if level != "must" {
            below_must += 1;
        }
        let mut missing: Vec<String> = Vec::new();
        if !verdicts
            .answers
            .iter()
            .any(|(_, answer)| matches!(answer, Answer::Output(_)))
        {
            let accepted = accepted_classes(&case.expect);
            missing = verdicts.classes().difference(&accepted).cloned().collect();
        }
        // I-6 and I-7 are implementation-defined: the vectors accept the answer of
        // either reading (CONFORMANCE.md), so twins with one input never disagree.
        let unaccepted: Vec<&Answer> = verdicts
            .implementation_defined()
            .into_iter()
            .filter(|answer| judge(case, answer, ClassCheck::Strict) != Outcome::Pass)
            .collect();
        if !unaccepted.is_empty() {
            let described: Vec<String> = unaccepted.iter().map(|answer| describe(answer)).collect();
            problems.push(format!(
                "{}: does not accept {described:?}, the answer of an implementation-defined reading",
                case.id
            ));
        }
        // A success the expectation accepts is some reading's answer (compared as
        // the runner compares, floats by their bits): no orphan `any_of` entry.
        for accepted in accepted_outputs(&case.expect) {
            let mut alone = case.clone();
            alone.expect = Expectation::Output(accepted.clone());
            let given = verdicts
                .answers
                .iter()
                .any(|(_, answer)| judge(&alone, answer, ClassCheck::Strict) == Outcome::Pass);
            if !given {
                problems.push(format!(
                    "{}: accepts {}, which no documented reading answers",
                    case.id,
                    Value::Object(accepted.clone())
                ));
            }
        }
        let deciding: BTreeSet<&str> = verdicts
            .deciding()
            .into_iter()
            .map(|alternative| alternative.reading())
            .collect();
        let unnamed = level == "interpretation"
            && !case
                .interpretations
                .iter()
                .any(|id| deciding.contains(id.as_str()));
        if case.level != level || !missing.is_empty() || unnamed || !unaccepted.is_empty() {
            problems.push(format!(
                "{}: level {} (readings give {level}), classes missing {missing:?}, deciding {deciding:?} ({})",
                case.id,
                case.level,
                answers.join("; ")
            ));
            fixes.push(json!({
                "id": case.id, "file": path.strip_prefix(root()).unwrap_or(path),
                "level": level, "add_classes": missing,
                "add_interpretations": if unnamed { deciding.iter().copied().collect() } else { Vec::new() },
                "add_any_of": unaccepted.iter().map(|answer| match answer {
                    Answer::Output(output) => Value::Object(output.clone()),
                    Answer::Error { class, .. } => json!({"error": class}),
                    _ => Value::Null,
                }).collect::<Vec<Value>>(),
            }));
        }
    }
    if let Ok(out) = std::env::var("ZARR_RESHAPE_LEVELS_OUT") {
        let lines: Vec<String> = fixes.iter().map(Value::to_string).collect();
        std::fs::write(out, lines.join("\n")).unwrap();
    }
    eprintln!("{} cases, {below_must} below must", cases.len());
    assert!(
        problems.is_empty(),
        "{} cases whose level or classes do not follow from the readings:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_exact_evaluation_under_the_reference_readings_agrees_with_the_library() {
    let reference = Mode::REFERENCE;
    let mut compared = 0_usize;
    let mut problems = Vec::new();
    for (_, case) in all_cases() {
        let (Operation::Resolve, CodecJson::Configuration(configuration)) =
            (&case.operation, &case.codec)
        else {
            continue;
        };
        let Some(shape) = configuration
            .as_object()
            .filter(|members| members.len() == 1)
            .and_then(|members| members.get("shape"))
        else {
            continue;
        };
        compared += 1;
        let plain = exact::resolve(shape, &case.decoded_shape, reference)
            .map(|b_shape| b_shape.iter().map(ToString::to_string).collect::<Vec<_>>());
        let library = zarr_reshape_conformance::reference::run(&case);
        let agree = match (&plain, &library) {
            (Ok(b_shape), Answer::Output(output)) => output
                .get("encoded_shape")
                .and_then(Value::as_array)
                .is_some_and(|shape| {
                    shape.iter().map(ToString::to_string).collect::<Vec<_>>() == *b_shape
                }),
            (Err(_), Answer::Error { .. }) => true,
            _ => false,
        };
        if !agree {
            problems.push(format!(
                "{}: plain {plain:?}, library {}",
                case.id,
                describe(&library)
            ));
        }
    }
    assert!(compared > 2000, "only {compared} resolve cases compared");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every switch is a documented reading: CONFORMANCE.md (from `clauses.json`)
/// lists as many other readings under each interpretation as there are switches
/// for it, so a reading cannot move cases between levels unseen.
#[test]
fn every_other_reading_is_documented_in_the_registry() {
    use zarr_reshape_conformance::Registry;
    use zarr_reshape_conformance::readings::Alternative;
    let registry = Registry::load(&root().join("clauses.json")).unwrap();
    for entry in &registry.interpretations {
        let switches = Alternative::ALL
            .iter()
            .filter(|alternative| alternative.reading() == entry.id)
            .count();
        assert_eq!(
            entry.other_readings.len(),
            switches,
            "{}: {} other readings in clauses.json, {switches} in readings::Alternative",
            entry.id,
            entry.other_readings.len()
        );
    }
}

/// A must case whose verdict rests on the unknown-member rule cites the clause,
/// so CONFORMANCE.md's "Contested musts" finds it.
#[test]
fn every_case_resting_on_unknown_members_cites_the_disputed_clause() {
    use zarr_reshape_conformance::readings::contested::{
        DISPUTED_CLAUSE, rests_on_unknown_members,
    };
    let resting: Vec<Case> = all_cases()
        .into_iter()
        .map(|(_, case)| case)
        .filter(rests_on_unknown_members)
        .collect();
    assert!(
        resting.len() >= 5,
        "only {} cases rest on unknown members",
        resting.len()
    );
    for case in &resting {
        assert!(
            case.clauses.iter().any(|id| id == DISPUTED_CLAUSE),
            "{} rests on the unknown-member rule but does not cite {DISPUTED_CLAUSE}",
            case.id
        );
    }
}

/// Every switch decides some case: a reading that changed no verdict in the
/// whole suite would be untested, and its documentation unchecked.
#[test]
fn every_other_reading_decides_some_case() {
    use std::collections::BTreeMap;
    use zarr_reshape_conformance::readings::Alternative;
    let mut decided: BTreeMap<Alternative, usize> = BTreeMap::new();
    for (_, case) in all_cases() {
        let Ok(verdicts) = verdicts(&case) else {
            continue;
        };
        for alternative in verdicts.deciding() {
            *decided.entry(alternative).or_default() += 1;
        }
    }
    for alternative in Alternative::ALL {
        assert!(
            decided.contains_key(&alternative),
            "no case's verdict depends on {alternative:?} ({})",
            alternative.reading()
        );
    }
    eprintln!("cases each other reading decides: {decided:?}");
}
