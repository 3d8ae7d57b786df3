//! The documented readings as switches: a case's answer under every reading the
//! suite documents (CONFORMANCE.md, I-1 … I-10), and the level and error classes
//! that follow from them.
//!
//! The reference answers under the suite's own reading of every open question.
//! Where the spec leaves a question open, CONFORMANCE.md names the *other*
//! reading a conforming implementation may take ([`Alternative`]). A case is below
//! `must` only when two documented readings give different verdicts (an error
//! against a success, or two different successes); where every reading errs, the
//! case is `must` and its expectation lists every class a reading gives
//! ([`Verdicts`]). Readings that change only *which* error is reported (I-4, I-8)
//! need no switch: every rule a configuration breaks already lists its class
//! (`zarr_reshape::broken_rule_classes_json_str`).
//!
//! An alternative is applied to the case, never to the library: a refusal reading
//! answers before the reference runs, a spelling reading rewrites the JSON the
//! reference reads, and the exact-integer and unbounded readings resolve the shape
//! with [`exact`] and hand the reference the sizes they found.

mod alternative;
pub mod contested;
pub mod exact;
pub mod spelling;
mod verdicts;

pub use alternative::{Alternative, IMPLEMENTATION_DEFINED};
pub use verdicts::{Verdicts, clause_under_test, derived_level, verdicts};
