//! `sharding_indexed` as the array -> bytes step of a chain (core spec, "Sharding
//! codec"): the shard (what the array -> array steps before it hand on) is cut
//! into inner chunks of its `chunk_shape`, each encoded through the inner chain
//! (itself a [`Chain`], so a shard may hold shards), and the index through the
//! `index_codecs` chain. The byte layout is [`crate::zarr::shard`]'s.

use std::ops::Range;

use ndarray::{ArrayD, IxDyn};

use super::Chain;
use crate::arrays::DataType;
use crate::zarr::codecs::Sharding;
use crate::zarr::element::Element;
use crate::zarr::grid::{Touched, copy_box};
use crate::zarr::shard::{
    MAX_INNER_CHUNKS, MISSING, assemble, entry_range, entry_value, index_range,
};
use crate::zarr::{MAX_CHUNK_BYTES, ZarrError, usize_of};

/// `sharding_indexed`, resolved for the shard shape it is handed.
#[derive(Debug, Clone)]
pub(super) struct ShardCodec {
    /// The chain of each inner chunk.
    inner: Chain,
    /// The chain of the index, an array of `uint64` of `chunks` and 2.
    index: Chain,
    /// The encoded index's size in bytes.
    index_bytes: usize,
    at_start: bool,
    /// The shard shape.
    shard_shape: Vec<u64>,
    /// The inner chunk shape.
    inner_shape: Vec<u64>,
    /// The inner chunks along each dimension, then 2: the index's shape.
    index_shape: Vec<u64>,
}

fn prefixed(what: &str) -> impl Fn(ZarrError) -> ZarrError + '_ {
    move |error| ZarrError {
        message: format!("{what}: {}", error.message),
        ..error
    }
}

impl ShardCodec {
    /// Resolves `sharding` for shards of `shape` (the chain's verdict,
    /// `resolve_codecs`, has already accepted it).
    ///
    /// # Errors
    /// `malformed-configuration` for a `chunk_shape` that does not divide the
    /// shard, more than [`MAX_INNER_CHUNKS`] inner chunks, or `index_codecs` of no
    /// fixed encoded size; the inner chains' errors.
    pub(super) fn resolve(
        sharding: &Sharding,
        shape: &[u64],
        data_type: DataType,
    ) -> Result<Self, ZarrError> {
        let inner_shape = sharding.chunk_shape.clone();
        let mut index_shape = shape
            .iter()
            .zip(&inner_shape)
            .map(|(extent, chunk)| {
                extent
                    .checked_rem(*chunk)
                    .filter(|rest| *rest == 0)
                    .and_then(|_| extent.checked_div(*chunk))
            })
            .collect::<Option<Vec<u64>>>()
            .filter(|chunks| chunks.len() == shape.len())
            .ok_or_else(|| {
                ZarrError::malformed(format!(
                    "sharding_indexed's chunk_shape {inner_shape:?} does not divide its shard shape {shape:?}"
                ))
            })?;
        let count = index_shape
            .iter()
            .try_fold(1u64, |acc, chunks| acc.checked_mul(*chunks));
        if count.is_none_or(|count| count > MAX_INNER_CHUNKS) {
            return Err(ZarrError::malformed(format!(
                "shards of {shape:?} in inner chunks of {inner_shape:?} hold more than \
                 {MAX_INNER_CHUNKS} inner chunks, this reader's limit"
            )));
        }
        index_shape.push(2);
        let inner = Chain::resolve(&sharding.codecs, &inner_shape, data_type)
            .map_err(prefixed("sharding_indexed's codecs"))?;
        let index = Chain::resolve(&sharding.index_codecs, &index_shape, DataType::UInt64)
            .map_err(prefixed("sharding_indexed's index_codecs"))?;
        let index_bytes = index.fixed_size(u64::SIZE).ok_or_else(|| {
            ZarrError::malformed(
                "sharding_indexed's index_codecs do not encode to a size fixed by the index's \
                 shape (bytes, then only crc32c): the index cannot be found in the shard",
            )
        })?;
        Ok(Self {
            inner,
            index,
            index_bytes,
            at_start: sharding.index_at_start,
            shard_shape: shape.to_vec(),
            inner_shape,
            index_shape,
        })
    }

    /// The decoded index: `(offset, nbytes)` per inner chunk.
    fn read_index(&self, shard: &[u8]) -> Result<ArrayD<u64>, ZarrError> {
        let range = index_range(shard.len(), self.index_bytes, self.at_start)?;
        let bytes = shard
            .get(range)
            .ok_or_else(|| ZarrError::malformed("the shard index lies beyond the shard"))?;
        self.index
            .decode(bytes.to_vec(), &MISSING)
            .map_err(prefixed("the shard index"))
    }

