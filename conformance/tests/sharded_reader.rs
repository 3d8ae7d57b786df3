//! The reference's Zarr reader on sharded arrays: written by the reference's
//! writer in every arrangement it makes (index at the start or end, index chains
//! with a reshape, nested shards, reshape and transpose before, inside and between
//! the levels, missing inner chunks), read back whole and by boxes; a box reads only
//! the inner chunks it touches; and hostile shards and indexes are refused with a
//! class, never a panic.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::Scratch;

use serde_json::{Value, json};
use zarr_reshape::ErrorClass;
use zarr_reshape_conformance::fixtures::{pattern, slice};
use zarr_reshape_conformance::zarr::{self, ArrayMetadata, encode_chunks_with};
use zarr_reshape_conformance::{DataType, TypedArray};

/// A fresh scratch folder (the common helper's, one per call).
fn scratch() -> Scratch {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    Scratch::new(&format!("sharded-{}", NEXT.fetch_add(1, Ordering::Relaxed)))
}

fn bytes() -> Value {
    json!({"name": "bytes", "configuration": {"endian": "little"}})
}

fn crc32c() -> Value {
    json!({"name": "crc32c"})
}

fn reshape(shape: Value) -> Value {
    json!({"name": "reshape", "configuration": {"shape": shape}})
}

fn transpose(order: &[u64]) -> Value {
    json!({"name": "transpose", "configuration": {"order": order}})
}

fn sharding(chunk_shape: &[u64], codecs: Value, index_codecs: Value, location: &str) -> Value {
    json!({"name": "sharding_indexed", "configuration": {
        "chunk_shape": chunk_shape, "codecs": codecs, "index_codecs": index_codecs,
        "index_location": location}})
}

fn metadata_json(shape: &[u64], chunk_shape: &[u64], codecs: Value) -> Value {
    json!({
        "zarr_format": 3, "node_type": "array", "shape": shape, "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunk_shape}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0, "codecs": codecs,
    })
}

/// Writes the pattern array under `codecs` into `dir`; returns the array and the
/// files written (key, bytes).
fn write(
    dir: &Path,
    shape: &[u64],
    chunk_shape: &[u64],
    codecs: Value,
    omit: bool,
) -> (TypedArray, Vec<(String, Vec<u8>)>) {
    let json = metadata_json(shape, chunk_shape, codecs);
    let metadata = ArrayMetadata::from_json(&json).unwrap();
    let array = pattern(DataType::Int32, shape);
    let files = encode_chunks_with(&metadata, &array, omit).unwrap();
    std::fs::write(dir.join("zarr.json"), json.to_string()).unwrap();
    for (key, bytes) in &files {
        let path = dir.join(key);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    (array, files)
}

/// Reads `dir` whole and by every box of a few starts and stops, against `array`.
fn reads_back(dir: &Path, array: &TypedArray, shape: &[u64]) {
    assert_eq!(&zarr::read_array(dir, None).unwrap(), array);
    let cuts: Vec<Vec<u64>> = shape
        .iter()
        .map(|n| vec![0, 1, n / 2, n.saturating_sub(1), *n])
        .collect();
    let mut count = 0;
    let mut at = vec![0usize; shape.len() * 2];
    'boxes: loop {
        let start: Vec<u64> = (0..shape.len()).map(|d| cuts[d][at[2 * d]]).collect();
        let stop: Vec<u64> = (0..shape.len()).map(|d| cuts[d][at[2 * d + 1]]).collect();
        if start.iter().zip(&stop).all(|(a, b)| a < b) {
            let read = zarr::read_array(dir, Some((&start, &stop))).unwrap();
            assert_eq!(read, slice(array, &start, &stop), "{start:?}..{stop:?}");
            count += 1;
        }
        for digit in at.iter_mut() {
            *digit += 1;
            if *digit < 5 {
                continue 'boxes;
            }
            *digit = 0;
        }
        break;
    }
    assert!(count > 10, "{count} boxes");
}

