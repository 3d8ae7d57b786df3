//! The codec chain of one array, resolved for its chunk shape (core spec,
//! "Determination of encoded representations"), and a chunk encoded and decoded
//! through it ("Encoding procedure", "Decoding procedure"). The array -> bytes
//! codec is `bytes` or `sharding_indexed`, whose inner chunks and index go
//! through chains of their own ([`sharded`]), so shards nest by recursion. A part
//! of a chunk decodes through [`Chain::decode_part`]: its box is mapped through
//! the array -> array steps ([`region`]), so that a shard decodes only the inner
//! chunks the box lands in.

mod region;
mod sharded;

use std::ops::Range;

use ndarray::{ArrayD, IxDyn};
use zarr_reshape::{ErrorClass, ReshapeCodec};

use self::sharded::ShardCodec;
use super::codecs::Codec;
use super::compress::Compressor;
use super::element::{self, Element};
use super::shapes::{bytes_endian, bytes_to_bytes, no_array_to_bytes, resolve_codecs, transposed};
use super::{MAX_CHUNK_BYTES, ZarrError, ndarray_shape};
use crate::arrays::{DataType, MAX_ELEMENTS};

/// An array -> array step, resolved for its decoded shape.
#[derive(Debug, Clone)]
enum Step {
    /// `transpose`: encoded axis i is decoded axis `order[i]`; `inverse` undoes it.
    Transpose {
        order: Vec<usize>,
        inverse: Vec<usize>,
    },
    /// `reshape`, with A_shape and B_shape fixed.
    Reshape(ReshapeCodec),
}

/// The array -> bytes codec, resolved for the shape it is handed.
#[derive(Debug, Clone)]
enum Tail {
    /// `bytes`, big endian or not.
    Bytes { big_endian: bool },
    /// `sharding_indexed`, with its inner and index chains.
    Shard(Box<ShardCodec>),
}

/// The chain of one array: array -> array steps, then `bytes` or
/// `sharding_indexed`, then compressors.
#[derive(Debug, Clone)]
pub(crate) struct Chain {
    steps: Vec<Step>,
    tail: Tail,
    compressors: Vec<Compressor>,
    /// The chunk shape, `decoded_representation[0]`.
    chunk_shape: Vec<usize>,
    /// The shape handed to the array -> bytes codec.
    array_shape: Vec<usize>,
}

impl Chain {
    /// Resolves `codecs` for chunks of `chunk_shape` and elements of `data_type`.
    ///
    /// # Errors
    /// First the verdict of `resolve-chain` ([`super::shapes`]) on the same chain:
    /// the reshape library's class when reshape cannot resolve its decoded shape;
    /// `malformed-configuration` for codecs out of the core spec's order (array ->
    /// array codecs, one array -> bytes codec, bytes -> bytes codecs), a transpose
    /// of the wrong rank, a sharding `chunk_shape` that does not divide the shard,
    /// or a multi-byte type without `endian`; unsupported for a codec this reader
    /// does not implement. Then this reader's limits (`malformed-configuration`):
    /// chunks beyond [`MAX_ELEMENTS`], shards of more than
    /// [`super::shard::MAX_INNER_CHUNKS`] inner chunks, and `index_codecs` whose
    /// encoded size is not fixed by the index's shape (a compressor such as
    /// `gzip`: the index could not be found in the shard).
    pub(crate) fn resolve(
        codecs: &[Codec],
        chunk_shape: &[u64],
        data_type: DataType,
    ) -> Result<Self, ZarrError> {
        let elements = chunk_shape
            .iter()
            .try_fold(1u64, |acc, extent| acc.checked_mul(*extent));
        if elements.is_none_or(|count| count > MAX_ELEMENTS) {
            return Err(ZarrError::malformed(format!(
                "chunks of {chunk_shape:?} hold more than {MAX_ELEMENTS} elements, this reader's limit"
            )));
        }
        // One verdict for both paths: the chain is checked as resolve-chain checks it.
        resolve_codecs(codecs, chunk_shape, data_type)?;
        let mut shape = chunk_shape.to_vec();
        let mut steps = Vec::new();
        let mut rest = codecs.iter();
        let tail = loop {
            match rest.next() {
                Some(Codec::Transpose(order)) => {
                    shape = transposed(order, &shape)?;
                    let mut inverse = vec![0; order.len()];
                    for (i, d) in order.iter().enumerate() {
                        if let Some(slot) = inverse.get_mut(*d) {
                            *slot = i;
                        }
                    }
                    steps.push(Step::Transpose {
                        order: order.clone(),
                        inverse,
                    });
                }
                Some(Codec::Reshape(configuration)) => {
                    let codec = ReshapeCodec::new(configuration.clone(), &shape)?;
                    shape = codec.encoded_shape().to_vec();
                    steps.push(Step::Reshape(codec));
                }
                Some(Codec::Bytes(endian)) => {
                    break Tail::Bytes {
                        big_endian: bytes_endian(*endian, data_type)?,
                    };
                }
                Some(Codec::Sharding(sharding)) => {
                    break Tail::Shard(Box::new(ShardCodec::resolve(sharding, &shape, data_type)?));
                }
                // Refused by resolve_codecs above; kept so that no order is assumed here.
                Some(Codec::Compress(_) | Codec::Unsupported { .. }) | None => {
                    return Err(no_array_to_bytes());
                }
            }
        };
        let rest = rest.as_slice();
        bytes_to_bytes(rest.iter())?;
        let compressors = rest
            .iter()
            .filter_map(|codec| match codec {
                Codec::Compress(compressor) => Some(compressor.clone()),
                _ => None,
            })
            .collect();
        Ok(Self {
            steps,
            tail,
            compressors,
            chunk_shape: ndarray_shape(chunk_shape)?,
            array_shape: ndarray_shape(&shape)?,
        })
    }

