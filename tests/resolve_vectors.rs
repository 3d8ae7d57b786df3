//! Every `resolve` vector of the suite, read from the embedded vectors crate and run
//! through the text API, which reads numbers exactly as written in every build: this
//! test is meant to pass in `cargo test -p zarr-reshape`, a build without serde_json's
//! `arbitrary_precision`. The judgement follows the runner's (`conformance/src/judge.rs`
//! and `spec-cases/README.md`, "Expectations"): an output must match member by
//! member, an error must have one of the listed classes, and `any_of` passes when
//! one of its expectations does.
// Test code: a vector file that cannot be read fails the test with its path.
#![allow(clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;

use serde_json::Value;
use serde_json::value::RawValue;
use zarr_reshape::{ErrorClass, ReshapeCodec, ReshapeConfiguration, ReshapeError};

/// A `resolve` case, with the codec's JSON text exactly as the vector file has it.
struct ResolveCase {
    id: String,
    /// `configuration` or `codec`.
    form: &'static str,
    text: String,
    decoded_shape: Vec<u64>,
    expect: Value,
}

type Members = BTreeMap<String, Box<RawValue>>;

fn member<'a>(case: &'a Members, name: &str, file: &str) -> &'a str {
    case.get(name)
        .unwrap_or_else(|| panic!("{file}: a case has no {name}"))
        .get()
}

/// Every case whose `operation` is `resolve`, from every vector file.
fn resolve_cases() -> Vec<ResolveCase> {
    let mut cases = Vec::new();
    for file in zarr_reshape_vectors::vector_files() {
        let path = file.path;
        let top: Members = serde_json::from_slice(file.bytes).expect(path);
        let listed: Vec<Members> = serde_json::from_str(member(&top, "cases", path)).expect(path);
        for case in listed {
            let operation: String =
                serde_json::from_str(member(&case, "operation", path)).expect(path);
            if operation != "resolve" {
                continue;
            }
            let form = if case.contains_key("codec") {
                "codec"
            } else {
                "configuration"
            };
            cases.push(ResolveCase {
                id: serde_json::from_str(member(&case, "id", path)).expect(path),
                form,
                text: member(&case, form, path).to_owned(),
                decoded_shape: serde_json::from_str(member(&case, "decoded_shape", path))
                    .expect(path),
                expect: serde_json::from_str(member(&case, "expect", path)).expect(path),
            });
        }
    }
    cases
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

/// Why `outcome` does not meet `expect`, or `None` when it does.
fn mismatch(expect: &Value, outcome: &Result<Vec<u64>, ReshapeError>) -> Option<String> {
    let Some(expect) = expect.as_object() else {
        return Some(format!("the expectation {expect} is not an object"));
    };
    if let Some(options) = expect.get("any_of") {
        let Some(options) = options.as_array() else {
            return Some(format!("any_of is not a list: {options}"));
        };
        let reasons: Vec<String> = options
            .iter()
            .map(|option| mismatch(option, outcome))
            .collect::<Option<_>>()?;
        return Some(format!("none of any_of: {}", reasons.join("; ")));
    }
    if let Some(classes) = expect.get("error") {
        let listed: Vec<&Value> = match classes {
            Value::Array(classes) => classes.iter().collect(),
            class => vec![class],
        };
        let mut acceptable = Vec::new();
        for class in listed {
            let name = class.as_str().unwrap_or_default();
            match ErrorClass::from_name(name) {
                Some(class) => acceptable.push(class),
                None => return Some(format!("the expectation names no error class: {class}")),
            }
        }
        return match outcome {
            Err(error) if acceptable.contains(&error.class()) => None,
            Err(error) => Some(format!(
                "error [{}] {error}, expected {classes}",
                error.class()
            )),
            Ok(b_shape) => Some(format!("resolved to {b_shape:?}, expected error {classes}")),
        };
    }
    for (name, want) in expect {
        let got = match (name.as_str(), outcome) {
            ("encoded_shape", Ok(b_shape)) => Value::from(b_shape.clone()),
            (_, Err(error)) => return Some(format!("error [{}] {error}", error.class())),
            (other, Ok(_)) => return Some(format!("resolve gives no {other}")),
        };
        if &got != want {
            return Some(format!("{name} is {got}, expected {want}"));
        }
    }
    None
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
            mismatch(&case.expect, &resolve(case)).map(|why| format!("{}: {why}", case.id))
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
/// vector, and a broken rule is the trace's last step.
#[test]
fn explain_json_str_reaches_the_outcome_of_resolve_on_every_vector() {
    for case in resolve_cases() {
        let explanation = match case.form {
            "codec" => zarr_reshape::explain_codec_json_str(&case.text, &case.decoded_shape),
            _ => zarr_reshape::explain_json_str(&case.text, &case.decoded_shape),
        };
        let resolved = resolve(&case);
        assert_eq!(explanation.outcome, resolved, "{}", case.id);
        if let Err(error) = &resolved {
            let last = explanation.steps.last().map(|step| step.clause);
            assert_eq!(last, Some(error.clause()), "{}", case.id);
        }
    }
}

/// Parses and resolves a case through the Value API, from a `Value`.
fn resolve_value(case: &ResolveCase, value: &Value) -> Result<Vec<u64>, ReshapeError> {
    let configuration = match case.form {
        "codec" => ReshapeConfiguration::from_codec_json(value)?,
        _ => ReshapeConfiguration::from_configuration_json(value)?,
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
/// `malformed-configuration`, as `ReshapeConfiguration::from_configuration_json`
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
                case.id
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
        assert_eq!(from_value, resolve(&reread), "{}", reread.id);
        let from_value = judged(from_value);
        if from_value != from_text {
            assert!(
                !exact_build,
                "{}: {from_value:?}, but the text gives {from_text:?}",
                reread.id
            );
            assert_eq!(
                from_value,
                Err(ErrorClass::MalformedConfiguration),
                "{}",
                reread.id
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