#[test]
fn every_arrangement_reads_back_whole_and_by_boxes() {
    let plain = json!([bytes()]);
    let index = json!([bytes(), crc32c()]);
    let arrangements: Vec<(&str, Vec<u64>, Vec<u64>, Value)> = vec![
        (
            "transpose, reshape, transpose before sharding",
            vec![6, 8, 4],
            vec![3, 4, 4],
            json!([
                transpose(&[2, 0, 1]),
                reshape(json!([[0, 1], [2]])),
                transpose(&[1, 0]),
                sharding(&[2, 6], plain.clone(), index.clone(), "end")
            ]),
        ),
        (
            "reshape inside, index at the start",
            vec![4, 6, 4],
            vec![2, 6, 4],
            json!([sharding(
                &[2, 3, 2],
                json!([reshape(json!([[0, 1], 2])), transpose(&[1, 0]), bytes()]),
                index.clone(),
                "start"
            )]),
        ),
        (
            "nested shards with a reshape between the levels, gzip after the outer",
            vec![8, 8],
            vec![8, 4],
            json!([sharding(&[4, 4], json!([reshape(json!([2, 8])),
                sharding(&[1, 4], json!([transpose(&[1, 0]), bytes()]), index.clone(), "start")]),
                index.clone(), "end"), {"name": "gzip", "configuration": {"level": 1}}]),
        ),
        (
            "a reshape and a transpose in index_codecs",
            vec![6, 6],
            vec![6, 6],
            json!([sharding(
                &[2, 3],
                plain.clone(),
                json!([
                    reshape(json!([-1, [2]])),
                    transpose(&[1, 0]),
                    bytes(),
                    crc32c()
                ]),
                "end"
            )]),
        ),
    ];
    for (what, shape, chunks, codecs) in arrangements {
        for omit in [false, true] {
            let dir = scratch();
            let (array, _) = write(dir.0.as_path(), &shape, &chunks, codecs.clone(), omit);
            eprintln!("{what} (omit fill: {omit})");
            reads_back(dir.0.as_path(), &array, &shape);
        }
    }
}

#[test]
fn inner_chunks_of_the_fill_value_are_written_as_missing_and_read_as_fill() {
    let dir = scratch();
    // Shards of 4x4 over an array of 6x4: the second shard's lower inner chunks
    // lie beyond the array, so hold only the fill value.
    let codecs = json!([sharding(&[2, 2], json!([bytes()]), json!([bytes()]), "end")]);
    let (array, files) = write(dir.0.as_path(), &[6, 4], &[4, 4], codecs, true);
    let (_, second) = files.iter().find(|(key, _)| key == "c/1/0").unwrap();
    let index = &second[second.len() - 64..];
    assert!(index[32..].iter().all(|byte| *byte == 0xff), "{index:?}");
    assert_eq!(second.len(), 64 + 2 * 16);
    reads_back(dir.0.as_path(), &array, &[6, 4]);
}

/// Breaks the second inner chunk of the first shard (inner chunks of 2x4 in a
/// shard of 4x4, so the box of rows 0..2 does not touch it).
#[test]
fn a_box_reads_only_the_inner_chunks_it_touches() {
    let dir = scratch();
    let inner = json!([reshape(json!([-1])), bytes(), crc32c()]);
    let codecs = json!([
        transpose(&[1, 0]),
        sharding(&[4, 2], inner, json!([bytes(), crc32c()]), "end")
    ]);
    // The array's 4x4 chunk is transposed, so the shard's inner chunk [0, 1]
    // (shard columns 2..4) holds array rows 2..4.
    let (array, files) = write(dir.0.as_path(), &[4, 4], &[4, 4], codecs, false);
    let (key, shard) = &files[0];
    let mut broken = shard.clone();
    // The second inner chunk: 8 elements of 4 bytes and its checksum, after the first.
    broken[36 + 35] ^= 1;
    std::fs::write(dir.0.as_path().join(key), &broken).unwrap();
    let part = zarr::read_array(dir.0.as_path(), Some((&[0, 0], &[2, 4]))).unwrap();
    assert_eq!(part, slice(&array, &[0, 0], &[2, 4]));
    let whole = zarr::read_array(dir.0.as_path(), None).unwrap_err();
    assert_eq!(whole.class, ErrorClass::MalformedConfiguration, "{whole}");
    assert!(whole.message.contains("inner chunk [0, 1]"), "{whole}");
    let other = zarr::read_array(dir.0.as_path(), Some((&[2, 1], &[3, 2]))).unwrap_err();
    assert!(
        other.message.contains("checksum") || other.message.contains("crc32c"),
        "{other}"
    );
}

fn opens(codecs: Value) -> Result<(), zarr::ZarrError> {
    let metadata = ArrayMetadata::from_json(&metadata_json(&[4, 4], &[4, 4], codecs))?;
    zarr::ZarrArray::with_metadata(Path::new("."), metadata).map(|_| ())
}

