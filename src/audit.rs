//! Every MUST rule (and reading) a configuration breaks on a decoded shape, not
//! just the first: the suite's check that each error vector has a sibling that
//! breaks only its own rule, and that it accepts the class of every rule it
//! breaks (issue 14). Sits beside [`crate::explain`] on top of the data flow and
//! calls the same rule functions, each on its own, with no order between them.
//!
//! What a rule is evaluated on, when another one is broken:
//! - An element of `shape` that is no shape element (`{}`, `2.5`, a negative
//!   size other than -1, a size or input dim beyond 64 bits) is, for the
//!   clauses, left out, as an implementation that skips the element rules would
//!   drop it; for the classes, kept in its place with an unknown extent, as no
//!   conforming implementation gets past it. A size 0 stays in `B_shape` as the
//!   extent 0, as one that skips `shape.size` would keep it (the spec's formulas
//!   are defined for 0). A negative input dim also breaks `input-dims.range`: it
//!   names no dimension.
//! - An extent that cannot be computed (an input dim out of range, a product
//!   beyond 64 bits) is unknown, and so is the -1 when it cannot be determined or
//!   occurs twice. A rule that needs an unknown value is not evaluated: the
//!   invariant and the -1's value need every other extent and `prod(A_shape)`,
//!   the prefix rule the extents before the element and its first input dim in
//!   range, the suffix rule those after and its last input dim in range.
//! - A product of known extents beyond 64 bits is `overflow`, and, in exact
//!   arithmetic (I-7), larger than `prod(A_shape)`: the invariant (or the -1's
//!   value) is broken too. With -1 more than once the invariant "cannot be
//!   satisfied" when the other extents' product does not divide `prod(A_shape)`
//!   (a product 0 never does, as for one -1 under I-9).
//! - Past the limits on the JSON text or on `len(shape)` nothing more is
//!   evaluated (the limits are there so that nothing is); past the limit on the
//!   decoded rank everything still is, as its cost is the caller's.
//! - A codec object that is not an object, a configuration that is not an
//!   object, or a `shape` that is missing or not an array ends the evaluation.

pub use crate::audit_rules::BrokenRule;
use crate::audit_rules::{Broken, audit_shape};
use crate::clause::Clause;
use crate::configuration::ShapeElement;
use crate::error::ReshapeError;
use crate::error_class::ErrorClass;
use crate::json::{Json, Node};
use crate::parse::{
    CODEC_MEMBERS, CONFIGURATION_MEMBERS, check_shape_len, codec_name, configuration_members,
    shape_element,
};
use crate::trace::Trace;

/// The clauses a codec `configuration`, as JSON text, breaks on the decoded shape
/// `a_shape`: every one that can be evaluated, in the order of [`Clause::ALL`],
/// each once; empty when the configuration resolves. The first rule
/// [`crate::ReshapeConfiguration::resolve`] reports is always among them.
/// Numbers are read exactly, as [`crate::ReshapeConfiguration::from_json_str`]
/// reads them. The module `audit` of the source says which rules are left out
/// when another one makes them impossible to evaluate.
///
/// ```
/// use zarr_reshape::{Clause, broken_rules_json_str};
/// // [[1], [0]] on [2, 3]: the input dims decrease, and [1] does not start B_shape
/// // where A_shape[:1] ends (the prefix rule).
/// let broken = broken_rules_json_str(r#"{"shape": [[1], [0]]}"#, &[2, 3]);
/// assert_eq!(broken, [Clause::InputDimsIncreasing, Clause::InputDimsPrefix, Clause::InputDimsSuffix]);
/// // The same rule broken alone: [[0], [1]] is aligned; with -1 twice on [6] only
/// // shape.auto.once is broken, as no extent is known to count.
/// assert_eq!(broken_rules_json_str(r#"{"shape": [-1, -1]}"#, &[6]), [Clause::ShapeAutoOnce]);
/// assert!(broken_rules_json_str(r#"{"shape": [[0], [1]]}"#, &[2, 3]).is_empty());
/// ```
#[must_use]
pub fn broken_rules_json_str(configuration: &str, a_shape: &[u64]) -> Vec<Clause> {
    clauses_of(&rules_json_str(configuration, a_shape, Skipped::Dropped))
}

