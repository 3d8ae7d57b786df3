//! For the audit (`audit.rs`, which says what a rule is evaluated on when another
//! one is broken): the rules over the elements of `shape` that were read, each
//! evaluated on its own, and the list of rules found broken.

use crate::clause::Clause;
use crate::configuration::ShapeElement;
use crate::error::ReshapeError;
use crate::error_class::ErrorClass;
use crate::input_dims::input_dims_increasing;
use crate::input_dims::{input_dims_prefix, input_dims_suffix};
use crate::limits::MAX_RANK;
use crate::product::product_of;
use crate::shape::{shape_auto_once, shape_auto_value, shape_input_dims, shape_invariant};
use crate::trace::Trace;

/// A rule a configuration breaks: its clause and the class of the error it gives.
/// A clause may give more than one class (`limits.rank`: a `shape` too long is
/// `malformed-configuration`, a decoded rank too large `shape-mismatch`).
pub type BrokenRule = (Clause, ErrorClass);

/// The rules found broken so far.
#[derive(Default)]
pub(crate) struct Broken(Vec<BrokenRule>);

impl Broken {
    pub(crate) fn push(&mut self, clause: Clause, class: ErrorClass) {
        self.0.push((clause, class));
    }

    /// A rule whose error is `malformed-configuration`: the JSON is not of the
    /// codec's form.
    pub(crate) fn malformed(&mut self, clause: Clause) {
        self.push(clause, ErrorClass::MalformedConfiguration);
    }

    pub(crate) fn add(&mut self, error: &ReshapeError) {
        self.push(error.clause(), error.class());
    }

    /// Notes the rule an `Err` broke; gives back the value of an `Ok`.
    pub(crate) fn check<T>(&mut self, outcome: Result<T, ReshapeError>) -> Option<T> {
        outcome.map_err(|error| self.add(&error)).ok()
    }

    pub(crate) fn into_rules(mut self) -> Vec<BrokenRule> {
        self.0.sort_unstable();
        self.0.dedup();
        self.0
    }
}

/// The rules over the elements that were read (`None`: an element of unknown
/// extent), each evaluated on its own.
pub(crate) fn audit_shape(shape: &[Option<ShapeElement>], a_shape: &[u64], broken: &mut Broken) {
    let trace = &mut Trace::off();
    if a_shape.len() > MAX_RANK {
        broken.push(Clause::LimitsRank, ErrorClass::ShapeMismatch);
    }
    // Counting -1 and the order of input dims need no extent: the elements read
    // break these rules whatever the others are.
    let read: Vec<ShapeElement> = shape.iter().flatten().cloned().collect();
    broken.check(shape_auto_once(&read, trace));
    broken.check(input_dims_increasing(&read, trace));
    let a_product = product_of(a_shape);
    if a_product.is_none() {
        broken.push(Clause::LimitsU64, ErrorClass::Overflow);
    }
    // B_shape as far as it is known; the -1's slot is None until its value is.
    let mut b_shape: Vec<Option<u64>> = shape
        .iter()
        .enumerate()
        .map(|(element, item)| match item {
            Some(ShapeElement::Size(size)) => Some(*size),
            Some(ShapeElement::InputDims(dims)) => {
                broken.check(shape_input_dims(element, dims, a_shape, trace))
            }
            Some(ShapeElement::Auto) | None => None,
        })
        .collect();
    let autos: Vec<usize> = shape
        .iter()
        .enumerate()
        .filter(|(_, item)| **item == Some(ShapeElement::Auto))
        .map(|(element, _)| element)
        .collect();
    // The extents other than the -1s, if all are known.
    let others: Option<Vec<u64>> = b_shape
        .iter()
        .enumerate()
        .filter(|(element, _)| !autos.contains(element))
        .map(|(_, extent)| *extent)
        .collect();
    let (Some(others), Some(a_product)) = (others, a_product) else {
        return audit_alignment(shape, a_shape, &b_shape, broken);
    };
    // A product beyond 64 bits exceeds prod(A_shape): overflow, or, in exact
    // arithmetic (I-7), no -1 and no invariant can make the counts agree.
    let others_product = product_of(&others);
    if others_product.is_none() {
        broken.push(Clause::LimitsU64, ErrorClass::Overflow);
    }
    match autos.as_slice() {
        [] => {
            if others_product.is_none() {
                broken.push(Clause::ShapeInvariant, ErrorClass::ElementCountMismatch);
            }
            broken.check(shape_invariant(&others, a_product, trace));
        }
        [auto] => {
            if others_product.is_none() {
                broken.push(Clause::ShapeAutoValue, ErrorClass::ElementCountMismatch);
            }
            let mut known: Vec<u64> = b_shape.iter().map(|extent| extent.unwrap_or(0)).collect();
            if broken
                .check(shape_auto_value(&mut known, *auto, a_product, trace))
                .is_some()
            {
                b_shape = known.into_iter().map(Some).collect();
            }
        }
        // -1 more than once: no -1 has a value, but "the invariant cannot be
        // satisfied" when no positive values make up prod(A_shape) (a zero
        // product of the others, as for one -1 under I-9, cannot).
        _ => {
            let satisfiable =
                others_product.is_some_and(|product| a_product.checked_rem(product) == Some(0));
            if !satisfiable {
                broken.push(Clause::ShapeInvariant, ErrorClass::ElementCountMismatch);
            }
        }
    }
    audit_alignment(shape, a_shape, &b_shape, broken);
}

/// The prefix rule of every element of input dims whose first dim is in range,
/// the suffix rule of every one whose last dim is, each where the extents it
/// compares are known.
fn audit_alignment(
    shape: &[Option<ShapeElement>],
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
        let Some(ShapeElement::InputDims(dims)) = item else {
            continue;
        };
        let (Some(&first_dim), Some(&last_dim)) = (dims.first(), dims.last()) else {
            continue;
        };
        // The prefix rule reads B_shape[:i], the suffix rule B_shape[i+1:]: each is
        // given a B_shape whose other extents are never read.
        if let (true, Some(mut before)) = (first_dim < rank, known(b_shape.get(..element))) {
            before.resize(b_shape.len(), 0);
            broken.check(input_dims_prefix(
                element, first_dim, a_shape, &before, trace,
            ));
        }
        let after = element.checked_add(1).unwrap_or(element);
        if let (true, Some(after_extents)) = (last_dim < rank, known(b_shape.get(after..))) {
            let mut whole = vec![0; after];
            whole.extend(after_extents);
            broken.check(input_dims_suffix(element, last_dim, a_shape, &whole, trace));
        }
    }
}
