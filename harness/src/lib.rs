//! A light `cargo test` harness for Rust implementations of the Zarr v3 `reshape`
//! codec: every case of the conformance vectors ([`zarr_reshape_vectors`],
//! embedded) becomes one test, through [`libtest_mimic`].
//!
//! Add the crate as a dev-dependency and a test target without the default harness:
//!
//! ```toml
//! [dev-dependencies]
//! zarr-reshape-harness = "0.1"
//!
//! [[test]]
//! name = "reshape_conformance"
//! harness = false
//! ```
//!
//! `tests/reshape_conformance.rs` answers each [`Case`] with your codec:
//!
//! ```no_run
//! use zarr_reshape_harness::{Answer, Case, Operation};
//!
//! fn answer(case: &Case) -> Answer {
//!     match case.operation {
//!         // Parse case.configuration (or case.codec) and case.decoded_shape, exact
//!         // JSON text, with your own parser; answer the output or the error.
//!         Operation::Resolve => Answer::output(&serde_json::json!({"encoded_shape": [6, 4]})),
//!         other => Answer::skipped(format!("{other} is not supported")),
//!     }
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     zarr_reshape_harness::run(answer)
//! }
//! ```
//!
//! `cargo test --test reshape_conformance` runs every `must` case; the usual
//! arguments work (`-- input-dims.prefix` runs the cases whose id contains that
//! text, `-- --list` lists them). After the trials a table gives, per clause under
//! test, the cases that passed, failed, failed as listed (known) and were skipped.
//!
//! # What runs and how it is judged
//!
//! - One trial per case, named by its id, its level as kind (`[must]`).
//! - Only `must` cases run by default. Opt in to others with [`Harness::levels`],
//!   or without touching code with the environment variable [`LEVELS_ENV`]
//!   (`ZARR_RESHAPE_LEVELS=must,should` or `=all`), or with
//!   `cargo test -- --include-ignored`: cases of the other levels are ignored trials.
//!   A case that runs and fails fails its trial, whatever its level.
//! - Answers are judged as the runner judges them: outputs member by member
//!   (integers by value, arrays element by element in the case's data type), and
//!   errors by class when the answer names one (an error without a class passes
//!   an error expectation).
//! - [`Answer::Skipped`] shows the trial as ignored with its reason. A panic of
//!   the implementation, or [`Answer::Errored`], fails the trial.
//! - `resolve-chain` cases ([`Operation::ResolveChain`]) hold a whole codec chain
//!   (`codecs`: transpose, bytes, compressors, `sharding_indexed` around reshape)
//!   and ask for the shape each codec hands on. They reach your function like every
//!   other case; an implementation of the reshape codec alone answers them
//!   [`Answer::Skipped`], as the fallback arm above does. [`Operation`] is
//!   `non_exhaustive`: keep a fallback arm, and later operations skip too.
//! - `resolve-grid` cases ([`Operation::ResolveGrid`]) ask the same of a whole
//!   chunk grid. The harness judges their errors by class only: the runner also
//!   checks the refused chunk an answer names (the protocol's `error.chunk`), which
//!   [`Answer::error`] cannot carry, so run the runner for that part.
//! - A known-failures file ([`Harness::known_failures`]), in the runner's
//!   expectations file format, lists cases expected to fail, each with a reason:
//!   they show as ignored ("known failure: ..."). A listed case that passes fails
//!   its trial, and a listed id that is no case fails the run, so the list
//!   cannot go stale.
//!
//! Numbers: every case member is exact JSON text, never rounded; this crate and
//! [`zarr_reshape_vectors`] use serde_json's `raw_value`, never
//! `arbitrary_precision`, so your build's number parsing is left alone.
#![forbid(unsafe_code)]

mod answer;
mod harness;
mod json;
mod judge;
mod known;
mod summary;
mod trial;
mod typed;

pub use answer::Answer;
pub use harness::{Harness, LEVELS_ENV, Report};
pub use judge::Outcome;
pub use known::{
    KnownFailures, ListedOutcome, MAX_ISSUE_URL_BYTES, MAX_KNOWN_FAILURES_BYTES, check_issue_url,
};
pub use summary::{Summary, Tally};
pub use typed::DataType;
pub use zarr_reshape_vectors::{self as vectors, Case, Level, Operation};

/// Judges one answer to `case` as the trials do.
///
/// ```
/// use zarr_reshape_harness::{Answer, Outcome, judge};
/// let cases = zarr_reshape_vectors::cases()?;
/// let case = cases.iter().find(|c| c.id == "input-dims.prefix/gap-between-groups").unwrap();
/// let refused = Answer::error("input-dims-misaligned", "the prefix rule fails");
/// assert_eq!(judge(case, &refused), Ok(Outcome::Pass));
/// let accepted = Answer::output(&serde_json::json!({"encoded_shape": [2, 3, 4]}));
/// assert!(matches!(judge(case, &accepted), Ok(Outcome::Fail(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// When the case's expectation cannot be read.
pub fn judge(case: &Case, answer: &Answer) -> Result<Outcome, String> {
    judge::Expected::of(case).map(|expected| expected.judge(answer))
}

/// Runs `implementation` over the `must` cases ([`LEVELS_ENV`] may choose
/// others) with the command line's libtest arguments; the exit code for `main`.
/// [`Harness`] offers levels and a known-failures file.
#[must_use]
pub fn run(
    implementation: impl Fn(&Case) -> Answer + Send + Sync + 'static,
) -> std::process::ExitCode {
    Harness::new(implementation).run()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests;
