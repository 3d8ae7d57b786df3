//! Reads a JSON-lines report back into its records, for `zarr-reshape report`.
//!
//! The file is hostile: lines, line count and file size are bounded, every line is
//! checked against the layout (unknown members and values refused), the case lines
//! must agree with themselves (`breaks_run`, `reason`) and with the footer's counts,
//! and only formats [`FORMAT`] and 3 are read (a format 3 header's `suite_version`
//! is the vector format: it is read as such, the suite release as unknown). Every
//! error names the file and the line.

use std::collections::BTreeSet;
use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::wire::ALL_OPERATIONS;

use super::breaks_run;
use super::record::{CaseLine, FORMAT, Footer, Header, Implementation, LEVELS, RunLog, Runner};

/// The largest file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 512 << 20;
/// The longest line read, in bytes (an answer line of an adapter is at most
/// 16 MiB, the vector file of its expectation too).
pub const MAX_LINE_BYTES: usize = 64 << 20;
/// The most case lines read (the embedded suite has a few thousand cases).
pub const MAX_CASE_LINES: usize = 1_000_000;

const OUTCOMES: [&str; 5] = ["pass", "fail", "error", "crash", "skip"];
const LISTED: [&str; 3] = ["fail", "error", "crash"];

/// The bounds of a read; [`Limits::default`] holds the constants above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest file, in bytes.
    pub file_bytes: u64,
    /// The longest line, in bytes, without its line break.
    pub line_bytes: usize,
    /// The most case lines.
    pub case_lines: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            file_bytes: MAX_FILE_BYTES,
            line_bytes: MAX_LINE_BYTES,
            case_lines: MAX_CASE_LINES,
        }
    }
}

/// A report that cannot be read: which file, which line (from 1), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The file, as named by the caller.
    pub source: String,
    /// The line, from 1; `None` for the whole file.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.source, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads the report at `path`.
///
/// # Errors
/// As [`read`]; also when the file cannot be opened or is not a regular file.
pub fn read_file(path: &Path) -> Result<RunLog, ReadError> {
    let source = path.display().to_string();
    let fail = |message: String| ReadError {
        source: source.clone(),
        line: None,
        message,
    };
    // Refused unread: not a regular file, on /proc or /sys, beyond the limit.
    let file = crate::input_file::open(path, MAX_FILE_BYTES).map_err(fail)?;
    read(BufReader::new(file), &source)
}

/// Reads a report from `text`, named `source` in errors.
///
/// # Errors
/// As [`read`].
pub fn parse(text: &str, source: &str) -> Result<RunLog, ReadError> {
    read(text.as_bytes(), source)
}

/// Reads a report, named `source` in errors.
///
/// # Errors
/// A line that is too long, not JSON, not of the layout, or out of place (the
/// header first, the footer last); a header of another format; more than
/// [`MAX_CASE_LINES`] cases or [`MAX_FILE_BYTES`] bytes; case lines that contradict
/// themselves or the footer.
pub fn read(reader: impl BufRead, source: &str) -> Result<RunLog, ReadError> {
    read_limited(reader, source, Limits::default())
}

/// Reads a report within `limits`, named `source` in errors.
///
/// # Errors
/// As [`read`], with the bounds of `limits`.
pub fn read_limited(
    reader: impl BufRead,
    source: &str,
    limits: Limits,
) -> Result<RunLog, ReadError> {
    let mut reader = reader.take(limits.file_bytes.saturating_add(1));
    let mut header: Option<Header> = None;
    let mut cases: Vec<CaseLine> = Vec::new();
    let mut footer: Option<Footer> = None;
    let mut buffer = Vec::new();
    let mut number: usize = 0;
    let mut total: u64 = 0;
    loop {
        buffer.clear();
        let limit = u64::try_from(limits.line_bytes.saturating_add(2)).unwrap_or(u64::MAX);
        let read = (&mut reader)
            .take(limit)
            .read_until(b'\n', &mut buffer)
            .map_err(|e| at(source, number.saturating_add(1), e.to_string()))?;
        if read == 0 {
            break;
        }
        number = number.saturating_add(1);
        total = total.saturating_add(u64::try_from(read).unwrap_or(u64::MAX));
        let fail = |message: String| at(source, number, message);
        if total > limits.file_bytes {
            return Err(fail(format!(
                "the file is longer than {} bytes",
                limits.file_bytes
            )));
        }
        let line = buffer.strip_suffix(b"\n").unwrap_or(&buffer);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > limits.line_bytes {
            return Err(fail(format!(
                "a line longer than {} bytes",
                limits.line_bytes
            )));
        }
        // The depth the runner may write (a rank-256 array in a record), not serde_json's 128.
        let value = crate::input_file::parse_json(line, crate::input_file::MAX_RECORD_DEPTH)
            .map_err(|e| fail(format!("not a JSON line: {e}")))?;
        let kind = value
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if footer.is_some() {
            return Err(fail("a line after the footer".into()));
        }
        match (kind, &header) {
            ("header", None) => header = Some(read_header(value).map_err(fail)?),
            (_, None) => {
                return Err(fail(format!(
                    "the first line is not a header (its type is {})",
                    quoted(kind)
                )));
            }
            ("header", Some(_)) => return Err(fail("a second header".into())),
            ("case", Some(_)) => {
                if cases.len() >= limits.case_lines {
                    return Err(fail(format!("more than {} case lines", limits.case_lines)));
                }
                cases.push(read_case(value).map_err(fail)?);
            }
            ("footer", Some(_)) => footer = Some(lenient::<Footer>(value).map_err(fail)?),
            (other, Some(_)) => {
                return Err(fail(format!(
                    "unknown line type {} (header, case, footer)",
                    quoted(other)
                )));
            }
        }
    }
    let Some(header) = header else {
        return Err(at_file(source, "empty: no header line".into()));
    };
    let mut indices = BTreeSet::new();
    if let Some(case) = cases.iter().find(|case| !indices.insert(case.index)) {
        return Err(at_file(
            source,
            format!("two case lines have the index {}", case.index),
        ));
    }
    cases.sort_by_key(|case| case.index);
    if let Some(found) = &footer {
        let fresh = Footer::of(
            &cases,
            found.interrupted,
            found.stale_expectations.clone(),
            found.duration_ms,
        );
        if fresh != *found {
            return Err(at(
                source,
                number,
                format!(
                    "the footer disagrees with the {} case lines above it (counts, levels or succeeded): \
                     the file was edited, or lines of two runs were joined",
                    cases.len()
                ),
            ));
        }
    }
    Ok(RunLog {
        header,
        cases,
        footer,
    })
}

