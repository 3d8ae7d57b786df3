//! How cases are counted: each in exactly one [`Status`], counted in a [`Tally`];
//! the footer's counts are made here from the case lines. A leaf of the report
//! module: it uses only the records.

use super::record::{CaseLine, Counts, Footer, Levels, Millis};

/// How a case is counted in the reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Passed, and not listed as a known failure.
    Pass,
    /// Listed as a known failure, but passed: the list is stale and the run fails.
    UnexpectedPass,
    /// A wrong answer, not listed with that outcome.
    Fail,
    /// No usable answer (a timeout, a process death, a protocol fault), not listed
    /// with that outcome.
    Error,
    /// The implementation crashed, not listed with that outcome.
    Crash,
    /// Skipped by the implementation, not listed.
    Skip,
    /// Listed in the expectations file, and ended as listed (or was skipped).
    KnownFailure,
}

impl Status {
    /// How `case` is counted.
    #[must_use]
    pub fn of(case: &CaseLine) -> Self {
        let outcome = case.outcome.as_str();
        let listed = case.known_outcome.as_deref();
        if listed.is_some_and(|listed| listed == outcome || outcome == "skip") {
            return Self::KnownFailure;
        }
        match outcome {
            "pass" if listed.is_some() => Self::UnexpectedPass,
            "pass" => Self::Pass,
            "fail" => Self::Fail,
            "crash" => Self::Crash,
            "skip" => Self::Skip,
            _ => Self::Error,
        }
    }
}

/// Whether a case breaks the run: it crashed or errored, at any level, unless
/// listed with that outcome; a MUST case failed, unless listed as `fail`; or it is
/// listed and passed or ended in another outcome. A skip never breaks the run.
#[must_use]
pub fn breaks_run(outcome: &str, level: &str, listed: Option<&str>) -> bool {
    match (outcome, listed) {
        ("skip", _) => false,
        ("pass", listed) => listed.is_some(),
        (outcome, Some(listed)) => outcome != listed,
        (outcome, None) => outcome == "error" || outcome == "crash" || level == "must",
    }
}

/// Counts of cases by [`Status`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Passes, unexpected passes included.
    pub pass: usize,
    /// Unlisted wrong answers.
    pub fail: usize,
    /// Unlisted timeouts, process deaths and protocol faults.
    pub error: usize,
    /// Unlisted crashes.
    pub crash: usize,
    /// Unlisted skips.
    pub skip: usize,
    /// Listed cases that did not pass.
    pub known_failure: usize,
    /// Listed cases that passed (also counted in `pass`).
    pub unexpected_pass: usize,
    /// Cases that break the run.
    pub breaking: usize,
}

impl Tally {
    /// Counts `cases`.
    #[must_use]
    pub fn of<'a>(cases: impl IntoIterator<Item = &'a CaseLine>) -> Self {
        let mut tally = Self::default();
        for case in cases {
            tally.add(case);
        }
        tally
    }

    /// Counts one more case.
    pub fn add(&mut self, case: &CaseLine) {
        let bump = |n: &mut usize| *n = n.saturating_add(1);
        match Status::of(case) {
            Status::Pass => bump(&mut self.pass),
            Status::UnexpectedPass => {
                bump(&mut self.pass);
                bump(&mut self.unexpected_pass);
            }
            Status::Fail => bump(&mut self.fail),
            Status::Error => bump(&mut self.error),
            Status::Crash => bump(&mut self.crash),
            Status::Skip => bump(&mut self.skip),
            Status::KnownFailure => bump(&mut self.known_failure),
        }
        if case.breaks_run {
            bump(&mut self.breaking);
        }
    }

    /// All cases counted.
    #[must_use]
    pub fn total(&self) -> usize {
        [
            self.pass,
            self.fail,
            self.error,
            self.crash,
            self.skip,
            self.known_failure,
        ]
        .iter()
        .fold(0, |sum, n| sum.saturating_add(*n))
    }

    /// As the footer's counts.
    #[must_use]
    pub fn counts(&self) -> Counts {
        Counts {
            total: self.total(),
            pass: self.pass,
            fail: self.fail,
            error: self.error,
            crash: self.crash,
            skip: self.skip,
            known_failure: self.known_failure,
            unexpected_pass: self.unexpected_pass,
            breaking: self.breaking,
        }
    }
}

// The footer is made from the case lines, here beside the counting rules; its
// type is in `record`, which stays free of them.
impl Footer {
    /// The footer of a run whose case lines are `cases`.
    #[must_use]
    pub fn of(
        cases: &[CaseLine],
        interrupted: bool,
        stale_expectations: Vec<String>,
        duration_ms: Millis,
    ) -> Self {
        let counts = Tally::of(cases).counts();
        let level = |name: &str| Tally::of(cases.iter().filter(|case| case.level == name)).counts();
        Self {
            kind: "footer".into(),
            interrupted,
            succeeded: !interrupted && stale_expectations.is_empty() && counts.breaking == 0,
            counts,
            levels: Levels {
                must: level("must"),
                should: level("should"),
                interpretation: level("interpretation"),
            },
            stale_expectations,
            duration_ms,
        }
    }
}
