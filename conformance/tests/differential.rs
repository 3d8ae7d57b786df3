//! `zarr-reshape fuzz` (issue 20): against the reference adapter it finds nothing;
//! against adapters with planted bugs (Python scripts written here, forwarding to
//! the reference adapter and changing some answers) it finds each bug within
//! seconds and prints a shrunk vector the loader accepts; and the generator drives
//! a property test of the reference against itself.

// The helpers below are test code too: clippy.toml's allowances reach only
// `#[test]` functions.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions
)]

use std::time::Duration;

use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;
use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::TypedArray;
use zarr_reshape_conformance::differential::generated_cases;
use zarr_reshape_conformance::reference;
use zarr_reshape_conformance::vector::{self, Case, Operation, parse_case};
use zarr_reshape_conformance::{ClassCheck, Outcome, judge};

mod fuzzing;
use fuzzing::{BINARY, buggy_adapter, fuzz, fuzz_finding, scratch};

/// Accepts what the prefix or suffix rule rejects, as zarrs does.
const ACCEPTS_MISALIGNED: &str = r#"def mutate(case, result):
    if result.get("error", {}).get("class") == "input-dims-misaligned":
        return {"encoded_shape": [1]}
"#;

/// Swaps the first two elements of every encoded integer array with two that differ.
const SWAPS_ENCODED_ELEMENTS: &str = r#"def leaves(data, out):
    if isinstance(data, list):
        for item in data:
            leaves(item, out)
    else:
        out.append(data)
    return out
def rebuild(data, flat):
    if isinstance(data, list):
        return [rebuild(item, flat) for item in data]
    return flat.pop(0)
def mutate(case, result):
    if case["operation"] == "encode" and "data" in result and "int" in case["input"]["data_type"]:
        flat = leaves(result["data"], [])
        if len(flat) >= 2 and flat[0] != flat[1]:
            flat[0], flat[1] = flat[1], flat[0]
            result["data"] = rebuild(result["data"], flat)
            return result
"#;

