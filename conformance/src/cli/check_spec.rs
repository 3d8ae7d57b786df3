//! `zarr-reshape check-spec`: check a spec document's JSON examples and `shape`
//! fragments, with diagnostics in the style of rustc (see `conformance/CHECK-SPEC.md`).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use zarr_reshape_conformance::check_spec::{self, render};

/// Options of `zarr-reshape check-spec`.
#[derive(Debug, Args)]
pub struct CheckSpecArgs {
    /// The markdown document to check.
    #[arg(value_name = "FILE.md")]
    file: PathBuf,
    /// `human`: diagnostics like a compiler's; `json`: one JSON document for tools.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Human,
    Json,
}

/// Exit 0 when nothing is wrong (notes and warnings only), 1 when something is,
/// 2 when the file cannot be read.
pub fn execute(args: &CheckSpecArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("zarr-reshape check-spec: {}: {error}", args.file.display());
            return ExitCode::from(2);
        }
    };
    let path = args.file.display().to_string();
    let report = check_spec::check(&text);
    match args.format {
        Format::Human => {
            let styled = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            print!("{}", render::human(&report, &text, &path, styled));
        }
        Format::Json => match serde_json::to_string_pretty(&render::json(&report, &text, &path)) {
            Ok(json) => println!("{json}"),
            Err(error) => {
                eprintln!("zarr-reshape check-spec: {error}");
                return ExitCode::from(2);
            }
        },
    }
    if report.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
