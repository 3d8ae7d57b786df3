//! The JSON-lines report, the run's one record: a header line, one line per case
//! as it finishes, and a footer. Every line is flushed as it is written, so a run
//! that is killed leaves every finished case on disk; a run stopped by Ctrl-C still
//! writes its footer, with `"interrupted": true`. A file without a footer was cut
//! short by a crash or a kill. Each line validates against
//! `conformance/report.schema.json`; [`super::read`] reads the file back.

use std::io::{self, Write};

use serde::Serialize;

use crate::run::{CaseRecord, ImplementationInfo, RunReport};

use super::record::{CaseLine, Footer, Header, RunLog};

pub use super::record::FORMAT;

/// Writes a JSON-lines report as the run goes.
#[derive(Debug)]
pub struct JsonlWriter<W: Write> {
    out: W,
    written: usize,
}

impl<W: Write> JsonlWriter<W> {
    /// Starts a report on `out`, writing and flushing the header line at once;
    /// `suite_version` is the suite release of the cases, `None` for cases from files.
    ///
    /// # Errors
    /// When `out` cannot be written.
    pub fn new(
        out: W,
        implementation: &ImplementationInfo,
        suite_version: Option<&str>,
    ) -> io::Result<Self> {
        Self::start(out, &Header::of(implementation, suite_version))
    }

    /// Starts a report on `out` with `header`, written and flushed at once.
    ///
    /// # Errors
    /// When `out` cannot be written.
    pub fn start(out: W, header: &Header) -> io::Result<Self> {
        let mut writer = Self { out, written: 0 };
        writer.line(header)?;
        Ok(writer)
    }

    /// Writes and flushes the line of the next case of the selection (its index
    /// is the number of case lines written before it).
    ///
    /// # Errors
    /// When the line cannot be written.
    pub fn record(&mut self, record: &CaseRecord) -> io::Result<()> {
        self.case(&CaseLine::of(record, self.written))
    }

    /// Writes and flushes one case's line.
    ///
    /// # Errors
    /// When the line cannot be written.
    pub fn case(&mut self, line: &CaseLine) -> io::Result<()> {
        self.line(line)?;
        self.written = self.written.saturating_add(1);
        Ok(())
    }

    /// Writes and flushes the footer of the finished (or interrupted) run.
    ///
    /// # Errors
    /// When the footer cannot be written.
    pub fn finish(self, report: &RunReport) -> io::Result<()> {
        match RunLog::of(report).footer {
            Some(footer) => self.footer(&footer),
            None => Ok(()),
        }
    }

    /// Writes and flushes `footer`, the last line.
    ///
    /// # Errors
    /// When the footer cannot be written.
    pub fn footer(mut self, footer: &Footer) -> io::Result<()> {
        self.line(footer)
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    fn line(&mut self, line: &impl Serialize) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, line)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

/// The whole file of `log`, as [`JsonlWriter`] writes it with the cases in order.
#[must_use]
pub fn to_string(log: &RunLog) -> String {
    let mut out = Vec::new();
    // Writing to a Vec fails only if serializing does, and these types always serialize.
    let written = JsonlWriter::start(&mut out, &log.header).and_then(|mut writer| {
        for case in &log.cases {
            writer.case(case)?;
        }
        match &log.footer {
            Some(footer) => writer.footer(footer),
            None => Ok(()),
        }
    });
    debug_assert!(written.is_ok());
    String::from_utf8(out).unwrap_or_default()
}

/// The records of a run as it goes: each case's line, written to the JSON-lines
/// file when there is one and kept for the other reports, which are all rendered
/// from these lines once the run ends.
#[derive(Debug)]
pub struct Recorder<W: Write> {
    header: Header,
    writer: Option<JsonlWriter<W>>,
    cases: Vec<CaseLine>,
    /// The first write error; the run goes on, and the error is reported at the end.
    failed: Option<io::Error>,
}

impl<W: Write> Recorder<W> {
    /// Starts the records of a run of `implementation` on the cases of the suite
    /// release `suite_version` (`None` for cases from files), writing the header to
    /// `out` at once when there is a JSON-lines file.
    ///
    /// # Errors
    /// When the header cannot be written.
    pub fn start(
        out: Option<W>,
        implementation: &ImplementationInfo,
        suite_version: Option<&str>,
    ) -> io::Result<Self> {
        let header = Header::of(implementation, suite_version);
        let writer = out
            .map(|out| JsonlWriter::start(out, &header))
            .transpose()?;
        Ok(Self {
            header,
            writer,
            cases: Vec::new(),
            failed: None,
        })
    }

    /// Records the case at `index` of the run's selection, and writes its line.
    pub fn case(&mut self, record: &CaseRecord, index: usize) {
        let line = CaseLine::of(record, index);
        if let (Some(writer), None) = (&mut self.writer, &self.failed) {
            if let Err(error) = writer.case(&line) {
                self.failed = Some(error);
            }
        }
        self.cases.push(line);
    }

    /// Ends the records with the footer (also written), and returns them, the
    /// cases in index order.
    ///
    /// # Errors
    /// The first error writing the file.
    pub fn finish(
        mut self,
        interrupted: bool,
        stale_expectations: Vec<String>,
        duration: std::time::Duration,
    ) -> io::Result<RunLog> {
        self.cases.sort_by_key(|case| case.index);
        let footer = Footer::of(
            &self.cases,
            interrupted,
            stale_expectations,
            super::record::Millis::of(duration),
        );
        if let Some(error) = self.failed {
            return Err(error);
        }
        if let Some(writer) = self.writer {
            writer.footer(&footer)?;
        }
        Ok(RunLog {
            header: self.header,
            cases: self.cases,
            footer: Some(footer),
        })
    }
}
