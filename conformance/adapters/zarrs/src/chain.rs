//! `resolve-chain`: a whole `codecs` list, as zarrs opens it from zarr.json
//! (`CodecChain::from_metadata`), resolved for the case's chunk shape through zarrs'
//! public codec API: each array-to-array codec's `encoded_shape` of the shape the
//! one before it encoded to, then the array-to-bytes codec's `encoded_representation`
//! of the last (zarrs' own check of the shape it is handed: for `sharding_indexed`,
//! its inner chain and chunks per shard). For sharding, the inner chain is resolved
//! the same way for the inner chunk shape, read back from the codec's own
//! configuration (`configuration_v3`): zarrs encodes each inner chunk of that shape.

use std::num::NonZeroU64;

use serde_json::{Value, json};
use zarrs::array::codec::ShardingCodec;
use zarrs::array::codec::api::CodecMetadataOptions;
use zarrs::array::{CodecChain, DataType, FillValue};
use zarrs::metadata::v3::MetadataV3;

use crate::answer::{Answer, Step};
use crate::array::{self, Element};
use crate::codec::{Shape, plain};
use crate::panics::guard;

/// Shards nested deeper than this are not followed (the JSON holds them all anyway).
const MAX_DEPTH: usize = 16;

fn zarrs_error(error: impl std::fmt::Display) -> Answer {
    Answer::Error(error.to_string())
}

/// Answers a `resolve-chain` case: `{"encoded_shapes": [...]}`, with `inner` for sharding.
pub fn answer(case: &Value, decoded: Shape) -> Step<Value> {
    let codecs = case.get("codecs").cloned();
    let codecs = codecs.ok_or_else(|| Answer::Errored("the case has no codecs".into()))?;
    let name = case.get("data_type").and_then(Value::as_str);
    let name = name.ok_or_else(|| Answer::Errored("data_type is not a string".into()))?;
    let (element, data_type) = array::data_type(name)?;
    // As zarr.json's `codecs` is read: a list of MetadataV3 entries.
    let metadata: Vec<MetadataV3> =
        guard(|| serde_json::from_value(codecs))?.map_err(zarrs_error)?;
    resolve(&metadata, decoded, (element, &data_type), 0)
}

pub fn resolve(
    metadata: &[MetadataV3],
    decoded: Shape,
    (element, data_type): (Element, &DataType),
    depth: usize,
) -> Step<Value> {
    let chain = guard(|| CodecChain::from_metadata(metadata))?.map_err(zarrs_error)?;
    let mut shape = decoded;
    let mut shapes = Vec::new();
    for codec in chain.array_to_array_codecs() {
        let handed = shape.clone();
        shape = guard(|| codec.encoded_shape(&handed))?.map_err(zarrs_error)?;
        shapes.push(plain(&shape));
    }
    let to_bytes = chain.array_to_bytes_codec();
    let fill_value = FillValue::from(vec![0u8; element.size()]);
    guard(|| to_bytes.encoded_representation(&shape, data_type, &fill_value))?
        .map_err(zarrs_error)?;
    let mut output = json!({"encoded_shapes": shapes});
    if let Some(sharding) = to_bytes.as_any().downcast_ref::<ShardingCodec>() {
        if depth >= MAX_DEPTH {
            return Err(Answer::Skipped(format!(
                "sharding nested more than {MAX_DEPTH} deep"
            )));
        }
        let (inner_shape, inner_codecs) = inner(sharding)?;
        output["inner"] = resolve(&inner_codecs, inner_shape, (element, data_type), depth + 1)?;
    }
    Ok(output)
}

/// The inner chunk shape and inner codecs of a sharding codec, from zarrs' own
/// metadata of it.
pub fn inner(sharding: &ShardingCodec) -> Step<(Shape, Vec<MetadataV3>)> {
    use zarrs::array::codec::api::CodecTraits;
    let configuration = guard(|| sharding.configuration_v3(&CodecMetadataOptions::default()))?;
    let configuration = configuration
        .ok_or_else(|| Answer::Errored("zarrs gives the sharding codec no configuration".into()))?;
    let configuration = serde_json::to_value(configuration)
        .map_err(|e| Answer::Errored(format!("the sharding configuration: {e}")))?;
    let chunk_shape: Option<Shape> = configuration
        .get("chunk_shape")
        .and_then(Value::as_array)
        .and_then(|extents| {
            extents
                .iter()
                .map(|extent| extent.as_u64().and_then(NonZeroU64::new))
                .collect()
        });
    let chunk_shape = chunk_shape
        .ok_or_else(|| Answer::Errored("the sharding configuration has no chunk_shape".into()))?;
    let codecs = configuration.get("codecs").cloned().unwrap_or(Value::Null);
    let codecs: Vec<MetadataV3> = serde_json::from_value(codecs)
        .map_err(|e| Answer::Errored(format!("the sharding configuration's codecs: {e}")))?;
    Ok((chunk_shape, codecs))
}
