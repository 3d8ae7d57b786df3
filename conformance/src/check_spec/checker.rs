//! The checker of one parsed example: the findings so far, and the span in the
//! document of any value of the example, found by its path.

use std::ops::Range;

use serde_json::json;

use super::finding::{Finding, Kind, Label, Severity};
use super::json_errors::Parsed;
use super::spans::{Step, locate};

/// Findings about one example, placed through its parse.
pub(crate) struct Checker<'p> {
    parsed: &'p Parsed,
    pub(crate) findings: Vec<Finding>,
}

impl<'p> Checker<'p> {
    pub(crate) fn new(parsed: &'p Parsed) -> Self {
        Self {
            parsed,
            findings: Vec::new(),
        }
    }

    /// The document range of the value at `path`, or the example's first byte.
    pub(crate) fn span(&self, path: &[Step]) -> Range<usize> {
        self.located(path)
            .unwrap_or_else(|| self.parsed.document_span(0..1))
    }

    /// The document range of the value at `path`, if the example has one there.
    pub(crate) fn located(&self, path: &[Step]) -> Option<Range<usize>> {
        let span = locate(&self.parsed.text, path)?;
        Some(self.parsed.document_span(span))
    }

    pub(crate) fn push(
        &mut self,
        kind: Kind,
        severity: Severity,
        message: &str,
        span: Range<usize>,
        label: &str,
    ) {
        self.findings.push(Finding {
            kind,
            severity,
            message: message.into(),
            primary: Label::new(span, label),
            related: Vec::new(),
            notes: Vec::new(),
            data: json!({}),
            suggestion: None,
        });
    }

    pub(crate) fn related(&mut self, label: Label) {
        if let Some(finding) = self.findings.last_mut() {
            finding.related.push(label);
        }
    }

    pub(crate) fn note(&mut self, note: impl Into<String>) {
        if let Some(finding) = self.findings.last_mut() {
            finding.notes.push(note.into());
        }
    }
}

pub(crate) fn with(path: &[Step], more: &[Step]) -> Vec<Step> {
    path.iter().chain(more).cloned().collect()
}

pub(crate) fn key(name: &str) -> Step {
    Step::Key(name.into())
}
