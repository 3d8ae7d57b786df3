//! The reference's answer to a generated case, turned into the case's expectation,
//! clauses, readings, level, description and id: a vector any other case could be.
//!
//! The expectation is the reference's answer at the strictest reading, widened only
//! where the suite's documented readings leave a choice:
//!
//! - **I-8** (the order of the checks): a rejected codec accepts the class of every
//!   rule it breaks, as the generated vectors do (`meaning::rules::broken_rules`, or
//!   for a codec that does not parse, the library's audit, which the fixed vectors
//!   are held to, and the rules its JSON alone breaks);
//! - **I-7**: `overflow` is acceptable wherever a product does not fit in 64 bits;
//!   where the reference reports `overflow` for a product of `shape` and the decoded
//!   product fits, the classes of the product rules (`element-count-mismatch`,
//!   `input-dims-misaligned`) are too, as an implementation with exact integers
//!   reports the rule the product breaks;
//! - **I-6**: an integral number spelled `2.0` or `1e1` may be read as the integer,
//!   so the answer to the integer spelling is also acceptable (`any_of`);
//! - an index or box of the wrong rank may be `shape-mismatch` or `out-of-bounds`;
//! - every class a documented reading gives (`readings::verdicts`): where every
//!   reading errs the case is `must`, so an implementation that takes another
//!   reading (refusing `[]`, a 0-d decoded shape) must not fail it.
//!
//! The level is the fixed vectors' (`readings::derived_level`): `must` unless two
//! documented readings give different verdicts.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use serde_json::{Value, json};
use zarr_reshape::limits::{MAX_RANK, MAX_SHAPE_LEN};
use zarr_reshape::{
    BrokenRule, Clause, Level, ReshapeConfiguration, ShapeElement, Verdict,
    broken_codec_rule_classes_json_str, broken_rule_classes_json_str,
};

use super::{operand, syntax};
use crate::answer::Answer;
use crate::meaning::rules::broken_rules;
use crate::readings;
use crate::reference;
use crate::vector::{Case, Operation, parse_case};

