//! Issue 9, benchmarks 1, 2 and 4 (the reference's side); see BENCHMARKS.md.
//!
//! 1. Whole-chunk encode and decode of standard-layout arrays, 4 KiB to 256 MiB,
//!    against a `memcpy` of the same bytes: the reference returns a view, so its time
//!    stays flat while the copy grows with the size.
//! 2. Strided input (a transposed or sliced view, as a preceding `transpose` codec
//!    leaves it): a view where the strides allow, one copy otherwise, against `memcpy`
//!    of the same bytes. The copy's throughput is written to
//!    `target/zarr-reshape-bench/strided.txt` for `benches/numpy_reshape.py`.
//! 4. Resolution and explanation per configuration (zarrs' side of the comparison is
//!    in `benches/zarrs-compare`).
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

#[path = "common/configurations.rs"]
mod configurations;
#[path = "common/timing.rs"]
mod timing;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{ArrayD, IxDyn, Slice};
use serde_json::json;
use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};

use configurations::resolution_configurations;
use timing::{human, measure, ratio, short};

fn codec(configuration: &serde_json::Value, a_shape: &[u64]) -> ReshapeCodec {
    let configuration = ReshapeConfiguration::from_json_value(configuration).unwrap();
    ReshapeCodec::new(configuration, a_shape).unwrap()
}

/// Benchmark 1: standard layout, uint8, shape [n / 4096, 64, 64], `[[0, 1], [2]]`.
fn whole_chunk(c: &mut Criterion) {
    let mut flat = Vec::new();
    for (label, bytes) in [
        ("4 KiB", 4usize << 10),
        ("64 KiB", 64 << 10),
        ("1 MiB", 1 << 20),
        ("16 MiB", 16 << 20),
        ("256 MiB", 256 << 20),
    ] {
        let a_shape = [(bytes / 4096) as u64, 64, 64];
        let codec = codec(&json!({"shape": [[0, 1], [2]]}), &a_shape);
        let decoded = ArrayD::<u8>::from_elem(IxDyn(&[bytes / 4096, 64, 64]), 7);
        let encoded = codec.encode(&decoded).unwrap();
        assert!(encoded.is_view());
        let encoded = encoded.into_owned();
        assert!(codec.decode(&encoded).unwrap().is_view());
        let mut target = vec![0u8; bytes];
        let source = decoded.as_slice().unwrap();
        // The copy of 256 MiB takes tens of milliseconds: measure it for longer.
        let seconds = if bytes >= 16 << 20 { 3 } else { 2 };
        let mut group = short(c, &format!("whole-chunk {label}"), seconds);
        let t_encode = measure(&mut group, "encode", || {
            black_box(codec.encode(black_box(&decoded)).unwrap());
        });
        let t_decode = measure(&mut group, "decode", || {
            black_box(codec.decode(black_box(&encoded)).unwrap());
        });
        let t_copy = measure(&mut group, "memcpy", || {
            target.copy_from_slice(black_box(source));
            black_box(&mut target);
        });
        group.finish();
        let key = label.replace(' ', "");
        ratio(
            &format!("whole.{key}.memcpy_over_encode"),
            t_copy,
            t_encode,
            "times faster than copying",
        );
        ratio(
            &format!("whole.{key}.memcpy_over_decode"),
            t_copy,
            t_decode,
            "times faster than copying",
        );
        if let Some(t) = t_encode {
            flat.push((label, t));
        }
    }
    if let (Some((_, small)), Some((_, large))) = (flat.first(), flat.last()) {
        println!(
            "RATIO whole.encode_256MiB_over_4KiB = {:.3}  (1 means flat: a view costs the same at any size; {} / {})",
            large / small,
            human(*large),
            human(*small)
        );
    }
}

