//! The chunk grids of the reference's Zarr reader (`zarr::ChunkGrid`): the
//! rectilinear grid's indexing procedure (zarr-extensions `chunk-grids/rectilinear`,
//! "Indexing"), its run-length and integer forms, overflow chunks, the checks on
//! its declaration, hostile runs (never expanded), and arrays on it written,
//! opened and read.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::Scratch;
use serde_json::{Value, json};
use zarr_reshape_conformance::fixtures::{pattern, slice};
use zarr_reshape_conformance::zarr::{
    self, ArrayMetadata, ChunkGrid, MAX_AXIS_ITEMS, MAX_CHUNK_SHAPES, ZarrArray,
};

fn rectilinear(chunk_shapes: Value) -> Value {
    json!({"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": chunk_shapes}})
}

fn grid(chunk_shapes: Value, shape: &[u64]) -> ChunkGrid {
    ChunkGrid::from_json(&rectilinear(chunk_shapes), shape).unwrap()
}

/// The message of the error `chunk_grid` gives for an array of `shape`.
fn refused(chunk_grid: &Value, shape: &[u64]) -> String {
    let error = ChunkGrid::from_json(chunk_grid, shape).unwrap_err();
    assert_eq!(error.class.as_str(), "malformed-configuration", "{error}");
    error.message
}

/// The extension's "Indexing" example: edges `[[16, 10], [24, 14]]`.
#[test]
fn the_indexing_example_resolves_as_the_extension_says() {
    let grid = grid(json!([[16, 10], [24, 14]]), &[26, 38]);
    assert_eq!(
        grid.chunk_of_index(&[20, 15]),
        Some((vec![1, 0], vec![4, 15]))
    );
    assert_eq!(grid.chunk_shape(&[0, 0]), Some(vec![16, 24]));
    // The extension's text says [14, 16] here; its own edges give [16, 14].
    assert_eq!(grid.chunk_shape(&[0, 1]), Some(vec![16, 14]));
    assert_eq!(grid.chunk_origin(&[1, 1]), Some(vec![16, 24]));
    assert_eq!(grid.chunk_shape(&[2, 0]), None);
    assert_eq!(grid.chunk_of_index(&[26, 0]), None);
    assert_eq!(grid.grid_shape(&[26, 38]), vec![2, 2]);
    // The procedure: the first cumulative sum exceeding the index.
    for index in 0..26 {
        let chunk = u64::from(index >= 16);
        assert_eq!(grid.locate_one(index), (chunk, index - 16 * chunk));
    }
}

trait LocateOne {
    fn locate_one(&self, index: u64) -> (u64, u64);
}

impl LocateOne for ChunkGrid {
    fn locate_one(&self, index: u64) -> (u64, u64) {
        let (chunk, within) = self.chunk_of_index(&[index, 0]).unwrap();
        (chunk[0], within[0])
    }
}

/// The extension's "Example": every form of declaring the edges, for axes of 6.
#[test]
fn the_forms_of_the_example_expand_as_the_extension_says() {
    let shapes = json!([4, [1, 2, 3], [[4, 2]], [[1, 3], 3], [4, 4, 4]]);
    let grid = grid(shapes, &[6; 5]);
    let expanded: [&[u64]; 5] = [&[4, 4], &[1, 2, 3], &[4, 4], &[1, 1, 1, 3], &[4, 4, 4]];
    for (axis, edges) in expanded.iter().enumerate() {
        let mut origin = 0;
        for (chunk, edge) in edges.iter().enumerate() {
            let mut coords = vec![0; 5];
            coords[axis] = u64::try_from(chunk).unwrap();
            assert_eq!(grid.chunk_shape(&coords).unwrap()[axis], *edge, "{axis}");
            assert_eq!(grid.chunk_origin(&coords).unwrap()[axis], origin);
            origin += edge;
        }
        let mut beyond = vec![0; 5];
        beyond[axis] = u64::try_from(edges.len()).unwrap();
        assert_eq!(
            grid.chunk_shape(&beyond),
            None,
            "axis {axis} declares no more"
        );
    }
    // The last axis's third chunk is an overflow chunk: declared, holding nothing.
    assert_eq!(grid.grid_shape(&[6; 5]), vec![2, 3, 2, 4, 2]);
    assert_eq!(
        grid.axis_edges(&[6; 5]),
        vec![
            vec![(4, 0)],
            vec![(1, 0), (2, 1), (3, 2)],
            vec![(4, 0)],
            vec![(1, 0), (3, 3)],
            vec![(4, 0)],
        ]
    );
    let again = ChunkGrid::from_json(&grid.to_json(), &[6; 5]).unwrap();
    assert_eq!(again, grid);
}

