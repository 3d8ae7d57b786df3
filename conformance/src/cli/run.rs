//! `zarr-reshape run`: the conformance run.

use std::fs::File;
use std::io::{BufWriter, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::output::out;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use zarr_reshape_conformance::ClassCheck;
use zarr_reshape_conformance::report::format::Format;
use zarr_reshape_conformance::report::jsonl::{self, Recorder};
use zarr_reshape_conformance::report::{read, text};
use zarr_reshape_conformance::run::{
    Expectations, Implementation, ImplementationInfo, Reference, RunReport, run_suite,
};
use zarr_reshape_conformance::vector::{self, Case};
use zarr_reshape_conformance::{AdapterOptions, AdapterProcess};

/// Options of `zarr-reshape run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The adapter command of the implementation under test (split like a shell
    /// would, run without one); without it, the embedded reference runs in-process.
    #[arg(long, value_name = "CMD")]
    adapter: Option<String>,
    /// A suite folder, a folder below one, a vector file, or a clause id such as
    /// input-dims.prefix (its cases in the embedded suite) [default: the embedded suite].
    #[arg(long = "cases", value_name = "DIR|FILE|CLAUSE", num_args = 1..)]
    cases: Vec<PathBuf>,
    /// Only cases whose id matches this glob, e.g. 'input-dims.*'.
    #[arg(long, value_name = "GLOB")]
    filter: Option<String>,
    /// The implementation's known failures (TOML), each with a reason.
    #[arg(long, value_name = "FILE")]
    expectations: Option<PathBuf>,
    /// Also write a report: jsonl=PATH, text=PATH, markdown=PATH, junit=PATH, html=PATH or
    /// badge=PATH (repeatable); each is rendered from the run's JSON-lines records.
    #[arg(long = "report", value_name = "FORMAT=PATH")]
    reports: Vec<String>,
    /// Compare error classes even when the adapter names none (an unnamed class fails).
    #[arg(long)]
    strict_classes: bool,
    /// Per-case timeout, in milliseconds (an adapter's, or the in-process reference's).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    timeout: u64,
    /// Run this many adapter processes (or reference threads) in parallel.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_jobs)]
    jobs: usize,
}

/// Runs the suite; exit 0 on success, 1 when the run fails, 2 when it cannot start.
pub fn execute(args: &RunArgs) -> ExitCode {
    match prepare_and_run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("zarr-reshape run: {message}");
            ExitCode::from(2)
        }
    }
}

fn prepare_and_run(args: &RunArgs) -> Result<bool, String> {
    let reports = args
        .reports
        .iter()
        .map(|spec| parse_report(spec))
        .collect::<Result<Vec<_>, _>>()?;
    // Kept until the run ends: adapters read the embedded suite's fixtures from it.
    let selection = super::suite::select(&args.cases)?;
    for line in &selection.resolved {
        eprintln!("cases: {line}");
    }
    let all = &selection.cases;
    let expectations = match &args.expectations {
        Some(path) => Expectations::load(path)?,
        None => Expectations::default(),
    };
    let ids: Vec<&str> = all.iter().map(|case| case.id.as_str()).collect();
    let stale = expectations.missing_from(&ids);
    let cases = filter_cases(all.clone(), args.filter.as_deref())?;
    if cases.is_empty() {
        return Err("no case matches".into());
    }
    let classes = if args.strict_classes {
        ClassCheck::Strict
    } else {
        ClassCheck::WhenNamed
    };

    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupted);
    // A second Ctrl-C while the handler is installed is ignored; the run stops after the case in flight.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));

    let jobs = args.jobs.clamp(1, cases.len());
    let chunk = cases.len().div_ceil(jobs);
    let workers = (0..jobs)
        .map(|_| implementation(args))
        .collect::<Result<Vec<_>, _>>()?;
    let info = workers
        .first()
        .map(|worker| worker.info().clone())
        .ok_or("no worker")?;
    let recorder = Mutex::new(open_recorder(&reports, &info)?);
    let progress = progress_bar(cases.len());
    let outcomes: Vec<Result<RunReport, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .zip(workers)
            .enumerate()
            .map(|(number, (part, mut implementation))| {
                let (progress, recorder, interrupted) = (&progress, &recorder, &interrupted);
                let expectations = &expectations;
                // The index of each case in the selection, for its JSON-lines record.
                let mut index = number.saturating_mul(chunk);
                scope.spawn(move || -> Result<RunReport, String> {
                    Ok(run_suite(
                        implementation.as_mut(),
                        part,
                        expectations,
                        classes,
                        |record| {
                            progress.inc(1);
                            if let Ok(mut recorder) = recorder.lock() {
                                recorder.case(record, index);
                            }
                            index = index.saturating_add(1);
                            !interrupted.load(Ordering::SeqCst)
                        },
                    ))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|_| Err("a worker thread panicked".into()))
            })
            .collect()
    });
    progress.finish_and_clear();
    let report = merge(outcomes)?;
    write_reports(recorder, &report, stale, &reports)
}

