//! The runner's judgement: an answer against a case's expectation.
//!
//! The harness crate judges with the same rules (`harness/src/judge.rs`; its tests
//! and this crate's `tests/vectors.rs` hold the two to the same vectors). Two
//! copies on purpose: this one judges `serde_json::Value`s, whose numbers keep
//! their text only under `arbitrary_precision`, and answers that may be crashes
//! (protocol 2); the harness must not turn that feature on in an adopter's build,
//! so it judges its own exact-text JSON. One copy would mean writing every answer
//! of a run back to text and reading it again to judge it.

use std::fmt;

use serde_json::{Map, Value};

use crate::answer::Answer;
use crate::arrays::TypedArray;
use crate::vector::{Case, CodecJson, Expectation, Operation};

/// How one case went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The answer conforms.
    Pass,
    /// A wrong answer.
    Fail(String),
    /// No usable answer: the adapter's own fault, a timeout, its process dying,
    /// garbage, a protocol violation.
    Error(String),
    /// The implementation crashed (a panic, an uncaught exception, an abort): not
    /// a rejection of the input, whatever the case expects.
    Crash(String),
    /// The implementation skipped the case.
    Skip(String),
}

impl Outcome {
    /// `pass`, `fail`, `error`, `crash` or `skip`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail(_) => "fail",
            Self::Error(_) => "error",
            Self::Crash(_) => "crash",
            Self::Skip(_) => "skip",
        }
    }

    /// Why the case did not pass; empty for a pass.
    #[must_use]
    pub fn reason(&self) -> &str {
        match self {
            Self::Pass => "",
            Self::Fail(why) | Self::Error(why) | Self::Crash(why) | Self::Skip(why) => why,
        }
    }

    /// Whether the case got no conforming answer whatever its level: an error or a
    /// crash. Such a case breaks a run unless it is listed with that outcome.
    #[must_use]
    pub fn is_fault(&self) -> bool {
        matches!(self, Self::Error(_) | Self::Crash(_))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pass => f.write_str("pass"),
            Self::Fail(why) | Self::Error(why) | Self::Crash(why) | Self::Skip(why) => {
                write!(f, "{}: {why}", self.name())
            }
        }
    }
}

/// How errors are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClassCheck {
    /// A named class must be acceptable; an unnamed one passes on error versus success.
    #[default]
    WhenNamed,
    /// Every error must name an acceptable class.
    Strict,
}

/// Judges `answer` against the case's expectation.
#[must_use]
pub fn judge(case: &Case, answer: &Answer, classes: ClassCheck) -> Outcome {
    match answer {
        Answer::Skipped { reason } => Outcome::Skip(reason.clone()),
        Answer::Errored { message } => Outcome::Error(message.clone()),
        Answer::Crashed { message } => Outcome::Crash(message.clone()),
        _ => match mismatch(case, &case.expect, answer, classes) {
            None => Outcome::Pass,
            Some(why) => Outcome::Fail(why),
        },
    }
}

/// Why `answer` does not meet `expect`, or `None` when it does.
fn mismatch(
    case: &Case,
    expect: &Expectation,
    answer: &Answer,
    classes: ClassCheck,
) -> Option<String> {
    match (expect, answer) {
        (Expectation::AnyOf(options), _) => {
            let reasons: Vec<String> = options
                .iter()
                .map(|option| mismatch(case, option, answer, classes))
                .collect::<Option<Vec<String>>>()?;
            Some(format!(
                "matches none of the acceptable results ({})",
                reasons.join("; ")
            ))
        }
        (Expectation::Error(acceptable), Answer::Error { class, chunk, .. }) => {
            let acceptable = match grid_classes(case, acceptable, chunk.as_deref()) {
                Ok(classes) => classes,
                Err(why) => return Some(why),
            };
            match class {
                Some(class) if acceptable.contains(class) => None,
                Some(class) => Some(format!(
                    "error class {class}, expected {}",
                    acceptable.join(" or ")
                )),
                None if classes == ClassCheck::Strict => Some(format!(
                    "an error without a class, expected {}",
                    acceptable.join(" or ")
                )),
                None => None,
            }
        }
        (Expectation::Error(acceptable), Answer::Output(output)) => Some(format!(
            "succeeded with {}, expected an error ({})",
            inline(&Value::Object(output.clone()), "the answer"),
            acceptable.join(" or ")
        )),
        (Expectation::Output(expected), Answer::Error { class, message, .. }) => Some(format!(
            "error [{}] {}, expected {}",
            class.as_deref().unwrap_or("no class"),
            inline_text(message, "the answer"),
            inline(&Value::Object(expected.clone()), "the expectation")
        )),
        (Expectation::Output(expected), Answer::Output(output)) => {
            compare_output(case, expected, output)
        }
        (_, Answer::Skipped { .. } | Answer::Errored { .. } | Answer::Crashed { .. }) => {
            Some("no answer".into())
        }
    }
}

