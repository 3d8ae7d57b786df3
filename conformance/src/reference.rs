//! The embedded reference: runs a case through the `zarr-reshape` library.

use serde_json::{Map, Value};
use zarr_reshape::{Argument, ReshapeCodec, ReshapeConfiguration, ReshapeError};

use crate::answer::Answer;
use crate::arrays::TypedArray;
use crate::map_typed;
use crate::vector::{Case, CodecJson, Operation};

/// The most elements a `map-region` case may select.
pub const MAX_REGION_ELEMENTS: u64 = 1 << 20;

/// Runs one case through the reference implementation.
#[must_use]
pub fn run(case: &Case) -> Answer {
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
    }
    Ok(output)
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
