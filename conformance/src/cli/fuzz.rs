//! `zarr-reshape fuzz`: generated cases against an implementation and the
//! reference; every new kind of disagreement shrunk and printed as a vector.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::output::{out, outln};
use crate::OPERATIONS;
use crate::differential::{Finding, FuzzOptions, Silencer, Summary, check_operations, fuzz};
use crate::run::{Implementation, Reference};
use crate::write_guard;
use crate::{AdapterOptions, AdapterProcess};
use clap::Args;
use clap::builder::PossibleValuesParser;
use indicatif::ProgressBar;

/// How many times a crashed or hung adapter is restarted in one fuzzing run: a
/// fuzzer looks for crashes, so more than `run`'s 3; past it every case is errored.
pub const FUZZ_RESTART_BUDGET: u32 = 100;

/// The per-case timeout of an adapter unless `--timeout` says otherwise, as `run`'s.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// Options of `zarr-reshape fuzz`.
#[derive(Debug, Args)]
pub struct FuzzArgs {
    /// The adapter command of the implementation under test (split like a shell
    /// would, run without one); without it, the embedded reference is fuzzed
    /// against itself in-process (a measure of the generator's speed).
    #[arg(long, value_name = "CMD")]
    adapter: Option<String>,
    /// The seed [default: from the clock, printed so the run can be replayed].
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The most generated cases (shrinking steps not counted).
    #[arg(long = "cases", value_name = "N", default_value_t = 10_000)]
    cases: u32,
    /// The most seconds; the case in flight and a shrink under way finish first.
    #[arg(long = "time", value_name = "S")]
    time: Option<f64>,
    /// The implementation's known divergences (the TOML file of `run --expectations`):
    /// a finding whose first clause is a listed clause, or whose id matches a listed
    /// id as a glob, is known, and does not fail the run when it ended in the
    /// entry's outcome (as in `run`: one listed as fail does not excuse a crash).
    #[arg(long, value_name = "FILE")]
    expectations: Option<PathBuf>,
    /// Also write each shrunk vector to `DIR/<clause>/<name>.json` (DIR is made if
    /// missing, its parent must exist; nothing is written through a link).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Only these operations, comma-separated; each must be one the adapter lists
    /// in its start answer [default: all it lists of these five].
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        value_parser = PossibleValuesParser::new(OPERATIONS),
    )]
    operations: Vec<String>,
    /// Per-case timeout for the adapter, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_TIMEOUT_MS)]
    timeout: u64,
}

/// Fuzzes; exit 0 with no unsilenced finding, 1 with one, 2 when it cannot start.
pub fn execute(args: &FuzzArgs) -> ExitCode {
    match prepare_and_fuzz(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("zarr-reshape fuzz: {message}");
            ExitCode::from(2)
        }
    }
}

fn prepare_and_fuzz(args: &FuzzArgs) -> Result<bool, String> {
    let silencer = match &args.expectations {
        Some(path) => Silencer::load(path)?,
        None => Silencer::default(),
    };
    let time = match args.time {
        Some(seconds) => Some(
            Duration::try_from_secs_f64(seconds).map_err(|e| format!("--time {seconds}: {e}"))?,
        ),
        None => None,
    };
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    if let Some(out) = &args.out {
        // Checked before the run, not after it: a link or a file there is refused.
        write_guard::check_folder(out).map_err(|e| format!("--out {e}"))?;
    }
    let mut implementation = implementation(args)?;
    // Before any case runs: an operation the adapter does not list would be
    // dropped, and the run would fuzz the others (or resolve) in its place.
    check_operations(&args.operations, &implementation.info().operations)?;
    let options = FuzzOptions {
        seed,
        cases: args.cases,
        time,
        operations: (!args.operations.is_empty()).then(|| args.operations.clone()),
    };
    // Ctrl-C, SIGTERM or SIGHUP: the case in flight finishes, then the summary.
    let interrupted = super::suite::stop_flag();
    let bar = progress_bar(args.cases);
    let summary = fuzz(implementation.as_mut(), &options, &silencer, |progress| {
        bar.set_position(progress.cases);
        let shrinking = if progress.shrinking {
            ", shrinking"
        } else {
            ""
        };
        bar.set_message(format!("{} disagreement(s){shrinking}", progress.findings));
        !interrupted.load(Ordering::SeqCst)
    });
    bar.finish_and_clear();
    for (number, finding) in summary.findings.iter().enumerate() {
        out!("{}", finding_text(number, finding));
        if let Some(out) = &args.out {
            // Below --out only, through no link (see write_guard).
            write_guard::make_folder(out).map_err(|e| e.to_string())?;
            let path = write_guard::replace_file(
                out,
                &finding.file_name(),
                finding.vector_file().as_bytes(),
            )
            .map_err(|e| e.to_string())?;
            outln!("written to {}", path.display());
        }
    }
    out!("{}", summary_text(&summary, seed, args));
    Ok(summary.succeeded() && !summary.interrupted)
}

