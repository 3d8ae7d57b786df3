//! The `bytes -> bytes` codecs: `gzip` (RFC 1952, through flate2's pure-Rust
//! backend), `zstd` (through the zstd crate) and `crc32c` (a CRC-32C checksum,
//! through the crc crate). Each writes the same bytes for the same input and
//! configuration with the pinned crate versions: gzip with mtime 0 and operating
//! system 255 ("unknown"), zstd single-threaded with the content size in the frame
//! header.

use std::io::{Read, Write};

use flate2::write::GzEncoder;
use flate2::{Compression, GzBuilder, read::GzDecoder};
use serde_json::{Map, Value, json};

use super::ZarrError;

/// CRC-32C (Castagnoli, the iSCSI polynomial), the checksum of the `crc32c` codec.
const CASTAGNOLI: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// The length of the checksum `crc32c` appends.
const CHECKSUM_BYTES: usize = 4;

/// A `bytes -> bytes` codec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compressor {
    /// `{"name": "gzip", "configuration": {"level": 0..=9}}`.
    Gzip {
        /// The deflate level.
        level: u32,
    },
    /// `{"name": "zstd", "configuration": {"level": n, "checksum": bool}}`.
    Zstd {
        /// The zstd level.
        level: i32,
        /// Whether frames carry a content checksum.
        checksum: bool,
    },
    /// `{"name": "crc32c"}`: the bytes, then their CRC-32C as 4 bytes little endian
    /// (the zarr-extensions `crc32c` codec, formerly a core codec).
    Crc32c,
}

impl Compressor {
    /// Reads the configuration of codec `name` (`gzip`, `zstd` or `crc32c`);
    /// `None` for another name.
    ///
    /// # Errors
    /// `malformed-configuration` for a configuration that is not the codec's.
    pub fn from_json(
        name: &str,
        configuration: &Map<String, Value>,
    ) -> Option<Result<Self, ZarrError>> {
        let known = |members: &[&str]| {
            configuration
                .keys()
                .find(|key| !members.contains(&key.as_str()))
                .map_or(Ok(()), |key| {
                    Err(ZarrError::malformed(format!(
                        "unknown member {key:?} in the {name} configuration"
                    )))
                })
        };
        let level = configuration.get("level").and_then(Value::as_i64);
        match name {
            "gzip" => Some(known(&["level"]).and_then(|()| {
                level
                    .and_then(|level| u32::try_from(level).ok())
                    .filter(|level| *level <= 9)
                    .map(|level| Self::Gzip { level })
                    .ok_or_else(|| ZarrError::malformed("gzip needs a level from 0 to 9"))
            })),
            "zstd" => Some(known(&["level", "checksum"]).and_then(|()| {
                let level = level
                    .and_then(|level| i32::try_from(level).ok())
                    .filter(|level| zstd::compression_level_range().contains(level))
                    .ok_or_else(|| {
                        ZarrError::malformed("zstd needs an integer level within zstd's range")
                    })?;
                let checksum = match configuration.get("checksum") {
                    None => false,
                    Some(Value::Bool(checksum)) => *checksum,
                    Some(_) => {
                        return Err(ZarrError::malformed(
                            "zstd's checksum must be true or false",
                        ));
                    }
                };
                Ok(Self::Zstd { level, checksum })
            })),
            // crc32c has no configuration: an empty object or none at all.
            "crc32c" => Some(known(&[]).map(|()| Self::Crc32c)),
            _ => None,
        }
    }