    /// Decodes a shard into an array of the shard shape in which the elements of
    /// `part` are exact: only the inner chunks holding some of them are decoded,
    /// each through the inner chain for its part of the box. A missing inner
    /// chunk is the fill value.
    pub(super) fn decode<T: Element>(
        &self,
        shard: &[u8],
        part: &[Range<usize>],
        fill: &T,
    ) -> Result<ArrayD<T>, ZarrError> {
        let index = self.read_index(shard)?;
        let extents: Vec<usize> = self
            .shard_shape
            .iter()
            .map(|extent| usize_of(*extent))
            .collect::<Result<_, _>>()?;
        let mut out = ArrayD::from_elem(IxDyn(&extents), fill.clone());
        let start: Vec<u64> = part
            .iter()
            .map(|r| entry_value(r.start))
            .collect::<Result<_, _>>()?;
        let stop: Vec<u64> = part
            .iter()
            .map(|r| entry_value(r.end))
            .collect::<Result<_, _>>()?;
        for piece in Touched::new(&start, &stop, &self.inner_shape).pieces() {
            if crate::deadline::passed() {
                return Err(ZarrError::malformed(crate::deadline::STOPPED));
            }
            let piece = piece?;
            let mut at: Vec<usize> = piece
                .coords
                .iter()
                .map(|c| usize_of(*c))
                .collect::<Result<_, _>>()?;
            at.push(0);
            let offset = index.get(IxDyn(&at)).copied();
            if let Some(last) = at.last_mut() {
                *last = 1;
            }
            let nbytes = index.get(IxDyn(&at)).copied();
            let (Some(offset), Some(nbytes)) = (offset, nbytes) else {
                return Err(ZarrError::malformed("the shard index has another shape"));
            };
            let Some(range) = entry_range(offset, nbytes, shard.len())? else {
                continue;
            };
            let bytes = shard
                .get(range)
                .ok_or_else(|| ZarrError::malformed("an inner chunk beyond the shard"))?;
            let chunk = self
                .inner
                .decode_part(bytes.to_vec(), &piece.in_chunk, fill)
                .map_err(prefixed(&format!("inner chunk {:?}", piece.coords)))?;
            // The same elements in shard coordinates: the box's start plus their place in it.
            let to = piece
                .in_box
                .iter()
                .zip(part)
                .map(|(range, origin)| {
                    let low = range.start.checked_add(origin.start);
                    let high = range.end.checked_add(origin.start);
                    low.zip(high).map(|(low, high)| low..high)
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| ZarrError::malformed("an inner chunk coordinate overflows"))?;
            copy_box(&mut out, &to, &chunk, &piece.in_chunk);
        }
        Ok(out)
    }

    /// Encodes a shard (an array of the shard shape): every inner chunk in C order
    /// of its coordinates, except, with `omit_fill`, one holding only `fill`
    /// (its index entry then marks it missing), and the index at its place.
    pub(super) fn encode<T: Element>(
        &self,
        shard: &ArrayD<T>,
        fill: &T,
        omit_fill: bool,
    ) -> Result<Vec<u8>, ZarrError> {
        let mut fill_bytes = Vec::new();
        fill.put(false, &mut fill_bytes);
        let only_fill = |chunk: &ArrayD<T>| {
            let mut bytes = Vec::new();
            chunk.iter().all(|element| {
                bytes.clear();
                element.put(false, &mut bytes);
                bytes == fill_bytes
            })
        };
        let first = if self.at_start { self.index_bytes } else { 0 };
        let origin = vec![0; self.shard_shape.len()];
        let mut data = Vec::new();
        let mut entries = Vec::new();
        for piece in Touched::new(&origin, &self.shard_shape, &self.inner_shape).pieces() {
            if crate::deadline::passed() {
                return Err(ZarrError::malformed(crate::deadline::STOPPED));
            }
            let piece = piece?;
            let mut chunk = ArrayD::from_elem(IxDyn(self.inner.chunk_shape()), fill.clone());
            copy_box(&mut chunk, &piece.in_chunk, shard, &piece.in_box);
            if omit_fill && only_fill(&chunk) {
                entries.extend([MISSING, MISSING]);
                continue;
            }
            let bytes = self.inner.encode(chunk, fill, omit_fill)?;
            let offset = first.checked_add(data.len()).map(entry_value);
            let Some(offset) = offset else {
                return Err(ZarrError::malformed(
                    "a shard larger than this writer's limit",
                ));
            };
            entries.extend([offset?, entry_value(bytes.len())?]);
            data.extend(bytes);
            if data.len() > MAX_CHUNK_BYTES {
                return Err(ZarrError::malformed(
                    "a shard larger than this writer's limit",
                ));
            }
        }
        let extents: Vec<usize> = self
            .index_shape
            .iter()
            .map(|extent| usize_of(*extent))
            .collect::<Result<_, _>>()?;
        let index = ArrayD::from_shape_vec(IxDyn(&extents), entries)
            .map_err(|e| ZarrError::malformed(format!("the shard index: {e}")))?;
        let index = self.index.encode(index, &MISSING, false)?;
        if index.len() != self.index_bytes {
            return Err(ZarrError::malformed(
                "the shard index encoded to another size than its chain fixes",
            ));
        }
        Ok(assemble(data, index, self.at_start))
    }
}
