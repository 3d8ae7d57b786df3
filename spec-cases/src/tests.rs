//! The crate's typed access against the files it embeds, read a second way
//! (serde_json's `Value`) so that a loader fault shows.

use std::collections::BTreeMap;

use serde_json::Value;
use serde_json::value::RawValue;

use crate::{
    Case, FORMAT, File, Level, Operation, README, SPEC_COMMIT, cases, cases_of, clauses_json, file,
    schema, vector_files,
};

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_spec_commit_is_the_registrys() {
    let registry = json(clauses_json());
    assert_eq!(registry["spec"]["commit"].as_str(), Some(SPEC_COMMIT));
}

#[test]
fn readme_schema_and_registry_are_the_suites_files() {
    assert_eq!(Some(README.as_bytes()), file("README.md"));
    assert_eq!(Some(schema().as_bytes()), file("vector.schema.json"));
    assert_eq!(Some(clauses_json().as_bytes()), file("clauses.json"));
}

#[test]
fn levels_and_operations_are_the_schemas() {
    let schema = json(schema());
    let names = |member: &str| -> Vec<String> {
        schema["$defs"]["case"]["properties"][member]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|name| name.as_str().unwrap().to_string())
            .collect()
    };
    let levels: Vec<String> = Level::ALL.iter().map(|l| l.name().to_string()).collect();
    let operations: Vec<String> = Operation::ALL
        .iter()
        .map(|o| o.name().to_string())
        .collect();
    assert_eq!(names("level"), levels);
    assert_eq!(names("operation"), operations);
}

/// A case object read the generic way: each member's text.
type Members<'a> = BTreeMap<String, &'a RawValue>;

#[test]
fn every_case_of_every_file_is_read_as_written() {
    let cases = cases().unwrap();
    let mut expected = 0;
    for file in vector_files() {
        // Not `Value`: it cannot hold every number of the suite (1e400).
        let text = std::str::from_utf8(file.bytes).unwrap();
        let value: BTreeMap<String, &RawValue> = serde_json::from_str(text).unwrap();
        assert_eq!(value["format"].get(), FORMAT.to_string(), "{}", file.path);
        let written: Vec<&RawValue> = serde_json::from_str(value["cases"].get()).unwrap();
        let read: Vec<&Case> = cases.iter().filter(|c| c.file == file.path).collect();
        assert_eq!(read.len(), written.len(), "{}", file.path);
        for (case, raw) in read.iter().zip(&written) {
            assert_eq!(case.json.get(), raw.get());
            let members: Members = serde_json::from_str(raw.get()).unwrap();
            let string = |name: &str| serde_json::from_str::<String>(members[name].get()).unwrap();
            assert_eq!(case.id, string("id"));
            assert_eq!(case.description, string("description"));
            assert_eq!(case.level.name(), string("level"));
            assert_eq!(case.operation.name(), string("operation"));
            let clauses: Vec<String> = serde_json::from_str(members["clauses"].get()).unwrap();
            assert_eq!(case.clauses, clauses);
            assert_eq!(case.clause(), clauses[0]);
            let interpretations: Vec<String> = members
                .get("interpretations")
                .map(|raw| serde_json::from_str(raw.get()).unwrap())
                .unwrap_or_default();
            assert_eq!(case.interpretations, interpretations);
            for (name, raw) in [
                ("configuration", case.configuration),
                ("codec", case.codec),
                ("decoded_shape", Some(case.decoded_shape)),
                ("input", case.input),
                ("decoded_index", case.decoded_index),
                ("decoded_region", case.decoded_region),
                ("array", case.array),
                ("codecs", case.codecs),
                ("data_type", case.data_type),
                ("array_shape", case.array_shape),
                ("chunk_grid", case.chunk_grid),
                ("expect", Some(case.expect)),
            ] {
                let read = raw.map(RawValue::get);
                assert_eq!(
                    read,
                    members.get(name).map(|raw| raw.get()),
                    "{} {name}",
                    case.id
                );
            }
        }
        expected += written.len();
    }
    assert_eq!(cases.len(), expected);
}

#[test]
fn integers_beyond_64_bits_keep_their_digits() {
    let cases = cases().unwrap();
    let beyond = |text: &str| {
        text.split(|c: char| !c.is_ascii_digit())
            .any(|digits| !digits.is_empty() && digits.parse::<u64>().is_err())
    };
    let holding: Vec<&Case> = cases
        .iter()
        .filter(|case| case.configuration.is_some_and(|raw| beyond(raw.get())))
        .collect();
    assert!(
        !holding.is_empty(),
        "the suite has configurations beyond 2^64"
    );
    for case in holding {
        let configuration = case.configuration.unwrap().get();
        assert!(case.json.get().contains(configuration), "{}", case.id);
    }
}