/// Benchmark 2: strided input of 256^3 uint16 (32 MiB).
fn strided(c: &mut Criterion) {
    const SIDE: usize = 256;
    let side = SIDE as u64;
    let count = SIDE * SIDE * SIDE;
    let bytes = count * 2;
    let base = ArrayD::from_shape_vec(
        IxDyn(&[SIDE, SIDE, SIDE]),
        (0..count).map(|i| i as u16).collect(),
    )
    .unwrap();
    let source: Vec<u16> = base.as_slice().unwrap().to_vec();
    let mut target = vec![0u16; count];

    // A view whose axes are rotated ([C, A, B] stored, seen as [A, B, C]): merging the
    // first two axes is possible without moving a byte.
    let rotated = base.view().permuted_axes(IxDyn(&[1, 2, 0]));
    // A full transpose, as `transpose` with order [2, 1, 0] leaves it.
    let transposed = base.view().permuted_axes(IxDyn(&[2, 1, 0]));
    // A slice along the first axis (still contiguous) and along the last (not).
    let outer = base.slice_axis(ndarray::Axis(0), Slice::from(0..SIDE / 2));
    let inner = base.slice_axis(ndarray::Axis(2), Slice::from(0..SIDE / 2));

    let merge = codec(&json!({"shape": [[0, 1], [2]]}), &[side, side, side]);
    let flatten = codec(&json!({"shape": [-1]}), &[side, side, side]);
    let flatten_half = codec(&json!({"shape": [-1]}), &[side / 2, side, side]);
    let flatten_inner = codec(&json!({"shape": [-1]}), &[side, side, side / 2]);

    assert!(
        merge.encode(&rotated).unwrap().is_view(),
        "rotated axes merge as a view"
    );
    assert!(
        flatten_half.encode(&outer).unwrap().is_view(),
        "an outer slice flattens as a view"
    );
    assert!(
        !flatten.encode(&transposed).unwrap().is_view(),
        "a transpose flattened needs a copy"
    );
    assert!(
        !flatten_inner.encode(&inner).unwrap().is_view(),
        "an inner slice flattened needs a copy"
    );
    // The copy keeps C order of the view.
    let copied = flatten.encode(&transposed).unwrap();
    assert!(copied.iter().zip(transposed.iter()).all(|(a, b)| a == b));

    let mut group = short(c, "strided 256^3 uint16", 3);
    let t_rotated = measure(&mut group, "rotated [[0,1],[2]] (view)", || {
        black_box(merge.encode(black_box(&rotated)).unwrap());
    });
    let t_outer = measure(&mut group, "outer slice [-1] (view)", || {
        black_box(flatten_half.encode(black_box(&outer)).unwrap());
    });
    let t_transposed = measure(&mut group, "transposed [-1] (copy)", || {
        black_box(flatten.encode(black_box(&transposed)).unwrap());
    });
    let t_inner = measure(&mut group, "inner slice [-1] (copy)", || {
        black_box(flatten_inner.encode(black_box(&inner)).unwrap());
    });
    let t_copy = measure(&mut group, "memcpy 32 MiB", || {
        target.copy_from_slice(black_box(&source));
        black_box(&mut target);
    });
    let t_copy_half = measure(&mut group, "memcpy 16 MiB", || {
        target[..count / 2].copy_from_slice(black_box(&source[..count / 2]));
        black_box(&mut target);
    });
    // The floor for the inner slice: its rows (256 bytes, 512 bytes apart) copied with
    // `copy_from_slice` into a buffer made beforehand; what the access pattern allows.
    let t_rows = measure(&mut group, "floor: inner slice rows copied", || {
        for (to, from) in target[..count / 2]
            .chunks_exact_mut(SIDE / 2)
            .zip(source.chunks_exact(SIDE))
        {
            to.copy_from_slice(&from[..SIDE / 2]);
        }
        black_box(&mut target);
    });
    let t_ndarray = measure(&mut group, "ndarray as_standard_layout (copy)", || {
        black_box(black_box(&transposed).as_standard_layout());
    });
    // The floor for a tiled copy: a loop written for this one case (a cube with its
    // axes reversed), tiles of 64 x 64, plain indexing. The reference's copy is
    // generic over rank, layout and element type; this shows what that costs.
    // Checked once here, so that a filter that skips the measurement skips no check.
    blocked_transpose_copy(&source, SIDE, &mut target);
    assert!(target.iter().zip(transposed.iter()).all(|(a, b)| a == b));
    let t_blocked = measure(&mut group, "floor: cube-specific blocked loop", || {
        blocked_transpose_copy(black_box(&source), SIDE, &mut target);
        black_box(&mut target);
    });
    group.finish();
    ratio(
        "strided.transposed_copy.memcpy_over_floor_blocked",
        t_copy,
        t_blocked,
        "a cube-specific blocked loop: fraction of memcpy throughput",
    );
    ratio(
        "strided.transposed_copy.floor_blocked_over_encode",
        t_blocked,
        t_transposed,
        "the reference's generic tiled copy against the cube-specific loop (1 = as fast)",
    );
    ratio(
        "strided.rotated_view.memcpy_over_encode",
        t_copy,
        t_rotated,
        "a view: times faster than copying",
    );
    ratio(
        "strided.outer_slice_view.memcpy_over_encode",
        t_copy_half,
        t_outer,
        "a view: times faster than copying",
    );
    ratio(
        "strided.transposed_copy.memcpy_over_encode",
        t_copy,
        t_transposed,
        ">= 0.5: at least half of memcpy throughput",
    );
    ratio(
        "strided.inner_slice_copy.memcpy_over_encode",
        t_copy_half,
        t_inner,
        ">= 0.5: at least half of memcpy throughput",
    );
    ratio(
        "strided.inner_slice_copy.memcpy_over_floor_rows",
        t_copy_half,
        t_rows,
        "the inner slice's rows copied into a ready buffer: fraction of memcpy throughput",
    );
    ratio(
        "strided.inner_slice_copy.floor_rows_over_encode",
        t_rows,
        t_inner,
        "the reference's row copy against the same rows copied into a ready buffer",
    );
    ratio(
        "strided.transposed_copy.ndarray_copy_over_encode",
        t_ndarray,
        t_transposed,
        "against ndarray's own copy to standard layout",
    );
    if let Some(t) = t_transposed {
        let gbps = bytes as f64 / t / 1e9;
        println!("STRIDED transposed 256^3 uint16 [-1]: {gbps:.3} GB/s");
        let directory =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/zarr-reshape-bench");
        if std::fs::create_dir_all(&directory).is_ok() {
            let line = format!("transposed_256cubed_uint16_gbps {gbps}\n");
            let _ = std::fs::write(directory.join("strided.txt"), line);
        }
    }
}

