//! The zarr-reshape conformance suite: the vector model, the embedded reference,
//! and the judgement of answers against expectations.
#![forbid(unsafe_code)]

pub mod answer;
pub mod arrays;
pub mod judge;
pub mod reference;
pub mod vector;
