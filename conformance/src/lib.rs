//! The zarr-reshape conformance suite: the vector model, the embedded reference,
//! the judgement of answers against expectations, and the suite's own checks.
#![forbid(unsafe_code)]

pub mod adapter;
pub mod answer;
pub mod arrays;
pub mod check_spec;
pub mod coverage;
pub mod differential;
pub mod fixtures;
pub mod judge;
pub mod matrix;
pub mod meaning;
pub mod reference;
pub mod registry;
pub mod report;
pub mod run;
pub mod serve;
pub mod vector;
pub mod zarr;
