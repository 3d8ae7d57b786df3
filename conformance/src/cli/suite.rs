//! Where the cases come from: the suite embedded in the binary by default, or what
//! `--cases` names: a suite folder, a folder below one, a single vector file, or
//! a clause id of the embedded suite. Each argument's resolution is said in words.

use std::path::{Path, PathBuf};

use zarr_reshape_conformance::report::escape::terminal as safe;
use zarr_reshape_conformance::vector::embedded::{self, EmbeddedSuite};
use zarr_reshape_conformance::vector::{self, Case};

/// How `run` names a suite folder.
const CASES: &str = "--cases DIR";

/// A suite root on disk: a folder the user named, or the embedded suite unpacked
/// to a temporary folder (removed when this is dropped).
#[derive(Debug)]
pub struct SuiteRoot {
    path: PathBuf,
    embedded: Option<EmbeddedSuite>,
}

impl SuiteRoot {
    /// The embedded suite, unpacked; `instead` says how to name a folder instead,
    /// e.g. `--cases DIR`.
    pub fn embedded(instead: &str) -> Result<Self, String> {
        let suite = EmbeddedSuite::unpack().map_err(|error| {
            format!(
                "cannot write the {} to a temporary folder ({error}); name a suite folder \
                 with {instead} instead (`zarr-reshape vectors --export DIR` writes one)",
                embedded::name()
            )
        })?;
        Ok(Self {
            path: suite.root().to_path_buf(),
            embedded: Some(suite),
        })
    }

    /// The embedded suite when `folder` is `None`, else that folder.
    pub fn or_embedded(folder: Option<&Path>, instead: &str) -> Result<Self, String> {
        match folder {
            Some(folder) => Ok(Self {
                path: folder.to_path_buf(),
                embedded: None,
            }),
            None => Self::embedded(instead),
        }
    }

    /// The folder to read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its name for people: `embedded suite 1.0.0`, or the folder's path.
    pub fn label(&self) -> String {
        match self.embedded {
            Some(_) => embedded::name(),
            None => safe(&self.path.display().to_string()),
        }
    }

    /// `text` with the temporary folder's path replaced by the suite's name.
    pub fn describe(&self, text: &str) -> String {
        match &self.embedded {
            Some(suite) => safe(&suite.describe(text)),
            None => safe(text),
        }
    }
}

/// The cases chosen, and what each `--cases` argument resolved to.
#[derive(Debug)]
pub struct Selection {
    /// Every case, in file order.
    pub cases: Vec<Case>,
    /// One line per source, e.g. `embedded suite 1.0.0: 3291 cases in 146 files`.
    pub resolved: Vec<String>,
    /// Kept while the cases run: adapters read the fixtures below it.
    unpacked: Option<SuiteRoot>,
}

/// The cases that `arguments` (`--cases`) name, the embedded suite when none.
pub fn select(arguments: &[PathBuf]) -> Result<Selection, String> {
    let mut selection = Selection {
        cases: Vec::new(),
        resolved: Vec::new(),
        unpacked: None,
    };
    if arguments.is_empty() {
        let root = SuiteRoot::embedded(CASES)?;
        let (cases, files) = load_below(&root, root.path())?;
        selection.resolved.push(format!(
            "{}: {} cases in {files} files",
            root.label(),
            cases.len()
        ));
        selection.cases = cases;
        selection.unpacked = Some(root);
        return Ok(selection);
    }
    for argument in arguments {
        let shown = safe(&argument.display().to_string());
        if argument.is_dir() {
            let here = SuiteRoot::or_embedded(Some(argument), CASES)?;
            let (cases, files) = load_below(&here, argument)?;
            let what = if argument.join("clauses.json").is_file() {
                format!("suite folder {shown}")
            } else if let Some(root) = vector::suite_root(&argument.join("-")) {
                format!(
                    "folder {shown}, in the suite at {}",
                    safe(&root.display().to_string())
                )
            } else {
                format!("folder {shown} (no clauses.json above it)")
            };
            selection
                .resolved
                .push(format!("{what}: {} cases in {files} files", cases.len()));
            selection.cases.extend(cases);
        } else if argument.exists() {
            let cases = vector::load_file(argument).map_err(|e| safe(&e.to_string()))?;
            selection
                .resolved
                .push(format!("file {shown}: {} cases", cases.len()));
            selection.cases.extend(cases);
        } else {
            let clause = argument.to_str().unwrap_or_default();
            if !embedded::clause_ids().iter().any(|id| id == clause) {
                return Err(format!(
                    "--cases {shown}: no such file or folder, and not a clause id of the {} \
                     (see `zarr-reshape vectors`)",
                    embedded::name()
                ));
            }
            if selection.unpacked.is_none() {
                selection.unpacked = Some(SuiteRoot::embedded(CASES)?);
            }
            let Some(root) = &selection.unpacked else {
                return Err("the embedded suite is not unpacked".into());
            };
            let (cases, _) = load_below(root, root.path())?;
            let cases: Vec<Case> = cases
                .into_iter()
                .filter(|case| case.clauses.first().is_some_and(|first| first == clause))
                .collect();
            selection.resolved.push(format!(
                "clause {shown} of the {}: its {} cases (those whose first clause it is)",
                embedded::name(),
                cases.len()
            ));
            selection.cases.extend(cases);
        }
    }
    Ok(selection)
}

/// Every case below `folder` (of the suite `root`), and the number of files read.
fn load_below(root: &SuiteRoot, folder: &Path) -> Result<(Vec<Case>, usize), String> {
    let found = vector::discover_below(folder)
        .map_err(|e| root.describe(&format!("{}: {e}", folder.display())))?;
    for link in &found.skipped_links {
        eprintln!(
            "zarr-reshape: warning: {}: a link to a folder, not followed",
            root.describe(&link.display().to_string())
        );
    }
    let mut cases = Vec::new();
    for file in &found.files {
        cases.extend(vector::load_file(file).map_err(|e| root.describe(&e.to_string()))?);
    }
    Ok((cases, found.files.len()))
}
