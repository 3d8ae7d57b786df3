//! The arrays that `write-arrays` has zarrs write, and the values they hold.

use serde_json::{Value, json};

use crate::array::Element;

/// One array that zarrs writes.
pub struct Spec {
    /// The set the cases belong to: the folder of their vector file and the first
    /// part of their ids ([`REGULAR`] or [`sharded::SHARDED`](super::sharded::SHARDED)).
    pub set: &'static str,
    /// The folder name under `arrays/`, and the case id after `zarrs-written/`.
    pub name: &'static str,
    /// What the array shows, for people.
    pub description: &'static str,
    /// Clause ids from clauses.json.
    pub clauses: &'static [&'static str],
    /// The Zarr v3 data type name.
    pub data_type: &'static str,
    /// The array's shape.
    pub shape: &'static [u64],
    /// The regular grid's chunk shape (when `grid` is `None`).
    pub chunks: &'static [u64],
    /// Another chunk grid, as zarr.json's `chunk_grid` has it.
    pub grid: Option<Value>,
    /// The array's `codecs`, as zarr.json has them (array-to-array codecs first).
    pub codecs: Value,
    /// Chunks left unwritten (they read as the fill value); the others are written
    /// one `store_chunk` each. Empty: the whole array in one `store_array_subset`.
    pub skip_chunks: &'static [&'static [u64]],
    /// Boxes to read back as `read-array` cases of their own (start, stop).
    pub boxes: &'static [(&'static [u64], &'static [u64])],
    /// Boxes (start, stop) whose elements are the fill value 0: zarrs leaves an
    /// inner chunk of a shard that holds only the fill value out of the shard.
    pub fill_boxes: &'static [(&'static [u64], &'static [u64])],
}

impl Spec {
    /// zarr.json's `chunk_grid`.
    pub fn chunk_grid(&self) -> Value {
        self.grid.clone().unwrap_or_else(
            || json!({"name": "regular", "configuration": {"chunk_shape": self.chunks}}),
        )
    }
}

/// The set of arrays with a regular grid and no sharding.
pub const REGULAR: &str = "zarrs-written";

/// Every array `write-arrays` writes.
pub fn specs() -> Vec<Spec> {
    let mut specs = regular();
    specs.extend(super::sharded::specs());
    specs
}

