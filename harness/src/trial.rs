//! One case as one libtest trial: the implementation's answer (a panic caught as
//! an error), the judgement, the known-failures list, and the count for the summary.

use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, PoisonError};

use libtest_mimic::{Completion, Failed};
use zarr_reshape_vectors::Case;

use crate::answer::Answer;
use crate::judge::{Expected, Outcome};
use crate::known::ListedOutcome;
use crate::summary::{Summary, Verdict};

/// What an implementation is, shared by the trials (which may run on several threads).
pub(crate) type Implementation = Arc<dyn Fn(&Case) -> Answer + Send + Sync>;

/// Everything one trial needs.
pub(crate) struct CaseTrial {
    pub(crate) case: Case,
    pub(crate) expected: Expected,
    /// The reason and outcome of the known-failures file, when it lists the case.
    pub(crate) known: Option<(String, ListedOutcome)>,
    pub(crate) implementation: Implementation,
    pub(crate) summary: Arc<Mutex<Summary>>,
}

impl CaseTrial {
    /// Runs the case: completed, ignored (skipped, or a listed failure that
    /// failed), or failed with the details.
    pub(crate) fn run(self) -> Result<Completion, Failed> {
        let mut crashed = false;
        let answer = catch_unwind(AssertUnwindSafe(|| (self.implementation)(&self.case)))
            .unwrap_or_else(|payload| {
                crashed = true;
                let text = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)");
                Answer::Errored {
                    message: format!("panic: {text}"),
                }
            });
        let outcome = self.expected.judge(&answer);
        let ended = match &outcome {
            Outcome::Error(_) if crashed => ListedOutcome::Crash,
            Outcome::Error(_) => ListedOutcome::Error,
            _ => ListedOutcome::Fail,
        };
        let (verdict, result) = match (&outcome, &self.known) {
            (Outcome::Pass, None) => (Verdict::Pass, Ok(Completion::Completed)),
            (Outcome::Pass, Some((reason, _))) => (
                Verdict::Fail,
                Err(Failed::from(format!(
                    "{} passed, but the known-failures file lists it ({reason}): \
                     remove it from the list, which must not go stale",
                    self.case.id
                ))),
            ),
            (Outcome::Skip(why), _) => (
                Verdict::Skip,
                Ok(Completion::ignored_with(format!("skipped: {why}"))),
            ),
            (Outcome::Fail(_) | Outcome::Error(_), Some((reason, listed))) if *listed == ended => (
                Verdict::Known,
                Ok(Completion::ignored_with(format!("known failure: {reason}"))),
            ),
            (Outcome::Fail(_) | Outcome::Error(_), Some((reason, listed))) => (
                Verdict::Fail,
                Err(Failed::from(format!(
                    "{}\n  listed as {listed} in the known-failures file ({reason}), but it ended as {ended}",
                    self.failure(&answer, &outcome)
                ))),
            ),
            (Outcome::Fail(_) | Outcome::Error(_), None) => (
                Verdict::Fail,
                Err(Failed::from(self.failure(&answer, &outcome))),
            ),
        };
        self.summary
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .count(self.case.clause(), verdict);
        result
    }

    /// The text of a failed trial.
    fn failure(&self, answer: &Answer, outcome: &Outcome) -> String {
        let case = &self.case;
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{} (level {}, {})", case.id, case.level, case.file);
        let _ = writeln!(text, "  {}", case.description);
        let _ = writeln!(text, "  expected: {}", self.expected.text);
        let _ = writeln!(text, "  answered: {}", answer.to_json_text());
        let _ = write!(text, "  {outcome}");
        text
    }
}