    /// The codec object, as written in `zarr.json`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            Self::Gzip { level } => json!({"name": "gzip", "configuration": {"level": level}}),
            Self::Zstd { level, checksum } => {
                json!({"name": "zstd", "configuration": {"level": level, "checksum": checksum}})
            }
            Self::Crc32c => json!({"name": "crc32c"}),
        }
    }

    /// The codec's name.
    fn name(&self) -> &'static str {
        match self {
            Self::Gzip { .. } => "gzip",
            Self::Zstd { .. } => "zstd",
            Self::Crc32c => "crc32c",
        }
    }

    /// Compresses `bytes`.
    ///
    /// # Errors
    /// When the compressor fails (`malformed-configuration`, with its message).
    pub fn encode(&self, bytes: &[u8]) -> Result<Vec<u8>, ZarrError> {
        let failed =
            |error: std::io::Error| ZarrError::malformed(format!("compression failed: {error}"));
        match self {
            Self::Gzip { level } => {
                let mut encoder: GzEncoder<Vec<u8>> = GzBuilder::new()
                    .mtime(0)
                    .operating_system(255)
                    .write(Vec::new(), Compression::new(*level));
                encoder.write_all(bytes).map_err(failed)?;
                encoder.finish().map_err(failed)
            }
            Self::Zstd { level, checksum } => {
                let mut compressor = zstd::bulk::Compressor::new(*level).map_err(failed)?;
                compressor
                    .set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(*checksum))
                    .map_err(failed)?;
                compressor
                    .set_parameter(zstd::zstd_safe::CParameter::ContentSizeFlag(true))
                    .map_err(failed)?;
                compressor.compress(bytes).map_err(failed)
            }
            Self::Crc32c => {
                let mut out = bytes.to_vec();
                out.extend_from_slice(&CASTAGNOLI.checksum(bytes).to_le_bytes());
                Ok(out)
            }
        }
    }

    /// Decodes `bytes`, reading at most `limit` bytes of output.
    ///
    /// # Errors
    /// `malformed-configuration` for data the codec cannot decode (for `crc32c`, a
    /// checksum that does not match, as for a compressed stream that is corrupt), or
    /// output beyond `limit`.
    pub fn decode(&self, bytes: &[u8], limit: usize) -> Result<Vec<u8>, ZarrError> {
        let name = self.name();
        let failed = |error: std::io::Error| {
            ZarrError::malformed(format!("{name} cannot decode the chunk: {error}"))
        };
        let reader: Box<dyn Read + '_> = match self {
            Self::Gzip { .. } => Box::new(GzDecoder::new(bytes)),
            Self::Zstd { .. } => {
                Box::new(zstd::stream::read::Decoder::with_buffer(bytes).map_err(failed)?)
            }
            Self::Crc32c => return verified(bytes),
        };
        let mut out = Vec::new();
        let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
        reader.take(cap).read_to_end(&mut out).map_err(failed)?;
        if out.len() > limit {
            return Err(ZarrError::malformed(format!(
                "{name} decodes a chunk to more than {limit} bytes"
            )));
        }
        Ok(out)
    }
}

/// The bytes `crc32c` checked, without their checksum: the last 4 bytes are the
/// CRC-32C of the bytes before them, little endian.
///
/// # Errors
/// `malformed-configuration` for fewer than 4 bytes or a checksum that does not
/// match: a chunk this reader cannot decode.
fn verified(bytes: &[u8]) -> Result<Vec<u8>, ZarrError> {
    let split = bytes.len().checked_sub(CHECKSUM_BYTES);
    let Some((data, stored)) = split.and_then(|at| bytes.split_at_checked(at)) else {
        return Err(ZarrError::malformed(format!(
            "crc32c cannot decode the chunk: {} bytes hold no 4-byte checksum",
            bytes.len()
        )));
    };
    let stored = <[u8; CHECKSUM_BYTES]>::try_from(stored).map(u32::from_le_bytes);
    let computed = CASTAGNOLI.checksum(data);
    match stored {
        Ok(stored) if stored == computed => Ok(data.to_vec()),
        Ok(stored) => Err(ZarrError::malformed(format!(
            "crc32c cannot decode the chunk: its stored checksum {stored:#010x} is not the CRC-32C {computed:#010x} of its {} bytes",
            data.len()
        ))),
        Err(_) => Err(ZarrError::malformed(
            "crc32c cannot decode the chunk: its checksum is not 4 bytes",
        )),
    }
}
