//! The generated parts of CONFORMANCE.md: the clause matrix and the readings,
//! rebuilt from the registry and the vectors so the document cannot go stale.

use std::collections::BTreeMap;
use std::fmt::Write as _;

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
            "### {} ({})\n\n{}\n\n- Reading: {}\n- Why: {}\n\n",
            entry.id, entry.kind, entry.text, entry.reading, entry.reason
        );
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
