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
use std::fmt;
use std::path::Path;

use serde::Deserialize;

use crate::judge::Outcome;

/// The outcome a known failure is listed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ListedOutcome {
    /// A wrong answer (the default).
    #[default]
    Fail,
    /// No usable answer: a timeout, a process death, a protocol violation, the
    /// adapter's own fault.
    Error,
    /// The implementation crashed.
    Crash,
}

impl ListedOutcome {
    /// `fail`, `error` or `crash`: the name of the outcome it excuses.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Fail => "fail",
            Self::Error => "error",
            Self::Crash => "crash",
        }
    }

    /// Whether `outcome` is the one listed.
    #[must_use]
    pub fn matches(self, outcome: &Outcome) -> bool {
        matches!(
            (self, outcome),
            (Self::Fail, Outcome::Fail(_))
                | (Self::Error, Outcome::Error(_))
                | (Self::Crash, Outcome::Crash(_))
        )
    }
}

impl fmt::Display for ListedOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    failure: Vec<Failure>,
}

/// One known divergence, as written in the file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Failure {
    ids: Vec<String>,
    clause: String,
    reason: String,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    outcome: ListedOutcome,
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
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut known = BTreeMap::new();
        for failure in file.failure {
            if failure.reason.trim().is_empty() {
                return Err(format!(
                    "a known failure of {} has no reason",
                    failure.clause
                ));
            }
            let reason = match &failure.source {
                Some(source) => format!("{} ({}; {source})", failure.reason, failure.clause),
                None => format!("{} ({})", failure.reason, failure.clause),
            };
            let entry = KnownFailure {
                reason,
                outcome: failure.outcome,
            };
            for id in failure.ids {
                if known.insert(id.clone(), entry.clone()).is_some() {
                    return Err(format!("{id} is listed twice"));
                }
            }
        }
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
