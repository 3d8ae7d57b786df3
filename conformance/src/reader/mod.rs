//! A command-line reader under test (`zarr-reshape run --array-path-reader CMD`):
//! a program that reads one Zarr array, named by `--array_path=PATH`, and prints
//! its elements (`conformance/PROTOCOL.md`, "Command-line readers"), as the
//! zarr-conformance-tests project runs its readers.
//!
//! Each whole-array `read-array` case is one fresh process. Its end becomes an
//! answer of the protocol, judged as an adapter's would be:
//!
//! - exit status 0: an output `{"shape", "data"}`, the printed elements read as
//!   elements of the case's data type (a float rounded once to the type) and
//!   nested in the expected shape when their count fits it (else shape `[count]`);
//!   a printed NaN stands for whichever NaN the vector holds at that place, as a
//!   reader cannot spell a NaN's bits. Output that does not read as elements is an
//!   output without `shape` (`unreadable_output` says why): a wrong answer;
//! - any other exit status: an error without a class (a refusal);
//! - death by a signal: a crash;
//! - past the time limit, or more than [`MAX_STDOUT_BYTES`] of stdout: errored,
//!   the process group killed.
//!
//! Every other case (another operation, a box) is skipped.

mod process;
pub mod values;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use self::process::Ended;
use crate::answer::Answer;
use crate::run::{Implementation, ImplementationInfo};
use crate::vector::{Case, Expectation, Operation};

/// The most stdout one run of a reader may print: 64 MiB. More is an error (the
/// largest fixture prints under 2 kB).
pub const MAX_STDOUT_BYTES: usize = 64 << 20;
/// How much stderr of one run is kept for the report: its last 64 KiB.
pub const MAX_STDERR_BYTES: usize = 64 << 10;

/// A command-line reader (see the module documentation).
#[derive(Debug, Clone)]
pub struct ArrayPathReader {
    argv: Vec<String>,
    info: ImplementationInfo,
    timeout: Duration,
    stderr: String,
}

impl ArrayPathReader {
    /// The reader `argv` (the program, then its first arguments; `--array_path=`
    /// is appended), reported as `name` `version`, each run given `timeout`.
    #[must_use]
    pub fn new(argv: Vec<String>, name: String, version: String, timeout: Duration) -> Self {
        Self {
            argv,
            info: ImplementationInfo {
                name,
                version,
                // What reports show in place of a language: a reader is any program.
                language: "command-line reader".into(),
                operations: vec!["read-array".into()],
                protocol: crate::wire::PROTOCOL_VERSION,
            },
            timeout,
            stderr: String::new(),
        }
    }

    /// The name a report shows when none is given: the file name of the
    /// command's first word.
    #[must_use]
    pub fn default_name(argv: &[String]) -> String {
        argv.first()
            .map(|program| {
                Path::new(program).file_name().map_or_else(
                    || program.clone(),
                    |name| name.to_string_lossy().into_owned(),
                )
            })
            .unwrap_or_else(|| "reader".into())
    }
}

impl Implementation for ArrayPathReader {
    fn info(&self) -> &ImplementationInfo {
        &self.info
    }

    fn run(&mut self, case: &Case) -> Answer {
        let Operation::ReadArray {
            path,
            data_type,
            region,
        } = &case.operation
        else {
            return Answer::Skipped {
                reason: format!(
                    "a command-line reader only reads arrays; this is a {} case",
                    case.operation.name()
                ),
            };
        };
        if region.is_some() {
            return Answer::Skipped {
                reason: "a command-line reader reads whole arrays; this case reads a box \
                         (decoded_region)"
                    .into(),
            };
        }
        let mut argv = self.argv.clone();
        argv.push(format!("--array_path={}", path.display()));
        let (ended, stderr) = process::run(&argv, self.timeout, MAX_STDOUT_BYTES, MAX_STDERR_BYTES);
        self.stderr = stderr;
        match ended {
            Ended::Exited { status, stdout } if status.success() => {
                Answer::Output(output(case, *data_type, &stdout))
            }
            Ended::Exited { status, .. } if status.code().is_some() => Answer::Error {
                class: None,
                chunk: None,
                message: format!(
                    "the reader refused the array: {}; {}",
                    process::describe(status),
                    last_line(&self.stderr)
                ),
            },
            Ended::Exited { status, .. } => Answer::Crashed {
                message: format!(
                    "the reader was {}; {}",
                    process::describe(status),
                    last_line(&self.stderr)
                ),
            },
            Ended::TimedOut => Answer::Errored {
                message: format!(
                    "timeout after {} ms (the reader's process group was killed)",
                    self.timeout.as_millis()
                ),
            },
            Ended::TooMuchOutput => Answer::Errored {
                message: format!(
                    "the reader printed more than {MAX_STDOUT_BYTES} bytes (its process group was killed)"
                ),
            },
            Ended::StdoutHeld => Answer::Errored {
                message: "the reader exited, but its stdout stayed open (held by a process \
                          outside its group)"
                    .into(),
            },
            Ended::NotStarted(message) => Answer::Errored { message },
        }
    }

