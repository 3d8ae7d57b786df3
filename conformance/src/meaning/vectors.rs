//! Generated vectors: cases sampled from the domain and written as vector files
//! (format 1) under `spec-cases/generated/`, one file per outcome of the reference.
//!
//! The expectations are the reference's verdict (the literal MUST text), widened to
//! every class of a rule the pair breaks (reading I-8 leaves the order of the checks
//! open). They pin the reference's behaviour for other implementations; the
//! hand-written vectors are what check the reference itself.

use std::collections::BTreeMap;

use super::compare::Comparison;
use super::domain::{Domain, Pair};
use super::sampled::{Case, Key};

/// About how many pairs of each outcome are sampled at an even stride.
pub const CASES_PER_FILE: usize = 500;

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorFile {
    /// The file name inside `spec-cases/generated/`.
    pub name: String,
    /// How many cases it holds.
    pub cases: usize,
    /// Its text, byte for byte.
    pub text: String,
}

/// Samples the domain and renders the files, sorted by name; cases in each file
/// follow the domain's enumeration.
///
/// The sample, per file (outcome of the reference): every `stride`-th pair of that
/// outcome in the domain's order, the stride chosen so that about
/// `CASES_PER_FILE` are taken; plus the smallest pair of every kind in
/// `comparison`, and the smallest pair of every combination of outcome, clauses,
/// acceptable classes, readings and level.
#[must_use]
pub fn generate(domain: &Domain, comparison: &Comparison) -> Vec<VectorFile> {
    let mut by_file: BTreeMap<String, Vec<Pair<'_>>> = BTreeMap::new();
    let mut smallest: BTreeMap<Key, Case> = BTreeMap::new();
    for pair in domain.pairs() {
        let case = Case::new(pair.index, pair.configuration, pair.a_shape);
        by_file.entry(case.file()).or_default().push(pair);
        let key = case.key();
        if smallest
            .get(&key)
            .is_none_or(|best| case.size_key() < best.size_key())
        {
            smallest.insert(key, case);
        }
    }
    let mut chosen: BTreeMap<usize, Case> = BTreeMap::new();
    for pairs in by_file.values() {
        let stride = pairs.len().div_ceil(CASES_PER_FILE).max(1);
        for pair in pairs.iter().step_by(stride) {
            let case = Case::new(pair.index, pair.configuration, pair.a_shape);
            chosen.insert(pair.index, case);
        }
    }
    for case in smallest.into_values() {
        chosen.insert(case.index, case);
    }
    for stats in comparison.kinds.values() {
        let example = &stats.example;
        chosen.insert(
            example.index,
            Case::new(example.index, &example.configuration, &example.a_shape),
        );
    }
    let mut files: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for case in chosen.values() {
        files.entry(case.file()).or_default().push(case.to_text());
    }
    files
        .into_iter()
        .map(|(name, cases)| VectorFile {
            name,
            cases: cases.len(),
            text: format!(
                "{{\n  \"format\": 1,\n  \"cases\": [\n{}\n  ]\n}}\n",
                cases.join(",\n")
            ),
        })
        .collect()
}
