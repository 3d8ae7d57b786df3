//! upstream/zarrs/ and upstream/nd-image-codecs/: their cases are the suite's own
//! (one per cause, renamed), their expectations list every one of them with the
//! outcome the implementation's expectations file gives the suite's case, so that
//! the upstream check and the CI run agree. The runs against the implementations
//! are `.ci/run`'s (each folder's README.md).
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::path::PathBuf;

use serde_json::Value;
use zarr_reshape_conformance::run::Expectations;
use zarr_reshape_conformance::vector::{self, Case};

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn suite() -> Vec<Case> {
    vector::discover(&repository().join("spec-cases"))
        .unwrap()
        .into_iter()
        .flat_map(|path| vector::load_file(&path).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// `json` without its `id` and `description`.
fn body(json: &Value) -> Value {
    let mut object = json.as_object().unwrap().clone();
    object.remove("id");
    object.remove("description");
    Value::Object(object)
}

/// The cases of `upstream/<name>/cases.json` are suite cases, renamed (each
/// description ends naming the one it copies), every one listed in the folder's
/// expectations.toml with the outcome `suite_expectations` gives the original.
fn check_upstream_cases(name: &str, suite_expectations: &str) {
    let dir = repository().join("upstream").join(name);
    let cases = vector::load_file(&dir.join("cases.json")).unwrap();
    let suite = suite();
    let measured = Expectations::load(
        &repository()
            .join("conformance/expectations")
            .join(suite_expectations),
    )
    .unwrap();
    let upstream = Expectations::load(&dir.join("expectations.toml")).unwrap();
    upstream.check_clauses(&cases).unwrap();
    let ids: Vec<&str> = cases.iter().map(|case| case.id.as_str()).collect();
    assert!(upstream.missing_from(&ids).is_empty());
    assert_eq!(upstream.len(), cases.len(), "every case is listed");
    for case in &cases {
        assert!(
            case.id.starts_with(&format!("upstream/{name}/")),
            "{}",
            case.id
        );
        let (_, named) = case
            .description
            .rsplit_once("(The suite's ")
            .unwrap_or_else(|| panic!("{}: its description names no suite case", case.id));
        let original = named.strip_prefix("case ").unwrap_or(named);
        let original = original.strip_suffix(".)").unwrap();
        let copied = suite.iter().find(|c| c.id == original).unwrap();
        assert_eq!(body(&case.json), body(&copied.json), "{}", case.id);
        let listed = measured.known(original).unwrap_or_else(|| {
            panic!("{original} is not in {suite_expectations}: the bug may be fixed")
        });
        assert_eq!(
            upstream.known(&case.id).unwrap().outcome,
            listed.outcome,
            "{}",
            case.id
        );
    }
}

#[test]
fn upstream_zarrs_cases_are_the_suites_and_all_listed_as_the_suite_lists_them() {
    check_upstream_cases("zarrs", "zarrs-0.23.14.toml");
}

#[test]
fn upstream_nd_image_codecs_cases_are_the_suites_and_all_listed_as_the_suite_lists_them() {
    check_upstream_cases("nd-image-codecs", "nd-image-codecs-0.2.5.toml");
}
