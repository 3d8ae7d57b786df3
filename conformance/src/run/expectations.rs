//! The expectations file: an implementation's known failures, each with a reason.
//!
//! ```toml
//! [[failure]]
//! ids = ["input-dims.prefix/gap-between-groups"]
//! clause = "input-dims.prefix"
//! reason = "the prefix rule is never checked"
//! source = "src/array/codec/array_to_array/reshape.rs"   # optional
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

/// Known failures by case id.
#[derive(Debug, Clone, Default)]
pub struct Expectations {
    reasons: BTreeMap<String, String>,
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
}

impl Expectations {
    /// Reads an expectations file.
    ///
    /// # Errors
    /// When the file cannot be read, is not of this form, gives an empty reason, or
    /// lists an id twice.
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
        let mut reasons = BTreeMap::new();
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
            for id in failure.ids {
                if reasons.insert(id.clone(), reason.clone()).is_some() {
                    return Err(format!("{id} is listed twice"));
                }
            }
        }
        Ok(Self { reasons })
    }

    /// The reason a case is expected to fail, if it is listed.
    #[must_use]
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.reasons.get(id).map(String::as_str)
    }

    /// The listed ids that are not among `ids`.
    #[must_use]
    pub fn missing_from(&self, ids: &[&str]) -> Vec<String> {
        self.reasons
            .keys()
            .filter(|id| !ids.contains(&id.as_str()))
            .cloned()
            .collect()
    }

    /// How many ids are listed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.reasons.len()
    }

    /// Whether nothing is listed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.reasons.is_empty()
    }
}
