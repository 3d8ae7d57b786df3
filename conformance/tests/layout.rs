//! The whole project's layout cannot rot (issue 17): in every crate of the
//! workspace (the library, the vectors, the harness, the CLI's library and its
//! binary), sibling modules import one another one way only, at every level of
//! the module tree, and no source file under a crate's `src/` grows past 400 lines.
//!
//! An import is a `crate::`, `super::` or `self::` path in code (comments and unit
//! test modules aside). It counts between the two sibling modules under the
//! paths' deepest common module: `run::in_process` naming `crate::reference::run`
//! is an import of `reference` by `run`. A child using its parent, or a parent its
//! child, is the tree itself and never counts.
//! `cargo test -p zarr-reshape-conformance --test layout -- --nocapture` prints the graph.
// Test code: unwraps fail the test loudly; slicing is at match boundaries.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::panic
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a source file may have.
const MAX_LINES: usize = 400;

/// A module path below its crate's root, e.g. `["run", "in_process"]`.
type ModulePath = Vec<String>;

/// One crate: its name, its `src/` folder, its root file, and the files of the
/// folder that belong to another crate (the CLI's binary shares `src/`).
struct Crate {
    name: &'static str,
    src: PathBuf,
    root: &'static str,
    /// Files and folders of `src/` outside this crate, relative to it.
    outside: &'static [&'static str],
    /// When not empty: the only files and folders of `src/` in this crate.
    only: &'static [&'static str],
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn crates() -> Vec<Crate> {
    let root = workspace();
    vec![
        Crate {
            name: "zarr-reshape",
            src: root.join("src"),
            root: "lib.rs",
            outside: &[],
            only: &[],
        },
        Crate {
            name: "zarr-reshape-vectors",
            src: root.join("spec-cases/src"),
            root: "lib.rs",
            outside: &[],
            only: &[],
        },
        Crate {
            name: "zarr-reshape-harness",
            src: root.join("harness/src"),
            root: "lib.rs",
            outside: &[],
            only: &[],
        },
        Crate {
            name: "zarr-reshape-conformance (library)",
            src: root.join("conformance/src"),
            root: "lib.rs",
            outside: &["main.rs", "cli"],
            only: &[],
        },
        Crate {
            name: "zarr-reshape-conformance (binary)",
            src: root.join("conformance/src"),
            root: "main.rs",
            outside: &[],
            only: &["main.rs", "cli"],
        },
    ]
}

/// Every `.rs` file below `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The module a file of `krate` holds, or `None` when it is not the crate's.
fn module_of(krate: &Crate, file: &Path) -> Option<ModulePath> {
    let relative = file.strip_prefix(&krate.src).unwrap();
    let first = relative.components().next()?.as_os_str().to_string_lossy();
    if krate.outside.contains(&first.as_ref())
        || !(krate.only.is_empty() || krate.only.contains(&first.as_ref()))
    {
        return None;
    }
    if relative == Path::new(krate.root) {
        return Some(Vec::new());
    }
    if relative
        .file_name()
        .is_some_and(|name| name == "lib.rs" || name == "main.rs")
        && relative.parent() == Some(Path::new(""))
    {
        return None;
    }
    let mut path: ModulePath = relative
        .with_extension("")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    Some(path)
}

/// The code of a file: no comment lines, and nothing from an inline unit test
/// module on (a test may use anything of its own crate).
fn code_of(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
    let mut code = String::new();
    for (at, line) in lines.iter().enumerate() {
        if line.starts_with("#[cfg(test)]") {
            let item = lines[at + 1..]
                .iter()
                .find(|next| !next.starts_with("#["))
                .unwrap_or(&"");
            if item.starts_with("mod ") && item.ends_with('{') {
                break;
            }
        }
        if !line.starts_with("//") {
            code.push_str(line);
            code.push('\n');
        }
    }
    code
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a use tree at the start of `text` (`a::b`, `{a, b::{c, d}}`, `a::*`),
/// each as far as it names something; `self` in a group names the group's prefix.
fn use_tree(text: &str) -> Vec<Vec<String>> {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut depth = 0usize;
        let mut items = Vec::new();
        let mut start = 0;
        for (at, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    items.push(&group[start..at]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&group[start..at]);
                    start = at + 1;
                }
                _ => {}
            }
        }
        return items
            .into_iter()
            .filter(|item| !item.trim().is_empty())
            .flat_map(use_tree)
            .collect();
    }
    let ident: String = text.chars().take_while(|c| is_ident(*c)).collect();
    if ident.is_empty() || ident == "self" {
        return vec![Vec::new()];
    }
    let rest = &text[ident.len()..];
    match rest.strip_prefix("::") {
        Some(rest) => use_tree(rest)
            .into_iter()
            .map(|mut path| {
                path.insert(0, ident.clone());
                path
            })
            .collect(),
        None => vec![vec![ident]],
    }
}

