//! The classic cases, each small enough to check by hand.

use serde_json::{Value, json};
use zarr_reshape::ErrorClass;

use super::{GridShapes, GridVerdict, MAX_EXTENTS, check_grid_json};
use crate::arrays::DataType;

fn bytes() -> Value {
    json!({"name": "bytes", "configuration": {"endian": "little"}})
}

fn reshape(shape: Value) -> Value {
    json!({"name": "reshape", "configuration": {"shape": shape}})
}

fn check(codecs: &[Value], axes: &[Vec<(u64, u64)>]) -> GridVerdict {
    check_grid_json(&Value::from(codecs.to_vec()), axes, DataType::UInt16).unwrap()
}

fn fits(verdict: GridVerdict) -> Vec<Vec<Vec<u64>>> {
    match verdict {
        GridVerdict::Fits(GridShapes {
            encoded_extents, ..
        }) => encoded_extents,
        other => panic!("{other:?}"),
    }
}

fn refused(verdict: GridVerdict) -> (Vec<u64>, ErrorClass) {
    match verdict {
        GridVerdict::Refused { chunk, error } => (chunk, error.class),
        other => panic!("{other:?}"),
    }
}

/// Run-length axes of 10^3 chunks: 999 of `body`, the last `tail`.
fn runs(body: u64, tail: u64) -> Vec<(u64, u64)> {
    vec![(body, 0), (tail, 999)]
}

#[test]
fn a_regular_grid_hands_on_its_chunk_shape() {
    let extents = fits(check(
        &[reshape(json!([[0, 1]])), bytes()],
        &[vec![(4, 0)], vec![(6, 0)]],
    ));
    assert_eq!(extents, [[[24]]]);
}

#[test]
fn a_minus_one_divides_every_edge_or_refuses_the_first_chunk_it_does_not() {
    let axis = vec![(4, 0), (2, 2)];
    let extents = fits(check(
        &[reshape(json!([-1, 2])), bytes()],
        std::slice::from_ref(&axis),
    ));
    assert_eq!(extents, [[vec![1, 2], vec![2]]]);
    let codecs = [reshape(json!([-1, 4])), bytes()];
    assert_eq!(
        refused(check(&codecs, &[axis])),
        (vec![2], ErrorClass::ElementCountMismatch)
    );
    // The earliest chunk among those refused: 6 (chunk 1) before 2 (chunk 2).
    let axis = vec![(4, 0), (6, 1), (2, 2)];
    assert_eq!(refused(check(&codecs, &[axis])).0, [1]);
}

#[test]
fn merged_axes_take_the_products_of_their_edges() {
    let axes = [vec![(2, 0), (3, 4)], vec![(5, 0), (7, 1)]];
    let extents = fits(check(&[reshape(json!([[0, 1]])), bytes()], &axes));
    assert_eq!(extents, [[[10, 14, 15, 21]]]);
}

#[test]
fn a_product_beyond_64_bits_refuses_the_chunk_of_the_largest_edges() {
    let axes = [vec![(8, 0), (1 << 33, 3)], vec![(1 << 31, 0), (1 << 32, 1)]];
    let (chunk, class) = refused(check(&[reshape(json!([[0, 1]])), bytes()], &axes));
    assert_eq!((chunk, class), (vec![3, 0], ErrorClass::Overflow));
}

#[test]
fn an_element_count_that_depends_on_a_dropped_axis_is_refused_where_it_differs() {
    // [x0, x1] -> [x0, 4]: only the chunks with x1 = 4 fit.
    let axes = [vec![(2, 0), (3, 1)], vec![(4, 0), (8, 5)]];
    let (chunk, class) = refused(check(&[reshape(json!([[0], 4])), bytes()], &axes));
    assert_eq!(
        (chunk, class),
        (vec![0, 5], ErrorClass::ElementCountMismatch)
    );
}

#[test]
fn sharding_needs_the_inner_chunk_to_divide_every_shard() {
    let sharding = |inner: u64, index: Value| {
        json!({"name": "sharding_indexed", "configuration": {
            "chunk_shape": [inner], "codecs": [bytes()], "index_codecs": index}})
    };
    let axis = vec![(8, 0), (4, 7)];
    let verdict = check(
        &[sharding(4, json!([bytes()]))],
        std::slice::from_ref(&axis),
    );
    let GridVerdict::Fits(shapes) = verdict else {
        panic!("{verdict:?}")
    };
    assert_eq!(shapes.inner.map(|inner| inner.encoded_shapes), Some(vec![]));
    let verdict = check(
        &[sharding(8, json!([bytes()]))],
        std::slice::from_ref(&axis),
    );
    assert_eq!(
        refused(verdict),
        (vec![7], ErrorClass::MalformedConfiguration)
    );
    // The index [shard / 4, 2] reshaped: [2, 2] and [1, 2] fit [-1, 2]; [4, -1] only [2, 2].
    let index = |shape: Value| json!([reshape(shape), bytes()]);
    let verdict = check(
        &[sharding(4, index(json!([-1, 2])))],
        std::slice::from_ref(&axis),
    );
    assert!(matches!(verdict, GridVerdict::Fits(_)));
    let verdict = check(&[sharding(4, index(json!([4, -1])))], &[axis]);
    assert_eq!(
        refused(verdict),
        (vec![7], ErrorClass::ElementCountMismatch)
    );
}

