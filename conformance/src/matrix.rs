//! The generated parts of CONFORMANCE.md: the clause matrix and the readings,
//! rebuilt from the registry and the vectors, and the mutation results, rebuilt
//! from `conformance/reports/mutants.json`, so the document cannot go stale.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;

use crate::coverage::Tally;
use crate::registry::Registry;

/// The clause matrix: clause, level, the spec's sentence, our paraphrase, where the code checks it, and how
/// many vectors accept and reject under it. `locations` maps a clause id to the
/// source files that cite it.
#[must_use]
pub fn clause_matrix(
    registry: &Registry,
    tallies: &BTreeMap<String, Tally>,
    locations: &BTreeMap<String, Vec<String>>,
) -> String {
    let mut out = String::from(
        "| clause | level | the spec says | rule | checked in | accepting | rejecting | either |\n|---|---|---|---|---|---:|---:|---:|\n",
    );
    for clause in &registry.clauses {
        let tally = tallies.get(&clause.id).copied().unwrap_or_default();
        let rule = match &clause.formula {
            Some(formula) => format!("{} `{formula}`", clause.paraphrase),
            None => clause.paraphrase.clone(),
        };
        let files = locations
            .get(&clause.id)
            .map(|files| {
                files
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_else(|| "-".into());
        let sentence = clause
            .text
            .as_ref()
            .map_or_else(|| "-".into(), |text| format!("\"{text}\""));
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {files} | {} | {} | {} |",
            clause.id,
            clause.level,
            escape(&sentence),
            escape(&rule),
            tally.accepting,
            tally.rejecting,
            tally.either
        );
    }
    out
}

/// The errata and interpretations, one section each.
#[must_use]
pub fn readings(registry: &Registry) -> String {
    let mut out = String::new();
    for entry in &registry.interpretations {
        let _ = write!(
            out,
            "### {} ({})\n\n{}\n\n- Reading: {}\n- Why: {}\n",
            entry.id, entry.kind, entry.text, entry.reading, entry.reason
        );
        for other in &entry.other_readings {
            let _ = writeln!(
                out,
                "- Other reading (cases it decides are below must): {other}"
            );
        }
        out.push('\n');
    }
    out.trim_end().to_string() + "\n"
}

/// Replaces the text between `<!-- BEGIN GENERATED: name -->` and
/// `<!-- END GENERATED: name -->` with `content`; `None` when the markers are missing.
#[must_use]
pub fn replace_block(document: &str, name: &str, content: &str) -> Option<String> {
    let begin = format!("<!-- BEGIN GENERATED: {name} -->\n");
    let end = format!("<!-- END GENERATED: {name} -->");
    let start = document.find(&begin)?.checked_add(begin.len())?;
    let stop = start.checked_add(document.get(start..)?.find(&end)?)?;
    Some(format!(
        "{}{content}{}",
        document.get(..start)?,
        document.get(stop..)?
    ))
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The committed mutation results, `conformance/reports/mutants.json`, as
/// `conformance/scripts/mutants-results.py record` writes it from cargo-mutants'
/// outcomes (the reasons are written by hand).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MutationResults {
    /// The file's format, 1.
    pub format: u32,
    /// What the file is, for a reader of the file.
    #[serde(default)]
    pub about: Option<String>,
    /// The runs whose judgements the file holds (the latest of each mutant).
    pub runs: Vec<MutationRun>,
    /// Why a mutant is missed, by key.
    pub reasons: BTreeMap<String, MissedReason>,
    /// Every mutant of `src/`, in file and line order.
    pub mutants: Vec<Mutant>,
}

/// One cargo-mutants run.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MutationRun {
    /// The run's name (its output folder's).
    pub id: String,
    /// When it started (RFC 3339).
    pub start: Option<String>,
    /// `cargo-mutants X.Y.Z`.
    pub tool: String,
    /// Which tests judged it, e.g. `resolve vectors`.
    pub judged_by: Option<String>,
    /// Wall time, when the run finished.
    pub wall_time_s: Option<u64>,
}

/// Why some mutants are missed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissedReason {
    /// `equivalent`, `untestable` (no vector can see it through the protocol),
    /// `own-test` (judged by a test of its own, not a vector) or `not-added`.
    pub kind: String,
    /// Why, in a sentence.
    pub why: String,
    /// What pins the behaviour instead (`-` for nothing).
    pub pinned_by: String,
}

/// One mutant and its latest judgement.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mutant {
    /// cargo-mutants' name: `src/FILE.rs:LINE:COLUMN: replace ...`.
    pub name: String,
    /// The source file.
    pub file: String,
    /// The first line of the mutated span.
    pub line: u64,
    /// `caught`, `missed`, `unviable` or `timeout`.
    pub outcome: String,
    /// The run that judged it last.
    pub run: String,
    /// For a missed or timed-out mutant, the key of its reason.
    #[serde(default)]
    pub reason: Option<String>,
}