/// The arrays with a regular grid and no sharding.
fn regular() -> Vec<Spec> {
    let reshape = |shape: Value| json!({"name": "reshape", "configuration": {"shape": shape}});
    let transpose = |order: Value| json!({"name": "transpose", "configuration": {"order": order}});
    let bytes = |endian: &str| json!({"name": "bytes", "configuration": {"endian": endian}});
    let gzip = json!({"name": "gzip", "configuration": {"level": 5}});
    let zstd = json!({"name": "zstd", "configuration": {"level": 3, "checksum": false}});
    vec![
        Spec {
            set: REGULAR,
            name: "zarrs-merge-transpose-gzip-int32",
            description: "[[0, 1], [2]] merges the chunk's first two dims (2x3x4 to 6x4), then transpose [1, 0] and gzip; edge chunks along dim 0.",
            clauses: &["algorithm.ravel", "shape.input-dims", "algorithm.rank"],
            data_type: "int32",
            shape: &[5, 6, 4],
            chunks: &[2, 3, 4],
            codecs: json!([
                reshape(json!([[0, 1], [2]])),
                transpose(json!([1, 0])),
                bytes("little"),
                gzip
            ]),
            skip_chunks: &[],
            boxes: &[(&[1, 1, 1], &[4, 5, 3])],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-transpose-merge-transpose-zstd-uint16-be",
            description: "transpose [2, 0, 1] (2x3x4 to 4x2x3), [[0], [1, 2]] (to 4x6), transpose [1, 0], big-endian bytes and zstd.",
            clauses: &["algorithm.ravel", "shape.input-dims", "algorithm.rank"],
            data_type: "uint16",
            shape: &[4, 5, 6],
            chunks: &[2, 3, 4],
            codecs: json!([
                transpose(json!([2, 0, 1])),
                reshape(json!([[0], [1, 2]])),
                transpose(json!([1, 0])),
                bytes("big"),
                zstd
            ]),
            skip_chunks: &[],
            boxes: &[(&[0, 1, 2], &[3, 5, 6])],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-split-transpose-gzip-float32",
            description: "[2, -1] on the 4x6 chunk (to 2x12), transpose [1, 0], gzip; NaN, -0.0 and infinities among the values; edge chunks along dim 0.",
            clauses: &["algorithm.ravel", "shape.auto.value", "shape.size"],
            data_type: "float32",
            shape: &[7, 6],
            chunks: &[4, 6],
            codecs: json!([
                reshape(json!([2, -1])),
                transpose(json!([1, 0])),
                bytes("little"),
                gzip
            ]),
            skip_chunks: &[],
            boxes: &[(&[3, 1], &[6, 5])],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-auto-transpose-zstd-bool",
            description: "[-1, 2] on the 2x2x2 chunk (to 4x2), transpose [1, 0], zstd; edge chunks along dims 0 and 1.",
            clauses: &["algorithm.ravel", "shape.auto.value", "algorithm.rank"],
            data_type: "bool",
            shape: &[3, 5, 2],
            chunks: &[2, 2, 2],
            codecs: json!([
                reshape(json!([-1, 2])),
                transpose(json!([1, 0])),
                bytes("little"),
                zstd
            ]),
            skip_chunks: &[],
            boxes: &[],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-split-middle-transpose-float64-be",
            description: "[[0], 2, 2, 5] splits dim 1 of the 3x4x5 chunk (to 3x2x2x5), transpose [3, 2, 1, 0], big-endian bytes; edge chunks along dim 2.",
            clauses: &[
                "algorithm.ravel",
                "shape.size",
                "shape.input-dims",
                "algorithm.rank",
            ],
            data_type: "float64",
            shape: &[3, 4, 8],
            chunks: &[3, 4, 5],
            codecs: json!([
                reshape(json!([[0], 2, 2, 5])),
                transpose(json!([3, 2, 1, 0])),
                bytes("big")
            ]),
            skip_chunks: &[],
            boxes: &[(&[1, 1, 3], &[3, 3, 7])],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-1d-to-2d-transpose-gzip-int8",
            description: "[3, 4] turns the 12-element chunk into 3x4, transpose [1, 0], gzip; an edge chunk at the end.",
            clauses: &["algorithm.ravel", "shape.size", "algorithm.rank"],
            data_type: "int8",
            shape: &[30],
            chunks: &[12],
            codecs: json!([
                reshape(json!([3, 4])),
                transpose(json!([1, 0])),
                bytes("little"),
                gzip
            ]),
            skip_chunks: &[],
            boxes: &[(&[5], &[20])],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-split-last-transpose-int64-be",
            description: "[[0], 2, 2] splits dim 1 of the 4x4 chunk (to 4x2x2), transpose [2, 1, 0], big-endian bytes; the int64 extremes among the values.",
            clauses: &[
                "algorithm.ravel",
                "shape.size",
                "shape.input-dims",
                "algorithm.rank",
            ],
            data_type: "int64",
            shape: &[4, 4],
            chunks: &[4, 4],
            codecs: json!([
                reshape(json!([[0], 2, 2])),
                transpose(json!([2, 1, 0])),
                bytes("big")
            ]),
            skip_chunks: &[],
            boxes: &[],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-flatten-zstd-uint64",
            description: "[-1] flattens the 3x5 chunk, zstd; the uint64 extremes among the values.",
            clauses: &["algorithm.ravel", "shape.auto.value", "algorithm.rank"],
            data_type: "uint64",
            shape: &[6, 5],
            chunks: &[3, 5],
            codecs: json!([reshape(json!([-1])), bytes("little"), zstd]),
            skip_chunks: &[],
            boxes: &[],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-merge-inner-transpose-zstd-uint8",
            description: "[[0], [1, 2], [3]] merges the middle dims of the 2x3x2x5 chunk (to 2x6x5), transpose [2, 0, 1], zstd; edge chunks along dim 2.",
            clauses: &["algorithm.ravel", "shape.input-dims", "algorithm.rank"],
            data_type: "uint8",
            shape: &[2, 3, 5, 5],
            chunks: &[2, 3, 2, 5],
            codecs: json!([
                reshape(json!([[0], [1, 2], [3]])),
                transpose(json!([2, 0, 1])),
                bytes("little"),
                zstd
            ]),
            skip_chunks: &[],
            boxes: &[(&[0, 1, 1, 0], &[2, 3, 4, 5])],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-auto-middle-transpose-gzip-int16-be",
            description: "[[0], -1, 2] splits dim 1 of the 3x8 chunk (to 3x4x2), transpose [1, 2, 0], big-endian bytes and gzip.",
            clauses: &[
                "algorithm.ravel",
                "shape.auto.value",
                "shape.input-dims",
                "algorithm.rank",
            ],
            data_type: "int16",
            shape: &[6, 8],
            chunks: &[3, 8],
            codecs: json!([
                reshape(json!([[0], -1, 2])),
                transpose(json!([1, 2, 0])),
                bytes("big"),
                gzip
            ]),
            skip_chunks: &[],
            boxes: &[],
            grid: None,
            fill_boxes: &[],
        },
        Spec {
            set: REGULAR,
            name: "zarrs-split-transpose-chunkwise-uint32",
            description: "[3, 2] on the 2x3 chunk, transpose [1, 0]; written one chunk at a time with store_chunk, chunk [1, 1] left unwritten (it reads as the fill value 0).",
            clauses: &["algorithm.ravel", "shape.size"],
            data_type: "uint32",
            shape: &[4, 6],
            chunks: &[2, 3],
            codecs: json!([
                reshape(json!([3, 2])),
                transpose(json!([1, 0])),
                bytes("little")
            ]),
            skip_chunks: &[&[1, 1]],
            boxes: &[(&[1, 2], &[4, 5])],
            grid: None,
            fill_boxes: &[],
        },
    ]
}

