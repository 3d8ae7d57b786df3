//! The meaning oracle: decides by brute force, without the library's rules, whether
//! a configuration gives a decoded shape an encoded shape in which every input-dims
//! element really is the raveled index of its input dims.
//!
//! The spec: the prefix and suffix rules "ensure that if the size of output dimension
//! i is specified by input_dims, the coordinates in the input array along input_dims
//! actually correspond to the raveled index along output dimension i". The oracle
//! checks that sentence element by element instead of the two product rules.

use zarr_reshape::ShapeElement;

/// What the oracle found for one configuration and decoded shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleResult {
    /// Whether a meaningful `B_shape` exists.
    pub verdict: OracleVerdict,
    /// Whether the flattened input dims strictly increase (the spec's rule against
    /// configurations that look like a transpose: about readability, not meaning).
    pub increasing: bool,
}

/// The oracle's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OracleVerdict {
    /// This `B_shape` has the configuration's rank and extents, holds as many elements
    /// as `A_shape`, and every input-dims element means what it says.
    Meaningful(Vec<u64>),
    /// No `B_shape` does.
    NotMeaningful(Obstacle),
}

/// Why no meaningful `B_shape` exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Obstacle {
    /// -1 occurs more than once (the oracle, like the spec, allows it once).
    RepeatedAuto,
    /// An input dim names no dimension of `A_shape`, so its extent is undefined.
    DimOutOfRange {
        /// The element of `shape` holding the dim.
        element: usize,
        /// The dim.
        dim: u64,
    },
    /// No choice of the -1 (if any) makes `prod(B_shape) == prod(A_shape)`.
    NoElementCount,
    /// The only `B_shape` with the right element count breaks the meaning: the
    /// decoded element at `decoded_index` (the first in C order that does) lands on
    /// `encoded_index`, whose coordinate along `element` is not the raveled index
    /// `wanted` of its coordinates over that element's input dims.
    CoordinatesDiffer {
        /// The candidate `B_shape`.
        b_shape: Vec<u64>,
        /// The element of `shape` whose meaning fails.
        element: usize,
        /// The decoded coordinate.
        decoded_index: Vec<u64>,
        /// Where ravel order puts it in `B_shape`.
        encoded_index: Vec<u64>,
        /// The raveled index of `decoded_index` over the element's input dims.
        wanted: u64,
    },
    /// A product beyond 64 bits (never in the small domain).
    Overflow,
}

/// Runs the oracle on one pair.
#[must_use]
pub fn judge(configuration: &[ShapeElement], a_shape: &[u64]) -> OracleResult {
    OracleResult {
        verdict: verdict(configuration, a_shape),
        increasing: increasing(configuration),
    }
}

/// Whether all input dims, read left to right across `shape`, strictly increase.
#[must_use]
pub fn increasing(configuration: &[ShapeElement]) -> bool {
    let flattened: Vec<u64> = configuration
        .iter()
        .filter_map(|element| match element {
            ShapeElement::InputDims(dims) => Some(dims.iter().copied()),
            _ => None,
        })
        .flatten()
        .collect();
    flattened.windows(2).all(|pair| pair.first() < pair.last())
}

fn verdict(configuration: &[ShapeElement], a_shape: &[u64]) -> OracleVerdict {
    let autos = configuration
        .iter()
        .filter(|element| **element == ShapeElement::Auto)
        .count();
    if autos > 1 {
        return OracleVerdict::NotMeaningful(Obstacle::RepeatedAuto);
    }
    let Some(a_count) = product(a_shape.iter().copied()) else {
        return OracleVerdict::NotMeaningful(Obstacle::Overflow);
    };
    // The extents each element of B_shape may take: a size, the product of the input
    // dims' extents, or for -1 every positive extent that fits in A's element count.
    let mut choices: Vec<Vec<u64>> = Vec::with_capacity(configuration.len());
    for (element, item) in configuration.iter().enumerate() {
        let choice = match item {
            ShapeElement::Size(size) => vec![*size],
            ShapeElement::Auto => (1..=a_count).collect(),
            ShapeElement::InputDims(dims) => {
                let mut extent: u64 = 1;
                for dim in dims {
                    let Some(factor) = at(a_shape, *dim) else {
                        return OracleVerdict::NotMeaningful(Obstacle::DimOutOfRange {
                            element,
                            dim: *dim,
                        });
                    };
                    let Some(next) = extent.checked_mul(factor) else {
                        return OracleVerdict::NotMeaningful(Obstacle::Overflow);
                    };
                    extent = next;
                }
                vec![extent]
            }
        };
        choices.push(choice);
    }
    let mut first_failure = None;
    for b_shape in cartesian(&choices) {
        if product(b_shape.iter().copied()) != Some(a_count) {
            continue;
        }
        match meaning_fails(configuration, a_shape, &b_shape) {
            None => return OracleVerdict::Meaningful(b_shape),
            Some(obstacle) => {
                first_failure.get_or_insert(obstacle);
            }
        }
    }
    OracleVerdict::NotMeaningful(first_failure.unwrap_or(Obstacle::NoElementCount))
}

