//! The whole harness through libtest-mimic, with implementations that answer from
//! the vectors themselves: one that meets every expectation, one that contradicts
//! it, one that panics. Counts are compared with the cases read from the vectors.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::collections::BTreeMap;

use libtest_mimic::Arguments;
use serde_json::value::RawValue;
use zarr_reshape_harness::{Answer, Case, Harness, LEVELS_ENV, Level};

/// The answer the case's expectation describes (its first option, for any_of).
fn oracle(case: &Case) -> Answer {
    answer_to(case.expect.get())
}

fn answer_to(expect: &str) -> Answer {
    let members: BTreeMap<String, &RawValue> = serde_json::from_str(expect).unwrap();
    if let Some(options) = members.get("any_of") {
        let options: Vec<&RawValue> = serde_json::from_str(options.get()).unwrap();
        return answer_to(options[0].get());
    }
    match members.get("error") {
        Some(error) => {
            let classes: Vec<String> = serde_json::from_str(error.get())
                .or_else(|_| serde_json::from_str(error.get()).map(|class| vec![class]))
                .unwrap();
            Answer::error(&classes[0], "as expected")
        }
        None => Answer::output_text(expect.to_string()),
    }
}

/// The opposite of what the case expects.
fn contrarian(case: &Case) -> Answer {
    match oracle(case) {
        Answer::Error { .. } => Answer::output(&serde_json::json!({})),
        _ => Answer::Error {
            class: None,
            message: "refused".into(),
        },
    }
}

/// libtest arguments; the inner run's output goes to a log file named `log` in
/// cargo's scratch folder, so that its expected failures do not show among this
/// test's own results.
fn arguments(log: &str, extra: &[&str]) -> Arguments {
    let log = format!("{}/{log}.log", env!("CARGO_TARGET_TMPDIR"));
    let mut all = vec!["harness", "--test-threads", "2", "--logfile", &log];
    all.extend_from_slice(extra);
    Arguments::from_iter(all)
}

fn count(level: Option<Level>) -> u64 {
    let cases = zarr_reshape_vectors::cases().unwrap();
    let n = cases
        .iter()
        .filter(|c| level.is_none_or(|l| c.level == l))
        .count();
    u64::try_from(n).unwrap()
}

/// These tests choose their levels in code; the variable would override them.
fn levels_not_chosen_by_environment() -> bool {
    std::env::var_os(LEVELS_ENV).is_none()
}

#[test]
fn must_cases_run_by_default_and_the_oracle_passes_them() {
    if !levels_not_chosen_by_environment() {
        return;
    }
    let report = Harness::new(oracle)
        .run_with(&arguments("run-1", &[]))
        .unwrap();
    assert_eq!(report.conclusion.num_passed, count(Some(Level::Must)));
    assert_eq!(report.conclusion.num_failed, 0);
    assert_eq!(
        report.conclusion.num_ignored,
        count(None) - count(Some(Level::Must))
    );
    assert_eq!(report.summary.total().pass, count(Some(Level::Must)));
    let clauses: Vec<&str> = report.summary.clauses().map(|(clause, _)| clause).collect();
    assert!(clauses.contains(&"input-dims.prefix"), "{clauses:?}");
}

#[test]
fn every_level_runs_when_asked_and_the_contrarian_fails_every_case() {
    if !levels_not_chosen_by_environment() {
        return;
    }
    let report = Harness::new(oracle)
        .levels(Level::ALL)
        .run_with(&arguments("run-2", &[]))
        .unwrap();
    assert_eq!(report.conclusion.num_passed, count(None));
    let report = Harness::new(contrarian)
        .levels([Level::Should])
        .run_with(&arguments("run-3", &[]))
        .unwrap();
    assert_eq!(report.conclusion.num_failed, count(Some(Level::Should)));
    assert_eq!(report.summary.total().fail, count(Some(Level::Should)));
    // `--include-ignored` runs the levels left out.
    let report = Harness::new(oracle)
        .run_with(&arguments("run-4", &["--include-ignored"]))
        .unwrap();
    assert_eq!(report.conclusion.num_passed, count(None));
}