/// Ends the run's records and renders every report from them: the records go
/// through their JSON-lines text and back, so that a report holds nothing the
/// JSON-lines file does not, and `zarr-reshape report` rebuilds it byte for byte.
fn write_reports(
    recorder: Mutex<Recorder<BufWriter<File>>>,
    report: &RunReport,
    stale: Vec<String>,
    reports: &[(Format, PathBuf)],
) -> Result<bool, String> {
    let recorder = recorder
        .into_inner()
        .map_err(|_| "the JSON-lines report writer was poisoned".to_string())?;
    let log = recorder
        .finish(report.interrupted, stale, report.duration)
        .map_err(|e| format!("writing the JSON-lines report: {e}"))?;
    let log = read::parse(&jsonl::to_string(&log), "the run's records")
        .map_err(|e| format!("the run's own records do not read back: {e}"))?;
    let logs = std::slice::from_ref(&log);
    for (format, path) in reports {
        if *format == Format::Jsonl {
            continue; // written as the run went
        }
        let content = format.render(logs)?;
        std::fs::write(path, content).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    out!("{}", text::render(&log));
    Ok(log.succeeded())
}

fn parse_report(spec: &str) -> Result<(Format, PathBuf), String> {
    let (format, path) = spec
        .split_once('=')
        .ok_or_else(|| format!("--report takes FORMAT=PATH, got {spec:?}"))?;
    Ok((Format::parse(format)?, PathBuf::from(path)))
}

/// `--jobs`: at least one worker.
fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => {
            Err("must be at least 1 (the number of adapter processes or reference threads)".into())
        }
        Ok(jobs) => Ok(jobs),
        Err(error) => Err(format!("{error}; give a whole number from 1")),
    }
}

fn filter_cases(cases: Vec<Case>, filter: Option<&str>) -> Result<Vec<Case>, String> {
    let Some(filter) = filter else {
        return Ok(cases);
    };
    let pattern = glob::Pattern::new(filter).map_err(|e| format!("--filter {filter:?}: {e}"))?;
    Ok(cases
        .into_iter()
        .filter(|case| pattern.matches(&case.id))
        .collect())
}

fn implementation(args: &RunArgs) -> Result<Box<dyn Implementation + Send>, String> {
    let Some(command) = &args.adapter else {
        return Ok(Box::new(Reference::with_timeout(Duration::from_millis(
            args.timeout,
        ))));
    };
    let argv = shlex::split(command)
        .filter(|argv| !argv.is_empty())
        .ok_or_else(|| format!("--adapter {command:?} is not a command line"))?;
    let options = AdapterOptions {
        timeout: Duration::from_millis(args.timeout),
        ..AdapterOptions::default()
    };
    Ok(Box::new(AdapterProcess::start(&argv, options)?))
}

/// The run's records, streamed to the JSON-lines file when one is asked for.
fn open_recorder(
    reports: &[(Format, PathBuf)],
    info: &ImplementationInfo,
) -> Result<Recorder<BufWriter<File>>, String> {
    let path = reports
        .iter()
        .find(|(format, _)| *format == Format::Jsonl)
        .map(|(_, path)| path);
    let file = path
        .map(|path| File::create(path).map_err(|e| format!("{}: {e}", path.display())))
        .transpose()?;
    Recorder::start(file.map(BufWriter::new), info, vector::FORMAT).map_err(|e| {
        format!(
            "{}: {e}",
            path.map(|p| p.display().to_string()).unwrap_or_default()
        )
    })
}

fn progress_bar(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(u64::try_from(len).unwrap_or(u64::MAX));
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} cases {elapsed}") {
        bar.set_style(style);
    }
    bar
}

/// Joins the reports of the workers, in case order.
fn merge(parts: Vec<Result<RunReport, String>>) -> Result<RunReport, String> {
    let mut parts = parts.into_iter();
    let mut report = parts.next().ok_or("no worker ran")??;
    for part in parts {
        let part = part?;
        report.records.extend(part.records);
        report.interrupted |= part.interrupted;
        report.duration = report.duration.max(part.duration);
    }
    Ok(report)
}
