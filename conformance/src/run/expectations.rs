//! The expectations file: an implementation's known failures, each with a reason
//! and the outcome it ends in.
//!
//! ```toml
//! [[failure]]
//! ids = ["input-dims.prefix/gap-between-groups"]
//! clause = "input-dims.prefix"
//! reason = "the prefix rule is never checked"
//! source = "src/array/codec/array_to_array/reshape.rs"   # optional
//! outcome = "fail"   # optional: "fail" (the default), "error" or "crash"
//! issue_url = "https://github.com/zarrs/zarrs/issues/1"   # optional: the upstream issue
//! ```
//!
//! A listed case is excused only for the outcome listed: a case listed as `fail`
//! that crashes, or listed as `crash` that gives a wrong answer, breaks the run.
//! [`breaks_run`] is that rule, for `run` and `fuzz` alike.
//!
//! Every entry needs `ids`, `clause` and `reason`; the runner refuses a file whose
//! `clause` is not among the clauses of a case it lists ([`Expectations::check_clauses`]),
//! and a file in which a reason is still [`TODO`] (what `run --write-expectations`
//! writes, for a person to fill in).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
pub use zarr_reshape_harness::ListedOutcome;
use zarr_reshape_harness::{KnownFailures, MAX_KNOWN_FAILURES_BYTES};

use crate::judge::Outcome;
use crate::vector::Case;

/// The reason `run --write-expectations` writes: the runner refuses a file that
/// still holds it.
pub const TODO: &str = "TODO";

/// Whether a case of `level` that ended in `outcome` breaks a run (of `run` or of
/// `fuzz`), given its listing in the expectations file:
/// - a crash or an error, at any level, unless listed with that outcome: a crash or
///   a fault is never a conforming answer;
/// - a MUST case that failed, unless listed as `fail`;
/// - a listed case that passed, or that ended in another outcome than the one
///   listed (the list went stale).
///
/// A skip never breaks a run, listed or not.
#[must_use]
pub fn breaks_run(level: &str, outcome: &Outcome, known: Option<&KnownFailure>) -> bool {
    match (outcome, known) {
        (Outcome::Skip(_), _) => false,
        (Outcome::Pass, known) => known.is_some(),
        (outcome, Some(known)) => !listed_as(known.outcome, outcome),
        (outcome, None) => outcome.is_fault() || level == "must",
    }
}

/// Whether `outcome` is the one `listed`.
#[must_use]
pub fn listed_as(listed: ListedOutcome, outcome: &Outcome) -> bool {
    matches!(
        (listed, outcome),
        (ListedOutcome::Fail, Outcome::Fail(_))
            | (ListedOutcome::Error, Outcome::Error(_))
            | (ListedOutcome::Crash, Outcome::Crash(_))
    )
}

