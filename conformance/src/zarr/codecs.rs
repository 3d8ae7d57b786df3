//! The codecs of a `codecs` list (core spec, "Codecs"), as this reader knows them:
//! `transpose`, `reshape` (the zarr-reshape library), `bytes`, `gzip`, `zstd`,
//! `crc32c` and `sharding_indexed`, whose configuration holds codec lists of its
//! own. Any other codec is kept as [`Codec::Unsupported`]: a valid chain may hold
//! it, and only this reader cannot evaluate it. Unknown codecs marked
//! `"must_understand": false` are dropped, as the core spec allows.

use serde_json::{Map, Value};
use zarr_reshape::ReshapeConfiguration;

use super::ZarrError;
use super::compress::Compressor;

/// A codec this reader knows.
#[derive(Debug, Clone, PartialEq)]
pub enum Codec {
    /// `transpose` (array -> array) with its `order`, a permutation.
    Transpose(Vec<usize>),
    /// `reshape` (array -> array), parsed by the zarr-reshape library.
    Reshape(ReshapeConfiguration),
    /// `bytes` (array -> bytes): big endian, little endian, or not given.
    Bytes(Option<bool>),
    /// `gzip`, `zstd` or `crc32c` (bytes -> bytes).
    Compress(Compressor),
    /// `sharding_indexed` (array -> bytes), with its inner chains.
    Sharding(Box<Sharding>),
    /// A codec this reader does not implement (`blosc`, or a name it does not
    /// know), with the kind the core spec gives it when the name is a core
    /// codec's. Its configuration is not read: no verdict on the chain depends
    /// on it, only the answer "cannot evaluate" (`skipped`).
    Unsupported {
        /// The codec's name.
        name: String,
        /// Whether the core spec makes it a bytes -> bytes codec (`blosc`); for
        /// an unknown name its kind, and so its place in the chain, is unknown.
        bytes_to_bytes: bool,
    },
}

/// The core codecs this reader does not implement, all bytes -> bytes (core
/// spec, "Core codecs"; `crc32c`, once a core codec, is implemented).
const CORE_BYTES_TO_BYTES: [&str; 1] = ["blosc"];

pub(super) fn u64s(value: Option<&Value>) -> Option<Vec<u64>> {
    value?.as_array()?.iter().map(Value::as_u64).collect()
}

/// An extension definition: a short-hand name, or `{name, configuration?, must_understand?}`.
pub(super) fn extension(
    value: &Value,
    point: &str,
) -> Result<(String, Map<String, Value>, bool), ZarrError> {
    if let Some(name) = value.as_str() {
        return Ok((name.to_string(), Map::new(), true));
    }
    let object = value
        .as_object()
        .ok_or_else(|| ZarrError::malformed(format!("a {point} must be a name or an object")))?;
    if let Some(key) = object
        .keys()
        .find(|key| !["name", "configuration", "must_understand"].contains(&key.as_str()))
    {
        return Err(ZarrError::malformed(format!(
            "a {point} object has the unknown member {key:?}"
        )));
    }
    let name = object
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| ZarrError::malformed(format!("a {point} needs a name")))?;
    let configuration = match object.get("configuration") {
        None => Map::new(),
        Some(Value::Object(configuration)) => configuration.clone(),
        Some(_) => {
            return Err(ZarrError::malformed(format!(
                "the {name} {point}'s configuration must be an object"
            )));
        }
    };
    let must_understand = match object.get("must_understand") {
        None => true,
        Some(Value::Bool(flag)) => *flag,
        Some(_) => {
            return Err(ZarrError::malformed(
                "must_understand must be true or false",
            ));
        }
    };
    Ok((name.to_string(), configuration, must_understand))
}

pub(super) fn only(
    configuration: &Map<String, Value>,
    members: &[&str],
    name: &str,
) -> Result<(), ZarrError> {
    match configuration
        .keys()
        .find(|key| !members.contains(&key.as_str()))
    {
        Some(key) => Err(ZarrError::malformed(format!(
            "unknown member {key:?} in the {name} configuration"
        ))),
        None => Ok(()),
    }
}

/// A `codecs` list, each codec read in order; unknown codecs marked
/// `"must_understand": false` are dropped, other codecs this reader does not
/// implement kept as [`Codec::Unsupported`].
///
/// # Errors
/// `malformed-configuration` when it is not a list; the first codec's error.
pub(crate) fn codecs_of(value: &Value) -> Result<Vec<Codec>, ZarrError> {
    value
        .as_array()
        .ok_or_else(|| ZarrError::malformed("codecs must be a list"))?
        .iter()
        .filter_map(|codec| codec_of(codec).transpose())
        .collect()
}