/// The value of element `i` (C order) as native-endian bytes: varied, with the
/// extremes and the special floats among the first elements.
pub fn element_bytes(element: Element, i: u64) -> Vec<u8> {
    let n = i.wrapping_mul(2_654_435_761) >> 7;
    match element {
        Element::Bool => vec![u8::from(n.is_multiple_of(3))],
        Element::Int8 => [i8::MIN, i8::MAX, -1]
            .get(i as usize)
            .copied()
            .unwrap_or(n as i8)
            .to_ne_bytes()
            .to_vec(),
        Element::Int16 => [i16::MIN, i16::MAX]
            .get(i as usize)
            .copied()
            .unwrap_or(n as i16)
            .to_ne_bytes()
            .to_vec(),
        Element::Int32 => [i32::MIN, i32::MAX]
            .get(i as usize)
            .copied()
            .unwrap_or(n as i32)
            .to_ne_bytes()
            .to_vec(),
        Element::Int64 => [i64::MIN, i64::MAX]
            .get(i as usize)
            .copied()
            .unwrap_or((n as i64).wrapping_mul(-0x1234_5678_9abc))
            .to_ne_bytes()
            .to_vec(),
        Element::Uint8 => (n as u8).to_ne_bytes().to_vec(),
        Element::Uint16 => [u16::MAX]
            .get(i as usize)
            .copied()
            .unwrap_or(n as u16)
            .to_ne_bytes()
            .to_vec(),
        Element::Uint32 => (i as u32 + 1).to_ne_bytes().to_vec(),
        Element::Uint64 => [u64::MAX, 1 << 63]
            .get(i as usize)
            .copied()
            .unwrap_or(n.wrapping_mul(0x9e37_79b9))
            .to_ne_bytes()
            .to_vec(),
        Element::Float32 => {
            let specials = [
                f32::NAN,
                -0.0,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::MIN_POSITIVE,
            ];
            let x = specials
                .get(i as usize)
                .copied()
                .unwrap_or(i as f32 * 0.1 - 2.5);
            x.to_ne_bytes().to_vec()
        }
        Element::Float64 => {
            let specials = [f64::NAN, -0.0, f64::INFINITY, f64::MAX, 5e-324];
            let x = specials
                .get(i as usize)
                .copied()
                .unwrap_or(i as f64 / 3.0 - 7.0);
            x.to_ne_bytes().to_vec()
        }
    }
}
