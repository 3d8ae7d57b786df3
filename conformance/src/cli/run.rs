//! `zarr-reshape run`: the conformance run.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::output::out;
use crate::ClassCheck;
use crate::reader::ArrayPathReader;
use crate::report::format::Format;
use crate::report::jsonl::{self, Recorder};
use crate::report::record::RunLog;
use crate::report::{read, tested_nothing, text, verdict};
use crate::run::{
    Expectations, Implementation, ImplementationInfo, Reference, RunReport, run_suite,
};
use crate::vector::Case;
use crate::{AdapterOptions, AdapterProcess};
use clap::Args;
use indicatif::ProgressBar;

/// Options of `zarr-reshape run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The adapter command of the implementation under test (split like a shell
    /// would, run without one); without it, the embedded reference runs in-process.
    #[arg(long, value_name = "CMD", conflicts_with = "array_path_reader")]
    adapter: Option<String>,
    /// A command-line reader under test instead (split like --adapter's command):
    /// run once per whole-array read-array case with --array_path=PATH appended,
    /// its elements read from stdout (PROTOCOL.md, "Command-line readers"); every
    /// other case is skipped.
    #[arg(long, value_name = "CMD")]
    array_path_reader: Option<String>,
    /// The name reports give the command-line reader [default: its command's first word].
    #[arg(long, value_name = "NAME", requires = "array_path_reader")]
    reader_name: Option<String>,
    /// The version reports give the command-line reader [default: unknown].
    #[arg(long, value_name = "V", requires = "array_path_reader")]
    reader_version: Option<String>,
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
    /// Also write every case that did not pass (or skip) as an expectations file,
    /// its reasons left as TODO (the runner refuses the file until each is filled
    /// in); FILE must not exist.
    #[arg(long, value_name = "FILE")]
    write_expectations: Option<PathBuf>,
    /// Let a run in which no MUST case ran (every one skipped, or none selected)
    /// pass; without it such a run fails, as it shows nothing of MUST conformance.
    #[arg(long)]
    allow_no_must: bool,
    /// Also write a report: jsonl=PATH, text=PATH, markdown=PATH, junit=PATH, html=PATH or
    /// badge=PATH (repeatable); each is rendered from the run's JSON-lines records.
    #[arg(long = "report", value_name = "FORMAT=PATH")]
    reports: Vec<String>,
    /// Compare error classes even when the adapter names none (an unnamed class fails;
    /// not with --array-path-reader, whose refusals name none).
    #[arg(long, conflicts_with = "array_path_reader")]
    strict_classes: bool,
    /// Per-case timeout, in milliseconds (an adapter's, a reader process's, or the
    /// in-process reference's).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    timeout: u64,
    /// Run this many adapter processes (reader processes, reference threads) in parallel, at most 64.
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
    if let Some(path) = &args.write_expectations {
        super::written::refuse_existing(path)?;
    }
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
    expectations.check_clauses(all)?;
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

    // Ctrl-C, SIGTERM or SIGHUP: the run stops after the case in flight, writes its
    // reports and removes the unpacked suite; a second one ends it at once.
    let interrupted = super::suite::stop_flag();

    let jobs = args.jobs.clamp(1, cases.len());
    let chunk = cases.len().div_ceil(jobs);
    let workers = (0..jobs)
        .map(|_| implementation(args))
        .collect::<Result<Vec<_>, _>>()?;
    let info = workers
        .first()
        .map(|worker| worker.info().clone())
        .ok_or("no worker")?;
    let recorder = Mutex::new(open_recorder(&reports, &info, selection.suite_version())?);
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
                // A thread the system cannot start fails the run with a message, never a panic.
                let worker = std::thread::Builder::new().name(format!("run-worker-{number}"));
                worker.spawn_scoped(scope, move || -> Result<RunReport, String> {
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
            .map(|handle| match handle {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|_| Err("a worker thread panicked".into())),
                Err(error) => Err(format!("cannot start a worker thread: {error}")),
            })
            .collect()
    });
    progress.finish_and_clear();
    let report = merge(outcomes)?;
    // The records hold what the reports need: the run's own copy of each case goes.
    let (interrupted, duration) = (report.interrupted, report.duration);
    drop(report);
    let log = write_reports(recorder, interrupted, duration, stale, &reports, args)?;
    if let Some(path) = &args.write_expectations {
        let written = super::written::write(path, &log)?;
        eprintln!(
            "zarr-reshape run: wrote {written} to {}; fill in each reason (TODO)",
            path.display()
        );
    }
    Ok(log.succeeded() && (!tested_nothing(&log) || args.allow_no_must))
}