/// Fills in the expectation (and id, clauses, level, description) of a generated
/// case from the reference's answer, and reads it back as a vector case.
///
/// # Errors
/// When the JSON is not a valid case (a fault of the generator).
pub fn expected_case(json: &Value) -> Result<Case, String> {
    let mut json = json.clone();
    let object = json.as_object_mut().ok_or("a case is an object")?;
    object.insert("expect".into(), json!({"error": "malformed-configuration"}));
    let draft = parse(&json)?;
    let answer = reference::run(&draft);
    let facts = Facts::new(&draft);
    // The case's answer under every other documented reading it raises (None: the
    // readings cannot judge it, as when an operation would be handed an extent the
    // exact reading of I-7 puts beyond 64 bits).
    let verdicts = readings::verdicts(&draft).ok();
    let (expect, classes) = match &answer {
        Answer::Output(output) => (Value::Object(output.clone()), Vec::new()),
        Answer::Error { class, .. } => {
            let mut classes = facts.acceptable(&draft, class.as_deref().unwrap_or(""));
            // Every class a documented reading gives, as the fixed vectors list
            // them (`[]` refused under I-1 is malformed-configuration).
            for other in verdicts.iter().flat_map(readings::Verdicts::classes) {
                if !classes.contains(&other) {
                    classes.push(other);
                }
            }
            let expect = match classes.as_slice() {
                [one] => json!({"error": one}),
                _ => json!({"error": classes}),
            };
            (expect, classes)
        }
        Answer::Skipped { reason }
        | Answer::Errored { message: reason }
        | Answer::Crashed { message: reason } => {
            return Err(format!("the reference gave no answer: {reason}"));
        }
    };
    // Both answers conform where I-6 or I-7 (implementation-defined) differ.
    let mut entries = vec![expect];
    for other in verdicts
        .iter()
        .flat_map(readings::Verdicts::implementation_defined)
    {
        let entry = match other {
            Answer::Output(output) => Value::Object(output.clone()),
            Answer::Error { class, .. } => json!({"error": class}),
            _ => continue,
        };
        if !entries.contains(&entry) && !classes.iter().any(|c| json!({"error": c}) == entry) {
            entries.push(entry);
        }
    }
    let expect = match entries.as_slice() {
        [one] => one.clone(),
        _ => json!({"any_of": entries}),
    };
    let clauses = facts.clauses(&draft, &answer);
    let readings = facts.readings(&draft, &classes, &clauses);
    let description = facts.describe(&draft, &answer, clauses.first().copied());
    let object = json.as_object_mut().ok_or("a case is an object")?;
    object.insert("expect".into(), expect);
    let first = clauses
        .first()
        .map_or("algorithm.ravel", |clause| clause.id());
    let clause_ids: Vec<&str> = clauses.iter().map(|clause| clause.id()).collect();
    object.insert("clauses".into(), Value::from(clause_ids));
    object.insert("interpretations".into(), Value::from(readings));
    // The level a fixed vector gets (the suite's rule, `readings::derived_level`,
    // on the verdicts above): the spec's `should` stays, otherwise `must` unless
    // two documented readings give the case different verdicts. Where every
    // reading errs the case is `must`, whatever readings it touches: an unknown
    // member is refused under every reading of I-5, so ignoring it fails the run.
    // A case the readings cannot judge is reported but does not fail the run: no
    // fixed vector could hold it at `must` either.
    let level = verdicts.map_or(Level::Interpretation, |verdicts| {
        verdicts.level(clauses.first().copied())
    });
    object.insert("level".into(), level.as_str().into());
    object.insert("description".into(), description.into());
    object.insert("id".into(), "fuzz/pending".into());
    let mut hasher = DefaultHasher::new();
    json.to_string().hash(&mut hasher);
    let id = format!(
        "{first}/fuzz-{}-{:08x}",
        draft.operation.name(),
        hasher.finish() >> 32
    );
    if let Some(object) = json.as_object_mut() {
        object.insert("id".into(), id.into());
    }
    parse(&json)
}

fn parse(json: &Value) -> Result<Case, String> {
    parse_case(json).map_err(|(pointer, message)| format!("generated case at {pointer}: {message}"))
}

/// What the reference library says about the case's codec, apart from the operation.
struct Facts {
    parsed: Option<ReshapeConfiguration>,
    explanation: zarr_reshape::Explanation,
    /// For a codec that does not parse, every rule it breaks (the library's audit,
    /// which `tests/multi_violation.rs` holds the fixed vectors to): an unknown
    /// member beside a shape that breaks the invariant breaks both rules.
    audited: Vec<BrokenRule>,
}

impl Facts {
    fn new(case: &Case) -> Self {
        let a_shape = &case.decoded_shape;
        let (parsed, explanation) = match &case.codec {
            crate::vector::CodecJson::Configuration(json) => (
                ReshapeConfiguration::from_json_value(json).ok(),
                zarr_reshape::explain(json, a_shape),
            ),
            crate::vector::CodecJson::Codec(json) => (
                ReshapeConfiguration::from_codec_json_value(json).ok(),
                zarr_reshape::explain_codec(json, a_shape),
            ),
            // Never generated (fuzz offers the first five operations): no one codec.
            crate::vector::CodecJson::Chain(_) => {
                (None, zarr_reshape::explain(&Value::Null, a_shape))
            }
        };
        let audited = match (&parsed, &case.codec) {
            (Some(_), _) | (None, crate::vector::CodecJson::Chain(_)) => Vec::new(),
            (None, crate::vector::CodecJson::Configuration(json)) => {
                broken_rule_classes_json_str(&json.to_string(), a_shape)
            }
            (None, crate::vector::CodecJson::Codec(json)) => {
                broken_codec_rule_classes_json_str(&json.to_string(), a_shape)
            }
        };
        Self {
            parsed,
            explanation,
            audited,
        }
    }

