//! algorithm.ravel for non-standard memory layouts: transposed, permuted and
//! stepped views encode to the same elements as their standard-layout copies,
//! in the C order of the logical array.

use proptest::prelude::*;

use crate::strategies::{Layout, Valid, layout, valid};

/// A valid configuration and a layout for its decoded array.
fn valid_with_layout() -> impl Strategy<Value = (Valid, Layout)> {
    valid().prop_flat_map(|valid| {
        let rank = valid.a_shape.len();
        (Just(valid), layout(rank))
    })
}

/// A valid configuration and a layout for its encoded array (rank `len(shape)`).
fn valid_with_encoded_layout() -> impl Strategy<Value = (Valid, Layout)> {
    valid().prop_flat_map(|valid| {
        let rank = valid.groups.len();
        (Just(valid), layout(rank))
    })
}

proptest! {
    #![proptest_config(crate::config())]

    /// algorithm.ravel: encoding a view equals encoding its standard-layout copy.
    #[test]
    fn algorithm_ravel_layout_does_not_change_the_encoding((valid, layout) in valid_with_layout()) {
        let codec = valid.codec();
        let base = layout.base(&valid.a_shape);
        let view = layout.view(&base);
        let expected_shape: Vec<usize> = valid.a_shape.iter().map(|&e| e as usize).collect();
        prop_assert_eq!(view.shape(), &expected_shape[..]);

        let standard = view.as_standard_layout();
        let from_view = codec.encode(&view)?;
        let from_standard = codec.encode(&standard)?;
        prop_assert_eq!(from_view.view(), from_standard.view());
        // The C order of the logical array, whatever the memory order.
        prop_assert!(from_view.iter().eq(view.iter()));
    }

    /// algorithm.ravel: decode(encode(view)) equals the view, for any layout.
    #[test]
    fn algorithm_ravel_decode_inverts_encode_for_any_layout((valid, layout) in valid_with_layout()) {
        let codec = valid.codec();
        let base = layout.base(&valid.a_shape);
        let view = layout.view(&base);
        let encoded = codec.encode(&view)?;
        let decoded = codec.decode(&encoded)?;
        prop_assert_eq!(decoded.view(), view.view());
    }

    /// algorithm.ravel: decode of a non-standard encoded array (B laid out in another
    /// order) gives the C order of B back as A.
    #[test]
    fn algorithm_ravel_decode_of_a_non_standard_layout((valid, layout) in valid_with_encoded_layout()) {
        let codec = valid.codec();
        let base = layout.base(codec.encoded_shape());
        let encoded = layout.view(&base);
        let decoded = codec.decode(&encoded)?;
        prop_assert!(decoded.iter().eq(encoded.iter()));
        let a_shape: Vec<usize> = valid.a_shape.iter().map(|&e| e as usize).collect();
        prop_assert_eq!(decoded.shape(), &a_shape[..]);
    }
}