/// The outcomes, in the order the tables show them.
const OUTCOMES: [&str; 4] = ["caught", "missed", "unviable", "timeout"];

impl MutationResults {
    /// Reads the results from JSON text.
    ///
    /// # Errors
    /// When the text is not of the file's form, is of another format, or a
    /// missed or timed-out mutant has no reason among `reasons`.
    pub fn from_json_str(text: &str) -> Result<Self, String> {
        let results: Self = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if results.format != 1 {
            return Err(format!("format {} (this reader knows 1)", results.format));
        }
        for mutant in &results.mutants {
            let needs_reason = matches!(mutant.outcome.as_str(), "missed" | "timeout");
            let known = mutant
                .reason
                .as_ref()
                .is_some_and(|reason| results.reasons.contains_key(reason));
            if !OUTCOMES.contains(&mutant.outcome.as_str()) || (needs_reason && !known) {
                return Err(format!(
                    "{}: outcome {} with reason {:?}: a missed mutant needs a reason of `reasons`",
                    mutant.name, mutant.outcome, mutant.reason
                ));
            }
        }
        Ok(results)
    }

    fn count(&self, outcome: &str, file: Option<&str>) -> usize {
        self.mutants
            .iter()
            .filter(|m| m.outcome == outcome && file.is_none_or(|file| m.file == file))
            .count()
    }

    /// How many missed mutants each kind of reason covers, e.g. `20 own-test`.
    fn missed_by_kind(&self) -> String {
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for mutant in self.mutants.iter().filter(|m| m.outcome == "missed") {
            let reason = mutant.reason.as_ref().and_then(|r| self.reasons.get(r));
            if let Some(reason) = reason {
                let count = kinds.entry(reason.kind.as_str()).or_default();
                *count = count.saturating_add(1);
            }
        }
        let parts: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        parts.join(", ")
    }
}

/// The mutation paragraph of CONFORMANCE.md.
#[must_use]
pub fn mutants_summary(results: &MutationResults) -> String {
    let [caught, missed, unviable, timeout] = OUTCOMES.map(|o| results.count(o, None));
    format!(
        "{} mutants of `src/`: caught {caught}, missed {missed}, unviable {unviable}, \
         timeouts {timeout}. The missed ones by reason: {} (`equivalent`: no \
         conforming answer tells it apart; `untestable`: no protocol operation \
         reaches it; `own-test`: judged by its own Rust test, not by a vector; \
         `not-added`: a vector could catch it and is not in the suite). Each is \
         listed with its reason in \
         [conformance/reports/mutants.md](conformance/reports/mutants.md), \
         rendered from `conformance/reports/mutants.json`.\n",
        results.mutants.len(),
        results.missed_by_kind()
    )
}

/// The generated part of `conformance/reports/mutants.md`: the runs, the counts
/// per file, and every missed mutant under its reason.
#[must_use]
pub fn mutants_tables(results: &MutationResults) -> String {
    let mut out = String::from("| run | started | judged by | wall time |\n|---|---|---|---:|\n");
    for run in &results.runs {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            run.id,
            // To the minute: `2026-12-02 05:32`.
            run.start.as_deref().map_or_else(
                || "-".into(),
                |s| s.get(..16).unwrap_or(s).replace('T', " ")
            ),
            run.judged_by.as_deref().unwrap_or("-"),
            run.wall_time_s
                .map_or_else(|| "-".into(), |s| format!("{s} s"))
        );
    }
    out += "\n| file | mutants | caught | missed | unviable | timeouts |\n|---|---:|---:|---:|---:|---:|\n";
    let mut files: Vec<&str> = results.mutants.iter().map(|m| m.file.as_str()).collect();
    files.dedup();
    for file in files.iter().map(|f| Some(*f)).chain([None]) {
        let total = results
            .mutants
            .iter()
            .filter(|m| file.is_none_or(|file| m.file == file))
            .count();
        let [caught, missed, unviable, timeout] = OUTCOMES.map(|o| results.count(o, file));
        let name = file.map_or_else(|| "**all**".into(), |f| format!("`{f}`"));
        let _ = writeln!(
            out,
            "| {name} | {total} | {caught} | {missed} | {unviable} | {timeout} |"
        );
    }
    for (key, reason) in &results.reasons {
        let missed: Vec<&Mutant> = results
            .mutants
            .iter()
            .filter(|m| m.reason.as_deref() == Some(key.as_str()))
            .collect();
        let _ = write!(
            out,
            "\n### `{key}` ({}, {} mutants)\n\n- Why: {}.\n- Pinned instead by: {}.\n\n",
            reason.kind,
            missed.len(),
            reason.why,
            reason.pinned_by
        );
        for mutant in missed {
            let _ = writeln!(out, "- `{}` ({})", mutant.name, mutant.outcome);
        }
    }
    out
}
