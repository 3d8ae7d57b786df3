//! `zarr-reshape vectors`: list the cases by clause, and validate the files.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::Value;
use zarr_reshape_conformance::coverage;
use zarr_reshape_conformance::registry::Registry;
use zarr_reshape_conformance::report::escape::terminal as safe;
use zarr_reshape_conformance::report::one_line;
use zarr_reshape_conformance::vector::{self, Case};

/// Options of `zarr-reshape vectors`.
#[derive(Debug, Args)]
pub struct VectorsArgs {
    /// Check every file against vector.schema.json and the suite's cross-file rules.
    #[arg(long)]
    validate: bool,
    /// The vector folder (with clauses.json and vector.schema.json) [default: the repository's spec-cases/].
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Exit 0 when everything loads (and validates), 1 otherwise.
pub fn execute(args: &VectorsArgs) -> ExitCode {
    let root = args.dir.clone().unwrap_or_else(super::default_cases);
    let (paths, skipped) = match vector::discover_all(&root) {
        Ok(found) => (found.files, found.skipped_links),
        Err(error) => {
            eprintln!(
                "zarr-reshape vectors: {}",
                safe(&format!("{}: {error}", root.display()))
            );
            return ExitCode::from(2);
        }
    };
    for link in &skipped {
        eprintln!(
            "zarr-reshape vectors: warning: {}: a link to a folder, not followed",
            safe(&link.display().to_string())
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
    if args.validate {
        problems.extend(schema_problems(&root, &paths));
        match Registry::load(&root.join("clauses.json")) {
            Ok(registry) => {
                problems.extend(
                    coverage::check(&root, &registry, &files)
                        .iter()
                        .map(ToString::to_string),
                );
            }
            Err(error) => problems.push(error),
        }
    } else {
        list(files.iter().flat_map(|(_, cases)| cases));
    }
    for problem in &problems {
        eprintln!("{}", safe(problem));
    }
    let count: usize = files.iter().map(|(_, cases)| cases.len()).sum();
    if problems.is_empty() {
        if args.validate {
            println!("{count} cases in {} files: valid", paths.len());
        }
        ExitCode::SUCCESS
    } else {
        eprintln!("{} problems in {} files", problems.len(), paths.len());
        ExitCode::FAILURE
    }
}

fn list<'a>(cases: impl Iterator<Item = &'a Case>) {
    let mut by_clause: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
    for case in cases {
        by_clause
            .entry(case.clauses.first().map_or("(none)", String::as_str))
            .or_default()
            .push(case);
    }
    for (clause, cases) in by_clause {
        println!("{} ({} cases)", safe(clause), cases.len());
        for case in cases {
            println!(
                "  {} [{}, {}] {}",
                safe(&case.id),
                safe(&case.level),
                case.operation.name(),
                safe(&one_line(&case.description))
            );
        }
    }
}

fn schema_problems(root: &std::path::Path, paths: &[PathBuf]) -> Vec<String> {
    let schema_path = root.join("vector.schema.json");
    let schema = std::fs::read_to_string(&schema_path)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str::<Value>(&text).map_err(|e| e.to_string()));
    let validator = match schema
        .and_then(|schema| jsonschema::validator_for(&schema).map_err(|e| e.to_string()))
    {
        Ok(validator) => validator,
        Err(error) => return vec![format!("{}: {error}", schema_path.display())],
    };
    let mut problems = Vec::new();
    for path in paths {
        // Only what the loader could read: a FIFO would block, a huge file is refused.
        let readable = std::fs::metadata(path)
            .is_ok_and(|meta| meta.is_file() && meta.len() <= vector::MAX_FILE_BYTES);
        if !readable {
            continue;
        }
        let Ok(instance) = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| serde_json::from_str::<Value>(&text).map_err(|e| e.to_string()))
        else {
            continue; // already reported by the loader
        };
        for error in validator.iter_errors(&instance) {
            problems.push(format!(
                "{} at {}: {error}",
                path.display(),
                error.instance_path()
            ));
        }
    }
    problems
}
