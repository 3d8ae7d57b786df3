//! Chunks of a chunk grid ([`ChunkGrid`]: regular or rectilinear) and the default
//! chunk key encoding (core spec): which chunks a box touches, where each lies,
//! its decoded shape, and the key it is stored under.

use std::ops::Range;

use ndarray::{ArrayD, Slice};

use super::chunk_grid::ChunkGrid;
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

/// The chunks of a chunk grid that the box `[start, stop)` touches, each with the
/// part of the box it holds. Per axis the touched chunks are a range of chunk
/// coordinates, found from the grid's runs (never expanded).
#[derive(Debug, Clone)]
pub(crate) struct Touched {
    /// Per dimension: the range of chunk coordinates touched.
    ranges: Vec<Range<u64>>,
    grid: ChunkGrid,
    start: Vec<u64>,
    stop: Vec<u64>,
}

/// One touched chunk: its coordinates, origin and decoded shape, and the same
/// elements as a range within the chunk and as a range within the box.
#[derive(Debug, Clone)]
pub(crate) struct Piece {
    /// The chunk's grid coordinates.
    pub coords: Vec<u64>,
    /// The chunk's origin, in array coordinates.
    pub origin: Vec<u64>,
    /// The chunk's decoded shape: its declared edges, also past the array's end.
    pub shape: Vec<u64>,
    /// Per dimension, the elements within the chunk.
    pub in_chunk: Vec<Range<usize>>,
    /// Per dimension, the same elements within the box.
    pub in_box: Vec<Range<usize>>,
}

/// Every chunk of an array of `shape` under `grid` that holds at least one of its
/// elements (I-11), with its origin and decoded shape ([`Piece`]), in C order of
/// the chunk coordinates: what a writer encodes. Overflow chunks wholly beyond
/// the array are not visited.
///
/// # Errors
/// As [`Touched::over`].
pub(crate) fn array_chunks(grid: &ChunkGrid, shape: &[u64]) -> Result<Touched, ZarrError> {
    Touched::over(&vec![0; shape.len()], shape, grid)
}

impl Touched {
    /// The chunks of a regular grid of `chunk` (each extent positive) that
    /// `[start, stop)` touches; none when the box is empty.
    pub(crate) fn new(start: &[u64], stop: &[u64], chunk: &[u64]) -> Self {
        let grid = ChunkGrid::Regular {
            chunk_shape: chunk.to_vec(),
        };
        let ranges = Self::ranges(start, stop, &grid)
            .unwrap_or_else(|| start.iter().map(|_| 0..0).collect());
        Self {
            ranges,
            grid,
            start: start.to_vec(),
            stop: stop.to_vec(),
        }
    }

    /// The chunks of `grid` that `[start, stop)` touches; none when the box is empty.
    ///
    /// # Errors
    /// `malformed-configuration` when the box reaches beyond the chunks the grid
    /// declares or is not of the grid's rank.
    pub(crate) fn over(start: &[u64], stop: &[u64], grid: &ChunkGrid) -> Result<Self, ZarrError> {
        let ranges = Self::ranges(start, stop, grid)
            .filter(|_| start.len() == grid.rank() && stop.len() == grid.rank())
            .ok_or_else(|| {
                ZarrError::malformed(format!(
                    "the box from {start:?} to {stop:?} is not within the chunk grid"
                ))
            })?;
        Ok(Self {
            ranges,
            grid: grid.clone(),
            start: start.to_vec(),
            stop: stop.to_vec(),
        })
    }

    /// Per axis, the chunks from the one holding `start` to the one holding
    /// `stop - 1`; all empty for an empty box.
    fn ranges(start: &[u64], stop: &[u64], grid: &ChunkGrid) -> Option<Vec<Range<u64>>> {
        if start.iter().zip(stop).any(|(a, b)| a >= b) {
            return Some(start.iter().map(|_| 0..0).collect());
        }
        start
            .iter()
            .zip(stop)
            .enumerate()
            .map(|(axis, (a, b))| {
                let (first, _) = grid.locate(axis, *a)?;
                let (last, _) = grid.locate(axis, b.checked_sub(1)?)?;
                Some(first..last.checked_add(1)?)
            })
            .collect()
    }

    /// How many chunks the box touches, and how many elements those chunks hold
    /// together (each chunk counted whole): what reading the box costs, known
    /// before any chunk is read. `None` when a count does not fit in `u64`.
    pub(crate) fn cost(&self) -> Option<(u64, u64)> {
        let mut chunks = 1u64;
        let mut elements = 1u64;
        for (axis, range) in self.ranges.iter().enumerate() {
            let count = range.end.saturating_sub(range.start);
            chunks = chunks.checked_mul(count)?;
            // The touched chunks of an axis are contiguous: their edges sum to the
            // distance from the first one's origin to the last one's end.
            let extent = match range.end.checked_sub(1).filter(|_| count > 0) {
                None => 0,
                Some(last) => {
                    let (first_origin, _) = self.grid.axis_chunk(axis, range.start)?;
                    let (last_origin, last_edge) = self.grid.axis_chunk(axis, last)?;
                    last_origin
                        .checked_add(last_edge)?
                        .checked_sub(first_origin)?
                }
            };
            elements = elements.checked_mul(extent)?;
        }
        Some((chunks, elements))
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
        let mut origins = Vec::with_capacity(coords.len());
        let mut shape = Vec::with_capacity(coords.len());
        for (axis, ((coordinate, start), stop)) in
            coords.iter().zip(&self.start).zip(&self.stop).enumerate()
        {
            let (origin, edge) = self
                .grid
                .axis_chunk(axis, *coordinate)
                .ok_or_else(overflow)?;
            let end = origin.checked_add(edge).ok_or_else(overflow)?;
            let low = origin.max(*start);
            let high = end.min(*stop);
            let offset =
                |at: u64, from: u64| at.checked_sub(from).ok_or_else(overflow).and_then(usize_of);
            in_chunk.push(offset(low, origin)?..offset(high, origin)?);
            in_box.push(offset(low, *start)?..offset(high, *start)?);
            origins.push(origin);
            shape.push(edge);
        }
        Ok(Piece {
            coords: coords.to_vec(),
            origin: origins,
            shape,
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
