//! The clause registry cannot drift: `spec-cases/clauses.json`, the `Clause` enum and
//! the comments at the checks in src/ name the same clauses, and the error classes of
//! `ErrorClass` are those of the vector schema.
// Test code: unwraps fail the test loudly, and slicing is at match boundaries.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::unwrap_used
)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use zarr_reshape::{Clause, ErrorClass, Level};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(relative: &str) -> Value {
    let text = fs::read_to_string(root().join(relative)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn strings(values: &Value, member: &str) -> Vec<String> {
    values
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value[member].as_str().unwrap().to_owned())
        .collect()
}

/// clauses.json lists exactly `Clause::ALL`: same ids, same levels, same order.
#[test]
fn clauses_json_matches_the_clause_enum() {
    let registry = read_json("spec-cases/clauses.json");
    let clauses = &registry["clauses"];
    let listed: Vec<(String, String)> = strings(clauses, "id")
        .into_iter()
        .zip(strings(clauses, "level"))
        .collect();
    let in_rust: Vec<(String, String)> = Clause::ALL
        .iter()
        .map(|clause| (clause.id().to_owned(), clause.level().as_str().to_owned()))
        .collect();
    assert_eq!(listed, in_rust);
    for clause in Clause::ALL {
        assert_eq!(clause.to_string(), clause.id());
    }
}

/// clauses.json's `text` of each clause is the library's `Clause::text`, and
/// every MUST and should clause has one (our interpretations have no sentence).
#[test]
fn clause_texts_match_the_clause_enum() {
    let registry = read_json("spec-cases/clauses.json");
    for (clause, entry) in Clause::ALL
        .iter()
        .zip(registry["clauses"].as_array().unwrap())
    {
        assert_eq!(entry["text"].as_str(), clause.text(), "{clause}");
        let quoted = matches!(clause.level(), Level::Must | Level::Should);
        assert_eq!(
            clause.text().is_some(),
            quoted,
            "{clause}: a text for every must/should clause only"
        );
    }
}

/// The clause id as a Rust function name: `input-dims.prefix` is `input_dims_prefix`.
fn function_name(id: &str) -> String {
    id.replace(['.', '-'], "_")
}

/// The doc comment right above `fn name(` in `text`, its lines joined by spaces.
fn doc_of(text: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|line| {
        let line = line.trim_start();
        let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
        line.starts_with(&format!("fn {name}(")) || line.starts_with(&format!("fn {name}<"))
    })?;
    let mut doc = Vec::new();
    for line in lines[..at].iter().rev().map(|line| line.trim_start()) {
        if line.starts_with("#[") {
            continue;
        }
        let Some(comment) = line.strip_prefix("///") else {
            break;
        };
        doc.push(comment.trim());
    }
    doc.reverse();
    Some(doc.join(" "))
}

fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every MUST and should rule is one function named after its clause, whose doc
/// comment quotes the spec's sentence for it (the one in clauses.json), attributed.
#[test]
fn every_rule_is_a_function_quoting_its_sentence() {
    let sources = checked_sources();
    for clause in Clause::ALL {
        let Some(sentence) = clause.text() else {
            continue;
        };
        let name = function_name(clause.id());
        let docs: Vec<String> = sources
            .iter()
            .filter_map(|(_, text)| doc_of(text, &name))
            .collect();
        assert_eq!(docs.len(), 1, "one `fn {name}` in src/ for {clause}");
        let doc = words(&docs[0]);
        let quote = format!("\"{}\"", words(sentence));
        assert!(
            doc.contains(&quote),
            "`fn {name}` does not quote {quote}: {doc}"
        );
        // core.* clauses quote the Zarr v3 core specification, the rest the reshape text.
        let source = match clause.id().starts_with("core.") {
            true => "Zarr v3 core specification, \"",
            false => "zarr-extensions codecs/reshape, \"",
        };
        assert!(doc.contains(source), "`fn {name}`: no attribution");
    }
}

