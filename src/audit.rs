//! Every MUST rule (and reading) a configuration breaks on a decoded shape, not
//! just the first: the suite's check that each error vector has a sibling that
//! breaks only its own rule (issue 14). Sits beside [`crate::explain`] on top of
//! the data flow and calls the same rule functions, each on its own, with no
//! order between them.
//!
//! What a rule is evaluated on, when another one is broken:
//! - An element of `shape` that is no shape element (`{}`, `2.5`, a negative
//!   size other than -1, a size or input dim beyond 64 bits) is left out, as an
//!   implementation that skips the element rules would drop it; a size 0 stays in
//!   `B_shape` as the extent 0, as one that skips `shape.size` would keep it.
//!   A negative input dim also breaks `input-dims.range`: it names no dimension.
//! - An extent that cannot be computed (an input dim out of range, a product
//!   beyond 64 bits) is unknown, and so is the -1 when it cannot be determined or
//!   occurs twice. A rule that needs an unknown value is not evaluated: the
//!   invariant and the -1's value need every other extent and `prod(A_shape)`,
//!   the prefix rule the extents before the element, the suffix rule those after.
//! - Past the limits on the JSON text or on `len(shape)` nothing more is
//!   evaluated (the limits are there so that nothing is); past the limit on the
//!   decoded rank everything still is, as its cost is the caller's.
//! - A codec object that is not an object, a configuration that is not an
//!   object, or a `shape` that is missing or not an array ends the evaluation.

use crate::clause::Clause;
use crate::configuration::ShapeElement;
use crate::error::ReshapeError;
use crate::input_dims::{input_dims_increasing, input_dims_prefix, input_dims_suffix};
use crate::json::{Json, Node};
use crate::limits::MAX_RANK;
use crate::parse::{
    CODEC_MEMBERS, CONFIGURATION_MEMBERS, check_shape_len, codec_name, configuration_members,
    shape_element,
};
use crate::product::product_of;
use crate::shape::{shape_auto_once, shape_auto_value, shape_input_dims, shape_invariant};
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
    let mut broken = Broken::default();
    match Json::from_text(configuration, "configuration") {
        Ok(configuration) => audit_configuration(configuration, a_shape, &mut broken),
        Err(error) => broken.add(&error),
    }
    broken.into_clauses()
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
                Some(configuration) => audit_configuration(configuration, a_shape, &mut broken),
                None => broken.push(Clause::ConfigurationMembers),
            }
        }
        Ok(_) => broken.push(Clause::CodecName),
        Err(error) => broken.add(&error),
    }
    broken.into_clauses()
}

/// The clauses found broken so far.
#[derive(Default)]
struct Broken(Vec<Clause>);

impl Broken {
    fn push(&mut self, clause: Clause) {
        self.0.push(clause);
    }

    fn add(&mut self, error: &ReshapeError) {
        self.push(error.clause());
    }

    /// Notes the rule an `Err` broke; gives back the value of an `Ok`.
    fn check<T>(&mut self, outcome: Result<T, ReshapeError>) -> Option<T> {
        outcome.map_err(|error| self.add(&error)).ok()
    }

    fn into_clauses(mut self) -> Vec<Clause> {
        self.0.sort_unstable();
        self.0.dedup();
        self.0
    }
}

/// The configuration member: its members, then its `shape` element by element.
fn audit_configuration(configuration: Json<'_>, a_shape: &[u64], broken: &mut Broken) {
    let object = match broken.check(configuration.open()) {
        Some(Node::Object(object)) => object,
        Some(_) => return broken.push(Clause::ConfigurationMembers),
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
        Some(Ok(_)) | None => return broken.push(Clause::ConfigurationMembers),
    };
    if broken.check(check_shape_len(elements.len())).is_none() {
        return;
    }
    let shape: Vec<ShapeElement> = elements
        .iter()
        .enumerate()
        .filter_map(|(element, value)| match shape_element(value, element) {
            Ok(parsed) => Some(parsed),
            // A size 0 keeps its extent, so that the rules after shape.size see it.
            Err(ReshapeError::InvalidSize { value, .. }) if value == "0" => {
                broken.push(Clause::ShapeSize);
                Some(ShapeElement::Size(0))
            }
            // A negative input dim names no dimension of A_shape either (I-4).
            Err(error @ ReshapeError::NegativeInputDim { .. }) => {
                broken.add(&error);
                broken.push(Clause::InputDimsRange);
                None
            }
            Err(error) => {
                broken.add(&error);
                None
            }
        })
        .collect();
    audit_shape(&shape, a_shape, broken);
}

