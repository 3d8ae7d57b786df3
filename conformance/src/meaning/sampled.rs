//! One sampled pair as a case of a generated vector file: its id, description,
//! expectation (the reference's verdict widened to every class of a rule the pair
//! breaks) and the readings and level it rests on.

use std::fmt::Write as _;

use serde_json::Value;
use zarr_reshape::{Clause, ErrorClass, Level, ShapeElement};

use super::compare;
use super::domain::{configuration_json, configuration_text, json_text, list};
use super::example::{self, Literal};
use super::kind;
use super::oracle::OracleVerdict;
use super::rules;

/// A sampled pair, with everything its case says.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    pub(crate) index: usize,
    configuration: Vec<ShapeElement>,
    a_shape: Vec<u64>,
    literal: Literal,
    /// The encoded shape, or every acceptable class (the reference's first).
    expect: Result<Vec<u64>, Vec<ErrorClass>>,
    clauses: Vec<Clause>,
    interpretations: Vec<&'static str>,
    level: Level,
}

/// What makes two cases alike for sampling: file, clauses, classes, readings, level.
pub(crate) type Key = (
    String,
    Vec<Clause>,
    Vec<ErrorClass>,
    Vec<&'static str>,
    &'static str,
);

impl Case {
    pub(crate) fn new(index: usize, configuration: &[ShapeElement], a_shape: &[u64]) -> Self {
        let literal = compare::literal(configuration, a_shape);
        let broken = rules::broken_rules(configuration, a_shape);
        let (expect, clauses) = match &literal {
            Ok(b_shape) => (Ok(b_shape.clone()), exercised(configuration)),
            Err(error) => {
                let mut classes = vec![error.class()];
                let mut clauses = vec![error.clause()];
                for (clause, class) in &broken {
                    if !classes.contains(class) {
                        classes.push(*class);
                    }
                    if !clauses.contains(clause) {
                        clauses.push(*clause);
                    }
                }
                (Err(classes), clauses)
            }
        };
        let refusals = refusals(configuration, a_shape);
        // Where every reading errs, the case accepts the class each one gives.
        let expect = expect.map_err(|mut classes| {
            for class in &refusals {
                if !classes.contains(class) {
                    classes.push(*class);
                }
            }
            classes
        });
        let interpretations = readings(configuration, a_shape, &expect, &clauses);
        // Below must only when a documented reading refuses what the reference accepts.
        let level = if expect.is_ok() && !refusals.is_empty() {
            Level::Interpretation
        } else {
            Level::Must
        };
        Self {
            index,
            configuration: configuration.to_vec(),
            a_shape: a_shape.to_vec(),
            literal,
            expect,
            clauses,
            interpretations,
            level,
        }
    }

    pub(crate) fn file(&self) -> String {
        match &self.literal {
            Ok(_) => "resolve-accepted.json".into(),
            Err(error) => format!("resolve-{}.json", error.class()),
        }
    }

    pub(crate) fn key(&self) -> Key {
        (
            self.file(),
            self.clauses.clone(),
            self.expect.clone().err().unwrap_or_default(),
            self.interpretations.clone(),
            self.level.as_str(),
        )
    }

    pub(crate) fn size_key(&self) -> (usize, u64, usize) {
        example::size_key(&self.configuration, &self.a_shape, self.index)
    }

    fn id(&self) -> String {
        let elements: Vec<String> = self
            .configuration
            .iter()
            .map(|element| match element {
                ShapeElement::Size(size) => size.to_string(),
                ShapeElement::Auto => "auto".into(),
                ShapeElement::InputDims(dims) if dims.is_empty() => "dims-none".into(),
                ShapeElement::InputDims(dims) => {
                    let dims: Vec<String> = dims.iter().map(u64::to_string).collect();
                    format!("dims{}", dims.join("."))
                }
            })
            .collect();
        let configuration = if elements.is_empty() {
            "empty-shape".into()
        } else {
            elements.join("_")
        };
        let extents: Vec<String> = self.a_shape.iter().map(u64::to_string).collect();
        let decoded = if extents.is_empty() {
            "0d".into()
        } else {
            extents.join("x")
        };
        format!("generated/resolve/{configuration}/on-{decoded}")
    }

    fn description(&self) -> String {
        let mut text = format!(
            "{} on {}: ",
            configuration_text(&self.configuration),
            list(&self.a_shape)
        );
        match (&self.literal, &self.expect) {
            (Ok(b_shape), _) => {
                let _ = write!(text, "accepted as {}.", list(b_shape));
            }
            (Err(error), expect) => {
                let _ = write!(text, "rejected by {} ({})", error.clause(), error.class());
                let others: Vec<&str> = self.clauses.iter().skip(1).map(|c| c.id()).collect();
                if !others.is_empty() {
                    let _ = write!(text, "; it also breaks {}", others.join(", "));
                }
                let classes = expect.clone().err().unwrap_or_default();
                if classes.len() > 1 {
                    let names: Vec<&str> = classes.iter().map(|c| c.as_str()).collect();
                    let _ = write!(text, ", so any of {} may be reported", names.join(", "));
                }
                text.push('.');
            }
        }
        let example = compare::judge(self.index, &self.configuration, &self.a_shape);
        let kind = kind::kind(&example);
        if !kind.agrees() {
            let meant = match &example.oracle.verdict {
                OracleVerdict::Meaningful(b_shape) => format!("accept it as {}", list(b_shape)),
                OracleVerdict::NotMeaningful(_) => "reject it".into(),
            };
            let _ = write!(
                text,
                " The brute-force meaning check would {meant} (MEANING.md, {}).",
                kind.id()
            );
        }
        text
    }

