//! The chunk grids this reader knows: `regular` (core spec, "Chunk grids") and
//! `rectilinear` (zarr-extensions, `chunk-grids/rectilinear`), whose chunk edges
//! vary along each axis.
//!
//! A rectilinear axis is kept as the runs its JSON declares (`[edge, count]`, a
//! plain edge being a run of one, an integer `m` a run of `m` as long as the axis
//! needs), never expanded: `[[1, 1000000000000000000]]` is one run. A chunk
//! of an index is found as the extension's indexing procedure says (the first
//! cumulative edge sum that exceeds the index), by a binary search over the runs'
//! cumulative ends; all arithmetic is checked. A declaration is refused
//! (`malformed-configuration`, the message saying what and where) unless `kind`
//! is `"inline"`, `chunk_shapes` has one entry per axis, every edge, value and
//! count is a positive JSON integer that fits in `u64`, an axis lists at most
//! [`MAX_AXIS_ITEMS`] items, its edges sum (without overflow) to at least the
//! axis length, and the configuration has no other member.

mod parse;

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::ZarrError;
use super::codecs::{extension, only, u64s};

/// The most items (edges and `[edge, count]` runs) one axis of a rectilinear grid
/// may list in `zarr.json`: lookups search the runs, so the bound is on the JSON,
/// not on the number of chunks a run declares.
pub const MAX_AXIS_ITEMS: usize = 1 << 16;

/// A run of `count` chunks of `edge` elements along one axis, starting at array
/// index `start` and chunk index `first`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run {
    edge: u64,
    count: u64,
    start: u64,
    first: u64,
    /// `start + edge * count`: the array index after the run.
    end: u64,
    /// `first + count`: the chunk index after the run.
    after: u64,
}

/// A chunk's grid coordinates and its decoded shape (see
/// [`ChunkGrid::distinct_chunks`]).
pub type FirstChunk = (Vec<u64>, Vec<u64>);

/// One axis of a rectilinear grid: its runs, and the integer it was declared
/// with when it was one (a regular step).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    step: Option<u64>,
    runs: Vec<Run>,
}

impl Axis {
    /// The runs of `(edge, count)` pairs in order, counts of zero dropped.
    ///
    /// # Errors
    /// `malformed-configuration` when a sum of edges or of counts overflows `u64`.
    fn from_runs(step: Option<u64>, pairs: &[(u64, u64)], axis: usize) -> Result<Self, ZarrError> {
        let overflow = || {
            ZarrError::malformed(format!(
                "the rectilinear chunk grid's edges of axis {axis} sum beyond 2^64 - 1"
            ))
        };
        let (mut start, mut first) = (0u64, 0u64);
        let mut runs = Vec::with_capacity(pairs.len());
        for (edge, count) in pairs.iter().copied().filter(|(_, count)| *count > 0) {
            let end = edge
                .checked_mul(count)
                .and_then(|length| start.checked_add(length))
                .ok_or_else(overflow)?;
            let after = first.checked_add(count).ok_or_else(overflow)?;
            runs.push(Run {
                edge,
                count,
                start,
                first,
                end,
                after,
            });
            (start, first) = (end, after);
        }
        Ok(Self { step, runs })
    }

    /// The sum of the edges.
    fn length(&self) -> u64 {
        self.runs.last().map_or(0, |run| run.end)
    }

    /// The number of chunks declared.
    fn chunks(&self) -> u64 {
        self.runs.last().map_or(0, |run| run.after)
    }

    /// The chunk holding array index `index`, and the index within it.
    fn locate(&self, index: u64) -> Option<(u64, u64)> {
        let run = self
            .runs
            .get(self.runs.partition_point(|r| r.end <= index))?;
        let offset = index.checked_sub(run.start)?;
        let chunk = run.first.checked_add(offset.checked_div(run.edge)?)?;
        Some((chunk, offset.checked_rem(run.edge)?))
    }

    /// Chunk `chunk`'s origin and edge.
    fn chunk(&self, chunk: u64) -> Option<(u64, u64)> {
        let run = self
            .runs
            .get(self.runs.partition_point(|r| r.after <= chunk))?;
        let origin = chunk
            .checked_sub(run.first)?
            .checked_mul(run.edge)?
            .checked_add(run.start)?;
        Some((origin, run.edge))
    }

    fn to_json(&self) -> Value {
        if let Some(step) = self.step {
            return json!(step);
        }
        let items = self.runs.iter().map(|run| match run.count {
            1 => json!(run.edge),
            count => json!([run.edge, count]),
        });
        Value::Array(items.collect())
    }
}

