//! The multi-violation audit (issue 14): every `resolve` error vector breaks one
//! of its `clauses` (the rule under test: the first listed that it breaks), and
//! breaks only that rule, or has a sibling (an error vector filed under the same
//! clause) that breaks only that rule. An
//! implementation that names no error class then cannot pass a clause's vectors
//! by rejecting them for another rule. The rules broken are those the library's
//! `broken_rules_json_str` reports, each rule evaluated on its own.
//! `cargo test -p zarr-reshape --test multi_violation -- --nocapture` prints the
//! cases that break several rules.
// Test code: a vector that cannot be read fails the test with its file.
#![allow(clippy::expect_used, clippy::panic, clippy::print_stderr)]

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use zarr_reshape::{Clause, broken_codec_rules_json_str, broken_rules_json_str};
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