    /// The chunk shape.
    pub(crate) fn chunk_shape(&self) -> &[usize] {
        &self.chunk_shape
    }

    /// The number of bytes every chunk encodes to, when the chain fixes it: `bytes`
    /// then only `crc32c` (4 bytes each). `None` for a compressor, or sharding.
    fn fixed_size(&self, element_size: usize) -> Option<usize> {
        let Tail::Bytes { .. } = self.tail else {
            return None;
        };
        let mut size = self
            .array_shape
            .iter()
            .try_fold(element_size, |acc, extent| acc.checked_mul(*extent))?;
        for compressor in &self.compressors {
            match compressor {
                Compressor::Crc32c => size = size.checked_add(4)?,
                Compressor::Gzip { .. } | Compressor::Zstd { .. } => return None,
            }
        }
        Some(size)
    }

    /// Encodes one chunk of the chunk shape into the bytes stored. `fill` is the
    /// array's fill value; with `omit_fill`, an inner chunk of a shard holding
    /// only it is not stored (its index entry marks it missing).
    ///
    /// # Errors
    /// `shape-mismatch` for a chunk of another shape; a compressor's failure.
    pub(crate) fn encode<T: Element>(
        &self,
        chunk: ArrayD<T>,
        fill: &T,
        omit_fill: bool,
    ) -> Result<Vec<u8>, ZarrError> {
        if chunk.shape() != self.chunk_shape.as_slice() {
            return Err(ZarrError::new(
                ErrorClass::ShapeMismatch,
                format!(
                    "a chunk of {:?}, the chunk shape is {:?}",
                    chunk.shape(),
                    self.chunk_shape
                ),
            ));
        }
        let mut array = chunk;
        for step in &self.steps {
            array = match step {
                Step::Transpose { order, .. } => array.permuted_axes(IxDyn(order)),
                Step::Reshape(codec) => codec.encode(&array)?.into_owned(),
            };
        }
        let mut bytes = match &self.tail {
            Tail::Bytes { big_endian } => element::to_bytes(&array, *big_endian),
            Tail::Shard(shard) => shard.encode(&array, fill, omit_fill)?,
        };
        for compressor in &self.compressors {
            bytes = compressor.encode(&bytes)?;
        }
        Ok(bytes)
    }

    /// Decodes the bytes of one stored chunk into an array of the chunk shape.
    ///
    /// # Errors
    /// As [`Self::decode_part`].
    pub(crate) fn decode<T: Element>(
        &self,
        stored: Vec<u8>,
        fill: &T,
    ) -> Result<ArrayD<T>, ZarrError> {
        let whole: Vec<Range<usize>> = self.chunk_shape.iter().map(|extent| 0..*extent).collect();
        self.decode_part(stored, &whole, fill)
    }

