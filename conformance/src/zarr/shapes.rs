//! The encoded representation of every step of a codec chain, shapes only (core
//! spec, "Determination of encoded representations": each codec is handed the
//! representation the codec before it encodes to, starting from the chunk's). The
//! `resolve-chain` operation; the array reader ([`super::chain`]) checks its
//! steps with the same functions, so both give one answer.

use serde_json::{Map, Value};
use zarr_reshape::ReshapeCodec;

use super::codecs::{Codec, Sharding, codecs_of};
use super::{ZarrError, element};
use crate::arrays::DataType;

/// The shapes a codec chain hands on, for one decoded (chunk) shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainShapes {
    /// The shape each array -> array codec encodes to, in chain order; the last
    /// (or the chunk shape when there is none) is what the array -> bytes codec gets.
    pub encoded_shapes: Vec<Vec<u64>>,
    /// When the array -> bytes codec is `sharding_indexed`: the same for its inner
    /// chain, resolved for its inner chunk shape.
    pub inner: Option<Box<ChainShapes>>,
}

impl ChainShapes {
    /// The `resolve-chain` answer: `{"encoded_shapes": [...]}`, with `inner` for sharding.
    #[must_use]
    pub fn to_json(&self) -> Map<String, Value> {
        let mut output = Map::new();
        output.insert(
            "encoded_shapes".into(),
            Value::from(self.encoded_shapes.clone()),
        );
        if let Some(inner) = &self.inner {
            output.insert("inner".into(), Value::Object(inner.to_json()));
        }
        output
    }
}

/// Reads `codecs` (a `codecs` list as in `zarr.json`) and resolves it for chunks
/// of `chunk_shape` holding elements of `data_type`.
///
/// # Errors
/// The reshape library's class where a reshape codec rejects its configuration or
/// the shape it is handed; `malformed-configuration` for anything else: a codec
/// configuration the JSON alone refuses, codecs out of the core spec's order, a
/// codec whose configuration does not fit the shape it is handed (a transpose
/// `order` of another length, a sharding `chunk_shape` of another rank or not
/// dividing it). A codec this reader does not implement is no error but
/// [`ZarrError::is_unsupported`], once the walk reaches it: the codecs before
/// it are checked, and none after it when its kind is unknown.
pub fn resolve_chain(
    codecs: &Value,
    chunk_shape: &[u64],
    data_type: DataType,
) -> Result<ChainShapes, ZarrError> {
    resolve_codecs(&codecs_of(codecs)?, chunk_shape, data_type)
}

/// The most codecs in one chain (and in each chain nested in `sharding_indexed`):
/// 32. Real chains hold a handful; each codec is work per chunk read, so a long
/// chain multiplies the cost of every read.
pub const MAX_CODECS: usize = 32;

/// Resolves read codecs for chunks of `chunk_shape`: array -> array codecs, one
/// array -> bytes codec, then bytes -> bytes codecs.
///
/// # Errors
/// As [`resolve_chain`].
pub(crate) fn resolve_codecs(
    codecs: &[Codec],
    chunk_shape: &[u64],
    data_type: DataType,
) -> Result<ChainShapes, ZarrError> {
    if codecs.len() > MAX_CODECS {
        return Err(ZarrError::malformed(format!(
            "a chain of {} codecs; this reader takes at most {MAX_CODECS}",
            codecs.len()
        )));
    }
    let mut shape = chunk_shape.to_vec();
    let mut encoded_shapes = Vec::new();
    let mut rest = codecs.iter();
    // Core spec, "Codecs": "the list of codecs must be of the following form: zero
    // or more array -> array codecs; followed by exactly one array -> bytes codec;
    // followed by zero or more bytes -> bytes codecs." Walked in chain order, each
    // codec handed what the one before it encodes to: array -> array codecs until
    // the array -> bytes codec, then `bytes_to_bytes` for the rest.
    let inner = loop {
        match rest.next() {
            Some(Codec::Transpose(order)) => shape = transposed(order, &shape)?,
            Some(Codec::Reshape(configuration)) => {
                shape = ReshapeCodec::new(configuration.clone(), &shape)?
                    .encoded_shape()
                    .to_vec();
            }
            Some(Codec::Bytes(endian)) => {
                bytes_endian(*endian, data_type)?;
                break None;
            }
            Some(Codec::Sharding(sharding)) => break Some(sharded(sharding, &shape, data_type)?),
            // A codec of unknown kind: what it hands on, so every check after it, is unknown.
            Some(Codec::Unsupported {
                name,
                bytes_to_bytes: false,
            }) => return Err(not_implemented(name)),
            // A bytes -> bytes codec, or the end, where the array -> bytes codec must come.
            Some(Codec::Compress(_) | Codec::Unsupported { .. }) | None => {
                return Err(no_array_to_bytes());
            }
        }
        encoded_shapes.push(shape.clone());
    };
    bytes_to_bytes(rest)?;
    Ok(ChainShapes {
        encoded_shapes,
        inner: inner.map(Box::new),
    })
}