/// The verdict line: the reports' `NOT TESTED` (no MUST case ran) becomes the
/// run's own verdict, FAILED unless `--allow-no-must` lets it pass.
fn verdict_line(log: &RunLog, allow_no_must: bool) -> String {
    let verdict = verdict(log);
    match verdict.strip_prefix("NOT TESTED: ") {
        None => verdict,
        Some(why) if allow_no_must => {
            format!("PASSED, as --allow-no-must asked, though {why}")
        }
        Some(why) => format!(
            "FAILED: {why}, so this run shows nothing of MUST conformance \
             (--allow-no-must lets it pass)"
        ),
    }
}

/// The text summary with its verdict line as [`verdict_line`] gives it.
fn with_verdict(summary: String, log: &RunLog, allow_no_must: bool) -> String {
    let old = format!("{}\n", verdict(log));
    match summary.strip_suffix(&old) {
        Some(rest) => format!("{rest}{}\n", verdict_line(log, allow_no_must)),
        None => summary,
    }
}

/// Ends the run's records and renders every report from them: the records go
/// through their JSON-lines text and back, so that a report holds nothing the
/// JSON-lines file does not, and `zarr-reshape report` rebuilds it byte for byte.
fn write_reports(
    recorder: Mutex<Recorder<BufWriter<File>>>,
    interrupted: bool,
    duration: Duration,
    stale: Vec<String>,
    reports: &[(Format, PathBuf)],
    args: &RunArgs,
) -> Result<RunLog, String> {
    let recorder = recorder
        .into_inner()
        .map_err(|_| "the JSON-lines report writer was poisoned".to_string())?;
    let log = recorder
        .finish(interrupted, stale, duration)
        .map_err(|e| format!("writing the JSON-lines report: {e}"))?;
    // One copy of the records at a time: the text, then the records read back.
    let written = jsonl::to_string(&log);
    drop(log);
    let log = read::parse(&written, "the run's records")
        .map_err(|e| format!("the run's own records do not read back: {e}"))?;
    drop(written);
    let logs = std::slice::from_ref(&log);
    for (format, path) in reports {
        if *format == Format::Jsonl {
            continue; // written as the run went
        }
        let mut content = format.render(logs)?;
        if *format == Format::Text {
            content = with_verdict(content, &log, args.allow_no_must);
        }
        std::fs::write(path, content).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    // On the terminal, failures many cases share are one line each (the report
    // files list every case).
    let summary = with_verdict(text::render_terminal(&log), &log, args.allow_no_must);
    out!("{summary}");
    Ok(log)
}

fn parse_report(spec: &str) -> Result<(Format, PathBuf), String> {
    let (format, path) = spec
        .split_once('=')
        .ok_or_else(|| format!("--report takes FORMAT=PATH, got {spec:?}"))?;
    Ok((Format::parse(format)?, PathBuf::from(path)))
}

/// The most workers `--jobs` starts: 64. Each worker is a thread (and an adapter
/// process with three threads of its own); more would not run faster on any
/// machine the suite targets, and thousands can exhaust the system's threads.
pub const MAX_JOBS: usize = 64;

/// `--jobs`: from 1 to [`MAX_JOBS`] workers.
fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => {
            Err("must be at least 1 (the number of adapter processes or reference threads)".into())
        }
        Ok(jobs) if jobs > MAX_JOBS => Err(format!(
            "at most {MAX_JOBS} (the number of adapter processes or reference threads)"
        )),
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
    if let Some(command) = &args.array_path_reader {
        let argv = shlex::split(command)
            .filter(|argv| !argv.is_empty())
            .ok_or_else(|| format!("--array-path-reader {command:?} is not a command line"))?;
        let name = args
            .reader_name
            .clone()
            .unwrap_or_else(|| ArrayPathReader::default_name(&argv));
        let version = args
            .reader_version
            .clone()
            .unwrap_or_else(|| "unknown".into());
        return Ok(Box::new(ArrayPathReader::new(
            argv,
            name,
            version,
            Duration::from_millis(args.timeout),
        )));
    }
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
    suite_version: Option<&str>,
) -> Result<Recorder<BufWriter<File>>, String> {
    let path = reports
        .iter()
        .find(|(format, _)| *format == Format::Jsonl)
        .map(|(_, path)| path);
    let file = path
        .map(|path| File::create(path).map_err(|e| format!("{}: {e}", path.display())))
        .transpose()?;
    Recorder::start(file.map(BufWriter::new), info, suite_version).map_err(|e| {
        format!(
            "{}: {e}",
            path.map(|p| p.display().to_string()).unwrap_or_default()
        )
    })
}

fn progress_bar(len: usize) -> ProgressBar {
    super::progress::bar(
        u64::try_from(len).unwrap_or(u64::MAX),
        "{bar:40} {pos}/{len} cases {elapsed}",
    )
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
