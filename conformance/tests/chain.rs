//! `resolve-chain`: the reference answers every vector of the operation; the array
//! reader gives the same verdict on the same chain (one answer for both paths);
//! the vector reader refuses malformed cases; hostile chains are refused with a
//! class, never a panic.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use serde_json::{Value, json};
use zarr_reshape_conformance::vector::{self, Case, CodecJson, Expectation, Operation};
use zarr_reshape_conformance::zarr::{self, ArrayMetadata, ZarrArray};
use zarr_reshape_conformance::{Answer, ClassCheck, DataType, Outcome, judge, reference};

fn chain_cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
    let cases: Vec<Case> = vector::discover(&root)
        .unwrap()
        .iter()
        .flat_map(|path| vector::load_file(path).unwrap())
        .filter(|case| matches!(case.operation, Operation::ResolveChain { .. }))
        .collect();
    assert!(cases.len() >= 20, "{} resolve-chain vectors", cases.len());
    cases
}

fn codecs(case: &Case) -> &Value {
    match &case.codec {
        CodecJson::Chain(codecs) => codecs,
        other => panic!("{}: a resolve-chain case holds {other:?}", case.id),
    }
}

#[test]
fn the_reference_answers_every_resolve_chain_vector() {
    for case in chain_cases() {
        let answer = reference::run(&case);
        assert_eq!(
            judge(&case, &answer, ClassCheck::Strict),
            Outcome::Pass,
            "{}: {answer:?}",
            case.id
        );
    }
}

#[test]
fn every_case_has_one_cause_the_vectors_name() {
    // Each case is either a success or one rule broken: a chain that breaks two
    // rules would let an implementation pass for the wrong reason. An input dim
    // beyond the rank is one rule with two classes (reading I-4 leaves the choice).
    let beyond_rank = ["input-dim-out-of-range", "malformed-configuration"];
    for case in chain_cases() {
        match &case.expect {
            Expectation::Output(output) => assert!(output.contains_key("encoded_shapes")),
            Expectation::Error(classes) if classes.len() > 1 => {
                assert!(
                    case.interpretations.iter().any(|id| id == "I-4"),
                    "{}",
                    case.id
                );
                assert_eq!(classes, &beyond_rank, "{}", case.id);
            }
            Expectation::Error(classes) => assert_eq!(classes.len(), 1, "{}", case.id),
            Expectation::AnyOf(_) => panic!("{}: no any_of in resolve-chain", case.id),
        }
        assert_eq!(case.level, "must", "{}", case.id);
    }
}

/// A `zarr.json` with the case's codecs, chunks of its decoded shape.
fn array_json(case: &Case, data_type: DataType) -> Value {
    let shape = &case.decoded_shape;
    json!({
        "zarr_format": 3, "node_type": "array", "shape": shape, "data_type": data_type.name(),
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": shape}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0, "codecs": codecs(case)
    })
}

#[test]
fn the_array_reader_gives_the_same_verdict_on_the_same_chain() {
    let mut compared = 0;
    for case in chain_cases() {
        let Operation::ResolveChain { data_type, .. } = case.operation else {
            unreachable!()
        };
        // An array larger than the reader holds is refused for its size, before any
        // codec: no verdict on the chain (the large-extent chain cases).
        let elements = case
            .decoded_shape
            .iter()
            .try_fold(1_u64, |count, extent| count.checked_mul(*extent));
        if elements.is_none_or(|count| count > zarr::MAX_ELEMENTS) {
            continue;
        }
        let opened = ArrayMetadata::from_json(&array_json(&case, data_type))
            .and_then(|metadata| ZarrArray::with_metadata(Path::new("."), metadata));
        let resolved = zarr::resolve_chain(codecs(&case), &case.decoded_shape, data_type);
        // Sharded chains included: the reader resolves sharding_indexed too.
        match (opened, resolved) {
            (Ok(_), Ok(_)) => compared += 1,
            (Err(reader), Err(chain)) => {
                assert_eq!(reader.class, chain.class, "{}: {reader} / {chain}", case.id);
                assert!(!reader.is_unsupported() && !chain.is_unsupported());
                compared += 1;
            }
            (reader, chain) => panic!(
                "{}: the reader {reader:?}, resolve-chain {chain:?}",
                case.id
            ),
        }
    }
    assert!(compared >= 10, "{compared} chains compared");
}

fn answer_of(codecs: Value, decoded_shape: &[u64]) -> Answer {
    let case = json!({
        "id": "x/y", "description": "d", "clauses": ["algorithm.rank"], "level": "must",
        "operation": "resolve-chain", "codecs": codecs, "data_type": "int32",
        "decoded_shape": decoded_shape, "expect": {"encoded_shapes": []}
    });
    reference::run(&vector::parse_case(&case).unwrap())
}