fn read_header(value: Value) -> Result<Header, String> {
    let format = value.get("format").and_then(Value::as_u64);
    match format {
        Some(FORMAT) => lenient(value),
        // The same lines but the header, whose `suite_version` was the vector format.
        Some(3) => lenient::<HeaderFormat3>(value).map(HeaderFormat3::upgrade),
        Some(old @ (1 | 2)) => Err(format!(
            "report format {old} was written by an older zarr-reshape: it lacks the case \
             descriptions and inputs that reports show (format {FORMAT}); run the suite again \
             with this version to get a format {FORMAT} file"
        )),
        Some(other) => Err(format!(
            "report format {other} is not one this zarr-reshape reads (format {FORMAT}); \
             a newer zarr-reshape may read it"
        )),
        None => Err("the header has no format version (a whole number)".into()),
    }
}

/// The header line of report format 3, whose `suite_version` was the vector format.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderFormat3 {
    #[serde(rename = "type")]
    kind: String,
    format: u64,
    implementation: Implementation,
    /// The vector format (not the suite release, which format 3 did not record).
    suite_version: u64,
    runner: Runner,
}

impl HeaderFormat3 {
    /// The header as read: the vector format is known, the suite release is not
    /// (`format` stays 3, so the reports say so).
    fn upgrade(self) -> Header {
        Header {
            kind: self.kind,
            format: self.format,
            implementation: self.implementation,
            suite_version: None,
            vector_format: self.suite_version,
            runner: self.runner,
        }
    }
}

fn read_case(value: Value) -> Result<CaseLine, String> {
    let case: CaseLine = lenient(value)?;
    let id = quoted(&case.id);
    let one_of = |what: &str, value: &str, allowed: &[&str]| {
        if allowed.contains(&value) {
            Ok(())
        } else {
            Err(format!(
                "case {id}: unknown {what} {} ({})",
                quoted(value),
                allowed.join(", ")
            ))
        }
    };
    one_of("level", &case.level, &LEVELS)?;
    one_of("outcome", &case.outcome, &OUTCOMES)?;
    one_of("operation", &case.operation, &ALL_OPERATIONS)?;
    if let Some(listed) = &case.known_outcome {
        one_of("known_outcome", listed, &LISTED)?;
    }
    if case.known_failure.is_some() != case.known_outcome.is_some() {
        return Err(format!(
            "case {id}: known_failure and known_outcome come together, or are both null"
        ));
    }
    if let Some(url) = &case.known_issue {
        if case.known_failure.is_none() {
            return Err(format!(
                "case {id}: known_issue is given only with known_failure"
            ));
        }
        zarr_reshape_harness::check_issue_url(url)
            .map_err(|e| format!("case {id}: known_issue: {e}"))?;
    }
    if (case.outcome == "pass") != case.reason.is_none() {
        return Err(format!(
            "case {id}: reason is null for a pass, and a text for every other outcome"
        ));
    }
    if !case.expected.is_object() || !case.answer.is_object() {
        return Err(format!("case {id}: expected and answer are JSON objects"));
    }
    let breaks = breaks_run(&case.outcome, &case.level, case.known_outcome.as_deref());
    if breaks != case.breaks_run {
        return Err(format!(
            "case {id}: breaks_run is {}, but a {} case whose outcome is {} and whose listing is {} {}",
            case.breaks_run,
            case.level,
            case.outcome,
            case.known_outcome.as_deref().unwrap_or("none"),
            if breaks {
                "breaks the run"
            } else {
                "does not break the run"
            },
        ));
    }
    Ok(case)
}

/// `value` as a `T`, the error said in words.
fn lenient<T: DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("not a line of this layout: {e}"))
}

fn quoted(text: &str) -> String {
    let short: String = text.chars().take(80).collect();
    format!("{}", Value::from(short))
}

fn at(source: &str, line: usize, message: String) -> ReadError {
    ReadError {
        source: source.to_string(),
        line: Some(line),
        message,
    }
}

fn at_file(source: &str, message: String) -> ReadError {
    ReadError {
        source: source.to_string(),
        line: None,
        message,
    }
}
