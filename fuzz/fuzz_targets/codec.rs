//! Configuration bytes plus a decoded shape through parse, resolve, explain,
//! encode and decode. Input: line 1 the decoded shape (`[2, 3]`), the rest the
//! configuration or codec JSON. Nothing may panic; encode then decode is the
//! identity; explain agrees with parse + resolve; the text API agrees with the
//! Value API (this crate builds serde_json with `arbitrary_precision`, so a Value
//! holds every number as written).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ndarray::{ArrayD, IxDyn};
use zarr_reshape::{ReshapeCodec, ReshapeConfiguration, explain, explain_codec};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (shape_line, json) = common::split_line(text);
    let Some(a_shape) = common::u64_list(shape_line) else {
        return;
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(json) else {
        return;
    };
    let is_codec = value.get("name").is_some();
    let parsed = if is_codec {
        ReshapeConfiguration::from_codec_json_value(&value)
    } else {
        ReshapeConfiguration::from_json_value(&value)
    };
    let explanation = if is_codec {
        explain_codec(&value, &a_shape)
    } else {
        explain(&value, &a_shape)
    };
    let _ = format!("{explanation}");
    let from_text = if is_codec {
        ReshapeConfiguration::from_codec_json_str(json)
    } else {
        ReshapeConfiguration::from_json_str(json)
    };
    assert_eq!(from_text, parsed);
    let Ok(configuration) = parsed else {
        return;
    };
    // The configuration round-trips through its JSON.
    let again = ReshapeConfiguration::from_json_value(&configuration.to_json());
    assert_eq!(again.as_ref().ok(), Some(&configuration));
    let resolved = configuration.resolve(&a_shape);
    let Ok(codec) = ReshapeCodec::new(configuration, &a_shape) else {
        assert!(resolved.is_err());
        return;
    };
    assert_eq!(resolved.ok().as_deref(), Some(codec.encoded_shape()));
    let Some(count) = common::small_count(&a_shape) else {
        return;
    };
    let Ok(dims) = a_shape
        .iter()
        .map(|&d| usize::try_from(d))
        .collect::<Result<Vec<usize>, _>>()
    else {
        return;
    };
    let Ok(decoded) = ArrayD::from_shape_vec(IxDyn(&dims), (0..count).collect::<Vec<usize>>())
    else {
        return;
    };
    let encoded = codec.encode(&decoded).expect("encode of a well-shaped array");
    let back = codec.decode(&encoded).expect("decode of an encoded array");
    assert_eq!(back.view(), decoded.view());
    // A wrongly shaped array is an error, not a panic.
    let _ = codec.decode(&decoded);
});
