//! The multi-violation audit (issue 14): every `resolve` error vector breaks one
//! of its `clauses` (the rule under test: the first listed that it breaks), and
//! breaks only that rule, or has a sibling (an error vector filed under the same
//! clause) that breaks only that rule. An
//! implementation that names no error class then cannot pass a clause's vectors
//! by rejecting them for another rule. The rules broken are those the library's
//! `broken_rules_json_str` reports, each rule evaluated on its own.
//! Second, every error vector whose configuration breaks a rule accepts exactly
//! the classes of the rules it breaks (`broken_rule_classes_json_str`), through
//! every operation that resolves a configuration: the spec sets no order of
//! checks (reading I-8).
//! `cargo test -p zarr-reshape --test multi_violation -- --nocapture` prints the
//! cases that break several rules.
// Test code: a vector that cannot be read fails the test with its file.
#![allow(clippy::expect_used, clippy::panic, clippy::print_stderr)]

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use zarr_reshape::{
    Clause, broken_codec_rule_classes_json_str, broken_codec_rules_json_str,
    broken_rule_classes_json_str, broken_rules_json_str,
};
use zarr_reshape_harness::Operation;

/// Clauses no configuration can break alone on any decoded shape, with why. The
/// test fails if one of them gets a vector that does, so the list cannot go stale.
/// Each entry: the vector folder, the rule, why.
const CANNOT_BREAK_ALONE: &[(&str, &str, &str)] = &[];

/// A `resolve` case whose expectation is an error (or, for an `any_of`, whose
/// first entry, the reference's answer, is), with the clauses it breaks.
struct ErrorCase {
    id: String,
    /// The first of `clauses`: the folder the case is filed under.
    clause: String,
    clauses: Vec<String>,
    broken: Vec<Clause>,
}

impl ErrorCase {
    /// The rule the case tests: the first of its clauses that it breaks (a case
    /// filed under `shape.input-dims` shows a wrong extent through the invariant).
    fn rule_under_test(&self) -> Option<&'static str> {
        self.clauses.iter().find_map(|listed| {
            self.broken
                .iter()
                .map(|clause| clause.id())
                .find(|id| id == listed)
        })
    }
}

fn expects_an_error(expect: &Value) -> bool {
    let first = expect
        .get("any_of")
        .and_then(|entries| entries.get(0))
        .unwrap_or(expect);
    first.get("error").is_some()
}

fn error_cases() -> Vec<ErrorCase> {
    let cases = zarr_reshape_harness::vectors::cases().expect("the embedded vectors load");
    cases
        .into_iter()
        .filter(|case| case.operation == Operation::Resolve)
        .filter(|case| {
            let expect: Value = serde_json::from_str(case.expect.get()).expect(case.file);
            expects_an_error(&expect)
        })
        .map(|case| {
            let a_shape: Vec<u64> = serde_json::from_str(case.decoded_shape.get())
                .unwrap_or_else(|error| panic!("{}: decoded_shape: {error}", case.id));
            let broken = match (case.configuration, case.codec) {
                (Some(configuration), _) => broken_rules_json_str(configuration.get(), &a_shape),
                (None, Some(codec)) => broken_codec_rules_json_str(codec.get(), &a_shape),
                (None, None) => panic!("{}: a resolve case without a codec", case.id),
            };
            ErrorCase {
                clause: case.clause().to_owned(),
                clauses: case.clauses,
                id: case.id,
                broken,
            }
        })
        .collect()
}

fn ids(broken: &[Clause]) -> Vec<&'static str> {
    broken.iter().map(|clause| clause.id()).collect()
}

