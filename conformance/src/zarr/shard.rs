//! Writing sharded arrays (core spec, "Sharding codec"): each chunk of the regular
//! grid is one shard. It goes through the array -> array codecs before
//! `sharding_indexed` (transpose, reshape), is cut into inner chunks of the
//! sharding `chunk_shape`, each encoded through the inner chain and stored one
//! after the other in C order of the inner chunk coordinates (every inner chunk
//! is written, also one holding only the fill value), and ends with the index:
//! one `(offset, nbytes)` pair of `uint64` per inner chunk, encoded through
//! `index_codecs` (typically `bytes` little endian then `crc32c`).
//!
//! Only a writer: the reader still refuses sharded arrays (`chain.rs`). An index
//! at the start (`index_location: "start"`) and bytes -> bytes codecs after
//! `sharding_indexed` are not written (an error says so).

use ndarray::{ArrayD, IxDyn};
use zarr_reshape::ReshapeCodec;

use super::chain::Chain;
use super::codecs::{Codec, Sharding};
use super::element::Element;
use super::grid::{Touched, chunk_key, copy_box};
use super::{ArrayMetadata, ZarrError, fill_element, usize_of};
use crate::arrays::DataType;

/// The array -> array codecs before `sharding_indexed`, the sharding codec, and
/// what follows it, when the chain's array -> bytes codec is `sharding_indexed`.
pub(super) fn split(codecs: &[Codec]) -> Option<(&[Codec], &Sharding, &[Codec])> {
    let at = codecs
        .iter()
        .position(|c| matches!(c, Codec::Sharding(_)))?;
    let (before, rest) = codecs.split_at(at);
    match rest.split_first() {
        Some((Codec::Sharding(sharding), after)) => Some((before, sharding, after)),
        _ => None,
    }
}

fn unsupported(what: &str) -> ZarrError {
    ZarrError::unsupported(format!(
        "the reference's shard writer does not write {what}"
    ))
}

/// One array -> array step on a whole shard.
fn step<T: Element>(codec: &Codec, shard: ArrayD<T>) -> Result<ArrayD<T>, ZarrError> {
    match codec {
        Codec::Transpose(order) => Ok(shard
            .permuted_axes(IxDyn(order))
            .as_standard_layout()
            .into_owned()),
        Codec::Reshape(configuration) => {
            let shape: Vec<u64> = shard
                .shape()
                .iter()
                .map(|e| u64::try_from(*e).unwrap_or(u64::MAX))
                .collect();
            let codec = ReshapeCodec::new(configuration.clone(), &shape)?;
            Ok(codec.encode(&shard)?.into_owned())
        }
        _ => Err(ZarrError::malformed(
            "only array -> array codecs may come before sharding_indexed",
        )),
    }
}

/// Every shard of `array` under `metadata` (whose codecs hold `sharding_indexed`),
/// in C order of the shard coordinates, as (key, stored bytes).
///
/// # Errors
/// `malformed-configuration` when the shard does not divide into inner chunks;
/// unsupported for what this writer does not write; the chains' errors.
pub(super) fn encode_shards<T: Element>(
    metadata: &ArrayMetadata,
    array: &ArrayD<T>,
) -> Result<Vec<(String, Vec<u8>)>, ZarrError> {
    let Some((before, sharding, after)) = split(&metadata.codecs) else {
        return Err(ZarrError::malformed("no sharding_indexed in the chain"));
    };
    if !after.is_empty() {
        return Err(unsupported("bytes -> bytes codecs after sharding_indexed"));
    }
    if sharding.index_at_start {
        return Err(unsupported("an index at the start of the shard"));
    }
    let fill = fill_element::<T>(&metadata.fill_value)?;
    let inner = Chain::resolve(&sharding.codecs, &sharding.chunk_shape, metadata.data_type)?;
    let origin = vec![0; metadata.shape.len()];
    let mut shards = Vec::new();
    for piece in Touched::new(&origin, &metadata.shape, &metadata.chunk_shape).pieces() {
        let piece = piece?;
        let extents: Vec<usize> = metadata
            .chunk_shape
            .iter()
            .map(|e| usize_of(*e))
            .collect::<Result<_, _>>()?;
        let mut shard = ArrayD::from_elem(IxDyn(&extents), fill.clone());
        copy_box(&mut shard, &piece.in_chunk, array, &piece.in_box);
        for codec in before {
            shard = step(codec, shard)?;
        }
        shards.push((
            chunk_key(&piece.coords, metadata.separator),
            encode_shard(&shard, sharding, &inner, &fill)?,
        ));
    }
    Ok(shards)
}

/// One shard (its array after the codecs before sharding) as stored: the inner
/// chunks, then the index.
fn encode_shard<T: Element>(
    shard: &ArrayD<T>,
    sharding: &Sharding,
    inner: &Chain,
    fill: &T,
) -> Result<Vec<u8>, ZarrError> {
    let shape: Vec<u64> = shard
        .shape()
        .iter()
        .map(|e| u64::try_from(*e).unwrap_or(u64::MAX))
        .collect();
    let divides = shape.len() == sharding.chunk_shape.len()
        && shape
            .iter()
            .zip(&sharding.chunk_shape)
            .all(|(s, c)| s.checked_rem(*c) == Some(0));
    if !divides {
        return Err(ZarrError::malformed(format!(
            "a shard of {shape:?} does not divide into inner chunks of {:?}",
            sharding.chunk_shape
        )));
    }
    let origin = vec![0; shape.len()];
    let mut stored = Vec::new();
    let mut index: Vec<u64> = Vec::new();
    for piece in Touched::new(&origin, &shape, &sharding.chunk_shape).pieces() {
        let piece = piece?;
        let mut chunk = ArrayD::from_elem(IxDyn(inner.chunk_shape()), fill.clone());
        copy_box(&mut chunk, &piece.in_chunk, shard, &piece.in_box);
        let bytes = inner.encode(chunk)?;
        let offset = u64::try_from(stored.len()).map_err(|_| too_large())?;
        let length = u64::try_from(bytes.len()).map_err(|_| too_large())?;
        index.extend([offset, length]);
        stored.extend(bytes);
    }
    let mut index_shape: Vec<u64> = shape
        .iter()
        .zip(&sharding.chunk_shape)
        .map(|(s, c)| s.checked_div(*c).unwrap_or(0))
        .collect();
    index_shape.push(2);
    let index_chain = Chain::resolve(&sharding.index_codecs, &index_shape, DataType::UInt64)?;
    let extents: Vec<usize> = index_shape
        .iter()
        .map(|e| usize_of(*e))
        .collect::<Result<_, _>>()?;
    let index = ArrayD::from_shape_vec(IxDyn(&extents), index)
        .map_err(|e| ZarrError::malformed(format!("the shard index: {e}")))?;
    stored.extend(index_chain.encode(index)?);
    Ok(stored)
}

fn too_large() -> ZarrError {
    ZarrError::malformed("a shard larger than this writer's limit")
}