/// The rules a codec `configuration`, as JSON text, breaks on the decoded shape
/// `a_shape`, each with the class of its error: the classes an error vector
/// accepts, as the spec sets no order of checks (reading I-8). Sorted by clause,
/// then class; each pair once; empty when the configuration resolves.
///
/// Unlike [`broken_rules_json_str`], which drops an element that is no shape
/// element (as an implementation that skips the element rules would, so that a
/// vector's sibling can be checked), this keeps it as an extent no rule can
/// read: no conforming implementation gets past such an element, so `[{}]` on
/// `[6]` breaks `shape.element` only, not the invariant.
///
/// ```
/// use zarr_reshape::{Clause, ErrorClass, broken_rule_classes_json_str};
/// // [[1], [0]] on [2, 3]: not increasing, and misaligned on both sides.
/// let broken = broken_rule_classes_json_str(r#"{"shape": [[1], [0]]}"#, &[2, 3]);
/// assert_eq!(broken, [
///     (Clause::InputDimsIncreasing, ErrorClass::InputDimsNotIncreasing),
///     (Clause::InputDimsPrefix, ErrorClass::InputDimsMisaligned),
///     (Clause::InputDimsSuffix, ErrorClass::InputDimsMisaligned),
/// ]);
/// // A negative input dim is no input dim (malformed), and names no dimension.
/// let broken = broken_rule_classes_json_str(r#"{"shape": [[-1]]}"#, &[2]);
/// assert_eq!(broken, [
///     (Clause::ShapeInputDims, ErrorClass::MalformedConfiguration),
///     (Clause::InputDimsRange, ErrorClass::InputDimOutOfRange),
/// ]);
/// let broken = broken_rule_classes_json_str(r#"{"shape": [{}]}"#, &[6]);
/// assert_eq!(broken, [(Clause::ShapeElement, ErrorClass::MalformedConfiguration)]);
/// // 257 input dims in one element, on a decoded shape of rank 257: both limits.
/// let dims: Vec<String> = (0..257).map(|dim: u32| dim.to_string()).collect();
/// let configuration = format!(r#"{{"shape": [[{}]]}}"#, dims.join(", "));
/// assert_eq!(broken_rule_classes_json_str(&configuration, &[1; 257]), [
///     (Clause::LimitsRank, ErrorClass::MalformedConfiguration),
///     (Clause::LimitsRank, ErrorClass::ShapeMismatch),
/// ]);
/// ```
#[must_use]
pub fn broken_rule_classes_json_str(configuration: &str, a_shape: &[u64]) -> Vec<BrokenRule> {
    rules_json_str(configuration, a_shape, Skipped::Unknown)
}

fn rules_json_str(configuration: &str, a_shape: &[u64], skipped: Skipped) -> Vec<BrokenRule> {
    let mut broken = Broken::default();
    match Json::from_text(configuration, "configuration") {
        Ok(configuration) => audit_configuration(configuration, a_shape, skipped, &mut broken),
        Err(error) => broken.add(&error),
    }
    broken.into_rules()
}

/// Like [`broken_rules_json_str`], for a whole codec object as JSON text,
/// `{"name": "reshape", "configuration": {...}}`.
///
/// ```
/// use zarr_reshape::{Clause, broken_codec_rules_json_str};
/// let codec = r#"{"name": "transpose", "configuration": {"shape": [-1, -1]}}"#;
/// assert_eq!(broken_codec_rules_json_str(codec, &[6]), [Clause::CodecName, Clause::ShapeAutoOnce]);
/// ```
#[must_use]
pub fn broken_codec_rules_json_str(codec: &str, a_shape: &[u64]) -> Vec<Clause> {
    clauses_of(&codec_rules_json_str(codec, a_shape, Skipped::Dropped))
}

