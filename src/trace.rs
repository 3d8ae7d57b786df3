//! The trace behind a resolution: one step per clause evaluated, with its numbers.
//!
//! Parsing and resolution write into a trace as they check; with tracing off
//! the steps are never formatted, so `resolve` pays nothing for `explain`.
//! This module knows only the vocabulary leaves (`clause`, `position`); the
//! rules write into it, nothing in it calls a rule.

use std::fmt;

use crate::clause::Clause;
use crate::position::Position;

/// What a step found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The step computed a value (an element kind, an extent).
    Defines,
    /// The rule holds.
    Holds,
    /// The rule is broken; resolution stops here.
    Violated,
}

/// One clause evaluated at one place, with the numbers involved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The clause evaluated.
    pub clause: Clause,
    /// The element of `shape` it was evaluated at, if any.
    pub at: Option<Position>,
    /// The formula with its numbers, e.g. `prod(B_shape[:1]) = 2, prod(A_shape[:2]) = 6`.
    pub detail: String,
    /// What it found.
    pub verdict: Verdict,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.clause)?;
        if let Some(at) = self.at {
            write!(f, " at {at}")?;
        }
        write!(f, ": {}", self.detail)?;
        match self.verdict {
            Verdict::Defines => Ok(()),
            Verdict::Holds => f.write_str(" -> holds"),
            Verdict::Violated => f.write_str(" -> violated"),
        }
    }
}

/// Where checks write their steps; a no-op unless tracing was asked for.
pub(crate) struct Trace {
    steps: Option<Vec<Step>>,
}

impl Trace {
    /// A trace that records nothing.
    #[inline]
    pub(crate) fn off() -> Self {
        Self { steps: None }
    }

    /// A trace that records every step.
    pub(crate) fn on() -> Self {
        Self {
            steps: Some(Vec::new()),
        }
    }

    /// Records a step; `detail` is only called when tracing is on.
    #[inline]
    pub(crate) fn note(
        &mut self,
        clause: Clause,
        at: Option<Position>,
        verdict: Verdict,
        detail: impl FnOnce() -> String,
    ) {
        if let Some(steps) = self.steps.as_mut() {
            steps.push(Step {
                clause,
                at,
                detail: detail(),
                verdict,
            });
        }
    }

    /// Records a rule's verdict and returns `Err(error())` when it is violated.
    #[inline]
    pub(crate) fn check<E>(
        &mut self,
        holds: bool,
        clause: Clause,
        at: Option<Position>,
        detail: impl FnOnce() -> String,
        error: impl FnOnce() -> E,
    ) -> Result<(), E> {
        let verdict = if holds {
            Verdict::Holds
        } else {
            Verdict::Violated
        };
        self.note(clause, at, verdict, detail);
        if holds { Ok(()) } else { Err(error()) }
    }

    /// The verdict of the last step recorded, if tracing is on and there is one.
    pub(crate) fn last_verdict(&self) -> Option<Verdict> {
        self.steps
            .as_ref()
            .and_then(|steps| steps.last())
            .map(|step| step.verdict)
    }

    /// The steps recorded (none when tracing was off).
    pub(crate) fn into_steps(self) -> Vec<Step> {
        self.steps.unwrap_or_default()
    }
}
