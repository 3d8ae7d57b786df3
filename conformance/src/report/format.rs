//! The report formats by name, and the one function that renders each from a
//! run's records: `run --report FORMAT=PATH` and `zarr-reshape report --format`
//! both call [`Format::render`], so they write the same bytes.

use std::fmt;

use super::record::RunLog;
use super::{badge, html, jsonl, junit, markdown, text};

/// A report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The JSON-lines record itself.
    Jsonl,
    /// The terminal summary.
    Text,
    /// The Markdown summary.
    Markdown,
    /// JUnit XML.
    Junit,
    /// The HTML results page.
    Html,
    /// The shields.io endpoint JSON.
    Badge,
}

/// Every format, in the order help texts list them.
pub const ALL: [Format; 6] = [
    Format::Jsonl,
    Format::Text,
    Format::Markdown,
    Format::Junit,
    Format::Html,
    Format::Badge,
];

impl Format {
    /// The format named `name` (`md` is Markdown too).
    ///
    /// # Errors
    /// An unknown name, with the known ones.
    pub fn parse(name: &str) -> Result<Self, String> {
        if name == "md" {
            return Ok(Self::Markdown);
        }
        ALL.into_iter()
            .find(|format| format.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = ALL.iter().map(|format| format.name()).collect();
                format!("unknown report format {name:?} ({})", names.join(", "))
            })
    }

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Jsonl => "jsonl",
            Self::Text => "text",
            Self::Markdown => "markdown",
            Self::Junit => "junit",
            Self::Html => "html",
            Self::Badge => "badge",
        }
    }

    /// Whether the format describes one run only.
    #[must_use]
    pub fn one_run_only(self) -> bool {
        matches!(self, Self::Jsonl | Self::Junit | Self::Badge)
    }

    /// The report of `logs`, one run per implementation: the text summaries one
    /// after the other, Markdown and HTML side by side.
    ///
    /// # Errors
    /// No run; several runs for a format of one run ([`Self::one_run_only`]); the
    /// embedded clause registry unreadable (HTML).
    pub fn render(self, logs: &[RunLog]) -> Result<String, String> {
        let one = || match logs {
            [log] => Ok(log),
            [] => Err("no report to render".to_string()),
            _ => Err(format!(
                "the {self} report describes one implementation, and {} files were given: \
                 give one (html and markdown show several side by side)",
                logs.len()
            )),
        };
        if logs.is_empty() {
            return Err("no report to render".into());
        }
        Ok(match self {
            Self::Jsonl => jsonl::to_string(one()?),
            Self::Junit => junit::render_log(one()?),
            Self::Badge => badge::render(one()?),
            Self::Text => text::render_all(logs),
            Self::Markdown => markdown::render_all(logs),
            Self::Html => html::render(logs, &html::embedded_registry()?),
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