#[test]
fn axis_edges_skip_overflow_chunks_and_keep_first_appearances() {
    // 4 4 3 | 5 2: the chunk of 5 starts at 11, beyond an axis of 11.
    let grid = grid(json!([[[4, 2], 3, 5, 2]]), &[11]);
    assert_eq!(grid.axis_edges(&[11]), vec![vec![(4, 0), (3, 2)]]);
    assert_eq!(grid.grid_shape(&[11]), vec![3]);
    assert_eq!(grid.axis_edges(&[12]), vec![vec![(4, 0), (3, 2), (5, 3)]]);
    assert_eq!(grid.axis_edges(&[0]), vec![Vec::<(u64, u64)>::new()]);
    let distinct = grid.distinct_chunks(&[11], MAX_CHUNK_SHAPES).unwrap();
    assert_eq!(distinct, vec![(vec![0], vec![4]), (vec![2], vec![3])]);
    // The integer form on an empty axis declares no chunk.
    let empty = self::grid(json!([3]), &[0]);
    assert_eq!(empty.grid_shape(&[0]), vec![0]);
    assert_eq!(empty.chunk_shape(&[0]), None);
    // A regular grid: one entry per non-empty axis, its chunk shape for distinct_chunks.
    let regular = ChunkGrid::from_json(
        &json!({"name": "regular", "configuration": {"chunk_shape": [2, 3]}}),
        &[5, 0],
    )
    .unwrap();
    assert_eq!(regular.axis_edges(&[5, 0]), vec![vec![(2, 0)], vec![]]);
    assert_eq!(regular.grid_shape(&[5, 0]), vec![3, 0]);
    assert_eq!(
        regular.distinct_chunks(&[5, 0], 1).unwrap(),
        vec![(vec![0, 0], vec![2, 3])]
    );
}

/// A run of 10^18 chunks is searched, not expanded: every lookup is immediate.
#[test]
fn hostile_runs_are_never_expanded() {
    let huge = 1_000_000_000_000_000_000u64;
    let started = Instant::now();
    let grid = grid(json!([[[1, huge], [7, 1]], [[huge, 1]]]), &[huge + 3, huge]);
    assert_eq!(grid.grid_shape(&[huge + 3, huge]), vec![huge + 1, 1]);
    assert_eq!(
        grid.chunk_of_index(&[huge + 2, huge - 1]),
        Some((vec![huge, 0], vec![2, huge - 1]))
    );
    assert_eq!(grid.chunk_origin(&[huge - 1, 0]), Some(vec![huge - 1, 0]));
    assert_eq!(
        grid.axis_edges(&[huge + 3, huge]),
        vec![vec![(1, 0), (7, huge)], vec![(huge, 0)]]
    );
    assert!(started.elapsed() < Duration::from_secs(1));
    // Sums beyond u64 are refused, not wrapped.
    let over = [
        json!([[[1, u64::MAX], 1]]),
        json!([[[4_294_967_296u64, 4_294_967_296u64]]]),
        json!([[u64::MAX, 1]]),
    ];
    for shapes in over {
        let message = refused(&rectilinear(shapes.clone()), &[1]);
        assert!(message.contains("beyond 2^64 - 1"), "{shapes}: {message}");
    }
    // The integer form repeats until the axis is covered: also checked.
    let message = refused(&rectilinear(json!([u64::MAX - 1])), &[u64::MAX]);
    assert!(message.contains("beyond 2^64 - 1"), "{message}");
}

