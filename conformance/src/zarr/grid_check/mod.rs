//! Whether every chunk of a chunk grid fits a codec chain, answered from the
//! rules' structure instead of by resolving the chain for every chunk: the cost
//! grows with the number of distinct edge lengths per axis, not with the number
//! of chunks (a grid of 10^12 chunks is answered in microseconds).
//!
//! **The model.** The chunk shapes are the product set of the per-axis distinct
//! edges (`ChunkGrid::axis_edges`). An axis with one edge is a constant, an axis
//! with several a variable `x_j`. Walked through the chain, every extent is a
//! monomial `r * prod(x_j for j in S)` with `r` a positive rational and the
//! variable sets of one shape's axes disjoint: `transpose` permutes them; a
//! `reshape` size is a constant, an input-dims group the product of its axes, a
//! -1 `prod(A_shape) / prod(others)`; the sharding index extents are the shard's
//! over the inner chunk's, then 2. Every rule of `resolve_codecs` on a chunk's
//! shape is then one of three, each decided exactly over the product set:
//!
//! - a product without overflow: its largest value, at the largest edges, is at
//!   most `u64::MAX`;
//! - a quotient without remainder (the -1; the inner chunk shape dividing the
//!   shard): `r * X^S` is an integer for every chunk iff, `r = p / q` in lowest
//!   terms, `q` divides the product over `S` of the gcd of each axis's edges (per
//!   prime, the least valuations add up);
//! - an equality (the invariant, input-dims prefix and suffix): two monomials agree
//!   on a product set of at least two values per variable iff they are the same
//!   monomial;
//!
//! and a rule that does not depend on the shape (a rank, `endian`, the codecs'
//! order, the inner chain, whose chunk shape is fixed) answers every chunk alike.
//! The rules are taken in `resolve_codecs`' order: the first that some chunk
//! breaks while every chunk keeps the ones before it gives the refused chunk.
//!
//! **The refused chunk** is chosen axis by axis, each axis the edge of its earliest
//! chunk that still leaves a chunk breaking that rule: the first in C order among
//! the chunks breaking the first rule broken (another chunk, earlier in C order,
//! may break a later rule). Its error is always what `resolve_codecs` answers on
//! its shape, and a chunk `resolve_codecs` accepts is never answered: that, or a
//! fitting answer `resolve_codecs` refuses on the first chunk, is reported as a
//! bug (`malformed-configuration`, "a bug"). A chain that reaches a codec this
//! reader does not implement, with every chunk fitting before it, is answered as
//! `resolve_codecs` answers it, unsupported ([`ZarrError::is_unsupported`]); a
//! refused chunk wins over it.
//!
//! **Outside the model**: an edge of 0 (no grid gives one: such a chunk holds no
//! element). There each distinct chunk shape is resolved, up to [`MAX_ENUMERATED`].
//!
//! **Bounds**: each extent set holds at most [`MAX_EXTENTS`] values, built with at
//! most [`MAX_PRODUCTS`] products per variable, and the answer at most
//! [`MAX_EXTENTS_TOTAL`] values in all; beyond any of these, or beyond
//! [`MAX_ENUMERATED`] shapes, the answer is a `malformed-configuration` error
//! naming the bound, as the reader's other limits are.

mod domain;
mod mono;
mod sets;
mod walk;

use serde_json::{Map, Value};

use super::ZarrError;
use super::codecs::{Codec, codecs_of};
use super::shapes::{ChainShapes, resolve_codecs};
use crate::arrays::DataType;
use domain::Domain;
use walk::Stop;

/// The most distinct extents one axis of one codec's output may take: 65,536.
pub const MAX_EXTENTS: usize = 1 << 16;

/// The most extents in one answer, every codec and axis together: 2^20.
pub const MAX_EXTENTS_TOTAL: usize = 1 << 20;

/// The most products formed in one step of building an extent set (a set times a
/// variable's edges): 2^24.
pub const MAX_PRODUCTS: usize = 1 << 24;

/// The most chunk shapes resolved one by one where the model does not apply: 65,536.
pub const MAX_ENUMERATED: u64 = 1 << 16;

/// The verdict on a whole grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GridVerdict {
    /// Every chunk fits.
    Fits(GridShapes),
    /// A chunk a codec refuses: its grid coordinates and the error
    /// `resolve_codecs` gives on its shape.
    Refused {
        /// The chunk's grid coordinates.
        chunk: Vec<u64>,
        /// The error of the chain on the chunk's shape.
        error: ZarrError,
    },
}

/// What a chain hands on over a whole grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridShapes {
    /// Per array -> array codec in chain order, per axis, the sorted distinct
    /// extents it encodes to; the set of shapes it hands on is their Cartesian
    /// product. Empty for a grid without chunks.
    pub encoded_extents: Vec<Vec<Vec<u64>>>,
    /// When the array -> bytes codec is `sharding_indexed`: its inner chain's
    /// shapes, as `resolve-chain` gives them.
    pub inner: Option<Box<ChainShapes>>,
}

