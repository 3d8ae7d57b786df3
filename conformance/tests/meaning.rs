//! The meaning check (`conformance/src/meaning/`): the literal input-dims rules of the
//! reference against a brute-force reading of their stated purpose, and the vectors
//! sampled from the same domain. Both outputs are committed under
//! `spec-cases/generated/`; `ZARR_RESHAPE_BLESS=1` rewrites them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;
use zarr_reshape_conformance::meaning::{
    Comparison, DECODED_EXTENTS, Domain, INPUT_DIM_LIMIT, MAX_DECODED_RANK, MAX_ENCODED_RANK,
    SIZES, compare, configuration_text, generate_vectors, render_meaning_md,
};

const BLESS: &str = "ZARR_RESHAPE_BLESS";
const RERUN: &str = "ZARR_RESHAPE_BLESS=1 cargo test -p zarr-reshape-conformance --test meaning";
/// The largest generated vector file.
const MAX_FILE_BYTES: usize = 1 << 20;

fn generated() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases/generated")
}

fn blessing() -> bool {
    std::env::var_os(BLESS).is_some_and(|value| value == "1")
}

/// The domain and its comparison, computed once for both tests.
fn checked() -> &'static (Domain, Comparison) {
    static CHECKED: OnceLock<(Domain, Comparison)> = OnceLock::new();
    CHECKED.get_or_init(|| {
        let domain = Domain::standard();
        let comparison = compare(&domain);
        (domain, comparison)
    })
}

#[test]
fn input_dims_rules_against_their_meaning() {
    let (domain, comparison) = checked();

    // (a) The whole stated domain, and nothing less.
    // `sum(base^n for n in 0..=max)`: the sequences of length 0 to max.
    let sequences = |base: usize, max: u32| (0..=max).map(|n| base.pow(n)).sum::<usize>();
    assert_eq!(DECODED_EXTENTS, [1, 2, 3, 5]);
    assert_eq!(SIZES, [1, 2, 3, 4, 6]);
    assert_eq!(
        (MAX_DECODED_RANK, MAX_ENCODED_RANK, INPUT_DIM_LIMIT),
        (3, 3, 3)
    );
    let lists = 1 << INPUT_DIM_LIMIT; // every subset of 0..3, the empty one included
    let alphabet = SIZES.len() + 1 + lists;
    assert_eq!(Domain::alphabet().len(), alphabet);
    assert_eq!(alphabet, 14);
    let shapes = sequences(
        DECODED_EXTENTS.len(),
        u32::try_from(MAX_DECODED_RANK).unwrap(),
    );
    let configurations = sequences(alphabet, u32::try_from(MAX_ENCODED_RANK).unwrap());
    assert_eq!((shapes, configurations), (85, 2955));
    assert_eq!(domain.decoded_shapes.len(), shapes);
    assert_eq!(domain.configurations.len(), configurations);
    assert_eq!(domain.len(), shapes * configurations);
    assert_eq!(
        comparison.pairs,
        domain.len(),
        "not every pair was compared"
    );
    let counted: usize = comparison.kinds.values().map(|stats| stats.count).sum();
    assert_eq!(counted, comparison.pairs, "every pair has exactly one kind");
    let distinct: std::collections::HashSet<_> = domain
        .pairs()
        .map(|p| (p.configuration, p.a_shape))
        .collect();
    assert_eq!(distinct.len(), domain.len(), "the domain repeats a pair");

    // The library's verdict is one the rules evaluated one by one allow.
    let inconsistent: Vec<String> = comparison
        .inconsistent
        .iter()
        .map(|e| {
            format!(
                "{} on {:?}: {:?}",
                configuration_text(&e.configuration),
                e.a_shape,
                e.literal
            )
        })
        .collect();
    assert!(
        inconsistent.is_empty(),
        "the library's verdict breaks no rule it names, or accepts a pair that breaks one:\n{}",
        inconsistent.join("\n")
    );

    // (b) MEANING.md is current; every kind of disagreement is explained.
    let rendered = render_meaning_md(comparison, domain).unwrap_or_else(|unexplained| {
        panic!(
            "kinds of disagreement without an explanation in meaning::EXPLANATIONS: {}",
            unexplained.join(", ")
        )
    });
    let path = generated().join("MEANING.md");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed == rendered {
        return;
    }
    if blessing() {
        std::fs::create_dir_all(generated()).unwrap();
        std::fs::write(&path, &rendered).unwrap();
        return;
    }
    let first = committed
        .lines()
        .zip(rendered.lines())
        .position(|(old, new)| old != new)
        .unwrap_or_else(|| committed.lines().count().min(rendered.lines().count()));
    panic!(
        "spec-cases/generated/MEANING.md is stale (first difference at line {}:\n  committed: {:?}\n  rendered:  {:?}).\nRun `{RERUN}` and commit it.",
        first + 1,
        committed.lines().nth(first).unwrap_or("<end of file>"),
        rendered.lines().nth(first).unwrap_or("<end of file>"),
    );
}