#[test]
fn malformed_declarations_are_refused_saying_what_and_where() {
    let cases = [
        (json!({"name": "rectilinear"}), "kind"),
        (
            json!({"name": "rectilinear", "configuration": {"kind": "inline"}}),
            "chunk_shapes must be a list",
        ),
        (
            json!({"name": "rectilinear", "configuration": {"chunk_shapes": [2]}}),
            "kind",
        ),
        (
            json!({"name": "rectilinear", "configuration": {"kind": "file", "chunk_shapes": [2]}}),
            "\"file\"",
        ),
        (
            json!({"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": [2], "x": 1}}),
            "\"x\"",
        ),
        (
            rectilinear(json!([2, 2])),
            "2 entries for an array of rank 1",
        ),
        (rectilinear(json!({"a": 2})), "must be a list"),
        (rectilinear(json!([0])), "chunk_shapes[0] is 0"),
        (rectilinear(json!([-2])), "chunk_shapes[0] is -2"),
        (rectilinear(json!([2.0])), "chunk_shapes[0] is 2.0"),
        (rectilinear(json!(["2"])), "chunk_shapes[0]"),
        (rectilinear(json!([[3, 0]])), "chunk_shapes[0][1] is 0"),
        (rectilinear(json!([[[3, 0]]])), "[0] is [3,0]: a run"),
        (rectilinear(json!([[[0, 3]]])), "[0] is [0,3]: a run"),
        (rectilinear(json!([[[3]]])), "[0] is [3]: a run"),
        (rectilinear(json!([[[3, 1, 1]]])), "a run must be"),
        (rectilinear(json!([[[3, 1.5]]])), "a run must be"),
        (rectilinear(json!([[1e3]])), "an edge must be"),
        (
            rectilinear(json!([[3, 3]])),
            "summing to 6, short of the axis length 7",
        ),
        (
            rectilinear(json!([[]])),
            "summing to 0, short of the axis length 7",
        ),
    ];
    for (chunk_grid, needle) in cases {
        let message = refused(&chunk_grid, &[7]);
        assert!(message.contains(needle), "{chunk_grid}: {message}");
    }
    let many = vec![json!(1); MAX_AXIS_ITEMS + 1];
    let message = refused(&rectilinear(json!([many])), &[7]);
    assert!(message.contains("beyond this reader's limit"), "{message}");
    // One item fewer is read.
    let enough = vec![json!(1); MAX_AXIS_ITEMS];
    assert!(ChunkGrid::from_json(&rectilinear(json!([enough])), &[7]).is_ok());
    // Over all axes: five axes at the per-axis limit are refused, four are read.
    let full = json!(vec![json!(1); MAX_AXIS_ITEMS]);
    let message = refused(&rectilinear(json!(vec![full.clone(); 5])), &[7; 5]);
    assert!(message.contains("items over its axes"), "{message}");
    let four = ChunkGrid::from_json(&rectilinear(json!(vec![full; 4])), &[7; 4]);
    assert!(four.is_ok());
}

#[test]
fn too_many_distinct_chunk_shapes_are_refused() {
    // 65 distinct edges on each of two axes: 4225 shapes, beyond 4096.
    let edges: Vec<u64> = (1..=65).collect();
    let length: u64 = edges.iter().sum();
    let grid = grid(json!([edges, edges]), &[length, length]);
    let error = grid
        .distinct_chunks(&[length, length], MAX_CHUNK_SHAPES)
        .unwrap_err();
    assert!(
        error.message.contains("beyond this reader's limits"),
        "{error}"
    );
    assert!(
        grid.distinct_chunks(&[length, 64], MAX_CHUNK_SHAPES)
            .is_ok()
    );
}

fn metadata(shape: &[u64], chunk_shapes: Value, codecs: Value) -> Value {
    json!({
        "zarr_format": 3, "node_type": "array", "shape": shape, "data_type": "int32",
        "chunk_grid": rectilinear(chunk_shapes),
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0, "codecs": codecs
    })
}