/// An array's chunk grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkGrid {
    /// `regular`: every chunk of `chunk_shape` (each extent positive).
    Regular {
        /// The chunk shape.
        chunk_shape: Vec<u64>,
    },
    /// `rectilinear`: per axis, runs of chunk edges.
    Rectilinear {
        /// One per axis of the array.
        axes: Vec<Axis>,
    },
}

impl ChunkGrid {
    /// Reads `zarr.json`'s `chunk_grid` for an array of `array_shape`.
    ///
    /// # Errors
    /// `malformed-configuration`, saying what and where (module documentation).
    pub fn from_json(value: &Value, array_shape: &[u64]) -> Result<Self, ZarrError> {
        let (name, configuration, _) = extension(value, "chunk grid")?;
        match name.as_str() {
            "regular" => {
                only(&configuration, &["chunk_shape"], "regular chunk grid")?;
                u64s(configuration.get("chunk_shape"))
                    .filter(|chunk| {
                        chunk.len() == array_shape.len() && chunk.iter().all(|extent| *extent > 0)
                    })
                    .map(|chunk_shape| Self::Regular { chunk_shape })
                    .ok_or_else(|| {
                        ZarrError::malformed(
                            "chunk_shape must hold a positive integer per dimension of shape",
                        )
                    })
            }
            "rectilinear" => parse::rectilinear(&configuration, array_shape),
            _ => Err(ZarrError::malformed(format!(
                "the chunk grid {name:?} is not supported; only regular and rectilinear"
            ))),
        }
    }

