//! The errata patch for zarr-extensions (`upstream/zarr-extensions/errata.patch`,
//! issue 28): applied with `git apply` to the shared copies of the upstream
//! `codecs/reshape/README.md` and `schema.json` (../shared/spec beside the clone,
//! or ZARR_RESHAPE_SHARED_SPEC), it must
//! - leave a README on which `check-spec` finds no error and no warning, where the
//!   unpatched one has both, and whose example still resolves (E1-E5);
//! - leave a schema that admits every `resolve` configuration some reading of the
//!   suite accepts, and refuses every one whose expected error is a class the
//!   schema can express: `invalid-size`, `repeated-auto`, `malformed-configuration`
//!   (E6). The counts are printed (`-- --nocapture`); `upstream/zarr-extensions/check.sh`
//!   runs this test.
// Test code: a failed unwrap or index is a failed check.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Scratch;

use serde_json::{Value, json};
use zarr_reshape_conformance::check_spec::{self, render};
use zarr_reshape_conformance::vector::{self, CodecJson, Expectation, Operation};

/// The classes a JSON Schema of the codec object can see whenever a case lists
/// them: they need nothing but the configuration (no decoded shape, no order
/// across elements).
const SCHEMA_CLASSES: [&str; 2] = ["invalid-size", "repeated-auto"];

