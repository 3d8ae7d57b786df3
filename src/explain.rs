//! The trace behind a resolution: one step per clause evaluated, with its numbers.
//!
//! Parsing and resolution write into a trace as they check; with tracing off
//! the steps are never formatted, so `resolve` pays nothing for `explain`.

use std::fmt;

use serde_json::Value;

use crate::clause::Clause;
use crate::configuration::ReshapeConfiguration;
use crate::error::{Position, ReshapeError};
use crate::json::Json;
use crate::product::list;

/// What a step found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The step computed a value (an element kind, an extent).
    Defines,
    /// The rule holds.
    Holds,
    /// The rule is broken; resolution stops here.
    Violated,
}

/// One clause evaluated at one place, with the numbers involved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The clause evaluated.
    pub clause: Clause,
    /// The element of `shape` it was evaluated at, if any.
    pub at: Option<Position>,
    /// The formula with its numbers, e.g. `prod(B_shape[:1]) = 2, prod(A_shape[:2]) = 6`.
    pub detail: String,
    /// What it found.
    pub verdict: Verdict,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.clause)?;
        if let Some(at) = self.at {
            write!(f, " at {at}")?;
        }
        write!(f, ": {}", self.detail)?;
        match self.verdict {
            Verdict::Defines => Ok(()),
            Verdict::Holds => f.write_str(" -> holds"),
            Verdict::Violated => f.write_str(" -> violated"),
        }
    }
}

/// Where checks write their steps; a no-op unless tracing was asked for.
pub(crate) struct Trace {
    steps: Option<Vec<Step>>,
}

impl Trace {
    /// A trace that records nothing.
    #[inline]
    pub(crate) fn off() -> Self {
        Self { steps: None }
    }

    fn on() -> Self {
        Self {
            steps: Some(Vec::new()),
        }
    }

    /// Records a step; `detail` is only called when tracing is on.
    #[inline]
    pub(crate) fn note(
        &mut self,
        clause: Clause,
        at: Option<Position>,
        verdict: Verdict,
        detail: impl FnOnce() -> String,
    ) {
        if let Some(steps) = self.steps.as_mut() {
            steps.push(Step {
                clause,
                at,
                detail: detail(),
                verdict,
            });
        }
    }

    /// Records a rule's verdict and returns `Err(error)` when it is violated.
    #[inline]
    pub(crate) fn check(
        &mut self,
        holds: bool,
        clause: Clause,
        at: Option<Position>,
        detail: impl FnOnce() -> String,
        error: impl FnOnce() -> ReshapeError,
    ) -> Result<(), ReshapeError> {
        let verdict = if holds {
            Verdict::Holds
        } else {
            Verdict::Violated
        };
        self.note(clause, at, verdict, detail);
        if holds { Ok(()) } else { Err(error()) }
    }
}

/// A resolution explained: every step taken and where it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The decoded shape resolved against.
    pub a_shape: Vec<u64>,
    /// The steps, in the order they were evaluated.
    pub steps: Vec<Step>,
    /// `B_shape`, or the first rule broken.
    pub outcome: Result<Vec<u64>, ReshapeError>,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "A_shape = {}", list(&self.a_shape))?;
        for step in &self.steps {
            writeln!(f, "  {step}")?;
        }
        match &self.outcome {
            Ok(b_shape) => write!(f, "B_shape = {}", list(b_shape)),
            Err(error) => write!(f, "error [{}] ({}): {error}", error.class(), error.clause()),
        }
    }
}

/// Explains the resolution of a codec `configuration` (the JSON member) against
/// the decoded shape `a_shape`, clause by clause. Numbers are read as the `Value`
/// holds them (see [`ReshapeConfiguration::from_configuration_json`]); for exact
/// numbers from text, use [`explain_json_str`].
///
/// ```
/// let configuration = serde_json::json!({"shape": [[0], [2], -1]});
/// let explanation = zarr_reshape::explain(&configuration, &[2, 3, 4]);
/// assert!(explanation.outcome.is_err());
/// assert!(explanation.to_string().contains(
///     "input-dims.prefix at shape[1]: prod(B_shape[:1]) = 2, prod(A_shape[:2]) = 6 -> violated"
/// ));
/// ```
#[must_use]
pub fn explain(configuration: &Value, a_shape: &[u64]) -> Explanation {
    explain_with(a_shape, |trace| {
        ReshapeConfiguration::parse_configuration(Json::Value(configuration), trace)
    })
}

/// Like [`explain`], for a whole codec object `{"name": "reshape", "configuration": ...}`.
#[must_use]
pub fn explain_codec(codec: &Value, a_shape: &[u64]) -> Explanation {
    explain_with(a_shape, |trace| {
        ReshapeConfiguration::parse_codec(Json::Value(codec), trace)
    })
}

/// Like [`explain`], for the configuration as JSON text, with every number read
/// exactly as written (see [`ReshapeConfiguration::from_json_str`]). Text that is
/// not JSON ends the trace with a `malformed-configuration` step.
///
/// ```
/// let explanation = zarr_reshape::explain_json_str(r#"{"shape": [[0], [2], -1]}"#, &[2, 3, 4]);
/// assert!(explanation.to_string().contains("input-dims.prefix at shape[1]"));
/// ```
#[must_use]
pub fn explain_json_str(configuration: &str, a_shape: &[u64]) -> Explanation {
    explain_with(a_shape, |trace| {
        let configuration = Json::from_text(configuration, "configuration")?;
        ReshapeConfiguration::parse_configuration(configuration, trace)
    })
}

/// Like [`explain_codec`], for the codec object as JSON text, with every number
/// read exactly as written.
#[must_use]
pub fn explain_codec_json_str(codec: &str, a_shape: &[u64]) -> Explanation {
    explain_with(a_shape, |trace| {
        let codec = Json::from_text(codec, "codec object")?;
        ReshapeConfiguration::parse_codec(codec, trace)
    })
}

/// Where in `shape` an error is, for the trace.
fn error_position(error: &ReshapeError) -> Option<Position> {
    match error {
        ReshapeError::WrongKind { at, .. }
        | ReshapeError::NotAnInteger { at, .. }
        | ReshapeError::InvalidSize { at, .. }
        | ReshapeError::SizeTooLarge { at, .. }
        | ReshapeError::NegativeInputDim { at, .. }
        | ReshapeError::InputDimTooLarge { at, .. }
        | ReshapeError::InputDimOutOfRange { at, .. } => Some(*at),
        _ => None,
    }
}

fn explain_with(
    a_shape: &[u64],
    parse: impl FnOnce(&mut Trace) -> Result<ReshapeConfiguration, ReshapeError>,
) -> Explanation {
    let mut trace = Trace::on();
    let outcome = parse(&mut trace)
        .and_then(|configuration| configuration.resolve_traced(a_shape, &mut trace));
    if let Err(error) = &outcome {
        // Errors found while reading the JSON or computing a product end the trace
        // without a step of their own; give them one, so the trace shows where it stopped.
        let last = trace
            .steps
            .as_ref()
            .and_then(|steps| steps.last())
            .map(|step| step.verdict);
        if last != Some(Verdict::Violated) {
            trace.note(
                error.clause(),
                error_position(error),
                Verdict::Violated,
                || error.to_string(),
            );
        }
    }
    Explanation {
        a_shape: a_shape.to_vec(),
        steps: trace.steps.unwrap_or_default(),
        outcome,
    }
}
