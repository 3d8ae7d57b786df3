//! Issue 9, benchmark 5: the whole shipped suite through the runner, in-process (the
//! embedded reference), through the reference's adapter as one persistent process
//! speaking JSON lines, and through one adapter process per case as the baseline.
//! Prints cases per second for each and the ratios; see BENCHMARKS.md.
// Benchmark code: plain arithmetic, casts and indexing on sizes this file picks.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    missing_docs
)]

#[path = "../../benches/common/timing.rs"]
mod timing;

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use zarr_reshape_conformance::ClassCheck;
use zarr_reshape_conformance::run::{Expectations, Reference, run_suite};
use zarr_reshape_conformance::vector::{self, Case};
use zarr_reshape_conformance::{AdapterOptions, AdapterProcess};

use timing::{measure, short};

/// Every case of the shipped suite, `spec-cases/`.
fn shipped_cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
    let mut cases = Vec::new();
    for file in vector::discover(&root).unwrap() {
        cases.extend(vector::load_file(&file).unwrap());
    }
    cases
}

fn adapter_command() -> Vec<String> {
    vec![
        env!("CARGO_BIN_EXE_zarr-reshape").to_string(),
        "adapter".to_string(),
    ]
}

/// Runs `cases` and checks that the run succeeds, so that a broken adapter cannot
/// make a fast figure.
fn run_checked(
    implementation: &mut dyn zarr_reshape_conformance::run::Implementation,
    cases: &[Case],
) {
    let expectations = Expectations::default();
    let report = run_suite(
        implementation,
        cases,
        &expectations,
        ClassCheck::WhenNamed,
        |_| true,
    );
    assert!(report.succeeded(), "the run failed");
    black_box(report);
}

fn runner(c: &mut Criterion) {
    let cases = shipped_cases();
    let total = cases.len();
    // The baseline starts a process per case: a sample of every 16th case keeps it short.
    let sampled: Vec<Case> = cases.iter().step_by(16).cloned().collect();
    println!(
        "RUNNER suite: {total} cases; per-process baseline on {} of them",
        sampled.len()
    );

    let mut group = short(c, "runner", 3);
    let t_in_process = measure(&mut group, "in-process (whole suite)", || {
        run_checked(&mut Reference::default(), &cases);
    });
    let t_adapter = measure(&mut group, "adapter, one process (whole suite)", || {
        let mut adapter =
            AdapterProcess::start(&adapter_command(), AdapterOptions::default()).unwrap();
        run_checked(&mut adapter, &cases);
    });
    let t_per_case = measure(
        &mut group,
        "adapter, one process per case (sampled)",
        || {
            for case in &sampled {
                let mut adapter =
                    AdapterProcess::start(&adapter_command(), AdapterOptions::default()).unwrap();
                run_checked(&mut adapter, std::slice::from_ref(case));
            }
        },
    );
    group.finish();

    let rate = |cases: usize, seconds: Option<f64>| seconds.map(|s| cases as f64 / s);
    let in_process = rate(total, t_in_process);
    let adapter = rate(total, t_adapter);
    let per_case = rate(sampled.len(), t_per_case);
    for (name, value) in [
        ("in-process", in_process),
        ("adapter (one process)", adapter),
        ("one process per case", per_case),
    ] {
        if let Some(value) = value {
            println!("RUNNER {name}: {value:.0} cases/s");
        }
    }
    if let (Some(a), Some(p)) = (adapter, per_case) {
        println!(
            "RATIO runner.adapter_over_per_process = {:.1}  (>= 20: the persistent adapter against a process per case)",
            a / p
        );
    }
    if let (Some(i), Some(a)) = (in_process, adapter) {
        println!(
            "RATIO runner.in_process_over_adapter = {:.1}  (what the protocol costs against in-process)",
            i / a
        );
    }
}

criterion_group!(benches, runner);
criterion_main!(benches);