impl GridShapes {
    /// The `resolve-grid` answer: `{"encoded_extents": [...]}`, with `inner` for sharding.
    #[must_use]
    pub fn to_json(&self) -> Map<String, Value> {
        let mut output = Map::new();
        output.insert(
            "encoded_extents".into(),
            Value::from(self.encoded_extents.clone()),
        );
        if let Some(inner) = &self.inner {
            output.insert("inner".into(), Value::Object(inner.to_json()));
        }
        output
    }
}

/// A resource bound of this module.
fn beyond(what: String) -> ZarrError {
    ZarrError::malformed(format!("beyond the grid check's limits: {what}"))
}

/// A structural answer `resolve_codecs` contradicts.
fn bug(what: &str, coords: &[u64]) -> ZarrError {
    ZarrError::malformed(format!(
        "grid_check: {what} on chunk {coords:?} (a bug of the grid check)"
    ))
}

/// Whether every chunk of the grid whose per-axis distinct edges are `axes` (each
/// `(edge, index of the first chunk with it)`, as `ChunkGrid::axis_edges` gives
/// them) fits `codecs`, for elements of `data_type`. A grid without chunks (an
/// axis without edges) fits, with no extents.
///
/// # Errors
/// A codec this reader does not implement, reached by every chunk; a bound of
/// this module ([`MAX_EXTENTS`], [`MAX_EXTENTS_TOTAL`], [`MAX_PRODUCTS`],
/// [`MAX_ENUMERATED`]); the case's
/// deadline.
pub fn check_grid(
    codecs: &[Codec],
    axes: &[Vec<(u64, u64)>],
    data_type: DataType,
) -> Result<GridVerdict, ZarrError> {
    let Some(domain) = Domain::new(axes) else {
        return Ok(no_chunks());
    };
    if !domain.positive() {
        return sets::enumerated(codecs, &domain, data_type);
    }
    let base = domain.base();
    let walked = walk::walk(codecs, domain.shape(), data_type, &domain);
    let chunk = |point: &[usize]| {
        domain
            .chunk(point)
            .ok_or_else(|| bug("a point outside the grid", &[]))
    };
    match walked {
        Ok((steps, inner)) => {
            let (shape, coords) = chunk(&base)?;
            let resolved = resolve_codecs(codecs, &shape, data_type)
                .map_err(|_| bug("a fitting answer refused by resolve_codecs", &coords))?;
            let at_base: Option<Vec<Vec<u64>>> = steps
                .iter()
                .map(|step| {
                    step.iter()
                        .map(|mono| mono.at(|v| domain.value(&base, v)))
                        .collect()
                })
                .collect();
            if at_base.as_ref() != Some(&resolved.encoded_shapes)
                || inner.as_ref() != resolved.inner.as_deref()
            {
                return Err(bug("shapes other than resolve_codecs'", &coords));
            }
            let encoded_extents = sets::all_values(&steps, &domain)?;
            Ok(GridVerdict::Fits(GridShapes {
                encoded_extents,
                inner: inner.map(Box::new),
            }))
        }
        Err(Stop::Broken(point)) => {
            let (shape, coords) = chunk(&point)?;
            match resolve_codecs(codecs, &shape, data_type) {
                Err(error) if !error.is_unsupported() => Ok(GridVerdict::Refused {
                    chunk: coords,
                    error,
                }),
                _ => Err(bug("a refused chunk that resolve_codecs accepts", &coords)),
            }
        }
        Err(Stop::Unsupported) => {
            let (shape, coords) = chunk(&base)?;
            match resolve_codecs(codecs, &shape, data_type) {
                Err(error) if error.is_unsupported() => Err(error),
                _ => Err(bug(
                    "an unsupported codec resolve_codecs does not stop at",
                    &coords,
                )),
            }
        }
        Err(Stop::Gap) => sets::enumerated(codecs, &domain, data_type),
    }
}

/// [`check_grid`] for a `codecs` list as in `zarr.json`. A list this reader cannot
/// read refuses every chunk: the first is answered (a grid without chunks fits).
///
/// # Errors
/// As [`check_grid`].
pub fn check_grid_json(
    codecs: &Value,
    axes: &[Vec<(u64, u64)>],
    data_type: DataType,
) -> Result<GridVerdict, ZarrError> {
    match codecs_of(codecs) {
        Ok(codecs) => check_grid(&codecs, axes, data_type),
        Err(error) => {
            let Some(domain) = Domain::new(axes) else {
                return Ok(no_chunks());
            };
            let (_, chunk) = domain
                .chunk(&domain.base())
                .ok_or_else(|| bug("a point outside the grid", &[]))?;
            Ok(GridVerdict::Refused { chunk, error })
        }
    }
}

/// One chunk shape resolved through `codecs` (`resolve_codecs`): the per-chunk
/// answer that [`check_grid`] agrees with, for comparisons and benchmarks.
///
/// # Errors
/// As `resolve-chain`.
pub fn resolve_chunk(
    codecs: &[Codec],
    chunk_shape: &[u64],
    data_type: DataType,
) -> Result<ChainShapes, ZarrError> {
    resolve_codecs(codecs, chunk_shape, data_type)
}

/// The answer for a grid without chunks: nothing is handed to any codec.
fn no_chunks() -> GridVerdict {
    GridVerdict::Fits(GridShapes {
        encoded_extents: Vec::new(),
        inner: None,
    })
}

#[cfg(test)]
mod tests;
