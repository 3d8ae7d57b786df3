//! Strategies for arbitrary inputs: any JSON, near-valid configurations, any decoded
//! shape and any coordinates, as the parser and the mapping may meet them.

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Value, json};

use crate::strategies::{Valid, valid};

/// Any JSON value of depth up to 4, leaning towards what a configuration is made of:
/// small integers, -1, integers beyond 64 bits, fractions and exponents.
pub(crate) fn json_value() -> impl Strategy<Value = Value> + Clone {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3_i64..=8).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |x| serde_json::Number::from_f64(x)
            .map(Value::Number)),
        number_literal(),
        prop::sample::select(vec!["shape", "name", "reshape", "configuration", "-1", ""])
            .prop_map(Value::from),
        "[a-z_]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        let key = prop_oneof![
            prop::sample::select(vec!["shape", "name", "configuration", "must_understand"])
                .prop_map(String::from),
            "[a-z]{1,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Number literals as written in JSON files, parsed as this build's serde_json
/// parses them: exactly with `arbitrary_precision` (a workspace build, where the CLI
/// crate turns it on); without it (`cargo test -p zarr-reshape`), an integer beyond
/// 64 bits becomes a float and `1e400` is no `Value` at all, so it is left out. The
/// text API reads such literals exactly: `tests/resolve_vectors.rs` runs the vectors
/// that hold them.
fn number_literal() -> impl Strategy<Value = Value> + Clone {
    let text = prop_oneof![
        "-?[1-9][0-9]{18,40}",
        prop::sample::select(vec![
            "2.0",
            "1e1",
            "1E0",
            "-1.0",
            "-0",
            "-0.0",
            "0",
            "-1",
            "1e400",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
        ])
        .prop_map(String::from),
    ];
    text.prop_filter_map("a number this build can hold in a Value", |text| {
        serde_json::from_str(&text).ok()
    })
}

/// A plausible element of `shape`: a small integer, small input dims, or anything.
fn element() -> impl Strategy<Value = Value> + Clone {
    prop_oneof![
        4 => (-2_i64..=8).prop_map(Value::from),
        4 => prop::collection::vec(0_u64..=6, 0..=3).prop_map(Value::from),
        1 => prop::collection::vec(json_value(), 0..=3).prop_map(Value::Array),
        1 => json_value(),
    ]
}

/// A configuration and a decoded shape: either drawn apart (which mostly fails to
/// parse or resolve) or a valid pair with one element or one extent changed (which
/// often resolves, or breaks a rule that needs the decoded shape).
pub(crate) fn configuration_and_shape() -> impl Strategy<Value = (Value, Vec<u64>)> {
    prop_oneof![
        (configuration_json(), any_decoded_shape()),
        valid().prop_flat_map(near_valid),
    ]
}

fn near_valid(valid: Valid) -> impl Strategy<Value = (Value, Vec<u64>)> {
    let Valid {
        configuration,
        a_shape,
        ..
    } = valid;
    let changes = (
        prop::option::of((any::<Index>(), element())),
        prop::option::of((any::<Index>(), extent())),
    );
    changes.prop_map(move |(element, extent)| {
        let mut configuration = configuration.clone();
        let mut a_shape = a_shape.clone();
        let shape = configuration["shape"].as_array_mut().unwrap();
        match element {
            Some((at, value)) if !shape.is_empty() => {
                let at = at.index(shape.len());
                shape[at] = value;
            }
            Some((_, value)) => shape.push(value),
            None => {}
        }
        match extent {
            Some((at, value)) if !a_shape.is_empty() => {
                let at = at.index(a_shape.len());
                a_shape[at] = value;
            }
            Some((_, value)) => a_shape.push(value),
            None => {}
        }
        (configuration, a_shape)
    })
}

/// Configurations: mostly `{"shape": [...]}` with plausible elements, sometimes an
/// unknown member, sometimes any JSON at all.
pub(crate) fn configuration_json() -> impl Strategy<Value = Value> {
    let shape = prop::collection::vec(element(), 0..=5);
    prop_oneof![
        6 => shape.clone().prop_map(|shape| json!({ "shape": shape })),
        1 => (shape, json_value()).prop_map(|(shape, extra)| json!({ "shape": shape, "extra": extra })),
        2 => json_value(),
    ]
}

/// An extent: small, 0, 2^32 or up to `u64::MAX`.
fn extent() -> impl Strategy<Value = u64> {
    prop_oneof![
        6 => 1_u64..=8,
        1 => Just(0_u64),
        1 => Just(1_u64 << 32),
        1 => Just(u64::MAX),
        1 => any::<u64>(),
    ]
}

/// Decoded shapes of rank 0..=6.
pub(crate) fn any_decoded_shape() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(extent(), 0..=6)
}

/// Coordinates of any rank 0..=6, mostly small.
pub(crate) fn any_coordinates() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(prop_oneof![4 => 0_u64..=8, 1 => any::<u64>()], 0..=6)
}
