//! The embedded reference: runs a case through the `zarr-reshape` library.

use std::path::Path;

use serde_json::{Map, Value};
use zarr_reshape::{Argument, ReshapeCodec, ReshapeConfiguration, ReshapeError};

use crate::answer::Answer;
use crate::arrays::TypedArray;
use crate::map_typed;
use crate::vector::{Case, CodecJson, Operation};
use crate::zarr;

/// The most elements a `map-region` case may select.
pub const MAX_REGION_ELEMENTS: u64 = 1 << 20;

/// Runs one case through the reference implementation.
#[must_use]
pub fn run(case: &Case) -> Answer {
    if let Operation::ReadArray { path, region, .. } = &case.operation {
        return read_array(path, region.as_ref());
    }
    match execute(case) {
        Ok(output) => Answer::Output(output),
        Err(error) => Answer::Error {
            class: Some(error.class().as_str().to_string()),
            message: error.to_string(),
        },
    }
}

fn execute(case: &Case) -> Result<Map<String, Value>, ReshapeError> {
    let configuration = match &case.codec {
        CodecJson::Configuration(json) => ReshapeConfiguration::from_configuration_json(json)?,
        CodecJson::Codec(json) => ReshapeConfiguration::from_codec_json(json)?,
    };
    let codec = ReshapeCodec::new(configuration, &case.decoded_shape)?;
    let mut output = Map::new();
    match &case.operation {
        Operation::Resolve => {
            output.insert(
                "encoded_shape".into(),
                Value::from(codec.encoded_shape().to_vec()),
            );
        }
        Operation::Encode(array) => {
            let encoded = map_typed!(array, |a| codec.encode(a).map(|b| b.into_owned()))?;
            insert_array(&mut output, &encoded);
        }
        Operation::Decode(array) => {
            let decoded = map_typed!(array, |a| codec.decode(a).map(|b| b.into_owned()))?;
            insert_array(&mut output, &decoded);
        }
        Operation::MapIndex(index) => {
            let index = unsigned(index, Argument::DecodedIndex)?;
            output.insert(
                "encoded_index".into(),
                Value::from(codec.encoded_index(&index)?),
            );
        }
        Operation::MapRegion { start, stop } => {
            let mut indices = Vec::new();
            let mut budget = MAX_REGION_ELEMENTS;
            let start = unsigned(start, Argument::DecodedRegion)?;
            let stop = unsigned(stop, Argument::DecodedRegion)?;
            for run in codec.region_runs(&start, &stop)? {
                for offset in (run.offset..).take(usize::try_from(run.len).unwrap_or(usize::MAX)) {
                    budget = budget
                        .checked_sub(1)
                        .ok_or_else(|| ReshapeError::Overflow {
                            what: format!(
                                "a box of more than {MAX_REGION_ELEMENTS} elements in a vector"
                            ),
                        })?;
                    indices.push(Value::from(codec.encoded_index_at(offset)?));
                }
            }
            output.insert("encoded_indices".into(), Value::Array(indices));
        }
        // Answered by `read_array`, through the whole codec chain.
        Operation::ReadArray { .. } => {}
    }
    Ok(output)
}

/// Reads a Zarr array (or a box of it) through its codec chain (`crate::zarr`): the
/// array's values, or the class of what stopped the reader.
fn read_array(path: &Path, region: Option<&(Vec<u64>, Vec<u64>)>) -> Answer {
    let region = region.map(|(start, stop)| (start.as_slice(), stop.as_slice()));
    match zarr::read_array(path, region) {
        Ok(array) => {
            let mut output = Map::new();
            insert_array(&mut output, &array);
            Answer::Output(output)
        }
        Err(error) => Answer::Error {
            class: Some(error.class.as_str().to_string()),
            message: error.message,
        },
    }
}

/// The library takes unsigned coordinates; a negative one lies outside any array.
fn unsigned(coordinates: &[i128], argument: Argument) -> Result<Vec<u64>, ReshapeError> {
    coordinates
        .iter()
        .enumerate()
        .map(|(dim, coordinate)| {
            u64::try_from(*coordinate).map_err(|_| ReshapeError::OutOfBounds {
                argument,
                detail: format!("coordinate {coordinate} along dimension {dim} is negative"),
            })
        })
        .collect()
}

fn insert_array(output: &mut Map<String, Value>, array: &TypedArray) {
    output.insert("shape".into(), Value::from(array.shape()));
    output.insert("data".into(), array.to_json());
}
