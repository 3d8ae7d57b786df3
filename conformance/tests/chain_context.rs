//! The array context of `resolve-chain` cases (`array_shape` with `chunk_grid`):
//! the vector reader checks it, the reference's answer does not depend on it, and
//! the reference's array reader gives the chain's verdict for the array it names.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use serde_json::{Value, json};
use zarr_reshape_conformance::vector::{self, Case, CodecJson, Operation};
use zarr_reshape_conformance::zarr::{self, ArrayMetadata, ZarrArray};
use zarr_reshape_conformance::{DataType, reference};

/// Every resolve-chain case, with its data type and array shape as read.
fn chain_cases() -> Vec<(Case, DataType, Option<Vec<u64>>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
    vector::discover(&root)
        .unwrap()
        .iter()
        .flat_map(|path| vector::load_file(path).unwrap())
        .filter_map(|case| match &case.operation {
            Operation::ResolveChain {
                data_type,
                array_shape,
            } => {
                let (data_type, array_shape) = (*data_type, array_shape.clone());
                Some((case, data_type, array_shape))
            }
            _ => None,
        })
        .collect()
}

fn codecs(case: &Case) -> &Value {
    match &case.codec {
        CodecJson::Chain(codecs) => codecs,
        other => panic!("{}: a resolve-chain case holds {other:?}", case.id),
    }
}

#[test]
fn the_context_is_read_as_written_and_its_grid_is_the_chunks() {
    let mut with_context = 0;
    for (case, _, array_shape) in chain_cases() {
        let written = case.json.get("array_shape");
        assert_eq!(written.is_some(), array_shape.is_some(), "{}", case.id);
        assert_eq!(written.is_some(), case.json.get("chunk_grid").is_some());
        let Some(array_shape) = array_shape else {
            continue;
        };
        with_context += 1;
        assert_eq!(written, Some(&json!(array_shape)), "{}", case.id);
        let grid = &case.json["chunk_grid"];
        assert_eq!(grid["name"], "regular", "{}", case.id);
        assert_eq!(
            grid["configuration"]["chunk_shape"],
            json!(case.decoded_shape),
            "{}",
            case.id
        );
        // A context is given where the main chain holds a reshape (whose result an
        // implementation checking the chain against the array may get wrong).
        let main = codecs(&case).as_array().unwrap();
        assert!(
            main.iter().any(|codec| codec["name"] == "reshape"),
            "{}",
            case.id
        );
    }
    assert!(
        with_context >= 10,
        "{with_context} cases with an array context"
    );
}

#[test]
fn the_reference_answers_the_same_without_the_context() {
    for (case, _, array_shape) in chain_cases() {
        if array_shape.is_none() {
            continue;
        }
        let mut json = case.json.clone();
        let object = json.as_object_mut().unwrap();
        object.remove("array_shape");
        object.remove("chunk_grid");
        let bare = vector::parse_case(&json).unwrap();
        assert_eq!(reference::run(&case), reference::run(&bare), "{}", case.id);
    }
}

#[test]
fn the_array_reader_gives_the_chains_verdict_for_the_contexts_array() {
    let mut compared = 0;
    for (case, data_type, array_shape) in chain_cases() {
        let Some(array_shape) = array_shape else {
            continue;
        };
        // An array larger than the reader holds is refused for its size: no verdict.
        let elements = array_shape
            .iter()
            .try_fold(1_u64, |count, extent| count.checked_mul(*extent));
        if elements.is_none_or(|count| count > zarr::MAX_ELEMENTS) {
            continue;
        }
        let document = json!({
            "zarr_format": 3, "node_type": "array", "shape": array_shape,
            "data_type": data_type.name(), "chunk_grid": case.json["chunk_grid"],
            "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
            "codecs": codecs(&case)
        });
        let opened = ArrayMetadata::from_json(&document)
            .and_then(|metadata| ZarrArray::with_metadata(Path::new("."), metadata));
        let resolved = zarr::resolve_chain(codecs(&case), &case.decoded_shape, data_type);
        let sharded = codecs(&case).to_string().contains("sharding_indexed");
        match (opened, resolved) {
            // The reader does not read a valid sharded array: no verdict.
            (Err(reader), Ok(_)) if sharded && reader.is_unsupported() => {}
            (Ok(_), Ok(_)) => compared += 1,
            (Err(reader), Err(chain)) => {
                assert_eq!(reader.class, chain.class, "{}: {reader} / {chain}", case.id);
                compared += 1;
            }
            (reader, chain) => panic!("{}: the reader {reader:?}, the chain {chain:?}", case.id),
        }
    }
    assert!(compared >= 5, "{compared} arrays compared");
}

#[test]
fn the_vector_reader_refuses_a_context_that_is_not_the_chunks() {
    let base = json!({
        "id": "x/y", "description": "d", "clauses": ["algorithm.rank"], "level": "must",
        "operation": "resolve-chain", "data_type": "int32",
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "decoded_shape": [2, 3], "array_shape": [4, 5],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3]}},
        "expect": {"encoded_shapes": []}
    });
    let Operation::ResolveChain { array_shape, .. } = vector::parse_case(&base).unwrap().operation
    else {
        panic!("not resolve-chain")
    };
    assert_eq!(array_shape, Some(vec![4, 5]));
    let fault = |member: &str, value: Option<Value>| {
        let mut case = base.clone();
        let object = case.as_object_mut().unwrap();
        match value {
            Some(value) => object.insert(member.into(), value),
            None => object.remove(member),
        };
        vector::parse_case(&case).map(|_| ()).unwrap_err().0
    };
    let regular = |chunk_shape: Value| {
        Some(json!({"name": "regular", "configuration": {"chunk_shape": chunk_shape}}))
    };
    let cases = [
        (fault("array_shape", None), "/array_shape"),
        (fault("chunk_grid", None), "/chunk_grid"),
        (fault("array_shape", Some(json!([4]))), "/array_shape"),
        (fault("array_shape", Some(json!([4, 0]))), "/array_shape/1"),
        (fault("array_shape", Some(json!([4, -1]))), "/array_shape/1"),
        (fault("array_shape", Some(json!({"0": 4}))), "/array_shape"),
        (fault("chunk_grid", Some(json!([[2, 3]]))), "/chunk_grid"),
        (
            fault(
                "chunk_grid",
                Some(
                    json!({"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": [2, 3]}}),
                ),
            ),
            "/chunk_grid/name",
        ),
        (
            fault(
                "chunk_grid",
                Some(json!({"name": "regular", "configuration": [[2, 3]]})),
            ),
            "/chunk_grid/configuration",
        ),
        (
            fault(
                "chunk_grid",
                Some(json!({"name": "regular", "configuration": {}})),
            ),
            "/chunk_grid/configuration/chunk_shape",
        ),
        (
            fault("chunk_grid", regular(json!([3, 2]))),
            "/chunk_grid/configuration/chunk_shape",
        ),
        (
            fault("chunk_grid", regular(json!([2, 3, 1]))),
            "/chunk_grid/configuration/chunk_shape",
        ),
        (
            fault("chunk_grid", regular(json!([2, "3"]))),
            "/chunk_grid/configuration/chunk_shape/1",
        ),
    ];
    for (pointer, expected) in cases {
        assert_eq!(pointer, expected);
    }
}
