//! The Zarr v3 `reshape` codec (zarr-extensions `codecs/reshape`), implemented
//! clause by clause as the reference for the zarr-reshape conformance suite.
//!
//! The modules follow the spec's sections: [`configuration`] ("Codec name",
//! "Configuration parameters"), [`shape`] and [`input_dims`] (the rules on
//! `shape`), [`algorithm`] ("Format and algorithm"), then what partial decoding
//! needs ([`mapping`]), the [`mod@explain`] trace, [`error`]s and the [`clause`] registry.
//! Every check cites its clause ID from `spec-cases/clauses.json`.
//!
//! ```
//! use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};
//! use ndarray::{ArrayD, IxDyn};
//!
//! // The spec's example: chunks of [100, 50, 64, 3] with "shape": [[0, 1], [2], 3].
//! let configuration = serde_json::json!({"shape": [[0, 1], [2], 3]});
//! let configuration = ReshapeConfiguration::from_configuration_json(&configuration)?;
//! let codec = ReshapeCodec::new(configuration, &[100, 50, 64, 3])?;
//! assert_eq!(codec.encoded_shape(), [5000, 64, 3]);
//!
//! let chunk = ArrayD::<u8>::zeros(IxDyn(&[100, 50, 64, 3]));
//! let encoded = codec.encode(&chunk)?;
//! assert!(encoded.is_view()); // no bytes moved
//! # Ok::<(), zarr_reshape::ReshapeError>(())
//! ```
#![forbid(unsafe_code)]

pub mod algorithm;
pub mod clause;
pub mod configuration;
pub mod error;
pub mod explain;
pub mod input_dims;
mod json;
pub mod limits;
pub mod mapping;
mod product;
pub mod shape;
mod strided;

pub use algorithm::{ChunkRepresentation, ReshapeCodec};
pub use clause::{Clause, Level};
pub use configuration::{ReshapeConfiguration, ShapeElement};
pub use error::{Argument, ErrorClass, Position, ReshapeError, Result};
pub use explain::{
    Explanation, Step, Verdict, explain, explain_codec, explain_codec_json_str, explain_json_str,
};
pub use mapping::{Run, Runs};

// The README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
