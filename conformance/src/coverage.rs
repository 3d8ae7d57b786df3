//! Checks over the whole suite that a schema cannot express: unique ids, ids that
//! match their files, known clauses and readings, every MUST clause and every
//! error class exercised, and every MUST and should clause quoting the spec.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use zarr_reshape::ErrorClass;

use crate::registry::Registry;
use crate::vector::{Case, Expectation};

/// The folder of generated vectors, exempt from the one-case-per-file rule.
pub const GENERATED: &str = "generated";

/// A problem found, with the file and JSON pointer where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file, or the suite root for problems of the whole suite.
    pub path: PathBuf,
    /// JSON pointer inside the file.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if !self.pointer.is_empty() {
            write!(f, " at {}", self.pointer)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// How many cases accept and reject under each clause (their first clause).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases that expect success.
    pub accepting: usize,
    /// Cases that expect an error.
    pub rejecting: usize,
    /// Cases that admit either (`any_of` with both).
    pub either: usize,
}

/// Counts, per first clause, the accepting and rejecting cases.
#[must_use]
pub fn tally<'a>(cases: impl IntoIterator<Item = &'a Case>) -> BTreeMap<String, Tally> {
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for case in cases {
        let Some(first) = case.clauses.first() else {
            continue;
        };
        let entry = tallies.entry(first.clone()).or_default();
        let (accepts, rejects) = verdicts(&case.expect);
        let counter = match (accepts, rejects) {
            (true, false) => &mut entry.accepting,
            (false, true) => &mut entry.rejecting,
            _ => &mut entry.either,
        };
        *counter = counter.saturating_add(1);
    }
    tallies
}

/// Whether an expectation admits success, and whether it admits an error.
fn verdicts(expect: &Expectation) -> (bool, bool) {
    match expect {
        Expectation::Output(_) => (true, false),
        Expectation::Error(_) => (false, true),
        Expectation::AnyOf(options) => options
            .iter()
            .map(verdicts)
            .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1)),
    }
}

fn error_classes(expect: &Expectation, into: &mut BTreeSet<String>) {
    match expect {
        Expectation::Output(_) => {}
        Expectation::Error(classes) => into.extend(classes.iter().cloned()),
        Expectation::AnyOf(options) => options
            .iter()
            .for_each(|option| error_classes(option, into)),
    }
}

/// Every problem of the suite below `root`, given its files and their cases.
#[must_use]
pub fn check(root: &Path, registry: &Registry, files: &[(PathBuf, Vec<Case>)]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut seen: BTreeMap<&str, &Path> = BTreeMap::new();
    let mut classes = BTreeSet::new();
    for (path, cases) in files {
        let problem = |pointer: String, message: String| Problem {
            path: path.clone(),
            pointer,
            message,
        };
        let relative = path.strip_prefix(root).unwrap_or(path);
        let folder = relative.parent().and_then(Path::to_str).unwrap_or_default();
        let stem = relative
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let hand_written = folder != GENERATED;
        if hand_written && cases.len() != 1 {
            problems.push(problem(
                String::new(),
                format!(
                    "a hand-written file holds one case, this one {}",
                    cases.len()
                ),
            ));
        }
        for (i, case) in cases.iter().enumerate() {
            let at = |member: &str| format!("/cases/{i}{member}");
            if let Some(first) = seen.insert(&case.id, path) {
                problems.push(problem(
                    at("/id"),
                    format!("id {} is also used in {}", case.id, first.display()),
                ));
            }
            if hand_written && case.id != format!("{folder}/{stem}") {
                problems.push(problem(
                    at("/id"),
                    format!("id {} should be {folder}/{stem}, after its file", case.id),
                ));
            }
            if hand_written && case.clauses.first().map(String::as_str) != Some(folder) {
                problems.push(problem(
                    at("/clauses/0"),
                    format!("the first clause should be {folder}, the folder it is filed in"),
                ));
            }
            for (j, clause) in case.clauses.iter().enumerate() {
                if registry.clause(clause).is_none() {
                    problems.push(problem(
                        at(&format!("/clauses/{j}")),
                        format!("unknown clause {clause}"),
                    ));
                }
            }
            for (j, id) in case.interpretations.iter().enumerate() {
                if !registry.has_interpretation(id) {
                    problems.push(problem(
                        at(&format!("/interpretations/{j}")),
                        format!("unknown interpretation {id}"),
                    ));
                }
            }
            error_classes(&case.expect, &mut classes);
        }
    }
    let suite = |message: String| Problem {
        path: root.to_path_buf(),
        pointer: String::new(),
        message,
    };
    for class in &classes {
        if ErrorClass::from_name(class).is_none() {
            problems.push(suite(format!("unknown error class {class}")));
        }
    }
    for class in ErrorClass::ALL {
        if !classes.contains(class.as_str()) {
            problems.push(suite(format!("no case expects the error class {class}")));
        }
    }
    // Each MUST and should clause quotes the spec's sentence for it (its `text`),
    // which CONFORMANCE.md and the library's trace show.
    for clause in &registry.clauses {
        let normative = clause.level == "must" || clause.level == "should";
        if normative && clause.text.as_deref().is_none_or(str::is_empty) {
            problems.push(suite(format!(
                "the {} clause {} has no text quoting the spec",
                clause.level, clause.id
            )));
        }
    }
    let tallies = tally(files.iter().flat_map(|(_, cases)| cases));
    for clause in registry
        .clauses
        .iter()
        .filter(|clause| clause.level == "must")
    {
        let tally = tallies.get(&clause.id).copied().unwrap_or_default();
        if tally.accepting == 0 || tally.rejecting == 0 {
            problems.push(suite(format!(
                "the MUST clause {} needs accepting and rejecting cases; it has {} and {}",
                clause.id, tally.accepting, tally.rejecting
            )));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{ClauseEntry, SpecVersion};

    fn registry(text: Option<&str>) -> Registry {
        Registry {
            spec: SpecVersion {
                name: "zarr-extensions codecs/reshape".into(),
                commit: "7b87143".into(),
            },
            clauses: vec![ClauseEntry {
                id: "codec.name".into(),
                section: "Codec name".into(),
                level: "should".into(),
                text: text.map(str::to_owned),
                paraphrase: "The name is reshape.".into(),
                formula: None,
                interpretations: Vec::new(),
            }],
            interpretations: Vec::new(),
        }
    }

    fn text_problems(registry: &Registry) -> usize {
        check(Path::new("suite"), registry, &[])
            .iter()
            .filter(|problem| problem.message.contains("no text quoting the spec"))
            .count()
    }

    #[test]
    fn a_normative_clause_without_text_is_a_problem() {
        assert_eq!(text_problems(&registry(None)), 1);
        assert_eq!(text_problems(&registry(Some(""))), 1);
        assert_eq!(text_problems(&registry(Some("MUST be reshape."))), 0);
    }
}
