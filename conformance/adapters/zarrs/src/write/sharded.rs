//! The arrays of the second set: `sharding_indexed` with `reshape` before it,
//! inside it, nested and in its index, and `rectilinear` chunk grids. zarrs 0.23.14
//! writes and reads them all (the adapter's test `zarrs_reads_back_what_it_wrote`);
//! the reference reads them once its reader reads sharded arrays and rectilinear
//! grids (`run-written.sh` runs this set unless told `--regular-only`).
//!
//! Every inner chain here also fits the whole shard's shape: zarrs checks a shard's
//! inner chain against the shard's shape, not the inner chunk's
//! (`sharding_codec.rs:654-681`), and refuses to write an array whose inner chain
//! fits only the inner chunk (a fixed-size `reshape` inside sharding, for example).

use serde_json::{Value, json};

use super::specs::Spec;

/// The set of sharded arrays and rectilinear grids.
pub const SHARDED: &str = "zarrs-written-sharded";

fn reshape(shape: Value) -> Value {
    json!({"name": "reshape", "configuration": {"shape": shape}})
}

fn transpose(order: Value) -> Value {
    json!({"name": "transpose", "configuration": {"order": order}})
}

fn bytes(endian: &str) -> Value {
    json!({"name": "bytes", "configuration": {"endian": endian}})
}

fn crc32c() -> Value {
    json!({"name": "crc32c"})
}

fn sharding(chunk_shape: Value, codecs: Value, index_codecs: Value, location: &str) -> Value {
    json!({"name": "sharding_indexed", "configuration": {
        "chunk_shape": chunk_shape, "codecs": codecs,
        "index_codecs": index_codecs, "index_location": location,
    }})
}

fn rectilinear(chunk_shapes: Value) -> Option<Value> {
    Some(
        json!({"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": chunk_shapes}}),
    )
}