/// Like [`broken_rule_classes_json_str`], for a whole codec object as JSON text.
///
/// ```
/// use zarr_reshape::{Clause, ErrorClass, broken_codec_rule_classes_json_str};
/// let codec = r#"{"name": "transpose", "configuration": {"shape": [-1, -1]}}"#;
/// assert_eq!(broken_codec_rule_classes_json_str(codec, &[6]), [
///     (Clause::CodecName, ErrorClass::MalformedConfiguration),
///     (Clause::ShapeAutoOnce, ErrorClass::RepeatedAuto),
/// ]);
/// ```
#[must_use]
pub fn broken_codec_rule_classes_json_str(codec: &str, a_shape: &[u64]) -> Vec<BrokenRule> {
    codec_rules_json_str(codec, a_shape, Skipped::Unknown)
}

fn codec_rules_json_str(codec: &str, a_shape: &[u64], skipped: Skipped) -> Vec<BrokenRule> {
    let mut broken = Broken::default();
    let object = Json::from_text(codec, "codec object").and_then(Json::open);
    match object {
        Ok(Node::Object(object)) => {
            broken.check(configuration_members(
                &object,
                CODEC_MEMBERS,
                "codec object",
            ));
            broken.check(codec_name(&object, &mut Trace::off()));
            match object.get("configuration") {
                Some(configuration) => {
                    audit_configuration(configuration, a_shape, skipped, &mut broken);
                }
                None => broken.malformed(Clause::ConfigurationMembers),
            }
        }
        Ok(_) => broken.malformed(Clause::CodecName),
        Err(error) => broken.add(&error),
    }
    broken.into_rules()
}

/// The clauses of `rules`, each once, in order.
fn clauses_of(rules: &[BrokenRule]) -> Vec<Clause> {
    let mut clauses: Vec<Clause> = rules.iter().map(|(clause, _)| *clause).collect();
    clauses.dedup();
    clauses
}

/// What the rules after the element rules read in place of an element that is
/// no shape element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skipped {
    /// Left out, as an implementation that skips the element rules would: the
    /// rules see the other elements only (the sibling check of the vectors).
    Dropped,
    /// Kept in its place with an unknown extent: no conforming implementation
    /// gets past such an element, so no rule that needs its extent is evaluated
    /// (the classes an error vector accepts).
    Unknown,
}

/// The configuration member: its members, then its `shape` element by element.
fn audit_configuration(
    configuration: Json<'_>,
    a_shape: &[u64],
    skipped: Skipped,
    broken: &mut Broken,
) {
    let object = match broken.check(configuration.open()) {
        Some(Node::Object(object)) => object,
        Some(_) => return broken.malformed(Clause::ConfigurationMembers),
        None => return,
    };
    broken.check(configuration_members(
        &object,
        CONFIGURATION_MEMBERS,
        "configuration",
    ));
    let elements = match object.get("shape").map(Json::open) {
        Some(Ok(Node::Array(elements))) => elements,
        Some(Err(error)) => return broken.add(&error),
        Some(Ok(_)) | None => return broken.malformed(Clause::ConfigurationMembers),
    };
    if broken.check(check_shape_len(elements.len())).is_none() {
        return;
    }
    let shape: Vec<Option<ShapeElement>> = elements
        .iter()
        .enumerate()
        .map(|(element, value)| match shape_element(value, element) {
            Ok(parsed) => Some(parsed),
            // A size 0 keeps its extent, so that the rules after shape.size see it.
            Err(ReshapeError::InvalidSize { value, .. }) if value == "0" => {
                broken.push(Clause::ShapeSize, ErrorClass::InvalidSize);
                Some(ShapeElement::Size(0))
            }
            // A negative input dim names no dimension of A_shape either (I-4).
            Err(error @ ReshapeError::NegativeInputDim { .. }) => {
                broken.add(&error);
                broken.push(Clause::InputDimsRange, ErrorClass::InputDimOutOfRange);
                None
            }
            Err(error) => {
                broken.add(&error);
                None
            }
        })
        .filter(|parsed| parsed.is_some() || skipped == Skipped::Unknown)
        .collect();
    audit_shape(&shape, a_shape, broken);
}