fn write(dir: &Path, json: &Value) -> zarr_reshape_conformance::TypedArray {
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

/// Chunks of six shapes (and overflow chunks, never written), each through a
/// reshape with input dims and a transpose: every box reads back.
#[test]
fn an_array_on_a_rectilinear_grid_round_trips_box_by_box() {
    let scratch = Scratch::new("rectilinear-round-trip");
    let codecs = json!([
        {"name": "reshape", "configuration": {"shape": [[0, 1]]}},
        {"name": "bytes", "configuration": {"endian": "little"}},
        {"name": "crc32c"}
    ]);
    // Rows of 3 3 1 | 5 (the last beyond 7), columns of 4 5 | 5 (beyond 9).
    let json = metadata(&[7, 9], json!([[[3, 2], 1, 5], [4, [5, 2]]]), codecs);
    let data = write(&scratch.0, &json);
    let mut written: Vec<String> = std::fs::read_dir(scratch.0.join("c"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(
        written,
        ["0", "1", "2"],
        "no file for the overflow row of chunks"
    );
    assert!(!scratch.0.join("c/0/2").exists(), "nor column");
    let array = ZarrArray::open(&scratch.0).unwrap();
    assert_eq!(array.read(None).unwrap(), data);
    for (start, stop) in [
        ([2, 3], [7, 9]),
        ([0, 0], [3, 4]),
        ([3, 4], [4, 5]),
        ([5, 0], [5, 9]),
    ] {
        assert_eq!(
            array.read(Some((&start, &stop))).unwrap(),
            slice(&data, &start, &stop),
            "{start:?}..{stop:?}"
        );
    }
}

/// A reshape with fixed sizes fits chunks of 4x6 and not those of 3x6: the array
/// does not open (I-12), and the error names the first chunk refused.
#[test]
fn a_chain_refused_by_one_chunk_shape_stops_opening_and_names_the_chunk() {
    let codecs = json!([
        {"name": "reshape", "configuration": {"shape": [6, 4]}},
        {"name": "bytes", "configuration": {"endian": "little"}}
    ]);
    let json = metadata(&[11, 6], json!([[4, 4, 3], 6]), codecs);
    let error = ArrayMetadata::from_json(&json)
        .and_then(|m| ZarrArray::with_metadata(Path::new("."), m))
        .unwrap_err();
    assert_eq!(error.class.as_str(), "element-count-mismatch", "{error}");
    assert!(error.message.contains("chunk [2, 0] of [3, 6]"), "{error}");
    // The same grid without the third chunk opens.
    let json = metadata(&[8, 6], json!([[4, 4, 3], 6]), json["codecs"].clone());
    let metadata = ArrayMetadata::from_json(&json).unwrap();
    assert!(ZarrArray::with_metadata(Path::new("."), metadata).is_ok());
}

/// A tiny `zarr.json` of a million chunks of one element: a read of them all is
/// refused before any chunk file is looked for.
#[test]
fn reads_of_too_many_rectilinear_chunks_are_refused_before_reading() {
    let scratch = Scratch::new("rectilinear-many-chunks");
    let codecs = json!([{"name": "bytes", "configuration": {"endian": "little"}}]);
    let json = metadata(&[1 << 20], json!([[[1, 1 << 20]]]), codecs);
    std::fs::write(scratch.0.join("zarr.json"), json.to_string()).unwrap();
    let array = ZarrArray::open(&scratch.0).unwrap();
    let error = array.read(None).unwrap_err();
    assert!(
        error.message.contains("beyond this reader's limits"),
        "{error}"
    );
    assert_eq!(array.read(Some((&[5], &[7]))).unwrap().shape(), vec![2]);
}

fn fixture_folder(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spec-cases")
        .join(zarr_reshape_conformance::fixtures::ARRAYS)
        .join(name)
}

/// The invalid rectilinear fixtures (reading I-12): the array does not open, the
/// error names the first chunk `case.json` lists as refused, and the chunks it
/// lists as fitting hold the whole chain's encoding of the right values, so that
/// a reader of the other reading returns them.
#[test]
fn the_invalid_rectilinear_fixtures_refuse_one_chunk_and_hold_the_others_right() {
    let invalid: Vec<_> = zarr_reshape_conformance::fixtures::fixtures()
        .into_iter()
        .filter(|f| f.chunk_grid.is_some() && f.error.is_some())
        .collect();
    assert!(!invalid.is_empty());
    for fixture in invalid {
        let dir = fixture_folder(fixture.name);
        let case: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("case.json")).unwrap()).unwrap();
        let fit: Vec<Vec<u64>> = serde_json::from_value(case["chunks"]["fit"].clone()).unwrap();
        let refused: Vec<Vec<u64>> =
            serde_json::from_value(case["chunks"]["refused"].clone()).unwrap();
        assert!(!fit.is_empty() && !refused.is_empty(), "{}", fixture.name);
        let error = ZarrArray::open(&dir).unwrap_err();
        assert!(
            fixture.error.unwrap().contains(&error.class.as_str()),
            "{}: {error}",
            fixture.name
        );
        let named = format!("chunk {:?}", refused[0]);
        assert!(error.message.contains(&named), "{}: {error}", fixture.name);
        // Each fitting chunk, read alone: the array cut down to that chunk's
        // extent (the chunks before it kept), under the same grid and chain.
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("zarr.json")).unwrap()).unwrap();
        let grid = ChunkGrid::from_json(&json["chunk_grid"], &fixture.shape).unwrap();
        let data = pattern(fixture.data_type, &fixture.shape);
        for coords in &fit {
            let origin = grid.chunk_origin(coords).unwrap();
            let edges = grid.chunk_shape(coords).unwrap();
            let stop: Vec<u64> = origin
                .iter()
                .zip(&edges)
                .zip(&fixture.shape)
                .map(|((o, e), n)| (o + e).min(*n))
                .collect();
            let mut cut = json.clone();
            cut["shape"] = json!(stop);
            let metadata = ArrayMetadata::from_json(&cut).unwrap();
            let part = ZarrArray::with_metadata(&dir, metadata)
                .and_then(|array| array.read(Some((&origin, &stop))))
                .unwrap_or_else(|error| panic!("{} {coords:?}: {error}", fixture.name));
            assert_eq!(
                part,
                slice(&data, &origin, &stop),
                "{} {coords:?}",
                fixture.name
            );
        }
    }
}
