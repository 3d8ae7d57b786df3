//! The per-clause summary printed after the trials: for each clause under test
//! (a case's first clause), how many of its cases passed, failed, failed as listed
//! in the known-failures file, or were skipped by the implementation.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The counts of one clause (or of the whole run).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases answered as expected (and not listed as known failures).
    pub pass: u64,
    /// Wrong answers, panics, errored answers, and listed cases that passed.
    pub fail: u64,
    /// Listed known failures that did fail.
    pub known: u64,
    /// Cases the implementation skipped.
    pub skip: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.pass = self.pass.saturating_add(other.pass);
        self.fail = self.fail.saturating_add(other.fail);
        self.known = self.known.saturating_add(other.known);
        self.skip = self.skip.saturating_add(other.skip);
    }
}

/// What one trial counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    Pass,
    Fail,
    Known,
    Skip,
}

/// The counts of every clause whose cases ran.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    clauses: BTreeMap<String, Tally>,
}

impl Summary {
    pub(crate) fn count(&mut self, clause: &str, verdict: Verdict) {
        let one = match verdict {
            Verdict::Pass => Tally {
                pass: 1,
                ..Tally::default()
            },
            Verdict::Fail => Tally {
                fail: 1,
                ..Tally::default()
            },
            Verdict::Known => Tally {
                known: 1,
                ..Tally::default()
            },
            Verdict::Skip => Tally {
                skip: 1,
                ..Tally::default()
            },
        };
        self.clauses.entry(clause.to_string()).or_default().add(one);
    }

    /// The counts of each clause, by clause id.
    pub fn clauses(&self) -> impl Iterator<Item = (&str, Tally)> {
        self.clauses
            .iter()
            .map(|(clause, tally)| (clause.as_str(), *tally))
    }

    /// The counts of the whole run.
    #[must_use]
    pub fn total(&self) -> Tally {
        let mut total = Tally::default();
        for tally in self.clauses.values() {
            total.add(*tally);
        }
        total
    }

    /// The table printed after the trials.
    #[must_use]
    pub fn render(&self) -> String {
        let width = self
            .clauses
            .keys()
            .map(String::len)
            .chain([6])
            .max()
            .unwrap_or(6);
        let mut text = String::new();
        let mut row = |name: &str,
                       pass: &dyn std::fmt::Display,
                       fail: &dyn std::fmt::Display,
                       known: &dyn std::fmt::Display,
                       skip: &dyn std::fmt::Display| {
            // Writing to a String cannot fail.
            let _ = writeln!(
                text,
                "{name:<width$}  {pass:>6}  {fail:>6}  {known:>6}  {skip:>6}"
            );
        };
        row("clause", &"pass", &"fail", &"known", &"skip");
        for (clause, t) in &self.clauses {
            row(clause, &t.pass, &t.fail, &t.known, &t.skip);
        }
        let t = self.total();
        row("total", &t.pass, &t.fail, &t.known, &t.skip);
        text
    }
}
