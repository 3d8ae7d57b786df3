//! The conformance vectors of the Zarr v3 `reshape` codec, embedded in the crate:
//! every vector file, the clause registry (`clauses.json`), the vector schema
//! (`vector.schema.json`), the array fixtures and the suite's README, exactly as
//! they are in the repository's `spec-cases/` folder.
//!
//! ```
//! let cases = zarr_reshape_vectors::vector_files().count();
//! assert!(cases > 100);
//! assert!(zarr_reshape_vectors::file("clauses.json").is_some());
//! ```
#![forbid(unsafe_code)]

/// The suite version (semver): adding vectors is a minor release, changing an
/// expectation or the vector format a major one.
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The vector format version of every file (`format` member).
pub const FORMAT: u64 = 1;

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
