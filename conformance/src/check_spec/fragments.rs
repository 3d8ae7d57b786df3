//! Inline `"shape": [...]` fragments: the verdict the prose gives each one against
//! the verdict of the rules, on a decoded shape built so that only the clause under
//! discussion can decide.

use serde_json::{Value, json};
use zarr_reshape::{Clause, Explanation, ReshapeError, explain};

use super::document::Fragment;
use super::finding::{Finding, Kind, Label, Severity, Suggestion, shape_text};
use super::json_errors;
use super::lines::LineIndex;
use super::prose::{Said, Verdict};
use super::shapes::{self, Built};

/// Checks a fragment of the document against what the prose says of it (`said`)
/// and the clauses its paragraph discusses.
pub(crate) fn check(
    lines: &LineIndex<'_>,
    fragment: &Fragment,
    said: Said,
    discussed: &[Clause],
) -> Vec<Finding> {
    let parsed = json_errors::parse(lines, std::slice::from_ref(&fragment.array));
    let mut findings = parsed.findings;
    let Some(elements) = parsed.value.as_ref().and_then(shapes::elements) else {
        return findings;
    };
    let value = parsed.value.unwrap_or_default();
    let shown = format!("\"shape\": {}", show(&value));
    let relabeled = shapes::relabel(&elements);
    let built = shapes::build(&relabeled);
    let explanation = explain(&json!({ "shape": value }), &built.shape);
    let relabeled_json = shapes::to_json(&relabeled);
    let control = explain(&json!({ "shape": relabeled_json }), &built.shape);
    let (actual, decided_by) = match &explanation.outcome {
        Ok(_) => (Verdict::Allowed, None),
        Err(error) => (Verdict::NotAllowed, Some(error.clause())),
    };
    let outcome = match &explanation.outcome {
        Ok(encoded) => format!(
            "resolves to {} on decoded shape {}",
            shape_text(encoded),
            shape_text(&built.shape)
        ),
        Err(error) => format!("{} decides: {error}", error.clause()),
    };
    let mut finding = Finding {
        kind: Kind::FragmentAgrees,
        severity: Severity::Note,
        message: String::new(),
        primary: Label::new(fragment.whole.clone(), outcome),
        related: Vec::new(),
        notes: vec![shape_note(
            &built,
            &explanation,
            &control,
            (relabeled != elements).then_some(&relabeled_json),
        )],
        data: json!({
            "fragment": value,
            "prose_verdict": said.as_ref().map(|(verdict, _)| verdict.as_str()),
            "verdict": actual.as_str(),
            "decided_by": decided_by.map(Clause::id),
            "discussed": discussed.iter().map(|clause| clause.id()).collect::<Vec<_>>(),
            "decoded_shape": built.shape,
            "encoded_shape": explanation.outcome.as_ref().ok(),
        }),
        suggestion: None,
    };
    let trace = || {
        let lines: Vec<String> = explanation
            .to_string()
            .lines()
            .map(|line| format!("  {line}"))
            .collect();
        format!("explain:\n{}", lines.join("\n"))
    };
    match said {
        None => {
            finding.kind = Kind::FragmentNoVerdict;
            finding.message = format!(
                "`{shown}` is {} (the prose gives no verdict)",
                actual.as_str()
            );
        }
        Some((verdict, span)) if verdict == actual => {
            finding.related.push(Label::new(
                span,
                format!("the prose says {}", verdict.as_str()),
            ));
            let other =
                decided_by.filter(|clause| !discussed.is_empty() && !discussed.contains(clause));
            if let Some(clause) = other {
                finding.kind = Kind::FragmentOtherClause;
                finding.severity = Severity::Warning;
                finding.message = format!(
                    "`{shown}` is not allowed, as the prose says, but {clause} decides it, not {}",
                    names(discussed)
                );
                finding.notes.push(trace());
            } else {
                finding.message = format!("`{shown}` is {}, as the prose says", actual.as_str());
            }
        }
        Some((verdict, span)) => {
            finding.kind = Kind::FragmentDisagrees;
            finding.severity = Severity::Error;
            finding.message = format!(
                "the prose says `{shown}` is {}, but it is {}",
                verdict.as_str(),
                actual.as_str()
            );
            finding.suggestion = (span.start >= fragment.whole.end)
                .then(|| lines.text().get(span.clone()))
                .flatten()
                .and_then(opposite)
                .map(|words| {
                    let help = format!("the rules say it is {}", actual.as_str());
                    Suggestion::replace(help, span.clone(), &words)
                });
            finding.related.push(Label::new(
                span,
                format!("the prose says {}", verdict.as_str()),
            ));
            finding.notes.push(trace());
        }
    }
    findings.push(finding);
    findings
}

/// Says which decoded shape was used, and why.
fn shape_note(
    built: &Built,
    explanation: &Explanation,
    control: &Explanation,
    relabeled: Option<&Value>,
) -> String {
    let shape = shape_text(&built.shape);
    let decider = explanation.outcome.as_ref().err().map(ReshapeError::clause);
    let mut note = match (&control.outcome, relabeled) {
        (Ok(encoded), Some(relabeled)) => format!(
            "decoded shape {shape}, chosen so that every other rule holds: \
             with its input dims in increasing order, {} resolves to {}",
            show(relabeled),
            shape_text(encoded)
        ),
        (Ok(_), None) => format!("decoded shape {shape}, chosen so that every rule can hold"),
        (Err(error), _) if Some(error.clause()) == decider => format!(
            "decoded shape {shape}: one extent per input dim, the sizes between groups held \
             by the dims between them; {} is the first rule it breaks",
            error.clause()
        ),
        (Err(error), _) => format!(
            "no decoded shape found on which only {} decides: on {shape}, {} fails as well ({error})",
            decider.map_or("one clause", Clause::id),
            error.clause()
        ),
    };
    for obstacle in &built.obstacles {
        note.push_str("; ");
        note.push_str(obstacle);
    }
    note
}

/// A JSON value with a space after each comma, as spec text writes it.
fn show(value: &Value) -> String {
    match value {
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}

fn names(clauses: &[Clause]) -> String {
    let names: Vec<&str> = clauses.iter().map(|clause| clause.id()).collect();
    names.join(" or ")
}

/// The verdict words that say the opposite of `words` (as the prose wrote them:
/// `allowed` / `not allowed`, `NOT allowed` / `allowed`, `invalid` / `valid`, ...),
/// or `None` when there is no single obvious wording.
fn opposite(words: &str) -> Option<String> {
    const PAIRS: &[(&str, &str)] = &[
        ("disallowed", "allowed"),
        ("invalid", "valid"),
        ("illegal", "legal"),
        ("rejected", "accepted"),
        ("forbidden", "permitted"),
        ("prohibited", "permitted"),
    ];
    let lower = words.to_lowercase();
    if let Some((_, positive)) = PAIRS.iter().find(|(negative, _)| *negative == lower) {
        return Some((*positive).to_string());
    }
    if let Some(rest) = lower.strip_prefix("not ") {
        // Keep the positive word as written: `NOT allowed` becomes `allowed`.
        let positive = words.get(words.len().saturating_sub(rest.len())..)?;
        return (rest.trim() == rest && !rest.is_empty()).then(|| positive.to_string());
    }
    let single = !lower.is_empty() && lower.chars().all(char::is_alphabetic);
    single.then(|| format!("not {words}"))
}
