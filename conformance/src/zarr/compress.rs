//! The `bytes -> bytes` codecs: `gzip` (RFC 1952, through flate2's pure-Rust
//! backend) and `zstd` (through the zstd crate). Both write the same bytes for the
//! same input and configuration with the pinned crate versions: gzip with mtime 0
//! and operating system 255 ("unknown"), zstd single-threaded with the content
//! size in the frame header.

use std::io::{Read, Write};

use flate2::write::GzEncoder;
use flate2::{Compression, GzBuilder, read::GzDecoder};
use serde_json::{Map, Value, json};

use super::ZarrError;

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
}

impl Compressor {
    /// Reads the configuration of codec `name` (`gzip` or `zstd`); `None` for
    /// another name.
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
        }
    }

    /// Decompresses `bytes`, reading at most `limit` bytes of output.
    ///
    /// # Errors
    /// `malformed-configuration` for data the codec cannot decode, or output beyond
    /// `limit`.
    pub fn decode(&self, bytes: &[u8], limit: usize) -> Result<Vec<u8>, ZarrError> {
        let name = match self {
            Self::Gzip { .. } => "gzip",
            Self::Zstd { .. } => "zstd",
        };
        let failed = |error: std::io::Error| {
            ZarrError::malformed(format!("{name} cannot decode the chunk: {error}"))
        };
        let reader: Box<dyn Read + '_> = match self {
            Self::Gzip { .. } => Box::new(GzDecoder::new(bytes)),
            Self::Zstd { .. } => {
                Box::new(zstd::stream::read::Decoder::with_buffer(bytes).map_err(failed)?)
            }
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
