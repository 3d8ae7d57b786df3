//! The conformance vectors of the Zarr v3 `reshape` codec, embedded in the crate:
//! every vector file, the clause registry (`clauses.json`), the vector schema
//! (`vector.schema.json`), the array fixtures and the suite's README, exactly as
//! they are in the repository's `spec-cases/` folder.
//!
//! ```
//! let files = zarr_reshape_vectors::vector_files().count();
//! assert!(files > 100);
//! assert!(zarr_reshape_vectors::file("clauses.json").is_some());
//! ```
//!
//! Typed access: [`cases`] reads every case. Its level and operation are typed;
//! every other member is the exact JSON text of the file, so that the integers
//! beyond 2^64 that some cases hold reach your parser as written (this crate
//! turns on serde_json's `raw_value`, never `arbitrary_precision`).
//!
//! ```
//! use zarr_reshape_vectors::{Level, Operation};
//!
//! for case in zarr_reshape_vectors::cases()? {
//!     if case.level == Level::Must && case.operation == Operation::Resolve {
//!         let decoded_shape: &str = case.decoded_shape.get(); // e.g. "[2, 3, 4]"
//!         let expect: &str = case.expect.get(); // e.g. {"encoded_shape": [6, 4]}
//!         assert!(decoded_shape.starts_with('[') && expect.starts_with('{'));
//!     }
//! }
//! # Ok::<(), zarr_reshape_vectors::LoadError>(())
//! ```
#![forbid(unsafe_code)]

mod case;
mod load;

pub use case::{Case, Level, Operation};
pub use load::{LoadError, cases, cases_of};
/// serde_json's `RawValue`, the type of the members kept as written.
pub use serde_json::value::RawValue;

/// The suite version (semver): adding vectors is a minor release, changing an
/// expectation or the vector format a major one.
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The vector format version of every file (`format` member).
pub const FORMAT: u64 = 1;

/// The commit of the spec text (zarr-extensions `codecs/reshape`) the suite
/// tracks: `spec.commit` of `clauses.json`.
pub const SPEC_COMMIT: &str = "7b87143";

/// The suite's README (`spec-cases/README.md`): the vector format in words.
pub const README: &str = include_str!("../README.md");

/// The clause registry, `clauses.json`, as written: every clause id with its
/// level and paraphrase, and the errata and interpretations.
///
/// ```
/// assert!(zarr_reshape_vectors::clauses_json().contains("\"input-dims.prefix\""));
/// ```
#[must_use]
pub fn clauses_json() -> &'static str {
    include_str!("../clauses.json")
}

/// The JSON Schema (draft 2020-12) of a vector file, `vector.schema.json`.
///
/// ```
/// assert!(zarr_reshape_vectors::schema().contains("json-schema.org/draft/2020-12"));
/// ```
#[must_use]
pub fn schema() -> &'static str {
    include_str!("../vector.schema.json")
}

/// One file of the suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct File {
    /// Its path below the suite root, '/'-separated, e.g. `input-dims.prefix/gap-between-groups.json`.
    pub path: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

static FILES: &[File] = include!(concat!(env!("OUT_DIR"), "/files.rs"));

/// Every file of the suite, sorted by path.
#[must_use]
pub fn files() -> &'static [File] {
    FILES
}

/// The bytes of the file at `path` (relative to the suite root, '/'-separated).
#[must_use]
pub fn file(path: &str) -> Option<&'static [u8]> {
    FILES
        .binary_search_by(|file| file.path.cmp(path))
        .ok()
        .and_then(|found| FILES.get(found))
        .map(|file| file.bytes)
}

/// The files that hold cases: every `.json` file but the registry and the schema
/// (and the array fixtures' own metadata, below `arrays/`).
pub fn vector_files() -> impl Iterator<Item = &'static File> {
    FILES.iter().filter(|file| {
        file.path.ends_with(".json")
            && !file.path.starts_with("arrays/")
            && file.path != "clauses.json"
            && file.path != "vector.schema.json"
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests;