#[test]
fn index_chains_of_no_fixed_size_and_huge_shards_are_refused() {
    let gzip = json!({"name": "gzip", "configuration": {"level": 1}});
    let refused = opens(json!([sharding(
        &[2, 2],
        json!([bytes()]),
        json!([bytes(), gzip]),
        "end"
    )]))
    .unwrap_err();
    assert_eq!(refused.class, ErrorClass::MalformedConfiguration);
    assert!(
        !refused.is_unsupported() && refused.message.contains("index_codecs"),
        "{refused}"
    );
    let nested = json!([sharding(
        &[2, 2],
        json!([bytes()]),
        json!([sharding(&[1, 1], json!([bytes()]), json!([bytes()]), "end")]),
        "end"
    )]);
    assert!(opens(nested).unwrap_err().message.contains("index_codecs"));
    let json = metadata_json(
        &[1024, 1024],
        &[1024, 1024],
        json!([sharding(&[1, 1], json!([bytes()]), json!([bytes()]), "end")]),
    );
    let huge =
        zarr::ZarrArray::with_metadata(Path::new("."), ArrayMetadata::from_json(&json).unwrap())
            .unwrap_err();
    assert!(huge.message.contains("inner chunks"), "{huge}");
}

/// Hostile shards: each stored as the only shard of a 4x4 array of inner chunks
/// of 2x4 (two index entries, 32 bytes of index at the end, no checksum).
#[test]
fn hostile_shards_are_refused_with_a_class() {
    let codecs = json!([sharding(&[2, 4], json!([bytes()]), json!([bytes()]), "end")]);
    let entries = |pairs: [[u64; 2]; 2]| -> Vec<u8> {
        let mut shard = vec![0u8; 64];
        for value in pairs.iter().flatten() {
            shard.extend(value.to_le_bytes());
        }
        shard
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("shorter than its index", vec![0; 31]),
        ("an entry beyond the shard", entries([[0, 32], [80, 32]])),
        (
            "an offset that overflows",
            entries([[0, 32], [u64::MAX - 1, 8]]),
        ),
        ("half a missing entry", entries([[0, 32], [u64::MAX, 32]])),
        (
            "an inner chunk of the wrong size",
            entries([[0, 32], [32, 16]]),
        ),
    ];
    for (what, shard) in cases {
        let dir = scratch();
        write(dir.0.as_path(), &[4, 4], &[4, 4], codecs.clone(), false);
        std::fs::write(dir.0.as_path().join("c/0/0"), &shard).unwrap();
        let error = zarr::read_array(dir.0.as_path(), None).unwrap_err();
        assert!(
            matches!(
                error.class,
                ErrorClass::MalformedConfiguration | ErrorClass::ShapeMismatch
            ),
            "{what}: {error}"
        );
        assert!(!error.is_unsupported(), "{what}");
    }
    // Both entries missing: the fill value, not an error.
    let dir = scratch();
    write(dir.0.as_path(), &[4, 4], &[4, 4], codecs, false);
    let mut empty = Vec::new();
    for _ in 0..4 {
        empty.extend(u64::MAX.to_le_bytes());
    }
    std::fs::write(dir.0.as_path().join("c/0/0"), &empty).unwrap();
    let read = zarr::read_array(dir.0.as_path(), None).unwrap();
    assert_eq!(
        read,
        TypedArray::Int32(ndarray::ArrayD::zeros(ndarray::IxDyn(&[4, 4])))
    );
}

/// The same through two levels of shards: a box inside one inner chunk of one
/// inner shard reads when another inner chunk of that inner shard is broken.
#[test]
fn a_box_reads_only_the_inner_chunks_it_touches_in_nested_shards() {
    let dir = scratch();
    let inner = json!([transpose(&[1, 0]), bytes(), crc32c()]);
    let index = json!([bytes(), crc32c()]);
    let codecs = json!([sharding(
        &[4, 4],
        json!([
            reshape(json!([2, 8])),
            sharding(&[2, 4], inner, index.clone(), "end")
        ]),
        index,
        "end"
    )]);
    // The first inner shard (array columns 0..4) comes first in the shard: its
    // 4x4 is reshaped to 2x8, whose inner chunk [0, 1] holds array rows 1 and 3;
    // it is stored second, 36 bytes (8 elements and a checksum) from the start.
    let (array, files) = write(dir.0.as_path(), &[4, 8], &[4, 8], codecs, false);
    let (key, shard) = &files[0];
    let mut broken = shard.clone();
    broken[36 + 35] ^= 1;
    std::fs::write(dir.0.join(key), &broken).unwrap();
    let part = zarr::read_array(dir.0.as_path(), Some((&[0, 0], &[1, 4]))).unwrap();
    assert_eq!(part, slice(&array, &[0, 0], &[1, 4]));
    let other = zarr::read_array(dir.0.as_path(), Some((&[0, 4], &[4, 8]))).unwrap();
    assert_eq!(other, slice(&array, &[0, 4], &[4, 8]));
    let error = zarr::read_array(dir.0.as_path(), Some((&[1, 0], &[2, 1]))).unwrap_err();
    assert!(error.message.contains("inner chunk [0, 1]"), "{error}");
    assert!(zarr::read_array(dir.0.as_path(), None).is_err());
}
