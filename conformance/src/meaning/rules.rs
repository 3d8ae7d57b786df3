//! The literal rules evaluated one by one, in no order: every rule whose formula can
//! be evaluated for a pair and fails. Reading I-8 leaves the order of the checks open,
//! so a generated vector accepts the class of every rule it breaks; the reference's
//! class, which comes first, must be among them (the meaning test checks that too).
//! Written apart from the library's audit (`zarr_reshape::broken_rule_classes_json_str`,
//! which `tests/multi_violation.rs` holds every error vector to); the unit test below
//! checks that both find the same rules over the whole domain.

use zarr_reshape::{Clause, ErrorClass, ShapeElement};

/// A rule broken by a pair: its clause and the class of its error.
pub type Broken = (Clause, ErrorClass);

/// Every rule of the domain's reach that the pair breaks, in the order of the clause
/// registry. Empty when the literal spec accepts the pair.
///
/// A rule counts when its formula can be evaluated without knowing what cannot be
/// known: a -1 that is repeated or not determined, or the extent of input dims out
/// of range. Sizes are positive and products small in the domain, so `invalid-size`
/// and `overflow` never arise.
#[must_use]
pub fn broken_rules(configuration: &[ShapeElement], a_shape: &[u64]) -> Vec<Broken> {
    let mut broken = Vec::new();
    let rank = a_shape.len();
    let autos = configuration
        .iter()
        .filter(|element| **element == ShapeElement::Auto)
        .count();
    // shape.auto.once: -1 at most once.
    if autos > 1 {
        broken.push((Clause::ShapeAutoOnce, ErrorClass::RepeatedAuto));
    }
    // input-dims.increasing: the flattened dims strictly increase.
    if !super::oracle::increasing(configuration) {
        broken.push((
            Clause::InputDimsIncreasing,
            ErrorClass::InputDimsNotIncreasing,
        ));
    }
    // input-dims.range (I-4): every dim is below rank(A_shape).
    let in_range = |dim: &u64| usize::try_from(*dim).is_ok_and(|dim| dim < rank);
    let all_in_range = configuration.iter().all(|element| match element {
        ShapeElement::InputDims(dims) => dims.iter().all(in_range),
        _ => true,
    });
    if !all_in_range {
        broken.push((Clause::InputDimsRange, ErrorClass::InputDimOutOfRange));
    }
    // shape.size, shape.input-dims: the extents that are known without the -1.
    let mut extents: Vec<Option<u64>> = configuration
        .iter()
        .map(|element| match element {
            ShapeElement::Size(size) => Some(*size),
            ShapeElement::InputDims(dims) if dims.iter().all(in_range) => {
                product(dims.iter().map(|dim| at(a_shape, *dim)))
            }
            ShapeElement::InputDims(_) | ShapeElement::Auto => None,
        })
        .collect();
    let a_count = product(a_shape.iter().copied().map(Some));
    if all_in_range {
        let known = product(extents.iter().copied().filter(Option::is_some));
        if let (Some(known), Some(a_count)) = (known, a_count) {
            let divides = known != 0 && a_count.checked_rem(known) == Some(0);
            match autos {
                // shape.invariant: prod(B_shape) == prod(A_shape).
                0 if known != a_count => {
                    broken.push((Clause::ShapeInvariant, ErrorClass::ElementCountMismatch));
                }
                0 => {}
                // shape.auto.value: the -1 is prod(A_shape) / prod(other extents), exactly.
                1 if divides => {
                    let value = a_count.checked_div(known);
                    for extent in &mut extents {
                        if extent.is_none() {
                            *extent = value;
                        }
                    }
                }
                1 => broken.push((Clause::ShapeAutoValue, ErrorClass::ElementCountMismatch)),
                // Several -1: the invariant cannot hold for any positive values.
                _ if !divides => {
                    broken.push((Clause::ShapeInvariant, ErrorClass::ElementCountMismatch));
                }
                _ => {}
            }
        }
    }
    alignment(configuration, a_shape, &extents, &mut broken);
    broken.sort();
    broken.dedup();
    broken
}

/// input-dims.prefix and input-dims.suffix, for every element with k > 0 dims whose
/// two sides are known.
fn alignment(
    configuration: &[ShapeElement],
    a_shape: &[u64],
    extents: &[Option<u64>],
    broken: &mut Vec<Broken>,
) {
    for (element, item) in configuration.iter().enumerate() {
        let ShapeElement::InputDims(dims) = item else {
            continue;
        };
        let (Some(first), Some(last)) = (dims.first(), dims.last()) else {
            continue;
        };
        let before = extents.get(..element).unwrap_or_default();
        let after = element
            .checked_add(1)
            .and_then(|start| extents.get(start..))
            .unwrap_or_default();
        // prod(B_shape[:i]) == prod(A_shape[:input_dims[0]]) (E2)
        let a_before = usize::try_from(*first)
            .ok()
            .filter(|first| *first < a_shape.len())
            .and_then(|first| a_shape.get(..first));
        if let (Some(b), Some(a)) = (product(before.iter().copied()), a_before) {
            if Some(b) != product(a.iter().copied().map(Some)) {
                broken.push((Clause::InputDimsPrefix, ErrorClass::InputDimsMisaligned));
            }
        }
        // prod(B_shape[i+1:]) == prod(A_shape[input_dims[k-1]+1:])
        let a_after = usize::try_from(*last)
            .ok()
            .filter(|last| *last < a_shape.len())
            .and_then(|last| last.checked_add(1))
            .and_then(|start| a_shape.get(start..));
        if let (Some(b), Some(a)) = (product(after.iter().copied()), a_after) {
            if Some(b) != product(a.iter().copied().map(Some)) {
                broken.push((Clause::InputDimsSuffix, ErrorClass::InputDimsMisaligned));
            }
        }
    }
}

/// The product of factors that must all be known, if it fits in 64 bits.
fn product(factors: impl IntoIterator<Item = Option<u64>>) -> Option<u64> {
    factors
        .into_iter()
        .try_fold(1_u64, |acc, factor| acc.checked_mul(factor?))
}

fn at(shape: &[u64], dim: u64) -> Option<u64> {
    usize::try_from(dim)
        .ok()
        .and_then(|dim| shape.get(dim))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::broken_rules;
    use crate::meaning::domain::{Domain, configuration_json, json_text};

    /// The literal rules here and the library's audit are written apart; over the
    /// whole domain they must find the same rules with the same classes, so the
    /// generated vectors accept what `tests/multi_violation.rs` demands of every
    /// error vector.
    #[test]
    fn the_literal_rules_agree_with_the_library_audit_over_the_domain() {
        let domain = Domain::standard();
        let mut disagreements = Vec::new();
        let mut pairs = 0_usize;
        for pair in domain.pairs() {
            pairs = pairs.saturating_add(1);
            let text = json_text(&configuration_json(pair.configuration));
            let audit = zarr_reshape::broken_rule_classes_json_str(&text, pair.a_shape);
            let literal = broken_rules(pair.configuration, pair.a_shape);
            if audit != literal && disagreements.len() < 20 {
                disagreements.push(format!(
                    "{text} on {:?}: audit {audit:?}, literal rules {literal:?}",
                    pair.a_shape
                ));
            }
        }
        assert!(pairs > 0, "the domain is empty");
        assert!(
            disagreements.is_empty(),
            "the first disagreements:\n{}",
            disagreements.join("\n")
        );
    }
}
