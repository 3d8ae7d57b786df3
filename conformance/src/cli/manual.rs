//! What the binary says about itself: `--version` (with the suite it carries),
//! shell completions and the manual page, all generated from the clap definitions.

use std::io::{self, Read as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

use crate::PROTOCOL_VERSION;
use crate::vector::{self, embedded};
use crate::write_guard;
use clap::{Args, CommandFactory as _};
use clap_complete::Shell;

use super::Cli;
use super::output::{out, outln};
use crate::report::escape::terminal as safe;

/// Options of `zarr-reshape completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// The `--version` text after the program's name (`-V` gives the crate version only): the crate version, then the
/// suite release (with the vector format of its files), adapter protocol and spec commit, one per line.
pub fn version() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{}\nsuite {} (vector format {})\nadapter protocol {PROTOCOL_VERSION}\nspec commit {}",
            env!("CARGO_PKG_VERSION"),
            embedded::SUITE_VERSION,
            vector::FORMAT,
            embedded::spec_commit().unwrap_or_else(|| "unknown".into()),
        )
    })
}

/// The binary's name, as the shells see it.
const BIN: &str = "zarr-reshape";

/// Prints the completion script for one shell.
pub fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, BIN, &mut script);
    let mut script = String::from_utf8_lossy(&script).into_owned();
    if args.shell == Shell::Bash {
        script = bash_dispatch_fixed(&script);
    }
    out!("{script}");
    ExitCode::SUCCESS
}

/// clap_complete's bash script names a state by the words typed so far: its loop
/// spells `zarr-reshape run` `zarr__reshape__subcmd__run`, but the `case` arms that
/// answer are spelled `zarr__subcmd__reshape__subcmd__run` (the hyphen of a binary's
/// name escaped as a subcommand separator, clap-rs/clap#6421), so no subcommand's
/// flags were ever completed. The arms are respelled as the loop spells them; a
/// script without the misspelling (a fixed clap_complete) is left as it is.
fn bash_dispatch_fixed(script: &str) -> String {
    let state = BIN.replace('-', "__");
    let misspelled = BIN.replace('-', "__subcmd__");
    script
        .lines()
        .map(|line| {
            let arm = line.trim_start();
            if arm.starts_with(&misspelled) && arm.ends_with(')') {
                line.replacen(&misspelled, &state, 1)
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Options of `zarr-reshape man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write a page per command (zarr-reshape.1, zarr-reshape-run.1, ...) into this
    /// folder instead: a new one (its parent must exist) or an existing one. Pages
    /// an earlier `man --out` wrote there are replaced; any other file of a page's
    /// name stops the write before anything is written. Never through a link.
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

/// The largest file of a page's name read to tell whether it is our page.
const MAX_PAGE_BYTES: u64 = 1 << 20;

/// The page of `command` and of each of its visible subcommands: file name, roff.
fn pages(command: clap::Command, into: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        pages(sub.clone(), into)?;
    }
    let man = clap_mangen::Man::new(command);
    let mut page = Vec::new();
    man.render(&mut page)?;
    into.push((man.get_filename(), page));
    Ok(())
}

/// Whether `path` (a regular file) is a page `zarr-reshape man` wrote: its `.TH`
/// line names the page, as `zarr-reshape-run.1` holds `.TH zarr-reshape-run 1`.
fn is_our_page(path: &Path, name: &str) -> bool {
    let mut text = String::new();
    let read = std::fs::File::open(path)
        .and_then(|file| file.take(MAX_PAGE_BYTES).read_to_string(&mut text));
    let title = format!(".TH {} 1 ", name.trim_end_matches(".1"));
    read.is_ok()
        && text.starts_with(".ie \\n(.g .ds Aq")
        && text.lines().take(10).any(|line| line.starts_with(&title))
}

/// Writes every page into `dir`, after checking that each can be written.
fn write_pages(command: clap::Command, dir: &Path) -> io::Result<usize> {
    let mut all = Vec::new();
    pages(command, &mut all)?;
    write_guard::check_folder(dir)?;
    for (name, _) in &all {
        if write_guard::check_file(dir, name)? && !is_our_page(&dir.join(name), name) {
            return Err(io::Error::other(format!(
                "{} exists and is not a page `zarr-reshape man` wrote; nothing was \
                 written. Move it away, or write the pages into a new folder, an empty \
                 one, or one holding only pages this command wrote (they are replaced)",
                dir.join(name).display()
            )));
        }
    }
    write_guard::make_folder(dir)?;
    for (name, page) in &all {
        write_guard::replace_file(dir, name, page)?;
    }
    Ok(all.len())
}
