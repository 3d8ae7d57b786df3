//! The text API's own checks on JSON text (`ReshapeConfiguration::from_json_str`,
//! `from_codec_json_str`): what is not one JSON value, nesting as deep as
//! serde_json refuses, and text beyond `limits::MAX_JSON_TEXT_LEN`, all
//! `malformed-configuration`, with a message that says where. serde_json's own
//! `from_str` is the judge of what is JSON, so nothing here restates its rules.
// Test code: an unwrap that fails means the text no longer gives the error expected.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use zarr_reshape::limits::{MAX_JSON_DEPTH, MAX_JSON_TEXT_LEN};
use zarr_reshape::{ErrorClass, ReshapeConfiguration, ReshapeError, explain_codec_json_str};

/// A codec object whose `must_understand` member holds `inner`: the checks on the
/// text as a whole come first, then `inner` is refused only for not being a boolean.
fn codec_with(inner: &str) -> String {
    format!(
        r#"{{"name": "reshape", "configuration": {{"shape": [-1]}}, "must_understand": {inner}}}"#
    )
}

/// Arrays nested `depth` deep: `[[...]]`.
fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

/// Whether serde_json's own parser takes `text` as one JSON value.
fn serde_json_accepts(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok()
}

#[test]
fn limits_json_depth_is_serde_json_recursion_limit_and_says_where() {
    let (mut accepted, mut refused) = (0, 0);
    for depth in MAX_JSON_DEPTH.saturating_sub(4)..MAX_JSON_DEPTH.saturating_add(4) {
        let text = codec_with(&nested(depth));
        // Past the depth check, a must_understand that is not a boolean is refused.
        match ReshapeConfiguration::from_codec_json_str(&text) {
            Ok(_) | Err(ReshapeError::MustUnderstandNotBoolean { .. }) => {
                assert!(
                    serde_json_accepts(&text),
                    "depth {depth}: serde_json refuses it"
                );
                accepted += 1;
            }
            Err(error) => {
                assert!(!serde_json_accepts(&text), "depth {depth}: {error}");
                assert_eq!(error.class(), ErrorClass::MalformedConfiguration);
                assert!(error.to_string().contains("line 1 column"), "{error}");
                refused += 1;
            }
        }
    }
    assert!(
        accepted > 0 && refused > 0,
        "the limit lies outside the depths tried"
    );
}

#[test]
fn limits_json_depth_counts_no_bracket_inside_a_string() {
    let inner = format!(
        r#""{} \" {}""#,
        "[".repeat(MAX_JSON_DEPTH),
        "{".repeat(MAX_JSON_DEPTH)
    );
    let text = codec_with(&inner);
    assert!(serde_json_accepts(&text));
    // Read past the depth check: refused only for the string's type.
    let error = ReshapeConfiguration::from_codec_json_str(&text).unwrap_err();
    assert!(
        matches!(error, ReshapeError::MustUnderstandNotBoolean { .. }),
        "{error}"
    );
}

#[test]
fn configuration_members_text_that_is_not_one_json_value_is_malformed() {
    let texts = [
        r#"{"shape": [1]} {"shape": [2]}"#,
        r#"{"shape": [1],}"#,
        r#"{"shape": [01]}"#,
        r#"{"shape": [1]"#,
        r#"{"shape": [NaN]}"#,
        "",
    ];
    for text in texts {
        assert!(!serde_json_accepts(text), "serde_json takes {text:?}");
        let error = ReshapeConfiguration::from_json_str(text).unwrap_err();
        assert_eq!(
            error.class(),
            ErrorClass::MalformedConfiguration,
            "{text:?}"
        );
        assert!(error.to_string().contains("line 1 column"), "{error}");
        let explanation = explain_codec_json_str(text, &[2]);
        assert_eq!(
            explanation.outcome.unwrap_err().class(),
            ErrorClass::MalformedConfiguration
        );
    }
}

#[test]
fn limits_rank_json_text_longer_than_the_limit_is_refused_unread() {
    let configuration = r#"{"shape": [-1]}"#;
    let padded = |len: usize| {
        let padding = len.saturating_sub(configuration.len());
        format!("{configuration}{}", " ".repeat(padding))
    };
    ReshapeConfiguration::from_json_str(&padded(MAX_JSON_TEXT_LEN)).unwrap();
    let error = ReshapeConfiguration::from_json_str(&padded(MAX_JSON_TEXT_LEN + 1)).unwrap_err();
    assert_eq!(error.class(), ErrorClass::MalformedConfiguration);
    assert!(
        error.to_string().contains(&MAX_JSON_TEXT_LEN.to_string()),
        "{error}"
    );
    // Unread: a syntax error past the limit is not what is reported.
    let broken = format!("{}x", padded(MAX_JSON_TEXT_LEN));
    let error = ReshapeConfiguration::from_json_str(&broken).unwrap_err();
    assert!(error.to_string().contains("beyond the limit"), "{error}");
}

#[test]
fn codec_name_repeated_member_keeps_the_last_as_serde_json_value_does() {
    let text = r#"{"name": "zstd", "name": "reshape", "configuration": {"shape": [-1]}}"#;
    let value: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        ReshapeConfiguration::from_codec_json_str(text),
        ReshapeConfiguration::from_codec_json_value(&value)
    );
}

/// Number literals whose value fits in 64 bits (or is a float): the Value API and
/// the text API judge them alike, as a size and as an input dim, in any build.
/// (Not `-0`: serde_json without `arbitrary_precision` makes it the float -0.0, as
/// `ReshapeConfiguration::from_json_value` documents.)
#[test]
fn shape_element_literals_within_64_bits_read_alike_through_value_and_text() {
    let literals = [
        "0",
        "-1",
        "3",
        "-3",
        "2.0",
        "-0.0",
        "1e1",
        "1E0",
        "-1.0",
        "1e15",
        "1e300",
        "4294967296",
        "18446744073709551615",
        "-9223372036854775808",
    ];
    for literal in literals {
        for text in [
            format!(r#"{{"shape": [{literal}]}}"#),
            format!(r#"{{"shape": [[{literal}]]}}"#),
        ] {
            let value: Value = serde_json::from_str(&text).unwrap();
            let from_value = ReshapeConfiguration::from_json_value(&value)
                .and_then(|parsed| parsed.resolve(&[6]));
            let from_text =
                ReshapeConfiguration::from_json_str(&text).and_then(|parsed| parsed.resolve(&[6]));
            assert_eq!(
                from_value.as_ref().map_err(|error| error.class()),
                from_text.as_ref().map_err(|error| error.class()),
                "{text}"
            );
        }
    }
}

/// A float in a Value prints with a fraction or an exponent, so it is never read
/// as an integer (reading I-6), whatever its value.
#[test]
fn shape_element_a_float_in_a_value_is_never_an_integer() {
    for float in [
        1.0,
        10.0,
        1e15,
        1e16,
        9_007_199_254_740_993.0,
        1.8e19,
        1e300,
    ] {
        let configuration = serde_json::json!({ "shape": [float] });
        let error = ReshapeConfiguration::from_json_value(&configuration).unwrap_err();
        assert_eq!(error.class(), ErrorClass::MalformedConfiguration, "{float}");
    }
}