/// transpose: B_shape[i] = A_shape[order[i]], for an `order` (a permutation, as
/// read) of exactly the rank of the shape it is handed.
///
/// # Errors
/// `malformed-configuration` when `order` has another length than the rank.
pub(crate) fn transposed(order: &[usize], shape: &[u64]) -> Result<Vec<u64>, ZarrError> {
    if order.len() != shape.len() {
        return Err(ZarrError::malformed(format!(
            "transpose's order {order:?} does not fit the rank {} of its decoded shape {shape:?}",
            shape.len()
        )));
    }
    Ok(order
        .iter()
        .filter_map(|d| shape.get(*d).copied())
        .collect())
}

/// `bytes`: big endian (`Some(true)`), little endian (`Some(false)`), or, for a
/// one-byte type only, not given.
///
/// # Errors
/// `malformed-configuration` for a multi-byte type without `endian`.
pub(crate) fn bytes_endian(endian: Option<bool>, data_type: DataType) -> Result<bool, ZarrError> {
    match endian {
        Some(big) => Ok(big),
        None if element::size_of(data_type) == 1 => Ok(false),
        None => Err(ZarrError::malformed(format!(
            "the bytes codec needs an endian for {}",
            data_type.name()
        ))),
    }
}

/// The error of a chain without an array -> bytes codec after its array -> array
/// codecs (the core spec's order: a bytes -> bytes codec cannot come before it).
pub(crate) fn no_array_to_bytes() -> ZarrError {
    ZarrError::malformed(
        "the codecs need one array -> bytes codec (bytes or sharding_indexed) after the array -> array codecs, and before any bytes -> bytes codec (core spec, Codecs)",
    )
}

/// What a codec this reader does not implement answers: no verdict, its name.
pub(crate) fn not_implemented(name: &str) -> ZarrError {
    ZarrError::unsupported(format!(
        "the codec {name:?} is not implemented by the reference's Zarr reader, so the chain cannot be evaluated"
    ))
}

/// Checks that only bytes -> bytes codecs follow the array -> bytes codec (core
/// spec, "Codecs": "followed by zero or more bytes -> bytes codecs").
///
/// # Errors
/// `malformed-configuration` for any other codec there; then, the chain being
/// otherwise in order, [`ZarrError::is_unsupported`] for a bytes -> bytes codec
/// this reader does not implement. A codec of unknown kind is unsupported where
/// it stands: the codecs after it cannot be checked.
pub(crate) fn bytes_to_bytes<'a>(rest: impl Iterator<Item = &'a Codec>) -> Result<(), ZarrError> {
    let mut unsupported = None;
    for codec in rest {
        match codec {
            Codec::Compress(_) => {}
            Codec::Unsupported {
                name,
                bytes_to_bytes: true,
            } => {
                unsupported.get_or_insert(name);
            }
            Codec::Unsupported { name, .. } => return Err(not_implemented(name)),
            Codec::Transpose(_) | Codec::Reshape(_) | Codec::Bytes(_) | Codec::Sharding(_) => {
                return Err(ZarrError::malformed(
                    "after the array -> bytes codec only bytes -> bytes codecs (gzip, zstd, crc32c) may follow (core spec, Codecs)",
                ));
            }
        }
    }
    unsupported.map_or(Ok(()), |name| Err(not_implemented(name)))
}

/// `sharding_indexed` handed shards of `shape`: its inner chunk shape must have the
/// shard's rank and divide it along every dimension; the inner chain is resolved
/// for the inner chunk shape, and the index chain for the index array (`uint64`,
/// the chunks per shard and 2).
fn sharded(
    sharding: &Sharding,
    shape: &[u64],
    data_type: DataType,
) -> Result<ChainShapes, ZarrError> {
    let inner = &sharding.chunk_shape;
    if inner.len() != shape.len() {
        return Err(ZarrError::malformed(format!(
            "sharding_indexed's chunk_shape {inner:?} does not fit the rank {} of its shard shape {shape:?}",
            shape.len()
        )));
    }
    let mut index_shape = shape
        .iter()
        .zip(inner)
        .map(|(extent, chunk)| {
            extent
                .checked_rem(*chunk)
                .filter(|rest| *rest == 0)
                .and_then(|_| extent.checked_div(*chunk))
        })
        .collect::<Option<Vec<u64>>>()
        .ok_or_else(|| {
            ZarrError::malformed(format!(
                "sharding_indexed's chunk_shape {inner:?} does not divide its shard shape {shape:?}"
            ))
        })?;
    index_shape.push(2);
    let resolved = resolve_codecs(&sharding.codecs, inner, data_type)?;
    resolve_codecs(&sharding.index_codecs, &index_shape, DataType::UInt64).map_err(|error| {
        ZarrError {
            message: format!("sharding_indexed's index_codecs: {}", error.message),
            ..error
        }
    })?;
    Ok(resolved)
}