#[test]
fn a_trillion_chunks_are_answered_from_four_edges_per_axis() {
    let axes = [runs(6, 2), runs(4, 3), runs(10, 4), runs(3, 1)];
    let codecs = [reshape(json!([[0, 1], -1, 2])), bytes()];
    let extents = fits(check(&codecs, &axes));
    assert_eq!(extents, [[vec![6, 8, 18, 24], vec![2, 5, 6, 15], vec![2]]]);
    // x2 = 5 with x3 = 3 leaves an odd count: the first such chunk is refused.
    let axes = [runs(6, 2), runs(4, 3), runs(10, 5), runs(3, 1)];
    let (chunk, class) = refused(check(&codecs, &axes));
    assert_eq!(
        (chunk, class),
        (vec![0, 0, 999, 0], ErrorClass::ElementCountMismatch)
    );
}

#[test]
fn an_unsupported_codec_answers_unless_a_chunk_is_refused_before_it() {
    let axis = vec![(4, 0), (2, 1)];
    let unknown = json!({"name": "no-such-codec"});
    let codecs = Value::from(vec![reshape(json!([-1, 2])), unknown.clone(), bytes()]);
    let error = check_grid_json(&codecs, std::slice::from_ref(&axis), DataType::UInt8).unwrap_err();
    assert!(error.is_unsupported());
    let codecs = [reshape(json!([-1, 4])), unknown, bytes()];
    assert_eq!(refused(check(&codecs, &[axis])).0, [1]);
}

#[test]
fn a_grid_without_chunks_fits_and_an_unreadable_chain_refuses_the_first() {
    assert_eq!(
        fits(check(&[json!(7)], &[vec![(4, 0)], vec![]])),
        Vec::<Vec<Vec<u64>>>::new()
    );
    let (chunk, class) = refused(check(&[json!(7)], &[vec![(4, 0)], vec![(2, 0), (1, 3)]]));
    assert_eq!(
        (chunk, class),
        (vec![0, 0], ErrorClass::MalformedConfiguration)
    );
}

#[test]
fn an_edge_of_zero_is_resolved_chunk_by_chunk() {
    let extents = fits(check(
        &[reshape(json!([-1])), bytes()],
        &[vec![(0, 0), (4, 1)]],
    ));
    assert_eq!(extents, [[[0, 4]]]);
}

#[test]
fn an_extent_set_beyond_the_bound_is_an_error() {
    let many = u64::try_from(MAX_EXTENTS).unwrap() + 1;
    let axis: Vec<(u64, u64)> = (1..=many).map(|edge| (edge, edge)).collect();
    let transpose = json!({"name": "transpose", "configuration": {"order": [0]}});
    let codecs = Value::from(vec![transpose, bytes()]);
    let error = check_grid_json(&codecs, &[axis], DataType::UInt8).unwrap_err();
    assert!(error.message.contains("limits"), "{error}");
}

#[test]
fn the_largest_rank_through_the_longest_chain_stays_cheap() {
    let rank = zarr_reshape::limits::MAX_RANK;
    // 63 axes of two edges (the element count stays within 64 bits), the rest of one.
    let axes: Vec<Vec<(u64, u64)>> = (0..rank)
        .map(|d| match d {
            0..63 => vec![(1, 0), (2, 1)],
            _ => vec![(1, 0)],
        })
        .collect();
    let groups: Vec<Value> = (0..rank).map(|d| json!([d])).collect();
    let mut codecs = vec![reshape(Value::from(groups)); super::super::MAX_CODECS - 1];
    codecs.push(bytes());
    // 31 reshapes of rank 256 (about 0.3 s in a debug build): the prefix and suffix
    // products are built once per reshape, not once per input-dims element.
    let extents = fits(check(&codecs, &axes));
    assert_eq!(extents.len(), codecs.len() - 1);
    assert!(extents.iter().all(
        |step| step.iter().eq(axes.iter().map(|axis| match axis.len() {
            1 => &[1][..],
            _ => &[1, 2][..],
        }))
    ));
}