    /// Decodes the bytes of one stored chunk into an array of the chunk shape in
    /// which at least the elements inside `part` (a box in chunk coordinates) are
    /// exact; the others may hold the fill value. Through `sharding_indexed` only
    /// the inner chunks that hold elements of the box are decoded (and checked).
    ///
    /// # Errors
    /// `shape-mismatch` for a box of another rank, `out-of-bounds` for one not
    /// within the chunk; a compressor's failure or output beyond
    /// [`MAX_CHUNK_BYTES`]; `shape-mismatch` when the bytes do not hold the
    /// representation's elements; a shard whose index does not decode or names
    /// bytes beyond the shard (`malformed-configuration`); the reshape library's errors.
    pub(crate) fn decode_part<T: Element>(
        &self,
        stored: Vec<u8>,
        part: &[Range<usize>],
        fill: &T,
    ) -> Result<ArrayD<T>, ZarrError> {
        region::check_part(part, &self.chunk_shape)?;
        let mut bytes = stored;
        // What `bytes` takes is exactly the chunk's bytes: the innermost compressor
        // may give no more, and no layer more than twice that and 4 KiB (a compressed
        // stream is never much longer than what it holds), so that a decompression
        // bomb stops at the chunk's size instead of the file limit, in every layer.
        // A shard's size is not fixed: the file limit.
        let chunk_bytes = match self.tail {
            Tail::Bytes { .. } => self
                .array_shape
                .iter()
                .try_fold(T::SIZE, |acc, extent| acc.checked_mul(*extent))
                .unwrap_or(MAX_CHUNK_BYTES)
                .min(MAX_CHUNK_BYTES),
            Tail::Shard(_) => MAX_CHUNK_BYTES,
        };
        let layer_bytes = chunk_bytes
            .saturating_mul(2)
            .saturating_add(4096)
            .min(MAX_CHUNK_BYTES);
        for (inner, compressor) in self.compressors.iter().enumerate().rev() {
            if crate::deadline::passed() {
                return Err(ZarrError::malformed(crate::deadline::STOPPED));
            }
            let cap = if inner == 0 { chunk_bytes } else { layer_bytes };
            bytes = compressor.decode(&bytes, cap)?;
        }
        let mut array: ArrayD<T> = match &self.tail {
            Tail::Bytes { big_endian } => {
                element::from_bytes(&bytes, &self.array_shape, *big_endian)?
            }
            // The box as the steps hand it on, so that only the inner chunks it
            // lands in are decoded.
            Tail::Shard(shard) => {
                let mut boxed = part.to_vec();
                for step in &self.steps {
                    boxed = region::encoded_box(step, &boxed)?;
                }
                shard.decode(&bytes, &boxed, fill)?
            }
        };
        for step in self.steps.iter().rev() {
            if crate::deadline::passed() {
                return Err(ZarrError::malformed(crate::deadline::STOPPED));
            }
            array = match step {
                Step::Transpose { inverse, .. } => array.permuted_axes(IxDyn(inverse)),
                Step::Reshape(codec) => codec.decode(&array)?.into_owned(),
            };
        }
        Ok(array)
    }
}

/// The decoded shape the first `reshape` of `codecs` (codec objects as in
/// `zarr.json`) is handed for chunks of `chunk_shape`: the chunk shape after the
/// transposes before it. `None` when there is no reshape, or a codec before it is
/// not a transpose that fits. A reshape inside `sharding_indexed` (with no reshape
/// before it) is handed the inner chunk shape, or in its `index_codecs` (with none
/// in its `codecs`) the index array's shape. Works on the JSON, so that it serves invalid reshape
/// configurations too.
#[must_use]
pub fn reshape_decoded_shape(
    codecs: &[serde_json::Value],
    chunk_shape: &[u64],
) -> Option<Vec<u64>> {
    let mut shape = chunk_shape.to_vec();
    for codec in codecs {
        match codec.get("name").and_then(serde_json::Value::as_str)? {
            "reshape" => return Some(shape),
            "transpose" => {
                let order = codec.pointer("/configuration/order")?.as_array()?;
                if order.len() != shape.len() {
                    return None;
                }
                shape = order
                    .iter()
                    .map(|d| shape.get(usize::try_from(d.as_u64()?).ok()?).copied())
                    .collect::<Option<_>>()?;
            }
            // No reshape before it: the first reshape of its inner chain, handed
            // inner chunks, else of its index chain, handed the index array (the
            // inner chunks per shard along each dimension, and 2).
            "sharding_indexed" => {
                let configuration = codec.get("configuration")?;
                let inner: Vec<u64> = configuration
                    .get("chunk_shape")?
                    .as_array()?
                    .iter()
                    .map(serde_json::Value::as_u64)
                    .collect::<Option<_>>()?;
                let codecs = configuration.get("codecs")?.as_array()?;
                if let Some(found) = reshape_decoded_shape(codecs, &inner) {
                    return Some(found);
                }
                if inner.len() != shape.len() {
                    return None;
                }
                let mut index: Vec<u64> = shape
                    .iter()
                    .zip(&inner)
                    .map(|(extent, chunk)| extent.checked_div(*chunk))
                    .collect::<Option<_>>()?;
                index.push(2);
                let codecs = configuration.get("index_codecs")?.as_array()?;
                return reshape_decoded_shape(codecs, &index);
            }
            _ => return None,
        }
    }
    None
}