#[test]
fn a_null_configuration_is_present() {
    let cases = cases().unwrap();
    let nulls: Vec<&Case> = cases
        .iter()
        .filter(|case| case.configuration.is_some_and(|raw| raw.get() == "null"))
        .collect();
    let written = cases
        .iter()
        .filter(|case| {
            let members: Members = serde_json::from_str(case.json.get()).unwrap();
            members.get("configuration").map(|raw| raw.get()) == Some("null")
        })
        .count();
    assert!(written > 0);
    assert_eq!(nulls.len(), written);
}

fn load(text: &'static str) -> String {
    let file: &'static File = Box::leak(Box::new(File {
        path: "bad/file.json",
        bytes: text.as_bytes(),
    }));
    cases_of(file).unwrap_err().to_string()
}

const CASE: &str = r#""id": "a/b", "description": "d", "clauses": ["codec.name"], "level": "must", "decoded_shape": [1], "expect": {"error": "overflow"}"#;

#[test]
fn faults_name_the_file_the_case_and_what() {
    let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
    let with = |members: &str| {
        leak(format!(
            r#"{{"format": 1, "cases": [{{{CASE}, {members}}}]}}"#
        ))
    };
    for (text, says) in [
        ("[", "bad/file.json: not a vector file"),
        (r#"{"format": 2, "cases": []}"#, "bad/file.json: format 2"),
        (
            r#"{"format": 1, "cases": []}"#,
            "bad/file.json: holds no case",
        ),
        (r#"{"format": 1, "cases": [], "x": 1}"#, "unknown field `x`"),
        (
            with(r#""operation": "resolve""#),
            "cases[0]: a/b: needs exactly one of configuration and codec",
        ),
        (
            with(r#""operation": "resolve", "codec": 1, "configuration": null"#),
            "needs exactly one",
        ),
        (
            with(r#""operation": "encode", "configuration": null"#),
            "cases[0]: a/b: the operation encode needs the member input",
        ),
        (
            with(r#""operation": "resolve", "configuration": null, "extra": 1"#),
            "cases[0]: unknown field `extra`",
        ),
        (
            with(r#""operation": "reshape", "configuration": null"#),
            "cases[0]: unknown variant `reshape`",
        ),
        (
            with(r#""operation": "resolve-chain", "data_type": "int8""#),
            "cases[0]: a/b: the operation resolve-chain needs the member codecs",
        ),
        (
            with(r#""operation": "resolve-chain", "codecs": []"#),
            "cases[0]: a/b: the operation resolve-chain needs the member data_type",
        ),
        (
            with(
                r#""operation": "resolve-chain", "codecs": [], "data_type": "int8", "configuration": {}"#,
            ),
            "cases[0]: a/b: resolve-chain takes codecs, not configuration or codec",
        ),
    ] {
        let message = load(text);
        assert!(message.contains(says), "{says:?} is not in {message:?}");
    }
    let good = with(r#""operation": "resolve", "configuration": null"#);
    let file: &'static File = Box::leak(Box::new(File {
        path: "good.json",
        bytes: good.as_bytes(),
    }));
    assert_eq!(cases_of(file).unwrap().len(), 1);
    let chain = with(r#""operation": "resolve-chain", "codecs": [], "data_type": "int8""#);
    let file: &'static File = Box::leak(Box::new(File {
        path: "chain.json",
        bytes: chain.as_bytes(),
    }));
    let read = cases_of(file).unwrap();
    assert_eq!(read[0].codecs.map(RawValue::get), Some("[]"));
    assert_eq!(read[0].data_type.map(RawValue::get), Some(r#""int8""#));
}

#[test]
fn an_id_in_two_files_is_refused() {
    let text: &'static str = Box::leak(
        format!(
            r#"{{"format": 1, "cases": [{{{CASE}, "operation": "resolve", "configuration": 1}}]}}"#
        )
        .into_boxed_str(),
    );
    let files: &'static [File] = Box::leak(Box::new([
        File {
            path: "one.json",
            bytes: text.as_bytes(),
        },
        File {
            path: "two.json",
            bytes: text.as_bytes(),
        },
    ]));
    let error = super::load::cases_of_files(files.iter()).unwrap_err();
    assert_eq!(
        error.to_string(),
        r#"two.json: cases[0]: the id "a/b" is also a case of one.json"#
    );
}