#[test]
fn every_resolve_error_vector_breaks_its_clause_alone_or_has_a_sibling_that_does() {
    let cases = error_cases();
    assert!(
        !cases.is_empty(),
        "no resolve error case in the vectors crate"
    );
    // (folder, rule) for every case that breaks exactly one rule.
    let alone: BTreeSet<(&str, &str)> = cases
        .iter()
        .filter_map(|case| match ids(&case.broken).as_slice() {
            [only] => Some((case.clause.as_str(), *only)),
            _ => None,
        })
        .collect();
    let exempt: BTreeMap<(&str, &str), &str> = CANNOT_BREAK_ALONE
        .iter()
        .map(|(folder, rule, why)| ((*folder, *rule), *why))
        .collect();
    let mut failures = Vec::new();
    let mut several = 0;
    for case in &cases {
        let broken = ids(&case.broken);
        if broken.len() > 1 {
            several += 1;
            eprintln!("{}: breaks {}", case.id, broken.join(", "));
        }
        let Some(rule) = case.rule_under_test() else {
            failures.push(format!(
                "{}: breaks none of its clauses {:?} (breaks {broken:?})",
                case.id, case.clauses
            ));
            continue;
        };
        let key = (case.clause.as_str(), rule);
        if !alone.contains(&key) && !exempt.contains_key(&key) {
            failures.push(format!(
                "{}: breaks {broken:?}, and no vector under {} breaks {rule} alone",
                case.id, case.clause
            ));
        }
    }
    for key in exempt.keys() {
        assert!(
            !alone.contains(key),
            "{key:?} is listed as impossible to break alone, but a vector does"
        );
    }
    eprintln!(
        "{several} of {} resolve error vectors break more than one rule",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} resolve error vectors:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The rule `resolve` reports is always among those the audit finds: the audit
/// leaves nothing out that resolution would stop at.
#[test]
fn the_first_rule_broken_is_among_the_rules_broken() {
    let cases = zarr_reshape_harness::vectors::cases().expect("the embedded vectors load");
    for case in cases
        .iter()
        .filter(|case| case.operation == Operation::Resolve)
    {
        let a_shape: Vec<u64> = serde_json::from_str(case.decoded_shape.get()).expect(case.file);
        let (first, broken) = match (case.configuration, case.codec) {
            (Some(configuration), _) => (
                zarr_reshape::explain_json_str(configuration.get(), &a_shape).outcome,
                broken_rules_json_str(configuration.get(), &a_shape),
            ),
            (None, Some(codec)) => (
                zarr_reshape::explain_codec_json_str(codec.get(), &a_shape).outcome,
                broken_codec_rules_json_str(codec.get(), &a_shape),
            ),
            (None, None) => panic!("{}: a resolve case without a codec", case.id),
        };
        match first {
            Ok(_) => assert!(broken.is_empty(), "{}: resolves, yet {broken:?}", case.id),
            Err(error) => assert!(
                broken.contains(&error.clause()),
                "{}: resolve stops at {}, the audit finds {broken:?}",
                case.id,
                error.clause()
            ),
        }
    }
}

/// Error vectors that accept a class beyond those of the rules the audit finds,
/// because a reading the suite accepts reaches another error than the rules as
/// the audit evaluates them (on numbers read exactly). Each entry: the case id,
/// the classes it adds, why. The test fails if an entry is not needed, so the
/// list cannot go stale.
const EXTRA_CLASSES: &[(&str, &[&str], &str)] = &[
    (
        "input-dims.prefix/zero-count-prefix-products-wrap-equal",
        &["input-dims-misaligned"],
        "in exact integers (I-7) the prefix products 2^65 and 2^64 differ, though neither fits in 64 bits",
    ),
    (
        "input-dims.range/negative-dim-beyond-i64",
        &["overflow"],
        "-2^70 does not fit a signed 64-bit reader either (I-7)",
    ),
    (
        "shape.size/negative-size-beyond-i64",
        &["overflow"],
        "-2^70 does not fit a signed 64-bit reader either (I-7)",
    ),
    (
        "limits.u64/size-two-to-the-64-on-small",
        &["element-count-mismatch"],
        "with exact integers (I-7) the size 2^64 is read, and 2^64 elements are not the decoded count",
    ),
    (
        "shape.element/exponent-size-beyond-double-range",
        &["overflow", "element-count-mismatch"],
        "1e400 read as the integer 10^400 (I-6) is beyond 64 bits, or in exact integers not the count",
    ),
    (
        "shape.element/negative-zero-size",
        &["malformed-configuration"],
        "a JSON reader may read -0 as the float -0.0, no integer",
    ),
    (
        "shape.element/negative-zero-size-alone",
        &["malformed-configuration"],
        "a JSON reader may read -0 as the float -0.0, no integer",
    ),
    (
        "shape.input-dims/input-dim-beyond-rank",
        &["malformed-configuration"],
        NAMES_NO_DIMENSION,
    ),
    (
        "shape.input-dims/input-dim-equal-to-rank",
        &["malformed-configuration"],
        NAMES_NO_DIMENSION,
    ),
    (
        "shape.input-dims/input-dim-two-to-the-32-narrows-to-zero",
        &["malformed-configuration"],
        NAMES_NO_DIMENSION,
    ),
    (
        "shape.input-dims/encode-input-dim-two-to-the-32-narrows-to-zero",
        &["malformed-configuration"],
        NAMES_NO_DIMENSION,
    ),
    (
        "shape.input-dims/input-dim-two-to-the-32-minus-1-narrows-to-minus-one",
        &["malformed-configuration"],
        NAMES_NO_DIMENSION,
    ),
    (
        "shape.input-dims/input-dims-two-to-the-32-plus-1-narrows-into-range",
        &["malformed-configuration"],
        NAMES_NO_DIMENSION,
    ),
    (
        "shape.input-dims/map-region-input-dims-two-to-the-32-plus-1-narrows-into-range",
        &["malformed-configuration"],
        NAMES_NO_DIMENSION,
    ),
];

/// The classes of the documented readings that refuse a case outright (the
/// conformance crate's `readings::Alternative::refusal`, whose levels test holds
/// every vector to them): an empty input dims or an empty shape
/// (`malformed-configuration`, I-1, I-2), a 0-dimensional decoded shape or one
/// with an extent 0 (`shape-mismatch`, I-3, I-9).
fn reading_refusals(json: Option<&str>, a_shape: &[u64]) -> BTreeSet<String> {
    let json: Value = json
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or(Value::Null);
    let shape = json
        .get("configuration")
        .unwrap_or(&json)
        .get("shape")
        .and_then(Value::as_array);
    let mut classes = BTreeSet::new();
    let empty_group = shape.is_some_and(|items| {
        items
            .iter()
            .any(|item| item.as_array().is_some_and(Vec::is_empty))
    });
    if empty_group || shape.is_some_and(Vec::is_empty) {
        classes.insert("malformed-configuration".to_owned());
    }
    if a_shape.is_empty() || a_shape.contains(&0) {
        classes.insert("shape-mismatch".to_owned());
    }
    classes
}

/// Why the vectors of an input dim that names no dimension also accept
/// `malformed-configuration`.
const NAMES_NO_DIMENSION: &str = "must case that every reading rejects: an input dim that names no dimension may be read as malformed (I-4)";

/// The operations that resolve a configuration before anything else.
fn resolves_a_configuration(operation: Operation) -> bool {
    matches!(
        operation,
        Operation::Resolve
            | Operation::Encode
            | Operation::Decode
            | Operation::MapIndex
            | Operation::MapRegion
    )
}

/// The classes of every error entry of `expect` (an `any_of` may hold several),
/// sorted, each once; `None` when it expects no error.
fn expected_classes(expect: &Value) -> Option<BTreeSet<String>> {
    let entries: Vec<&Value> = match expect.get("any_of").and_then(Value::as_array) {
        Some(entries) => entries.iter().collect(),
        None => vec![expect],
    };
    let mut classes = BTreeSet::new();
    let mut any_error = false;
    for error in entries.iter().filter_map(|entry| entry.get("error")) {
        any_error = true;
        match error {
            Value::String(class) => {
                classes.insert(class.clone());
            }
            Value::Array(listed) => {
                classes.extend(listed.iter().filter_map(Value::as_str).map(str::to_owned));
            }
            _ => {}
        }
    }
    any_error.then_some(classes)
}

/// Whether every entry of `expect` (one, or those of an `any_of`) is an error.
fn accepts_only_errors(expect: &Value) -> bool {
    match expect.get("any_of").and_then(Value::as_array) {
        Some(entries) => entries.iter().all(|entry| entry.get("error").is_some()),
        None => expect.get("error").is_some(),
    }
}

/// "A case whose input violates several rules must accept every class that
/// applies, unless the spec fixes an order of checks" (issue 14); the spec fixes
/// none (reading I-8). Every vector whose configuration breaks a rule, through
/// any operation that resolves one, accepts exactly the classes of the rules the
/// audit (`broken_rule_classes_json_str`) finds, plus the class of a refusal
/// reading that applies (I-1, I-2, I-3, I-9) and the few `EXTRA_CLASSES`: none
/// missing, so an implementation that checks in another order passes; none
/// extra, so a class is never accepted for a rule no reading breaks. A case whose
/// configuration resolves (an encode of an array of the wrong shape) is not the
/// configuration's failure and is left to the vectors of its rule.
#[test]
fn every_configuration_error_vector_accepts_the_class_of_every_rule_it_breaks() {
    let cases = zarr_reshape_harness::vectors::cases().expect("the embedded vectors load");
    let extra: BTreeMap<&str, &[&str]> = EXTRA_CLASSES
        .iter()
        .map(|(id, classes, _)| (*id, *classes))
        .collect();
    let mut used = BTreeSet::new();
    let mut failures = Vec::new();
    let (mut checked, mut several) = (0, 0);
    for case in cases
        .iter()
        .filter(|case| resolves_a_configuration(case.operation))
    {
        let a_shape: Vec<u64> = serde_json::from_str(case.decoded_shape.get()).expect(case.file);
        let broken = match (case.configuration, case.codec) {
            (Some(configuration), _) => broken_rule_classes_json_str(configuration.get(), &a_shape),
            (None, Some(codec)) => broken_codec_rule_classes_json_str(codec.get(), &a_shape),
            (None, None) => panic!("{}: a case without a codec", case.id),
        };
        let expect: Value = serde_json::from_str(case.expect.get()).expect(case.file);
        let listed = expected_classes(&expect);
        if broken.is_empty() {
            // Only resolve has nothing but its configuration to fail on; an
            // `any_of` that accepts the shape too holds a reading's error (I-9).
            if case.operation == Operation::Resolve && accepts_only_errors(&expect) {
                failures.push(format!("{}: expects an error, but breaks no rule", case.id));
            }
            continue;
        }
        checked += 1;
        let mut applies: BTreeSet<String> = broken
            .iter()
            .map(|(_, class)| class.as_str().to_owned())
            .collect();
        if applies.len() > 1 {
            several += 1;
        }
        applies.extend(reading_refusals(
            case.configuration.or(case.codec).map(|json| json.get()),
            &a_shape,
        ));
        if let Some(classes) = extra.get(case.id.as_str()) {
            used.insert(case.id.as_str());
            for class in *classes {
                if !applies.insert((*class).to_owned()) {
                    failures.push(format!(
                        "{}: EXTRA_CLASSES adds {class}, which a rule it breaks or a refusal reading gives already",
                        case.id
                    ));
                }
            }
        }
        if listed.as_ref() != Some(&applies) {
            let rules: Vec<String> = broken
                .iter()
                .map(|(clause, class)| format!("{clause} ({class})"))
                .collect();
            failures.push(format!(
                "{}: accepts {:?}, but breaks {} (accepts {applies:?})",
                case.id,
                listed.unwrap_or_default(),
                rules.join(", ")
            ));
        }
    }
    for id in extra.keys() {
        if !used.contains(id) {
            failures.push(format!(
                "{id}: listed in EXTRA_CLASSES, but no vector breaking a rule has that id"
            ));
        }
    }
    eprintln!("{several} of {checked} configuration error vectors accept more than one class");
    assert!(
        failures.is_empty(),
        "{} of {checked} configuration error vectors:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