    fn resolved(&self) -> Option<&[u64]> {
        self.explanation.outcome.as_deref().ok()
    }

    /// The reference's class and every other class the readings allow.
    fn acceptable(&self, case: &Case, class: &str) -> Vec<String> {
        let mut classes = vec![class.to_string()];
        let mut add = |name: &str| {
            if !classes.iter().any(|c| c == name) {
                classes.push(name.to_string());
            }
        };
        if self.resolved().is_some() {
            let rank = case.decoded_shape.len();
            let wrong_rank = match &case.operation {
                Operation::MapIndex(index) => index.len() != rank,
                Operation::MapRegion { start, .. } => start.len() != rank,
                _ => false,
            };
            if wrong_rank {
                add("shape-mismatch");
                add("out-of-bounds");
            }
            return classes;
        }
        // The operand may be wrong too, and the spec sets no order (I-8).
        if let Some(operand) = operand::operand_class(case) {
            add(&operand);
        }
        match &self.parsed {
            Some(configuration) => {
                for (_, broken) in broken_rules(configuration.shape(), &case.decoded_shape) {
                    add(broken.as_str());
                }
                if sizes_overflow(configuration.shape()) {
                    add("overflow");
                }
            }
            None => {
                for name in syntax::broken_classes(case, case.decoded_shape.len()) {
                    add(name);
                }
                for (_, broken) in &self.audited {
                    add(broken.as_str());
                }
            }
        }
        if product(&case.decoded_shape).is_none() {
            add("overflow");
        } else if class == "overflow" {
            // An implementation with exact integers reports the rule the product
            // breaks instead (as limits.u64/sizes-product-beyond-u64 accepts).
            add("element-count-mismatch");
            add("input-dims-misaligned");
        }
        if case.decoded_shape.len() > MAX_RANK {
            add("shape-mismatch");
        }
        classes
    }

    /// The clauses: the one the reference's error names, then the other rules broken;
    /// for a success `algorithm.*`, then the clauses the trace evaluated.
    fn clauses(&self, case: &Case, answer: &Answer) -> Vec<Clause> {
        let mut clauses = Vec::new();
        let mut add = |clause: Clause| {
            if !clauses.contains(&clause) {
                clauses.push(clause);
            }
        };
        match (answer, &self.explanation.outcome) {
            (Answer::Error { .. }, Err(error)) => {
                add(error.clause());
                if let Some(configuration) = &self.parsed {
                    for (clause, _) in broken_rules(configuration.shape(), &case.decoded_shape) {
                        add(clause);
                    }
                }
                self.audited.iter().for_each(|(clause, _)| add(*clause));
            }
            (Answer::Error { class, .. }, Ok(_)) => match class.as_deref() {
                Some("overflow") => add(Clause::LimitsU64),
                _ => add(Clause::AlgorithmRavel),
            },
            _ => {
                match case.operation {
                    Operation::Resolve => add(Clause::AlgorithmRank),
                    _ => add(Clause::AlgorithmRavel),
                }
                let mut evaluated: Vec<Clause> = self
                    .explanation
                    .steps
                    .iter()
                    .filter(|step| step.verdict != Verdict::Violated)
                    .map(|step| step.clause)
                    .collect();
                evaluated.sort();
                evaluated.into_iter().for_each(add);
            }
        }
        clauses
    }

