//! Who is under test and what the runner asks of it: the [`Implementation`]
//! trait and the [`ImplementationInfo`] of a `start` answer
//! (`conformance/PROTOCOL.md`). Here rather than in `adapter::protocol` so that
//! the run, which also runs the in-process reference, does not depend on the
//! adapter module that depends on it.

use crate::answer::Answer;
use crate::vector::Case;

/// Who is under test, as the adapter's `start` answer says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImplementationInfo {
    /// e.g. `zarrs`.
    pub name: String,
    /// e.g. `0.23.14`.
    pub version: String,
    /// e.g. `rust`.
    pub language: String,
    /// The operations it supports; cases of other operations are skipped.
    pub operations: Vec<String>,
    /// The adapter protocol version it speaks. Version 1 has no `crashed` result,
    /// so a crash of a version 1 adapter may hide behind an error answer. The
    /// in-process reference, whose panics are caught as crashes, counts as the
    /// current version.
    pub protocol: u64,
}

/// An implementation the runner can put cases to.
pub trait Implementation {
    /// Who it is.
    fn info(&self) -> &ImplementationInfo;

    /// Its answer to one case. A crash of the implementation is
    /// [`Answer::Crashed`]; other faults (a timeout, garbage, a process death) are
    /// [`Answer::Errored`]; never a panic.
    fn run(&mut self, case: &Case) -> Answer;

    /// Whatever it wrote to stderr since the last call, for the report.
    fn take_stderr(&mut self) -> String {
        String::new()
    }
}
