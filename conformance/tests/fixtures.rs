//! The Zarr array fixtures (`spec-cases/arrays/`) and their vectors
//! (`spec-cases/generated/read-array.json`): current, readable through the chain,
//! refused when invalid, and sensitive to the reshape's B_shape.
//! `ZARR_RESHAPE_BLESS=1` rewrites them (stale fixture folders removed).

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use zarr_reshape_conformance::TypedArray;
use zarr_reshape_conformance::fixtures::{self, Fixture};
use zarr_reshape_conformance::vector::{self, Operation};
use zarr_reshape_conformance::zarr::{self, ArrayMetadata, ZarrArray};

const RERUN: &str = "ZARR_RESHAPE_BLESS=1 cargo test -p zarr-reshape-conformance --test fixtures";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases")
}

fn blessing() -> bool {
    std::env::var_os("ZARR_RESHAPE_BLESS").is_some_and(|value| value == "1")
}

fn folder(fixture: &Fixture) -> PathBuf {
    root().join(fixtures::ARRAYS).join(fixture.name)
}

fn expected(fixture: &Fixture) -> TypedArray {
    let text = std::fs::read_to_string(folder(fixture).join("expected.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["data_type"], fixture.data_type.name());
    let shape: Vec<u64> = serde_json::from_value(json["shape"].clone()).unwrap();
    TypedArray::from_json(fixture.data_type, &shape, &json["data"]).unwrap()
}

#[test]
fn committed_fixtures_are_current() {
    if blessing() {
        fixtures::write(&root()).unwrap();
        return;
    }
    // Written afresh into a temporary suite root, then compared file by file.
    let fresh = std::env::temp_dir().join(format!("zarr-reshape-fixtures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    fixtures::write(&fresh).unwrap();
    let written = fixtures::on_disk(&fresh).unwrap();
    std::fs::remove_dir_all(&fresh).unwrap();
    assert_eq!(
        written,
        fixtures::render().unwrap(),
        "the writer writes what render gives"
    );
    assert_eq!(
        fixtures::render().unwrap(),
        fixtures::render().unwrap(),
        "rendering is deterministic"
    );
    let committed = fixtures::on_disk(&root()).unwrap();
    if let Some(difference) = fixtures::first_difference(&written, &committed) {
        panic!("spec-cases/ fixtures are stale: {difference}.\nRun `{RERUN}` and commit them.");
    }
}

#[test]
fn the_set_stays_small_and_covers_the_issue() {
    let files = fixtures::render().unwrap();
    let total: usize = files.values().map(Vec::len).sum();
    assert!(total < 300_000, "the fixtures take {total} bytes");
    let all = fixtures::fixtures();
    let types: std::collections::BTreeSet<&str> = all.iter().map(|f| f.data_type.name()).collect();
    for needed in ["int16", "int32", "float32", "float64"] {
        assert!(types.contains(needed), "no fixture of {needed}");
    }
    let codecs = |f: &Fixture| {
        f.codecs
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(all.iter().any(|f| codecs(f).contains(&"zstd".into())));
    assert!(all.iter().any(|f| codecs(f).contains(&"gzip".into())));
    assert!(all.iter().any(|f| {
        f.codecs
            .iter()
            .any(|c| c["configuration"]["endian"] == "big")
    }));
    assert!(
        all.iter()
            .any(|f| f.shape.iter().zip(&f.chunk_shape).any(|(s, c)| s % c != 0))
    );
    assert!(all.iter().any(|f| codecs(f).contains(&"crc32c".into())));
    assert_eq!(all.iter().filter(|f| f.error.is_some()).count(), 8);
    assert_eq!(all.iter().filter(|f| f.corrupt_checksums).count(), 1);
    assert!(all.iter().filter(|f| f.region.is_some()).count() >= 3);
}

#[test]
fn every_valid_fixture_reads_back_to_expected_json() {
    for fixture in fixtures::fixtures().iter().filter(|f| f.error.is_none()) {
        let read = zarr::read_array(&folder(fixture), None)
            .unwrap_or_else(|error| panic!("{}: {error}", fixture.name));
        assert_eq!(read, expected(fixture), "{}", fixture.name);
        if let Some((start, stop)) = &fixture.region {
            let part = zarr::read_array(&folder(fixture), Some((start, stop))).unwrap();
            assert_eq!(
                part,
                fixtures::slice(&expected(fixture), start, stop),
                "{} box",
                fixture.name
            );
        }
    }
}

/// The invalid fixtures whose reshape is valid and whose following codec is not.
const FOLLOWING_CODEC_BROKEN: &[&str] = &["invalid-transpose-fits-array-rank"];

#[test]
fn every_invalid_fixture_fails_with_a_reshape_error_class() {
    for fixture in fixtures::fixtures() {
        let Some(classes) = fixture.error else {
            continue;
        };
        if fixture.corrupt_checksums {
            continue; // Its chain is valid: the next test.
        }
        let error = zarr::read_array(&folder(&fixture), None).unwrap_err();
        assert!(
            classes.contains(&error.class.as_str()),
            "{}: {error}",
            fixture.name
        );
        // The reshape's own rules have their classes; only a codec after it that
        // does not fit what reshape hands on is malformed-configuration.
        assert_eq!(
            error.class.as_str() == "malformed-configuration",
            FOLLOWING_CODEC_BROKEN.contains(&fixture.name),
            "{}",
            fixture.name
        );
        // Without the broken reshape the chunks read: a reader that skips the rule returns data.
        let json: Value = serde_json::from_str(
            &std::fs::read_to_string(folder(&fixture).join("zarr.json")).unwrap(),
        )
        .unwrap();
        let read = read_with_reshape(&json, &folder(&fixture), None).unwrap();
        assert_eq!(read.shape(), fixture.shape);
    }
}

/// The array with corrupt checksums stores the chunks its chain writes but for
/// the bit flipped in each checksum: its only fault is the checksum, and the
/// reader refuses it as a chunk it cannot decode.
#[test]
fn the_corrupt_checksum_fixture_differs_from_its_chain_in_the_checksums_only() {
    let corrupt = fixtures::fixtures()
        .into_iter()
        .find(|f| f.corrupt_checksums)
        .unwrap();
    let intact = Fixture {
        corrupt_checksums: false,
        error: None,
        ..corrupt.clone()
    };
    let chunks = |fixture: &Fixture| -> Vec<(String, Vec<u8>)> {
        let files = fixture.files().unwrap();
        files
            .into_iter()
            .filter(|(key, _)| key.starts_with("c/"))
            .collect()
    };
    let (damaged, written) = (chunks(&corrupt), chunks(&intact));
    assert_eq!(damaged.len(), 4);
    for ((key, bad), (intact_key, good)) in damaged.iter().zip(&written) {
        assert_eq!(key, intact_key);
        let cut = good.len() - 4;
        assert_eq!(bad[..cut], good[..cut], "{key}: the data are intact");
        let flipped: u32 = bad[cut..]
            .iter()
            .zip(&good[cut..])
            .map(|(a, b)| (a ^ b).count_ones())
            .sum();
        assert_eq!(flipped, 1, "{key}: one bit of the checksum");
    }
    let error = zarr::read_array(&folder(&corrupt), None).unwrap_err();
    assert_eq!(error.class.as_str(), "malformed-configuration");
    assert!(error.message.contains("crc32c cannot decode"), "{error}");
    assert_eq!(corrupt.error, Some(&["malformed-configuration"][..]));
    // With no transpose in its chain, only the checksum can stop a reader.
    assert!(!corrupt.codecs.iter().any(|c| c["name"] == "transpose"));
}

/// The list holding the first reshape codec of `codecs`, or of the inner codecs
/// of a `sharding_indexed` in it (nested ones too), and its place there.
fn reshape_slot(codecs: &mut Vec<Value>) -> Option<(&mut Vec<Value>, usize)> {
    if let Some(at) = codecs.iter().position(|c| c["name"] == "reshape") {
        return Some((codecs, at));
    }
    codecs
        .iter_mut()
        .filter_map(|c| {
            c.pointer_mut("/configuration/codecs")
                .and_then(Value::as_array_mut)
        })
        .find_map(reshape_slot)
}

/// Reads the array in `dir` with its zarr.json `json`, the reshape codec's
/// configuration replaced (or the codec removed, for `None`); the reshape is the
/// chain's first, or the first inside sharding.
fn read_with_reshape(
    json: &Value,
    dir: &Path,
    configuration: Option<Value>,
) -> Result<TypedArray, zarr::ZarrError> {
    let mut json = json.clone();
    let (codecs, at) = reshape_slot(json["codecs"].as_array_mut().unwrap()).unwrap();
    match configuration {
        Some(configuration) => codecs[at]["configuration"] = configuration,
        None => {
            codecs.remove(at);
        }
    }
    ZarrArray::with_metadata(dir, ArrayMetadata::from_json(&json)?)?.read(None)
}

/// A wrong B_shape changes the values read: the fixtures with a shape-sensitive
/// codec after the reshape, each with a valid configuration of the same rank that
/// gives another B_shape (and without the reshape at all).
#[test]
fn a_wrong_b_shape_does_not_reproduce_the_values() {
    let wrong = [
        ("reshape-then-transpose", json!({"shape": [[0], [1, 2]]})),
        ("transpose-then-reshape", json!({"shape": [[0, 1], [2]]})),
        ("auto-extent", json!({"shape": [4, -1, [2]]})),
        ("empty-input-dims", json!({"shape": [[0, 1], [], -1]})),
        ("edge-chunks", json!({"shape": [[0], 3, 2]})),
        ("big-endian", json!({"shape": [2, 3, 2]})),
        ("gzip-transposed", json!({"shape": [[0], [1, 2]]})),
        ("rank-kept-transposed", json!({"shape": [3, -1]})),
        ("crc32c-transposed", json!({"shape": [[0], [1, 2]]})),
        ("sharded-reshape-before", json!({"shape": [[0, 1], [2]]})),
        ("sharded-reshape-inside", json!({"shape": [3, -1]})),
        ("sharded-nested", json!({"shape": [4, 4]})),
        ("sharded-index-start", json!({"shape": [6, 8]})),
        ("sharded-missing-inner-chunks", json!({"shape": [2, 3]})),
        ("rectilinear-input-dims", json!({"shape": [[0, 1], [2]]})),
        (
            "rectilinear-sharded-reshape-before",
            json!({"shape": [4, -1]}),
        ),
        (
            "rectilinear-integer-and-runs",
            json!({"shape": [4, 1, [1]]}),
        ),
    ];
    for (name, configuration) in wrong {
        let fixture = fixtures::fixtures()
            .into_iter()
            .find(|f| f.name == name)
            .unwrap();
        let dir = folder(&fixture);
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("zarr.json")).unwrap()).unwrap();
        let read = read_with_reshape(&json, &dir, Some(configuration.clone()))
            .unwrap_or_else(|error| panic!("{name} with {configuration}: {error}"));
        assert_eq!(read.shape(), fixture.shape);
        assert_ne!(
            read,
            expected(&fixture),
            "{name}: {configuration} reads the same values"
        );
        if let Ok(read) = read_with_reshape(&json, &dir, None) {
            assert_ne!(
                read,
                expected(&fixture),
                "{name}: the chain without reshape reads the same values"
            );
        }
    }
}

#[test]
fn read_array_cases_resolve_their_paths_and_adapters_get_them_absolute() {
    let file = root().join(fixtures::VECTORS);
    let cases = vector::load_file(&file).unwrap();
    assert!(cases.len() >= fixtures::fixtures().len() + 3);
    for case in &cases {
        let Operation::ReadArray { path, .. } = &case.operation else {
            panic!("{} is not read-array", case.id)
        };
        assert!(
            path.is_absolute() && path.join("zarr.json").is_file(),
            "{}",
            path.display()
        );
        let sent = vector::wire_json(case);
        assert_eq!(sent["array"]["path"], path.to_str().unwrap());
        assert!(
            case.json["array"]["path"]
                .as_str()
                .unwrap()
                .starts_with("arrays/"),
            "the case keeps its text"
        );
        assert_eq!(sent["expect"], case.json["expect"]);
    }
    // Other cases go as written.
    let resolve = vector::load_file(&root().join("shape.size/zero-size.json")).unwrap();
    assert!(matches!(
        vector::wire_json(&resolve[0]),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn a_relative_path_without_a_suite_root_is_a_load_error() {
    let dir = std::env::temp_dir().join(format!("zarr-reshape-rootless-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("generated")).unwrap();
    let file = dir.join("generated/x.json");
    let text = std::fs::read_to_string(root().join(fixtures::VECTORS)).unwrap();
    std::fs::write(&file, text).unwrap();
    let error = vector::load_file(&file).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(error.pointer, "/cases/0/array/path");
    assert!(error.message.contains("clauses.json"), "{error}");
}

/// Through the reference's own adapter process: its working directory (this
/// crate's folder) holds no `arrays/`, so the cases pass only with the absolute
/// paths the runner sends.
#[test]
fn the_reference_adapter_reads_the_fixtures_at_the_paths_the_runner_sends() {
    use zarr_reshape_conformance::run::Implementation;
    use zarr_reshape_conformance::{AdapterOptions, AdapterProcess};
    use zarr_reshape_conformance::{ClassCheck, Outcome, judge};

    let command = [
        env!("CARGO_BIN_EXE_zarr-reshape").to_string(),
        "adapter".to_string(),
    ];
    let mut adapter = AdapterProcess::start(&command, AdapterOptions::default()).unwrap();
    assert!(
        adapter
            .info()
            .operations
            .iter()
            .any(|op| op == "read-array")
    );
    assert!(!Path::new("arrays").exists());
    for case in vector::load_file(&root().join(fixtures::VECTORS)).unwrap() {
        let answer = adapter.run(&case);
        assert_eq!(
            judge(&case, &answer, ClassCheck::Strict),
            Outcome::Pass,
            "{}: {answer:?}",
            case.id
        );
    }
}