    /// The errata and interpretations the expectation depends on.
    fn readings(&self, case: &Case, classes: &[String], clauses: &[Clause]) -> Vec<&'static str> {
        let elements = self.parsed.as_ref().map(ReshapeConfiguration::shape);
        let groups = |empty: bool| {
            elements.is_some_and(|elements| {
                elements
                    .iter()
                    .any(|e| matches!(e, ShapeElement::InputDims(dims) if dims.is_empty() == empty))
            })
        };
        let has = |name: &str| classes.iter().any(|c| c == name);
        let text = syntax::Scan::of(case);
        let rank = case.decoded_shape.len();
        let readings = [
            ("E1", groups(false)),
            (
                "E2",
                groups(false) && (clauses.contains(&Clause::InputDimsPrefix)),
            ),
            ("E6", has("repeated-auto") || has("invalid-size")),
            ("I-1", groups(true) || text.empty_group),
            ("I-2", text.shape_len == Some(0)),
            ("I-3", rank == 0),
            ("I-4", has("input-dim-out-of-range") || text.negative_dim),
            ("I-5", text.unknown_member),
            ("I-6", text.non_integral),
            (
                "I-7",
                has("overflow") || text.beyond_u64 || product(&case.decoded_shape).is_none(),
            ),
            ("I-8", classes.len() > 1),
            ("I-9", case.decoded_shape.contains(&0)),
            (
                "I-10",
                rank > MAX_RANK || text.shape_len.is_some_and(|len| len > MAX_SHAPE_LEN),
            ),
        ];
        readings
            .iter()
            .filter(|(_, applies)| *applies)
            .map(|(id, _)| *id)
            .collect()
    }

    /// A description from the reference's trace: the rule that decided, with its numbers.
    fn describe(&self, case: &Case, answer: &Answer, clause: Option<Clause>) -> String {
        let codec = match &case.codec {
            crate::vector::CodecJson::Configuration(json) => super::text::spaced(json),
            crate::vector::CodecJson::Codec(json) => format!("codec {}", super::text::spaced(json)),
            crate::vector::CodecJson::Chain(json) => {
                format!("codecs {}", super::text::spaced(json))
            }
        };
        let head = format!("{codec} on {:?}", case.decoded_shape);
        let op = case.operation.name();
        let clause = clause.map_or("", Clause::id);
        match (answer, &self.explanation.outcome) {
            (Answer::Error { class, message, .. }, Err(_)) => {
                let class = class.as_deref().unwrap_or("error");
                let violated = self
                    .explanation
                    .steps
                    .iter()
                    .find(|step| step.verdict == Verdict::Violated)
                    .map_or_else(|| message.clone(), |step| step.to_string());
                format!("{head}, {op}: rejected by {clause} ({class}); {violated}")
            }
            (Answer::Error { class, message, .. }, Ok(b_shape)) => format!(
                "{head} resolves to {b_shape:?}, but {op} is rejected by {clause} ({}): {message}",
                class.as_deref().unwrap_or("error")
            ),
            (_, outcome) => {
                let b_shape = outcome
                    .as_ref()
                    .map(|b| format!("{b:?}"))
                    .unwrap_or_default();
                let what = match &case.operation {
                    Operation::Encode(input) | Operation::Decode(input) => format!(
                        "; {op} keeps the {} elements of the {:?} array in C order",
                        input.data_type().name(),
                        input.shape()
                    ),
                    Operation::MapIndex(index) => {
                        format!("; decoded index {index:?} maps to its C-order offset in B_shape")
                    }
                    Operation::MapRegion { start, stop } => format!(
                        "; the box [{start:?}, {stop:?}) maps element by element in C order"
                    ),
                    // resolve, and the operations on chains and arrays: B_shape says it all.
                    _ => String::new(),
                };
                format!("{head} is accepted as {b_shape} ({clause}){what}")
            }
        }
    }
}

fn product(shape: &[u64]) -> Option<u64> {
    shape
        .iter()
        .try_fold(1_u64, |acc, extent| acc.checked_mul(*extent))
}

fn sizes_overflow(elements: &[ShapeElement]) -> bool {
    let sizes = elements.iter().filter_map(|element| match element {
        ShapeElement::Size(size) => Some(*size),
        _ => None,
    });
    sizes
        .into_iter()
        .try_fold(1_u64, |acc, size| acc.checked_mul(size))
        .is_none()
}
