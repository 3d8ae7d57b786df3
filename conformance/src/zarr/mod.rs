//! A small Zarr v3 array reader and writer, for the array fixtures of the suite
//! (`spec-cases/arrays/`) and the `read-array` operation: a local folder holding
//! `zarr.json` and chunk files, a regular or rectilinear chunk grid
//! ([`ChunkGrid`]), the default chunk key encoding, and the codecs `transpose`,
//! `reshape` (the zarr-reshape library), `bytes`, `sharding_indexed` (the index at
//! the start or end, through any index chain of fixed encoded size; shards nested
//! in shards; a box decodes only the inner chunks it lands in), `gzip`, `zstd` and
//! `crc32c`. [`grid_check`] answers `resolve-grid`.
//!
//! Errors carry a class of the suite's closed set: the reshape library's class for
//! what the reshape codec rejects, `shape-mismatch` and `out-of-bounds` for a box
//! of the wrong rank or outside the array, and `malformed-configuration` for
//! everything else this reader cannot open or read (a chunk it cannot decode
//! included: a corrupt compressed stream, a `crc32c` checksum that does not match,
//! a shard whose index names bytes beyond it). A codec this reader does not
//! implement (`blosc`, an unknown name) is no error of the array: the error says
//! so ([`ZarrError::is_unsupported`]), and the reference answers `skipped`.
//! Resources are bounded: arrays and chunks of at most [`MAX_ELEMENTS`] elements,
//! files of at most [`MAX_CHUNK_BYTES`] bytes (shards and inner chunks alike),
//! before and after decompression, shards of at most 2^16 inner chunks, reads of
//! at most [`MAX_CHUNKS_READ`] chunks and [`MAX_ELEMENTS_READ`] chunk elements,
//! chains of at most [`MAX_CODECS`] codecs, rectilinear grids of at most
//! [`MAX_AXIS_ITEMS`] items per axis and [`MAX_CHUNK_SHAPES`] distinct chunk
//! shapes, work that stops at the case's deadline (`crate::deadline`), shapes
//! ndarray can hold, and only regular files and folders (no links, FIFOs or
//! devices) below the array's folder.

mod chain;
mod chunk_grid;
mod codecs;
mod compress;
pub(crate) mod element;
mod error;
mod grid;
pub mod grid_check;
mod metadata;
mod resolve_grid;
mod shapes;
mod shard;
mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ndarray::{ArrayD, IxDyn};
use zarr_reshape::ErrorClass;

use self::chain::Chain;
pub use self::chain::reshape_decoded_shape;
pub use self::chunk_grid::{Axis, ChunkGrid, MAX_AXIS_ITEMS};
pub use self::codecs::{Codec, Sharding};
use self::element::{Element, with_element_type};
pub use self::error::ZarrError;
pub(crate) use self::error::usize_of;
use self::grid::{Touched, copy_box};
pub(crate) use self::grid::{array_chunks, chunk_key};
pub use self::grid_check::{GridShapes, GridVerdict, check_grid, check_grid_json};
pub use self::metadata::ArrayMetadata;
pub use self::resolve_grid::{GridReading, chunk_refused, resolve_grid};
pub use self::shapes::{ChainShapes, MAX_CODECS, resolve_chain};
pub use self::write::{encode_chunks, encode_chunks_with};
pub use crate::arrays::MAX_ELEMENTS;
use crate::arrays::TypedArray;

/// The largest file read (`zarr.json` or a chunk), and the largest chunk after
/// decompression, in bytes.
pub const MAX_CHUNK_BYTES: usize = 64 << 20;

/// The most chunks one read may touch. A box touching more is refused before any
/// chunk is read (`malformed-configuration`), so that a tiny `zarr.json` with a
/// chunk of one element per coordinate cannot ask for millions of chunk files.
pub const MAX_CHUNKS_READ: u64 = 1 << 16;

