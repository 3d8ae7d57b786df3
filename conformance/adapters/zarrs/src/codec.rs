//! zarrs' side: the codec built from its metadata, its encoded shape, encode and
//! decode through its array-to-array interface, and its partial decoder. Every call
//! into zarrs goes through `guard`, so that a panic becomes an answer.

use std::num::NonZeroU64;
use std::sync::Arc;

use serde_json::{Value, json};
use zarrs::array::{
    ArrayBytes, ArrayPartialDecoderTraits, ArrayToArrayCodecTraits, CodecChain, CodecOptions,
    DataType, FillValue, Indexer,
};
use zarrs::metadata::v3::MetadataV3;

use crate::answer::{Answer, Step};
use crate::array::{self, Element};
use crate::panics::guard;
use crate::probe::Probe;

/// The array-to-array codecs of a chain (one for a reshape entry, none when zarrs
/// ignores the entry).
pub type Codecs = Vec<Arc<dyn ArrayToArrayCodecTraits>>;

/// A shape as zarrs takes it (chunk extents are never zero).
pub type Shape = Vec<NonZeroU64>;

/// zarrs' error text, as an error answer.
fn zarrs_error(error: impl std::fmt::Display) -> Answer {
    Answer::Error(error.to_string())
}

/// Builds the codec of one entry of an array's `codecs` as zarrs does when it opens
/// the array (`zarrs-0.23.14/src/array.rs:466`): the entry is read as a `MetadataV3`,
/// as zarr.json is read, then `CodecChain::from_metadata` picks the codec plugin by
/// name and creates it from the configuration (`codec_chain.rs:118`), and skips an
/// unknown codec whose `must_understand` is false. A `bytes` entry completes the
/// chain, since zarrs requires exactly one array-to-bytes codec.
pub fn build(entry: &Value) -> Step<Codecs> {
    let metadata: MetadataV3 =
        guard(|| serde_json::from_value(entry.clone()))?.map_err(zarrs_error)?;
    let bytes: MetadataV3 =
        serde_json::from_value(json!({"name": "bytes", "configuration": {"endian": "little"}}))
            .map_err(|e| Answer::Errored(format!("the bytes codec entry: {e}")))?;
    let chain = guard(|| CodecChain::from_metadata(&[metadata, bytes]))?.map_err(zarrs_error)?;
    Ok(chain.array_to_array_codecs().to_vec())
}

/// The shape before each codec and after the last: `[decoded, ..., encoded]`, each
/// from zarrs' `encoded_shape`.
pub fn shapes(codecs: &Codecs, decoded: Shape) -> Step<Vec<Shape>> {
    let mut shapes = vec![decoded];
    for codec in codecs {
        let last = shapes.last().cloned().unwrap_or_default();
        let next = guard(|| codec.encoded_shape(&last))?.map_err(zarrs_error)?;
        shapes.push(next);
    }
    Ok(shapes)
}

/// The extents of a shape as plain integers.
pub fn plain(shape: &[NonZeroU64]) -> Vec<u64> {
    shape.iter().map(|extent| extent.get()).collect()
}

/// The encoded shape (the last of `shapes`).
pub fn encoded(shapes: &[Shape]) -> Vec<u64> {
    shapes.last().map(|shape| plain(shape)).unwrap_or_default()
}

/// The data type each codec is handed must stay the input's (reshape keeps it).
fn check_data_type(codecs: &Codecs, data_type: &DataType) -> Step<()> {
    for codec in codecs {
        let encoded = guard(|| codec.encoded_data_type(data_type))?.map_err(zarrs_error)?;
        if &encoded != data_type {
            return Err(Answer::Skipped(
                "the codec changes the data type; the adapter compares arrays of one type".into(),
            ));
        }
    }
    Ok(())
}

/// Encodes `bytes` (the decoded array) through each codec's `encode`, handing it the
/// chunk's decoded shape, as zarrs' codec chain does.
pub fn encode(
    codecs: &Codecs,
    shapes: &[Shape],
    (element, data_type): (Element, &DataType),
    bytes: Vec<u8>,
) -> Step<Value> {
    check_data_type(codecs, data_type)?;
    let fill_value = FillValue::from(vec![0u8; element.size()]);
    let options = CodecOptions::default();
    let mut bytes: ArrayBytes<'static> = ArrayBytes::new_flen(bytes);
    for (codec, shape) in codecs.iter().zip(shapes) {
        let (fill_value, options) = (&fill_value, &options);
        bytes = guard(move || codec.encode(bytes, shape, data_type, fill_value, options))?
            .map_err(zarrs_error)?
            .into_owned();
    }
    let bytes = bytes.into_fixed().map_err(zarrs_error)?;
    Ok(array::output(element, &encoded(shapes), &bytes))
}

/// Decodes `bytes` (the encoded array) through each codec's `decode`, last codec
/// first, handing each the shape it decodes to.
pub fn decode(
    codecs: &Codecs,
    shapes: &[Shape],
    (element, data_type): (Element, &DataType),
    bytes: Vec<u8>,
) -> Step<Value> {
    check_data_type(codecs, data_type)?;
    let fill_value = FillValue::from(vec![0u8; element.size()]);
    let options = CodecOptions::default();
    let mut bytes: ArrayBytes<'static> = ArrayBytes::new_flen(bytes);
    for (codec, shape) in codecs.iter().zip(shapes).rev() {
        let (fill_value, options) = (&fill_value, &options);
        bytes = guard(move || codec.decode(bytes, shape, data_type, fill_value, options))?
            .map_err(zarrs_error)?
            .into_owned();
    }
    let bytes = bytes.into_fixed().map_err(zarrs_error)?;
    let decoded = shapes.first().map(|shape| plain(shape)).unwrap_or_default();
    Ok(array::output(element, &decoded, &bytes))
}

/// The encoded coordinates that zarrs' partial decoder reads for `indexer`, a
/// selection of the decoded chunk, in the order zarrs returns the elements.
pub fn map(codecs: &Codecs, shapes: &[Shape], indexer: &dyn Indexer) -> Step<Vec<Vec<u64>>> {
    let data_type = zarrs::array::data_type::uint64();
    let fill_value = FillValue::from(0u64);
    let options = CodecOptions::default();
    let encoded_shape = encoded(shapes);
    let mut handle: Arc<dyn ArrayPartialDecoderTraits> =
        Arc::new(Probe::new(encoded_shape.clone()));
    for (codec, shape) in codecs.iter().zip(shapes).rev() {
        let input = handle.clone();
        handle = guard(|| {
            codec
                .clone()
                .partial_decoder(input, shape, &data_type, &fill_value, &options)
        })?
        .map_err(zarrs_error)?;
    }
    let bytes = guard(|| {
        handle
            .partial_decode(indexer, &options)
            .map(ArrayBytes::into_owned)
    })?
    .map_err(zarrs_error)?;
    let bytes = bytes.into_fixed().map_err(zarrs_error)?;
    let positions = bytes.chunks_exact(8).map(|chunk| {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        unravel(u64::from_ne_bytes(word), &encoded_shape)
    });
    Ok(positions.collect())
}

/// The coordinates of C-order position `position` in `shape` (no extent is zero).
fn unravel(mut position: u64, shape: &[u64]) -> Vec<u64> {
    let mut index = vec![0; shape.len()];
    for (coordinate, &extent) in index.iter_mut().zip(shape).rev() {
        *coordinate = position % extent.max(1);
        position /= extent.max(1);
    }
    index
}
