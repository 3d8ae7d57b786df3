//! limits.u64 with reading I-9 (decoded shapes with a zero extent): such a shape
//! resolves even when the other extents multiply beyond 64 bits, since prod(A_shape)
//! is 0. The mapping functions must then still fail only as documented
//! (`shape-mismatch`, `out-of-bounds`), never with `overflow`.
//! Both once failed: strides and offsets were computed before the bounds were checked.
// Test code: unwraps fail the test loudly.
#![allow(clippy::unwrap_used)]

use serde_json::json;
use zarr_reshape::{ErrorClass, ReshapeCodec, ReshapeConfiguration};

fn flat_codec(a_shape: &[u64]) -> ReshapeCodec {
    let configuration = ReshapeConfiguration::from_json_value(&json!({"shape": [-1]}));
    ReshapeCodec::new(configuration.unwrap(), a_shape).unwrap()
}

/// The whole box of an empty array is empty: no runs, whatever the other extents.
#[test]
fn limits_u64_region_runs_of_an_empty_array_with_huge_extents() {
    let a_shape = [0, u64::MAX, u64::MAX];
    let codec = flat_codec(&a_shape);
    let runs = codec.region_runs(&[0, 0, 0], &a_shape);
    assert_eq!(runs.map(Iterator::count), Ok(0));
}

/// No index lies inside an array with a zero extent: out-of-bounds, not overflow.
#[test]
fn limits_u64_index_into_an_empty_array_is_out_of_bounds() {
    let codec = flat_codec(&[u64::MAX, u64::MAX, 0]);
    let error = codec.encoded_index(&[1, 1, 0]).unwrap_err();
    assert_eq!(error.class(), ErrorClass::OutOfBounds, "{error}");
}
