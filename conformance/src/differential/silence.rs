//! Known divergences for the fuzzer: the same expectations file as `run
//! --expectations` (`run::expectations`), read for its clauses.
//!
//! A fuzzer finding has no id a person could have listed in advance, so a listed
//! failure silences a finding by its **clause**: a shrunk case that the reference
//! rejects, whose first clause (the one the reference's error names) is the
//! `clause` of a `[[failure]]` entry, is a known divergence: the implementation
//! does not enforce that rule. A case the reference accepts (first clause
//! `algorithm.*`) is never silenced by its clause, which would hide every wrong
//! output; a listed id that matches the finding's id as a glob silences any finding,
//! so a vector committed from an earlier finding can be listed by its id. A matching
//! entry excuses a finding only for the outcome it lists, by the rule `run` applies
//! (`run::breaks_run`): an entry with `outcome = "fail"` never excuses a crash or an
//! error. Excused findings are still shrunk and printed, marked as known.

use std::path::Path;

use serde::Deserialize;

use super::super::run::{Expectations, KnownFailure, ListedOutcome, listed_as};
use crate::judge::Outcome;
use crate::vector::{Case, Expectation};

/// The known divergences of one implementation.
#[derive(Debug, Clone, Default)]
pub struct Silencer {
    rules: Vec<Rule>,
}

#[derive(Debug, Clone)]
struct Rule {
    clause: String,
    ids: Vec<glob::Pattern>,
    reason: String,
    outcome: ListedOutcome,
    issue_url: Option<String>,
}

#[derive(Debug, Deserialize)]
struct File {
    #[serde(default)]
    failure: Vec<Failure>,
}

#[derive(Debug, Deserialize)]
struct Failure {
    ids: Vec<String>,
    clause: String,
    reason: String,
    #[serde(default)]
    outcome: ListedOutcome,
    #[serde(default)]
    issue_url: Option<String>,
}

impl Silencer {
    /// Reads an expectations file (checked as `run` checks it).
    ///
    /// # Errors
    /// When `run` would refuse the file, or an id is not a valid glob.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = super::super::run::read_expectations(path)?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads the text of an expectations file.
    ///
    /// # Errors
    /// As [`Self::load`].
    pub fn parse(text: &str) -> Result<Self, String> {
        Expectations::parse(text)?;
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        let rules = file
            .failure
            .into_iter()
            .map(|failure| {
                let ids = failure
                    .ids
                    .iter()
                    .map(|id| glob::Pattern::new(id).map_err(|e| format!("id {id:?}: {e}")))
                    .collect::<Result<_, _>>()?;
                Ok(Rule {
                    clause: failure.clause,
                    ids,
                    reason: failure.reason,
                    outcome: failure.outcome,
                    issue_url: failure.issue_url,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(Self { rules })
    }

    /// The listing of a shrunk case that ended in `outcome`, if an entry matches
    /// it: its reason and the outcome it excuses (`run::breaks_run` decides whether
    /// the finding is excused). Of several matching entries, one listing `outcome`.
    #[must_use]
    pub fn known(&self, case: &Case, outcome: &Outcome) -> Option<KnownFailure> {
        let clause = case.clauses.first()?;
        let rejected = matches!(case.expect, Expectation::Error(_));
        let matching = || {
            self.rules.iter().filter(|rule| {
                (rejected && rule.clause == *clause)
                    || rule.ids.iter().any(|id| id.matches(&case.id))
            })
        };
        matching()
            .find(|rule| listed_as(rule.outcome, outcome))
            .or_else(|| matching().next())
            .map(|rule| KnownFailure {
                reason: format!("{} ({})", rule.reason, rule.clause),
                outcome: rule.outcome,
                issue_url: rule.issue_url.clone(),
            })
    }

    /// How many known failures are listed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether none is.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }
}
