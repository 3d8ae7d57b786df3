//! A case's answer under every combination of the documented readings it raises,
//! and the level and classes that follow.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};
use zarr_reshape::limits::{MAX_RANK, MAX_SHAPE_LEN};
use zarr_reshape::{Clause, ErrorClass, Level, explain_codec_json_str, explain_json_str};

use super::alternative::{
    Alternative, IMPLEMENTATION_DEFINED, codecs, integral_rewrite, must_understand_rewrite,
    negative_zero_dim, optional_members_rewrite, shape_is_computed,
};
use super::exact::{self, Mode};
use crate::answer::Answer;
use crate::reference;
use crate::vector::{Case, CodecJson, Operation, parse_case};
use crate::zarr::GridReading;

/// The answers to one case, one per combination of the other readings it raises
/// (the reference's own answer first, under none of them).
#[derive(Debug, Clone)]
pub struct Verdicts {
    /// Each combination of other readings taken, and the answer under it.
    pub answers: Vec<(Vec<Alternative>, Answer)>,
}

impl Verdicts {
    /// Whether two readings give different verdicts: an error against a success,
    /// or two different successes. Which class an error names is no verdict.
    #[must_use]
    pub fn differ(&self) -> bool {
        let mut outputs = self.answers.iter().map(|(_, answer)| match answer {
            Answer::Output(output) => Some(output),
            _ => None,
        });
        let first = outputs.next().flatten();
        outputs.any(|output| output != first)
    }

    /// Every class an error answer names, under any reading.
    #[must_use]
    pub fn classes(&self) -> BTreeSet<String> {
        self.answers
            .iter()
            .filter_map(|(_, answer)| match answer {
                Answer::Error { class, .. } => class.clone(),
                _ => None,
            })
            .collect()
    }

    /// The other readings that change the verdict (each where taking it, and
    /// nothing else, does): those a case below `must` depends on.
    #[must_use]
    pub fn deciding(&self) -> BTreeSet<Alternative> {
        let under = |taken: &[Alternative]| {
            self.answers
                .iter()
                .find(|(other, _)| other.as_slice() == taken)
                .map(|(_, answer)| verdict(answer))
        };
        let mut deciding = BTreeSet::new();
        for (taken, answer) in &self.answers {
            for alternative in taken {
                let without: Vec<Alternative> =
                    taken.iter().copied().filter(|a| a != alternative).collect();
                if under(&without).is_some_and(|other| other != verdict(answer)) {
                    deciding.insert(*alternative);
                }
            }
        }
        deciding
    }

    /// The answers of the implementation-defined readings (I-6, I-7, alone or
    /// together) where they differ from the reference's: a vector accepts them too.
    #[must_use]
    pub fn implementation_defined(&self) -> Vec<&Answer> {
        let reference = self.answers.first().map(|(_, answer)| answer);
        let mut found: Vec<&Answer> = Vec::new();
        for (taken, answer) in self.answers.iter().skip(1) {
            let defined = taken
                .iter()
                .all(|alternative| IMPLEMENTATION_DEFINED.contains(alternative));
            if defined && Some(answer) != reference && !found.contains(&answer) {
                found.push(answer);
            }
        }
        found
    }

    /// The level that follows: the spec's own `should` stays; otherwise `must`
    /// unless two documented readings give different verdicts.
    #[must_use]
    pub fn level(&self, clause: Option<Clause>) -> Level {
        match clause.map(Clause::level) {
            Some(Level::Should) => Level::Should,
            _ if self.differ() => Level::Interpretation,
            _ => Level::Must,
        }
    }
}

fn verdict(answer: &Answer) -> Option<&Map<String, Value>> {
    match answer {
        Answer::Output(output) => Some(output),
        _ => None,
    }
}

/// The level a case's readings give it.
///
/// # Errors
/// As [`verdicts`].
pub fn derived_level(case: &Case) -> Result<Level, String> {
    Ok(verdicts(case)?.level(clause_under_test(case)))
}

