//! The `resolve-grid` operation: whether every chunk of an array's chunk grid
//! fits its codec chain ([`super::grid_check`], from the rules' structure), and
//! whether one named chunk is refused (how the runner checks an answer's `chunk`).
//!
//! Two readings of `CONFORMANCE.md` decide what is checked ([`GridReading`]):
//! I-11, which chunks count (those holding array elements, or every declared
//! chunk), and I-12, whether an array whose chain refuses a chunk opens at all.

use serde_json::Value;

use super::ZarrError;
use super::chunk_grid::ChunkGrid;
use super::codecs::codecs_of;
use super::grid_check::{GridVerdict, check_grid_json};
use super::shapes::resolve_codecs;
use crate::arrays::DataType;

/// The readings a grid is checked under: the reference's by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GridReading {
    /// I-11's other reading: every declared chunk is checked, overflow chunks
    /// wholly beyond the array included.
    pub every_declared_chunk: bool,
    /// I-12's other reading: an array whose chain refuses some chunks opens, and
    /// only a read that touches a refused chunk fails.
    pub fitting_chunks_read: bool,
}

impl GridReading {
    /// The extent whose chunks are checked, per axis: the array's shape, or
    /// under I-11's other reading every declared chunk's.
    pub(crate) fn checked_shape(self, grid: &ChunkGrid, array_shape: &[u64]) -> Vec<u64> {
        if self.every_declared_chunk {
            grid.declared_shape(array_shape)
        } else {
            array_shape.to_vec()
        }
    }
}

/// `resolve-grid`: reads `chunk_grid` (as in `zarr.json`) over `array_shape` and
/// answers whether every chunk fits `codecs` (a `codecs` list as in `zarr.json`).
///
/// # Errors
/// `malformed-configuration` for a grid this reader refuses (of another rank than
/// the array, edges not covering it, ...); otherwise as [`super::check_grid`].
pub fn resolve_grid(
    codecs: &Value,
    array_shape: &[u64],
    chunk_grid: &Value,
    data_type: DataType,
    reading: GridReading,
) -> Result<GridVerdict, ZarrError> {
    let grid = grid_of(chunk_grid, array_shape)?;
    let checked = reading.checked_shape(&grid, array_shape);
    check_grid_json(codecs, &grid.axis_edges(&checked), data_type)
}

/// Whether the reference refuses chunk `chunk` of the grid under its readings:
/// the error `resolve-chain` gives on that chunk's declared shape, or `None`
/// when the chain fits it.
///
/// # Errors
/// Why the question has no answer: the grid or the codecs cannot be read, the
/// chunk is outside the chunks that hold array elements (reading I-11), or a
/// codec this reader does not implement stops the chain.
pub fn chunk_refused(
    codecs: &Value,
    array_shape: &[u64],
    chunk_grid: &Value,
    data_type: DataType,
    chunk: &[u64],
) -> Result<Option<ZarrError>, String> {
    let grid = grid_of(chunk_grid, array_shape).map_err(|error| error.message)?;
    let inside = chunk.len() == array_shape.len()
        && chunk
            .iter()
            .zip(grid.grid_shape(array_shape))
            .all(|(at, chunks)| *at < chunks);
    let shape = grid.chunk_shape(chunk).filter(|_| inside).ok_or_else(|| {
        format!(
            "chunk {chunk:?} is not a chunk of the array: the grid has {:?} chunks holding its elements",
            grid.grid_shape(array_shape)
        )
    })?;
    let codecs = match codecs_of(codecs) {
        Ok(codecs) => codecs,
        Err(error) => return Ok(Some(error)),
    };
    match resolve_codecs(&codecs, &shape, data_type) {
        Ok(_) => Ok(None),
        Err(error) if error.is_unsupported() => Err(error.message),
        Err(error) => Ok(Some(error)),
    }
}

/// The chunk grid, of the array's rank.
fn grid_of(chunk_grid: &Value, array_shape: &[u64]) -> Result<ChunkGrid, ZarrError> {
    let grid = ChunkGrid::from_json(chunk_grid, array_shape)?;
    if grid.rank() != array_shape.len() {
        return Err(ZarrError::malformed(format!(
            "a chunk grid of rank {} for an array of rank {}",
            grid.rank(),
            array_shape.len()
        )));
    }
    Ok(grid)
}
