//! The ceiling on every input file path (issue 30): the one opener refuses what
//! could block or never end, the schema's cost is bounded, and the map-region,
//! rank, codec-chain and `--jobs` inputs stay under 1 GiB and 10 s.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use serde_json::json;

use super::{array_metadata, array_suite, capped, write_json};
use crate::common::{Scratch, mkfifo};

/// A suite root with the real clauses.json and one vector file.
fn small_suite(name: &str) -> Scratch {
    let scratch = Scratch::new(name);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    fs::copy(
        manifest.join("../spec-cases/clauses.json"),
        scratch.0.join("clauses.json"),
    )
    .unwrap();
    fs::create_dir_all(scratch.0.join("shape.size")).unwrap();
    fs::copy(
        manifest.join("../spec-cases/shape.size/size-is-total.json"),
        scratch.0.join("shape.size/size-is-total.json"),
    )
    .unwrap();
    scratch
}

#[test]
fn input_files_that_could_block_are_refused_unread() {
    let scratch = small_suite("blocking-inputs");
    let root = &scratch.0;
    let suite = root.to_str().unwrap();
    let fifo = root.join("fifo");
    mkfifo(&fifo);
    let kmsg = root.join("kmsg");
    symlink("/proc/kmsg", &kmsg).unwrap();
    // Expectations and a JSON-lines run: /dev/zero, a FIFO, a link into /proc.
    for input in ["/dev/zero", fifo.to_str().unwrap(), kmsg.to_str().unwrap()] {
        let (code, stderr) = capped(
            root,
            &["run", "--cases", suite, "--expectations", input],
            None,
        );
        assert_eq!(code, 2, "--expectations {input}: refused: {stderr}");
        let (code, stderr) = capped(root, &["report", "--format", "text", input], None);
        assert_eq!(code, 2, "report {input}: refused: {stderr}");
    }
    // A vector file that is a link to /proc/kmsg.
    symlink("/proc/kmsg", root.join("shape.size/kmsg.json")).unwrap();
    let (code, stderr) = capped(root, &["run", "--cases", suite], None);
    assert_eq!(code, 2, "a vector file in /proc is refused: {stderr}");
    assert!(stderr.contains("/proc or /sys"), "{stderr}");
    fs::remove_file(root.join("shape.size/kmsg.json")).unwrap();
    // A FIFO schema: `vectors --validate` reports it and ends.
    mkfifo(&root.join("vector.schema.json"));
    let (code, stderr) = capped(root, &["vectors", "--validate", suite], None);
    assert_eq!(code, 1, "a FIFO schema is a problem: {stderr}");
    // A FIFO clauses.json: `run` does not take it for a suite root; `vectors
    // --validate` reads it (and hung on it) and reports it.
    fs::remove_file(root.join("vector.schema.json")).unwrap();
    fs::remove_file(root.join("clauses.json")).unwrap();
    mkfifo(&root.join("clauses.json"));
    capped(root, &["run", "--cases", suite], None);
    let (code, stderr) = capped(root, &["vectors", "--validate", suite], None);
    assert_eq!(code, 1, "a FIFO clauses.json is a problem: {stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
}

#[test]
fn a_costly_schema_stays_under_the_ceiling() {
    let scratch = small_suite("costly-schema");
    let root = &scratch.0;
    // A backtracking pattern (fancy-regex's lookaround) and nested repetition.
    let schema = json!({"properties": {"cases": {"items": {"properties": {
        "id": {"pattern": "^((.*)*(?=.)(.*)*)*x$"},
        "description": {"pattern": "((((a{100}){100}){100}){100})"}
    }}}}});
    write_json(&root.join("vector.schema.json"), &schema);
    let (code, stderr) = capped(
        root,
        &["vectors", "--validate", root.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 1, "the schema is refused: {stderr}");
    assert!(stderr.contains("vector.schema.json"), "{stderr}");
}

#[test]
fn map_region_cases_at_the_budget_stay_under_the_ceiling() {
    let scratch = Scratch::new("map-region-budget");
    let root = &scratch.0;
    // Twenty boxes of 2^20 elements (beyond the budget) and twenty at it, 2^16.
    let cases: Vec<_> = (0..40_u64)
        .map(|i| {
            let stop = if i < 20 { 1_u64 << 20 } else { 1 << 16 };
            json!({
                "id": format!("algorithm.ravel/box-{i}"), "description": "d",
                "clauses": ["algorithm.ravel"], "level": "must", "operation": "map-region",
                "configuration": {"shape": [-1]}, "decoded_shape": [1_u64 << 20],
                "decoded_region": {"start": [0], "stop": [stop]},
                "expect": {"error": "overflow"}
            })
        })
        .collect();
    write_json(
        &root.join("algorithm.ravel/boxes.json"),
        &json!({"format": 1, "cases": cases}),
    );
    let suite = root.to_str().unwrap();
    let (code, stderr) = capped(root, &["run", "--cases", suite, "--jobs", "2"], None);
    assert_eq!(code, 1, "every case fails: {stderr}");
}

#[test]
fn a_rank_200_case_runs_and_its_records_read_back() {
    let scratch = Scratch::new("rank-200");
    let root = &scratch.0;
    let mut data = json!([1]);
    for _ in 1..200 {
        data = json!([data]);
    }
    let case = json!({"format": 1, "cases": [{
        "id": "algorithm.ravel/rank-200", "description": "d", "clauses": ["algorithm.ravel"],
        "level": "must", "operation": "decode", "configuration": {"shape": [-1]},
        "decoded_shape": vec![1; 200],
        "input": {"data_type": "int8", "shape": [1], "data": [1]},
        "expect": {"shape": vec![1; 200], "data": data}
    }]});
    write_json(&root.join("cases/algorithm.ravel/rank-200.json"), &case);
    let cases = root.join("cases");
    let records = root.join("run.jsonl");
    let report = format!("jsonl={}", records.display());
    let arguments = [
        "run",
        "--cases",
        cases.to_str().unwrap(),
        "--report",
        &report,
    ];
    let (code, stderr) = capped(&cases, &arguments, None);
    assert_eq!(code, 0, "the case passes: {stderr}");
    let (code, stderr) = capped(
        &cases,
        &["report", "--format", "text", records.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 0, "report reads what run wrote: {stderr}");
    // Through the reference's adapter process too: the request it reads and the
    // answer the runner reads nest as deep as the vector file.
    let adapter = format!("{} adapter", env!("CARGO_BIN_EXE_zarr-reshape"));
    let (code, stderr) = capped(
        &cases,
        &[
            "run",
            "--cases",
            cases.to_str().unwrap(),
            "--adapter",
            &adapter,
        ],
        None,
    );
    assert_eq!(code, 0, "the case passes through the adapter: {stderr}");
}

#[test]
fn a_long_codec_chain_is_refused_before_any_chunk_is_read() {
    let mut metadata = array_metadata(&[64, 64], &[64, 64]);
    let mut codecs = Vec::new();
    for _ in 0..5000 {
        codecs.push(json!({"name": "transpose", "configuration": {"order": [1, 0]}}));
        codecs.push(json!({"name": "reshape", "configuration": {"shape": [[0], [1]]}}));
    }
    codecs.push(json!({"name": "bytes"}));
    metadata["codecs"] = json!(codecs);
    let scratch = array_suite("long-codec-chain", Some(metadata));
    let root = &scratch.0;
    fs::create_dir_all(root.join("arrays/a/c/0")).unwrap();
    fs::write(root.join("arrays/a/c/0/0"), vec![7_u8; 64 * 64]).unwrap();
    let suite = root.to_str().unwrap();
    let (code, stderr) = capped(root, &["run", "--cases", suite], None);
    assert_eq!(code, 0, "the reference refuses the chain: {stderr}");
}

#[test]
fn jobs_beyond_the_cap_are_refused_with_a_message() {
    let scratch = small_suite("many-jobs");
    let root = &scratch.0;
    let suite = root.to_str().unwrap();
    let (code, stderr) = capped(root, &["run", "--cases", suite, "--jobs", "1000"], None);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("at most 64"), "{stderr}");
    let (code, stderr) = capped(root, &["run", "--cases", suite, "--jobs", "64"], None);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_schema_of_exponential_cost_is_stopped_in_time() {
    let scratch = small_suite("exponential-schema");
    let root = &scratch.0;
    // Each level's anyOf tries both branches: 2^40 paths to a type that fails.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = json!({"$ref": format!("#/$defs/a{}", i + 1)});
        defs.insert(format!("a{i}"), json!({"anyOf": [next.clone(), next]}));
    }
    defs.insert("a40".into(), json!({"type": "string"}));
    let schema = json!({"$defs": defs, "$ref": "#/$defs/a0"});
    write_json(&root.join("vector.schema.json"), &schema);
    let (code, stderr) = capped(
        root,
        &["vectors", "--validate", root.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 1, "the validation is stopped: {stderr}");
    assert!(stderr.contains("took longer than"), "{stderr}");
}
