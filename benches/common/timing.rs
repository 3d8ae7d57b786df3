//! Shared by the benchmarks: criterion measures, and each measurement's per-iteration
//! times are kept so that a benchmark can print the ratio it exists to show, from the
//! same run and the same harness.
// Each benchmark includes this file and uses a part of it.
#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;

/// The samples each measurement takes; the median of these is its figure.
pub const SAMPLES: usize = 10;

/// Measures `routine` as `id` in `group` and returns the median time of one call, in
/// seconds, over the measurement's samples (criterion's warm-up excluded); `None` when
/// a command-line filter skipped it.
pub fn measure<F: FnMut()>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    mut routine: F,
) -> Option<f64> {
    let per_call: Rc<RefCell<Vec<f64>>> = Rc::default();
    let sink = Rc::clone(&per_call);
    group.bench_function(id, |bencher| {
        bencher.iter_custom(|iters| {
            let started = Instant::now();
            for _ in 0..iters {
                routine();
            }
            let elapsed = started.elapsed();
            sink.borrow_mut()
                .push(elapsed.as_secs_f64() / f64::from(u32::try_from(iters).unwrap_or(u32::MAX)));
            elapsed
        });
    });
    let mut times = per_call.borrow().clone();
    // The last SAMPLES calls are the measurement's samples; the ones before, warm-up.
    let skip = times.len().saturating_sub(SAMPLES);
    times.drain(..skip);
    median(&mut times)
}

/// The median of `times`; `None` when there is none.
pub fn median(times: &mut [f64]) -> Option<f64> {
    times.sort_by(f64::total_cmp);
    let middle = times.len() / 2;
    times.get(middle).copied()
}

/// A criterion group with few samples and a short measurement, so that the whole
/// `cargo bench` stays short on two cores.
pub fn short<'a>(
    criterion: &'a mut criterion::Criterion,
    name: &str,
    seconds: u64,
) -> BenchmarkGroup<'a, WallTime> {
    let mut group = criterion.benchmark_group(name);
    group
        .sample_size(SAMPLES)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(seconds));
    group
}

/// A time in human units.
pub fn human(seconds: f64) -> String {
    if seconds < 1e-6 {
        format!("{:.1} ns", seconds * 1e9)
    } else if seconds < 1e-3 {
        format!("{:.2} µs", seconds * 1e6)
    } else {
        format!("{:.2} ms", seconds * 1e3)
    }
}

/// Prints one ratio line, `RATIO <name> = <value>`, the form BENCHMARKS.md is built from.
pub fn ratio(name: &str, numerator: Option<f64>, denominator: Option<f64>, meaning: &str) {
    if let (Some(n), Some(d)) = (numerator, denominator) {
        println!(
            "RATIO {name} = {:.3e}  ({meaning}; {} / {})",
            n / d,
            human(n),
            human(d)
        );
    }
}