/// Every array of the set.
pub fn specs() -> Vec<Spec> {
    let gzip = json!({"name": "gzip", "configuration": {"level": 5}});
    let zstd = json!({"name": "zstd", "configuration": {"level": 3, "checksum": false}});
    let index = json!([bytes("little"), crc32c()]);
    vec![
        Spec {
            set: SHARDED,
            name: "zarrs-sharded-transpose-reshape-transpose-int32",
            description: "transpose [2, 0, 1] (the 2x3x4 shard to 4x2x3), [[0], [1, 2]] (to 4x6), transpose [1, 0] (to 6x4), then sharding_indexed with 3x2 inner chunks (gzip; index [bytes, crc32c] at the end); edge shards along dim 0.",
            clauses: &["algorithm.ravel", "shape.input-dims", "algorithm.rank"],
            data_type: "int32",
            shape: &[5, 6, 4],
            chunks: &[2, 3, 4],
            grid: None,
            codecs: json!([
                transpose(json!([2, 0, 1])),
                reshape(json!([[0], [1, 2]])),
                transpose(json!([1, 0])),
                sharding(
                    json!([3, 2]),
                    json!([bytes("little"), gzip]),
                    index.clone(),
                    "end"
                )
            ]),
            skip_chunks: &[],
            boxes: &[(&[1, 1, 1], &[4, 5, 3])],
            fill_boxes: &[],
        },
        Spec {
            set: SHARDED,
            name: "zarrs-sharded-inner-reshape-index-start-uint16",
            description: "sharding_indexed with 2x3 inner chunks of the 4x6 shards, inner codecs [3, -1] (to 3x2), transpose [1, 0], big-endian bytes, zstd; the index [bytes, crc32c] at the start; edge shards along dim 1; the first inner chunk holds only the fill value (absent from its shard).",
            clauses: &["algorithm.ravel", "shape.auto.value", "shape.size"],
            data_type: "uint16",
            shape: &[8, 11],
            chunks: &[4, 6],
            grid: None,
            codecs: json!([sharding(
                json!([2, 3]),
                json!([
                    reshape(json!([3, -1])),
                    transpose(json!([1, 0])),
                    bytes("big"),
                    zstd
                ]),
                index.clone(),
                "start"
            )]),
            skip_chunks: &[],
            boxes: &[(&[1, 2], &[7, 10])],
            fill_boxes: &[(&[0, 0], &[2, 3])],
        },
        Spec {
            set: SHARDED,
            name: "zarrs-sharded-nested-reshape-float32",
            description: "sharding_indexed with 4x4 inner chunks of the 8x8 shards; the inner codecs [[0, 1]] (to 16) then a nested sharding_indexed with chunks of 4 (index at the start); edge shards along dim 0; one inner chunk and one nested chunk hold only the fill value.",
            clauses: &["algorithm.ravel", "shape.input-dims", "algorithm.rank"],
            data_type: "float32",
            shape: &[10, 8],
            chunks: &[8, 8],
            grid: None,
            codecs: json!([sharding(
                json!([4, 4]),
                json!([
                    reshape(json!([[0, 1]])),
                    sharding(json!([4]), json!([bytes("little")]), index.clone(), "start")
                ]),
                index.clone(),
                "end"
            )]),
            skip_chunks: &[],
            boxes: &[(&[3, 2], &[9, 7])],
            fill_boxes: &[(&[4, 4], &[8, 8]), (&[0, 4], &[1, 8])],
        },
        Spec {
            set: SHARDED,
            name: "zarrs-sharded-index-reshape-int64",
            description: "[3, 2, -1] (the 6x4 shard to 3x2x4), then sharding_indexed with 3x1x2 inner chunks, its index (1x2x2x2) through [[0, 1, 2], [3]] (to 4x2), transpose [1, 0], big-endian bytes and crc32c, at the start; written shard by shard, shard [0, 1] left unwritten.",
            clauses: &["algorithm.ravel", "shape.auto.value", "shape.input-dims"],
            data_type: "int64",
            shape: &[6, 8],
            chunks: &[6, 4],
            grid: None,
            codecs: json!([
                reshape(json!([3, 2, -1])),
                sharding(
                    json!([3, 1, 2]),
                    json!([bytes("little")]),
                    json!([
                        reshape(json!([[0, 1, 2], [3]])),
                        transpose(json!([1, 0])),
                        bytes("big"),
                        crc32c()
                    ]),
                    "start"
                )
            ]),
            skip_chunks: &[&[0, 1]],
            boxes: &[(&[2, 1], &[5, 7])],
            fill_boxes: &[],
        },
        Spec {
            set: SHARDED,
            name: "zarrs-rectilinear-reshape-transpose-uint8",
            description: "a rectilinear grid, edges [2, [3, 2], 2, 2] (the last chunk wholly beyond the array's 10) by 4 (crossing the end of 7); [[0], 2, -1] splits dim 1 (n x 4 to n x 2 x 2), transpose [2, 0, 1], zstd; written chunk by chunk, chunk [1, 1] left unwritten.",
            clauses: &["algorithm.ravel", "shape.auto.value", "shape.input-dims"],
            data_type: "uint8",
            shape: &[10, 7],
            chunks: &[2, 4],
            grid: rectilinear(json!([[2, [3, 2], 2, 2], 4])),
            codecs: json!([
                reshape(json!([[0], 2, -1])),
                transpose(json!([2, 0, 1])),
                bytes("little"),
                zstd
            ]),
            skip_chunks: &[&[1, 1]],
            boxes: &[(&[1, 1], &[9, 6])],
            fill_boxes: &[],
        },
        Spec {
            set: SHARDED,
            name: "zarrs-rectilinear-sharded-int16",
            description: "a rectilinear grid of shards 4x6 and 8x6 (edges [4, [8, 1]] by [6]); transpose [1, 0], [[0, 1]] (to 24 or 48), then sharding_indexed with inner chunks of 12 (gzip; index [bytes, crc32c] at the end).",
            clauses: &["algorithm.ravel", "shape.input-dims", "algorithm.rank"],
            data_type: "int16",
            shape: &[12, 6],
            chunks: &[4, 6],
            grid: rectilinear(json!([[4, [8, 1]], [6]])),
            codecs: json!([
                transpose(json!([1, 0])),
                reshape(json!([[0, 1]])),
                sharding(json!([12]), json!([bytes("little"), gzip]), index, "end")
            ]),
            skip_chunks: &[],
            boxes: &[(&[2, 1], &[10, 5])],
            fill_boxes: &[],
        },
    ]
}