/// The most elements the chunks one read touches may hold together, each chunk
/// counted whole (edge chunks included), and so also the most elements a read
/// returns. Beyond it the read is refused before any chunk is read
/// (`malformed-configuration`): decoding costs per chunk element, not per element
/// of the box, and the answer is judged and reported as JSON (a fill-only array of
/// 2^24 elements, from a 300-byte `zarr.json`, took a minute and 2.7 GB to judge).
pub const MAX_ELEMENTS_READ: u64 = 1 << 20;

/// `shape` as ndarray extents, refused (`malformed-configuration`) unless each
/// extent and the product of the non-zero extents fit in `isize`: ndarray panics
/// on any larger shape, an empty one included.
pub(crate) fn ndarray_shape(shape: &[u64]) -> Result<Vec<usize>, ZarrError> {
    zarr_reshape::limits::array_dims(shape).map_err(|error| {
        ZarrError::malformed(format!(
            "the shape {shape:?} is too large for an array in memory: {error}"
        ))
    })
}

/// Reads at most [`MAX_CHUNK_BYTES`] of the file `name` (a `/`-separated path
/// below `dir`); `None` when it does not exist. Every folder on the way must be a
/// folder and the file a regular file, none of them a symbolic link: a FIFO or a
/// device would block or never end, and a link could lead out of the array.
fn read_bounded(dir: &Path, name: &str) -> Result<Option<Vec<u8>>, ZarrError> {
    let mut path = dir.to_path_buf();
    let mut parts = name.split('/').peekable();
    while let Some(part) = parts.next() {
        path.push(part);
        let last = parts.peek().is_none();
        let kind = match std::fs::symlink_metadata(&path) {
            Ok(metadata) => metadata.file_type(),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(ZarrError::malformed(format!("{}: {error}", path.display())));
            }
        };
        let fits = if last { kind.is_file() } else { kind.is_dir() };
        if !fits {
            let wanted = if last { "a regular file" } else { "a folder" };
            return Err(ZarrError::malformed(format!(
                "{} is not {wanted} (symbolic links, FIFOs and devices are not read)",
                path.display()
            )));
        }
    }
    // The one opener: a regular file, not on /proc or /sys, within the limit.
    let limit = u64::try_from(MAX_CHUNK_BYTES).unwrap_or(u64::MAX);
    crate::input_file::read_bytes(&path, limit)
        .map(Some)
        .map_err(|error| ZarrError::malformed(format!("{}: {error}", path.display())))
}

/// The most distinct chunk shapes an array's chunks may have (a rectilinear grid's
/// distinct edges multiplied over the axes): opening resolves the codec chain once
/// for each, and refuses (`malformed-configuration`) an array with more.
pub const MAX_CHUNK_SHAPES: u64 = 4096;

/// An opened array: its metadata read and its codec chain resolved.
#[derive(Debug, Clone)]
pub struct ZarrArray {
    dir: PathBuf,
    metadata: ArrayMetadata,
    /// The chain resolved for each distinct decoded shape of the array's chunks;
    /// a refused shape is kept only under I-12's other reading, to fail the reads
    /// that touch it.
    chains: BTreeMap<Vec<u64>, Result<Chain, ZarrError>>,
}

impl ZarrArray {
    /// Opens the array in folder `dir`: reads `zarr.json` and resolves the codec
    /// chain for the chunk shape, so that a reshape the chunk shape breaks fails
    /// here. Of a rectilinear grid, the chain is resolved for every distinct shape
    /// of the chunks that hold array elements, and the array does not open when
    /// any is refused (reading I-12): the error names the first such chunk.
    ///
    /// # Errors
    /// See the module documentation.
    pub fn open(dir: &Path) -> Result<Self, ZarrError> {
        Self::open_under(dir, GridReading::default())
    }

