//! `run --write-expectations FILE`: every case of the run that did not pass (or
//! skip) as an expectations file, one `[[failure]]` per first clause and outcome,
//! each reason left as `TODO` for a person to fill in (the runner refuses the file
//! until none is). FILE is never one that exists: the runner writes only files it
//! creates.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use crate::report::plural;
use crate::report::record::RunLog;
use crate::run::TODO;

/// Refuses `path` when anything is there (a link included), before the run starts.
pub fn refuse_existing(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => Err(format!(
            "--write-expectations {}: the file exists; the runner writes only a new file \
             (remove it, or name another)",
            path.display()
        )),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(format!("--write-expectations {}: {error}", path.display())),
    }
}

/// Writes the expectations file of `log` to `path`, which must not exist (created
/// anew, never through a link); returns what it wrote, e.g. `12 cases in 3 entries`.
pub fn write(path: &Path, log: &RunLog) -> Result<String, String> {
    let (text, cases, entries) = render(log);
    let fail = |error: std::io::Error| format!("--write-expectations {}: {error}", path.display());
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(fail)?;
    file.write_all(text.as_bytes()).map_err(fail)?;
    Ok(format!(
        "{} in {}",
        plural(cases, "case", "cases"),
        plural(entries, "entry", "entries")
    ))
}

/// The file's text, the number of cases and of entries.
fn render(log: &RunLog) -> (String, usize, usize) {
    // Grouped by first clause, then outcome; ids in run order.
    let mut groups: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for case in &log.cases {
        if !matches!(case.outcome.as_str(), "fail" | "error" | "crash") {
            continue;
        }
        let clause = case.clauses.first().map_or("", String::as_str);
        groups
            .entry((clause, case.outcome.as_str()))
            .or_default()
            .push(&case.id);
    }
    let info = &log.header.implementation;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Known failures of {} {} ({}), written by `zarr-reshape run --write-expectations`:",
        one_line(&info.name),
        one_line(&info.version),
        one_line(&info.language)
    );
    let _ = writeln!(
        out,
        "# every case that did not pass or skip, grouped by its first clause and outcome.\n\
         # Write each reason (why the implementation does not pass, with a `source` where\n\
         # you know it) in place of {TODO}: the runner refuses this file while any reason is\n\
         # still {TODO}. The format: conformance/PROTOCOL.md, \"Expectations\"."
    );
    let mut cases = 0_usize;
    for ((clause, outcome), ids) in &groups {
        cases = cases.saturating_add(ids.len());
        let _ = writeln!(out, "\n[[failure]]");
        let _ = writeln!(out, "clause = {}", toml_string(clause));
        let _ = writeln!(out, "reason = {}", toml_string(TODO));
        let _ = writeln!(out, "outcome = {}", toml_string(outcome));
        let _ = writeln!(out, "ids = [");
        for id in ids {
            let _ = writeln!(out, "  {},", toml_string(id));
        }
        let _ = writeln!(out, "]");
    }
    (out, cases, groups.len())
}

/// A TOML basic string: JSON's escapes are TOML's, but for DEL, which TOML wants
/// escaped too.
fn toml_string(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_else(|_| "\"\"".into())
        .replace('\u{7f}', "\\u007F")
}

/// `text` without line breaks, for a comment line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
