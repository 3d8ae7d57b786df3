//! How the runner judges a `resolve-grid` error: any chunk the chain refuses is
//! an answer, with the class the chain gives on that chunk; a chunk that fits,
//! one outside the array, or none is not.

#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::{Value, json};
use zarr_reshape_conformance::vector::{self, Case};
use zarr_reshape_conformance::{Answer, ClassCheck, Outcome, judge, reference};

/// Rows of 8, 4 and 2 by 3 columns: reshape [-1, 4] gives [6, 4], [3, 4] and an
/// error (6 elements); sharding's inner chunks of [2, 4] divide only [6, 4]. So
/// chunk [1, 0] breaks the sharding rule (malformed-configuration), chunk [2, 0]
/// the element count, and chunk [0, 0] fits.
fn two_refusals() -> Case {
    let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
    let json = json!({
        "id": "judge/two-refusals",
        "description": "two chunks refused for two reasons",
        "clauses": ["shape.invariant"],
        "level": "must",
        "operation": "resolve-grid",
        "array_shape": [14, 3],
        "chunk_grid": {"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": [[8, 4, 2], 3]}},
        "codecs": [
            {"name": "reshape", "configuration": {"shape": [-1, 4]}},
            {"name": "sharding_indexed", "configuration": {
                "chunk_shape": [2, 4], "codecs": [bytes.clone()], "index_codecs": [bytes],
                "index_location": "end"}}
        ],
        "data_type": "int32",
        "decoded_shape": [8, 3],
        "expect": {"error": "element-count-mismatch"}
    });
    vector::parse_case(&json).unwrap()
}

fn error(class: &str, chunk: Option<Value>) -> Answer {
    let mut error = serde_json::Map::new();
    error.insert("class".into(), json!(class));
    error.insert("message".into(), json!("m"));
    if let Some(chunk) = chunk {
        error.insert("chunk".into(), chunk);
    }
    Answer::from_json(&json!({ "error": error }))
}

fn outcome(case: &Case, answer: &Answer) -> Outcome {
    judge(case, answer, ClassCheck::Strict)
}

#[test]
fn the_reference_names_the_element_count_chunk_and_passes() {
    let case = two_refusals();
    let answer = reference::run(&case);
    let Answer::Error { chunk, class, .. } = &answer else {
        panic!("{answer:?}");
    };
    assert_eq!(chunk.as_deref(), Some(&[2, 0][..]));
    assert_eq!(class.as_deref(), Some("element-count-mismatch"));
    assert_eq!(outcome(&case, &answer), Outcome::Pass);
}

#[test]
fn another_refused_chunk_passes_with_its_own_class_only() {
    let case = two_refusals();
    let right = error("malformed-configuration", Some(json!([1, 0])));
    assert_eq!(outcome(&case, &right), Outcome::Pass);
    let borrowed = error("element-count-mismatch", Some(json!([1, 0])));
    assert!(matches!(outcome(&case, &borrowed), Outcome::Fail(_)));
}

#[test]
fn a_chunk_that_fits_lies_outside_or_is_missing_fails() {
    let case = two_refusals();
    for (chunk, why) in [
        (Some(json!([0, 0])), "which the chain fits"),
        (Some(json!([3, 0])), "is not a chunk of the array"),
        (Some(json!([0])), "is not a chunk of the array"),
        (None, "names no chunk"),
    ] {
        let answer = error("element-count-mismatch", chunk.clone());
        let Outcome::Fail(reason) = outcome(&case, &answer) else {
            panic!("{chunk:?} passed");
        };
        assert!(reason.contains(why), "{chunk:?}: {reason}");
    }
}
