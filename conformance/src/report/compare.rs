//! Several runs side by side: for each clause (the first clause of its cases), the
//! counts of each run and a one-word state, shown with a symbol and a word so that
//! no report tells states apart by colour alone. Used by the Markdown report of
//! several files and by the HTML results page.

use std::collections::BTreeMap;

use super::record::{CaseLine, RunLog};
use super::{Status, Tally, clause_of, plural};

/// The state of one clause in one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// A case breaks the run: it failed (level must), errored, crashed or passed
    /// unexpectedly.
    Fail,
    /// No case breaks the run, but a SHOULD or interpretation case fails
    /// (unlisted): a divergence that a passing run may have.
    Differs,
    /// No case fails, but some are known failures listed in the expectations file.
    Known,
    /// Every case that ran passed (some may be skipped).
    Pass,
    /// Every case was skipped.
    Skip,
    /// The run has no case of the clause.
    Empty,
}

impl State {
    /// The state of a clause with these counts.
    #[must_use]
    pub fn of(tally: &Tally) -> Self {
        let failing = [tally.fail, tally.error, tally.crash, tally.unexpected_pass];
        if tally.breaking > 0 {
            Self::Fail
        } else if failing.iter().any(|n| *n > 0) {
            Self::Differs
        } else if tally.known_failure > 0 {
            Self::Known
        } else if tally.pass > 0 {
            Self::Pass
        } else if tally.skip > 0 {
            Self::Skip
        } else {
            Self::Empty
        }
    }

    /// The word shown, also used as the HTML class.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Self::Fail => "fail",
            Self::Differs => "differs",
            Self::Known => "known",
            Self::Pass => "pass",
            Self::Skip => "skip",
            Self::Empty => "none",
        }
    }

    /// The symbol shown before the word.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Fail => "\u{2717}",
            Self::Differs => "\u{2260}",
            Self::Known => "\u{25d0}",
            Self::Pass => "\u{2713}",
            Self::Skip => "\u{2013}",
            Self::Empty => "\u{b7}",
        }
    }
}

/// The nonzero counts in words: `10 pass, 2 fail, 1 known failure`; `no cases`.
#[must_use]
pub fn counts_text(tally: &Tally) -> String {
    let parts: Vec<String> = [
        (tally.pass, "pass", "pass"),
        (tally.fail, "fail", "fail"),
        (tally.error, "error", "error"),
        (tally.crash, "crash", "crash"),
        (tally.skip, "skip", "skip"),
        (tally.known_failure, "known failure", "known failures"),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| plural(n, one, many))
    .collect();
    if parts.is_empty() {
        "no cases".into()
    } else {
        parts.join(", ")
    }
}

/// One clause in each run.
#[derive(Debug, Clone)]
pub struct Row<'a> {
    /// The clause id.
    pub clause: &'a str,
    /// One cell per run, in the order of the runs.
    pub cells: Vec<Cell<'a>>,
}

/// One clause in one run.
#[derive(Debug, Clone, Default)]
pub struct Cell<'a> {
    /// Its counts.
    pub tally: Tally,
    /// Its cases that did not pass (unexpected passes included), in run order.
    pub not_passing: Vec<&'a CaseLine>,
}

impl Cell<'_> {
    /// Its state.
    #[must_use]
    pub fn state(&self) -> State {
        State::of(&self.tally)
    }
}

/// Every clause that has a case in some run, alphabetically, with a cell per run.
#[must_use]
pub fn rows(logs: &[RunLog]) -> Vec<Row<'_>> {
    let mut rows: BTreeMap<&str, Vec<Cell<'_>>> = BTreeMap::new();
    for (column, log) in logs.iter().enumerate() {
        for case in &log.cases {
            let cells = rows
                .entry(clause_of(case))
                .or_insert_with(|| vec![Cell::default(); logs.len()]);
            if let Some(cell) = cells.get_mut(column) {
                cell.tally.add(case);
                if Status::of(case) != Status::Pass {
                    cell.not_passing.push(case);
                }
            }
        }
    }
    rows.into_iter()
        .map(|(clause, cells)| Row { clause, cells })
        .collect()
}

/// The title of each run's column: its implementation, and where two runs have
/// the same, `run N` (its place in the order given) after it.
#[must_use]
pub fn column_titles(logs: &[RunLog]) -> Vec<String> {
    let labels: Vec<String> = logs.iter().map(RunLog::implementation_label).collect();
    labels
        .iter()
        .enumerate()
        .map(|(column, label)| {
            if labels.iter().filter(|other| *other == label).count() > 1 {
                format!("{label}, run {}", column.saturating_add(1))
            } else {
                label.clone()
            }
        })
        .collect()
}
