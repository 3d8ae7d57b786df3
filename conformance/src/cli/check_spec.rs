//! `zarr-reshape check-spec`: check spec documents' JSON examples and `shape`
//! fragments, with diagnostics in the style of rustc, as JSON, or as GitHub
//! annotations; `--fix` applies the suggested repairs (see `conformance/CHECK-SPEC.md`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::output::{out, outln};
use crate::check_spec::{self, Report, fix, github, render, replace, source};
use clap::{Args, ValueEnum};

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
    // Several files give a JSON array, each document written once it is checked.
    let array = args.format == Format::Json && args.files.len() > 1;
    let mut first = true;
    if array {
        outln!("[");
    }
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
            Format::Json => {
                let separator = if array && !first { ",\n" } else { "" };
                out!("{separator}{}", render::json_text(&report, &text, &path));
                first = false;
            }
        }
    }
    if array {
        outln!("\n]");
    } else if args.format == Format::Json && !first {
        outln!();
    }
    if unreadable {
        ExitCode::from(2)
    } else if wrong {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Says that `path` cannot be read or fixed: on standard error, its name shown
/// without control characters, and as an `::error` annotation too with
/// `--format github` (escaped as a workflow command's property and message).
fn refuse(path: &str, format: Format, error: &std::io::Error) {
    let shown = render::shown_name(path);
    eprintln!("zarr-reshape check-spec: {shown}: {error}");
    if format == Format::Github {
        outln!(
            "::error file={},title=check-spec::{}",
            github::file_property(path),
            github::data(&format!("{shown}: {error}"))
        );
    }
}

/// The document's text and report (after `--fix`'s repairs, which are then
/// written back and listed), or `None` once a read or write error is printed.
fn checked(file: &Path, repair: bool, format: Format) -> Option<(String, Report)> {
    let path = file.display().to_string();
    let shown = render::shown_name(&path);
    let fail = |error: std::io::Error| refuse(&path, format, &error);
    if repair {
        if let Err(error) = replace::check_target(file) {
            fail(error);
            return None;
        }
    }
    let text = match source::read(file) {
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
                "fixed {shown}:{line}:{column}: {}\n",
                change.message
            )),
            Some(why) => said.push_str(&format!(
                "not fixed {shown}:{line}:{column}: {} ({why})\n",
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
