//! `zarr-reshape vectors`: list the cases by clause, and validate the files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::output::outln;
use super::suite::SuiteRoot;
use crate::Registry;
use crate::coverage;
use crate::input_file;
use crate::report::escape::terminal as safe;
use crate::report::one_line;
use crate::vector::{self, Case, embedded, export};
use clap::Args;
use serde_json::Value;

/// Options of `zarr-reshape vectors`.
#[derive(Debug, Args)]
pub struct VectorsArgs {
    /// Check every file against vector.schema.json and the suite's cross-file rules.
    #[arg(long)]
    validate: bool,
    /// Write the embedded suite, with a SHA256SUMS manifest, to this new or empty folder.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["validate", "dir"])]
    export: Option<PathBuf>,
    /// The vector folder (with clauses.json and vector.schema.json) [default: the embedded suite].
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Exit 0 when everything loads (and validates), 1 otherwise, 2 when the folder
/// cannot be read.
pub fn execute(args: &VectorsArgs) -> ExitCode {
    if let Some(dir) = &args.export {
        return export(dir);
    }
    let root = match SuiteRoot::or_embedded(args.dir.as_deref(), "`zarr-reshape vectors DIR`") {
        Ok(root) => root,
        Err(error) => {
            eprintln!("zarr-reshape vectors: {error}");
            return ExitCode::from(2);
        }
    };
    let (paths, skipped) = match vector::discover_below(root.path()) {
        Ok(found) => (found.files, found.skipped_links),
        Err(error) => {
            eprintln!(
                "zarr-reshape vectors: {}",
                root.describe(&format!("{}: {error}", root.path().display()))
            );
            return ExitCode::from(2);
        }
    };
    for link in &skipped {
        eprintln!(
            "zarr-reshape vectors: warning: {}: a link to a folder, not followed",
            root.describe(&link.display().to_string())
        );
    }
    let mut problems: Vec<String> = Vec::new();
    let mut files = Vec::new();
    for path in &paths {
        match vector::load_file(path) {
            Ok(cases) => files.push((path.clone(), cases)),
            Err(error) => problems.push(error.to_string()),
        }
    }
    let count: usize = files.iter().map(|(_, cases)| cases.len()).sum();
    if paths.is_empty() {
        eprintln!(
            "zarr-reshape vectors: no vector files below {}: a vector file is a *.json file \
             in a sub-folder of the suite root (the folder holding clauses.json)",
            root.label()
        );
        return ExitCode::FAILURE;
    }
    if args.validate {
        problems.extend(schema_problems(root.path(), &paths));
        match Registry::load(&root.path().join("clauses.json")) {
            Ok(registry) => {
                problems.extend(
                    coverage::check(root.path(), &registry, &files)
                        .iter()
                        .map(ToString::to_string),
                );
            }
            Err(error) => problems.push(error),
        }
    } else {
        list(
            &root,
            paths.len(),
            files.iter().flat_map(|(_, cases)| cases),
        );
    }
    for problem in &problems {
        eprintln!("{}", root.describe(problem));
    }
    if problems.is_empty() {
        if args.validate {
            outln!(
                "{}: {count} cases in {} files: valid",
                root.label(),
                paths.len()
            );
        }
        ExitCode::SUCCESS
    } else {
        eprintln!("{} problems in {} files", problems.len(), paths.len());
        ExitCode::FAILURE
    }
}

fn export(dir: &Path) -> ExitCode {
    match export::export(dir) {
        Ok(exported) => {
            outln!(
                "wrote the {} to {}: {} files ({} vector files) and {}",
                embedded::name(),
                safe(&dir.display().to_string()),
                exported.files,
                exported.vector_files,
                export::MANIFEST
            );
            outln!(
                "check them with: cd {} && sha256sum -c {}",
                safe(&dir.display().to_string()),
                export::MANIFEST
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!(
                "zarr-reshape vectors --export: {}",
                safe(&error.to_string())
            );
            ExitCode::from(2)
        }
    }
}

/// What was found: a summary line, then the cases by clause under test.
fn list<'a>(root: &SuiteRoot, files: usize, cases: impl Iterator<Item = &'a Case>) {
    let mut by_clause: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
    for case in cases {
        by_clause
            .entry(case.clauses.first().map_or("(none)", String::as_str))
            .or_default()
            .push(case);
    }
    let count: usize = by_clause.values().map(Vec::len).sum();
    outln!(
        "{}: {count} cases in {files} files, {} clauses",
        root.label(),
        by_clause.len()
    );
    for (clause, cases) in by_clause {
        outln!("{} ({} cases)", safe(clause), cases.len());
        for case in cases {
            outln!(
                "  {} [{}, {}] {}",
                safe(&case.id),
                safe(&case.level),
                case.operation.name(),
                safe(&one_line(&case.description))
            );
        }
    }
}

/// The largest `vector.schema.json` read: 1 MiB (the suite's is about 10 KiB).
pub const MAX_SCHEMA_BYTES: u64 = 1 << 20;

/// The size limit of one compiled `pattern` of the schema and of its lazy DFA's
/// cache: 1 MiB each (the `regex` crate's own defaults are 10 MiB and 2 MiB).
const MAX_PATTERN_BYTES: usize = 1 << 20;

/// The schema violations reported per vector file: 100, then one line saying
/// more were cut.
const MAX_PROBLEMS_PER_FILE: usize = 100;

/// The longest validation against the schema: 5 s. A schema can cost time
/// exponential in its size (nested `anyOf` over `$ref`s: 2.8 KB ran past 30 s of
/// CPU), which no option of the validator bounds; past this the validation is
/// reported as a problem and left behind, and the command ends (ending its thread).
const MAX_VALIDATION_TIME: std::time::Duration = std::time::Duration::from_secs(5);

/// The schema problems of `paths`, on a thread of their own, given at most
/// [`MAX_VALIDATION_TIME`].
fn schema_problems(root: &Path, paths: &[PathBuf]) -> Vec<String> {
    let schema_path = root.join("vector.schema.json");
    let (root, paths) = (root.to_path_buf(), paths.to_vec());
    let (send, receive) = std::sync::mpsc::channel();
    let started = std::thread::Builder::new()
        .name("schema-validation".into())
        .spawn(move || send.send(validate_all(&root, &paths)));
    if let Err(error) = started {
        return vec![format!("cannot start the schema validation: {error}")];
    }
    receive
        .recv_timeout(MAX_VALIDATION_TIME)
        .unwrap_or_else(|_| {
            vec![format!(
                "{}: validating against it took longer than {} s and was stopped (a schema \
             whose cost grows with its nesting, such as anyOf over $refs, is refused)",
                schema_path.display(),
                MAX_VALIDATION_TIME.as_secs()
            )]
        })
}

fn validate_all(root: &Path, paths: &[PathBuf]) -> Vec<String> {
    let schema_path = root.join("vector.schema.json");
    // The schema is input too: bounded in size, and its patterns compiled by the
    // `regex` engine (linear time, no backtracking) within a size limit.
    let schema = input_file::read_string(&schema_path, MAX_SCHEMA_BYTES)
        .and_then(|text| serde_json::from_str::<Value>(&text).map_err(|e| e.to_string()));
    let patterns = jsonschema::PatternOptions::regex()
        .size_limit(MAX_PATTERN_BYTES)
        .dfa_size_limit(MAX_PATTERN_BYTES);
    let validator = match schema.and_then(|schema| {
        jsonschema::options()
            .with_pattern_options(patterns)
            .build(&schema)
            .map_err(|e| e.to_string())
    }) {
        Ok(validator) => validator,
        Err(error) => return vec![format!("{}: {error}", schema_path.display())],
    };
    let mut problems = Vec::new();
    for path in paths {
        // Only what the loader could read: a FIFO would block, a huge file is refused.
        let Ok(instance) = input_file::read_string(path, vector::MAX_FILE_BYTES)
            .and_then(|text| input_file::parse_json(text.as_bytes(), input_file::MAX_VECTOR_DEPTH))
        else {
            continue; // already reported by the loader
        };
        for (shown, error) in validator.iter_errors(&instance).enumerate() {
            if shown == MAX_PROBLEMS_PER_FILE {
                problems.push(format!(
                    "{}: more problems, not shown (at most {MAX_PROBLEMS_PER_FILE} per file)",
                    path.display()
                ));
                break;
            }
            problems.push(format!(
                "{} at {}: {error}",
                path.display(),
                error.instance_path()
            ));
        }
    }
    problems
}
