//! The clause registry, `spec-cases/clauses.json`: clauses and the readings
//! (errata E-n, interpretations I-n) the vectors depend on.

use std::path::Path;

use serde::Deserialize;

/// The largest `clauses.json` read: 4 MiB (the suite's is about 40 KiB). A larger
/// file, and one that is not a regular file, is refused unread.
pub const MAX_REGISTRY_BYTES: u64 = 4 << 20;

/// The registry file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    /// The spec tracked.
    pub spec: SpecVersion,
    /// Every clause, in spec order.
    pub clauses: Vec<ClauseEntry>,
    /// Every erratum and interpretation.
    pub interpretations: Vec<InterpretationEntry>,
}

/// Which text of the spec the suite tracks.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecVersion {
    /// Where the spec lives.
    pub name: String,
    /// The upstream commit.
    pub commit: String,
}

/// One clause.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClauseEntry {
    /// Stable id, e.g. `input-dims.prefix`.
    pub id: String,
    /// The spec section.
    pub section: String,
    /// `must`, `should` or `interpretation`.
    pub level: String,
    /// The spec's sentence for the rule, quoted (MUST and should clauses only).
    #[serde(default)]
    pub text: Option<String>,
    /// The rule in our own words.
    pub paraphrase: String,
    /// The formula, where there is one.
    #[serde(default)]
    pub formula: Option<String>,
    /// The readings the clause depends on.
    #[serde(default)]
    pub interpretations: Vec<String>,
}

/// One erratum or interpretation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterpretationEntry {
    /// `E1`.. or `I-1`..
    pub id: String,
    /// `erratum` or `interpretation`.
    pub kind: String,
    /// What the spec says or leaves open.
    pub text: String,
    /// The reading chosen.
    pub reading: String,
    /// Why.
    pub reason: String,
    /// The other readings a conforming implementation may take, where they can
    /// give another verdict (`readings::Alternative`); a case whose verdict one of
    /// them changes is below `must`.
    #[serde(default)]
    pub other_readings: Vec<String>,
}

impl Registry {
    /// Reads the registry file.
    ///
    /// # Errors
    /// When the file cannot be read or is not of the registry's form.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = crate::input_file::read_string(path, MAX_REGISTRY_BYTES)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The clause with this id.
    #[must_use]
    pub fn clause(&self, id: &str) -> Option<&ClauseEntry> {
        self.clauses.iter().find(|clause| clause.id == id)
    }

    /// Whether an erratum or interpretation with this id exists.
    #[must_use]
    pub fn has_interpretation(&self, id: &str) -> bool {
        self.interpretations.iter().any(|entry| entry.id == id)
    }
}
