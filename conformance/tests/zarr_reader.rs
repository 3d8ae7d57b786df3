//! The small Zarr v3 reader and writer behind the fixtures and `read-array`: what it
//! opens, what it refuses and with which class, and round trips.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::Path;

use common::Scratch;
use serde_json::{Value, json};
use zarr_reshape_conformance::fixtures::pattern;
use zarr_reshape_conformance::zarr::{self, ArrayMetadata, ZarrArray};
use zarr_reshape_conformance::{DataType, TypedArray};

fn metadata(data_type: &str, shape: &[u64], chunks: &[u64], codecs: Value) -> Value {
    json!({
        "zarr_format": 3, "node_type": "array", "shape": shape, "data_type": data_type,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunks}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0, "codecs": codecs
    })
}

/// Writes `json` and the pattern's chunks into `dir`; returns the pattern.
fn write(dir: &Path, json: &Value) -> TypedArray {
    let parsed = ArrayMetadata::from_json(json).unwrap();
    let data = pattern(parsed.data_type, &parsed.shape);
    std::fs::write(dir.join("zarr.json"), json.to_string()).unwrap();
    for (key, bytes) in zarr::encode_chunks(&parsed, &data).unwrap() {
        let path = key
            .split('/')
            .fold(dir.to_path_buf(), |p, part| p.join(part));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    data
}

fn class_of(json: &Value) -> String {
    ArrayMetadata::from_json(json)
        .and_then(|m| ZarrArray::with_metadata(Path::new("."), m))
        .unwrap_err()
        .class
        .to_string()
}

const TRANSPOSED: &str = r#"[{"name": "reshape", "configuration": {"shape": [[0, 1]]}}, {"name": "bytes", "configuration": {"endian": "big"}}, {"name": "zstd", "configuration": {"level": 3, "checksum": false}}]"#;

#[test]
fn every_data_type_round_trips_in_both_byte_orders() {
    for data_type in DataType::ALL {
        for endian in ["little", "big"] {
            let scratch = Scratch::new(&format!("{}-{endian}", data_type.name()));
            let codecs = json!([
                {"name": "transpose", "configuration": {"order": [1, 0]}},
                {"name": "reshape", "configuration": {"shape": [-1]}},
                {"name": "bytes", "configuration": {"endian": endian}},
                {"name": "gzip", "configuration": {"level": 1}}
            ]);
            let mut json = metadata(data_type.name(), &[5, 7], &[2, 3], codecs);
            if *data_type == DataType::Bool {
                json["fill_value"] = json!(false);
            }
            let data = write(&scratch.0, &json);
            assert_eq!(
                zarr::read_array(&scratch.0, None).unwrap(),
                data,
                "{}",
                data_type.name()
            );
        }
    }
}

#[test]
fn zero_dimensional_arrays_and_dot_separators_round_trip() {
    let scratch = Scratch::new("0d");
    let json = metadata(
        "int32",
        &[],
        &[],
        json!([{"name": "reshape", "configuration": {"shape": [1, []]}}, "bytes"]),
    );
    // "bytes" without endian is refused for int32.
    assert_eq!(class_of(&json), "malformed-configuration");
    let json = metadata(
        "uint8",
        &[],
        &[],
        json!([{"name": "reshape", "configuration": {"shape": [1, []]}}, "bytes"]),
    );
    let data = write(&scratch.0, &json);
    assert!(scratch.0.join("c").is_file());
    assert_eq!(zarr::read_array(&scratch.0, None).unwrap(), data);

    let dotted = Scratch::new("dotted");
    let mut json = metadata(
        "int16",
        &[4, 4],
        &[3, 3],
        serde_json::from_str(TRANSPOSED).unwrap(),
    );
    json["chunk_key_encoding"]["configuration"]["separator"] = json!(".");
    let data = write(&dotted.0, &json);
    assert!(dotted.0.join("c.1.1").is_file());
    assert_eq!(zarr::read_array(&dotted.0, None).unwrap(), data);
}

#[test]
fn boxes_outside_the_array_or_of_another_rank_are_refused() {
    let scratch = Scratch::new("boxes");
    write(
        &scratch.0,
        &metadata(
            "int16",
            &[4, 5],
            &[3, 3],
            serde_json::from_str(TRANSPOSED).unwrap(),
        ),
    );
    let class = |start: &[u64], stop: &[u64]| {
        zarr::read_array(&scratch.0, Some((start, stop)))
            .unwrap_err()
            .class
            .to_string()
    };
    assert_eq!(class(&[0, 0], &[5, 5]), "out-of-bounds");
    assert_eq!(class(&[3, 0], &[2, 5]), "out-of-bounds");
    assert_eq!(class(&[0], &[4]), "shape-mismatch");
    let empty = zarr::read_array(&scratch.0, Some((&[2, 2], &[2, 5]))).unwrap();
    assert_eq!(empty.shape(), [0, 3]);
}

#[test]
fn missing_chunks_read_as_the_fill_value_and_damaged_ones_fail() {
    let scratch = Scratch::new("damaged");
    let mut json = metadata(
        "int16",
        &[4, 4],
        &[2, 4],
        serde_json::from_str(TRANSPOSED).unwrap(),
    );
    json["fill_value"] = json!(-7);
    write(&scratch.0, &json);
    std::fs::remove_file(scratch.0.join("c/1/0")).unwrap();
    let read = zarr::read_array(&scratch.0, None).unwrap();
    assert_eq!(read.to_json()[3], json!([-7, -7, -7, -7]));
    std::fs::write(scratch.0.join("c/0/0"), b"not zstd").unwrap();
    assert_eq!(
        zarr::read_array(&scratch.0, None)
            .unwrap_err()
            .class
            .to_string(),
        "malformed-configuration"
    );
    // A chunk of the wrong size, compressed correctly.
    let short = zstd::bulk::compress(&[0u8; 6], 1).unwrap();
    std::fs::write(scratch.0.join("c/0/0"), short).unwrap();
    assert_eq!(
        zarr::read_array(&scratch.0, None)
            .unwrap_err()
            .class
            .to_string(),
        "shape-mismatch"
    );
}

#[test]
fn crc32c_appends_the_castagnoli_checksum_and_the_reader_verifies_it() {
    let scratch = Scratch::new("crc32c");
    let codecs = json!([{"name": "reshape", "configuration": {"shape": [-1]}}, {"name": "bytes"}, {"name": "crc32c"}]);
    let json = metadata("uint8", &[3, 3], &[3, 3], codecs);
    let data = write(&scratch.0, &json);
    let chunk = scratch.0.join("c/0/0");
    let stored = std::fs::read(&chunk).unwrap();
    // The 9 bytes, then their CRC-32C little endian; the crate's polynomial is
    // Castagnoli's (the check value of "123456789" is 0xe3069283, RFC 3720).
    assert_eq!(stored[..9], [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    let checksum = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
    assert_eq!(checksum.checksum(b"123456789"), 0xe306_9283);
    assert_eq!(stored[9..], checksum.checksum(&stored[..9]).to_le_bytes());
    assert_eq!(zarr::read_array(&scratch.0, None).unwrap(), data);
    // A flipped checksum bit, a flipped data bit, a chunk too short for a checksum:
    // chunks the reader cannot decode, as a corrupt compressed stream.
    for corrupt in [
        [&stored[..12], &[stored[12] ^ 1]].concat(),
        [&[stored[0] ^ 0x80], &stored[1..]].concat(),
        stored[..3].to_vec(),
    ] {
        std::fs::write(&chunk, &corrupt).unwrap();
        let error = zarr::read_array(&scratch.0, None).unwrap_err();
        assert_eq!(error.class.to_string(), "malformed-configuration");
        assert!(error.message.contains("crc32c cannot decode"), "{error}");
    }
}

#[test]
fn what_the_reader_does_not_understand_fails_to_open_unless_marked_optional() {
    let codecs = || -> Value { serde_json::from_str(TRANSPOSED).unwrap() };
    let base = metadata("int16", &[4, 4], &[2, 4], codecs());
    let with = |pointer: &str, value: Value| {
        let mut json = base.clone();
        *json.pointer_mut(pointer).unwrap() = value;
        json
    };
    let mut unknown_member = base.clone();
    unknown_member["x"] = json!({"a": 1});
    assert_eq!(class_of(&unknown_member), "malformed-configuration");
    unknown_member["x"] = json!({"must_understand": false});
    assert!(ArrayMetadata::from_json(&unknown_member).is_ok());
    // A codec the reader does not implement is no error of the array: unsupported.
    let mut codecs_plus = codecs();
    codecs_plus
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "x-unknown-codec"}));
    let unsupported = ArrayMetadata::from_json(&with("/codecs", codecs_plus.clone()))
        .and_then(|m| ZarrArray::with_metadata(Path::new("."), m))
        .unwrap_err();
    assert!(unsupported.is_unsupported(), "{unsupported}");
    assert!(unsupported.message.contains("\"x-unknown-codec\""));
    codecs_plus[3]["must_understand"] = json!(false);
    assert!(ArrayMetadata::from_json(&with("/codecs", codecs_plus)).is_ok());
    let mut crc32c_members = codecs();
    crc32c_members
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "crc32c", "configuration": {"x": 1}}));
    assert_eq!(
        class_of(&with("/codecs", crc32c_members)),
        "malformed-configuration"
    );
    // Codec order, transpose rank, grid rank, data types, sizes.
    let gzip_first = json!([{"name": "gzip", "configuration": {"level": 1}}, {"name": "bytes", "configuration": {"endian": "little"}}]);
    assert_eq!(
        class_of(&with("/codecs", gzip_first)),
        "malformed-configuration"
    );
    let transpose = json!([{"name": "transpose", "configuration": {"order": [0]}}, "bytes"]);
    assert_eq!(
        class_of(&with("/codecs", transpose)),
        "malformed-configuration"
    );
    assert_eq!(
        class_of(&with("/chunk_grid/configuration/chunk_shape", json!([2]))),
        "malformed-configuration"
    );
    assert_eq!(
        class_of(&with("/data_type", json!("complex64"))),
        "malformed-configuration"
    );
    assert_eq!(
        class_of(&with("/shape", json!([4096, 4097]))),
        "malformed-configuration"
    );
    // The reshape codec's own errors keep their class.
    let reshape = |shape: Value| with("/codecs/0/configuration/shape", shape);
    assert_eq!(
        class_of(&reshape(json!([[1], [0]]))),
        "input-dims-not-increasing"
    );
    assert_eq!(
        class_of(&reshape(json!([[0, 1, 2]]))),
        "input-dim-out-of-range"
    );
    assert_eq!(class_of(&reshape(json!([0]))), "invalid-size");
    let mut member = base.clone();
    member["codecs"][0]["configuration"]["extra"] = json!(1);
    assert_eq!(class_of(&member), "malformed-configuration");
}
