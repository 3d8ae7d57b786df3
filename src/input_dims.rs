//! The rules on input dims (spec section "Configuration parameters / shape"), one
//! function per clause: `input-dims.increasing` (at parse), `input-dims.range`,
//! `input-dims.prefix` and `input-dims.suffix` (at resolve).

use crate::clause::Clause;
use crate::configuration::ShapeElement;
use crate::error::{ReshapeError, Result};
use crate::position::Position;
use crate::product::product_of;
use crate::trace::{Trace, Verdict};

/// input-dims.increasing: the flattened input dims of `shape` strictly increase.
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "the flattened list of input
/// dimensions, over all elements of shape, must be in strictly monotonically increasing
/// order"
pub(crate) fn input_dims_increasing(shape: &[ShapeElement], trace: &mut Trace) -> Result<()> {
    let flattened: Vec<(Position, u64)> = shape
        .iter()
        .enumerate()
        .filter_map(|(element, item)| match item {
            ShapeElement::InputDims(dims) => Some((element, dims)),
            _ => None,
        })
        .flat_map(|(element, dims)| {
            dims.iter()
                .enumerate()
                .map(move |(j, dim)| (Position::input_dim(element, j), *dim))
        })
        .collect();
    let broken = flattened.windows(2).find_map(|pair| match pair {
        [previous, next] if next.1 <= previous.1 => Some((*previous, *next)),
        _ => None,
    });
    let Some(((previous_at, previous), (at, value))) = broken else {
        trace.note(Clause::InputDimsIncreasing, None, Verdict::Holds, || {
            if flattened.is_empty() {
                return "no input dims".into();
            }
            let dims: Vec<String> = flattened.iter().map(|(_, dim)| dim.to_string()).collect();
            dims.join(" < ")
        });
        return Ok(());
    };
    trace.note(Clause::InputDimsIncreasing, None, Verdict::Violated, || {
        format!("{previous} at {previous_at}, then {value} at {at}")
    });
    Err(ReshapeError::InputDimsNotIncreasing {
        at,
        value,
        previous_at,
        previous,
    })
}

/// input-dims.range (I-4): every input dim names a dimension of `A_shape`.
#[inline]
pub(crate) fn input_dims_range(
    element: usize,
    dims: &[u64],
    a_shape: &[u64],
    trace: &mut Trace,
) -> Result<()> {
    let rank = a_shape.len();
    for (j, dim) in dims.iter().enumerate() {
        let in_range = usize::try_from(*dim).is_ok_and(|d| d < rank);
        let at = Position::input_dim(element, j);
        if !in_range {
            trace.check(
                false,
                Clause::InputDimsRange,
                Some(at),
                || format!("input dim {dim}, rank(A_shape) = {rank}"),
                || ReshapeError::InputDimOutOfRange {
                    at,
                    value: *dim,
                    rank,
                },
            )?;
        }
    }
    Ok(())
}

/// input-dims.prefix (erratum E2): for `shape[element]` starting at input dim
/// `first_dim`, `prod(B_shape[:i]) == prod(A_shape[:input_dims[0]])`.
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "If input_dims specifies k >
/// 0 input dimensions: prod(B_shape[:i]) == prod(A_shape[input_dims[0]]) and ..."
pub(crate) fn input_dims_prefix(
    element: usize,
    first_dim: u64,
    a_shape: &[u64],
    b_shape: &[u64],
    trace: &mut Trace,
) -> Result<()> {
    let b_product = prod(b_shape.get(..element), || {
        format!("prod(B_shape[:{element}])")
    })?;
    let a_product = prod(a_slice_to(a_shape, first_dim), || {
        format!("prod(A_shape[:{first_dim}])")
    })?;
    trace.check(
        b_product == a_product,
        Clause::InputDimsPrefix,
        Some(Position::element(element)),
        || {
            format!(
                "prod(B_shape[:{element}]) = {b_product}, prod(A_shape[:{first_dim}]) = {a_product}"
            )
        },
        || ReshapeError::PrefixMisaligned {
            element,
            first_dim,
            b_product,
            a_product,
        },
    )
}

/// input-dims.suffix: for `shape[element]` ending at input dim `last_dim`,
/// `prod(B_shape[i+1:]) == prod(A_shape[input_dims[k-1]+1:])`.
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "If input_dims specifies k >
/// 0 input dimensions: ... and prod(B_shape[i+1:]) == prod(A_shape[input_dims[k-1]+1:])."
pub(crate) fn input_dims_suffix(
    element: usize,
    last_dim: u64,
    a_shape: &[u64],
    b_shape: &[u64],
    trace: &mut Trace,
) -> Result<()> {
    let after = element.checked_add(1).unwrap_or(element);
    let b_product = prod(b_shape.get(after..), || format!("prod(B_shape[{after}:])"))?;
    let a_from = last_dim.saturating_add(1);
    let a_product = prod(a_slice_after(a_shape, last_dim), || {
        format!("prod(A_shape[{a_from}:])")
    })?;
    trace.check(
        b_product == a_product,
        Clause::InputDimsSuffix,
        Some(Position::element(element)),
        || format!("prod(B_shape[{after}:]) = {b_product}, prod(A_shape[{a_from}:]) = {a_product}"),
        || ReshapeError::SuffixMisaligned {
            element,
            last_dim,
            b_product,
            a_product,
        },
    )
}

/// `A_shape[:d]`; `d` is in range, as input-dims.range was checked first.
fn a_slice_to(a_shape: &[u64], d: u64) -> Option<&[u64]> {
    usize::try_from(d).ok().and_then(|d| a_shape.get(..d))
}

/// `A_shape[d+1:]`; `d` is in range, as input-dims.range was checked first.
fn a_slice_after(a_shape: &[u64], d: u64) -> Option<&[u64]> {
    usize::try_from(d)
        .ok()
        .and_then(|d| d.checked_add(1))
        .and_then(|start| a_shape.get(start..))
}

/// The product of a slice of a shape. Products only overflow here when a zero
/// extent let the invariant hold (I-9).
#[inline]
fn prod(slice: Option<&[u64]>, what: impl Fn() -> String) -> Result<u64> {
    slice
        .and_then(product_of)
        .ok_or_else(|| ReshapeError::Overflow { what: what() })
}
