//! Hostile input (issue 8, `conformance/BAD-INPUTS.md`): resource limits, JSON
//! nesting, oversized files and lines, and properties that feed arbitrary JSON
//! (deep, wide, huge numbers, unicode) to the protocol readers with a fixed case
//! budget. Whatever comes in, the answer is an error or an `errored` result, never
//! a panic, a hang or an allocation in proportion to what the input claims.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::{Value, json};
use zarr_reshape::limits::{MAX_INPUT_DIMS, MAX_JSON_DEPTH, MAX_RANK, MAX_SHAPE_LEN};
use zarr_reshape::{ErrorClass, ReshapeCodec, ReshapeConfiguration};
use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::{check_spec, serve, vector};

/// The fixed case budget of every property here.
const CASES: u32 = 256;

/// JSON text nested `depth` arrays deep around `inner`.
fn nested(depth: usize, inner: &str) -> String {
    format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth))
}

/// Serves `input` and returns the answer lines, parsed.
fn served(input: &[u8]) -> Vec<Value> {
    let mut output = Vec::new();
    serve::serve(input, &mut output).unwrap();
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn json_nested_beyond_the_depth_limit_is_a_parse_error() {
    let deep = format!(r#"{{"shape": {}}}"#, nested(MAX_JSON_DEPTH + 10, "1"));
    let error = serde_json::from_str::<Value>(&deep).unwrap_err();
    assert!(error.to_string().contains("recursion limit"), "{error}");
    // Just inside the limit it parses, and the configuration is malformed.
    let inside = format!(r#"{{"shape": {}}}"#, nested(MAX_JSON_DEPTH - 2, "1"));
    let value: Value = serde_json::from_str(&inside).unwrap();
    let error = ReshapeConfiguration::from_json_value(&value).unwrap_err();
    assert_eq!(error.class(), ErrorClass::MalformedConfiguration);
}

#[test]
fn a_deeply_nested_request_line_is_errored_and_serving_goes_on() {
    let mut input = nested(100_000, "").into_bytes();
    input.extend_from_slice(b"\n{\"cmd\": \"start\", \"protocol\": 1}\n");
    let answers = served(&input);
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(
        answers[0]["result"]["errored"].is_object(),
        "{}",
        answers[0]
    );
    assert_eq!(answers[1]["ok"], true);
}

#[test]
fn a_deeply_nested_vector_file_is_an_error() {
    let dir = std::env::temp_dir().join(format!("zarr-reshape-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("deep.json");
    std::fs::write(&path, nested(100_000, "")).unwrap();
    let error = vector::load_file(&path).unwrap_err();
    assert!(error.to_string().contains("not JSON"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_vector_file_beyond_the_size_limit_is_refused_unread() {
    let dir = std::env::temp_dir().join(format!("zarr-reshape-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.json");
    let file = std::fs::File::create(&path).unwrap();
    // A sparse file: its length is beyond the limit, its content never read.
    file.set_len(vector::MAX_FILE_BYTES + 1).unwrap();
    let error = vector::load_file(&path).unwrap_err();
    assert!(error.to_string().contains("larger than"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_request_line_beyond_the_line_limit_is_errored_unbuffered() {
    let mut input = vec![b' '; zarr_reshape_conformance::MAX_LINE_BYTES + 1];
    input[0] = b'{';
    input.extend_from_slice(b"\n{\"cmd\": \"stop\"}\n");
    let answers = served(&input);
    assert_eq!(answers.len(), 1, "{answers:?}");
    let message = answers[0]["result"]["errored"]["message"].as_str().unwrap();
    assert!(message.contains("longer than"), "{message}");
}

#[test]
fn the_limits_are_the_documented_ones() {
    assert_eq!((MAX_RANK, MAX_SHAPE_LEN, MAX_INPUT_DIMS), (256, 256, 256));
    assert_eq!(MAX_JSON_DEPTH, 128);
    // At the limits: accepted.
    let ones = vec![1u64; MAX_RANK];
    let at = ReshapeConfiguration::from_json_value(&json!({"shape": ones})).unwrap();
    assert_eq!(at.resolve(&[1]).unwrap().len(), MAX_SHAPE_LEN);
    let dims: Vec<u64> = (0..256).collect();
    let group = ReshapeConfiguration::from_json_value(&json!({"shape": [dims]})).unwrap();
    assert_eq!(group.resolve(&ones).unwrap(), [1]);
    // One beyond: an error of the documented class, through parse and `new` alike.
    let error = ReshapeConfiguration::new(vec![zarr_reshape::ShapeElement::Auto; 0])
        .and_then(|c| c.resolve(&vec![1; MAX_RANK + 1]))
        .unwrap_err();
    assert_eq!(error.class(), ErrorClass::ShapeMismatch);
    let long = vec![zarr_reshape::ShapeElement::Size(1); MAX_SHAPE_LEN + 1];
    let error = ReshapeConfiguration::new(long).unwrap_err();
    assert_eq!(error.class(), ErrorClass::MalformedConfiguration);
    let wide = zarr_reshape::ShapeElement::InputDims((0..257).collect());
    let error = ReshapeConfiguration::new(vec![wide]).unwrap_err();
    assert_eq!(error.class(), ErrorClass::MalformedConfiguration);
}

#[test]
fn a_wide_input_dims_element_is_refused_before_its_items_are_read() {
    // A million input dims, the last one not even an integer: the count is checked first.
    let mut items = vec![json!(0); 1_000_000];
    items.push(json!("x"));
    let error = ReshapeConfiguration::from_json_value(&json!({"shape": [items]})).unwrap_err();
    assert_eq!(error.class(), ErrorClass::MalformedConfiguration);
    assert!(error.to_string().contains("limits.rank"), "{error}");
}

#[test]
fn resolution_and_mapping_do_not_allocate_per_element() {
    // 2^62 elements: anything proportional to the element count would never finish.
    let begun = Instant::now();
    let configuration =
        ReshapeConfiguration::from_json_value(&json!({"shape": [[0, 1], -1]})).unwrap();
    let a_shape = [1 << 20, 1 << 21, 1 << 21];
    let codec = ReshapeCodec::new(configuration, &a_shape).unwrap();
    assert_eq!(codec.encoded_shape(), [1 << 41, 1 << 21]);
    let mut runs = codec.region_runs(&[0, 0, 1], &a_shape).unwrap();
    let first = runs.next().unwrap();
    assert_eq!((first.offset, first.len), (1, (1 << 21) - 1));
    let last = codec
        .decoded_index(&[(1 << 41) - 1, (1 << 21) - 1])
        .unwrap();
    assert_eq!(last, [(1 << 20) - 1, (1 << 21) - 1, (1 << 21) - 1]);
    assert!(begun.elapsed() < Duration::from_secs(1));
}

#[test]
fn check_spec_survives_hostile_markdown() {
    let deep_json = format!("```json\n{}\n```\n", nested(100_000, ""));
    let unterminated = "# Title\n```json\n{\"name\": \"reshape\", \"configuration\": {\"shape\": [";
    let huge = format!(
        "```json\n{{\"name\": \"reshape\", \"configuration\": {{\"shape\": [{}]}}}}\n```\n",
        "9".repeat(10_000)
    );
    let nul = "\u{0}\u{feff}```json\n\u{202e}{\"shape\": [-1]}\n```";
    for text in [
        deep_json.as_str(),
        unterminated,
        huge.as_str(),
        nul,
        "",
        "```",
    ] {
        let report = check_spec::check(text);
        let _ = report.is_ok();
    }
}

/// Any JSON: deep, wide, huge numbers, unicode strings and keys.
fn hostile_json() -> impl Strategy<Value = Value> {
    let number = prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "-?[0-9]{1,60}(\\.[0-9]{1,20})?([eE][+-]?[0-9]{1,5})?"
            .prop_filter_map("a JSON number", |text| serde_json::from_str(&text).ok()),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number,
        any::<String>().prop_map(Value::String),
        prop::sample::select(vec![
            "start", "run", "stop", "resolve", "encode", "error", "skipped", "errored", "seq",
        ])
        .prop_map(Value::from),
    ];
    let key = prop_oneof![
        prop::sample::select(vec![
            "cmd",
            "seq",
            "case",
            "protocol",
            "result",
            "error",
            "class",
            "message",
            "skipped",
            "errored",
            "reason",
            "id",
            "operation",
            "configuration",
            "decoded_shape",
            "expect",
            "input",
            "encoded_shape",
        ])
        .prop_map(String::from),
        any::<String>(),
    ];
    leaf.prop_recursive(8, 256, 32, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..32).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..8)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// A request line: a hostile value, sometimes wrapped as a run request.
fn request_line() -> impl Strategy<Value = String> {
    prop_oneof![
        hostile_json().prop_map(|value| value.to_string()),
        (any::<u64>(), hostile_json())
            .prop_map(|(seq, case)| json!({"cmd": "run", "seq": seq, "case": case}).to_string()),
        (hostile_json(), hostile_json()).prop_map(|(configuration, shape)| {
            json!({"cmd": "run", "seq": 1, "case": {
                "id": "x/y", "operation": "resolve", "configuration": configuration,
                "decoded_shape": shape, "expect": {"error": "overflow"}
            }})
            .to_string()
        }),
        "[^\n]{0,64}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// serve answers every non-blank request line exactly once, with one JSON
    /// object, whatever the lines are (until a `stop`).
    #[test]
    fn serve_answers_each_line_once(lines in prop::collection::vec(request_line(), 1..6)) {
        let lines: Vec<String> = lines
            .into_iter()
            .filter(|line| !line.trim().is_empty())
            .filter(|line| {
                serde_json::from_str::<Value>(line)
                    .map_or(true, |value| value.get("cmd") != Some(&json!("stop")))
            })
            .collect();
        let input = lines.iter().map(|line| format!("{line}\n")).collect::<String>();
        let answers = served(input.as_bytes());
        prop_assert_eq!(answers.len(), lines.len());
        prop_assert!(answers.iter().all(Value::is_object));
    }

    /// Any result JSON reads as exactly one answer, and the answer's JSON form
    /// reads back as itself.
    #[test]
    fn answer_from_json_reads_any_result(value in hostile_json()) {
        let answer = Answer::from_json(&value);
        let again = Answer::from_json(&answer.to_json());
        prop_assert_eq!(again, answer);
        let line = json!({"seq": 1, "result": value}).to_string();
        let parsed: Value = serde_json::from_str(&line).unwrap();
        let _ = Answer::from_json(&parsed["result"]);
    }

    /// Any JSON as a vector file: cases or a fault with a pointer, never a panic;
    /// the cases run through the reference.
    #[test]
    fn vector_parse_file_reads_any_json(value in hostile_json()) {
        let file = json!({"format": 1, "cases": [value.clone()]});
        for candidate in [value, file] {
            if let Ok(cases) = vector::parse_file(&candidate) {
                for case in &cases {
                    let _ = zarr_reshape_conformance::reference::run(case);
                }
            }
        }
    }
}

/// Each malformed vector file is a fault naming the JSON pointer of what is wrong.
#[test]
fn vector_file_faults_name_their_pointer() {
    let case = |extra: Value| {
        let mut case = json!({
            "id": "x/y", "description": "d", "clauses": ["x"], "level": "must",
            "operation": "resolve", "configuration": {"shape": [-1]},
            "decoded_shape": [2], "expect": {"encoded_shape": [2]}
        });
        for (key, value) in extra.as_object().unwrap() {
            if value.is_null() {
                case.as_object_mut().unwrap().remove(key);
            } else {
                case[key] = value.clone();
            }
        }
        json!({"format": 1, "cases": [case]})
    };
    assert!(vector::parse_file(&case(json!({}))).is_ok());
    let faults = [
        (json!([1, 2]), ""),
        (json!({"format": 2, "cases": []}), "/format"),
        (json!({"format": "1", "cases": []}), "/format"),
        (json!({"format": 1, "cases": {}}), "/cases"),
        (json!({"format": 1, "cases": [7]}), "/cases/0"),
        (case(json!({"id": 7})), "/cases/0/id"),
        (case(json!({"operation": "explode"})), "/cases/0/operation"),
        (case(json!({"codec": {"name": "reshape"}})), "/cases/0"),
        (
            case(json!({"decoded_shape": [-2]})),
            "/cases/0/decoded_shape",
        ),
        (
            case(json!({"decoded_shape": ["18446744073709551616"]})),
            "/cases/0/decoded_shape",
        ),
    ];
    for (file, pointer) in faults {
        let (found, message) = vector::parse_file(&file).unwrap_err();
        assert!(found.starts_with(pointer), "{file}: {found} {message}");
        assert!(!message.is_empty());
    }
}

/// A malformed member is named down to its element, with what was expected there
/// (serde_path_to_error, not a hand-built path).
#[test]
fn a_malformed_member_is_named_down_to_its_element() {
    let file = |case: Value| json!({"format": 1, "cases": [{}, case]});
    let case = |extra: Value| {
        let mut case = json!({
            "id": "x/y", "description": "d", "clauses": ["x"], "level": "must",
            "operation": "map-region", "configuration": {"shape": [-1]},
            "decoded_shape": [2, 3], "decoded_region": {"start": [0, 0], "stop": [1, 1]},
            "expect": {"encoded_coordinates": []}
        });
        for (key, value) in extra.as_object().unwrap() {
            case[key] = value.clone();
        }
        case
    };
    let faults = [
        (
            json!({"decoded_shape": [2, -3]}),
            "/decoded_shape/1",
            "an integer from 0 to 2^64-1",
        ),
        (
            json!({"decoded_shape": [2, "3"]}),
            "/decoded_shape/1",
            "an integer from 0 to 2^64-1",
        ),
        (
            json!({"decoded_region": {"start": [0, 0], "stop": [1, 18446744073709551616_u128]}}),
            "/decoded_region/stop/1",
            "a 64-bit integer",
        ),
        (json!({"clauses": ["x", 7]}), "/clauses/1", "a string"),
        (
            json!({"operation": "encode", "input": {"data_type": "int9", "shape": [1], "data": [1]}}),
            "/input/data_type",
            "unknown data type \"int9\"",
        ),
        (json!({"operation": "encode"}), "/input", "is missing"),
        (
            json!({"operation": "encode", "input": ["int8", [1], [1]]}),
            "/input",
            "must be an object",
        ),
    ];
    // The first case is fine but for its members; the second holds the fault.
    for (extra, pointer, expected) in faults {
        let mut file = file(case(extra.clone()));
        file["cases"][0] = case(json!({}));
        let (found, message) = vector::parse_file(&file).unwrap_err();
        assert_eq!(found, format!("/cases/1{pointer}"), "{extra}: {message}");
        assert!(message.contains(expected), "{extra}: {message}");
    }
    assert!(vector::parse_file(&file(case(json!({})))).is_err_and(|(at, _)| at == "/cases/0"));
}
