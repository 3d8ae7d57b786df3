//! `zarr-reshape fuzz` files a finding at the level the fixed vectors give it, and
//! fuzzes exactly the operations asked for (issue 26, item 5): an adapter that
//! ignores unknown members (`fake_adapters/ignores_unknown_members.py`) fails the
//! run with a MUST finding filed under the clause the reference names, whose
//! vector touches no reading the fixed vector `configuration.members/unknown-member`
//! does not; `--operations` refuses names it does not know and operations the
//! adapter does not list, before any case runs.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

mod fuzzing;
use fuzzing::{fuzz, fuzz_run};

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