    /// The grid as `zarr.json` declares it (a rectilinear axis's runs as
    /// `[edge, count]`, or a plain edge for a run of one).
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            Self::Regular { chunk_shape } => {
                json!({"name": "regular", "configuration": {"chunk_shape": chunk_shape}})
            }
            Self::Rectilinear { axes } => json!({"name": "rectilinear", "configuration": {
                "kind": "inline",
                "chunk_shapes": axes.iter().map(Axis::to_json).collect::<Vec<_>>(),
            }}),
        }
    }

    /// The regular grid's chunk shape; `None` for a rectilinear grid.
    #[must_use]
    pub fn regular(&self) -> Option<&[u64]> {
        match self {
            Self::Regular { chunk_shape } => Some(chunk_shape),
            Self::Rectilinear { .. } => None,
        }
    }

    /// The grid's rank.
    #[must_use]
    pub fn rank(&self) -> usize {
        match self {
            Self::Regular { chunk_shape } => chunk_shape.len(),
            Self::Rectilinear { axes } => axes.len(),
        }
    }

    /// Per axis: the distinct decoded extents among the chunks that hold at
    /// least one array element (I-11), each with the index of the first such
    /// chunk, in order of first appearance. A regular grid gives one entry per
    /// axis, `(chunk_shape[d], 0)`, or none when the axis length is 0.
    #[must_use]
    pub fn axis_edges(&self, array_shape: &[u64]) -> Vec<Vec<(u64, u64)>> {
        match self {
            Self::Regular { chunk_shape } => chunk_shape
                .iter()
                .zip(array_shape)
                .map(|(extent, length)| {
                    if *length > 0 {
                        vec![(*extent, 0)]
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
            Self::Rectilinear { axes } => axes
                .iter()
                .zip(array_shape)
                .map(|(axis, length)| {
                    let mut seen = BTreeSet::new();
                    axis.runs
                        .iter()
                        .take_while(|run| run.start < *length)
                        .filter(|run| seen.insert(run.edge))
                        .map(|run| (run.edge, run.first))
                        .collect()
                })
                .collect(),
        }
    }

    /// Every distinct decoded shape among the chunks that hold array elements,
    /// each with the coordinates of the first chunk (in C order) of that shape, in
    /// C order of those coordinates: the Cartesian product of
    /// [`Self::axis_edges`]. A regular grid gives its chunk shape alone, at the
    /// origin, also for an empty array.
    ///
    /// # Errors
    /// `malformed-configuration` when there are more than `limit`.
    pub fn distinct_chunks(
        &self,
        array_shape: &[u64],
        limit: u64,
    ) -> Result<Vec<FirstChunk>, ZarrError> {
        if let Self::Regular { chunk_shape } = self {
            return Ok(vec![(vec![0; chunk_shape.len()], chunk_shape.clone())]);
        }
        let axes = self.axis_edges(array_shape);
        let count = axes.iter().try_fold(1u64, |acc, edges| {
            acc.checked_mul(u64::try_from(edges.len()).ok()?)
        });
        if count.is_none_or(|count| count > limit) {
            let per_axis: Vec<usize> = axes.iter().map(Vec::len).collect();
            return Err(ZarrError::malformed(format!(
                "the rectilinear chunk grid's chunks have {per_axis:?} distinct edges per axis: \
                 more than {limit} distinct chunk shapes, beyond this reader's limits"
            )));
        }
        let mut shapes = Vec::new();
        if axes.iter().any(Vec::is_empty) {
            return Ok(shapes);
        }
        // An odometer over the axes' distinct edges, the last axis turning fastest.
        let mut at = vec![0usize; axes.len()];
        loop {
            let (shape, coords) = at
                .iter()
                .zip(&axes)
                .filter_map(|(i, edges)| edges.get(*i).copied())
                .unzip();
            shapes.push((coords, shape));
            let mut dim = axes.len();
            loop {
                let Some(previous) = dim.checked_sub(1) else {
                    return Ok(shapes);
                };
                dim = previous;
                let (Some(i), Some(edges)) = (at.get_mut(dim), axes.get(dim)) else {
                    return Ok(shapes);
                };
                *i = i.saturating_add(1);
                if *i < edges.len() {
                    break;
                }
                *i = 0;
            }
        }
    }

    /// The extent every declared chunk covers, per axis (overflow chunks too;
    /// a regular grid declares none beyond the array): handed to
    /// [`Self::axis_edges`], it gives every declared chunk (I-11's other reading).
    #[must_use]
    pub fn declared_shape(&self, array_shape: &[u64]) -> Vec<u64> {
        match self {
            Self::Regular { .. } => array_shape.to_vec(),
            Self::Rectilinear { axes } => axes
                .iter()
                .zip(array_shape)
                .map(|(axis, length)| axis.length().max(*length))
                .collect(),
        }
    }

    /// The number of chunks per axis that hold array elements.
    #[must_use]
    pub fn grid_shape(&self, array_shape: &[u64]) -> Vec<u64> {
        (0..self.rank())
            .zip(array_shape)
            .map(|(axis, length)| match length.checked_sub(1) {
                None => 0,
                Some(last) => self
                    .locate(axis, last)
                    .and_then(|(chunk, _)| chunk.checked_add(1))
                    .unwrap_or_else(|| self.declared(axis)),
            })
            .collect()
    }

    /// A chunk's decoded shape (its declared edges, also past the array's end);
    /// `None` outside the grid.
    #[must_use]
    pub fn chunk_shape(&self, coords: &[u64]) -> Option<Vec<u64>> {
        self.each_chunk_axis(coords, |_, edge| edge)
    }

    /// A chunk's origin in array coordinates; `None` outside the grid.
    #[must_use]
    pub fn chunk_origin(&self, coords: &[u64]) -> Option<Vec<u64>> {
        self.each_chunk_axis(coords, |origin, _| origin)
    }

    /// The chunk holding the array index `index` and the index within that chunk
    /// (the extension's indexing procedure); `None` outside the grid.
    #[must_use]
    pub fn chunk_of_index(&self, index: &[u64]) -> Option<(Vec<u64>, Vec<u64>)> {
        if index.len() != self.rank() {
            return None;
        }
        (0..self.rank())
            .zip(index)
            .map(|(axis, at)| self.locate(axis, *at))
            .collect::<Option<Vec<_>>>()
            .map(|pairs| pairs.into_iter().unzip())
    }

    fn each_chunk_axis(&self, coords: &[u64], pick: impl Fn(u64, u64) -> u64) -> Option<Vec<u64>> {
        if coords.len() != self.rank() {
            return None;
        }
        (0..self.rank())
            .zip(coords)
            .map(|(axis, chunk)| {
                self.axis_chunk(axis, *chunk)
                    .map(|(origin, edge)| pick(origin, edge))
            })
            .collect()
    }

    /// Along `axis`, the chunk holding array index `index` and the index within it.
    pub(crate) fn locate(&self, axis: usize, index: u64) -> Option<(u64, u64)> {
        match self {
            Self::Regular { chunk_shape } => {
                let edge = *chunk_shape.get(axis)?;
                Some((index.checked_div(edge)?, index.checked_rem(edge)?))
            }
            Self::Rectilinear { axes } => axes.get(axis)?.locate(index),
        }
    }

    /// Along `axis`, chunk `chunk`'s origin and edge.
    pub(crate) fn axis_chunk(&self, axis: usize, chunk: u64) -> Option<(u64, u64)> {
        match self {
            Self::Regular { chunk_shape } => {
                let edge = *chunk_shape.get(axis)?;
                Some((chunk.checked_mul(edge)?, edge))
            }
            Self::Rectilinear { axes } => axes.get(axis)?.chunk(chunk),
        }
    }

    /// The chunks declared along `axis` (a regular grid declares as many as fit).
    fn declared(&self, axis: usize) -> u64 {
        match self {
            Self::Regular { .. } => u64::MAX,
            Self::Rectilinear { axes } => axes.get(axis).map_or(0, Axis::chunks),
        }
    }
}
