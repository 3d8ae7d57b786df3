//! Region mapping for partial decoding: runs against a brute-force walk of the box,
//! partial_decode against slicing, and the index maps against each other.

use ndarray::{IxDyn, Slice};
use proptest::prelude::*;
use zarr_reshape::Run;

use crate::strategies::{Valid, arange, valid};

/// A valid codec and a box `start..stop` within its decoded shape; whole dims are
/// common (they are what lets runs span several dims), empty boxes are possible.
fn valid_with_box() -> impl Strategy<Value = (Valid, Vec<u64>, Vec<u64>)> {
    valid().prop_flat_map(|valid| {
        let ranges: Vec<_> = valid
            .a_shape
            .iter()
            .map(|&extent| {
                prop_oneof![
                    1 => Just((0, extent)),
                    2 => (0..=extent).prop_flat_map(move |start| (Just(start), start..=extent)),
                ]
            })
            .collect();
        (Just(valid), ranges).prop_map(|(valid, ranges)| {
            let (start, stop) = ranges.into_iter().unzip();
            (valid, start, stop)
        })
    })
}

/// The C-order offset of `index` in `shape`.
fn ravel(shape: &[u64], index: &[u64]) -> u64 {
    shape
        .iter()
        .zip(index)
        .fold(0, |offset, (extent, i)| offset * extent + i)
}

/// Every element of the box, in C order of the box, as coordinates of A.
fn box_elements(start: &[u64], stop: &[u64]) -> Vec<Vec<u64>> {
    let extents: Vec<usize> = start
        .iter()
        .zip(stop)
        .map(|(a, b)| (b - a) as usize)
        .collect();
    ndarray::indices(IxDyn(&extents))
        .into_iter()
        .map(|index| {
            start
                .iter()
                .enumerate()
                .map(|(d, a)| a + index[d] as u64)
                .collect()
        })
        .collect()
}

proptest! {
    #![proptest_config(crate::config())]

    /// algorithm.ravel: the runs of a box, expanded, are exactly the offsets of its
    /// elements in C order of the box; runs are non-empty, increasing and maximal.
    #[test]
    fn algorithm_ravel_region_runs_equal_brute_force((valid, start, stop) in valid_with_box()) {
        let codec = valid.codec();
        let runs: Vec<Run> = codec.region_runs(&start, &stop)?.collect();
        let expanded: Vec<u64> = runs.iter().flat_map(|run| run.offset..run.offset + run.len).collect();
        let brute_force: Vec<u64> = box_elements(&start, &stop)
            .iter()
            .map(|index| ravel(&valid.a_shape, index))
            .collect();
        prop_assert_eq!(expanded, brute_force);
        prop_assert!(runs.iter().all(|run| run.len > 0));
        // Increasing and maximal: a gap of at least one element between neighbours.
        prop_assert!(runs.windows(2).all(|w| w[0].offset + w[0].len < w[1].offset));

        // The count: let `split` be the last dim the box does not cover whole (0 when it
        // covers A whole). Dims after it are whole, so a run spans the box along `split`
        // and everything after it, and there is one run per position of the box along
        // the dims before `split`: prod(stop[d] - start[d] for d < split), or 0 for an
        // empty box.
        let split = (0..valid.a_shape.len())
            .rev()
            .find(|&d| (start[d], stop[d]) != (0, valid.a_shape[d]))
            .unwrap_or(0);
        let empty = start.iter().zip(&stop).any(|(a, b)| a == b);
        let count: u64 = if empty { 0 } else { (0..split).map(|d| stop[d] - start[d]).product() };
        prop_assert_eq!(runs.len() as u64, count);
    }

    /// algorithm.ravel: reading a box out of the encoded chunk equals slicing A.
    #[test]
    fn algorithm_ravel_partial_decode_equals_slice((valid, start, stop) in valid_with_box()) {
        let codec = valid.codec();
        let decoded = arange(&valid.a_shape);
        let encoded = codec.encode(&decoded)?;
        let part = codec.partial_decode(&encoded, &start, &stop)?;
        let slice = decoded.slice_each_axis(|axis| {
            let d = axis.axis.index();
            Slice::from(start[d] as usize..stop[d] as usize)
        });
        prop_assert_eq!(part.view(), slice);
    }

    /// algorithm.ravel: encoded_index and decoded_index are inverse, encoded_index_at
    /// of an element's offset is its encoded_index, and B holds A[x] at encoded_index(x).
    #[test]
    fn algorithm_ravel_index_maps_are_inverse((valid, start, stop) in valid_with_box()) {
        let codec = valid.codec();
        let decoded = arange(&valid.a_shape);
        let encoded = codec.encode(&decoded)?;
        for index in box_elements(&start, &stop) {
            let at = codec.encoded_index(&index)?;
            prop_assert_eq!(codec.decoded_index(&at)?, index.clone());
            prop_assert_eq!(codec.encoded_index_at(ravel(&valid.a_shape, &index))?, at.clone());
            let a_index: Vec<usize> = index.iter().map(|&i| i as usize).collect();
            let b_index: Vec<usize> = at.iter().map(|&i| i as usize).collect();
            prop_assert_eq!(encoded[IxDyn(&b_index)], decoded[IxDyn(&a_index)]);
        }
    }
}
