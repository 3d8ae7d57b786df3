//! Issue 27: `check_grid`, the structural answer to "does every chunk of this grid
//! fit the codec chain", against resolving the chain on every chunk (what a reader
//! that visits chunks does) and on every distinct chunk shape, on grids where
//! those finish; then `check_grid` alone on grids of 10^12 chunks. Prints the
//! ratios; see BENCHMARKS.md.
// Benchmark code: plain arithmetic, casts and indexing on sizes this file picks.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    missing_docs
)]

#[path = "../../benches/common/timing.rs"]
mod timing;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use zarr_reshape::ReshapeConfiguration;
use zarr_reshape_conformance::DataType;
use zarr_reshape_conformance::zarr::grid_check::resolve_chunk;
use zarr_reshape_conformance::zarr::{Codec, GridVerdict, Sharding, check_grid};

use timing::{human, measure, ratio, short};

fn reshape(shape: serde_json::Value) -> Codec {
    Codec::Reshape(ReshapeConfiguration::from_json_value(&json!({ "shape": shape })).unwrap())
}

fn bytes() -> Codec {
    Codec::Bytes(Some(false))
}

fn sharding(chunk_shape: Vec<u64>, codecs: Vec<Codec>, index_codecs: Vec<Codec>) -> Codec {
    Codec::Sharding(Box::new(Sharding {
        chunk_shape,
        codecs,
        index_codecs,
        index_at_start: false,
    }))
}

/// An axis of `chunks` chunks: `body` for all but the last, `tail` for the last,
/// as run-length edges; `(per-chunk edges, axis_edges)`.
fn run_axis(chunks: u64, body: u64, tail: u64) -> Axis {
    let mut edges = vec![body; chunks as usize - 1];
    edges.push(tail);
    (edges, vec![(body, 0), (tail, chunks - 1)])
}

/// An axis cycling through `edges`, `chunks` long.
fn cycling_axis(chunks: u64, edges: &[u64]) -> Axis {
    let all: Vec<u64> = (0..chunks as usize)
        .map(|i| edges[i % edges.len()])
        .collect();
    let first = edges
        .iter()
        .enumerate()
        .map(|(i, e)| (*e, i as u64))
        .collect();
    (all, first)
}

/// Resolves the chain on every chunk of the grid (C order); the first refused
/// chunk, or none.
fn every_chunk(codecs: &[Codec], grid: &[Vec<u64>]) -> Option<Vec<u64>> {
    let mut coords = vec![0usize; grid.len()];
    let mut shape: Vec<u64> = grid.iter().map(|axis| axis[0]).collect();
    loop {
        if resolve_chunk(codecs, &shape, DataType::UInt16).is_err() {
            return Some(coords.iter().map(|c| *c as u64).collect());
        }
        let mut axis = grid.len();
        loop {
            if axis == 0 {
                return None;
            }
            axis -= 1;
            coords[axis] += 1;
            if coords[axis] < grid[axis].len() {
                shape[axis] = grid[axis][coords[axis]];
                break;
            }
            coords[axis] = 0;
            shape[axis] = grid[axis][0];
        }
    }
}

/// The same over the distinct shapes only (the product of the distinct edges).
fn every_shape(codecs: &[Codec], axes: &[Vec<(u64, u64)>]) -> bool {
    let distinct: Vec<Vec<u64>> = axes
        .iter()
        .map(|axis| axis.iter().map(|(edge, _)| *edge).collect())
        .collect();
    every_chunk(codecs, &distinct).is_none()
}

struct Grid {
    name: &'static str,
    codecs: Vec<Codec>,
    grid: Vec<Vec<u64>>,
    axes: Vec<Vec<(u64, u64)>>,
}

/// An axis as its per-chunk edges and its `axis_edges`.
type Axis = (Vec<u64>, Vec<(u64, u64)>);

fn grid(name: &'static str, codecs: Vec<Codec>, axes: Vec<Axis>) -> Grid {
    let (grid, axes) = axes.into_iter().unzip();
    Grid {
        name,
        codecs,
        grid,
        axes,
    }
}

fn fits(grid: &Grid) -> bool {
    matches!(
        check_grid(&grid.codecs, &grid.axes, DataType::UInt16).unwrap(),
        GridVerdict::Fits(_)
    )
}