/// `resolve-grid`: the classes an error naming `chunk` may give, or why the
/// chunk is no answer. Any chunk the reference refuses is an answer (a grid may
/// have many), with the class the reference gives on that chunk; on the chunk
/// the reference names itself, every class the case accepts. Where the reference
/// refuses the grid itself and names no chunk, none is asked for. Other
/// operations: the case's classes.
fn grid_classes(
    case: &Case,
    acceptable: &[String],
    chunk: Option<&[u64]>,
) -> Result<Vec<String>, String> {
    let (
        Operation::ResolveGrid {
            data_type,
            array_shape,
            chunk_grid,
        },
        CodecJson::Chain(codecs),
    ) = (&case.operation, &case.codec)
    else {
        return Ok(acceptable.to_vec());
    };
    let named_by_reference = match crate::reference::run(case) {
        Answer::Error { chunk: None, .. } => return Ok(acceptable.to_vec()),
        Answer::Error { chunk, .. } => chunk,
        _ => None,
    };
    let Some(chunk) = chunk else {
        return Err(
            "the error names no chunk: resolve-grid answers the grid coordinates of a \
                    chunk the chain refuses (error.chunk)"
                .into(),
        );
    };
    if named_by_reference.as_deref() == Some(chunk) {
        return Ok(acceptable.to_vec());
    }
    match crate::zarr::chunk_refused(codecs, array_shape, chunk_grid, *data_type, chunk) {
        Ok(Some(error)) => Ok(vec![error.class.as_str().to_string()]),
        Ok(None) => Err(format!(
            "the error names chunk {chunk:?}, which the chain fits (the reference resolves it)"
        )),
        Err(why) => Err(format!("the error names chunk {chunk:?}: {why}")),
    }
}

fn compare_output(
    case: &Case,
    expected: &Map<String, Value>,
    output: &Map<String, Value>,
) -> Option<String> {
    let array_type = match &case.operation {
        Operation::Encode(input) | Operation::Decode(input) => Some(input.data_type()),
        Operation::ReadArray { data_type, .. } => Some(*data_type),
        _ => None,
    };
    for (key, want) in expected {
        let Some(got) = output.get(key) else {
            return Some(format!(
                "the answer has no {key}, expected {}",
                inline(want, "the expectation")
            ));
        };
        let same = match (key.as_str(), array_type) {
            ("data", Some(data_type)) => {
                let read = |shape: Option<&Value>, data: &Value| {
                    let shape: Vec<u64> = shape?
                        .as_array()?
                        .iter()
                        .map(Value::as_u64)
                        .collect::<Option<_>>()?;
                    TypedArray::from_json(data_type, &shape, data).ok()
                };
                let want = read(expected.get("shape"), want);
                want.is_some() && want == read(output.get("shape"), got)
            }
            _ => same_json(want, got),
        };
        if !same {
            return Some(format!(
                "{key} is {}, expected {}",
                inline(got, "the answer"),
                inline(want, "the expectation")
            ));
        }
    }
    None
}

/// The longest JSON text a reason repeats: the answer and the expectation are
/// printed beside the reason, so a longer value is named, not repeated.
pub const MAX_INLINE_BYTES: usize = 200;

/// `value`'s JSON text when short, else its length and where it is shown (`within`).
fn inline(value: &Value, within: &str) -> String {
    inline_text(&value.to_string(), within)
}

/// `text` when short, else its length and where it is shown (`within`).
fn inline_text(text: &str, within: &str) -> String {
    if text.len() <= MAX_INLINE_BYTES {
        text.to_string()
    } else {
        format!("{} bytes (shown in {within})", text.len())
    }
}

/// JSON equality with integers compared by value, whatever their spelling.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y
                || (x.as_u64().is_some() && x.as_u64() == y.as_u64())
                || (x.as_i64().is_some() && x.as_i64() == y.as_i64())
        }
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_json(x, y))
        }
        _ => a == b,
    }
}
