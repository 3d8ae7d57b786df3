//! The Zarr array reader on an arbitrary array folder: line 1 is `zarr.json`, each
//! further line `KEY HEX` is a chunk file (its key relative to the folder, its
//! bytes in hex). The folder is written to a scratch directory of this process,
//! opened and read whole and, when it opens, by its first element. Nothing may
//! panic, and a read that succeeds has the metadata's shape.
#![no_main]

mod common;

use std::path::{Component, Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use zarr_reshape_conformance::zarr::ZarrArray;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (metadata, chunks) = common::split_line(text);
    let dir = scratch_dir();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch directory can be made");
    std::fs::write(dir.join("zarr.json"), metadata).expect("zarr.json can be written");
    for line in chunks.lines() {
        let Some((key, hex)) = line.split_once(' ') else {
            continue;
        };
        let (Some(path), Some(bytes)) = (confined(&dir, key), from_hex(hex)) else {
            continue;
        };
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(&path, bytes);
    }
    let Ok(array) = ZarrArray::open(&dir) else {
        return;
    };
    let shape = array.metadata().shape.clone();
    if let Ok(read) = array.read(None) {
        assert_eq!(read.shape(), shape, "a whole read has the array's shape");
    }
    if shape.iter().all(|&extent| extent > 0) {
        let start = vec![0; shape.len()];
        let stop = vec![1; shape.len()];
        let _ = array.read(Some((&start, &stop)));
    }
});

/// One folder per fuzzing process, under the system's temporary directory.
fn scratch_dir() -> PathBuf {
    std::env::temp_dir().join(format!("zarr-reshape-fuzz-array-{}", std::process::id()))
}

/// `key` below `dir`, or nothing when it would leave it (absolute, `..`).
fn confined(dir: &Path, key: &str) -> Option<PathBuf> {
    let key = Path::new(key);
    let plain = key
        .components()
        .all(|component| matches!(component, Component::Normal(_)));
    (plain && key.components().next().is_some()).then(|| dir.join(key))
}

fn from_hex(hex: &str) -> Option<Vec<u8>> {
    let hex = hex.trim();
    if hex.len() % 2 != 0 {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}
