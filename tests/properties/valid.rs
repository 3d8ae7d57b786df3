//! shape.*, algorithm.rank and algorithm.ravel over generated valid configurations.

use proptest::prelude::*;
use zarr_reshape::ReshapeConfiguration;

use crate::product;
use crate::strategies::{Valid, arange, valid};

proptest! {
    #![proptest_config(crate::config())]

    /// shape.invariant: every generated configuration resolves, with
    /// prod(B_shape) == prod(A_shape).
    #[test]
    fn shape_invariant_holds_for_valid_configurations(valid in valid()) {
        let b_shape = valid.configuration().resolve(&valid.a_shape);
        prop_assert!(b_shape.is_ok(), "{:?}", b_shape);
        prop_assert_eq!(product(&b_shape.unwrap()), product(&valid.a_shape));
    }

    /// shape.size, shape.input-dims, shape.auto.value: each element's extent is the
    /// product of the decoded extents of the group it was built from.
    #[test]
    fn shape_input_dims_extents_are_group_products(valid in valid()) {
        prop_assert_eq!(valid.configuration().resolve(&valid.a_shape)?, valid.group_products());
    }

    /// algorithm.rank: len(B_shape) == len(shape), for resolve, the codec and the encoded array.
    #[test]
    fn algorithm_rank_is_len_of_shape(valid in valid()) {
        let codec = valid.codec();
        let rank = codec.configuration().shape().len();
        prop_assert_eq!(codec.encoded_shape().len(), rank);
        let decoded = arange(&valid.a_shape);
        prop_assert_eq!(codec.encode(&decoded)?.ndim(), rank);
    }

    /// algorithm.ravel: ravel(B) == ravel(A), element for element, with B of shape B_shape.
    #[test]
    fn algorithm_ravel_encode_keeps_c_order(valid in valid()) {
        let codec = valid.codec();
        let decoded = arange(&valid.a_shape);
        let encoded = codec.encode(&decoded)?;
        let b_shape: Vec<usize> = codec.encoded_shape().iter().map(|&e| e as usize).collect();
        prop_assert_eq!(encoded.shape(), &b_shape[..]);
        prop_assert_eq!(encoded.len(), decoded.len());
        prop_assert!(encoded.iter().eq(decoded.iter()));
    }

    /// algorithm.ravel: decode(encode(A)) == A, in shape and elements.
    #[test]
    fn algorithm_ravel_decode_inverts_encode(valid in valid()) {
        let codec = valid.codec();
        let decoded = arange(&valid.a_shape);
        let encoded = codec.encode(&decoded)?;
        let round_trip = codec.decode(&encoded)?;
        prop_assert_eq!(round_trip.view(), decoded.view());
    }

    /// shape.element: a parsed configuration survives `to_json` and `new` unchanged.
    #[test]
    fn shape_element_configuration_round_trips(valid in valid()) {
        let configuration = valid.configuration();
        let reparsed = ReshapeConfiguration::from_json_value(&configuration.to_json())?;
        prop_assert_eq!(&reparsed, &configuration);
        prop_assert_eq!(ReshapeConfiguration::new(configuration.shape().to_vec())?, configuration);
    }
}

/// The strategy itself: groups cover the decoded dims in order, once each.
#[test]
fn valid_strategy_groups_cover_every_decoded_dim_in_order() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..crate::CASES {
        let Valid {
            a_shape, groups, ..
        } = valid().new_tree(&mut runner).unwrap().current();
        let dims: Vec<usize> = groups.into_iter().flatten().collect();
        assert_eq!(dims, (0..a_shape.len()).collect::<Vec<_>>());
    }
}
