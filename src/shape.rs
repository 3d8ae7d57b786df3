//! Spec section "Configuration parameters / shape": `B_shape` from `A_shape`.
//!
//! Resolution order (reading I-8): element by element, input dims in range and
//! the extent; then `prod(A_shape)`, the -1, the invariant, and finally the
//! input-dims alignment rules of [`crate::input_dims`].

use crate::clause::Clause;
use crate::configuration::{ReshapeConfiguration, ShapeElement};
use crate::error::{Position, ReshapeError, Result};
use crate::explain::{Trace, Verdict};
use crate::input_dims;
use crate::product::{list, product, product_of};

impl ReshapeConfiguration {
    /// Resolves `B_shape`, the encoded chunk shape, from `a_shape`, the decoded one.
    ///
    /// # Errors
    /// `input-dim-out-of-range`, `overflow`, `element-count-mismatch`,
    /// `input-dims-misaligned`: the rules that need the decoded shape.
    ///
    /// ```
    /// # use zarr_reshape::ReshapeConfiguration;
    /// let configuration = serde_json::json!({"shape": [[0, 1], [2], 3]});
    /// let configuration = ReshapeConfiguration::from_configuration_json(&configuration)?;
    /// assert_eq!(configuration.resolve(&[100, 50, 64, 3])?, [5000, 64, 3]);
    /// # Ok::<(), zarr_reshape::ReshapeError>(())
    /// ```
    pub fn resolve(&self, a_shape: &[u64]) -> Result<Vec<u64>> {
        self.resolve_traced(a_shape, &mut Trace::off())
    }

    pub(crate) fn resolve_traced(&self, a_shape: &[u64], trace: &mut Trace) -> Result<Vec<u64>> {
        // limits.rank (I-10): the decoded rank is bounded before any work.
        if a_shape.len() > crate::limits::MAX_RANK {
            return Err(ReshapeError::RankTooLarge {
                found: a_shape.len(),
                limit: crate::limits::MAX_RANK,
            });
        }
        let shape = self.shape();
        // B_shape, built in place: the -1's slot holds 0 until shape.auto.value fills it.
        let mut b_shape: Vec<u64> = Vec::with_capacity(shape.len());
        let mut auto = None;
        for (element, item) in shape.iter().enumerate() {
            let at = Some(Position {
                element,
                input_dim: None,
            });
            let extent = match item {
                ShapeElement::Size(size) => {
                    // shape.size: B_shape[i] := size
                    trace.note(Clause::ShapeSize, at, Verdict::Defines, || {
                        format!("B_shape[{element}] := {size}")
                    });
                    *size
                }
                ShapeElement::InputDims(dims) => input_dims_extent(element, dims, a_shape, trace)?,
                ShapeElement::Auto => {
                    auto = Some(element);
                    0
                }
            };
            b_shape.push(extent);
        }
        // limits.u64 (I-7): every product below is exact or an overflow error.
        let a_product = product_of(a_shape).ok_or_else(|| ReshapeError::Overflow {
            what: format!("prod(A_shape) for A_shape = {}", list(a_shape)),
        })?;
        if let Some(element) = auto {
            resolve_auto(&mut b_shape, element, a_product, trace)?;
        }
        check_invariant(&b_shape, a_product, trace)?;
        input_dims::check_alignment(shape, a_shape, &b_shape, trace)?;
        Ok(b_shape)
    }
}

