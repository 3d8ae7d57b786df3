//! `zarr-reshape check-spec`: check spec documents' JSON examples and `shape`
//! fragments, with diagnostics in the style of rustc, as JSON, or as GitHub
//! annotations; `--fix` applies the suggested repairs (see `conformance/CHECK-SPEC.md`).

use std::io::IsTerminal;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::output::{out, outln};
use clap::{Args, ValueEnum};
use serde_json::Value;
use zarr_reshape_conformance::check_spec::{self, Report, fix, github, render, replace};

/// Options of `zarr-reshape check-spec`.
#[derive(Debug, Args)]
pub struct CheckSpecArgs {
    /// The markdown documents to check.
    #[arg(value_name = "FILE.md", required = true)]
    files: Vec<PathBuf>,
    /// `human`: diagnostics like a compiler's; `json`: one JSON document for tools
    /// (an array of them for several files); `github`: GitHub Actions annotations.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Apply the suggested repairs to the files in place, say what changed, and
    /// report what is left.
    #[arg(long)]
    fix: bool,
}

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Human,
    Json,
    Github,
}

/// Exit 0 when nothing is wrong (notes and warnings only; with `--fix`, after the
/// repairs), 1 when something is, 2 when a file cannot be read (or fixed).
pub fn execute(args: &CheckSpecArgs) -> ExitCode {
    let mut unreadable = false;
    let mut wrong = false;
    let mut documents: Vec<Value> = Vec::new();
    for file in &args.files {
        let path = file.display().to_string();
        let Some((text, report)) = checked(file, args.fix, args.format) else {
            unreadable = true;
            continue;
        };
        wrong |= !report.is_ok();
        match args.format {
            Format::Human => {
                let styled =
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
                out!("{}", render::human(&report, &text, &path, styled));
            }
            Format::Github => out!("{}", github::annotations(&report, &text, &path)),
            Format::Json => documents.push(render::json(&report, &text, &path)),
        }
    }
    if args.format == Format::Json {
        let single = (documents.len() == 1)
            .then(|| documents.first().cloned())
            .flatten();
        let document = single.unwrap_or(Value::Array(documents));
        match serde_json::to_string_pretty(&document) {
            Ok(json) => outln!("{json}"),
            Err(error) => {
                eprintln!("zarr-reshape check-spec: {error}");
                return ExitCode::from(2);
            }
        }
    }
    if unreadable {
        ExitCode::from(2)
    } else if wrong {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The document's text and report (after `--fix`'s repairs, which are then
/// written back and listed), or `None` once a read or write error is printed.
fn checked(file: &Path, repair: bool, format: Format) -> Option<(String, Report)> {
    let path = file.display().to_string();
    let fail = |error: std::io::Error| {
        eprintln!("zarr-reshape check-spec: {path}: {error}");
    };
    if repair {
        if let Err(error) = replace::check_target(file) {
            fail(error);
            return None;
        }
    }
    let text = match read(file) {
        Ok(Ok(text)) => text,
        // Too large: refused from its size, without reading it.
        Ok(Err(size)) => return Some((String::new(), check_spec::refused(size))),
        Err(error) => {
            fail(error);
            return None;
        }
    };
    if !repair {
        let report = check_spec::check(&text);
        return Some((text, report));
    }
    let fixed = fix::fix(&text);
    let mut said = String::new();
    for change in &fixed.changes {
        let (line, column) = (change.line, change.column);
        match change.skipped {
            None => said.push_str(&format!(
                "fixed {path}:{line}:{column}: {}\n",
                change.message
            )),
            Some(why) => said.push_str(&format!(
                "not fixed {path}:{line}:{column}: {} ({why})\n",
                change.message
            )),
        }
    }
    if fixed.text != text {
        if let Err(error) = replace::replace(file, &text, &fixed.text) {
            fail(error);
            return None;
        }
    }
    // The JSON document stays alone on standard output.
    if format == Format::Json {
        eprint!("{said}");
    } else {
        out!("{said}");
    }
    Some((fixed.text, fixed.report))
}

/// The document's text, or its size when it is over [`check_spec::MAX_DOCUMENT_BYTES`].
fn read(path: &Path) -> std::io::Result<Result<String, u64>> {
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        // A FIFO or a device would block the read, or never end it.
        return Err(std::io::Error::other("not a regular file"));
    }
    let limit = u64::try_from(check_spec::MAX_DOCUMENT_BYTES).unwrap_or(u64::MAX);
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(limit.saturating_add(1))
        .read_to_string(&mut text)?;
    if text.len() <= check_spec::MAX_DOCUMENT_BYTES {
        Ok(Ok(text))
    } else {
        Ok(Err(metadata.len().max(limit.saturating_add(1))))
    }
}
