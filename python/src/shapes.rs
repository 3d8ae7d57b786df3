//! The shape operations: resolve, explain, map-index, map-region, resolve-chain.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};
use zarr_reshape::{
    Argument, ReshapeCodec, ReshapeConfiguration, ReshapeError, Runs, Verdict,
    broken_codec_rule_classes_json_str, broken_rule_classes_json_str, explain_codec_json_str,
    explain_json_str,
};
use zarr_reshape_conformance::DataType;
use zarr_reshape_conformance::zarr;

use crate::{refused, refused_class};

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(is_codec_object, module)?)?;
    module.add_function(wrap_pyfunction!(resolve, module)?)?;
    module.add_function(wrap_pyfunction!(explain, module)?)?;
    module.add_function(wrap_pyfunction!(broken_rules, module)?)?;
    module.add_function(wrap_pyfunction!(map_index, module)?)?;
    module.add_function(wrap_pyfunction!(unmap_index, module)?)?;
    module.add_function(wrap_pyfunction!(resolve_chain, module)?)?;
    module.add_class::<RegionIndices>()?;
    module.add_function(wrap_pyfunction!(map_region, module)?)?;
    Ok(())
}

/// Whether `text` is a whole codec object (`{"name": ..., "configuration": ...}`)
/// rather than a configuration member: a JSON object with a `name` member. A
/// configuration has no such member, so the two cannot be confused.
#[pyfunction]
pub fn is_codec_object(text: &str) -> bool {
    matches!(serde_json::from_str::<Value>(text), Ok(Value::Object(members)) if members.contains_key("name"))
}

/// The configuration in `text`, a configuration member or a whole codec object.
pub fn configuration(text: &str) -> PyResult<ReshapeConfiguration> {
    let parsed = if is_codec_object(text) {
        ReshapeConfiguration::from_codec_json_str(text)
    } else {
        ReshapeConfiguration::from_json_str(text)
    };
    parsed.map_err(|error| refused(&error))
}

/// The codec for `text` on the decoded shape `a_shape`.
pub fn codec(text: &str, a_shape: &[u64]) -> PyResult<ReshapeCodec> {
    ReshapeCodec::new(configuration(text)?, a_shape).map_err(|error| refused(&error))
}

/// `B_shape` for the configuration `text` and the decoded shape `a_shape`.
#[pyfunction]
fn resolve(text: &str, a_shape: Vec<u64>) -> PyResult<Vec<u64>> {
    Ok(codec(text, &a_shape)?.encoded_shape().to_vec())
}

/// The clause-by-clause resolution as JSON text: `a_shape`, `steps` (`clause`,
/// `at`, `detail`, `verdict`), `b_shape` or `error` (`class`, `clause`,
/// `position`, `message`), and `text` and `text_with_spec` (the CLI's lines,
/// the second quoting the spec's sentence for a broken rule).
#[pyfunction]
fn explain(text: &str, a_shape: Vec<u64>) -> String {
    let explanation = if is_codec_object(text) {
        explain_codec_json_str(text, &a_shape)
    } else {
        explain_json_str(text, &a_shape)
    };
    let steps: Vec<Value> = explanation
        .steps
        .iter()
        .map(|step| {
            json!({
                "clause": step.clause.id(),
                "at": step.at.map(|at| at.to_string()),
                "detail": step.detail,
                "verdict": match step.verdict {
                    Verdict::Defines => "defines",
                    Verdict::Holds => "holds",
                    Verdict::Violated => "violated",
                },
            })
        })
        .collect();
    let mut answer = json!({
        "a_shape": explanation.a_shape,
        "steps": steps,
        "text": explanation.to_string(),
        "text_with_spec": format!("{explanation:#}"),
    });
    if let Value::Object(members) = &mut answer {
        match &explanation.outcome {
            Ok(b_shape) => {
                members.insert("b_shape".into(), json!(b_shape));
            }
            Err(error) => {
                members.insert(
                    "error".into(),
                    json!({
                        "class": error.class().as_str(),
                        "clause": error.clause().id(),
                        "position": error.position().map(|position| position.to_string()),
                        "message": error.to_string(),
                    }),
                );
            }
        }
    }
    answer.to_string()
}

/// Every rule the configuration `text` breaks on `a_shape`, each evaluated on its
/// own (not only the first, where resolution stops): (clause id, error class) pairs.
#[pyfunction]
fn broken_rules(text: &str, a_shape: Vec<u64>) -> Vec<(&'static str, &'static str)> {
    let broken = if is_codec_object(text) {
        broken_codec_rule_classes_json_str(text, &a_shape)
    } else {
        broken_rule_classes_json_str(text, &a_shape)
    };
    broken
        .into_iter()
        .map(|(clause, class)| (clause.id(), class.as_str()))
        .collect()
}