fn resolve_grid(c: &mut Criterion) {
    // Sharded chains: a reshape before sharding, inside it and in its index codecs.
    let sharded = || {
        vec![
            reshape(json!([[0, 1], [2], 2, -1])),
            sharding(
                vec![4, 3, 1, 1],
                vec![reshape(json!([-1])), bytes()],
                vec![reshape(json!([[0, 1], -1])), bytes()],
            ),
        ]
    };
    let comparable = [
        grid(
            "2 axes x 100 chunks, run-length, reshape [[0,1]]",
            vec![reshape(json!([[0, 1]])), bytes()],
            vec![run_axis(100, 64, 36), run_axis(100, 32, 8)],
        ),
        grid(
            "3 axes x 30 chunks, 5 edges each, transpose + reshape [-1, 2]",
            vec![
                Codec::Transpose(vec![2, 0, 1]),
                reshape(json!([-1, 2])),
                bytes(),
            ],
            vec![
                cycling_axis(30, &[8, 6, 4, 2, 10]),
                cycling_axis(30, &[3, 5, 7, 9, 11]),
                cycling_axis(30, &[1, 2, 3, 4, 5]),
            ],
        ),
        grid(
            "4 axes x 12 chunks, run-length, reshape + sharding",
            sharded(),
            vec![
                run_axis(12, 8, 4),
                run_axis(12, 16, 8),
                run_axis(12, 6, 3),
                run_axis(12, 10, 4),
            ],
        ),
    ];
    let trillion = [
        grid(
            "4 axes x 10^3 chunks (10^12), run-length, reshape + sharding: fits",
            sharded(),
            vec![
                run_axis(1000, 8, 4),
                run_axis(1000, 16, 8),
                run_axis(1000, 6, 3),
                run_axis(1000, 10, 4),
            ],
        ),
        grid(
            "4 axes x 10^3 chunks (10^12), run-length, reshape + sharding: last chunk refused",
            sharded(),
            vec![
                run_axis(1000, 8, 4),
                run_axis(1000, 16, 8),
                run_axis(1000, 6, 3),
                run_axis(1000, 10, 5),
            ],
        ),
    ];
    // 10^3 distinct edges on every axis: 10^12 distinct shapes, no enumeration of
    // the shapes either; the last axis split in two by a reshape with a size.
    let distinct = |offset: u64, step: u64| {
        let edges: Vec<u64> = (0..1000).map(|i| (offset + i) * step).collect();
        cycling_axis(1000, &edges)
    };
    let trillion_distinct = grid(
        "4 axes x 10^3 distinct edges (10^12 shapes), transpose + reshape [[0],[1],[2],2,-1]",
        vec![
            Codec::Transpose(vec![3, 1, 2, 0]),
            reshape(json!([[0], [1], [2], 2, -1])),
            bytes(),
        ],
        vec![
            distinct(1, 2),
            distinct(1, 1),
            distinct(7, 1),
            distinct(1, 3),
        ],
    );
    let mut group = short(c, "resolve_grid", 2);
    for case in &comparable {
        let chunks: usize = case.grid.iter().map(Vec::len).product();
        let shapes: usize = case.axes.iter().map(Vec::len).product();
        let verdict = fits(case);
        assert_eq!(verdict, every_chunk(&case.codecs, &case.grid).is_none());
        assert_eq!(verdict, every_shape(&case.codecs, &case.axes));
        println!(
            "GRID {}: {chunks} chunks, {shapes} distinct shapes, fits: {verdict}",
            case.name
        );
        let t_check = measure(&mut group, &format!("check_grid: {}", case.name), || {
            black_box(check_grid(&case.codecs, &case.axes, DataType::UInt16).unwrap());
        });
        let t_chunks = measure(&mut group, &format!("every chunk: {}", case.name), || {
            black_box(every_chunk(&case.codecs, &case.grid));
        });
        let t_shapes = measure(&mut group, &format!("every shape: {}", case.name), || {
            black_box(every_shape(&case.codecs, &case.axes));
        });
        ratio(
            &format!("every chunk / check_grid [{}]", case.name),
            t_chunks,
            t_check,
            "how many times faster the structural answer is than visiting every chunk",
        );
        ratio(
            &format!("every shape / check_grid [{}]", case.name),
            t_shapes,
            t_check,
            "the same against every distinct chunk shape",
        );
    }
    for case in trillion.iter().chain([&trillion_distinct]) {
        let chunks: f64 = case.axes.iter().map(|_| 1000.0).product();
        let verdict = check_grid(&case.codecs, &case.axes, DataType::UInt16).unwrap();
        match &verdict {
            GridVerdict::Fits(shapes) => {
                let sizes: Vec<Vec<usize>> = shapes
                    .encoded_extents
                    .iter()
                    .map(|step| step.iter().map(Vec::len).collect())
                    .collect();
                println!(
                    "GRID {}: {chunks:e} chunks, fits; extents per axis: {sizes:?}",
                    case.name
                );
            }
            GridVerdict::Refused { chunk, error } => {
                println!(
                    "GRID {}: {chunks:e} chunks, refused: {chunk:?}, {}",
                    case.name, error.class
                );
            }
        }
        if let Some(t) = measure(&mut group, &format!("check_grid: {}", case.name), || {
            black_box(check_grid(&case.codecs, &case.axes, DataType::UInt16).unwrap());
        }) {
            println!("TIME check_grid [{}] = {}", case.name, human(t));
        }
    }
    group.finish();
}

criterion_group!(benches, resolve_grid);
criterion_main!(benches);
