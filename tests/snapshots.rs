//! Text meant for people, pinned with insta: the message of one error of every
//! `ReshapeError` variant (each named after its clause, the input in the snapshot's
//! description) and a few `explain` traces. Review with `INSTA_UPDATE=always cargo
//! test --test snapshots` and read the `.snap` files under `tests/snapshots/`.
// Test code: an unwrap that fails means the input no longer gives the error pinned here.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use ndarray::{ArrayD, IxDyn};
use serde_json::{Value, json};
use zarr_reshape::{ReshapeCodec, ReshapeConfiguration, ReshapeError, explain};

/// Snapshots in `tests/snapshots/<name>.snap`, described by the input that made them.
fn settings(description: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    settings
}

/// Parses `{"shape": shape}` and resolves it against `a_shape`, expecting an error.
fn resolve_error(shape: &Value, a_shape: &[u64]) -> (String, ReshapeError) {
    let configuration = json!({ "shape": shape });
    let error = ReshapeConfiguration::from_json_value(&configuration)
        .and_then(|parsed| parsed.resolve(a_shape))
        .unwrap_err();
    (
        format!("configuration {configuration} on decoded shape {a_shape:?}"),
        error,
    )
}

fn configuration_error(configuration: &Value) -> (String, ReshapeError) {
    let error = ReshapeConfiguration::from_json_value(configuration).unwrap_err();
    (format!("configuration {configuration}"), error)
}

/// An error of the text API, which reads integers beyond 64 bits exactly in every build.
fn text_error(configuration: &str) -> (String, ReshapeError) {
    let error = ReshapeConfiguration::from_json_str(configuration).unwrap_err();
    (format!("configuration {configuration}"), error)
}

fn codec_error(codec: &Value) -> (String, ReshapeError) {
    let error = ReshapeConfiguration::from_codec_json_value(codec).unwrap_err();
    (format!("codec object {codec}"), error)
}

/// A codec for `{"shape": [-1]}` on [2, 3], for errors of arrays, indices and boxes.
fn flat_codec() -> ReshapeCodec {
    let configuration = ReshapeConfiguration::from_json_value(&json!({"shape": [-1]}));
    ReshapeCodec::new(configuration.unwrap(), &[2, 3]).unwrap()
}

fn usage_error(
    what: &str,
    result: Result<impl std::fmt::Debug, ReshapeError>,
) -> (String, ReshapeError) {
    (
        format!("{what}, with {{\"shape\": [-1]}} on decoded shape [2, 3]"),
        result.unwrap_err(),
    )
}