/// shape.input-dims: `B_shape[i] := prod(A_shape[input_dims])` (erratum E1: the
/// product of `A_shape[d]` over every `d` in input_dims).
#[inline]
fn input_dims_extent(
    element: usize,
    dims: &[u64],
    a_shape: &[u64],
    trace: &mut Trace,
) -> Result<u64> {
    input_dims::check_range(element, dims, a_shape, trace)?;
    // Every dim is in range now; the factors are multiplied as they are read.
    let factors = || {
        dims.iter()
            .filter_map(|d| usize::try_from(*d).ok().and_then(|d| a_shape.get(d)))
            .copied()
    };
    let at = Some(Position {
        element,
        input_dim: None,
    });
    let extent = product(factors()).ok_or_else(|| ReshapeError::Overflow {
        what: format!(
            "B_shape[{element}] = prod(A_shape[d] for d in {})",
            list(dims)
        ),
    })?;
    trace.note(Clause::ShapeInputDims, at, Verdict::Defines, || {
        let terms: Vec<String> = dims.iter().map(|d| format!("A_shape[{d}]")).collect();
        let values: Vec<String> = factors().map(|factor| factor.to_string()).collect();
        match terms.len() {
            0 => format!("B_shape[{element}] := prod() = 1"),
            1 => format!("B_shape[{element}] := {} = {extent}", terms.join(" * ")),
            _ => format!(
                "B_shape[{element}] := {} = {} = {extent}",
                terms.join(" * "),
                values.join(" * ")
            ),
        }
    });
    Ok(extent)
}

/// shape.auto.once: "the special value -1, which must occur at most once".
pub(crate) fn check_auto_once(shape: &[ShapeElement], trace: &mut Trace) -> Result<()> {
    let mut autos = shape
        .iter()
        .enumerate()
        .filter(|(_, element)| **element == ShapeElement::Auto)
        .map(|(index, _)| index);
    let first = autos.next();
    let Some((first, second)) = first.zip(autos.next()) else {
        trace.note(
            Clause::ShapeAutoOnce,
            None,
            Verdict::Holds,
            || match first {
                None => "no -1".into(),
                Some(first) => format!("-1 once, at shape[{first}]"),
            },
        );
        return Ok(());
    };
    trace.note(Clause::ShapeAutoOnce, None, Verdict::Violated, || {
        format!("-1 at shape[{first}] and shape[{second}]")
    });
    Err(ReshapeError::RepeatedAuto { first, second })
}

/// shape.auto.value: -1 takes `prod(A_shape) / prod(other extents)`, when that is
/// exact; `b_shape[element]` is the -1's slot.
#[inline]
fn resolve_auto(
    b_shape: &mut [u64],
    element: usize,
    a_product: u64,
    trace: &mut Trace,
) -> Result<()> {
    let known = || {
        b_shape
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != element)
            .map(|(_, extent)| *extent)
    };
    let others = product(known()).ok_or_else(|| ReshapeError::Overflow {
        what: format!(
            "the product of the extents other than -1, {}",
            list(&known().collect::<Vec<u64>>())
        ),
    })?;
    // Over the integers the -1 is determined only when `others` divides `prod(A_shape)`
    // and is not 0 (a zero extent would let any value satisfy the invariant, I-9).
    let value = a_product
        .checked_rem(others)
        .filter(|rest| *rest == 0)
        .and_then(|_| a_product.checked_div(others));
    let at = Some(Position {
        element,
        input_dim: None,
    });
    let (Some(value), Some(slot)) = (value, b_shape.get_mut(element)) else {
        let error = ReshapeError::AutoIndeterminate {
            element,
            a_product,
            others,
        };
        trace.note(Clause::ShapeAutoValue, at, Verdict::Violated, || {
            crate::error::auto_reason(a_product, others)
        });
        return Err(error);
    };
    *slot = value;
    trace.note(Clause::ShapeAutoValue, at, Verdict::Defines, || {
        format!("B_shape[{element}] := prod(A_shape) / {others} = {a_product} / {others} = {value}")
    });
    Ok(())
}

/// shape.invariant: "Implementations MUST return an error if the invariant
/// prod(B_shape) == prod(A_shape) cannot be satisfied."
#[inline]
fn check_invariant(b_shape: &[u64], a_product: u64, trace: &mut Trace) -> Result<()> {
    let b_product = product_of(b_shape).ok_or_else(|| ReshapeError::Overflow {
        what: format!("prod(B_shape) for B_shape = {}", list(b_shape)),
    })?;
    trace.check(
        b_product == a_product,
        Clause::ShapeInvariant,
        None,
        || format!("prod(B_shape) = {b_product}, prod(A_shape) = {a_product}"),
        || ReshapeError::ElementCountMismatch {
            b_product,
            a_product,
        },
    )
}