    pub(crate) fn to_text(&self) -> String {
        let quoted = |text: &str| Value::from(text).to_string();
        let ids = |ids: &[&str]| {
            let items: Vec<String> = ids.iter().map(|id| quoted(id)).collect();
            format!("[{}]", items.join(", "))
        };
        let clauses: Vec<&str> = self.clauses.iter().map(|clause| clause.id()).collect();
        let expect = match &self.expect {
            Ok(b_shape) => format!("{{\"encoded_shape\": {}}}", list(b_shape)),
            Err(classes) => match classes.as_slice() {
                [class] => format!("{{\"error\": {}}}", quoted(class.as_str())),
                _ => {
                    let names: Vec<&str> = classes.iter().map(|c| c.as_str()).collect();
                    format!("{{\"error\": {}}}", ids(&names))
                }
            },
        };
        let mut lines = vec![
            format!("\"id\": {}", quoted(&self.id())),
            format!("\"description\": {}", quoted(&self.description())),
            format!("\"clauses\": {}", ids(&clauses)),
        ];
        if !self.interpretations.is_empty() {
            lines.push(format!(
                "\"interpretations\": {}",
                ids(&self.interpretations)
            ));
        }
        lines.extend([
            format!("\"level\": {}", quoted(self.level.as_str())),
            "\"operation\": \"resolve\"".into(),
            format!(
                "\"configuration\": {}",
                json_text(&configuration_json(&self.configuration))
            ),
            format!("\"decoded_shape\": {}", list(&self.a_shape)),
            format!("\"expect\": {expect}"),
        ]);
        format!("    {{\n      {}\n    }}", lines.join(",\n      "))
    }
}

/// The clauses an accepted pair exercises, in the order of the registry.
fn exercised(configuration: &[ShapeElement]) -> Vec<Clause> {
    let has = |wanted: fn(&ShapeElement) -> bool| configuration.iter().any(wanted);
    let flattened = configuration
        .iter()
        .filter_map(|element| match element {
            ShapeElement::InputDims(dims) => Some(dims.len()),
            _ => None,
        })
        .fold(0_usize, usize::saturating_add);
    let mut clauses = Vec::new();
    if has(|e| matches!(e, ShapeElement::Size(_))) {
        clauses.push(Clause::ShapeSize);
    }
    if has(|e| matches!(e, ShapeElement::InputDims(_))) {
        clauses.push(Clause::ShapeInputDims);
    }
    if has(|e| matches!(e, ShapeElement::Auto)) {
        clauses.push(Clause::ShapeAutoValue);
    }
    clauses.push(Clause::ShapeInvariant);
    if flattened > 1 {
        clauses.push(Clause::InputDimsIncreasing);
    }
    if has(|e| matches!(e, ShapeElement::InputDims(dims) if !dims.is_empty())) {
        clauses.extend([Clause::InputDimsPrefix, Clause::InputDimsSuffix]);
    }
    clauses.push(Clause::AlgorithmRank);
    clauses
}

/// The classes of the other readings that refuse the pair outright: I-1 and I-2
/// (`malformed-configuration`), I-3 and I-9 (`shape-mismatch`). The domain's sizes
/// are small, so no other reading can change its verdict. (The runner's
/// `readings` module holds the same switches for every case; meaning uses the
/// library only, and `tests/levels.rs` holds the generated files to those.)
fn refusals(configuration: &[ShapeElement], a_shape: &[u64]) -> Vec<ErrorClass> {
    let raised = [
        (
            ErrorClass::MalformedConfiguration,
            configuration
                .iter()
                .any(|e| matches!(e, ShapeElement::InputDims(dims) if dims.is_empty())),
        ),
        (ErrorClass::MalformedConfiguration, configuration.is_empty()),
        (ErrorClass::ShapeMismatch, a_shape.is_empty()),
        (ErrorClass::ShapeMismatch, a_shape.contains(&0)),
    ];
    raised
        .into_iter()
        .filter(|(_, raised)| *raised)
        .map(|(class, _)| class)
        .collect()
}

/// The errata and interpretations a case depends on.
fn readings(
    configuration: &[ShapeElement],
    a_shape: &[u64],
    expect: &Result<Vec<u64>, Vec<ErrorClass>>,
    clauses: &[Clause],
) -> Vec<&'static str> {
    let groups = configuration
        .iter()
        .any(|e| matches!(e, ShapeElement::InputDims(dims) if !dims.is_empty()));
    let empty_group = configuration
        .iter()
        .any(|e| matches!(e, ShapeElement::InputDims(dims) if dims.is_empty()));
    let breaks = |clause: Clause| clauses.contains(&clause);
    let products = [
        Clause::ShapeInvariant,
        Clause::ShapeAutoValue,
        Clause::InputDimsPrefix,
        Clause::InputDimsSuffix,
    ];
    let accepted = expect.is_ok();
    let several = expect
        .as_ref()
        .err()
        .is_some_and(|classes| classes.len() > 1);
    let readings = [
        (
            "E1",
            groups && (accepted || products.iter().any(|c| breaks(*c))),
        ),
        (
            "E2",
            groups && (accepted || breaks(Clause::InputDimsPrefix)),
        ),
        ("E6", !accepted && breaks(Clause::ShapeAutoOnce)),
        ("I-1", empty_group),
        ("I-2", configuration.is_empty()),
        ("I-3", a_shape.is_empty()),
        ("I-4", !accepted && breaks(Clause::InputDimsRange)),
        ("I-8", several),
    ];
    readings
        .iter()
        .filter(|(_, applies)| *applies)
        .map(|(id, _)| *id)
        .collect()
}