#[test]
fn generated_vectors_are_current() {
    let (domain, comparison) = checked();
    let files = generate_vectors(domain, comparison);

    // Every file parses, stays small and (when the schema is there) matches it; ids are unique.
    let schema_path = generated().join("../vector.schema.json");
    let validator = std::fs::read_to_string(&schema_path).ok().map(|text| {
        let schema: Value = serde_json::from_str(&text).unwrap();
        jsonschema::validator_for(&schema).unwrap()
    });
    let mut ids = BTreeSet::new();
    let mut outcomes = BTreeSet::new();
    let mut total = 0;
    for file in &files {
        assert!(
            file.text.len() < MAX_FILE_BYTES,
            "{} is {} bytes",
            file.name,
            file.text.len()
        );
        let json: Value = serde_json::from_str(&file.text).unwrap();
        if let Some(validator) = &validator {
            let errors: Vec<String> = validator
                .iter_errors(&json)
                .map(|e| format!("{} at {}: {e}", file.name, e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{}", errors.join("\n"));
        }
        let cases = json["cases"].as_array().unwrap();
        assert_eq!(cases.len(), file.cases);
        total += cases.len();
        for case in cases {
            let id = case["id"].as_str().unwrap().to_string();
            assert!(id.starts_with("generated/"), "{id}");
            assert!(ids.insert(id.clone()), "id {id} is used twice");
            let expect = &case["expect"];
            outcomes.insert(match &expect["error"] {
                Value::Null => "accepted".to_string(),
                Value::String(class) => class.clone(),
                Value::Array(classes) => classes[0].as_str().unwrap().to_string(),
                other => panic!("{id}: expect {other}"),
            });
        }
    }
    assert!((1000..=5000).contains(&total), "{total} generated cases");

    // Every verdict and error class of the domain occurs in the files.
    let domain_outcomes: BTreeSet<String> = comparison
        .kinds
        .values()
        .map(|stats| match &stats.example.literal {
            Ok(_) => "accepted".to_string(),
            Err(error) => error.class().as_str().to_string(),
        })
        .collect();
    assert_eq!(outcomes, domain_outcomes);

    // The committed files are this regeneration, byte for byte, and nothing else.
    let dir = generated();
    let wanted: BTreeMap<&str, &str> = files
        .iter()
        .map(|f| (f.name.as_str(), f.text.as_str()))
        .collect();
    let committed: BTreeSet<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with("resolve-") && name.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    let stale: Vec<&str> = committed
        .iter()
        .map(String::as_str)
        .filter(|name| !wanted.contains_key(name))
        .collect();
    let differ: Vec<&str> = wanted
        .iter()
        .filter(|(name, text)| {
            std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(**text)
        })
        .map(|(name, _)| *name)
        .collect();
    if stale.is_empty() && differ.is_empty() {
        return;
    }
    if blessing() {
        std::fs::create_dir_all(&dir).unwrap();
        for name in &stale {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
        for name in &differ {
            std::fs::write(dir.join(name), wanted[name]).unwrap();
        }
        return;
    }
    panic!(
        "spec-cases/generated/ is stale: {} differ or are missing ({}), {} are no longer generated ({}).\nRun `{RERUN}` and commit them.",
        differ.len(),
        differ.join(", "),
        stale.len(),
        stale.join(", "),
    );
}
