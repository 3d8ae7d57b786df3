//! The Zarr v3 `reshape` codec (zarr-extensions `codecs/reshape`), implemented
//! clause by clause as the reference for the zarr-reshape conformance suite.
//!
//! The API is what this page lists; the modules behind it are private and
//! follow the spec's data flow, one way (the repository's README, "Layout"):
//!
//! ```text
//! JSON ──parse──▶ ReshapeConfiguration ──resolve(A_shape)──▶ ReshapeCodec ──▶ encode / decode
//!   parse.rs        codec.name, shape.element,   resolve.rs orders the rules       algorithm.rs
//!                   shape.size, shape.auto.once,  of shape.rs and input_dims.rs    mapping.rs
//!                   input-dims.increasing         (B_shape, invariant, prefix,     (partial decoding)
//!                                                  suffix)
//! ```
//!
//! Each MUST rule is one function named after its clause (`input_dims_prefix`
//! for `input-dims.prefix`), quoting the spec's sentence; [`explain`] runs the
//! same flow with a trace on. Clause IDs are those of `spec-cases/clauses.json`
//! ([`Clause`]); resource bounds are in [`limits`].
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

mod algorithm;
mod audit;
mod audit_rules;
mod clause;
mod codec;
mod configuration;
mod error;
mod error_class;
mod explain;
mod input_dims;
mod json;
pub mod limits;
mod mapping;
mod parse;
mod position;
mod product;
mod resolve;
mod shape;
mod strided;
mod trace;

pub use audit::{
    BrokenRule, broken_codec_rule_classes_json_str, broken_codec_rules_json_str,
    broken_rule_classes_json_str, broken_rules_json_str,
};
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
