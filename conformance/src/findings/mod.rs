//! FINDINGS.md: every bug the suite has found in a real implementation, one entry
//! per `[[failure]]` of each expectations file that judges one
//! (`conformance/expectations/`), with its effect, its smallest listed case, its
//! source line and its upstream issue.
//!
//! Which implementation and version a file judges, and whether its entries count,
//! is said by the index `conformance/findings.toml` ([`index`]), not by the files:
//! the expectations format stays as adopters know it. A file the index does not
//! name still counts, its implementation read from its name
//! (`<name>-<version>[.<variant>].toml`), and the page says so.
//!
//! The page is rendered from the files' text and the suite's cases alone (no I/O
//! here but [`read_files`]); `conformance/tests/findings.rs` checks that the
//! committed page is current.

pub mod effect;
pub mod index;
mod page;

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

pub use effect::Effect;
use zarr_reshape_harness::ListedOutcome;

use crate::run::Expectations;
use crate::vector::Case;

/// The most expectations files read.
pub const MAX_FILES: usize = 1000;

/// The deepest folder below `conformance/expectations/` read.
const MAX_DEPTH: usize = 4;

/// One expectations file: its path below `conformance/expectations/` (with `/`),
/// and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectationsFile {
    /// e.g. `zarrs-0.23.14.toml`, `array-path/zarr-java-0.2.0.toml`.
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// One `[[failure]]` entry, as written.
#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    /// The cases it lists.
    pub ids: Vec<String>,
    /// Its clause.
    pub clause: String,
    /// Why the cases fail.
    pub reason: String,
    /// Where in the implementation's source.
    #[serde(default)]
    pub source: Option<String>,
    /// How the cases end.
    #[serde(default)]
    pub outcome: ListedOutcome,
    /// The upstream issue.
    #[serde(default)]
    pub issue_url: Option<String>,
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    failure: Vec<Entry>,
}

/// One finding: an entry, its effect and its smallest case.
#[derive(Debug, Clone)]
pub struct Finding<'a> {
    /// The entry.
    pub entry: Entry,
    /// What the bug does.
    pub effect: Effect,
    /// The listed case whose `given` (configuration, decoded shape, inputs) is the
    /// shortest JSON; of equals, the first by id.
    pub minimal: &'a Case,
    /// How many of the listed cases are of each level (`must`, `should`,
    /// `interpretation`): an entry of interpretation cases only is a difference of
    /// reading, not a violation.
    pub levels: std::collections::BTreeMap<String, usize>,
}

/// The entries of an expectations file's text, checked as the runner checks them.
///
/// # Errors
/// As [`Expectations::parse`].
pub fn entries(text: &str) -> Result<Vec<Entry>, String> {
    Expectations::parse(text)?;
    let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
    Ok(file.failure)
}

/// The length of the compact JSON of what `case` hands an implementation.
#[must_use]
pub fn size_of(case: &Case) -> usize {
    let given = crate::report::record::given_of(case);
    Value::Object(given).to_string().len()
}

/// The findings of one file: each entry with its effect and smallest case, in the
/// file's order.
///
/// # Errors
/// When the file is not a valid expectations file, lists an id that no case of
/// `cases` has, or an entry lists no id.
pub fn findings<'a>(
    text: &str,
    cases: &'a [Case],
    answered: &index::Answered,
) -> Result<Vec<Finding<'a>>, String> {
    let by_id: std::collections::BTreeMap<&str, &Case> =
        cases.iter().map(|case| (case.id.as_str(), case)).collect();
    entries(text)?
        .into_iter()
        .map(|entry| {
            let listed = entry
                .ids
                .iter()
                .map(|id| {
                    by_id
                        .get(id.as_str())
                        .copied()
                        .ok_or_else(|| format!("{id} is listed, but no case of the suite has it"))
                })
                .collect::<Result<Vec<&Case>, String>>()?;
            let minimal = listed
                .iter()
                .copied()
                .min_by(|a, b| size_of(a).cmp(&size_of(b)).then_with(|| a.id.cmp(&b.id)))
                .ok_or_else(|| format!("an entry of {} lists no case", entry.clause))?;
            let effect = Effect::of(&entry, &minimal.expect, answered);
            let mut levels = std::collections::BTreeMap::new();
            for case in &listed {
                let count: &mut usize = levels.entry(case.level.clone()).or_default();
                *count = count.saturating_add(1);
            }
            Ok(Finding {
                entry,
                effect,
                minimal,
                levels,
            })
        })
        .collect()
}

/// Every `.toml` file below `dir` (folders to a depth of 4, symbolic links not
/// followed), sorted by path, each read as the runner reads an expectations file.
///
/// # Errors
/// When a folder or file cannot be read, or there are more than [`MAX_FILES`].
pub fn read_files(dir: &Path) -> Result<Vec<ExpectationsFile>, String> {
    let mut found = Vec::new();
    walk(dir, "", 0, &mut found)?;
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

fn walk(
    dir: &Path,
    prefix: &str,
    depth: usize,
    found: &mut Vec<ExpectationsFile>,
) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let kind = entry
            .file_type()
            .map_err(|e| format!("{}: {e}", entry.path().display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{prefix}{name}");
        if kind.is_dir() && depth < MAX_DEPTH {
            walk(
                &entry.path(),
                &format!("{path}/"),
                depth.saturating_add(1),
                found,
            )?;
        } else if kind.is_file() && name.ends_with(".toml") {
            if found.len() >= MAX_FILES {
                return Err(format!(
                    "{}: more than {MAX_FILES} expectations files",
                    dir.display()
                ));
            }
            let text = crate::run::read_expectations(&entry.path())?;
            found.push(ExpectationsFile { path, text });
        }
    }
    Ok(())
}

/// FINDINGS.md, from the index's text, the expectations files and the suite's
/// cases.
///
/// # Errors
/// When the index or a file cannot be read as such (the message names it), or
/// the index names a file that is not among `files`.
pub fn render(index: &str, files: &[ExpectationsFile], cases: &[Case]) -> Result<String, String> {
    let index = index::Index::parse(index)?;
    let mut judged = Vec::new();
    let mut not_counted = Vec::new();
    for file in files {
        let described = index.describe(&file.path);
        if let Some(why) = &described.not_counted {
            not_counted.push((file.path.as_str(), why.clone()));
            continue;
        }
        let found = findings(&file.text, cases, &described.answered)
            .map_err(|e| format!("conformance/expectations/{}: {e}", file.path))?;
        index
            .check_answered(&file.path, &found)
            .map_err(|e| format!("conformance/findings.toml: {e}"))?;
        judged.push((file.path.as_str(), described, found));
    }
    if let Some(missing) = index.missing_from(files) {
        return Err(format!(
            "conformance/findings.toml names {missing}, which is not under conformance/expectations/"
        ));
    }
    Ok(page::render(&judged, &not_counted))
}
