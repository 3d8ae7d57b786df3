//! `conformance/findings.toml`: which implementation and version each
//! expectations file judges, whether its entries count as findings, and what the
//! implementation answers where a case expects data (the files say only `fail`).
//!
//! ```toml
//! [[file]]
//! path = "zarrs-0.23.14.toml"      # below conformance/expectations/
//! implementation = "zarrs"
//! version = "0.23.14"
//! measured = "Rust, crates.io; conformance/adapters/zarrs, release build"
//! report = "conformance/reports/zarrs-0.23.14.md"   # optional
//! refused = ["input-dims.increasing/unit-size-before-group"]   # optional
//! wrong_data = []                                                # optional
//!
//! [[file]]
//! path = "zarr-python-3.4.2-reference-codec.toml"
//! counted = false
//! why = "the same zarr-python cause as zarr-python-3.4.2.toml"
//! ```

use std::collections::BTreeSet;

use serde::Deserialize;

use zarr_reshape_harness::ListedOutcome;

pub use super::effect::Answered;
use super::{ExpectationsFile, Finding, effect};

/// The index.
#[derive(Debug, Clone, Default)]
pub struct Index {
    files: Vec<Row>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    #[serde(default)]
    file: Vec<Row>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    path: String,
    #[serde(default)]
    implementation: Option<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    measured: Option<String>,
    #[serde(default)]
    report: Option<String>,
    #[serde(default = "yes")]
    counted: bool,
    #[serde(default)]
    why: Option<String>,
    #[serde(default)]
    refused: BTreeSet<String>,
    #[serde(default)]
    wrong_data: BTreeSet<String>,
}

fn yes() -> bool {
    true
}

/// What the index says of one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Described {
    /// e.g. `zarrs`.
    pub implementation: String,
    /// e.g. `0.23.14`.
    pub version: String,
    /// How it was measured; for a file the index does not name, says so.
    pub measured: String,
    /// The report that explains the causes, if any.
    pub report: Option<String>,
    /// `Some(why)` when its entries do not count.
    pub not_counted: Option<String>,
    /// Its answers where cases expect data.
    pub answered: Answered,
}

impl Index {
    /// Reads the index's text.
    ///
    /// # Errors
    /// When it is not of this form, names a path twice, names a counted file
    /// without its implementation and version, or a file not counted without why.
    pub fn parse(text: &str) -> Result<Self, String> {
        let document: Document =
            toml::from_str(text).map_err(|e| format!("conformance/findings.toml: {e}"))?;
        let mut seen = BTreeSet::new();
        for row in &document.file {
            let fault = if !seen.insert(row.path.as_str()) {
                Some("is named twice")
            } else if row.counted && (row.implementation.is_none() || row.version.is_none()) {
                Some("needs implementation and version (or counted = false and why)")
            } else if !row.counted && row.why.as_deref().is_none_or(|why| why.trim().is_empty()) {
                Some("is not counted, and needs a why")
            } else {
                None
            };
            if let Some(fault) = fault {
                return Err(format!("conformance/findings.toml: {} {fault}", row.path));
            }
        }
        Ok(Self {
            files: document.file,
        })
    }

    /// What the index says of the file at `path`; for a file it does not name, the
    /// implementation and version read from the file's name.
    #[must_use]
    pub fn describe(&self, path: &str) -> Described {
        let Some(row) = self.files.iter().find(|row| row.path == path) else {
            let (implementation, version) = from_name(path);
            return Described {
                implementation,
                version,
                measured: "not in conformance/findings.toml: the implementation and version \
                           are read from the file's name"
                    .into(),
                ..Described::default()
            };
        };
        Described {
            implementation: row.implementation.clone().unwrap_or_default(),
            version: row.version.clone().unwrap_or_default(),
            measured: row.measured.clone().unwrap_or_default(),
            report: row.report.clone(),
            not_counted: (!row.counted).then(|| row.why.clone().unwrap_or_default()),
            answered: Answered {
                refused: row.refused.clone(),
                wrong_data: row.wrong_data.clone(),
            },
        }
    }

    /// Checks that every id the index gives for `path` under `refused` or
    /// `wrong_data` is listed as `fail` by an entry whose smallest case expects
    /// data only: the only entries whose effect the index decides.
    ///
    /// # Errors
    /// Names the first id that is not.
    pub fn check_answered(&self, path: &str, found: &[Finding<'_>]) -> Result<(), String> {
        let Some(row) = self.files.iter().find(|row| row.path == path) else {
            return Ok(());
        };
        for id in row.refused.iter().chain(&row.wrong_data) {
            let decides = found.iter().any(|finding| {
                finding.entry.ids.contains(id)
                    && finding.entry.outcome == ListedOutcome::Fail
                    && effect::kinds(&finding.minimal.expect) == (false, true)
            });
            if !decides {
                return Err(format!(
                    "{path}: {id} is given under refused or wrong_data, but no entry that \
                     lists it as fail has a smallest case that expects data only"
                ));
            }
        }
        Ok(())
    }

    /// The first path the index names that is not among `files`.
    #[must_use]
    pub fn missing_from(&self, files: &[ExpectationsFile]) -> Option<String> {
        self.files
            .iter()
            .find(|row| !files.iter().any(|file| file.path == row.path))
            .map(|row| row.path.clone())
    }
}

/// `nd-image-codecs-0.2.5.python.toml` -> (`nd-image-codecs`, `0.2.5 (python)`):
/// the name up to the first `-` before a digit, the version its digits and dots,
/// and what follows in parentheses.
#[must_use]
pub fn from_name(path: &str) -> (String, String) {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.strip_suffix(".toml").unwrap_or(file);
    let split = stem
        .char_indices()
        .find(|(i, c)| {
            *c == '-'
                && stem
                    .get(i.saturating_add(1)..)
                    .is_some_and(|rest| rest.starts_with(|d: char| d.is_ascii_digit()))
        })
        .map(|(i, _)| i);
    let Some(split) = split else {
        return (stem.to_string(), "unknown version".into());
    };
    let name = stem.get(..split).unwrap_or(stem);
    let rest = stem.get(split.saturating_add(1)..).unwrap_or_default();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    let version = rest.get(..end).unwrap_or(rest).trim_end_matches('.');
    let variant = rest
        .get(end..)
        .unwrap_or_default()
        .trim_start_matches(['.', '-']);
    let version = if variant.is_empty() {
        version.to_string()
    } else {
        format!("{version} ({variant})")
    };
    (name.to_string(), version)
}
