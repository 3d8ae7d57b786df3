//! A box of a chunk mapped through the array -> array steps: the box of each
//! step's encoded array that holds every element of the box handed to it (a
//! bounding box, so perhaps more). `transpose` permutes the box's ranges;
//! `reshape` maps it through the zarr-reshape library's region mapping: the box
//! is a set of runs of C-order offsets, the same in A and B
//! ([`ReshapeCodec::region_runs`]), and each run's first and last elements in B
//! bound it.

use std::ops::Range;

use zarr_reshape::{ErrorClass, ReshapeCodec};

use super::Step;
use crate::zarr::{ZarrError, usize_of};

/// Checks that `part` is a box within a chunk of `shape`.
///
/// # Errors
/// `shape-mismatch` for another rank, `out-of-bounds` for a box not within it.
pub(super) fn check_part(part: &[Range<usize>], shape: &[usize]) -> Result<(), ZarrError> {
    if part.len() != shape.len() {
        return Err(ZarrError::new(
            ErrorClass::ShapeMismatch,
            format!("a box of rank {} in a chunk of {shape:?}", part.len()),
        ));
    }
    let within = part
        .iter()
        .zip(shape)
        .all(|(range, extent)| range.start <= range.end && range.end <= *extent);
    if !within {
        return Err(ZarrError::new(
            ErrorClass::OutOfBounds,
            format!("the box {part:?} is not within a chunk of {shape:?}"),
        ));
    }
    Ok(())
}

/// The box of `step`'s encoded array that holds the elements of `part`, a box of
/// its decoded array. An empty box stays empty.
///
/// # Errors
/// The reshape library's errors; `malformed-configuration` at the case's deadline.
pub(super) fn encoded_box(
    step: &Step,
    part: &[Range<usize>],
) -> Result<Vec<Range<usize>>, ZarrError> {
    match step {
        Step::Transpose { order, .. } => Ok(order
            .iter()
            .map(|d| part.get(*d).cloned().unwrap_or(0..0))
            .collect()),
        Step::Reshape(codec) => reshaped_box(codec, part),
    }
}

fn to_u64(value: usize) -> u64 {
    u64::try_from(value).unwrap_or(u64::MAX)
}

fn reshaped_box(
    codec: &ReshapeCodec,
    part: &[Range<usize>],
) -> Result<Vec<Range<usize>>, ZarrError> {
    let shape = codec.encoded_shape();
    let start: Vec<u64> = part.iter().map(|range| to_u64(range.start)).collect();
    let stop: Vec<u64> = part.iter().map(|range| to_u64(range.end)).collect();
    // Per dimension of B: the lowest and one past the highest coordinate met.
    let mut low: Vec<u64> = shape.to_vec();
    let mut high: Vec<u64> = vec![0; shape.len()];
    let whole = |low: &[u64], high: &[u64]| {
        low.iter().all(|l| *l == 0) && high.iter().zip(shape).all(|(h, n)| h == n)
    };
    for run in codec.region_runs(&start, &stop)? {
        if crate::deadline::passed() {
            return Err(ZarrError::malformed(crate::deadline::STOPPED));
        }
        let Some(last_offset) = run
            .len
            .checked_sub(1)
            .and_then(|rest| run.offset.checked_add(rest))
        else {
            continue;
        };
        let first = codec.encoded_index_at(run.offset)?;
        let last = codec.encoded_index_at(last_offset)?;
        // A run agrees with itself on the dimensions before the first one where
        // its ends differ; along that one it spans from end to end, and every
        // dimension after it may be met whole.
        let split = first
            .iter()
            .zip(&last)
            .position(|(a, b)| a != b)
            .unwrap_or(first.len());
        for (d, ((a, b), extent)) in first.iter().zip(&last).zip(shape).enumerate() {
            let (from, to) = if d <= split {
                (*a, b.saturating_add(1))
            } else {
                (0, *extent)
            };
            if let (Some(l), Some(h)) = (low.get_mut(d), high.get_mut(d)) {
                *l = (*l).min(from);
                *h = (*h).max(to);
            }
        }
        if whole(&low, &high) {
            break;
        }
    }
    if high.iter().zip(&low).any(|(h, l)| h <= l) {
        return Ok(vec![0..0; shape.len()]);
    }
    low.iter()
        .zip(&high)
        .map(|(l, h)| Ok(usize_of(*l)?..usize_of(*h)?))
        .collect()
}