/// The case's first clause, the one under test, where the registry knows it.
#[must_use]
pub fn clause_under_test(case: &Case) -> Option<Clause> {
    let id = case.clauses.first()?;
    Clause::ALL.iter().copied().find(|clause| clause.id() == id)
}

/// The case's answer under every combination of the other readings it raises.
///
/// # Errors
/// When a reading cannot be applied to the case (a shape the reference computes
/// inside a chain or an array, an answer the reference declines): the case cannot
/// be judged, which the levels test reports.
pub fn verdicts(case: &Case) -> Result<Verdicts, String> {
    let raised: Vec<Alternative> = Alternative::ALL
        .into_iter()
        .filter(|alternative| alternative.applies(case))
        .collect();
    let mut answers = Vec::new();
    for taken in combinations(&raised) {
        let answer = answer_under(case, &taken)?;
        if let Answer::Skipped { reason }
        | Answer::Errored { message: reason }
        | Answer::Crashed { message: reason } = &answer
        {
            return Err(format!("{}: no answer under {taken:?}: {reason}", case.id));
        }
        answers.push((taken, answer));
    }
    Ok(Verdicts { answers })
}

/// Every subset of `raised`, the empty one first.
fn combinations(raised: &[Alternative]) -> Vec<Vec<Alternative>> {
    let mut subsets = vec![Vec::new()];
    for alternative in raised {
        let with: Vec<Vec<Alternative>> = subsets
            .iter()
            .map(|subset| {
                let mut subset = subset.clone();
                subset.push(*alternative);
                subset
            })
            .collect();
        subsets.extend(with);
    }
    subsets
}

fn refused(class: ErrorClass, reading: &str) -> Answer {
    Answer::Error {
        class: Some(class.as_str().to_owned()),
        message: format!("refused under the other reading of {reading}"),
        chunk: None,
    }
}

/// A reading that rewrites the case's JSON (`None`: nothing to rewrite).
type Rewrite = fn(&Case) -> Option<Value>;

fn answer_under(case: &Case, taken: &[Alternative]) -> Result<Answer, String> {
    let has = |alternative: Alternative| taken.contains(&alternative);
    // The refusal readings answer before anything is read.
    for alternative in taken {
        let Some(class) = alternative.refusal() else {
            continue;
        };
        if class == ErrorClass::ShapeMismatch && shape_is_computed(case) {
            return Err(format!(
                "{}: {} needs the shape reshape is handed inside a chain or an array",
                case.id,
                alternative.reading()
            ));
        }
        return Ok(refused(class, alternative.reading()));
    }
    // I-6 read as doubles: -0 is a negative input dim (I-4).
    if has(Alternative::NumbersAsDoubles)
        && shape_of(case).is_some_and(|shape| negative_zero_dim(&shape))
    {
        return Ok(refused(ErrorClass::MalformedConfiguration, "I-6"));
    }
    // The spelling readings rewrite what the reference reads.
    let mut case = case.clone();
    let rewrites: [(Alternative, Rewrite); 3] = [
        (Alternative::MustUnderstandAsTrue, must_understand_rewrite),
        (Alternative::OptionalMemberIgnored, optional_members_rewrite),
        (Alternative::NumbersAsDoubles, integral_rewrite),
    ];
    for (alternative, rewrite) in rewrites {
        if has(alternative) {
            if let Some(json) = rewrite(&case) {
                case = reparse(&json, &case)?;
            } else if alternative.applies(&case) {
                return Err(format!(
                    "{}: {} cannot be applied to this case",
                    case.id,
                    alternative.reading()
                ));
            }
        }
    }
    let reading = GridReading {
        every_declared_chunk: has(Alternative::EveryDeclaredChunk),
        fitting_chunks_read: has(Alternative::FittingChunksRead),
    };
    let answer = reference::run_under(&case, reading);
    let mode = Mode {
        exact: has(Alternative::ExactIntegers),
        bounded: !has(Alternative::Unbounded),
        auto_by_alignment: has(Alternative::AutoFromAlignment),
    };
    if mode == Mode::REFERENCE {
        return Ok(answer);
    }
    modelled(&case, answer, mode)
}

