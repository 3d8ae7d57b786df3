//! Every `resolve` vector of the suite, read from the embedded vectors crate and run
//! through the text API, which reads numbers exactly as written in every build: this
//! test is meant to pass in `cargo test -p zarr-reshape`, a build without serde_json's
//! `arbitrary_precision`. The harness crate judges each answer, as the runner does.
// Test code: a vector file that cannot be read fails the test with its path.
#![allow(clippy::expect_used, clippy::panic)]

use serde_json::Value;
use zarr_reshape::{ErrorClass, ReshapeCodec, ReshapeConfiguration, ReshapeError};
use zarr_reshape_harness::{Answer, Operation, Outcome};

/// A `resolve` case, with the codec's JSON text exactly as the vector file has it.
struct ResolveCase {
    case: zarr_reshape_harness::Case,
    /// `configuration` or `codec`.
    form: &'static str,
    text: String,
    decoded_shape: Vec<u64>,
}

/// Every case whose `operation` is `resolve`, from the vectors crate's typed cases.
fn resolve_cases() -> Vec<ResolveCase> {
    let cases = zarr_reshape_harness::vectors::cases().expect("the embedded vectors load");
    cases
        .into_iter()
        .filter(|case| case.operation == Operation::Resolve)
        .map(|case| {
            let (form, text) = match (case.configuration, case.codec) {
                (Some(configuration), _) => ("configuration", configuration.get()),
                (None, Some(codec)) => ("codec", codec.get()),
                (None, None) => panic!("{}: a resolve case without a codec", case.id),
            };
            let decoded_shape = serde_json::from_str(case.decoded_shape.get()).expect(case.file);
            ResolveCase {
                form,
                text: text.to_owned(),
                decoded_shape,
                case,
            }
        })
        .collect()
}

/// Parses and resolves a case through the text API.
fn resolve(case: &ResolveCase) -> Result<Vec<u64>, ReshapeError> {
    let configuration = match case.form {
        "codec" => ReshapeConfiguration::from_codec_json_str(&case.text)?,
        _ => ReshapeConfiguration::from_json_str(&case.text)?,
    };
    let codec = ReshapeCodec::new(configuration, &case.decoded_shape)?;
    Ok(codec.encoded_shape().to_vec())
}

/// Why the outcome does not meet the case's expectation, judged by the harness
/// exactly as the runner judges, or `None` when it does.
fn mismatch(case: &ResolveCase, outcome: &Result<Vec<u64>, ReshapeError>) -> Option<String> {
    let answer = match outcome {
        Ok(b_shape) => Answer::output(&serde_json::json!({ "encoded_shape": b_shape })),
        Err(error) => Answer::error(error.class().as_str(), error.to_string()),
    };
    match zarr_reshape_harness::judge(&case.case, &answer) {
        Ok(Outcome::Pass) => None,
        Ok(other) => Some(other.to_string()),
        Err(why) => Some(why),
    }
}

/// Every resolve vector passes through the text API, built with or without
/// `arbitrary_precision`.
#[test]
fn every_resolve_vector_passes_through_the_text_api() {
    let cases = resolve_cases();
    assert!(!cases.is_empty(), "no resolve case in the vectors crate");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            mismatch(case, &resolve(case)).map(|why| format!("{}: {why}", case.case.id))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} resolve cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The explained text API reaches the outcome of the plain one on every resolve
/// vector, and a broken rule is the trace's last step, at the error's position.
#[test]
fn explain_json_str_reaches_the_outcome_of_resolve_on_every_vector() {
    for case in resolve_cases() {
        let explanation = match case.form {
            "codec" => zarr_reshape::explain_codec_json_str(&case.text, &case.decoded_shape),
            _ => zarr_reshape::explain_json_str(&case.text, &case.decoded_shape),
        };
        let resolved = resolve(&case);
        assert_eq!(explanation.outcome, resolved, "{}", case.case.id);
        if let Err(error) = &resolved {
            let last = explanation.steps.last();
            assert_eq!(
                last.map(|step| step.clause),
                Some(error.clause()),
                "{}",
                case.case.id
            );
            // A step with a place has the error's; the steps of rules over the whole
            // shape (-1 once, increasing dims) name their places in the detail.
            if let Some(at) = last.and_then(|step| step.at) {
                assert_eq!(Some(at), error.position(), "{}", case.case.id);
            }
        }
    }
}

/// Parses and resolves a case through the Value API, from a `Value`.
fn resolve_value(case: &ResolveCase, value: &Value) -> Result<Vec<u64>, ReshapeError> {
    let configuration = match case.form {
        "codec" => ReshapeConfiguration::from_codec_json_value(value)?,
        _ => ReshapeConfiguration::from_json_value(value)?,
    };
    ReshapeCodec::new(configuration, &case.decoded_shape)
        .map(|codec| codec.encoded_shape().to_vec())
}

/// An outcome as the vectors judge it: the shape, or the error's class.
fn judged(outcome: Result<Vec<u64>, ReshapeError>) -> Result<Vec<u64>, ErrorClass> {
    outcome.map_err(|error| error.class())
}

/// The Value API walks the text API's checks: on a vector's `Value`, it gives what
/// the text API gives on that Value's text, message for message. It reaches the
/// vector text's result wherever the build's `Value` holds every number (always
/// with `arbitrary_precision`); where it does not (without it: integers beyond 64
/// bits became floats, `-0` became -0.0, `1e400` is no Value), it says
/// `malformed-configuration`, as `ReshapeConfiguration::from_json_value`
/// documents.
#[test]
fn value_api_agrees_with_the_text_api_where_the_value_holds_every_number() {
    let exact_build = serde_json::from_str::<Value>("18446744073709551616")
        .and_then(|value| serde_json::to_string(&value))
        .is_ok_and(|text| text == "18446744073709551616");
    let mut changed = 0;
    for case in resolve_cases() {
        let Ok(value) = serde_json::from_str::<Value>(&case.text) else {
            assert!(
                !exact_build,
                "{}: an exact build parses every vector",
                case.case.id
            );
            changed += 1;
            continue;
        };
        let from_text = judged(resolve(&case));
        let reread = ResolveCase {
            text: value.to_string(),
            ..case
        };
        let from_value = resolve_value(&reread, &value);
        assert_eq!(from_value, resolve(&reread), "{}", reread.case.id);
        let from_value = judged(from_value);
        if from_value != from_text {
            assert!(
                !exact_build,
                "{}: {from_value:?}, but the text gives {from_text:?}",
                reread.case.id
            );
            assert_eq!(
                from_value,
                Err(ErrorClass::MalformedConfiguration),
                "{}",
                reread.case.id
            );
            changed += 1;
        }
    }
    assert_eq!(
        changed > 0,
        !exact_build,
        "{changed} vectors read differently"
    );
}
