//! One case: read the request, ask zarrs, answer.

use std::num::NonZeroU64;

use serde_json::{Value, json};
use zarrs::array::{ArrayIndices, ArraySubset};

use crate::answer::{Answer, Step};
use crate::array::{self, Element};
use crate::codec::{self, Codecs, Shape};
use crate::rawjson::Raw;

/// The most elements a `map-region` answer may list (zarrs holds each as a `Vec`).
const MAX_REGION: u64 = 1 << 20;

/// The longest answer line the adapter writes; the protocol's limit is 16 MiB.
const MAX_LINE: u64 = 15 << 20;

/// Answers one case. `line` is the whole request, for reading array elements exactly.
pub fn run(case: &Value, line: &str) -> Answer {
    match answer(case, line) {
        Ok(answer) | Err(answer) => answer,
    }
}

fn answer(case: &Value, line: &str) -> Step<Answer> {
    let operation = case.get("operation").and_then(Value::as_str);
    let operation = operation.ok_or_else(|| Answer::Errored("the case has no operation".into()))?;
    if !crate::OPERATIONS.contains(&operation) {
        return Err(Answer::Skipped(format!("unknown operation {operation:?}")));
    }
    if operation == "read-array" {
        // A whole array on disk, through zarrs' `Array` API (src/read.rs).
        return crate::read::answer(case).map(Answer::Output);
    }
    if operation == "resolve-grid" {
        // A codecs list against every chunk of a grid (src/grid.rs).
        return crate::grid::answer(case).map(Answer::Output);
    }
    if operation == "resolve-chain" {
        // A whole codecs list, through zarrs' codec chain (src/chain.rs).
        let decoded = decoded_shape(case.get("decoded_shape"))?;
        return crate::chain::answer(case, decoded).map(Answer::Output);
    }
    // As zarrs opens an array: the codec from the metadata first, then a chunk.
    let codecs = codec::build(&codec_entry(case)?)?;
    let decoded = decoded_shape(case.get("decoded_shape"))?;
    let shapes = codec::shapes(&codecs, decoded)?;
    let output = match operation {
        "resolve" => json!({"encoded_shape": codec::encoded(&shapes)}),
        "encode" | "decode" => {
            let (element, data_type, bytes) = input(case, line)?;
            let data_type = (element, &data_type);
            match operation {
                "encode" => codec::encode(&codecs, &shapes, data_type, bytes)?,
                _ => codec::decode(&codecs, &shapes, data_type, bytes)?,
            }
        }
        "map-index" => {
            let index = coordinates(case.get("decoded_index"), "decoded_index")?;
            let positions = codec::map(&codecs, &shapes, &vec![index])?;
            let position = positions.into_iter().next();
            let position =
                position.ok_or_else(|| Answer::Errored("zarrs returned no element".into()))?;
            json!({"encoded_index": position})
        }
        _ => json!({"encoded_indices": map_region(case, &codecs, &shapes)?}),
    };
    Ok(Answer::Output(output))
}

/// The codec entry as it would stand in zarr.json's `codecs`: the case's `codec`
/// object, or `{"name": "reshape", "configuration": ...}`.
fn codec_entry(case: &Value) -> Step<Value> {
    if let Some(codec) = case.get("codec") {
        return Ok(codec.clone());
    }
    match case.get("configuration") {
        Some(configuration) => Ok(json!({"name": "reshape", "configuration": configuration})),
        None => Err(Answer::Errored(
            "the case has neither configuration nor codec".into(),
        )),
    }
}

/// The decoded (chunk) shape, as zarrs takes it: extents of type `NonZeroU64`.
fn decoded_shape(value: Option<&Value>) -> Step<Shape> {
    let extents = value.and_then(Value::as_array);
    let extents = extents.ok_or_else(|| Answer::Errored("decoded_shape is not an array".into()))?;
    extents
        .iter()
        .map(|extent| match extent.as_u64() {
            Some(n) => NonZeroU64::new(n).ok_or_else(|| {
                Answer::Skipped(
                    "zarrs takes chunk shapes as NonZeroU64: a zero extent cannot be passed".into(),
                )
            }),
            None if extent.is_number() => Err(Answer::Skipped(format!(
                "zarrs takes chunk extents as NonZeroU64: the extent read as {extent} \
                 cannot be passed (serde_json without arbitrary_precision reads an integer \
                 beyond u64 as a float)"
            ))),
            None => Err(Answer::Errored(format!("decoded_shape holds {extent}"))),
        })
        .collect()
}

