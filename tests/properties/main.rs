//! Properties of the reshape codec over random inputs (proptest): generated valid
//! configurations resolve and keep C order, non-standard memory layouts encode as
//! their standard copies do, arbitrary JSON never panics and `explain` agrees with
//! `resolve`, and region runs match a brute-force walk of the box.
//!
//! Every property runs a fixed budget of [`CASES`] cases, so the binary takes a few
//! seconds in debug builds.
// Test code over small generated inputs: plain arithmetic, casts, indexing and unwraps
// either cannot fail or should fail the test loudly.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

mod arbitrary_json;
mod inputs;
mod layouts;
mod regions;
mod strategies;
mod valid;

use proptest::test_runner::Config;

/// The number of cases each property runs.
const CASES: u32 = 256;

fn config() -> Config {
    Config::with_cases(CASES)
}

/// `prod(shape)` over the integers, or `None` beyond 128 bits; a zero extent makes
/// it 0 whatever the other extents are.
fn product(shape: &[u64]) -> Option<u128> {
    if shape.contains(&0) {
        return Some(0);
    }
    shape
        .iter()
        .try_fold(1_u128, |acc, &extent| acc.checked_mul(u128::from(extent)))
}
