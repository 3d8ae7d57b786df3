//! Any JSON as a configuration and any decoded shape, through every entry point:
//! nothing panics, every error names a known class and clause, `explain` reaches
//! exactly the outcome of `resolve`, and the text API (`*_json_str`) on a Value's
//! own text gives what the Value API gives.

use proptest::prelude::*;
use serde_json::{Value, json};
use zarr_reshape::{
    Clause, ErrorClass, ReshapeCodec, ReshapeConfiguration, ReshapeError, Verdict, explain,
    explain_codec, explain_codec_json_str, explain_json_str,
};

use crate::inputs::{any_coordinates, any_decoded_shape, configuration_and_shape, json_value};
use crate::product;

/// The classes an error of parsing or resolving may have (the last two are for
/// arrays, indices and boxes handed to a resolved codec).
const RESOLVE_CLASSES: &[ErrorClass] = &[
    ErrorClass::MalformedConfiguration,
    ErrorClass::InvalidSize,
    ErrorClass::RepeatedAuto,
    ErrorClass::InputDimsNotIncreasing,
    ErrorClass::InputDimOutOfRange,
    ErrorClass::ElementCountMismatch,
    ErrorClass::InputDimsMisaligned,
    ErrorClass::Overflow,
];

/// An error is consistent: its class and clause are registered, the class's name
/// reads back, and the message is not empty.
fn check_error(error: &ReshapeError, allowed: &[ErrorClass]) -> Result<(), TestCaseError> {
    let class = error.class();
    prop_assert!(ErrorClass::ALL.contains(&class));
    prop_assert!(
        allowed.contains(&class),
        "{class} not expected here: {error}"
    );
    prop_assert_eq!(ErrorClass::from_name(class.as_str()), Some(class));
    prop_assert!(Clause::ALL.contains(&error.clause()));
    prop_assert!(!error.to_string().is_empty());
    Ok(())
}