/// Walks every element of A in C order, puts it where ravel order puts it in
/// `b_shape`, and checks every input-dims element with k > 0 dims there.
fn meaning_fails(
    configuration: &[ShapeElement],
    a_shape: &[u64],
    b_shape: &[u64],
) -> Option<Obstacle> {
    let groups: Vec<(usize, &Vec<u64>)> = configuration
        .iter()
        .enumerate()
        .filter_map(|(element, item)| match item {
            ShapeElement::InputDims(dims) if !dims.is_empty() => Some((element, dims)),
            _ => None,
        })
        .collect();
    for (offset, decoded_index) in odometer(a_shape).into_iter().enumerate() {
        let Some(encoded_index) = u64::try_from(offset)
            .ok()
            .and_then(|offset| unravel(offset, b_shape))
        else {
            return Some(Obstacle::Overflow);
        };
        for (element, dims) in &groups {
            let Some(wanted) = ravel_over(&decoded_index, a_shape, dims) else {
                return Some(Obstacle::Overflow);
            };
            if encoded_index.get(*element) != Some(&wanted) {
                return Some(Obstacle::CoordinatesDiffer {
                    b_shape: b_shape.to_vec(),
                    element: *element,
                    decoded_index,
                    encoded_index,
                    wanted,
                });
            }
        }
    }
    None
}

/// The raveled (C order) index of `index` over the dims `dims` of `shape`.
fn ravel_over(index: &[u64], shape: &[u64], dims: &[u64]) -> Option<u64> {
    dims.iter().try_fold(0_u64, |raveled, dim| {
        raveled
            .checked_mul(at(shape, *dim)?)?
            .checked_add(at(index, *dim)?)
    })
}

/// The coordinate of the `offset`-th element, in C order, of an array of `shape`.
fn unravel(offset: u64, shape: &[u64]) -> Option<Vec<u64>> {
    let mut rest = offset;
    let mut index = Vec::with_capacity(shape.len());
    for extent in shape.iter().rev() {
        index.push(rest.checked_rem(*extent)?);
        rest = rest.checked_div(*extent)?;
    }
    index.reverse();
    Some(index)
}

/// Every coordinate of an array of `shape`, in C order.
fn odometer(shape: &[u64]) -> Vec<Vec<u64>> {
    let ranges: Vec<Vec<u64>> = shape.iter().map(|extent| (0..*extent).collect()).collect();
    cartesian(&ranges)
}

/// Every tuple taking one value from each list, in lexicographic order.
fn cartesian(choices: &[Vec<u64>]) -> Vec<Vec<u64>> {
    choices.iter().fold(vec![Vec::new()], |tuples, values| {
        tuples
            .iter()
            .flat_map(|tuple| {
                values.iter().map(move |value| {
                    let mut next = tuple.clone();
                    next.push(*value);
                    next
                })
            })
            .collect()
    })
}

/// `shape[dim]`, if `dim` names a dimension.
fn at(shape: &[u64], dim: u64) -> Option<u64> {
    usize::try_from(dim)
        .ok()
        .and_then(|dim| shape.get(dim))
        .copied()
}

/// The product of `factors`, if it fits in 64 bits.
fn product(factors: impl IntoIterator<Item = u64>) -> Option<u64> {
    factors
        .into_iter()
        .try_fold(1_u64, |acc, factor| acc.checked_mul(factor))
}
