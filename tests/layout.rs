//! The library's layout cannot rot: its modules import one another one way only
//! (the spec's data flow, no import circle), the trace module stays a leaf over
//! the vocabulary, and no source file grows past about 400 lines.
//! `cargo test -p zarr-reshape --test layout -- --nocapture` prints the graph.
// Test code: unwraps fail the test loudly; slicing is at match boundaries.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::unwrap_used
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Module name to the modules of the crate its code (not its comments) names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources: BTreeMap<String, String> = fs::read_dir(&src)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .filter(|path| !path.ends_with("lib.rs"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&path).unwrap())
        })
        .collect();
    let names: BTreeSet<&str> = sources.keys().map(String::as_str).collect();
    sources
        .iter()
        .map(|(module, text)| {
            let code: String = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let mut used = BTreeSet::new();
            for (at, _) in code.match_indices("crate::") {
                let rest = &code[at + "crate::".len()..];
                // `crate::a::b`, or `crate::{a, b::c}`: every first path segment.
                let group = if rest.starts_with('{') {
                    rest[1..rest.find('}').unwrap()].to_owned()
                } else {
                    rest.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect()
                };
                for item in group.split(',') {
                    let first = item.trim().split("::").next().unwrap_or_default();
                    if names.contains(first) && first != module {
                        used.insert(first.to_owned());
                    }
                }
            }
            (module.clone(), used)
        })
        .collect()
}

/// A circle of imports, if there is one, as `a -> b -> a`.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<String> {
    fn visit<'a>(
        node: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<String> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node);
            return Some(circle.join(" -> "));
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn modules_import_one_way() {
    let graph = imports();
    for (module, used) in &graph {
        let used: Vec<&str> = used.iter().map(String::as_str).collect();
        println!("{module:14} -> {}", used.join(", "));
    }
    assert!(graph.len() >= 10, "read {} modules", graph.len());
    assert_eq!(circle(&graph), None, "an import circle in src/");
}

#[test]
fn the_vocabulary_and_the_trace_are_leaves() {
    let graph = imports();
    for leaf in ["clause", "position", "error_class", "product", "strided"] {
        assert_eq!(
            graph[leaf],
            BTreeSet::new(),
            "{leaf} must use nothing of the crate"
        );
    }
    let trace: Vec<&str> = graph["trace"].iter().map(String::as_str).collect();
    assert_eq!(
        trace,
        ["clause", "position"],
        "trace uses only the vocabulary"
    );
}

#[test]
fn the_circle_finder_finds_circles() {
    let graph: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a")]
        .into_iter()
        .map(|(from, to)| (from.to_owned(), BTreeSet::from([to.to_owned()])))
        .collect();
    assert_eq!(circle(&graph).as_deref(), Some("a -> b -> c -> a"));
}

#[test]
fn source_files_stay_small() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let lines = fs::read_to_string(&path).unwrap().lines().count();
        assert!(lines <= 400, "{} has {lines} lines", path.display());
    }
}
