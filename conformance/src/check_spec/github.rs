//! `--format github`: one workflow command per finding, which GitHub Actions shows
//! as an annotation on the line of the pull request's diff
//! (`::error file=F,line=L,col=C,endLine=L,endColumn=C,title=T::message`).
//!
//! Everything written into a command is escaped the way the Actions runner
//! unescapes it: `%`, CR and LF in the message, and `,` and `:` too in a property.
//! So no text of the document (a fragment, a codec name, a file name) can end the
//! line and start a command of its own.

use std::fmt::Write as _;

use super::finding::{Finding, Report, Severity};
use super::lines::LineIndex;
use super::render::{shown_name, summary};

/// The report as workflow commands: errors as `::error`, warnings as `::warning`;
/// notes are left to the human format (an annotation is for something to change).
/// The last line is the summary, as plain text.
#[must_use]
pub fn annotations(report: &Report, text: &str, path: &str) -> String {
    let lines = LineIndex::new(text);
    let mut out = String::new();
    for finding in &report.findings {
        let command = match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => continue,
        };
        let (line, column) = lines.line_column(finding.primary.span.start);
        let (end_line, end_column) = lines.line_column(finding.primary.span.end);
        let title = format!("check-spec {}", finding.kind.as_str());
        // `writeln!` into a String cannot fail.
        let _ = writeln!(
            out,
            "::{command} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}",
            file_property(path),
            property(&title),
            data(&message(finding)),
        );
    }
    out.push_str(&summary(report, path));
    out.push('\n');
    out
}

/// The annotation's text: the headline, the label, the notes and the help.
fn message(finding: &Finding) -> String {
    let mut message = finding.message.clone();
    if !finding.primary.message.is_empty() {
        message.push_str("\n  ");
        message.push_str(&finding.primary.message);
    }
    for note in &finding.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    if let Some(suggestion) = &finding.suggestion {
        message.push_str("\nhelp: ");
        message.push_str(&suggestion.message);
    }
    message
}

/// A command's message, escaped as the runner unescapes it.
#[must_use]
pub fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A file name as a command's `file=` property: escaped as the runner unescapes
/// it (so CR and LF come back), and every other control or format character
/// (escape, bidirectional overrides), which the runner would pass through raw
/// into the log, written as `\u{..}` as the other formats show it.
#[must_use]
pub fn file_property(path: &str) -> String {
    let shown: String = path
        .split_inclusive(['\r', '\n'])
        .map(|piece| {
            let end = piece.trim_end_matches(['\r', '\n']);
            format!(
                "{}{}",
                shown_name(end),
                piece.get(end.len()..).unwrap_or_default()
            )
        })
        .collect();
    property(&shown)
}

/// A command's property value, escaped as the runner unescapes it.
#[must_use]
pub fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}