/// A decoded index or a region's corner: zarrs' indexers take `u64` coordinates.
fn coordinates(value: Option<&Value>, what: &str) -> Step<ArrayIndices> {
    let values = value.and_then(Value::as_array);
    let values = values.ok_or_else(|| Answer::Errored(format!("{what} is not an array")))?;
    values
        .iter()
        .map(|coordinate| match coordinate.as_u64() {
            Some(n) => Ok(n),
            None if coordinate.is_number() => Err(Answer::Skipped(format!(
                "zarrs' indexers take u64 coordinates: {coordinate} in {what} cannot be passed \
                 (a negative number, or one beyond u64 that serde_json reads as a float)"
            ))),
            None => Err(Answer::Errored(format!("{what} holds {coordinate}"))),
        })
        .collect()
}

/// `map-region`: the box as zarrs' `ArraySubset::new_with_start_end_exc` (a half-open
/// box from its corners), read through zarrs' partial decoder.
fn map_region(case: &Value, codecs: &Codecs, shapes: &[Shape]) -> Step<Vec<Vec<u64>>> {
    let region = case.get("decoded_region");
    let start = coordinates(region.and_then(|r| r.get("start")), "decoded_region.start")?;
    let stop = coordinates(region.and_then(|r| r.get("stop")), "decoded_region.stop")?;
    let subset = ArraySubset::new_with_start_end_exc(start, stop)
        .map_err(|error| Answer::Error(error.to_string()))?;
    let count = subset
        .shape()
        .iter()
        .try_fold(1u64, |n, &extent| n.checked_mul(extent));
    let decoded = shapes
        .first()
        .map(|shape| codec::plain(shape))
        .unwrap_or_default();
    let line = count.and_then(|n| n.checked_mul(index_text_len(&codec::encoded(shapes))));
    // zarrs rejects an out-of-bounds box before it lists its elements; an in-bounds
    // box too large to answer is skipped rather than listed.
    let too_large = count.is_none_or(|n| n > MAX_REGION) || line.is_none_or(|n| n > MAX_LINE);
    if too_large && subset.inbounds_shape(&decoded) {
        return Err(Answer::Skipped(format!(
            "the box {subset} holds too many elements for one answer line \
             (at most {MAX_REGION}, in at most {MAX_LINE} bytes)"
        )));
    }
    codec::map(codecs, shapes, &subset)
}

/// The case's `input`: its element type, zarrs' data type, and its elements as bytes,
/// read from the request's text so that every number is exact.
fn input(case: &Value, line: &str) -> Step<(Element, zarrs::array::DataType, Vec<u8>)> {
    let input = case.get("input");
    let name = input
        .and_then(|i| i.get("data_type"))
        .and_then(Value::as_str);
    let name = name.ok_or_else(|| Answer::Errored("input.data_type is not a string".into()))?;
    let (element, data_type) = array::data_type(name)?;
    let shape: Option<Vec<u64>> = input
        .and_then(|i| i.get("shape"))
        .and_then(Value::as_array)
        .and_then(|extents| extents.iter().map(Value::as_u64).collect());
    let shape = shape.ok_or_else(|| Answer::Errored("input.shape is not a list of u64".into()))?;
    let raw = Raw::parse(line).map_err(|e| Answer::Errored(format!("reading the request: {e}")))?;
    let data = raw
        .get("case")
        .and_then(|c| c.get("input"))
        .and_then(|i| i.get("data"));
    let data = data.ok_or_else(|| Answer::Errored("the case has no input.data".into()))?;
    let bytes = array::to_bytes(element, &shape, data)
        .map_err(|e| Answer::Errored(format!("input.data: {e}")))?;
    Ok((element, data_type, bytes))
}

/// The most characters one encoded index of `shape` takes in an answer: `[a,b],`.
fn index_text_len(shape: &[u64]) -> u64 {
    let digits =
        |extent: u64| u64::from(extent.saturating_sub(1).checked_ilog10().unwrap_or(0)) + 1;
    shape.iter().map(|&extent| digits(extent) + 1).sum::<u64>() + 2
}
