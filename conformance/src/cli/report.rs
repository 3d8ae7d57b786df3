//! `zarr-reshape report`: any report rebuilt from the JSON-lines records of one or
//! more runs (a CI artifact, say), without running anything again.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::report::escape::terminal as safe;
use crate::report::format::Format;
use crate::report::read;
use clap::{Args, ValueEnum};

use super::output::out;

/// Options of `zarr-reshape report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The report to write: text, markdown and html show several runs (one per
    /// implementation; html and markdown side by side), junit and badge one.
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: ReportFormat,
    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The JSON-lines reports of the runs (`run --report jsonl=RUN.jsonl`).
    #[arg(value_name = "RUN.jsonl", required = true, num_args = 1..)]
    runs: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ReportFormat {
    /// The terminal summary.
    Text,
    /// The Markdown summary (CONFORMANCE.md, `$GITHUB_STEP_SUMMARY`).
    Markdown,
    /// JUnit XML, for CI dashboards (one run).
    Junit,
    /// A self-contained HTML results page.
    Html,
    /// A shields.io endpoint JSON (one run).
    Badge,
}

impl ReportFormat {
    fn format(self) -> Format {
        match self {
            Self::Text => Format::Text,
            Self::Markdown => Format::Markdown,
            Self::Junit => Format::Junit,
            Self::Html => Format::Html,
            Self::Badge => Format::Badge,
        }
    }
}

/// Renders the report; exit 0 when written, 2 when a file cannot be read or the
/// report cannot be written.
pub fn execute(args: &ReportArgs) -> ExitCode {
    match render(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("zarr-reshape report: {}", safe(&message));
            ExitCode::from(2)
        }
    }
}

fn render(args: &ReportArgs) -> Result<(), String> {
    let format = args.format.format();
    if format.one_run_only() && args.runs.len() > 1 {
        return Err(format!(
            "--format {format} describes one implementation, and {} files were given: \
             give one (html, markdown and text take several)",
            args.runs.len()
        ));
    }
    let logs = args
        .runs
        .iter()
        .map(|path| read::read_file(path).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    for (path, log) in args.runs.iter().zip(&logs) {
        if log.footer.is_none() {
            eprintln!(
                "zarr-reshape report: {}: no footer; the run was cut short, and only its cases are counted",
                safe(&path.display().to_string())
            );
        }
    }
    let content = format.render(&logs)?;
    match &args.out {
        Some(path) => std::fs::write(path, content).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            out!("{content}");
            Ok(())
        }
    }
}
