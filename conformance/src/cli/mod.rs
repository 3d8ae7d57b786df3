//! The command line: one binary, one subcommand per job.

mod output;

mod check_spec;
mod export_bats;
mod fixtures;
mod fuzz;
mod manual;
mod progress;
mod read;
mod report;
mod resolve;
mod run;
mod sample_data;
mod suite;
mod vectors;
mod written;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The `zarr-reshape` command, run on `args` (the first is the program's name, as in
/// [`std::env::args_os`]): what the binary's `main` and the Python package's
/// console script both call, so the two are one program. A command line clap
/// refuses, `--help` and `--version` print as clap does and give its exit code
/// (the caller exits; nothing here ends the process).
pub fn command_line(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    match Cli::try_parse_from(args) {
        Ok(cli) => cli.execute(),
        Err(error) => {
            // Printing to a closed stream is not worth a second error.
            let _ = error.print();
            ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
        }
    }
}

/// Conformance suite and reference tools for the Zarr v3 reshape codec.
#[derive(Debug, Parser)]
#[command(name = "zarr-reshape", version, long_version = manual::version(), about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the conformance vectors against an implementation (default: the embedded reference).
    Run(run::RunArgs),
    /// Rebuild a report (text, markdown, junit, html, badge) from runs' JSON-lines records.
    Report(report::ReportArgs),
    /// Serve the reference implementation over the adapter protocol on stdin and stdout.
    Adapter,
    /// Read one Zarr array with the reference and print its elements, one JSON value a line (a command-line reader).
    Read(read::ReadArgs),
    /// Write the array fixtures as a bats suite in zarr-conformance-tests' layout (or check one with --check).
    ExportBats(export_bats::ExportBatsArgs),
    /// Resolve one configuration against a decoded shape, explained clause by clause.
    Resolve(resolve::ResolveArgs),
    /// List the vectors by clause, validate them, or export the embedded suite.
    Vectors(vectors::VectorsArgs),
    /// Check a spec document's JSON examples and `shape` fragments, like a compiler.
    CheckSpec(check_spec::CheckSpecArgs),
    /// Write the Zarr array fixtures and their read-array vectors (or check them with --check).
    Fixtures(fixtures::FixturesArgs),
    /// Fuzz an implementation against the reference; disagreements come back shrunk, as vectors.
    Fuzz(fuzz::FuzzArgs),
    /// Print a shell completion script, e.g. `zarr-reshape completions bash > zarr-reshape.bash`.
    Completions(manual::CompletionsArgs),
    /// Print the manual page (roff), e.g. `zarr-reshape man > zarr-reshape.1`, or write every page with --out.
    Man(manual::ManArgs),
}

impl Cli {
    /// Runs the chosen subcommand.
    fn execute(self) -> ExitCode {
        let code = match self.command {
            Command::Run(args) => run::execute(&args),
            Command::Report(args) => report::execute(&args),
            Command::Adapter => {
                let stdin = std::io::stdin().lock();
                let stdout = std::io::stdout().lock();
                match crate::serve::serve(stdin, stdout) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(error) => {
                        eprintln!("zarr-reshape adapter: {error}");
                        ExitCode::FAILURE
                    }
                }
            }
            Command::Read(args) => read::execute(&args),
            Command::ExportBats(args) => export_bats::execute(&args),
            Command::Resolve(args) => resolve::execute(&args),
            Command::Vectors(args) => vectors::execute(&args),
            Command::CheckSpec(args) => check_spec::execute(&args),
            Command::Fixtures(args) => fixtures::execute(&args),
            Command::Fuzz(args) => fuzz::execute(&args),
            Command::Completions(args) => manual::completions(&args),
            Command::Man(args) => manual::man(&args),
        };
        if output::failed() {
            ExitCode::from(2)
        } else {
            code
        }
    }
}