/// The library takes unsigned coordinates; a negative one lies outside any
/// array (`out-of-bounds`, as the embedded reference answers it).
fn unsigned(coordinates: &[i128], argument: Argument) -> PyResult<Vec<u64>> {
    coordinates
        .iter()
        .enumerate()
        .map(|(dim, coordinate)| {
            u64::try_from(*coordinate).map_err(|_| {
                refused(&ReshapeError::OutOfBounds {
                    argument,
                    detail: format!(
                        "coordinate {coordinate} along dimension {dim} is not in 0..2^64"
                    ),
                })
            })
        })
        .collect()
}

/// The encoded coordinates of the decoded element at `index`.
#[pyfunction]
fn map_index(text: &str, a_shape: Vec<u64>, index: Vec<i128>) -> PyResult<Vec<u64>> {
    let index = unsigned(&index, Argument::DecodedIndex)?;
    codec(text, &a_shape)?
        .encoded_index(&index)
        .map_err(|error| refused(&error))
}

/// The decoded coordinates of the encoded element at `index`: the inverse of [`map_index`].
#[pyfunction]
fn unmap_index(text: &str, a_shape: Vec<u64>, index: Vec<i128>) -> PyResult<Vec<u64>> {
    let index = unsigned(&index, Argument::EncodedIndex)?;
    codec(text, &a_shape)?
        .decoded_index(&index)
        .map_err(|error| refused(&error))
}

/// The encoded coordinates of every element of a decoded box, in C order, one
/// at a time: memory stays constant whatever the box's size.
#[pyclass(module = "zarr_reshape._native")]
pub struct RegionIndices {
    codec: ReshapeCodec,
    runs: Runs,
    /// The next offset and the end of the current run.
    next: u64,
    end: u64,
}

#[pymethods]
impl RegionIndices {
    fn __iter__(this: PyRef<'_, Self>) -> PyRef<'_, Self> {
        this
    }

    fn __next__(&mut self) -> PyResult<Option<Vec<u64>>> {
        while self.next >= self.end {
            let Some(run) = self.runs.next() else {
                return Ok(None);
            };
            self.next = run.offset;
            self.end = run.offset.checked_add(run.len).ok_or_else(|| {
                PyValueError::new_err(
                    "a run of the region ends beyond 2^64 (a bug of the reference)",
                )
            })?;
        }
        let index = self
            .codec
            .encoded_index_at(self.next)
            .map_err(|error| refused(&error))?;
        self.next = self.next.saturating_add(1);
        Ok(Some(index))
    }
}

/// The encoded coordinates of the decoded box `start..stop`, lazily.
#[pyfunction]
fn map_region(
    text: &str,
    a_shape: Vec<u64>,
    start: Vec<i128>,
    stop: Vec<i128>,
) -> PyResult<RegionIndices> {
    let start = unsigned(&start, Argument::DecodedRegion)?;
    let stop = unsigned(&stop, Argument::DecodedRegion)?;
    let codec = codec(text, &a_shape)?;
    let runs = codec
        .region_runs(&start, &stop)
        .map_err(|error| refused(&error))?;
    Ok(RegionIndices {
        codec,
        runs,
        next: 0,
        end: 0,
    })
}

/// Every step's encoded shape for a whole `codecs` list (JSON text), the chunk
/// shape and the data type: the `resolve-chain` output as JSON text.
#[pyfunction]
fn resolve_chain(codecs: &str, chunk_shape: Vec<u64>, data_type: &str) -> PyResult<String> {
    let data_type = DataType::from_name(data_type).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{data_type:?} is not one of the suite's data types"
        ))
    })?;
    let codecs: Value = serde_json::from_str(codecs).map_err(|error| {
        refused_class(
            "malformed-configuration",
            format!("the codecs are not JSON: {error}"),
        )
    })?;
    match zarr::resolve_chain(&codecs, &chunk_shape, data_type) {
        Ok(shapes) => Ok(Value::Object(shapes.to_json()).to_string()),
        Err(error) if error.is_unsupported() => Err(
            pyo3::exceptions::PyNotImplementedError::new_err(error.message),
        ),
        Err(error) => Err(refused_class(error.class.as_str(), error.message)),
    }
}
