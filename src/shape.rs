//! The rules on `shape` (spec section "Configuration parameters / shape"), one
//! function per clause: `shape.size`, `shape.input-dims`, `shape.auto.once`,
//! `shape.auto.value`, `shape.invariant`. [`crate::parse`] and
//! [`crate::resolve`] call them in the order of reading I-8.

use crate::clause::Clause;
use crate::configuration::ShapeElement;
use crate::error::{ReshapeError, Result, auto_reason};
use crate::input_dims::input_dims_range;
use crate::position::Position;
use crate::product::{list, product, product_of};
use crate::trace::{Trace, Verdict};

/// shape.size: a size is positive; it becomes `B_shape[i]`. `size` is the
/// integer, or `Err` with the text of a negative one other than -1 (which no
/// `u64` holds and which is no size either, erratum E6).
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "a positive integer
/// size, specifying that B_shape[i] := size."
pub(crate) fn shape_size(size: Result<u64, &str>, at: Position) -> Result<u64> {
    match size {
        Ok(0) => Err(ReshapeError::InvalidSize {
            at,
            value: "0".into(),
        }),
        Ok(size) => Ok(size),
        Err(negative) => Err(ReshapeError::InvalidSize {
            at,
            value: negative.into(),
        }),
    }
}

/// shape.input-dims: `B_shape[i] := prod(A_shape[input_dims])` (erratum E1: the
/// product of `A_shape[d]` over every `d` in input_dims), once every dim is in
/// range (input-dims.range).
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "an array of integers
/// input_dims, specifying that: B_shape[i] := prod(A_shape[input_dims]]"
#[inline]
pub(crate) fn shape_input_dims(
    element: usize,
    dims: &[u64],
    a_shape: &[u64],
    trace: &mut Trace,
) -> Result<u64> {
    input_dims_range(element, dims, a_shape, trace)?;
    // Every dim is in range now; the factors are multiplied as they are read.
    let factors = || {
        dims.iter()
            .filter_map(|d| usize::try_from(*d).ok().and_then(|d| a_shape.get(d)))
            .copied()
    };
    let extent = product(factors()).ok_or_else(|| ReshapeError::Overflow {
        what: format!(
            "B_shape[{element}] = prod(A_shape[d] for d in {})",
            list(dims)
        ),
    })?;
    trace.note(
        Clause::ShapeInputDims,
        Some(Position::element(element)),
        Verdict::Defines,
        || {
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
        },
    );
    Ok(extent)
}

/// shape.auto.once: -1 occurs at most once in `shape`.
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "the special value -1, which
/// must occur at most once, ..."
pub(crate) fn shape_auto_once(shape: &[ShapeElement], trace: &mut Trace) -> Result<()> {
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
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "... specifying that
/// B_shape[i] is determined automatically in order to satisfy the invariant that
/// prod(B_shape) == prod(A_shape)."
#[inline]
pub(crate) fn shape_auto_value(
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
    let at = Some(Position::element(element));
    let (Some(value), Some(slot)) = (value, b_shape.get_mut(element)) else {
        trace.note(Clause::ShapeAutoValue, at, Verdict::Violated, || {
            auto_reason(a_product, others)
        });
        return Err(ReshapeError::AutoIndeterminate {
            element,
            a_product,
            others,
        });
    };
    *slot = value;
    trace.note(Clause::ShapeAutoValue, at, Verdict::Defines, || {
        format!("B_shape[{element}] := prod(A_shape) / {others} = {a_product} / {others} = {value}")
    });
    Ok(())
}

/// shape.invariant: an error unless `prod(B_shape) == prod(A_shape)`.
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "Implementations MUST return
/// an error if the invariant prod(B_shape) == prod(A_shape) cannot be satisfied."
#[inline]
pub(crate) fn shape_invariant(b_shape: &[u64], a_product: u64, trace: &mut Trace) -> Result<()> {
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
