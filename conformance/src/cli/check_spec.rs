//! `zarr-reshape check-spec`: check a spec document's JSON examples and `shape`
//! fragments, with diagnostics in the style of rustc (see `conformance/CHECK-SPEC.md`).

use std::io::IsTerminal;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::output::{out, outln};
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
    let (text, report) = match read(&args.file) {
        Ok(Ok(text)) => {
            let report = check_spec::check(&text);
            (text, report)
        }
        // Too large: refused from its size, without reading it.
        Ok(Err(size)) => (String::new(), check_spec::refused(size)),
        Err(error) => {
            eprintln!("zarr-reshape check-spec: {}: {error}", args.file.display());
            return ExitCode::from(2);
        }
    };
    let path = args.file.display().to_string();
    match args.format {
        Format::Human => {
            let styled = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            out!("{}", render::human(&report, &text, &path, styled));
        }
        Format::Json => match serde_json::to_string_pretty(&render::json(&report, &text, &path)) {
            Ok(json) => outln!("{json}"),
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