/// One codec; `None` for an unknown codec marked `"must_understand": false`.
/// The JSON alone decides these errors, whatever codecs surround it.
fn codec_of(value: &Value) -> Result<Option<Codec>, ZarrError> {
    let (name, configuration, must_understand) = extension(value, "codec")?;
    let codec = match name.as_str() {
        // The library parses the whole codec object, its members and name included.
        "reshape" => Codec::Reshape(ReshapeConfiguration::from_codec_json_value(value)?),
        "transpose" => {
            only(&configuration, &["order"], "transpose")?;
            let order: Vec<usize> = u64s(configuration.get("order"))
                .and_then(|order| order.into_iter().map(|d| usize::try_from(d).ok()).collect())
                .ok_or_else(|| {
                    ZarrError::malformed("transpose's order must be a list of integers")
                })?;
            let mut sorted = order.clone();
            sorted.sort_unstable();
            if !sorted.into_iter().eq(0..order.len()) {
                return Err(ZarrError::malformed(format!(
                    "transpose's order {order:?} is no permutation"
                )));
            }
            Codec::Transpose(order)
        }
        "bytes" => {
            only(&configuration, &["endian"], "bytes")?;
            Codec::Bytes(match configuration.get("endian").map(Value::as_str) {
                None => None,
                Some(Some("little")) => Some(false),
                Some(Some("big")) => Some(true),
                Some(_) => {
                    return Err(ZarrError::malformed("endian must be \"little\" or \"big\""));
                }
            })
        }
        "sharding_indexed" => {
            Codec::Sharding(Box::new(Sharding::from_configuration(&configuration)?))
        }
        other => match Compressor::from_json(other, &configuration) {
            Some(compressor) => Codec::Compress(compressor?),
            None if !must_understand => return Ok(None),
            None => Codec::Unsupported {
                name: other.to_string(),
                bytes_to_bytes: CORE_BYTES_TO_BYTES.contains(&other),
            },
        },
    };
    Ok(Some(codec))
}

/// The members a `sharding_indexed` configuration may have.
const MEMBERS: [&str; 4] = ["chunk_shape", "codecs", "index_codecs", "index_location"];

/// A `sharding_indexed` configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Sharding {
    /// The inner chunk shape: one positive extent per dimension of the shard.
    pub chunk_shape: Vec<u64>,
    /// The codecs of each inner chunk.
    pub codecs: Vec<Codec>,
    /// The codecs of the shard index, an array of `uint64` of shape
    /// `chunks per shard + [2]`.
    pub index_codecs: Vec<Codec>,
    /// Whether the index is at the start of the shard (`index_location`, default `end`).
    pub index_at_start: bool,
}

impl Sharding {
    /// Reads the configuration of a `sharding_indexed` codec object. The inner
    /// chains are read as a `codecs` list of `zarr.json` is, so a sharding codec
    /// inside them is read too: the depth is bounded by the JSON reader's nesting
    /// limit.
    ///
    /// # Errors
    /// `malformed-configuration` for a member missing, unknown or of the wrong
    /// kind; the inner chains' errors.
    pub(crate) fn from_configuration(
        configuration: &Map<String, Value>,
    ) -> Result<Self, ZarrError> {
        if let Some(key) = configuration
            .keys()
            .find(|key| !MEMBERS.contains(&key.as_str()))
        {
            return Err(ZarrError::malformed(format!(
                "unknown member {key:?} in the sharding_indexed configuration"
            )));
        }
        let chunk_shape = configuration
            .get("chunk_shape")
            .and_then(Value::as_array)
            .and_then(|extents| {
                extents
                    .iter()
                    .map(|extent| extent.as_u64().filter(|extent| *extent > 0))
                    .collect::<Option<Vec<u64>>>()
            })
            .ok_or_else(|| {
                ZarrError::malformed(
                    "sharding_indexed's chunk_shape must be a list of positive integers",
                )
            })?;
        let chain = |name: &str| {
            configuration
                .get(name)
                .ok_or_else(|| {
                    ZarrError::malformed(format!("sharding_indexed needs the member {name}"))
                })
                .and_then(|codecs| {
                    codecs_of(codecs).map_err(|error| ZarrError {
                        message: format!("sharding_indexed's {name}: {}", error.message),
                        ..error
                    })
                })
        };
        let codecs = chain("codecs")?;
        let index_codecs = chain("index_codecs")?;
        let index_at_start = match configuration.get("index_location").map(Value::as_str) {
            None | Some(Some("end")) => false,
            Some(Some("start")) => true,
            Some(_) => {
                return Err(ZarrError::malformed(
                    "sharding_indexed's index_location must be \"start\" or \"end\"",
                ));
            }
        };
        Ok(Self {
            chunk_shape,
            codecs,
            index_codecs,
            index_at_start,
        })
    }
}
