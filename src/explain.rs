//! A resolution explained: parse and resolve with the trace on, for people (the
//! CLI's `resolve`, spec editors) who want to see why a configuration is accepted
//! or rejected. Sits on top of the data flow; nothing below calls it.

use std::fmt;

use serde_json::Value;

use crate::configuration::ReshapeConfiguration;
use crate::error::ReshapeError;
use crate::json::Json;
use crate::parse::{parse_codec, parse_configuration};
use crate::product::list;
use crate::resolve::resolve_traced;
use crate::trace::{Step, Trace, Verdict};

/// A resolution explained: every step taken and where it ended. `{}` prints one
/// line per step; `{:#}` also quotes, under a step that broke a MUST rule, the
/// spec's sentence for it ([`crate::Clause::text`]).
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
            // `{:#}` also quotes the spec's sentence for the rule that was broken.
            let sentence = step.clause.text().filter(|_| f.alternate());
            if let (Verdict::Violated, Some(sentence)) = (step.verdict, sentence) {
                writeln!(f, "    the spec: \"{sentence}\"")?;
            }
        }
        match &self.outcome {
            Ok(b_shape) => write!(f, "B_shape = {}", list(b_shape)),
            Err(error) => write!(f, "error [{}] ({}): {error}", error.class(), error.clause()),
        }
    }
}

/// Explains the resolution of a codec `configuration` (the JSON member) against
/// the decoded shape `a_shape`, clause by clause. Numbers are read as the `Value`
/// holds them (see [`ReshapeConfiguration::from_json_value`]); for exact
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
        parse_configuration(Json::Value(configuration), trace)
    })
}

/// Like [`explain`], for a whole codec object `{"name": "reshape", "configuration": ...}`.
#[must_use]
pub fn explain_codec(codec: &Value, a_shape: &[u64]) -> Explanation {
    explain_with(a_shape, |trace| parse_codec(Json::Value(codec), trace))
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
        parse_configuration(configuration, trace)
    })
}

/// Like [`explain_codec`], for the codec object as JSON text, with every number
/// read exactly as written.
#[must_use]
pub fn explain_codec_json_str(codec: &str, a_shape: &[u64]) -> Explanation {
    explain_with(a_shape, |trace| {
        let codec = Json::from_text(codec, "codec object")?;
        parse_codec(codec, trace)
    })
}

fn explain_with(
    a_shape: &[u64],
    parse: impl FnOnce(&mut Trace) -> Result<ReshapeConfiguration, ReshapeError>,
) -> Explanation {
    let mut trace = Trace::on();
    let outcome = parse(&mut trace)
        .and_then(|configuration| resolve_traced(&configuration, a_shape, &mut trace));
    if let Err(error) = &outcome {
        // Errors found while reading the JSON or computing a product end the trace
        // without a step of their own; give them one, so the trace shows where it stopped.
        if trace.last_verdict() != Some(Verdict::Violated) {
            trace.note(error.clause(), error.position(), Verdict::Violated, || {
                error.to_string()
            });
        }
    }
    Explanation {
        a_shape: a_shape.to_vec(),
        steps: trace.into_steps(),
        outcome,
    }
}