    /// [`Self::open`] under the readings `reading` (the reference's by default).
    ///
    /// # Errors
    /// As [`Self::open`].
    pub fn open_under(dir: &Path, reading: GridReading) -> Result<Self, ZarrError> {
        let path = dir.join("zarr.json");
        let bytes = read_bounded(dir, "zarr.json")?
            .ok_or_else(|| ZarrError::malformed(format!("{} does not exist", path.display())))?;
        let json = serde_json::from_slice(&bytes).map_err(|error| {
            ZarrError::malformed(format!("{} is not JSON: {error}", path.display()))
        })?;
        Self::with_metadata_under(dir, ArrayMetadata::from_json(&json)?, reading)
    }

    /// The array in folder `dir` with the given metadata.
    ///
    /// # Errors
    /// As [`Self::open`].
    pub fn with_metadata(dir: &Path, metadata: ArrayMetadata) -> Result<Self, ZarrError> {
        Self::with_metadata_under(dir, metadata, GridReading::default())
    }

    fn with_metadata_under(
        dir: &Path,
        metadata: ArrayMetadata,
        reading: GridReading,
    ) -> Result<Self, ZarrError> {
        let elements = metadata
            .shape
            .iter()
            .try_fold(1u64, |acc, extent| acc.checked_mul(*extent));
        if elements.is_none_or(|count| count > MAX_ELEMENTS) {
            return Err(ZarrError::malformed(format!(
                "an array of {:?} holds more than {MAX_ELEMENTS} elements, this reader's limit",
                metadata.shape
            )));
        }
        // Checked here, so that no read hands ndarray a shape it panics on.
        ndarray_shape(&metadata.shape)?;
        let rectilinear = metadata.chunk_grid.regular().is_none();
        let mut chains = BTreeMap::new();
        let checked = reading.checked_shape(&metadata.chunk_grid, &metadata.shape);
        for (coords, shape) in metadata
            .chunk_grid
            .distinct_chunks(&checked, MAX_CHUNK_SHAPES)?
        {
            if crate::deadline::passed() {
                return Err(ZarrError::malformed(crate::deadline::STOPPED));
            }
            let chain =
                Chain::resolve(&metadata.codecs, &shape, metadata.data_type).map_err(|error| {
                    if rectilinear {
                        ZarrError {
                            message: format!("chunk {coords:?} of {shape:?}: {}", error.message),
                            ..error
                        }
                    } else {
                        error
                    }
                });
            // I-12: the reference refuses to open the array; the other reading
            // keeps the refusal for the reads that touch such a chunk.
            let chain = match chain {
                Err(error) if !reading.fitting_chunks_read || error.is_unsupported() => {
                    return Err(error);
                }
                chain => chain,
            };
            chains.insert(shape, chain);
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            metadata,
            chains,
        })
    }

    /// The array's metadata.
    #[must_use]
    pub fn metadata(&self) -> &ArrayMetadata {
        &self.metadata
    }

    /// Reads the box `[start, stop)` of the array, or the whole array for `None`.
    /// A chunk whose file does not exist reads as the fill value.
    ///
    /// # Errors
    /// `shape-mismatch` for a box of another rank than the array's; `out-of-bounds`
    /// for a box not within the array; otherwise see the module documentation.
    pub fn read(&self, region: Option<(&[u64], &[u64])>) -> Result<TypedArray, ZarrError> {
        let zeros = vec![0; self.metadata.shape.len()];
        let (start, stop) = region.unwrap_or((&zeros, &self.metadata.shape));
        let rank = self.metadata.shape.len();
        if start.len() != rank || stop.len() != rank {
            return Err(ZarrError::new(
                ErrorClass::ShapeMismatch,
                format!("a box from {start:?} to {stop:?} for an array of rank {rank}"),
            ));
        }
        let inside = start
            .iter()
            .zip(stop)
            .zip(&self.metadata.shape)
            .all(|((a, b), n)| a <= b && b <= n);
        if !inside {
            return Err(ZarrError::new(
                ErrorClass::OutOfBounds,
                format!(
                    "the box from {start:?} to {stop:?} is not within the array's shape {:?}",
                    self.metadata.shape
                ),
            ));
        }
        with_element_type!(self.metadata.data_type, T => self.read_box::<T>(start, stop))
    }

    fn read_box<T: Element>(&self, start: &[u64], stop: &[u64]) -> Result<ArrayD<T>, ZarrError> {
        let fill = fill_element::<T>(&self.metadata.fill_value)?;
        let shape = start
            .iter()
            .zip(stop)
            .map(|(a, b)| b.saturating_sub(*a))
            .collect::<Vec<u64>>();
        let shape = ndarray_shape(&shape)?;
        let touched = Touched::over(start, stop, &self.metadata.chunk_grid)?;
        match touched.cost() {
            Some((chunks, elements))
                if chunks <= MAX_CHUNKS_READ && elements <= MAX_ELEMENTS_READ => {}
            _ => {
                return Err(ZarrError::malformed(format!(
                    "the box from {start:?} to {stop:?} touches chunks of {} beyond this \
                     reader's limits: at most {MAX_CHUNKS_READ} chunks holding at most \
                     {MAX_ELEMENTS_READ} elements together",
                    self.metadata
                        .chunk_grid
                        .regular()
                        .map_or_else(|| "the rectilinear grid".into(), |c| format!("{c:?}"))
                )));
            }
        }
        // The box starts as the fill value: a chunk whose file does not exist adds nothing.
        let mut out = ArrayD::from_elem(IxDyn(&shape), fill.clone());
        for piece in touched.pieces() {
            if crate::deadline::passed() {
                return Err(ZarrError::malformed(crate::deadline::STOPPED));
            }
            let piece = piece?;
            let key = chunk_key(&piece.coords, self.metadata.separator);
            // Resolved when the array was opened, for every chunk shape it has: a
            // refused one (I-12's other reading) fails the read, stored or not.
            let chain = match self.chains.get(&piece.shape) {
                Some(Ok(chain)) => chain,
                Some(Err(error)) => return Err(error.clone()),
                None => {
                    return Err(ZarrError::malformed(format!(
                        "no chain for chunks of {:?}",
                        piece.shape
                    )));
                }
            };
            let Some(bytes) = read_bounded(&self.dir, &key)? else {
                continue;
            };
            let chunk = chain
                .decode_part(bytes, &piece.in_chunk, &fill)
                .map_err(|error| {
                    let mut path = self.dir.clone();
                    path.extend(key.split('/'));
                    ZarrError {
                        message: format!("chunk {}: {}", path.display(), error.message),
                        ..error
                    }
                })?;
            copy_box(&mut out, &piece.in_box, &chunk, &piece.in_chunk);
        }
        Ok(out)
    }
}

/// The fill value as an element of type `T`.
fn fill_element<T: Element>(fill_value: &TypedArray) -> Result<T, ZarrError> {
    let bytes = element::with_elements!(fill_value, a => element::to_bytes(a, false));
    T::get(&bytes, false)
        .ok_or_else(|| ZarrError::malformed("the fill value does not fit the data type"))
}

/// Reads the array in folder `dir`, or its box `[start, stop)`.
///
/// # Errors
/// As [`ZarrArray::open`] and [`ZarrArray::read`].
pub fn read_array(dir: &Path, region: Option<(&[u64], &[u64])>) -> Result<TypedArray, ZarrError> {
    ZarrArray::open(dir)?.read(region)
}

/// [`read_array`] under the readings `reading`.
///
/// # Errors
/// As [`read_array`].
pub fn read_array_under(
    dir: &Path,
    region: Option<(&[u64], &[u64])>,
    reading: GridReading,
) -> Result<TypedArray, ZarrError> {
    ZarrArray::open_under(dir, reading)?.read(region)
}