#[test]
fn known_failures_are_ignored_and_an_unexpected_pass_fails() {
    if !levels_not_chosen_by_environment() {
        return;
    }
    let cases = zarr_reshape_vectors::cases().unwrap();
    let must: Vec<&Case> = cases
        .iter()
        .filter(|c| c.level == Level::Must)
        .take(2)
        .collect();
    let (failing, passing) = (must[0].id.clone(), must[1].id.clone());
    let known = format!(
        "[[failure]]\nids = [{failing:?}, {passing:?}]\nclause = \"x\"\nreason = \"known\"\n"
    );
    let failing_id = failing.clone();
    let implementation = move |case: &Case| {
        if case.id == failing_id {
            contrarian(case)
        } else {
            oracle(case)
        }
    };
    let report = Harness::new(implementation)
        .known_failures_text(known)
        .run_with(&arguments("run-5", &[]))
        .unwrap();
    assert_eq!(
        report.conclusion.num_failed, 1,
        "the listed case that passes"
    );
    assert_eq!(report.summary.total().known, 1);
    assert_eq!(report.summary.total().fail, 1);
    let stale = "[[failure]]\nids = [\"no/such-case\"]\nclause = \"x\"\nreason = \"r\"\n";
    let message = Harness::new(oracle)
        .known_failures_text(stale)
        .run_with(&arguments("run-6", &[]));
    assert!(message.unwrap_err().contains("no/such-case"));
}

/// The oracle, but for a panic on the case `victim`.
fn panicking_on(victim: String) -> impl Fn(&Case) -> Answer + Send + Sync + 'static {
    move |case: &Case| {
        assert_ne!(case.id, victim, "the implementation panicked");
        oracle(case)
    }
}

#[test]
fn a_panic_fails_its_trial_only() {
    if !levels_not_chosen_by_environment() {
        return;
    }
    let cases = zarr_reshape_vectors::cases().unwrap();
    let victim = cases
        .iter()
        .find(|c| c.level == Level::Must)
        .unwrap()
        .id
        .clone();
    let report = Harness::new(panicking_on(victim))
        .run_with(&arguments("run-7", &[]))
        .unwrap();
    assert_eq!(report.conclusion.num_failed, 1);
    assert_eq!(report.conclusion.num_passed, count(Some(Level::Must)) - 1);
}

#[test]
fn skipped_cases_are_ignored_trials() {
    if !levels_not_chosen_by_environment() {
        return;
    }
    let report = Harness::new(|_: &Case| Answer::skipped("nothing supported"))
        .run_with(&arguments("run-8", &[]))
        .unwrap();
    assert_eq!(report.conclusion.num_ignored, count(None));
    assert_eq!(report.conclusion.num_failed, 0);
    assert_eq!(report.summary.total().skip, count(Some(Level::Must)));
}

#[test]
fn a_listed_case_is_excused_only_for_its_listed_outcome() {
    if !levels_not_chosen_by_environment() {
        return;
    }
    let cases = zarr_reshape_vectors::cases().unwrap();
    let victim = cases
        .iter()
        .find(|c| c.level == Level::Must)
        .unwrap()
        .id
        .clone();
    for (run, outcome, failed, known) in [
        ("run-9", "crash", 0, 1),
        ("run-10", "fail", 1, 0),
        ("run-11", "error", 1, 0),
    ] {
        let listed = format!(
            "[[failure]]\nids = [{victim:?}]\nclause = \"x\"\nreason = \"r\"\noutcome = {outcome:?}\n"
        );
        let report = Harness::new(panicking_on(victim.clone()))
            .known_failures_text(listed)
            .run_with(&arguments(run, &[]))
            .unwrap();
        assert_eq!(report.conclusion.num_failed, failed, "listed as {outcome}");
        assert_eq!(report.summary.total().known, known, "listed as {outcome}");
    }
}