#[test]
fn fuzz_finds_no_disagreement_with_the_reference_adapter() {
    let adapter = format!("{BINARY} adapter");
    let run = fuzz(&["--adapter", &adapter, "--seed", "20", "--cases", "400"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(
        run.stdout.contains("fuzz: 400 cases against zarr-reshape"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("0 disagreeing case(s) of 0 kind(s)"),
        "{}",
        run.stdout
    );
}

#[test]
fn fuzz_shrinks_an_accepted_misaligned_configuration_to_a_loadable_vector() {
    let dir = scratch("misaligned");
    let adapter = buggy_adapter(&dir, ACCEPTS_MISALIGNED);
    let (run, cases) = fuzz_finding(&dir, &adapter, "1", "3000", &["--time", "30"]);
    assert!(
        run.elapsed < Duration::from_secs(30),
        "took {:?}",
        run.elapsed
    );
    let found = cases
        .iter()
        .find(|case| {
            case.level == "must"
                && case
                    .clauses
                    .first()
                    .is_some_and(|c| c.starts_with("input-dims."))
        })
        .unwrap_or_else(|| panic!("no MUST input-dims finding in {}", run.stdout));
    assert!(
        matches!(&found.expect, vector::Expectation::Error(classes) if classes.contains(&"input-dims-misaligned".to_string())),
        "{:?}",
        found.expect
    );
    // Shrunk: a handful of dims and elements, not the drafts of up to 257.
    let shape = found.json["configuration"]["shape"]
        .as_array()
        .map_or(99, Vec::len);
    assert!(
        shape <= 3 && found.decoded_shape.len() <= 3,
        "not shrunk: {}",
        found.json
    );
    assert!(run.stdout.contains("\"format\": 1"), "{}", run.stdout);
}

#[test]
fn fuzz_finds_a_swapped_element_in_encoded_arrays() {
    let dir = scratch("swapped");
    let adapter = buggy_adapter(&dir, SWAPS_ENCODED_ELEMENTS);
    let (run, cases) = fuzz_finding(&dir, &adapter, "2", "3000", &["--time", "30"]);
    let found = cases
        .iter()
        .find(|case| matches!(case.operation, Operation::Encode(_)))
        .unwrap_or_else(|| panic!("no encode finding in {}", run.stdout));
    assert_eq!(
        found.clauses.first().map(String::as_str),
        Some("algorithm.ravel")
    );
    let Operation::Encode(input) = &found.operation else {
        unreachable!()
    };
    let elements: u64 = input.shape().iter().product();
    assert!(elements <= 4, "not shrunk: {}", found.json);
}

#[test]
fn fuzz_silences_a_divergence_listed_by_clause() {
    let dir = scratch("silenced");
    let adapter = buggy_adapter(&dir, ACCEPTS_MISALIGNED);
    let expectations = dir.join("known.toml");
    std::fs::write(
        &expectations,
        "[[failure]]\nids = []\nclause = \"input-dims.prefix\"\nreason = \"prefix rule not checked\"\n\n\
         [[failure]]\nids = []\nclause = \"input-dims.suffix\"\nreason = \"suffix rule not checked\"\n",
    )
    .unwrap();
    let run = fuzz(&[
        "--adapter",
        &adapter,
        "--seed",
        "1",
        "--cases",
        "1500",
        "--expectations",
        expectations.to_str().unwrap(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("known divergence: prefix rule not checked"),
        "{}",
        run.stdout
    );
}

/// The elements of nested lists in C order, read as `data_type`.
fn ravel(array: &Value, data_type: zarr_reshape_conformance::DataType) -> TypedArray {
    fn leaves(value: &Value, out: &mut Vec<Value>) {
        match value {
            Value::Array(items) => items.iter().for_each(|item| leaves(item, out)),
            other => out.push(other.clone()),
        }
    }
    let mut flat = Vec::new();
    leaves(array, &mut flat);
    TypedArray::from_json(data_type, &[flat.len() as u64], &Value::Array(flat)).unwrap()
}

fn offset(index: &[u64], shape: &[u64]) -> u128 {
    index
        .iter()
        .zip(shape)
        .fold(0_u128, |acc, (i, n)| acc * u128::from(*n) + u128::from(*i))
}

fn unravel(mut offset: u128, shape: &[u64]) -> Vec<u64> {
    let mut index = vec![0; shape.len()];
    for (slot, extent) in index.iter_mut().zip(shape).rev() {
        *slot = (offset % u128::from(*extent)) as u64;
        offset /= u128::from(*extent);
    }
    index
}

fn as_resolve(case: &Case) -> Case {
    let mut json = case.json.clone();
    let object = json.as_object_mut().unwrap();
    for member in ["input", "decoded_index", "decoded_region"] {
        object.remove(member);
    }
    object.insert("operation".into(), "resolve".into());
    parse_case(&json).unwrap()
}

fn coordinates(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

/// One generated case: the reference meets the expectation built from it, and its
/// operations agree with each other and with ravel(B) == ravel(A).
fn reference_agrees_with_itself(case: &Case) -> Result<(), TestCaseError> {
    let answer = reference::run(case);
    let fail = |why: String| Err(TestCaseError::fail(format!("{why}: {}", case.json)));
    if judge(case, &answer, ClassCheck::Strict) != Outcome::Pass {
        return fail("the reference does not meet its own expectation".into());
    }
    let resolved = reference::run(&as_resolve(case));
    let (output, b_shape) = match (&answer, &resolved) {
        (
            Answer::Error { class, .. },
            Answer::Error {
                class: resolve_class,
                ..
            },
        ) => {
            return if class == resolve_class {
                Ok(())
            } else {
                fail(format!("{class:?} but resolve says {resolve_class:?}"))
            };
        }
        (_, Answer::Error { .. }) => {
            return fail("an operation succeeds where resolve fails".into());
        }
        (Answer::Output(output), Answer::Output(resolved)) => {
            (output, coordinates(&resolved["encoded_shape"]))
        }
        _ => return Ok(()),
    };
    let a_shape = &case.decoded_shape;
    if a_shape.iter().product::<u64>() != b_shape.iter().product::<u64>() {
        return fail(format!("prod {b_shape:?} differs from prod {a_shape:?}"));
    }
    match &case.operation {
        Operation::Encode(input) | Operation::Decode(input) => {
            let want = if matches!(case.operation, Operation::Encode(_)) {
                &b_shape
            } else {
                a_shape
            };
            if coordinates(&output["shape"]) != *want
                || ravel(&output["data"], input.data_type())
                    != ravel(&input.to_json(), input.data_type())
            {
                return fail("ravel(B) differs from ravel(A)".into());
            }
        }
        Operation::MapIndex(index) => {
            let index: Vec<u64> = index.iter().map(|i| *i as u64).collect();
            if coordinates(&output["encoded_index"]) != unravel(offset(&index, a_shape), &b_shape) {
                return fail("map-index is not unravel(ravel(index))".into());
            }
        }
        Operation::MapRegion { start, stop } => {
            let (start, stop): (Vec<u64>, Vec<u64>) = (
                start.iter().map(|i| *i as u64).collect(),
                stop.iter().map(|i| *i as u64).collect(),
            );
            let sides: Vec<u64> = start.iter().zip(&stop).map(|(a, b)| b - a).collect();
            let count: u64 = sides.iter().product();
            let got = output["encoded_indices"].as_array().unwrap();
            if got.len() as u64 != count {
                return fail(format!("{} indices for a box of {count}", got.len()));
            }
            for (k, encoded) in got.iter().enumerate() {
                let inner = unravel(k as u128, &sides);
                let decoded: Vec<u64> = inner.iter().zip(&start).map(|(i, s)| i + s).collect();
                if coordinates(encoded) != unravel(offset(&decoded, a_shape), &b_shape) {
                    return fail(format!("box element {k} maps elsewhere than map-index"));
                }
            }
        }
        Operation::Resolve
        | Operation::ReadArray { .. }
        | Operation::ResolveChain { .. }
        | Operation::ResolveGrid { .. } => {}
    }
    Ok(())
}

#[test]
fn generated_cases_agree_with_the_reference_across_operations() {
    let operations: Vec<String> = zarr_reshape_conformance::OPERATIONS
        .iter()
        .map(ToString::to_string)
        .collect();
    let config = Config {
        cases: 3000,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[20; 32]));
    let accepted = std::cell::Cell::new(0_u32);
    let result = runner.run(&generated_cases(&operations), |case| {
        let case =
            case.map_err(|fault| TestCaseError::fail(format!("generator fault: {fault}")))?;
        if matches!(reference::run(&case), Answer::Output(_)) {
            accepted.set(accepted.get() + 1);
        }
        reference_agrees_with_itself(&case)
    });
    if let Err(error) = result {
        panic!("{error}");
    }
    // The generator reaches accepted cases, not only rejections.
    assert!(
        accepted.get() > 600,
        "only {} accepted cases",
        accepted.get()
    );
}
