//! The Zarr v3 `reshape` codec (zarr-extensions `codecs/reshape`), implemented
//! clause by clause as the reference for the zarr-reshape conformance suite.
//!
//! The modules follow the spec's data flow, one way: [`parse`] the configuration
//! ("Codec name", "Configuration parameters") → [`resolve`] it against the
//! decoded shape, with the rules of [`shape`] and [`input_dims`] → the resolved
//! [`codec`] → [`algorithm`] (encode, decode) and [`mapping`] (partial decoding).
//! [`mod@explain`] runs the same flow with the [`trace`] on. Every check cites its
//! clause ID from `spec-cases/clauses.json`.
//!
//! ```
//! use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};
//! use ndarray::{ArrayD, IxDyn};
//!
//! // The spec's example: chunks of [100, 50, 64, 3] with "shape": [[0, 1], [2], 3].
//! let configuration = serde_json::json!({"shape": [[0, 1], [2], 3]});
//! let configuration = ReshapeConfiguration::from_json_value(&configuration)?;
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
pub mod codec;
pub mod configuration;
pub mod error;
pub mod error_class;
pub mod explain;
pub mod input_dims;
mod json;
pub mod limits;
pub mod mapping;
pub mod parse;
pub mod position;
mod product;
pub mod resolve;
pub mod shape;
mod strided;
pub mod trace;

pub use clause::{Clause, Level};
pub use codec::{ChunkRepresentation, ReshapeCodec};
pub use configuration::{ReshapeConfiguration, ShapeElement};
pub use error::{ReshapeError, Result};
pub use error_class::ErrorClass;
pub use explain::{Explanation, explain, explain_codec, explain_codec_json_str, explain_json_str};
pub use mapping::{Run, Runs};
pub use position::{Argument, Position};
pub use trace::{Step, Verdict};

// The README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