/// The C-order copy of `source` (a cube of `side`) seen with its axes reversed:
/// `target[(i * side + j) * side + k] = source[(k * side + j) * side + i]`, in tiles.
fn blocked_transpose_copy(source: &[u16], side: usize, target: &mut [u16]) {
    const TILE: usize = 64;
    for j in 0..side {
        for i0 in (0..side).step_by(TILE) {
            for k0 in (0..side).step_by(TILE) {
                for i in i0..(i0 + TILE).min(side) {
                    let row = &mut target[(i * side + j) * side..][..side];
                    for k in k0..(k0 + TILE).min(side) {
                        row[k] = source[(k * side + j) * side + i];
                    }
                }
            }
        }
    }
}

/// Benchmark 4, the reference's side: resolve and explain per configuration.
fn resolution(c: &mut Criterion) {
    let configurations = resolution_configurations();
    for (name, configuration, a_shape) in &configurations {
        let parsed = ReshapeConfiguration::from_json_value(configuration).unwrap();
        let mut group = short(c, &format!("resolve {name}"), 1);
        let t_resolve = measure(&mut group, "resolve", || {
            black_box(parsed.resolve(black_box(a_shape)).unwrap());
        });
        let t_explain = measure(&mut group, "explain (from JSON)", || {
            black_box(zarr_reshape::explain(black_box(configuration), a_shape));
        });
        group.finish();
        ratio(
            &format!("resolve.{name}.explain_over_resolve"),
            t_explain,
            t_resolve,
            "what the trace costs on top of resolve",
        );
    }
}

criterion_group!(benches, whole_chunk, strided, resolution);
criterion_main!(benches);
