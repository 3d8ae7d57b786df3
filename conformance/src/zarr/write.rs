//! Writing: an array cut into the chunks of its grid that hold array elements,
//! each padded to its decoded shape (its declared edges) with the fill value and
//! encoded through the chain resolved for that shape, a sharded array's shards
//! included (the chain's `sharding_indexed` step cuts each into inner chunks).

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use ndarray::{ArrayD, IxDyn};

use super::chain::Chain;
use super::element::{Element, with_elements};
use super::grid::{array_chunks, chunk_key, copy_box};
use super::{ArrayMetadata, MAX_ELEMENTS, ZarrError, fill_element};
use crate::arrays::TypedArray;

/// Every chunk of `array` under `metadata`, in C order of the chunk coordinates, as
/// (key under the default chunk key encoding, stored bytes). Every chunk is
/// written, also one that holds only the fill value.
///
/// # Errors
/// `shape-mismatch` when the array's shape or data type is not the metadata's;
/// the chain's errors (as for reading).
pub fn encode_chunks(
    metadata: &ArrayMetadata,
    array: &TypedArray,
) -> Result<Vec<(String, Vec<u8>)>, ZarrError> {
    encode_chunks_with(metadata, array, false)
}

/// As [`encode_chunks`]; with `omit_fill_inner_chunks`, an inner chunk of a shard
/// that holds only the fill value is not stored (its index entry is
/// `(2^64 - 1, 2^64 - 1)`, as the core spec allows). Every chunk (shard) of the
/// grid is still written.
///
/// # Errors
/// As [`encode_chunks`].
pub fn encode_chunks_with(
    metadata: &ArrayMetadata,
    array: &TypedArray,
    omit_fill_inner_chunks: bool,
) -> Result<Vec<(String, Vec<u8>)>, ZarrError> {
    if array.shape() != metadata.shape || array.data_type() != metadata.data_type {
        return Err(ZarrError::new(
            zarr_reshape::ErrorClass::ShapeMismatch,
            format!(
                "an array of {} {:?} for metadata of {} {:?}",
                array.data_type().name(),
                array.shape(),
                metadata.data_type.name(),
                metadata.shape
            ),
        ));
    }
    let elements = metadata
        .shape
        .iter()
        .try_fold(1u64, |acc, extent| acc.checked_mul(*extent));
    if elements.is_none_or(|count| count > MAX_ELEMENTS) {
        return Err(ZarrError::malformed(
            "the array is larger than this writer's limit",
        ));
    }
    with_elements!(array, a => encode_typed(metadata, a, omit_fill_inner_chunks))
}

fn encode_typed<T: Element>(
    metadata: &ArrayMetadata,
    array: &ArrayD<T>,
    omit_fill: bool,
) -> Result<Vec<(String, Vec<u8>)>, ZarrError> {
    let fill = fill_element::<T>(&metadata.fill_value)?;
    let mut chains: BTreeMap<Vec<u64>, Chain> = BTreeMap::new();
    let mut chunks = Vec::new();
    for piece in array_chunks(&metadata.chunk_grid, &metadata.shape)?.pieces() {
        let piece = piece?;
        let chain = match chains.entry(piece.shape.clone()) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => entry.insert(Chain::resolve(
                &metadata.codecs,
                &piece.shape,
                metadata.data_type,
            )?),
        };
        let mut chunk = ArrayD::from_elem(IxDyn(chain.chunk_shape()), fill.clone());
        copy_box(&mut chunk, &piece.in_chunk, array, &piece.in_box);
        if crate::deadline::passed() {
            return Err(ZarrError::malformed(crate::deadline::STOPPED));
        }
        chunks.push((
            chunk_key(&piece.coords, metadata.separator),
            chain.encode(chunk, &fill, omit_fill)?,
        ));
    }
    Ok(chunks)
}
