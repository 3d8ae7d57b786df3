//! The answers built from the walk: the extents each codec encodes to, as sets
//! per axis, and, where the model does not apply, every distinct chunk shape
//! resolved one by one.

use std::collections::BTreeSet;

use num_bigint::BigUint;

use super::super::ZarrError;
use super::super::codecs::Codec;
use super::super::shapes::{ChainShapes, resolve_codecs};
use super::domain::Domain;
use super::mono::{Mono, div, mul};
use super::{
    GridShapes, GridVerdict, MAX_ENUMERATED, MAX_EXTENTS, MAX_EXTENTS_TOTAL, MAX_PRODUCTS, beyond,
};
use crate::arrays::DataType;

/// Per step, per axis, the sorted distinct values its monomial takes.
///
/// # Errors
/// Beyond [`MAX_EXTENTS_TOTAL`] values in all, or as [`values`].
pub(super) fn all_values(
    steps: &[Vec<Mono>],
    domain: &Domain,
) -> Result<Vec<Vec<Vec<u64>>>, ZarrError> {
    let mut total: usize = 0;
    let mut out = Vec::with_capacity(steps.len());
    for step in steps {
        let mut axes = Vec::with_capacity(step.len());
        for mono in step {
            let extents = values(mono, domain)?;
            total = total.saturating_add(extents.len());
            if total > MAX_EXTENTS_TOTAL {
                return Err(beyond(format!(
                    "more than {MAX_EXTENTS_TOTAL} extents in the answer"
                )));
            }
            axes.push(extents);
        }
        out.push(axes);
    }
    Ok(out)
}

/// The sorted distinct values `mono` takes over the domain.
///
/// # Errors
/// Beyond [`MAX_EXTENTS`] values, or [`MAX_PRODUCTS`] products in one step.
pub(super) fn values(mono: &Mono, domain: &Domain) -> Result<Vec<u64>, ZarrError> {
    // The products of the variables' edges first (exact in u128 while the
    // extents fit in u64, as the walk checked), then the constant.
    let mut products: Vec<u128> = vec![1];
    for v in &mono.vars {
        let work = products.len().checked_mul(domain.len(*v));
        if work.is_none_or(|work| work > MAX_PRODUCTS) {
            return Err(beyond(format!(
                "more than {MAX_PRODUCTS} products of edges to form one extent set"
            )));
        }
        let mut next = Vec::new();
        for product in &products {
            for edge in domain.edges(*v) {
                next.push(
                    product
                        .checked_mul(u128::from(edge))
                        .ok_or_else(|| beyond("an extent beyond 128 bits".into()))?,
                );
            }
        }
        next.sort_unstable();
        next.dedup();
        if next.len() > MAX_EXTENTS {
            return Err(beyond(format!(
                "an axis that takes more than {MAX_EXTENTS} distinct extents"
            )));
        }
        products = next;
    }
    let mut out = Vec::with_capacity(products.len());
    for product in products {
        let scaled = mul(&mono.num, &BigUint::from(product));
        let value = div(&scaled, &mono.den);
        let exact = mul(&value, &mono.den) == scaled;
        let value = u64::try_from(&value)
            .ok()
            .filter(|_| exact)
            .ok_or_else(|| ZarrError::malformed("grid_check: an extent that is no u64 (a bug)"))?;
        out.push(value);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Each chunk shape of the domain resolved one by one (at most [`MAX_ENUMERATED`]),
/// in order of the edges' first chunks, so the first refused is the first in C order.
///
/// # Errors
/// Beyond [`MAX_ENUMERATED`] shapes or the case's deadline; a codec this reader does
/// not implement, when no chunk is refused before it.
pub(super) fn enumerated(
    codecs: &[Codec],
    domain: &Domain,
    data_type: DataType,
) -> Result<GridVerdict, ZarrError> {
    if domain.shapes().is_none_or(|count| count > MAX_ENUMERATED) {
        return Err(beyond(format!(
            "the chain needs each chunk shape resolved, and there are more than {MAX_ENUMERATED}"
        )));
    }
    let rank = domain.rank();
    let mut point = domain.base();
    let mut unsupported = None;
    let mut sets: Vec<Vec<BTreeSet<u64>>> = Vec::new();
    let mut inner: Option<ChainShapes> = None;
    loop {
        if crate::deadline::passed() {
            return Err(ZarrError::malformed(crate::deadline::STOPPED));
        }
        let (shape, coords) = domain
            .chunk(&point)
            .ok_or_else(|| ZarrError::malformed("grid_check: a chunk outside the grid (a bug)"))?;
        match resolve_codecs(codecs, &shape, data_type) {
            Ok(resolved) => {
                sets.resize_with(resolved.encoded_shapes.len(), Vec::new);
                for (set, encoded) in sets.iter_mut().zip(&resolved.encoded_shapes) {
                    set.resize_with(encoded.len(), BTreeSet::new);
                    for (axis, extent) in set.iter_mut().zip(encoded) {
                        axis.insert(*extent);
                    }
                }
                inner = resolved.inner.map(|inner| *inner);
            }
            Err(error) if error.is_unsupported() => {
                unsupported.get_or_insert(error);
            }
            Err(error) => {
                return Ok(GridVerdict::Refused {
                    chunk: coords,
                    error,
                });
            }
        }
        // The odometer: the last axis turns fastest.
        let mut axis = rank;
        loop {
            let Some(previous) = axis.checked_sub(1) else {
                return match unsupported {
                    Some(error) => Err(error),
                    None => Ok(GridVerdict::Fits(GridShapes {
                        encoded_extents: sets
                            .into_iter()
                            .map(|set| set.into_iter().map(|a| a.into_iter().collect()).collect())
                            .collect(),
                        inner: inner.map(Box::new),
                    })),
                };
            };
            axis = previous;
            let count = domain.len(axis);
            let Some(k) = point.get_mut(axis) else {
                return Err(ZarrError::malformed(
                    "grid_check: an axis outside the grid (a bug)",
                ));
            };
            *k = k.saturating_add(1);
            if *k < count {
                break;
            }
            *k = 0;
        }
    }
}