/// Pokes the mapping functions of a resolved codec with arbitrary coordinates.
fn poke_mapping(codec: &ReshapeCodec, index: &[u64], stop: &[u64]) -> Result<(), TestCaseError> {
    let a_shape = codec.decoded_shape();
    let b_shape = codec.encoded_shape();
    // With a zero extent prod(A_shape) is 0 whatever the other extents, and mapping
    // still fails only as documented (tests/zero_extents.rs pins two such inputs).
    let mapping = [ErrorClass::ShapeMismatch, ErrorClass::OutOfBounds];
    let allowed: &[ErrorClass] = &mapping;
    match codec.encoded_index(index) {
        Ok(encoded) => {
            prop_assert!(encoded.iter().zip(b_shape).all(|(c, e)| c < e));
            prop_assert_eq!(encoded.len(), b_shape.len());
            prop_assert_eq!(codec.decoded_index(&encoded)?, index);
        }
        Err(error) => check_error(&error, allowed)?,
    }
    if let Some(&offset) = index.first() {
        match codec.encoded_index_at(offset) {
            Ok(encoded) => {
                prop_assert!(Some(u128::from(offset)) < product(b_shape));
                prop_assert_eq!(encoded.len(), b_shape.len());
            }
            Err(error) => check_error(&error, &mapping)?,
        }
    }
    // The whole array, then the box index..stop.
    let zeros = vec![0; a_shape.len()];
    for (start, stop) in [(&zeros[..], a_shape), (index, stop)] {
        match codec.region_runs(start, stop) {
            Ok(runs) => {
                let runs: Vec<_> = runs.take(3).collect();
                prop_assert!(runs.iter().all(|run| run.len > 0));
                prop_assert!(
                    runs.windows(2)
                        .all(|w| w[0].offset + w[0].len < w[1].offset)
                );
            }
            Err(error) => check_error(&error, allowed)?,
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::config())]

    /// Every entry point, on any JSON and any decoded shape: no panic, consistent
    /// errors, and parse + resolve, explain and the codec-object forms agree.
    #[test]
    fn configuration_members_any_json_is_judged_consistently(
        (configuration, a_shape) in configuration_and_shape(),
        index in any_coordinates(),
        stop in any_coordinates(),
    ) {
        let parsed = ReshapeConfiguration::from_json_value(&configuration);
        let resolved = parsed.clone().and_then(|parsed| parsed.resolve(&a_shape));
        let codec_object = json!({"name": "reshape", "configuration": configuration});
        prop_assert_eq!(&ReshapeConfiguration::from_codec_json_value(&codec_object), &parsed);
        prop_assert_eq!(&explain_codec(&codec_object, &a_shape).outcome, &resolved);
        // The text API walks the same checks: on the Value's own text, it reaches
        // the same result, message for message, and the same trace.
        let text = configuration.to_string();
        prop_assert_eq!(&ReshapeConfiguration::from_json_str(&text), &parsed);
        let codec_text = codec_object.to_string();
        prop_assert_eq!(&ReshapeConfiguration::from_codec_json_str(&codec_text), &parsed);
        prop_assert_eq!(explain_json_str(&text, &a_shape), explain(&configuration, &a_shape));
        prop_assert_eq!(
            explain_codec_json_str(&codec_text, &a_shape),
            explain_codec(&codec_object, &a_shape)
        );

        match (parsed, &resolved) {
            (Ok(parsed), Ok(b_shape)) => {
                prop_assert_eq!(b_shape.len(), parsed.shape().len());
                prop_assert_eq!(product(b_shape), product(&a_shape));
                let codec = ReshapeCodec::new(parsed, &a_shape)?;
                prop_assert_eq!(codec.encoded_shape(), &b_shape[..]);
                poke_mapping(&codec, &index, &stop)?;
            }
            (Ok(parsed), Err(error)) => {
                check_error(error, RESOLVE_CLASSES)?;
                prop_assert_eq!(ReshapeCodec::new(parsed, &a_shape).err(), Some(error.clone()));
            }
            (Err(error), _) => check_error(&error, RESOLVE_CLASSES)?,
        }
    }

    /// explain: the outcome equals resolve's result, with at most one violated step,
    /// the last, naming the clause of the error.
    #[test]
    fn explain_outcome_equals_resolve((configuration, a_shape) in configuration_and_shape()) {
        let resolved = ReshapeConfiguration::from_json_value(&configuration)
            .and_then(|parsed| parsed.resolve(&a_shape));
        let explanation = explain(&configuration, &a_shape);
        prop_assert_eq!(&explanation.outcome, &resolved);
        prop_assert!(!explanation.to_string().is_empty());
        let violated: Vec<usize> = explanation.steps.iter().enumerate()
            .filter(|(_, step)| step.verdict == Verdict::Violated)
            .map(|(i, _)| i)
            .collect();
        match (&resolved, violated.as_slice()) {
            (Ok(_), []) | (Err(_), []) => {}
            (Err(error), [last]) => {
                prop_assert_eq!(*last + 1, explanation.steps.len());
                prop_assert_eq!(explanation.steps[*last].clause, error.clause());
            }
            (outcome, steps) => prop_assert!(false, "{outcome:?} with violated steps {steps:?}"),
        }
    }

    /// codec.name: any codec object is judged as its configuration is, when named
    /// `reshape` with no other member, and rejected otherwise.
    #[test]
    fn codec_name_any_codec_object_never_panics(codec in json_value(), a_shape in any_decoded_shape()) {
        let parsed = ReshapeConfiguration::from_codec_json_value(&codec);
        prop_assert_eq!(&ReshapeConfiguration::from_codec_json_str(&codec.to_string()), &parsed);
        let explained = explain_codec(&codec, &a_shape).outcome;
        prop_assert_eq!(&explained, &parsed.clone().and_then(|parsed| parsed.resolve(&a_shape)));
        if let Err(error) = &explained {
            check_error(error, RESOLVE_CLASSES)?;
        }
        let named = codec.get("name").and_then(Value::as_str) == Some("reshape");
        prop_assert!(parsed.is_err() || named);
    }
}