/// The rules over the elements that were read, each evaluated on its own.
fn audit_shape(shape: &[ShapeElement], a_shape: &[u64], broken: &mut Broken) {
    let trace = &mut Trace::off();
    if a_shape.len() > MAX_RANK {
        broken.push(Clause::LimitsRank);
    }
    broken.check(shape_auto_once(shape, trace));
    broken.check(input_dims_increasing(shape, trace));
    let a_product = product_of(a_shape);
    if a_product.is_none() {
        broken.push(Clause::LimitsU64);
    }
    // B_shape as far as it is known; the -1's slot is None until its value is.
    let mut b_shape: Vec<Option<u64>> = shape
        .iter()
        .enumerate()
        .map(|(element, item)| match item {
            ShapeElement::Size(size) => Some(*size),
            ShapeElement::InputDims(dims) => {
                broken.check(shape_input_dims(element, dims, a_shape, trace))
            }
            ShapeElement::Auto => None,
        })
        .collect();
    let autos: Vec<usize> = shape
        .iter()
        .enumerate()
        .filter(|(_, item)| **item == ShapeElement::Auto)
        .map(|(element, _)| element)
        .collect();
    let others_known = |b_shape: &[Option<u64>], auto: Option<usize>| -> Option<Vec<u64>> {
        b_shape
            .iter()
            .enumerate()
            .map(|(element, extent)| {
                if Some(element) == auto {
                    Some(0)
                } else {
                    *extent
                }
            })
            .collect()
    };
    match (autos.as_slice(), a_product) {
        ([], Some(a_product)) => {
            if let Some(known) = others_known(&b_shape, None) {
                broken.check(shape_invariant(&known, a_product, trace));
            }
        }
        ([auto], Some(a_product)) => {
            if let Some(mut known) = others_known(&b_shape, Some(*auto)) {
                if broken
                    .check(shape_auto_value(&mut known, *auto, a_product, trace))
                    .is_some()
                {
                    b_shape = known.into_iter().map(Some).collect();
                }
            }
        }
        // -1 twice (or no prod(A_shape)): no -1 has a value, no count is known.
        _ => {}
    }
    audit_alignment(shape, a_shape, &b_shape, broken);
}

/// The prefix and suffix rules of every element of input dims that are all in
/// range, each where the extents it compares are known.
fn audit_alignment(
    shape: &[ShapeElement],
    a_shape: &[u64],
    b_shape: &[Option<u64>],
    broken: &mut Broken,
) {
    let trace = &mut Trace::off();
    let rank = u64::try_from(a_shape.len()).unwrap_or(u64::MAX);
    let known = |extents: Option<&[Option<u64>]>| -> Option<Vec<u64>> {
        extents.and_then(|extents| extents.iter().copied().collect())
    };
    for (element, item) in shape.iter().enumerate() {
        let ShapeElement::InputDims(dims) = item else {
            continue;
        };
        let (Some(&first_dim), Some(&last_dim)) = (dims.first(), dims.last()) else {
            continue;
        };
        if dims.iter().any(|dim| *dim >= rank) {
            continue;
        }
        // The prefix rule reads B_shape[:i], the suffix rule B_shape[i+1:]: each is
        // given a B_shape whose other extents are never read.
        if let Some(mut before) = known(b_shape.get(..element)) {
            before.resize(b_shape.len(), 0);
            broken.check(input_dims_prefix(
                element, first_dim, a_shape, &before, trace,
            ));
        }
        let after = element.checked_add(1).unwrap_or(element);
        if let Some(after_extents) = known(b_shape.get(after..)) {
            let mut whole = vec![0; after];
            whole.extend(after_extents);
            broken.check(input_dims_suffix(element, last_dim, a_shape, &whole, trace));
        }
    }
}
