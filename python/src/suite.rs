//! The suite for Python test runners: the cases of a vector folder (the embedded
//! suite exported, or any `--cases` folder), judged by the runner's own judge,
//! with known failures from the runner's own expectations format.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use serde_json::Value;
use zarr_reshape_conformance::run::{Expectations, breaks_run};
use zarr_reshape_conformance::vector::{self, Case};
use zarr_reshape_conformance::{Answer, ClassCheck, judge};

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(export_suite, module)?)?;
    module.add_function(wrap_pyfunction!(clauses_json, module)?)?;
    module.add_class::<Suite>()?;
    Ok(())
}

/// Writes the embedded suite (vector files, array fixtures, `clauses.json`, a
/// manifest) to `folder`, which must not exist yet or be empty; returns the
/// number of files written. Nothing is written outside it.
#[pyfunction]
fn export_suite(folder: PathBuf) -> PyResult<usize> {
    vector::export::export(&folder)
        .map(|exported| exported.files)
        .map_err(|error| PyOSError::new_err(error.to_string()))
}

/// The embedded clause registry (`clauses.json`), as JSON text.
#[pyfunction]
fn clauses_json() -> &'static str {
    zarr_reshape_harness::vectors::clauses_json()
}

/// id, level, operation, clauses, interpretations, description, wire JSON text.
type CaseRow = (
    String,
    String,
    &'static str,
    Vec<String>,
    Vec<String>,
    String,
    String,
);

/// The cases of a vector folder, in file order.
#[pyclass(module = "zarr_reshape._native", frozen)]
pub struct Suite {
    cases: Vec<Case>,
    by_id: HashMap<String, usize>,
}

#[pymethods]
impl Suite {
    /// Reads every vector file below `root` (a folder holding `clauses.json`), as
    /// `zarr-reshape run --cases ROOT` does: read-array paths become absolute.
    #[new]
    fn new(root: PathBuf) -> PyResult<Self> {
        let cases = load(&root)?;
        let mut by_id = HashMap::new();
        for (index, case) in cases.iter().enumerate() {
            if by_id.insert(case.id.clone(), index).is_some() {
                return Err(PyValueError::new_err(format!(
                    "two cases have the id {}",
                    case.id
                )));
            }
        }
        Ok(Self { cases, by_id })
    }

    /// Every case as a tuple: id, level, operation, clauses, interpretations,
    /// description, and the JSON text an adapter would be sent (array paths absolute).
    fn cases(&self) -> Vec<CaseRow> {
        self.cases
            .iter()
            .map(|case| {
                (
                    case.id.clone(),
                    case.level.clone(),
                    case.operation.name(),
                    case.clauses.clone(),
                    case.interpretations.clone(),
                    case.description.clone(),
                    vector::wire_json(case).to_string(),
                )
            })
            .collect()
    }

    /// Judges an answer (the protocol's `result` object as JSON text: the output
    /// members themselves, e.g. `{"encoded_shape": [6, 4]}`, or `{"error": {"class",
    /// "message"}}`, `{"skipped": {"reason"}}`, `{"errored": {"message"}}`,
    /// `{"crashed": {"message"}}`) as the runner does with
    /// `--strict-classes` when `strict`: the outcome's name (`pass`, `fail`,
    /// `error`, `crash`, `skip`) and its reason.
    #[pyo3(signature = (case_id, result, strict = false))]
    fn judge(&self, case_id: &str, result: &str, strict: bool) -> PyResult<(&'static str, String)> {
        let case = self.case(case_id)?;
        let result: Value = serde_json::from_str(result)
            .map_err(|error| PyValueError::new_err(format!("the result is not JSON: {error}")))?;
        let classes = if strict {
            ClassCheck::Strict
        } else {
            ClassCheck::WhenNamed
        };
        let outcome = judge(case, &Answer::from_json(&result), classes);
        Ok((outcome.name(), outcome.reason().to_string()))
    }

    /// Reads an expectations file's text (the runner's format, checked as the
    /// runner checks it against these cases): case id -> (reason, listed outcome).
    fn expectations(&self, text: &str) -> PyResult<HashMap<String, (String, &'static str)>> {
        let expectations = Expectations::parse(text).map_err(PyValueError::new_err)?;
        expectations
            .check_clauses(&self.cases)
            .map_err(PyValueError::new_err)?;
        Ok(self
            .cases
            .iter()
            .filter_map(|case| {
                let known = expectations.known(&case.id)?;
                Some((
                    case.id.clone(),
                    (known.reason.clone(), known.outcome.name()),
                ))
            })
            .collect())
    }

    /// Whether a case that ended in `outcome` (with `reason`) breaks a run, given
    /// the expectations text: the runner's rule, for `run` and `fuzz` alike.
    #[pyo3(signature = (case_id, outcome, reason, expectations = None))]
    fn breaks_run(
        &self,
        case_id: &str,
        outcome: &str,
        reason: &str,
        expectations: Option<&str>,
    ) -> PyResult<bool> {
        let case = self.case(case_id)?;
        let outcome = outcome_named(outcome, reason)?;
        let expectations = expectations
            .map(Expectations::parse)
            .transpose()
            .map_err(PyValueError::new_err)?;
        let known = expectations
            .as_ref()
            .and_then(|expectations| expectations.known(case_id));
        Ok(breaks_run(&case.level, &outcome, known))
    }
}

impl Suite {
    fn case(&self, id: &str) -> PyResult<&Case> {
        self.by_id
            .get(id)
            .and_then(|index| self.cases.get(*index))
            .ok_or_else(|| PyValueError::new_err(format!("no case has the id {id:?}")))
    }
}

fn outcome_named(name: &str, reason: &str) -> PyResult<zarr_reshape_conformance::Outcome> {
    use zarr_reshape_conformance::Outcome;
    let reason = reason.to_string();
    Ok(match name {
        "pass" => Outcome::Pass,
        "fail" => Outcome::Fail(reason),
        "error" => Outcome::Error(reason),
        "crash" => Outcome::Crash(reason),
        "skip" => Outcome::Skip(reason),
        other => {
            return Err(PyValueError::new_err(format!(
                "{other:?} is not an outcome"
            )));
        }
    })
}

fn load(root: &Path) -> PyResult<Vec<Case>> {
    let files = vector::discover(root)
        .map_err(|error| PyOSError::new_err(format!("{}: {error}", root.display())))?;
    let mut cases = Vec::new();
    for file in files {
        cases.extend(
            vector::load_file(&file).map_err(|error| PyValueError::new_err(error.to_string()))?,
        );
    }
    Ok(cases)
}