/// The absolute paths `code` (of the module `here`) names through `crate::`,
/// `super::` and `self::`.
/// (In `a/mod.rs` as in `a.rs`, `super` is the parent of `a`.)
fn named_paths(code: &str, here: &[String]) -> Vec<ModulePath> {
    let mut paths = Vec::new();
    let starts: Vec<usize> = code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
        .chain(code.match_indices("self::"))
        .map(|(at, _)| at)
        .filter(|at| {
            let before = code[..*at].chars().next_back();
            // Not the tail of another word (`mycrate::`) nor of a chain (`super::super::`).
            !before.is_some_and(|c| is_ident(c) || c == ':')
        })
        .collect();
    for at in starts {
        let mut rest = &code[at..];
        let mut base: ModulePath = here.to_vec();
        if let Some(after) = rest.strip_prefix("crate::") {
            base.clear();
            rest = after;
        } else if let Some(after) = rest.strip_prefix("self::") {
            rest = after;
        } else {
            while let Some(after) = rest.strip_prefix("super::") {
                base.pop();
                rest = after;
            }
        }
        for path in use_tree(rest) {
            let mut absolute = base.clone();
            absolute.extend(path);
            paths.push(absolute);
        }
    }
    paths
}

/// An import between siblings: the importing module, the imported one, and where
/// (file and the path named), for the message.
type Edges = BTreeMap<(String, String), String>;

/// The sibling imports of one crate.
fn imports(krate: &Crate) -> Edges {
    let files: Vec<(PathBuf, ModulePath, String)> = rust_files(&krate.src)
        .into_iter()
        .filter_map(|file| {
            let module = module_of(krate, &file)?;
            let code = code_of(&fs::read_to_string(&file).unwrap());
            Some((file, module, code))
        })
        .collect();
    let modules: BTreeSet<&ModulePath> = files.iter().map(|(_, module, _)| module).collect();
    let mut edges = Edges::new();
    for (file, here, code) in &files {
        for named in named_paths(code, here) {
            // The deepest module the path names.
            let Some(target) = (0..=named.len())
                .rev()
                .map(|len| named[..len].to_vec())
                .find(|prefix| modules.contains(prefix))
            else {
                continue;
            };
            let common = here.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == here.len() || common == target.len() {
                continue;
            }
            let from = here[..=common].join("::");
            let to = target[..=common].join("::");
            let relative = file
                .strip_prefix(workspace())
                .unwrap()
                .display()
                .to_string();
            edges
                .entry((from, to))
                .or_insert_with(|| format!("{relative} names {}", named.join("::")));
        }
    }
    edges
}

/// A circle of imports, if there is one, spelled out edge by edge with where
/// each import is made.
fn circle(edges: &Edges) -> Option<String> {
    let mut graph: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        graph.entry(from).or_default().push(to);
    }
    fn visit<'a>(
        node: &'a str,
        graph: &BTreeMap<&'a str, Vec<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node);
            return Some(circle);
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
    let found = graph
        .keys()
        .find_map(|node| visit(node, &graph, &mut Vec::new(), &mut done))?;
    let steps: Vec<String> = found
        .windows(2)
        .map(|pair| {
            let why = &edges[&(pair[0].to_string(), pair[1].to_string())];
            format!("  {} -> {}   ({why})", pair[0], pair[1])
        })
        .collect();
    Some(format!("{}\n{}", found.join(" -> "), steps.join("\n")))
}

#[test]
fn every_crate_imports_one_way() {
    let mut circles = Vec::new();
    for krate in crates() {
        let edges = imports(&krate);
        println!("{}:", krate.name);
        for (from, to) in edges.keys() {
            println!("  {from} -> {to}");
        }
        assert!(!edges.is_empty(), "{}: no import read", krate.name);
        if let Some(circle) = circle(&edges) {
            circles.push(format!("{}: {circle}", krate.name));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn every_source_file_stays_small() {
    let mut large = Vec::new();
    let mut read = 0;
    for krate in crates() {
        for file in rust_files(&krate.src) {
            if module_of(&krate, &file).is_none() {
                continue;
            }
            read += 1;
            let lines = fs::read_to_string(&file).unwrap().lines().count();
            if lines > MAX_LINES {
                large.push(format!("{} has {lines} lines", file.display()));
            }
        }
    }
    assert!(read > 100, "read only {read} files");
    assert!(
        large.is_empty(),
        "source files over {MAX_LINES} lines (split them by what they do):\n{}",
        large.join("\n")
    );
}

/// The finder itself: a circle through a `super::` group and a `crate::` path is
/// found and spelled out; a child naming its parent is no import.
#[test]
fn the_circle_finder_finds_circles() {
    let here = |path: &str| -> ModulePath { path.split("::").map(String::from).collect() };
    let named = named_paths(
        "use super::{b::Thing, c};\nuse crate::a::x::Y;\nfn f() { super::super::d::g() }",
        &here("a::x"),
    );
    let named: Vec<String> = named.iter().map(|path| path.join("::")).collect();
    assert_eq!(named, ["a::x::Y", "a::b::Thing", "a::c", "d::g"]);
    let edges: Edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
        .into_iter()
        .map(|(from, to)| ((from.to_owned(), to.to_owned()), format!("{from}.rs")))
        .collect();
    let found = circle(&edges).unwrap();
    assert!(found.starts_with("a -> b -> c -> a\n"), "{found}");
    assert!(found.contains("  c -> a   (c.rs)"), "{found}");
    assert_eq!(circle(&Edges::new()), None);
}