#[test]
fn doc_comments_are_found_above_their_function() {
    let text = "/// one\n/// two\n#[inline]\npub(crate) fn rule_name(x: u8) {}\nfn other() {}";
    assert_eq!(doc_of(text, "rule_name").as_deref(), Some("one two"));
    assert_eq!(doc_of(text, "other").as_deref(), Some(""));
    assert_eq!(doc_of(text, "missing"), None);
    assert_eq!(function_name("input-dims.prefix"), "input_dims_prefix");
}

/// Every interpretation a clause cites is defined in clauses.json.
#[test]
fn clauses_json_cites_only_defined_interpretations() {
    let registry = read_json("spec-cases/clauses.json");
    let defined = strings(&registry["interpretations"], "id");
    for clause in registry["clauses"].as_array().unwrap() {
        for cited in clause["interpretations"].as_array().into_iter().flatten() {
            let cited = cited.as_str().unwrap();
            assert!(
                defined.iter().any(|id| id == cited),
                "{} cites {cited}",
                clause["id"]
            );
        }
    }
}

/// Where `id` occurs in `line` as a whole clause id (not inside a longer one).
fn mentions(line: &str, id: &str) -> bool {
    let part_of_id = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    line.match_indices(id).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let mut after = line[at + id.len()..].chars();
        let next = after.next();
        let continues = match next {
            Some('.') => after.next().is_some_and(part_of_id),
            Some(c) => part_of_id(c),
            None => false,
        };
        !before.is_some_and(|c| part_of_id(c) || c == '.') && !continues
    })
}

/// The source files of the library, without the registry itself.
fn checked_sources() -> Vec<(PathBuf, String)> {
    let mut sources: Vec<(PathBuf, String)> = fs::read_dir(root().join("src"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .filter(|path| !path.ends_with("clause.rs"))
        .map(|path| {
            let text = fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect();
    sources.sort();
    sources
}

/// Every clause id appears in a comment in src/ (outside the registry), next to the
/// check or the code that implements it, so the citation cannot silently go missing.
#[test]
fn clause_ids_are_cited_in_source_comments() {
    let sources = checked_sources();
    assert!(sources.len() >= 5, "read {} files", sources.len());
    let cited = |id: &str| {
        sources.iter().any(|(_, text)| {
            text.lines().any(|line| {
                let line = line.trim_start();
                line.starts_with("//") && mentions(line, id)
            })
        })
    };
    let missing: Vec<&str> = Clause::ALL
        .iter()
        .map(|clause| clause.id())
        .filter(|id| !cited(id))
        .collect();
    assert!(missing.is_empty(), "no comment in src/ cites {missing:?}");
}

/// The matcher sees whole ids only.
#[test]
fn clause_id_matching_ignores_longer_ids() {
    assert!(mentions(
        "// shape.auto.once: at most once",
        "shape.auto.once"
    ));
    assert!(mentions("/// (algorithm.rank).", "algorithm.rank"));
    assert!(!mentions("// shape.auto.once", "shape.auto"));
    assert!(!mentions("// input-dims.prefix", "dims.prefix"));
}

/// Every clause has vectors: a folder spec-cases/<clause-id>/ with at least one file.
#[test]
fn every_clause_has_a_vector_folder() {
    for clause in Clause::ALL {
        let folder = root().join("spec-cases").join(clause.id());
        let files = fs::read_dir(&folder).map_or(0, Iterator::count);
        assert!(files > 0, "no vectors in {}", folder.display());
    }
}

/// `ErrorClass::ALL` is the schema's closed set of classes, in the same order.
#[test]
fn error_classes_match_the_vector_schema() {
    let schema = read_json("spec-cases/vector.schema.json");
    let listed: Vec<&str> = schema["$defs"]["error-class"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|class| class.as_str().unwrap())
        .collect();
    let in_rust: Vec<&str> = ErrorClass::ALL.iter().map(|class| class.as_str()).collect();
    assert_eq!(listed, in_rust);
}