/// The text of an expectations file, through the crate's one opener
/// ([`crate::input_file`]): a regular file, not on a pseudo filesystem, of at
/// most [`MAX_KNOWN_FAILURES_BYTES`] (the harness's own limit), checked before it
/// is opened (a FIFO would block, `/dev/zero` never end).
///
/// # Errors
/// When it is not, or cannot be read; the message starts with the path.
pub fn read_file(path: &Path) -> Result<String, String> {
    crate::input_file::read_string(path, MAX_KNOWN_FAILURES_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// One listed case: why it does not pass, and how it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownFailure {
    /// The reason, with its clause and source: `reason (clause; source)`.
    pub reason: String,
    /// The outcome it is listed with.
    pub outcome: ListedOutcome,
    /// The upstream issue its entry names (`issue_url`), if any: an `https://` URL
    /// that [`zarr_reshape_harness::check_issue_url`] accepts.
    pub issue_url: Option<String>,
}

/// Known failures by case id.
#[derive(Debug, Clone, Default)]
pub struct Expectations {
    known: BTreeMap<String, KnownFailure>,
    /// The `clause` of each listed id's entry.
    clauses: BTreeMap<String, String>,
}

/// The members of an entry this module reads itself (the harness crate reads and
/// checks the whole entry first).
#[derive(Deserialize)]
struct File {
    #[serde(default)]
    failure: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    ids: Vec<String>,
    clause: String,
    reason: String,
}

impl Expectations {
    /// Reads an expectations file.
    ///
    /// # Errors
    /// When the file cannot be read (or is not a regular file, or is larger than
    /// [`MAX_KNOWN_FAILURES_BYTES`]), is not of this form (an `outcome` other than
    /// `fail`, `error` and `crash` included), gives an empty reason or a reason
    /// still [`TODO`], gives an `issue_url` that is not an `https://` URL of at most
    /// 512 bytes, or lists an id twice.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = read_file(path)?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads the text of an expectations file.
    ///
    /// # Errors
    /// As [`Self::load`].
    pub fn parse(text: &str) -> Result<Self, String> {
        // One reader of the format for the runner and the harness crate.
        let listed = KnownFailures::parse(text)?;
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        let todo: Vec<String> = file
            .failure
            .iter()
            .filter(|entry| entry.reason.trim() == TODO)
            .map(|entry| {
                let first = entry.ids.first().map_or("no ids", String::as_str);
                let more = entry.ids.len().saturating_sub(1);
                match more {
                    0 => format!("{} ({first})", entry.clause),
                    _ => format!("{} ({first} and {more} more)", entry.clause),
                }
            })
            .collect();
        if !todo.is_empty() {
            return Err(format!(
                "{} reason = \"{TODO}\"; write why each fails before running with it: {}",
                if todo.len() == 1 {
                    "1 entry still has"
                } else {
                    "these entries still have"
                },
                todo.join(", ")
            ));
        }
        let clauses = file
            .failure
            .into_iter()
            .flat_map(|entry| {
                let clause = entry.clause;
                entry.ids.into_iter().map(move |id| (id, clause.clone()))
            })
            .collect();
        let known = listed
            .ids()
            .filter_map(|id| listed.listed(id).map(|listing| (id, listing)))
            .map(|(id, (reason, outcome))| {
                let known = KnownFailure {
                    reason: reason.to_string(),
                    outcome,
                    issue_url: listed.issue_url(id).map(str::to_string),
                };
                (id.to_string(), known)
            })
            .collect();
        Ok(Self { known, clauses })
    }

    /// Checks that the `clause` of each entry is among the clauses of every case of
    /// `cases` it lists (ids not among `cases` are left to [`Self::missing_from`]).
    ///
    /// # Errors
    /// Names each case whose entry gives another clause, with both clauses.
    pub fn check_clauses(&self, cases: &[Case]) -> Result<(), String> {
        let wrong: Vec<String> = cases
            .iter()
            .filter_map(|case| {
                let listed = self.clauses.get(&case.id)?;
                (!case.clauses.contains(listed)).then(|| {
                    format!(
                        "{} is listed under clause {listed}, which is not among its clauses ({})",
                        case.id,
                        case.clauses.join(", ")
                    )
                })
            })
            .collect();
        match wrong.as_slice() {
            [] => Ok(()),
            [one] => Err(format!("the expectations file: {one}")),
            many => Err(format!(
                "the expectations file: {} cases are listed under a clause that is not theirs:\n  {}",
                many.len(),
                many.join("\n  ")
            )),
        }
    }

    /// The listing of a case, if it is listed.
    #[must_use]
    pub fn known(&self, id: &str) -> Option<&KnownFailure> {
        self.known.get(id)
    }

    /// The reason a case is expected to fail, if it is listed.
    #[must_use]
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.known.get(id).map(|known| known.reason.as_str())
    }

    /// The listed ids that are not among `ids`.
    #[must_use]
    pub fn missing_from(&self, ids: &[&str]) -> Vec<String> {
        self.known
            .keys()
            .filter(|id| !ids.contains(&id.as_str()))
            .cloned()
            .collect()
    }

    /// How many ids are listed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.known.len()
    }

    /// Whether nothing is listed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }
}
