//! What the binary says about itself: `--version` (with the suite it carries),
//! shell completions and the manual page, all generated from the clap definitions.

use std::process::ExitCode;
use std::sync::OnceLock;

use clap::{Args, CommandFactory as _};
use clap_complete::Shell;
use zarr_reshape_conformance::adapter::protocol::PROTOCOL_VERSION;
use zarr_reshape_conformance::vector::{self, embedded};

use super::Cli;
use super::output::out;

/// Options of `zarr-reshape completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// The `--version` text after the program's name: the crate version, then the
/// suite, vector format, adapter protocol and spec commit, one per line.
pub fn version() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{}\nsuite {}\nvector format {}\nadapter protocol {PROTOCOL_VERSION}\nspec commit {}",
            env!("CARGO_PKG_VERSION"),
            embedded::SUITE_VERSION,
            vector::FORMAT,
            embedded::spec_commit().unwrap_or_else(|| "unknown".into()),
        )
    })
}

/// Prints the completion script for one shell.
pub fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "zarr-reshape", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    ExitCode::SUCCESS
}

/// Prints the manual page, in roff.
pub fn man() -> ExitCode {
    let mut page = Vec::new();
    match clap_mangen::Man::new(Cli::command()).render(&mut page) {
        Ok(()) => {
            out!("{}", String::from_utf8_lossy(&page));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("zarr-reshape man: {error}");
            ExitCode::from(2)
        }
    }
}
