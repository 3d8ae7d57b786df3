//! The judgement of an answer against a case's expectation: the runner's
//! (`conformance/src/judge.rs`) with its default class check, `WhenNamed`: a named
//! error class must be acceptable, an unnamed one passes on error versus success.

use std::collections::BTreeMap;
use std::fmt;

use zarr_reshape_vectors::{Case, Operation};

use crate::answer::Answer;
use crate::json::{Json, same_json};
use crate::typed::{DataType, TypedArray};

/// How one case went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The answer conforms.
    Pass,
    /// A wrong answer.
    Fail(String),
    /// No usable answer: a panic, an `errored` answer, an output that is not an object.
    Error(String),
    /// The implementation skipped the case.
    Skip(String),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pass => f.write_str("pass"),
            Self::Fail(why) => write!(f, "fail: {why}"),
            Self::Error(why) => write!(f, "error: {why}"),
            Self::Skip(why) => write!(f, "skip: {why}"),
        }
    }
}

/// An expected result.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Expectation {
    Output(BTreeMap<String, Json>),
    Error(Vec<String>),
    AnyOf(Vec<Expectation>),
}

/// A case's expectation, read once before its trial runs.
#[derive(Debug, Clone)]
pub(crate) struct Expected {
    expect: Expectation,
    /// The text of `expect`, compact, for failure messages.
    pub(crate) text: String,
    /// The data type of the arrays the case outputs, if any (`data` compares typed).
    array_type: Option<DataType>,
}

impl Expected {
    /// Reads the expectation of `case`.
    ///
    /// # Errors
    /// What is wrong with the case's `expect`, `input` or `array`.
    pub(crate) fn of(case: &Case) -> Result<Self, String> {
        let json = Json::parse(case.expect.get()).map_err(|e| format!("expect: {e}"))?;
        let array = match case.operation {
            Operation::Encode | Operation::Decode => Some(("input", case.input)),
            Operation::ReadArray => Some(("array", case.array)),
            _ => None,
        };
        let array_type = match array {
            None => None,
            Some((member, raw)) => {
                let name = raw
                    .and_then(|raw| Json::parse(raw.get()).ok())
                    .and_then(|json| {
                        json.as_object()?
                            .get("data_type")?
                            .as_str()
                            .map(str::to_string)
                    });
                let data_type = name
                    .as_deref()
                    .and_then(DataType::from_name)
                    .ok_or_else(|| format!("{member}.data_type must name a Zarr core data type"))?;
                Some(data_type)
            }
        };
        Ok(Self {
            expect: expectation(&json, "expect")?,
            text: json.to_string(),
            array_type,
        })
    }

    /// Judges `answer` against this expectation.
    pub(crate) fn judge(&self, answer: &Answer) -> Outcome {
        let output = match answer {
            Answer::Skipped { reason } => return Outcome::Skip(reason.clone()),
            Answer::Errored { message } => return Outcome::Error(message.clone()),
            Answer::Error { .. } => None,
            Answer::Output(raw) => match Json::parse(raw.get()) {
                Ok(Json::Object(output)) => Some(output),
                Ok(other) => {
                    return Outcome::Error(format!("an output must be a JSON object, got {other}"));
                }
                Err(error) => return Outcome::Error(format!("the output is not JSON: {error}")),
            },
        };
        match self.mismatch(&self.expect, answer, output.as_ref()) {
            None => Outcome::Pass,
            Some(why) => Outcome::Fail(why),
        }
    }

    /// Why the answer does not meet `expect`, or `None` when it does.
    fn mismatch(
        &self,
        expect: &Expectation,
        answer: &Answer,
        output: Option<&BTreeMap<String, Json>>,
    ) -> Option<String> {
        match (expect, answer, output) {
            (Expectation::AnyOf(options), _, _) => {
                let reasons: Vec<String> = options
                    .iter()
                    .map(|option| self.mismatch(option, answer, output))
                    .collect::<Option<Vec<String>>>()?;
                Some(format!(
                    "matches none of the acceptable results ({})",
                    reasons.join("; ")
                ))
            }
            (Expectation::Error(acceptable), Answer::Error { class, .. }, _) => match class {
                Some(class) if acceptable.contains(class) => None,
                Some(class) => Some(format!(
                    "error class {class}, expected {}",
                    acceptable.join(" or ")
                )),
                None => None,
            },
            (Expectation::Error(acceptable), _, Some(output)) => Some(format!(
                "succeeded with {}, expected an error ({})",
                Json::Object(output.clone()),
                acceptable.join(" or ")
            )),
            (Expectation::Output(expected), Answer::Error { class, message }, _) => Some(format!(
                "error [{}] {message}, expected {}",
                class.as_deref().unwrap_or("no class"),
                Json::Object(expected.clone())
            )),
            (Expectation::Output(expected), _, Some(output)) => {
                self.compare_output(expected, output)
            }
            _ => Some("no answer".into()),
        }
    }

    fn compare_output(
        &self,
        expected: &BTreeMap<String, Json>,
        output: &BTreeMap<String, Json>,
    ) -> Option<String> {
        for (key, want) in expected {
            let Some(got) = output.get(key) else {
                return Some(format!("the answer has no {key}, expected {want}"));
            };
            let same = match (key.as_str(), self.array_type) {
                ("data", Some(data_type)) => {
                    let want = TypedArray::read(data_type, expected.get("shape"), want);
                    want.is_some() && want == TypedArray::read(data_type, output.get("shape"), got)
                }
                _ => same_json(want, got),
            };
            if !same {
                return Some(format!("{key} is {got}, expected {want}"));
            }
        }
        None
    }
}

/// Reads an expectation: `{"any_of": [...]}`, `{"error": class or [classes]}`, or
/// the output members.
fn expectation(json: &Json, place: &str) -> Result<Expectation, String> {
    let object = json
        .as_object()
        .ok_or_else(|| format!("{place}: an expectation is a JSON object"))?;
    if let Some(options) = object.get("any_of") {
        let options = options
            .as_array()
            .ok_or_else(|| format!("{place}.any_of must be a list"))?;
        return options
            .iter()
            .enumerate()
            .map(|(i, option)| expectation(option, &format!("{place}.any_of[{i}]")))
            .collect::<Result<_, _>>()
            .map(Expectation::AnyOf);
    }
    let classes: Vec<&Json> = match object.get("error") {
        None => return Ok(Expectation::Output(object.clone())),
        Some(Json::Array(classes)) if !classes.is_empty() => classes.iter().collect(),
        Some(class) => vec![class],
    };
    classes
        .into_iter()
        .map(|class| {
            class.as_str().map(str::to_string).ok_or_else(|| {
                format!("{place}.error must be a class or a non-empty list of classes")
            })
        })
        .collect::<Result<_, _>>()
        .map(Expectation::Error)
}
