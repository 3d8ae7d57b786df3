//! A codec the reference does not implement (`blosc`, a name it does not know)
//! is no verdict on the chain: `resolve-chain` and `read-array` answer `skipped`
//! with a reason that names the codec, never `malformed-configuration`, and the
//! runner counts that as a skip, never as a pass. What the reference can decide
//! before the walk reaches such a codec (the core spec's codec order, a reshape
//! that does not fit) keeps its class.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::path::Path;

use common::Scratch;
use serde_json::{Value, json};
use zarr_reshape_conformance::run::Reference;
use zarr_reshape_conformance::vector::{self, Case};
use zarr_reshape_conformance::{Answer, ClassCheck, Outcome, judge, reference};

fn bytes() -> Value {
    json!({"name": "bytes", "configuration": {"endian": "little"}})
}

fn blosc() -> Value {
    json!({"name": "blosc", "configuration": {"cname": "zstd", "clevel": 5, "shuffle": "shuffle", "typesize": 4, "blocksize": 0}})
}

fn reshape(shape: Value) -> Value {
    json!({"name": "reshape", "configuration": {"shape": shape}})
}

/// A resolve-chain case of `codecs` on chunks of 2x3x4, expecting what a valid
/// chain of one reshape [[0, 1], [2]] gives.
fn chain_case(codecs: Value) -> Case {
    vector::parse_case(&json!({
        "id": "x/y", "description": "d", "clauses": ["algorithm.rank"], "level": "must",
        "operation": "resolve-chain", "codecs": codecs, "data_type": "int32",
        "decoded_shape": [2, 3, 4], "expect": {"encoded_shapes": [[6, 4]]}
    }))
    .unwrap()
}

fn sharded(index_codecs: Value) -> Value {
    json!([reshape(json!([[0, 1], [2]])), {"name": "sharding_indexed", "configuration": {
        "chunk_shape": [3, 2], "codecs": [bytes()], "index_codecs": index_codecs}}])
}

#[test]
fn a_codec_the_reference_does_not_implement_is_skipped_naming_it() {
    let unknown = json!({"name": "x-unknown-codec"});
    for (codecs, name) in [
        (
            json!([reshape(json!([[0, 1], [2]])), bytes(), blosc()]),
            "blosc",
        ),
        (
            json!([reshape(json!([[0, 1], [2]])), unknown, bytes()]),
            "x-unknown-codec",
        ),
        (
            json!([reshape(json!([[0, 1], [2]])), bytes(), unknown]),
            "x-unknown-codec",
        ),
        (sharded(json!([bytes(), blosc()])), "blosc"),
        // An unknown codec's kind is unknown: nothing after it can be checked.
        (
            json!([unknown, reshape(json!([5])), bytes()]),
            "x-unknown-codec",
        ),
    ] {
        let case = chain_case(codecs.clone());
        let answer = reference::run(&case);
        let Answer::Skipped { reason } = &answer else {
            panic!("{codecs}: {answer:?}")
        };
        assert!(reason.contains(&format!("{name:?}")), "{codecs}: {reason}");
        assert_eq!(
            judge(&case, &answer, ClassCheck::Strict),
            Outcome::Skip(reason.clone())
        );
    }
}

#[test]
fn what_comes_before_a_codec_not_implemented_keeps_its_verdict() {
    let unknown = json!({"name": "x-unknown-codec"});
    for (codecs, expected) in [
        // blosc is a bytes -> bytes codec (core spec): before bytes it breaks the order.
        (
            json!([reshape(json!([[0, 1], [2]])), blosc(), bytes()]),
            "malformed-configuration",
        ),
        // After blosc, an array -> array codec is out of order whatever blosc does.
        (
            json!([bytes(), blosc(), reshape(json!([[0, 1], [2]]))]),
            "malformed-configuration",
        ),
        // The reshape is resolved before the walk reaches the unknown codec.
        (
            json!([reshape(json!([5])), unknown, bytes()]),
            "element-count-mismatch",
        ),
        // A configuration the JSON alone refuses is refused wherever it stands.
        (
            json!([unknown, reshape(json!([-1, -1])), bytes()]),
            "repeated-auto",
        ),
    ] {
        let answer = reference::run(&chain_case(codecs.clone()));
        let Answer::Error { class, .. } = &answer else {
            panic!("{codecs}: {answer:?}")
        };
        assert_eq!(class.as_deref(), Some(expected), "{codecs}");
    }
    // An unknown codec marked optional is dropped, as the core spec allows.
    let optional = json!({"name": "x-unknown-codec", "must_understand": false});
    let case = chain_case(json!([reshape(json!([[0, 1], [2]])), bytes(), optional]));
    assert_eq!(
        judge(&case, &reference::run(&case), ClassCheck::Strict),
        Outcome::Pass
    );
}

/// A suite root whose one vector file reads `arrays/a`, an array of 4x6 int32 in
/// one chunk through `codecs`; the case expects the fill value.
fn array_suite(scratch: &Scratch, codecs: &Value) -> Vec<Case> {
    let root = &scratch.0;
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases/clauses.json"),
        root.join("clauses.json"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("arrays/a")).unwrap();
    std::fs::create_dir_all(root.join("cases")).unwrap();
    let metadata = json!({
        "zarr_format": 3, "node_type": "array", "shape": [4, 6], "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 6]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0, "codecs": codecs
    });
    std::fs::write(root.join("arrays/a/zarr.json"), metadata.to_string()).unwrap();
    let case = json!({
        "id": "unsupported/read", "description": "d", "clauses": ["algorithm.ravel"],
        "level": "must", "operation": "read-array", "configuration": {"shape": [-1]},
        "decoded_shape": [4, 6], "array": {"path": "arrays/a", "data_type": "int32"},
        "expect": {"shape": [4, 6], "data": vec![vec![0; 6]; 4]}
    });
    let file = root.join("cases/case.json");
    std::fs::write(&file, json!({"format": 1, "cases": [case]}).to_string()).unwrap();
    vector::load_file(&file).unwrap()
}

#[test]
fn read_array_skips_what_the_reader_does_not_implement_and_the_run_counts_no_pass() {
    let chains = [
        (json!([reshape(json!([-1])), bytes(), blosc()]), "blosc"),
        (
            json!([{"name": "x-unknown-codec"}, bytes()]),
            "x-unknown-codec",
        ),
        // Inside a shard too (the reader reads sharding_indexed itself).
        (
            json!([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 3],
                "codecs": [reshape(json!([-1])), {"name": "x-inner-codec"}],
                "index_codecs": [bytes(), {"name": "crc32c"}]}}]),
            "x-inner-codec",
        ),
    ];
    for (codecs, name) in chains {
        let scratch = Scratch::new(&format!("unsupported-{name}"));
        let cases = array_suite(&scratch, &codecs);
        let report = common::run_in_order(&mut Reference::default(), &cases);
        let [record] = report.records.as_slice() else {
            panic!("one record")
        };
        let Outcome::Skip(reason) = &record.outcome else {
            panic!("{name}: {:?}", record.answer)
        };
        assert!(reason.contains(name), "{reason}");
        // A skip never fails the run, and is no pass.
        assert!(report.succeeded());
        assert!(!matches!(record.outcome, Outcome::Pass));
    }
}
