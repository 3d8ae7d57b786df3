//! The sample data proposed to zarr-extensions (`upstream/zarr-extensions/sample_data/`,
//! issue 28): current with what `zarr-reshape fixtures --sample-data` writes, small,
//! its shards laid out as the sharding codec says (read here byte by byte, not by
//! the reference's reader, which does not read them), and written without touching
//! what the tool did not write.
// Test code: a failed unwrap or index is a failed check.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Scratch;
use serde_json::Value;
use zarr_reshape_conformance::fixtures::{first_difference, sample};

const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../upstream/zarr-extensions/sample_data")
}

#[test]
fn the_committed_sample_data_is_current_and_small() {
    let rendered = sample::render().unwrap();
    let disk = sample::disk::on_disk(&committed()).unwrap();
    assert_eq!(
        first_difference(&rendered, &disk),
        None,
        "run `zarr-reshape fixtures --sample-data upstream/zarr-extensions/sample_data`"
    );
    let total: usize = disk.values().map(Vec::len).sum();
    assert!(total < 100_000, "{total} bytes");
    // One array per arrangement, two of them sharded.
    let sharded = sample::samples()
        .iter()
        .filter(|s| s.codecs.iter().any(|c| c["name"] == "sharding_indexed"))
        .count();
    assert_eq!((sample::samples().len(), sharded), (5, 2));
}

/// The stored inner chunks of a shard whose index is at the end, encoded with
/// `bytes` little endian and `crc32c`: checked, then cut out in index order.
fn inner_chunks(shard: &[u8], chunks: usize) -> Vec<&[u8]> {
    let index_len = chunks * 16 + 4;
    let (data, index) = shard.split_at(shard.len() - index_len);
    let (pairs, checksum) = index.split_at(chunks * 16);
    let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
    assert_eq!(
        crc.checksum(pairs).to_le_bytes(),
        checksum,
        "the index checksum"
    );
    let word = |i: usize| u64::from_le_bytes(pairs[i * 8..i * 8 + 8].try_into().unwrap());
    let mut next = 0;
    (0..chunks)
        .map(|c| {
            let at = |i: usize| usize::try_from(word(i)).unwrap();
            let (offset, length) = (at(2 * c), at(2 * c + 1));
            assert_eq!(offset, next, "inner chunks stored in order, back to back");
            next = offset + length;
            &data[offset..offset + length]
        })
        .collect()
}

fn u16s(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(2)
        .map(|b| u64::from(u16::from_le_bytes([b[0], b[1]])))
        .collect()
}

/// The array's values in C order, from the sample table.
fn flat(name: &str) -> Vec<u64> {
    let sample = sample::samples()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap();
    fn leaves(value: &Value, out: &mut Vec<u64>) {
        match value {
            Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
            v => out.push(v.as_u64().unwrap()),
        }
    }
    let mut out = Vec::new();
    leaves(&sample.values().unwrap().to_json(), &mut out);
    out
}

#[test]
fn reshape_before_sharding_stores_the_reshaped_shard_in_c_order() {
    // Shards of [4, 6, 4] reshaped to [24, 4], inner chunks of [6, 4]: the four
    // inner chunks split the shard along its rows, so together they hold the
    // shard's elements in C order, which are a run of the array's.
    let values = flat("reshape_sharded.zarr");
    for (shard, key) in ["c/0/0/0", "c/1/0/0"].iter().enumerate() {
        let bytes = std::fs::read(committed().join("reshape_sharded.zarr").join(key)).unwrap();
        let stored: Vec<u64> = inner_chunks(&bytes, 4).into_iter().flat_map(u16s).collect();
        assert_eq!(stored, values[shard * 96..(shard + 1) * 96], "{key}");
    }
}

