//! `zarr-reshape fuzz` files a finding at the level the fixed vectors give it, and
//! fuzzes exactly the operations asked for (issue 26, item 5): an adapter that
//! ignores unknown members (`fake_adapters/ignores_unknown_members.py`) fails the
//! run with a MUST finding filed under the clause the reference names, whose
//! vector touches no reading the fixed vector `configuration.members/unknown-member`
//! does not; `--operations` refuses names it does not know and operations the
//! adapter does not list, before any case runs; and a generated case has the
//! level `readings::derived_level` gives it and accepts every class a documented
//! reading gives, as a fixed vector must.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use proptest::strategy::{Strategy as _, ValueTree as _};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use zarr_reshape_conformance::OPERATIONS;
use zarr_reshape_conformance::differential::generated_cases;
use zarr_reshape_conformance::readings::{derived_level, verdicts};
use zarr_reshape_conformance::vector::Expectation;

mod fuzzing;
use fuzzing::{BINARY, buggy_adapter, fuzz, fuzz_finding, fuzz_run, scratch};

fn ignores_unknown_members() -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_adapters/ignores_unknown_members.py");
    format!("python3 {} {BINARY} adapter", script.display())
}

#[test]
fn an_adapter_that_ignores_unknown_members_fails_the_run_at_must() {
    let dir = scratch("unknown-member");
    let adapter = ignores_unknown_members();
    let (run, cases) = fuzz_finding(&dir, &adapter, "1", "2000", &["--operations", "resolve"]);
    let found = cases
        .iter()
        .find(|case| {
            case.clauses.first().map(String::as_str) == Some("core.must-understand")
                && case.level == "must"
        })
        .unwrap_or_else(|| panic!("no MUST core.must-understand finding in {}", run.stdout));
    assert!(
        run.stdout
            .contains(&format!("{} [fails the run]", found.id)),
        "{}",
        run.stdout
    );
    // Shrunk to the size of the fixed vector, without stepping into a corner a
    // reading decides (an empty shape on a 0-d decoded shape, reading I-2).
    let shape = ["/configuration/shape", "/codec/configuration/shape"]
        .iter()
        .find_map(|pointer| found.json.pointer(pointer)?.as_array())
        .unwrap();
    assert!(
        (1..=2).contains(&shape.len()) && found.decoded_shape.len() <= 2,
        "not shrunk: {}",
        found.json
    );
    assert!(
        found.interpretations.contains(&"I-5".to_string()),
        "{}",
        found.json
    );
}

#[test]
fn operations_the_generator_does_not_know_are_refused_with_the_valid_names() {
    for name in ["bogus", "resolv", "read-array"] {
        let run = fuzz_run(&["--operations", &format!("resolve,{name}"), "--cases", "1"]);
        assert_eq!(run.code, Some(2), "{name}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(&format!("invalid value '{name}'"))
                && run
                    .stderr
                    .contains("resolve, encode, decode, map-index, map-region"),
            "{name}: {}",
            run.stderr
        );
        assert!(!run.stdout.contains("fuzz:"), "{name}: ran: {}", run.stdout);
    }
}

#[test]
fn an_operation_the_adapter_does_not_list_is_refused_before_any_case_runs() {
    // The protocol's example adapter lists resolve alone.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/python-minimal/adapter.py");
    let adapter = format!("python3 {}", script.display());
    let run = fuzz_run(&[
        "--adapter",
        &adapter,
        "--operations",
        "resolve,encode,map-index",
        "--cases",
        "5",
    ]);
    assert_eq!(run.code, Some(2), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "the implementation does not list encode, map-index (its start answer lists resolve)"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("fuzz:"), "ran: {}", run.stdout);
    let run = fuzz(&[
        "--adapter",
        &adapter,
        "--operations",
        "resolve",
        "--cases",
        "5",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
}

/// The classes an expectation accepts (those of its error entries).
fn accepted_classes(expect: &Expectation) -> Vec<String> {
    match expect {
        Expectation::Error(classes) => classes.clone(),
        Expectation::AnyOf(entries) => entries.iter().flat_map(accepted_classes).collect(),
        Expectation::Output(_) => Vec::new(),
    }
}

#[test]
fn generated_cases_have_the_derived_level_and_every_class_a_reading_gives() {
    let operations: Vec<String> = OPERATIONS.map(String::from).to_vec();
    let strategy = generated_cases(&operations);
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[26; 32]),
    );
    let mut judged = 0;
    for _ in 0..3000 {
        let case = strategy.new_tree(&mut runner).unwrap().current().unwrap();
        let Ok(verdicts) = verdicts(&case) else {
            // An operation the exact reading of I-7 cannot be handed: reported only.
            assert_eq!(case.level, "interpretation", "{}", case.json);
            continue;
        };
        judged += 1;
        let level = derived_level(&case).unwrap();
        assert_eq!(case.level, level.as_str(), "{}", case.json);
        if matches!(case.expect, Expectation::Output(_)) {
            continue;
        }
        let accepted = accepted_classes(&case.expect);
        for class in verdicts.classes() {
            assert!(accepted.contains(&class), "{class} missing: {}", case.json);
        }
    }
    assert!(judged > 2000, "only {judged} of 3000 cases judged");
}

/// `fuzz --expectations` judges a finding with `run`'s rule: an entry listing a
/// clause as `fail` does not excuse a crash there (issue 30: 300 crashes, exit 0),
/// an entry listing it as `crash` does.
#[test]
fn an_entry_listed_as_fail_does_not_excuse_a_crash() {
    let dir = scratch("crash-listed-as-fail");
    // Crashes on every case the reference rejects with repeated-auto.
    let adapter = buggy_adapter(
        &dir,
        "def mutate(case, result):\n    \
         error = result.get('error') or {}\n    \
         if error.get('class') == 'repeated-auto':\n        \
         return {'crashed': {'message': 'panic: two autos'}}\n    \
         return None",
    );
    let listing = |outcome: &str| {
        let path = dir.join(format!("{outcome}.toml"));
        std::fs::write(
            &path,
            format!(
                "[[failure]]\nids = []\nclause = \"shape.auto.once\"\nreason = \"r\"\noutcome = \"{outcome}\"\n"
            ),
        )
        .unwrap();
        path
    };
    let run_with = |outcome: &str| {
        let path = listing(outcome);
        fuzz(&[
            "--adapter",
            &adapter,
            "--seed",
            "1",
            "--cases",
            "300",
            "--operations",
            "resolve",
            "--expectations",
            path.to_str().unwrap(),
        ])
    };
    let listed_fail = run_with("fail");
    assert!(
        listed_fail.stdout.contains("crash: panic: two autos"),
        "the crash is found: {}",
        listed_fail.stdout
    );
    assert_eq!(listed_fail.code, Some(1), "{}", listed_fail.stdout);
    assert!(
        listed_fail
            .stdout
            .contains("ended in crash, but the expectations file lists it as fail"),
        "{}",
        listed_fail.stdout
    );
    let listed_crash = run_with("crash");
    assert_eq!(listed_crash.code, Some(0), "{}", listed_crash.stdout);
    assert!(
        listed_crash.stdout.contains("known divergence"),
        "{}",
        listed_crash.stdout
    );
}