    fn take_stderr(&mut self) -> String {
        std::mem::take(&mut self.stderr)
    }
}

/// The last non-blank line of `stderr`, or a note that it was empty.
fn last_line(stderr: &str) -> String {
    stderr
        .lines()
        .rev()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map_or_else(
            || "stderr was empty".into(),
            |line| format!("stderr: {line}"),
        )
}

/// The expected elements of the case (its first output expectation), in C order,
/// with the shape they fill.
fn expected(case: &Case) -> Option<(Vec<u64>, Vec<Value>)> {
    fn find(expect: &Expectation) -> Option<&Map<String, Value>> {
        match expect {
            Expectation::Output(output) => Some(output),
            Expectation::AnyOf(options) => options.iter().find_map(find),
            Expectation::Error(_) => None,
        }
    }
    let output = find(&case.expect)?;
    let shape = output
        .get("shape")?
        .as_array()?
        .iter()
        .map(Value::as_u64)
        .collect::<Option<Vec<u64>>>()?;
    Some((shape, values::leaves(output.get("data")?)))
}

/// The protocol output for a reader's stdout (see the module documentation).
fn output(case: &Case, data_type: crate::DataType, stdout: &[u8]) -> Map<String, Value> {
    let mut output = Map::new();
    let expected = expected(case);
    // Memory: at most about twice the expected elements are read (none is
    // expected of an invalid array, where exit status 0 is already wrong).
    let count = expected.as_ref().map_or(0, |(_, want)| want.len());
    let most = count.saturating_mul(2).saturating_add(16);
    let read = std::str::from_utf8(stdout)
        .map_err(|error| format!("stdout is not UTF-8: {error}"))
        .and_then(|text| match values::rough_count(text) {
            rough if rough > most => Err(format!(
                "about {rough} values printed; at most {most} are read (the array holds {count} \
                 expected elements, none for an invalid array)"
            )),
            _ => values::parse(text),
        })
        .and_then(|printed| {
            printed
                .iter()
                .enumerate()
                .map(|(index, value)| {
                    values::element(data_type, value)
                        .map_err(|why| format!("element {index}: {why}"))
                })
                .collect::<Result<Vec<Value>, String>>()
        });
    let mut elements = match read {
        Ok(elements) => elements,
        Err(why) => {
            output.insert("unreadable_output".into(), Value::from(why));
            return output;
        }
    };
    if let Some((_, want)) = &expected {
        // A NaN printed where the vector holds a NaN is that NaN.
        for (got, want) in elements.iter_mut().zip(want) {
            if values::is_nan(data_type, got) && values::is_nan(data_type, want) {
                *got = want.clone();
            }
        }
    }
    let count = u64::try_from(elements.len()).unwrap_or(u64::MAX);
    let shape = match expected {
        Some((shape, want)) if want.len() == elements.len() => shape,
        _ => vec![count],
    };
    match values::nest(&shape, elements) {
        Some(data) => {
            output.insert("shape".into(), Value::from(shape));
            output.insert("data".into(), data);
        }
        None => {
            output.insert(
                "unreadable_output".into(),
                Value::from("the elements do not fill the shape"),
            );
        }
    }
    output
}