#[test]
fn reshape_inside_the_shard_flattens_each_inner_chunk() {
    // Shards of [4, 8], inner chunks of [2, 4], each flattened to [8].
    let values = flat("reshape_in_shard.zarr");
    let bytes = std::fs::read(committed().join("reshape_in_shard.zarr/c/0/0")).unwrap();
    let chunks = inner_chunks(&bytes, 4);
    // Inner chunk (0, 1): rows 0..2, columns 4..8 of the array.
    let expected: Vec<u64> = [0usize, 1]
        .iter()
        .flat_map(|row| values[row * 8 + 4..row * 8 + 8].to_vec())
        .collect();
    assert_eq!(u16s(chunks[1]), expected);
}

fn zarr_reshape(args: &[&str]) -> std::process::Output {
    Command::new(BINARY).args(args).output().unwrap()
}

#[test]
fn writing_keeps_what_it_did_not_write_and_check_sees_a_change() {
    let scratch = Scratch::new("sample-data");
    let dir = scratch.0.join("sample_data");
    let text = dir.to_str().unwrap();
    let cases = scratch.0.join("read-array.json");
    let out = zarr_reshape(&[
        "fixtures",
        "--sample-data",
        text,
        "--suite-cases",
        cases.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(cases.is_file());
    assert!(
        zarr_reshape(&["fixtures", "--sample-data", text, "--check"])
            .status
            .success()
    );
    // A file the tool did not write stops the write, and survives a forced one.
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let refused = zarr_reshape(&["fixtures", "--sample-data", text]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let forced = zarr_reshape(&["fixtures", "--sample-data", text, "--force"]);
    assert!(forced.status.success(), "{forced:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine"
    );
    // The cases file is never overwritten.
    let again = zarr_reshape(&[
        "fixtures",
        "--sample-data",
        text,
        "--force",
        "--suite-cases",
        cases.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(2), "{again:?}");
    // --check sees a changed chunk (and the foreign file).
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    std::fs::write(dir.join("reshape_auto.zarr/c/0/0"), b"changed").unwrap();
    let stale = zarr_reshape(&["fixtures", "--sample-data", text, "--check"]);
    assert_eq!(stale.status.code(), Some(1), "{stale:?}");
    assert!(String::from_utf8_lossy(&stale.stderr).contains("reshape_auto.zarr/c/0/0 differs"));
}

/// The shard writer puts the index where `index_location` says, and refuses a
/// shard that does not divide into inner chunks instead of writing something else.
#[test]
fn the_shard_writer_places_the_index_and_refuses_uneven_shards() {
    use zarr_reshape_conformance::zarr::{ArrayMetadata, encode_chunks};
    let array = sample::samples()
        .into_iter()
        .find(|s| s.name == "reshape_in_shard.zarr")
        .unwrap();
    let metadata = |sharding: Value| {
        let json = serde_json::json!({
            "zarr_format": 3, "node_type": "array", "shape": [8, 8], "data_type": "uint16",
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 8]}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "fill_value": 0,
            "codecs": [{"name": "sharding_indexed", "configuration": sharding}],
        });
        ArrayMetadata::from_json(&json).unwrap()
    };
    let bytes = serde_json::json!([{"name": "bytes", "configuration": {"endian": "little"}}]);
    let start = metadata(serde_json::json!({
        "chunk_shape": [2, 4], "codecs": bytes, "index_codecs": bytes, "index_location": "start",
    }));
    let shards = encode_chunks(&start, &array.values().unwrap()).unwrap();
    // Shards of 4x8 in inner chunks of 2x4: 4 inner chunks of 16 bytes after an
    // index of 4 x 16 bytes, whose first entry points just past it.
    let (_, first) = &shards[0];
    assert_eq!(first.len(), 64 + 4 * 16);
    assert_eq!(
        first[..16],
        [64, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]
    );
    let uneven = metadata(serde_json::json!({
        "chunk_shape": [3, 4], "codecs": bytes, "index_codecs": bytes,
    }));
    let refused = encode_chunks(&uneven, &array.values().unwrap()).unwrap_err();
    assert!(refused.message.contains("does not divide"), "{refused}");
}
