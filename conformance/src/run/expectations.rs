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
//! ```
//!
//! A listed case is excused only for the outcome listed: a case listed as `fail`
//! that crashes, or listed as `crash` that gives a wrong answer, breaks the run.

use std::collections::BTreeMap;
use std::path::Path;

use zarr_reshape_harness::KnownFailures;
pub use zarr_reshape_harness::ListedOutcome;

use crate::judge::Outcome;

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

/// One listed case: why it does not pass, and how it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownFailure {
    /// The reason, with its clause and source: `reason (clause; source)`.
    pub reason: String,
    /// The outcome it is listed with.
    pub outcome: ListedOutcome,
}

/// Known failures by case id.
#[derive(Debug, Clone, Default)]
pub struct Expectations {
    known: BTreeMap<String, KnownFailure>,
}

impl Expectations {
    /// Reads an expectations file.
    ///
    /// # Errors
    /// When the file cannot be read, is not of this form (an `outcome` other than
    /// `fail`, `error` and `crash` included), gives an empty reason, or lists an id
    /// twice.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads the text of an expectations file.
    ///
    /// # Errors
    /// As [`Self::load`].
    pub fn parse(text: &str) -> Result<Self, String> {
        // One reader of the format for the runner and the harness crate.
        let listed = KnownFailures::parse(text)?;
        let known = listed
            .ids()
            .filter_map(|id| listed.listed(id).map(|listing| (id, listing)))
            .map(|(id, (reason, outcome))| {
                let reason = reason.to_string();
                (id.to_string(), KnownFailure { reason, outcome })
            })
            .collect();
        Ok(Self { known })
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
