//! The runner's expectations files (conformance/expectations/, in the repository
//! around this crate, and its array-path/ folder) read as known-failures files: one
//! format serves both.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::path::Path;

use zarr_reshape_harness::KnownFailures;

#[test]
fn the_runners_expectations_files_are_known_failures_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/expectations");
    let mut read = 0;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(std::fs::read_dir(path).unwrap().map(|e| e.unwrap().path()));
        } else {
            files.push(path);
        }
    }
    assert!(files.iter().any(|f| f.starts_with(root.join("array-path"))));
    for path in files {
        let known = KnownFailures::load(&path).unwrap();
        // Counted a second way: every id of every [[failure]] table.
        let text = std::fs::read_to_string(&path).unwrap();
        let listed: toml::Table = toml::from_str(&text).unwrap();
        let ids: usize = listed["failure"]
            .as_array()
            .unwrap()
            .iter()
            .map(|failure| failure["ids"].as_array().unwrap().len())
            .sum();
        assert!(ids > 0, "{}", path.display());
        assert_eq!(known.len(), ids, "{}", path.display());
        let first = listed["failure"][0]["ids"][0].as_str().unwrap();
        let reason = listed["failure"][0]["reason"].as_str().unwrap();
        assert!(known.reason(first).unwrap().starts_with(reason));
        read += 1;
    }
    assert!(read > 0);
}
