//! upstream/zarrs/: its cases are the suite's own (one per cause, renamed), its
//! expectations list every one of them with the outcome the zarrs expectations file
//! gives the suite's case, so that the upstream check and the CI run agree. The run
//! against zarrs itself is `.ci/run`'s (upstream/zarrs/README.md).
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

#[test]
fn upstream_zarrs_cases_are_the_suites_and_all_listed_as_the_suite_lists_them() {
    let dir = repository().join("upstream/zarrs");
    let cases = vector::load_file(&dir.join("cases.json")).unwrap();
    let suite = suite();
    let zarrs =
        Expectations::load(&repository().join("conformance/expectations/zarrs-0.23.14.toml"))
            .unwrap();
    let upstream = Expectations::load(&dir.join("expectations.toml")).unwrap();
    upstream.check_clauses(&cases).unwrap();
    let ids: Vec<&str> = cases.iter().map(|case| case.id.as_str()).collect();
    assert!(upstream.missing_from(&ids).is_empty());
    assert_eq!(upstream.len(), cases.len(), "every case is listed");
    for case in &cases {
        assert!(case.id.starts_with("upstream/zarrs/"), "{}", case.id);
        // The description ends naming the suite case it copies.
        let original = case
            .description
            .rsplit_once("(The suite's case ")
            .and_then(|(_, rest)| rest.strip_suffix(".)"))
            .unwrap_or_else(|| panic!("{}: its description names no suite case", case.id));
        let copied = suite.iter().find(|c| c.id == original).unwrap();
        assert_eq!(body(&case.json), body(&copied.json), "{}", case.id);
        assert!(case.description.starts_with(&copied.description));
        let listed = zarrs.known(original).unwrap_or_else(|| {
            panic!("{original} is not in zarrs-0.23.14.toml: the bug may be fixed")
        });
        assert_eq!(
            upstream.known(&case.id).unwrap().outcome,
            listed.outcome,
            "{}",
            case.id
        );
    }
}