/// One error per variant (two where the message differs by position), each named
/// after the clause it enforces and the fault.
fn errors() -> Vec<(&'static str, (String, ReshapeError))> {
    let codec = flat_codec();
    let wrong_shape = ArrayD::<u8>::zeros(IxDyn(&[3, 2]));
    vec![
        ("codec.name-not-an-object", codec_error(&json!("reshape"))),
        (
            "codec.name-wrong-name",
            codec_error(&json!({"name": "transpose", "configuration": {"shape": [-1]}})),
        ),
        (
            "codec.name-missing-name",
            codec_error(&json!({"configuration": {"shape": [-1]}})),
        ),
        (
            "configuration.members-not-an-object",
            configuration_error(&json!([[0, 1], [2], 3])),
        ),
        (
            "configuration.members-unknown-member",
            configuration_error(&json!({"shape": [-1], "order": "C"})),
        ),
        (
            "configuration.members-unknown-codec-member",
            codec_error(&json!({"name": "reshape", "configuration": {"shape": [-1]}, "id": 1})),
        ),
        (
            "configuration.members-must-understand-not-boolean",
            codec_error(
                &json!({"name": "reshape", "configuration": {"shape": [-1]}, "must_understand": "yes"}),
            ),
        ),
        (
            "configuration.members-not-json",
            text_error(r#"{"shape": [-1] "order": "C"}"#),
        ),
        (
            "configuration.members-shape-missing",
            configuration_error(&json!({})),
        ),
        (
            "configuration.members-shape-not-an-array",
            configuration_error(&json!({"shape": "[-1]"})),
        ),
        (
            "shape.element-wrong-kind",
            configuration_error(&json!({"shape": [[0, 1], "2"]})),
        ),
        (
            "shape.element-wrong-kind-of-input-dim",
            configuration_error(&json!({"shape": [[0, null]]})),
        ),
        (
            "shape.element-not-an-integer",
            configuration_error(&serde_json::from_str(r#"{"shape": [[0], 2.0]}"#).unwrap()),
        ),
        (
            "shape.size-zero",
            configuration_error(&json!({"shape": [-1, 0]})),
        ),
        (
            "shape.input-dims-negative",
            configuration_error(&json!({"shape": [[-1, 0]]})),
        ),
        (
            "limits.u64-size-too-large",
            text_error(r#"{"shape":[18446744073709551616]}"#),
        ),
        (
            "limits.rank-shape-too-long",
            configuration_error(&json!({"shape": vec![1; 257]})),
        ),
        (
            "limits.rank-too-many-input-dims",
            configuration_error(&json!({"shape": [(0..257).collect::<Vec<u64>>()]})),
        ),
        (
            "limits.rank-decoded-rank",
            resolve_error(&json!([-1]), &[1; 257]),
        ),
        (
            "shape.auto.once",
            configuration_error(&json!({"shape": [-1, [1], -1]})),
        ),
        (
            "input-dims.increasing",
            configuration_error(&json!({"shape": [[0, 1], 10, [1, 2]]})),
        ),
        (
            "input-dims.range-too-large",
            text_error(r#"{"shape":[[0,18446744073709551616]]}"#),
        ),
        (
            "input-dims.range",
            resolve_error(&json!([[0], [3]]), &[2, 3]),
        ),
        (
            "limits.u64-overflow",
            resolve_error(&json!([[0, 1]]), &[1 << 32, 1 << 32]),
        ),
        ("shape.auto.value", resolve_error(&json!([-1, 4]), &[2, 3])),
        ("shape.invariant", resolve_error(&json!([5]), &[2, 3])),
        (
            "input-dims.prefix",
            resolve_error(&json!([[0], [2], -1]), &[2, 3, 4]),
        ),
        (
            "input-dims.suffix",
            resolve_error(&json!([[0, 2], 3]), &[2, 3, 4]),
        ),
        (
            // Unreachable through the API (the element counts agree whenever ndarray
            // is asked), so built by hand: its message still has to read well.
            "limits.u64-ndarray-shape",
            (
                "ndarray refusing a reshape, built by hand".into(),
                ReshapeError::NdarrayShape {
                    what: "reshaping to [6]".into(),
                    reason: ndarray::ShapeError::from_kind(ndarray::ErrorKind::IncompatibleShape)
                        .to_string(),
                },
            ),
        ),
        (
            "algorithm.ravel-wrong-array-shape",
            usage_error(
                "encoding an array of shape [3, 2]",
                codec.encode(&wrong_shape),
            ),
        ),
        (
            "algorithm.ravel-wrong-index-rank",
            usage_error("encoded_index([1])", codec.encoded_index(&[1])),
        ),
        (
            "algorithm.ravel-index-out-of-bounds",
            usage_error("encoded_index([2, 0])", codec.encoded_index(&[2, 0])),
        ),
        (
            "algorithm.ravel-box-out-of-bounds",
            usage_error(
                "region_runs([0, 2], [2, 1])",
                codec.region_runs(&[0, 2], &[2, 1]),
            ),
        ),
        (
            "algorithm.ravel-offset-out-of-bounds",
            usage_error("encoded_index_at(6)", codec.encoded_index_at(6)),
        ),
    ]
}

/// Every message, with its class and clause on the first line.
#[test]
fn error_messages_read_well() {
    for (name, (input, error)) in errors() {
        let text = format!("[{}] ({})\n{error}", error.class(), error.clause());
        settings(&input).bind(|| insta::assert_snapshot!(name, text));
    }
}

/// The variants of `ReshapeError`, read from its definition in src/error.rs.
fn variants_in_source() -> BTreeSet<String> {
    let source = include_str!("../src/error.rs");
    let body = source.split("pub enum ReshapeError {").nth(1).unwrap();
    let body = body.split("\n}").next().unwrap();
    body.lines()
        .filter_map(|line| line.strip_prefix("    "))
        .filter(|line| line.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|line| line.split([' ', ',', '{']).next().unwrap().to_owned())
        .collect()
}

/// A new variant needs a snapshot of its message here.
#[test]
fn error_messages_cover_every_variant() {
    let covered: BTreeSet<String> = errors()
        .iter()
        .map(|(_, (_, error))| {
            format!("{error:?}")
                .split([' ', '{'])
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    let variants = variants_in_source();
    assert!(variants.len() >= 20, "parsed {variants:?}");
    assert_eq!(covered, variants);
}

fn assert_trace(name: &str, shape: &Value, a_shape: &[u64]) {
    let configuration = json!({ "shape": shape });
    let text = explain(&configuration, a_shape).to_string();
    let input = format!("explain({configuration}, {a_shape:?})");
    settings(&input).bind(|| insta::assert_snapshot!(name, text));
}

/// The spec's example, resolved clause by clause.
#[test]
fn explain_spec_example() {
    assert_trace(
        "explain-spec-example",
        &json!([[0, 1], [2], 3]),
        &[100, 50, 64, 3],
    );
}

/// input-dims.prefix: a gap between groups, as the trace shows it.
#[test]
fn explain_input_dims_prefix() {
    assert_trace(
        "explain-input-dims.prefix",
        &json!([[0], [2], -1]),
        &[2, 3, 4],
    );
}

/// limits.u64: a product beyond 64 bits, as the trace shows it.
#[test]
fn explain_limits_u64() {
    assert_trace("explain-limits.u64", &json!([[0, 1]]), &[1 << 32, 1 << 32]);
}

/// input-dims.increasing: the spec's own counter-example, as the trace shows it.
#[test]
fn explain_input_dims_increasing() {
    assert_trace("explain-input-dims.increasing", &json!([[1], [0]]), &[2, 3]);
}

/// `{:#}` quotes the spec's sentence under the broken rule; `{}` does not.
#[test]
fn explain_alternate_quotes_the_spec() {
    let configuration = json!({ "shape": [[0], [2], -1] });
    let explanation = explain(&configuration, &[2, 3, 4]);
    let plain = explanation.to_string();
    let text = format!("{explanation:#}");
    assert!(!plain.contains("the spec:"));
    let input = format!("format!(\"{{:#}}\", explain({configuration}, [2, 3, 4]))");
    settings(&input).bind(|| insta::assert_snapshot!("explain-alternate-input-dims.prefix", text));
}

/// The error table's position of an error is the place its message names.
#[test]
fn error_positions_are_the_places_their_messages_name() {
    let mut placed = 0;
    for (name, (_, error)) in errors() {
        if let Some(position) = error.position() {
            placed += 1;
            let message = error.to_string();
            assert!(
                message.contains(&position.to_string()),
                "{name}: {position} is not in {message:?}"
            );
        }
    }
    assert!(placed >= 10, "only {placed} errors have a position");
}
