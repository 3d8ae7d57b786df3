//! When two disagreements are the same finding. The **kind** (operation, the
//! reference's deciding clause, level, expected result, the outcome and the kind
//! of answer) files a disagreement once, so the budget goes to finding others. The
//! **reason** is what shrinking must keep: the kind, and no clause or reading the
//! finding did not already touch. Without the second part a case that breaks one
//! rule shrinks into a corner where it also breaks another, or where a reading
//! (an empty `shape`, a 0-d decoded shape) decides it, and the vector printed is a
//! witness of something else: an implementation that refuses empty shapes would
//! pass it while keeping the bug the fuzzer found.

use std::collections::BTreeSet;

use crate::answer::Answer;
use crate::judge::Outcome;
use crate::vector::{Case, Expectation};

/// Why a case disagrees: its kind, and the clauses and readings it touches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    kind: String,
    clauses: BTreeSet<String>,
    readings: BTreeSet<String>,
}

impl Reason {
    /// The reason of `case`, answered `answer` and judged `outcome`.
    pub fn of(case: &Case, answer: &Answer, outcome: &Outcome) -> Self {
        Self {
            kind: kind(case, answer, outcome),
            clauses: case.clauses.iter().cloned().collect(),
            readings: case.interpretations.iter().cloned().collect(),
        }
    }

    /// The kind, which files the finding once.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// Whether `candidate`, a smaller case, disagrees for this reason: the same
    /// kind, and no clause or reading beyond this one's.
    pub fn admits(&self, candidate: &Self) -> bool {
        self.kind == candidate.kind
            && candidate.clauses.is_subset(&self.clauses)
            && candidate.readings.is_subset(&self.readings)
    }
}

/// Operation, the reference's clause, level and result, the outcome, and the kind
/// of the implementation's answer.
fn kind(case: &Case, answer: &Answer, outcome: &Outcome) -> String {
    let expected = match &case.expect {
        Expectation::Output(_) => "output".to_string(),
        Expectation::Error(classes) => classes.first().cloned().unwrap_or_default(),
        Expectation::AnyOf(_) => "any-of".into(),
    };
    let answered = match answer {
        Answer::Output(_) => "output".to_string(),
        Answer::Error { class, .. } => class.clone().unwrap_or_else(|| "unnamed".into()),
        Answer::Skipped { .. } => "skipped".into(),
        Answer::Errored { .. } => "errored".into(),
        Answer::Crashed { .. } => "crashed".into(),
    };
    let clause = case.clauses.first().map_or("", String::as_str);
    // A codec the reference rejects is the same finding whatever the operation.
    let operation = match &case.expect {
        Expectation::Error(_) if clause != "algorithm.ravel" => "codec",
        _ => case.operation.name(),
    };
    // The level too, so that shrinking never turns a MUST finding into one of a
    // lower level that no longer fails the run.
    format!(
        "{operation}/{clause}/{}/{expected}->{}:{answered}",
        case.level,
        outcome.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(kind: &str, clauses: &[&str], readings: &[&str]) -> Reason {
        Reason {
            kind: kind.into(),
            clauses: clauses.iter().map(|c| (*c).to_string()).collect(),
            readings: readings.iter().map(|r| (*r).to_string()).collect(),
        }
    }

    #[test]
    fn a_smaller_case_keeps_the_kind_and_adds_no_clause_or_reading() {
        let kind = "codec/core.must-understand/must/malformed-configuration->fail:output";
        let finding = reason(kind, &["core.must-understand", "shape.invariant"], &["I-5"]);
        assert!(finding.admits(&reason(kind, &["core.must-understand"], &["I-5"])));
        assert!(finding.admits(&finding.clone()));
        // Into the empty-shape corner on a 0-d decoded shape: readings I-2 and I-3.
        assert!(!finding.admits(&reason(
            kind,
            &["core.must-understand"],
            &["I-2", "I-3", "I-5"]
        )));
        // Another rule broken besides.
        assert!(!finding.admits(&reason(
            kind,
            &["core.must-understand", "input-dims.prefix"],
            &["I-5"]
        )));
        // Another outcome or answer.
        let other =
            "codec/core.must-understand/must/malformed-configuration->fail:element-count-mismatch";
        assert!(!finding.admits(&reason(other, &["core.must-understand"], &["I-5"])));
    }
}
