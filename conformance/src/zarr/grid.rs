//! The regular chunk grid and the default chunk key encoding (core spec): which
//! chunks a box touches, where each lies, and the key it is stored under.

use std::ops::Range;

use ndarray::{ArrayD, Slice};

use super::{ZarrError, usize_of};

/// The key of chunk `coords` under the default chunk key encoding: `c`, then each
/// coordinate after the separator (`c` alone for a 0-dimensional array).
#[must_use]
pub fn chunk_key(coords: &[u64], separator: char) -> String {
    let mut key = String::from("c");
    for coordinate in coords {
        key.push(separator);
        key.push_str(&coordinate.to_string());
    }
    key
}

/// The chunks of a regular grid that the box `[start, stop)` touches, each with the
/// part of the box it holds.
#[derive(Debug, Clone)]
pub(crate) struct Touched {
    /// Per dimension: the range of chunk coordinates touched.
    ranges: Vec<Range<u64>>,
    chunk: Vec<u64>,
    start: Vec<u64>,
    stop: Vec<u64>,
}

/// One touched chunk: its coordinates, and the same elements as a range within the
/// chunk and as a range within the box.
#[derive(Debug, Clone)]
pub(crate) struct Piece {
    /// The chunk's grid coordinates.
    pub coords: Vec<u64>,
    /// Per dimension, the elements within the chunk.
    pub in_chunk: Vec<Range<usize>>,
    /// Per dimension, the same elements within the box.
    pub in_box: Vec<Range<usize>>,
}

impl Touched {
    /// The chunks of size `chunk` (each extent positive) that `[start, stop)` touches;
    /// none when the box is empty.
    pub(crate) fn new(start: &[u64], stop: &[u64], chunk: &[u64]) -> Self {
        let empty = start.iter().zip(stop).any(|(a, b)| a >= b);
        let ranges = start
            .iter()
            .zip(stop)
            .zip(chunk)
            .map(|((a, b), c)| match a.checked_div(*c) {
                Some(first) if !empty => first..b.div_ceil(*c),
                _ => 0..0,
            })
            .collect();
        Self {
            ranges,
            chunk: chunk.to_vec(),
            start: start.to_vec(),
            stop: stop.to_vec(),
        }
    }

    /// How many chunks the box touches, and how many elements those chunks hold
    /// together (each chunk counted whole): what reading the box costs, known
    /// before any chunk is read. `None` when a count does not fit in `u64`.
    pub(crate) fn cost(&self) -> Option<(u64, u64)> {
        let chunks = self.ranges.iter().try_fold(1u64, |acc, range| {
            acc.checked_mul(range.end.saturating_sub(range.start))
        })?;
        let per_chunk = self
            .chunk
            .iter()
            .try_fold(1u64, |acc, extent| acc.checked_mul(*extent))?;
        Some((chunks, chunks.checked_mul(per_chunk)?))
    }

    /// Every touched chunk, in C order of its coordinates, built one at a time:
    /// the walk holds one set of coordinates, never the list of all pieces.
    pub(crate) fn pieces(&self) -> Pieces<'_> {
        let empty = self.ranges.iter().any(|range| range.is_empty());
        Pieces {
            touched: self,
            next: (!empty).then(|| self.ranges.iter().map(|range| range.start).collect()),
        }
    }

    fn piece(&self, coords: &[u64]) -> Result<Piece, ZarrError> {
        let overflow = || {
            ZarrError::new(
                zarr_reshape::ErrorClass::Overflow,
                "a chunk coordinate overflows",
            )
        };
        let mut in_chunk = Vec::with_capacity(coords.len());
        let mut in_box = Vec::with_capacity(coords.len());
        for (((coordinate, chunk), start), stop) in coords
            .iter()
            .zip(&self.chunk)
            .zip(&self.start)
            .zip(&self.stop)
        {
            let origin = coordinate.checked_mul(*chunk).ok_or_else(overflow)?;
            let end = origin.checked_add(*chunk).ok_or_else(overflow)?;
            let low = origin.max(*start);
            let high = end.min(*stop);
            let offset =
                |at: u64, from: u64| at.checked_sub(from).ok_or_else(overflow).and_then(usize_of);
            in_chunk.push(offset(low, origin)?..offset(high, origin)?);
            in_box.push(offset(low, *start)?..offset(high, *start)?);
        }
        Ok(Piece {
            coords: coords.to_vec(),
            in_chunk,
            in_box,
        })
    }
}

/// The walk over the chunks a box touches (see [`Touched::pieces`]).
#[derive(Debug)]
pub(crate) struct Pieces<'a> {
    touched: &'a Touched,
    /// The coordinates of the next chunk; `None` once the walk is over.
    next: Option<Vec<u64>>,
}

impl Iterator for Pieces<'_> {
    type Item = Result<Piece, ZarrError>;

    fn next(&mut self) -> Option<Self::Item> {
        let coords = self.next.take()?;
        let piece = self.touched.piece(&coords);
        // The odometer: the last dimension turns fastest; past the last chunk, done.
        let mut following = coords;
        let mut dim = following.len();
        while let Some(previous) = dim.checked_sub(1) {
            dim = previous;
            let (Some(coordinate), Some(range)) =
                (following.get_mut(dim), self.touched.ranges.get(dim))
            else {
                break;
            };
            *coordinate = coordinate.saturating_add(1);
            if *coordinate < range.end {
                self.next = Some(following);
                break;
            }
            *coordinate = range.start;
        }
        Some(piece)
    }
}

/// Copies `from`'s elements in `from_ranges` onto `to`'s in `to_ranges` (ranges
/// of equal lengths, within both arrays).
pub(crate) fn copy_box<T: Clone>(
    to: &mut ArrayD<T>,
    to_ranges: &[Range<usize>],
    from: &ArrayD<T>,
    from_ranges: &[Range<usize>],
) {
    let select = |ranges: &[Range<usize>], axis: usize| {
        ranges
            .get(axis)
            .map_or(Slice::from(..), |range| Slice::from(range.clone()))
    };
    let source = from.slice_each_axis(|axis| select(from_ranges, axis.axis.index()));
    to.slice_each_axis_mut(|axis| select(to_ranges, axis.axis.index()))
        .assign(&source);
}
