//! The zarr-reshape conformance suite behind the `zarr-reshape` command: the
//! vector model, the embedded reference, the runner and its judgement, the Zarr
//! array reader for fixtures, and the spec editors' tools.
//!
//! The public face is what the command (`src/main.rs`, which calls
//! [`command_line`]), the Python package's console script (`python/`), this
//! crate's integration tests and its benchmark use; nobody else depends on the crate.
//!
//! - At the root, the runner's model: an [`Answer`] and its [`judge`]ment
//!   ([`Outcome`], [`ClassCheck`]), the typed arrays of vectors ([`TypedArray`],
//!   [`DataType`]), the clause [`Registry`], the adapter protocol's numbers
//!   ([`PROTOCOL_VERSION`], [`MAX_LINE_BYTES`]) and the adapter process
//!   ([`AdapterProcess`], [`AdapterOptions`]).
//! - One module per area, each with a small face of its own: [`vector`] (reading,
//!   finding, embedding and exporting vector files), [`run`] (a conformance run,
//!   expectations files), [`mod@reference`] (the embedded reference, one case at a
//!   time), [`serve`] (the reference over the adapter protocol), [`coverage`] and
//!   [`matrix`] (the suite's own checks and generated tables), [`zarr`] and
//!   [`fixtures`] (Zarr arrays), [`differential`] (`zarr-reshape fuzz`),
//!   [`report`] (run reports), [`check_spec`] and [`meaning`] (the spec editors'
//!   tools, which use nothing of the rest), and [`write_guard`] (writing below a
//!   named folder without following a link), [`owned_files`] (the files a writer
//!   owns in a folder, listed in its manifest), [`reader`] (command-line readers,
//!   `--array_path`) and [`bats_export`] (the fixtures as a bats suite).
//!
//! Everything else is private: the adapter's process handling, the answer
//! reader, the judgement's internals.
#![forbid(unsafe_code)]

mod adapter;
mod answer;
mod arrays;
pub mod bats_export;
pub mod check_spec;
mod cli;
pub mod coverage;
pub mod deadline;
pub mod differential;
pub mod findings;
pub mod fixtures;
pub mod input_file;
mod judge;
pub mod matrix;
pub mod meaning;
pub mod owned_files;
pub mod reader;
pub mod readings;
pub mod reference;
mod registry;
pub mod report;
pub mod run;
pub mod serve;
pub mod vector;
mod wire;
pub mod write_guard;
pub mod zarr;

pub use adapter::{AdapterOptions, AdapterProcess, MAX_LINES_BETWEEN_CASES};
pub use answer::Answer;
pub use arrays::{DataType, TypedArray};
pub use cli::command_line;
pub use judge::{ClassCheck, Outcome, judge};
pub use registry::{ClauseEntry, InterpretationEntry, Registry, SpecVersion};
pub use wire::{ALL_OPERATIONS, MAX_LINE_BYTES, OLDEST_PROTOCOL, OPERATIONS, PROTOCOL_VERSION};
