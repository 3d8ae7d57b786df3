//! algorithm.view: encode and decode borrow the array whenever ndarray's strides
//! allow it, for standard, Fortran, permuted, sliced and reversed layouts, and copy
//! (with the right elements) when they do not.
//!
//! ndarray's `to_shape` (which the codec relies on) views when, within each group of
//! dims being merged or split, the strides are C-contiguous (`stride[d] ==
//! extent[d + 1] * stride[d + 1]`); dims of extent 1 never matter. So a Fortran array
//! can be viewed by reshapes that only insert or remove size-1 dims, and a permuted or
//! sliced array by reshapes that merge only dims still contiguous in its layout.
// Test code on small, fixed inputs: arithmetic, casts and indexing cannot fail here,
// and an unwrap that fails should fail the test loudly.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::indexing_slicing,
    clippy::unwrap_used
)]

use ndarray::{ArrayD, ArrayViewD, IxDyn, Slice};
use serde_json::{Value, json};
use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};

/// A whole axis.
const ALL: Slice = Slice {
    start: 0,
    end: None,
    step: 1,
};

fn codec(shape: Value, decoded_shape: &[usize]) -> ReshapeCodec {
    let configuration = ReshapeConfiguration::from_json_value(&json!({ "shape": shape })).unwrap();
    let decoded_shape: Vec<u64> = decoded_shape.iter().map(|&e| e as u64).collect();
    ReshapeCodec::new(configuration, &decoded_shape).unwrap()
}

/// An array holding 0, 1, 2, ... in C order.
fn arange(shape: &[usize]) -> ArrayD<u32> {
    let count = shape.iter().product::<usize>() as u32;
    ArrayD::from_shape_vec(IxDyn(shape), (0..count).collect()).unwrap()
}

/// `array` sliced along each axis (ndarray's `s!` expands to `allow(unsafe_code)`,
/// which the workspace's `forbid` rejects).
fn sliced<'a>(array: &'a ArrayD<u32>, slices: &[Slice]) -> ArrayViewD<'a, u32> {
    array.slice_each_axis(|axis| slices[axis.axis.index()])
}

/// Encodes `decoded` and checks the result borrows it (same first element, no copy),
/// keeps C order, and decodes back to a view of the same memory.
fn assert_view(shape: Value, decoded: &ArrayViewD<'_, u32>) {
    let codec = codec(shape.clone(), decoded.shape());
    let encoded = codec.encode(decoded).unwrap();
    assert!(
        encoded.is_view(),
        "{shape} on {:?} copied",
        decoded.strides()
    );
    assert_eq!(encoded.as_ptr(), decoded.as_ptr());
    assert!(encoded.iter().eq(decoded.iter()));
    let round_trip = codec.decode(&encoded).unwrap();
    assert!(round_trip.is_view());
    assert_eq!(round_trip.as_ptr(), decoded.as_ptr());
    assert_eq!(round_trip.view(), decoded);
}

/// Encodes `decoded` and checks the result is a copy that still keeps C order.
fn assert_copy(shape: Value, decoded: &ArrayViewD<'_, u32>) {
    let codec = codec(shape.clone(), decoded.shape());
    let encoded = codec.encode(decoded).unwrap();
    assert!(
        !encoded.is_view(),
        "{shape} on {:?} viewed",
        decoded.strides()
    );
    assert!(encoded.is_standard_layout());
    assert!(encoded.iter().eq(decoded.iter()));
    assert_eq!(codec.decode(&encoded).unwrap().view(), decoded);
}

/// A standard 256 MiB chunk is encoded and decoded without touching its bytes:
/// `zeros` is calloc'd, and nothing here reads an element.
#[test]
fn algorithm_view_standard_layout_is_never_copied() {
    let chunk = ArrayD::<u8>::zeros(IxDyn(&[256, 1024, 1024]));
    for shape in [
        json!([-1]),
        json!([[0, 1], [2]]),
        json!([[0], 1, [1, 2], []]),
    ] {
        let codec = codec(shape.clone(), chunk.shape());
        let encoded = codec.encode(&chunk).unwrap();
        assert!(encoded.is_view(), "{shape} copied");
        assert_eq!(encoded.as_ptr(), chunk.as_ptr());
        let encoded_shape: Vec<usize> = codec.encoded_shape().iter().map(|&e| e as usize).collect();
        assert_eq!(encoded.shape(), &encoded_shape[..]);
        let decoded = codec.decode(&encoded).unwrap();
        assert!(decoded.is_view(), "{shape} copied on decode");
        assert_eq!(decoded.as_ptr(), chunk.as_ptr());
        assert_eq!(decoded.shape(), chunk.shape());
    }
}