fn class_of(answer: &Answer) -> &str {
    match answer {
        Answer::Error { class, .. } => class.as_deref().unwrap_or("none"),
        other => panic!("not an error: {other:?}"),
    }
}

#[test]
fn hostile_chains_are_refused_with_a_class() {
    let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
    let sharding = |configuration: Value| json!([{"name": "sharding_indexed", "configuration": configuration}]);
    let inner = json!([bytes]);
    let mut nested = json!([bytes]);
    for _ in 0..20 {
        nested = json!([{"name": "sharding_indexed", "configuration": {
            "chunk_shape": [1], "codecs": nested, "index_codecs": [bytes]}}]);
    }
    for (codecs, class) in [
        (json!({"name": "bytes"}), "malformed-configuration"),
        (json!([]), "malformed-configuration"),
        (
            json!([bytes, {"name": "reshape", "configuration": {"shape": [-1]}}]),
            "malformed-configuration",
        ),
        (
            json!([{"name": "gzip", "configuration": {"level": 1}}, bytes]),
            "malformed-configuration",
        ),
        (json!([{"name": "bytes"}]), "malformed-configuration"),
        (
            json!([{"name": "transpose", "configuration": {"order": [0, 0]}}, bytes]),
            "malformed-configuration",
        ),
        (
            sharding(json!({"chunk_shape": [0], "codecs": inner, "index_codecs": inner})),
            "malformed-configuration",
        ),
        (
            sharding(json!({"chunk_shape": [2], "index_codecs": inner})),
            "malformed-configuration",
        ),
        (
            sharding(json!({"chunk_shape": [2], "codecs": inner})),
            "malformed-configuration",
        ),
        (
            sharding(json!({"chunk_shape": [2], "codecs": inner, "index_codecs": inner, "x": 1})),
            "malformed-configuration",
        ),
        (
            sharding(
                json!({"chunk_shape": [2], "codecs": inner, "index_codecs": inner, "index_location": "middle"}),
            ),
            "malformed-configuration",
        ),
        (
            sharding(
                json!({"chunk_shape": [2], "codecs": inner, "index_codecs": [{"name": "gzip", "configuration": {"level": 1}}]}),
            ),
            "malformed-configuration",
        ),
        (
            sharding(
                json!({"chunk_shape": [2], "codecs": [{"name": "reshape", "configuration": {"shape": [-1, -1]}}, bytes], "index_codecs": inner}),
            ),
            "repeated-auto",
        ),
    ] {
        let answer = answer_of(codecs.clone(), &[4]);
        assert_eq!(class_of(&answer), class, "{codecs}: {answer:?}");
    }
    // Shards nested twenty deep resolve, each level for its own chunk shape.
    let Answer::Output(output) = answer_of(nested, &[4]) else {
        panic!("nested shards")
    };
    assert!(output.contains_key("inner"));
    // A huge chunk shape costs nothing: only shapes are computed.
    let huge = json!([{"name": "reshape", "configuration": {"shape": [-1]}}, bytes]);
    let Answer::Output(output) = answer_of(huge, &[1 << 31, 1 << 31]) else {
        panic!("a huge chunk")
    };
    assert_eq!(output["encoded_shapes"], json!([[1u64 << 62]]));
}

#[test]
fn the_vector_reader_refuses_malformed_resolve_chain_cases() {
    let base = json!({
        "id": "x/y", "description": "d", "clauses": ["algorithm.rank"], "level": "must",
        "operation": "resolve-chain", "codecs": [], "data_type": "int32",
        "decoded_shape": [2], "expect": {"encoded_shapes": []}
    });
    let with = |edit: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut case = base.clone();
        edit(case.as_object_mut().unwrap());
        vector::parse_case(&case).map(|_| ()).unwrap_err()
    };
    let faults = [
        with(&|case| {
            case.remove("codecs");
        }),
        with(&|case| {
            case.remove("data_type");
        }),
        with(&|case| {
            case.insert("data_type".into(), json!("int33"));
        }),
        with(&|case| {
            case.insert("configuration".into(), json!({"shape": [-1]}));
        }),
        with(&|case| {
            case.insert("operation".into(), json!("resolve"));
        }),
    ];
    let pointers: Vec<&str> = faults.iter().map(|(pointer, _)| pointer.as_str()).collect();
    assert_eq!(
        pointers,
        ["/codecs", "/data_type", "/data_type", "", "/codecs"]
    );
    assert!(vector::parse_case(&base).is_ok());
}

#[test]
fn adapters_receive_resolve_chain_only_when_they_list_it() {
    assert!(zarr_reshape_conformance::ALL_OPERATIONS.contains(&"resolve-chain"));
    assert!(!zarr_reshape_conformance::OPERATIONS.contains(&"resolve-chain"));
}