fn reparse(json: &Value, case: &Case) -> Result<Case, String> {
    let mut rewritten = parse_case(json)
        .map_err(|(pointer, message)| format!("{}: {pointer}: {message}", case.id))?;
    // A read-array case keeps the path the loader made absolute.
    rewritten.operation = case.operation.clone();
    Ok(rewritten)
}

/// The clauses whose verdict the modelled readings (I-7, I-9's -1, I-10) decide
/// otherwise than the reference.
const MODELLED: [Clause; 3] = [
    Clause::LimitsU64,
    Clause::LimitsRank,
    Clause::ShapeAutoValue,
];

/// Whether the first rule the library finds broken is one the modelled readings
/// decide (`None` for a shape computed inside a chain or an array): any other
/// rule, a wrong name or an unknown member among them, errs under them too.
fn modelled_rule_decides(case: &Case) -> Option<bool> {
    let outcome = match &case.codec {
        CodecJson::Configuration(configuration) => {
            explain_json_str(&configuration.to_string(), &case.decoded_shape).outcome
        }
        CodecJson::Codec(codec) => {
            explain_codec_json_str(&codec.to_string(), &case.decoded_shape).outcome
        }
        CodecJson::Chain(_) => return None,
    };
    Some(outcome.is_err_and(|error| MODELLED.contains(&error.clause())))
}

/// The answer under I-7's exact integers, I-9's -1 fixed by alignment or I-10's
/// unbounded sizes: where the library stops at a rule they decide otherwise,
/// `B_shape` is found by [`exact::resolve`] and handed to the reference as plain
/// sizes for the operation itself.
fn modelled(case: &Case, answer: Answer, mode: Mode) -> Result<Answer, String> {
    let Some(shape) = shape_of(case) else {
        return Ok(answer);
    };
    let differs = exact::resolve(&shape, &case.decoded_shape, mode)
        != exact::resolve(&shape, &case.decoded_shape, Mode::REFERENCE);
    match (modelled_rule_decides(case), differs) {
        (_, false) | (Some(false), true) => return Ok(answer),
        (None, true) => {
            return Err(format!(
                "{}: I-7, I-9 and I-10 need the shape reshape is handed inside a chain or an array",
                case.id
            ));
        }
        (Some(true), true) => {}
    }
    let b_shape = match exact::resolve(&shape, &case.decoded_shape, mode) {
        Ok(b_shape) => b_shape,
        Err(class) => return Ok(refused(class, "I-7, I-9 or I-10")),
    };
    if matches!(case.operation, Operation::Resolve) {
        let mut output = Map::new();
        output.insert("encoded_shape".into(), json!(b_shape_json(&b_shape)?));
        return Ok(Answer::Output(output));
    }
    // The operation itself, on the sizes the other reading found: each must be a
    // size the library reads, within its limits.
    let limit = num_bigint::BigUint::from(u64::MAX);
    let zero = num_bigint::BigUint::ZERO;
    let beyond = b_shape.len() > MAX_SHAPE_LEN || case.decoded_shape.len() > MAX_RANK;
    if beyond
        || b_shape
            .iter()
            .any(|extent| *extent > limit || *extent == zero)
    {
        return Err(format!(
            "{}: the other reading gives a B_shape that no operation but resolve can be handed as sizes (an extent beyond 64 bits or of 0, or beyond the limits)",
            case.id
        ));
    }
    let mut json = case.json.clone();
    let object = json.as_object_mut().ok_or("a case is an object")?;
    object.remove("codec");
    object.insert(
        "configuration".into(),
        json!({"shape": b_shape_json(&b_shape)?}),
    );
    Ok(reference::run(&reparse(&json, case)?))
}

fn b_shape_json(b_shape: &[num_bigint::BigUint]) -> Result<Vec<Value>, String> {
    b_shape
        .iter()
        .map(|extent| {
            serde_json::from_str::<Value>(&extent.to_string()).map_err(|error| error.to_string())
        })
        .collect()
}

/// The `shape` of the one reshape a non-chain case has.
fn shape_of(case: &Case) -> Option<Value> {
    codecs(case)
        .first()?
        .get("configuration")?
        .get("shape")
        .cloned()
}