fn implementation(args: &FuzzArgs) -> Result<Box<dyn Implementation>, String> {
    let Some(command) = &args.adapter else {
        return Ok(Box::new(Reference::default()));
    };
    let argv = shlex::split(command)
        .filter(|argv| !argv.is_empty())
        .ok_or_else(|| format!("--adapter {command:?} is not a command line"))?;
    let options = AdapterOptions {
        timeout: Duration::from_millis(args.timeout),
        restart_budget: FUZZ_RESTART_BUDGET,
        ..AdapterOptions::default()
    };
    Ok(Box::new(AdapterProcess::start(&argv, options)?))
}

fn progress_bar(cases: u32) -> ProgressBar {
    super::progress::bar(
        u64::from(cases),
        "{bar:30} {pos}/{len} cases {per_sec} {msg} {elapsed}",
    )
}

fn finding_text(number: usize, finding: &Finding) -> String {
    let status = match (finding.silenced(), &finding.known, finding.fatal()) {
        (Some(reason), _, _) => format!("known divergence: {reason}"),
        (None, Some(known), _) => format!(
            "fails the run: ended in {}, but the expectations file lists it as {} ({})",
            finding.outcome.name(),
            known.outcome,
            known.reason
        ),
        (None, None, true) => "fails the run".into(),
        (None, None, false) => format!("reported ({} level, not fatal)", finding.case.level),
    };
    format!(
        "disagreement {}: {} [{status}]\n  {}\n  implementation answered: {}\n  shrunk in {} steps, {:.2} s\n--- {}\n{}",
        number.saturating_add(1),
        finding.case.id,
        finding.outcome,
        finding.answer.to_json(),
        finding.shrink_steps,
        finding.shrink_time.as_secs_f64(),
        finding.file_name(),
        finding.vector_file(),
    )
}

fn summary_text(summary: &Summary, seed: u64, args: &FuzzArgs) -> String {
    let info = &summary.implementation;
    let known = summary
        .findings
        .iter()
        .filter(|f| f.silenced().is_some())
        .count();
    let fatal = summary.findings.iter().filter(|f| f.fatal()).count();
    let mut text = format!(
        "fuzz: {} cases against {} {} ({}) in {:.1} s, {:.0} cases/s, seed {seed}\n\
         {} disagreeing case(s) of {} kind(s): {fatal} fail the run, {known} known; {} skipped\n",
        summary.cases,
        info.name,
        info.version,
        info.language,
        summary.elapsed.as_secs_f64(),
        summary.rate(),
        summary.disagreements,
        summary.findings.len(),
        summary.skipped,
    );
    for fault in &summary.generator_faults {
        text.push_str(&format!("generator fault (a bug of the fuzzer): {fault}\n"));
    }
    if summary.interrupted {
        text.push_str("interrupted\n");
    }
    let adapter = args
        .adapter
        .as_deref()
        .map(|command| {
            format!(
                " --adapter {}",
                shlex::try_quote(command).unwrap_or_default()
            )
        })
        .unwrap_or_default();
    let mut options = String::new();
    if let Some(path) = &args.expectations {
        options.push_str(&format!(" --expectations {}", path.display()));
    }
    if !args.operations.is_empty() {
        options.push_str(&format!(" --operations {}", args.operations.join(",")));
    }
    if args.timeout != DEFAULT_TIMEOUT_MS {
        options.push_str(&format!(" --timeout {}", args.timeout));
    }
    text.push_str(&format!(
        "replay: zarr-reshape fuzz{adapter} --seed {seed} --cases {}{options}\n",
        summary.cases
    ));
    text
}