/// A Fortran-order array is viewed when the reshape only inserts or removes dims of
/// extent 1, or splits a single dim.
#[test]
fn algorithm_view_fortran_order_with_size_one_dims_only() {
    let stored = arange(&[4, 3, 2]);
    let fortran = stored.view().reversed_axes(); // shape [2, 3, 4], strides [1, 2, 6]
    assert_view(json!([[0], [1], [2]]), &fortran);
    assert_view(json!([1, [0], [1], 1, [2], []]), &fortran);
    assert_view(json!([2, 3, 2, 2]), &fortran);

    let stored = arange(&[3, 1, 2]);
    let fortran = stored.view().reversed_axes(); // shape [2, 1, 3]
    assert_view(json!([[0, 1], [2]]), &fortran);
    assert_view(json!([[0], [1, 2]]), &fortran);
    assert_view(json!([2, -1]), &fortran);
}

/// Merging two dims of a Fortran-order array needs the elements in another memory
/// order: the encoding is a copy, still in the C order of the logical array.
#[test]
fn algorithm_view_fortran_order_merge_is_a_copy() {
    let stored = arange(&[4, 3, 2]);
    let fortran = stored.view().reversed_axes();
    assert_copy(json!([-1]), &fortran);
    assert_copy(json!([[0, 1], [2]]), &fortran);
    assert_copy(json!([[0], [1, 2]]), &fortran);
    assert_copy(json!([3, 8]), &fortran);
}

/// A permuted array whose merged dims are still C-contiguous is viewed; merging a
/// dim with one that was moved is copied.
#[test]
fn algorithm_view_permuted_axes_merge_contiguous_dims() {
    let stored = arange(&[2, 3, 4]);
    let permuted = stored.view().permuted_axes(vec![2, 0, 1]); // [4, 2, 3], strides [1, 12, 4]
    assert_view(json!([[0], [1, 2]]), &permuted);
    assert_view(json!([[0], -1]), &permuted);
    assert_view(json!([4, 2, 3, 1]), &permuted);
    assert_copy(json!([[0, 1], [2]]), &permuted);
    assert_copy(json!([-1]), &permuted);
}

/// A stepped slice keeps the dims after the stepped one contiguous: merging those is
/// a view, merging across the step is a copy.
#[test]
fn algorithm_view_sliced_array_merge_contiguous_dims() {
    let stored = arange(&[4, 6, 8]);
    let stepped = sliced(&stored, &[Slice::new(0, None, 2), ALL, ALL]); // [2, 6, 8], strides [96, 8, 1]
    assert_view(json!([[0], [1, 2]]), &stepped);
    assert_view(json!([[0], 3, 2, 8]), &stepped);
    assert_copy(json!([-1]), &stepped);
    assert_copy(json!([[0, 1], [2]]), &stepped);

    let window = sliced(&stored, &[Slice::from(1..3), Slice::from(2..5), ALL]); // [2, 3, 8], strides [48, 8, 1]
    assert_view(json!([[0], [1, 2]]), &window);
    assert_copy(json!([-1]), &window);
}

/// Splitting one dim is a view whatever its stride, negative included.
#[test]
fn algorithm_view_split_of_a_strided_dim() {
    let stored = arange(&[24]);
    let stepped = sliced(&stored, &[Slice::new(0, None, 2)]); // [12], stride 2
    assert_view(json!([3, 4]), &stepped);
    assert_view(json!([-1, 2, 1]), &stepped);
    let reversed = sliced(&stored, &[Slice::new(0, None, -1)]); // [24], stride -1
    assert_view(json!([2, -1, 3]), &reversed);
}

/// Reversed elements along a dim cannot be merged with another dim in place.
#[test]
fn algorithm_view_reversed_dim_merge_is_a_copy() {
    let stored = arange(&[3, 4]);
    let flipped = sliced(&stored, &[ALL, Slice::new(0, None, -1)]); // [3, 4], strides [4, -1]
    assert_copy(json!([-1]), &flipped);
    assert_view(json!([[0], 1, [1]]), &flipped);
}

/// The copy of a view whose strides do not allow a view is made in tiles; views
/// larger than a tile, with partial tiles at the edges, keep C order all the same.
#[test]
fn algorithm_view_copies_of_large_strided_views_keep_c_order() {
    let stored = arange(&[67, 5, 130]);
    // Fully transposed: the densest axis in memory is not the last one.
    let transposed = stored.view().reversed_axes(); // [130, 5, 67]
    assert_copy(json!([-1]), &transposed);
    assert_copy(json!([[0, 1], [2]]), &transposed);
    // Rotated and reversed along the densest axis.
    let rotated = stored.view().permuted_axes(IxDyn(&[2, 0, 1])); // [130, 67, 5]
    let flipped = sliced(
        &stored,
        &[ALL, Slice::new(0, None, 2), Slice::new(0, None, -1)],
    ); // [67, 3, 130]
    assert_copy(json!([-1]), &rotated);
    assert_copy(json!([[0], [1, 2]]), &flipped.view().reversed_axes());
    // Sliced along the last axis: rows are still runs in memory, copied row by row
    // when the rows are merged, viewed when only the outer axes are.
    let inner = sliced(&stored, &[ALL, ALL, Slice::new(1, Some(129), 1)]);
    assert_copy(json!([-1]), &inner);
    assert_copy(json!([[0], [1, 2]]), &inner);
    assert_view(json!([[0, 1], [2]]), &inner);
}
