//! What the binary says about itself: `--version` (with the suite it carries),
//! shell completions and the manual page, all generated from the clap definitions.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::{Args, CommandFactory as _};
use clap_complete::Shell;
use zarr_reshape_conformance::PROTOCOL_VERSION;
use zarr_reshape_conformance::vector::{self, embedded};

use super::Cli;
use super::output::{out, outln};
use zarr_reshape_conformance::report::escape::terminal as safe;

/// Options of `zarr-reshape completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// The `--version` text after the program's name (`-V` gives the crate version only): the crate version, then the
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

/// Options of `zarr-reshape man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write a page per command (zarr-reshape.1, zarr-reshape-run.1, ...) into this
    /// existing folder instead; an existing page is not overwritten.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Prints the manual page in roff, or writes every command's page.
pub fn man(args: &ManArgs) -> ExitCode {
    let result = match &args.out {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(manual_command())
                .render(&mut page)
                .map(|()| out!("{}", String::from_utf8_lossy(&page)))
        }
        Some(dir) => write_pages(manual_command(), dir).map(|count| {
            outln!(
                "wrote {count} manual pages to {}",
                safe(&dir.display().to_string())
            );
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("zarr-reshape man: {}", safe(&error.to_string()));
            ExitCode::from(2)
        }
    }
}

/// The command as the pages describe it: built (so that subcommands have their
/// full names), without the `help` subcommand, which every page's --help covers.
fn manual_command() -> clap::Command {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    command
}

/// Writes the page of `command` and of each of its visible subcommands.
fn write_pages(command: clap::Command, dir: &Path) -> io::Result<usize> {
    let mut count: usize = 0;
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        count = count.saturating_add(write_pages(sub.clone(), dir)?);
    }
    let man = clap_mangen::Man::new(command);
    let path = dir.join(man.get_filename());
    let mut page = Vec::new();
    man.render(&mut page)?;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut file| file.write_all(&page))
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(count.saturating_add(1))
}