/// Whether the schema can refuse an error case of `classes` under `clause`:
/// one of [`SCHEMA_CLASSES`], or `malformed-configuration` alone (a wrong JSON
/// type, a negative input dim, an unknown member). `malformed-configuration`
/// beside another class is another reading's class for a rule no schema sees
/// (an input dim out of range, an empty input dims list); the suite's own size
/// limits (`limits.*`, I-10) are no rule of the spec.
fn expressible(classes: &[String], clause: &str) -> bool {
    classes.iter().any(|c| SCHEMA_CLASSES.contains(&c.as_str()))
        || (!clause.starts_with("limits.")
            && !classes.is_empty()
            && classes.iter().all(|c| c == "malformed-configuration"))
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn shared_spec() -> Option<PathBuf> {
    let named = std::env::var_os("ZARR_RESHAPE_SHARED_SPEC").map(PathBuf::from);
    let dir = named
        .clone()
        .unwrap_or_else(|| repository().join("../shared/spec"));
    if dir.is_dir() {
        Some(dir)
    } else {
        // Named on purpose (upstream/zarr-extensions/check.sh names it): not
        // finding it is a failure, never a pass that checked nothing.
        assert!(
            named.is_none(),
            "ZARR_RESHAPE_SHARED_SPEC={} is not a folder",
            dir.display()
        );
        eprintln!(
            "note: {} is not there; the errata patch is not checked",
            dir.display()
        );
        None
    }
}

/// The shared copy of the upstream README as upstream has it: without the note
/// on its first line (an HTML comment) and the blank line after it.
fn upstream_readme(text: &str) -> String {
    let mut lines = text.split_inclusive('\n').peekable();
    if lines.peek().is_some_and(|line| line.starts_with("<!--")) {
        lines.next();
        if lines.peek().is_some_and(|line| line.trim().is_empty()) {
            lines.next();
        }
    }
    lines.collect()
}

/// A tree laid out as zarr-extensions (`codecs/reshape/{README.md,schema.json}`)
/// from the shared copies, in a scratch folder of its own (`name`: the tests run
/// at once, in one process); patched when `patch` is set.
fn tree(spec: &Path, name: &str, patch: bool) -> Scratch {
    let dir = Scratch::new(name);
    let reshape = dir.0.join("codecs/reshape");
    std::fs::create_dir_all(&reshape).unwrap();
    let readme = std::fs::read_to_string(spec.join("reshape-codec.upstream.md")).unwrap();
    std::fs::write(reshape.join("README.md"), upstream_readme(&readme)).unwrap();
    std::fs::copy(spec.join("schema.json"), reshape.join("schema.json")).unwrap();
    if patch {
        let file = repository().join("upstream/zarr-extensions/errata.patch");
        let output = Command::new("git")
            .arg("apply")
            .arg(&file)
            .current_dir(&dir.0)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "git apply {}: {}",
            file.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    dir
}

/// The findings of `check-spec` on a README, by severity.
fn findings(readme: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(readme).unwrap();
    let report = check_spec::check(&text);
    let json = render::json(&report, &text, "README.md");
    json["findings"].as_array().unwrap().clone()
}

fn count(findings: &[Value], severity: &str) -> usize {
    findings
        .iter()
        .filter(|f| f["severity"] == severity)
        .count()
}

#[test]
fn the_patched_readme_passes_check_spec() {
    let Some(spec) = shared_spec() else { return };
    let before = findings(
        &tree(&spec, "check-spec-unpatched", false)
            .0
            .join("codecs/reshape/README.md"),
    );
    assert!(
        count(&before, "error") > 0 && count(&before, "warning") > 0,
        "the unpatched README must have errors and warnings: {before:#?}"
    );
    let patched = tree(&spec, "check-spec-patched", true);
    let readme = std::fs::read_to_string(patched.0.join("codecs/reshape/README.md")).unwrap();
    let after = findings(&patched.0.join("codecs/reshape/README.md"));
    let loud: Vec<&Value> = after.iter().filter(|f| f["severity"] != "note").collect();
    assert!(loud.is_empty(), "the patched README: {loud:#?}");
    // E1, E2: the formulas check-spec does not read.
    assert!(readme.contains("prod(A_shape[input_dims])") && !readme.contains("input_dims]]"));
    assert!(readme.contains("prod(A_shape[:input_dims[0]])"));
    // The example still resolves, and the four fragments still agree with the prose.
    let shapes: Vec<&Value> = after
        .iter()
        .filter(|f| f["id"] == "encoded-shape")
        .collect();
    assert_eq!(shapes.len(), 1, "{after:#?}");
    assert!(
        shapes[0]["message"]
            .as_str()
            .unwrap()
            .ends_with("encodes [100, 50, 64, 3] as [5000, 64, 3]")
    );
    let agree = after
        .iter()
        .filter(|f| f["id"] == "fragment-agrees")
        .count();
    assert_eq!(agree, 4, "{after:#?}");
    println!(
        "check-spec: unpatched {} error(s), {} warning(s); patched 0 errors, 0 warnings, {} notes",
        count(&before, "error"),
        count(&before, "warning"),
        after.len()
    );
}

/// Whether some reading of the suite accepts the case, and the classes it accepts
/// otherwise.
fn verdict(expect: &Expectation) -> (bool, Vec<String>) {
    match expect {
        Expectation::Output(_) => (true, Vec::new()),
        Expectation::Error(classes) => (false, classes.clone()),
        Expectation::AnyOf(all) => {
            all.iter()
                .map(verdict)
                .fold((false, Vec::new()), |(ok, mut classes), (one, more)| {
                    classes.extend(more);
                    (ok || one, classes)
                })
        }
    }
}

#[test]
fn the_patched_schema_agrees_with_the_vectors() {
    let Some(spec) = shared_spec() else { return };
    let patched = tree(&spec, "schema-patched", true);
    let text = std::fs::read_to_string(patched.0.join("codecs/reshape/schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let original: Value =
        serde_json::from_str(&std::fs::read_to_string(spec.join("schema.json")).unwrap()).unwrap();
    let published = jsonschema::validator_for(&original).unwrap();
    let root = repository().join("spec-cases");
    let (mut accepted, mut refused, mut beyond, mut published_wrong) = (0, 0, 0, 0);
    let mut problems = Vec::new();
    for path in vector::discover(&root).unwrap() {
        for case in vector::load_file(&path).unwrap() {
            if !matches!(case.operation, Operation::Resolve) {
                continue;
            }
            let codec = match &case.codec {
                CodecJson::Configuration(configuration) => {
                    json!({"name": "reshape", "configuration": configuration})
                }
                CodecJson::Codec(codec) => codec.clone(),
                CodecJson::Chain(_) => continue,
            };
            let valid = validator.is_valid(&codec);
            let (ok, classes) = verdict(&case.expect);
            let clause = case.clauses.first().map_or("", String::as_str);
            let expressible = expressible(&classes, clause);
            if ok {
                accepted += 1;
                if !valid {
                    problems.push(format!("{}: accepted, the schema refuses {codec}", case.id));
                }
            } else if expressible {
                refused += 1;
                if valid {
                    problems.push(format!(
                        "{}: {classes:?}, the schema admits {codec}",
                        case.id
                    ));
                }
            } else {
                beyond += 1;
            }
            if published.is_valid(&codec) != (ok || !expressible) {
                published_wrong += 1;
            }
        }
    }
    println!(
        "schema: {accepted} accepted configurations valid, {refused} refused ones invalid, \
         {beyond} refused for what no schema sees (decoded shape, order); the published \
         schema errs on {published_wrong}"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(accepted > 0 && refused > 0 && published_wrong > 0);
}
