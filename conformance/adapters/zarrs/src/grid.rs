//! `resolve-grid`: does a codecs list fit every chunk of an array's chunk grid? The
//! array is built as zarrs opens one (`Array::new_with_metadata` on a `zarr.json`
//! made of the case's `array_shape`, `data_type`, `chunk_grid` and `codecs`, in an
//! empty in-memory store), so zarrs' own open checks run first. zarrs then checks a
//! chunk when it encodes or decodes it: `CodecChain::encoded_representation` of the
//! chunk's shape (`Array::chunk_shape`), the first thing its decode does
//! (`codec_chain.rs:399-415`, `get_representations`). zarrs has no API for the
//! distinct chunk shapes of a grid, so the adapter walks the grid through zarrs'
//! `ChunkGridTraits`, one axis at a time (zarrs' regular and rectilinear grids give
//! each axis its own edges: `rectilinear.rs:262-286`), and checks each distinct
//! shape once, in C order of the first chunk that has it. Only chunks that hold at
//! least one array element are checked (reading I-11): zarrs reads and writes
//! only those (`chunks_in_array_subset`). Bounded: a grid with too many chunks along
//! its axes, or too many distinct shapes, is skipped.

use std::collections::BTreeSet;
use std::num::NonZeroU64;
use std::sync::Arc;

use serde_json::{Value, json};
use zarrs::array::codec::ShardingCodec;
use zarrs::array::codec::api::ArrayToBytesCodecTraits;
use zarrs::array::{Array, ArrayMetadata};
use zarrs::storage::store::MemoryStore;

use crate::answer::{Answer, Step};
use crate::array::{self, Element};
use crate::panics::guard;

/// The most chunk indices the walk along the axes visits (summed over the axes).
const MAX_WALK: u64 = 1 << 22;

/// The most distinct chunk shapes checked (the product of the distinct extents).
const MAX_SHAPES: u64 = 1 << 18;

/// The most run-length entries of a `rectilinear` axis handed to zarrs: it expands
/// `[value, count]` into `count` entries (`rectilinear.rs:115-127`), so `[1, 1e18]`
/// would abort the process on allocation.
const MAX_EXPANDED: u64 = 1 << 20;

fn zarrs_error(error: impl std::fmt::Display) -> Answer {
    Answer::Error(error.to_string())
}

/// Answers a `resolve-grid` case.
pub fn answer(case: &Value) -> Step<Value> {
    let name = case.get("data_type").and_then(Value::as_str);
    let name = name.ok_or_else(|| Answer::Errored("data_type is not a string".into()))?;
    let (element, _) = array::data_type(name)?;
    let shape = array_shape(case.get("array_shape"))?;
    let grid = case
        .get("chunk_grid")
        .ok_or_else(|| Answer::Errored("the case has no chunk_grid".into()))?;
    bound_runs(grid)?;
    let codecs = case
        .get("codecs")
        .ok_or_else(|| Answer::Errored("the case has no codecs".into()))?;
    let metadata = json!({
        "zarr_format": 3, "node_type": "array", "shape": shape, "data_type": name,
        "chunk_grid": grid, "chunk_key_encoding": {"name": "default"},
        "fill_value": fill_value(element), "codecs": codecs,
    });
    // As zarrs reads zarr.json, then opens the array. A refusal there holds for
    // every chunk, so it names the first (the runner asks for no chunk where the
    // grid itself is at fault, and then ignores this one).
    let first = vec![0; shape.len()];
    let metadata: ArrayMetadata = guard(|| serde_json::from_value(metadata))?
        .map_err(|error| at_chunk(zarrs_error(error), &first))?;
    let store = Arc::new(MemoryStore::new());
    let opened = guard(|| Array::new_with_metadata(store, "/", metadata))?
        .map_err(|error| at_chunk(zarrs_error(error), &first))?;
    let axes = axis_edges(&opened, &shape)?;
    check(&opened, element, &axes)
}

/// The array's shape: zarrs takes `u64` extents.
fn array_shape(value: Option<&Value>) -> Step<Vec<u64>> {
    let extents = value.and_then(Value::as_array);
    let extents = extents.ok_or_else(|| Answer::Errored("array_shape is not an array".into()))?;
    extents
        .iter()
        .map(|extent| match extent.as_u64() {
            Some(n) => Ok(n),
            None if extent.is_number() => Err(Answer::Skipped(format!(
                "zarrs takes array extents as u64: {extent} cannot be passed"
            ))),
            None => Err(Answer::Errored(format!("array_shape holds {extent}"))),
        })
        .collect()
}

/// Zero of the data type, as zarr.json writes it.
fn fill_value(element: Element) -> Value {
    match element {
        Element::Bool => json!(false),
        Element::Float32 | Element::Float64 => json!(0.0),
        _ => json!(0),
    }
}

/// Skips a `rectilinear` grid whose run-length entries zarrs would expand into
/// more than [`MAX_EXPANDED`] entries along one axis.
fn bound_runs(grid: &Value) -> Step<()> {
    if grid.get("name").and_then(Value::as_str) != Some("rectilinear") {
        return Ok(());
    }
    let axes = grid
        .get("configuration")
        .and_then(|c| c.get("chunk_shapes"))
        .and_then(Value::as_array);
    for axis in axes.into_iter().flatten() {
        let entries: u64 = axis
            .as_array()
            .into_iter()
            .flatten()
            .map(|entry| match entry.as_array().map(Vec::as_slice) {
                Some([_, count]) => count.as_u64().unwrap_or(1),
                _ => 1,
            })
            .fold(0, u64::saturating_add);
        if entries > MAX_EXPANDED {
            return Err(Answer::Skipped(format!(
                "a rectilinear axis of {entries} chunks: zarrs expands run-length pairs into one \
                 entry per chunk (zarrs-0.23.14/src/array/chunk_grid/rectilinear.rs:115-127), \
                 which beyond {MAX_EXPANDED} would exhaust memory and abort the adapter"
            )));
        }
    }
    Ok(())
}

/// Per axis, the distinct extents of the chunks that hold array elements, each with
/// the index of the first such chunk, in order of first appearance, read from
/// zarrs' grid one chunk at a time (the other coordinates 0).
fn axis_edges(opened: &Array<MemoryStore>, shape: &[u64]) -> Step<Vec<Vec<(NonZeroU64, u64)>>> {
    let grid = opened.chunk_grid();
    let grid_shape = grid.grid_shape().to_vec();
    let walk = grid_shape.iter().fold(0u64, |n, &c| n.saturating_add(c));
    if walk > MAX_WALK {
        return Err(Answer::Skipped(format!(
            "zarrs' grid has {grid_shape:?} chunks; the adapter walks at most {MAX_WALK} \
             chunk indices along the axes (zarrs has no API for a grid's distinct chunk shapes)"
        )));
    }
    let mut axes = vec![Vec::new(); grid_shape.len()];
    if grid_shape.contains(&0) {
        return Ok(axes); // no chunk at all
    }
    for (d, (&count, edges)) in grid_shape.iter().zip(axes.iter_mut()).enumerate() {
        let length = shape.get(d).copied().unwrap_or(0);
        let mut coords = vec![0u64; grid_shape.len()];
        for i in 0..count {
            if let Some(c) = coords.get_mut(d) {
                *c = i;
            }
            let origin = guard(|| grid.chunk_origin(&coords))?.map_err(zarrs_error)?;
            let chunk = guard(|| grid.chunk_shape(&coords))?.map_err(zarrs_error)?;
            let (Some(origin), Some(chunk)) = (origin, chunk) else {
                return Err(Answer::Errored(format!(
                    "zarrs' grid has no chunk {coords:?}"
                )));
            };
            let (Some(&origin), Some(&extent)) = (origin.get(d), chunk.get(d)) else {
                return Err(Answer::Errored(format!(
                    "zarrs' chunk {coords:?} has no axis {d}"
                )));
            };
            // I-11: a chunk wholly beyond the array's end holds no element.
            if origin < length && !edges.iter().any(|&(e, _)| e == extent) {
                edges.push((extent, i));
            }
        }
    }
    Ok(axes)
}

/// Checks each distinct chunk shape with zarrs' chain; collects what each
/// array -> array codec encodes it to.
fn check(
    opened: &Array<MemoryStore>,
    element: Element,
    axes: &[Vec<(NonZeroU64, u64)>],
) -> Step<Value> {
    let chain = opened.codecs();
    let codecs = chain.array_to_array_codecs();
    let mut extents: Vec<Vec<BTreeSet<u64>>> = vec![Vec::new(); codecs.len()];
    let shapes = axes
        .iter()
        .try_fold(1u64, |n, axis| n.checked_mul(axis.len() as u64));
    if shapes.is_none_or(|n| n > MAX_SHAPES) {
        return Err(Answer::Skipped(format!(
            "more than {MAX_SHAPES} distinct chunk shapes to check"
        )));
    }
    let mut first: Option<Vec<u64>> = None;
    if !axes.iter().any(Vec::is_empty) {
        let mut picks = vec![0usize; axes.len()];
        loop {
            let (shape, coords): (Vec<NonZeroU64>, Vec<u64>) = axes
                .iter()
                .zip(&picks)
                .filter_map(|(axis, &p)| axis.get(p).copied())
                .unzip();
            first.get_or_insert_with(|| coords.clone());
            check_one(opened, shape, &mut extents).map_err(|answer| at_chunk(answer, &coords))?;
            if !advance(&mut picks, axes) {
                break;
            }
        }
    }
    let mut output = json!({"encoded_extents": extents});
    if let Some(sharding) = chain
        .array_to_bytes_codec()
        .as_any()
        .downcast_ref::<ShardingCodec>()
    {
        // The inner chunks all have the sharding codec's chunk_shape: the inner chain
        // is resolved once, as resolve-chain does it.
        let (inner_shape, inner_codecs) = crate::chain::inner(sharding)?;
        let data_type = opened.data_type();
        let inner = crate::chain::resolve(&inner_codecs, inner_shape, (element, data_type), 1);
        output["inner"] = match &first {
            Some(chunk) => inner.map_err(|answer| at_chunk(answer, chunk))?,
            None => inner?,
        };
    }
    Ok(output)
}

/// zarrs' check of one chunk shape, before it decodes or encodes such a chunk
/// (`CodecChain::encoded_representation`), then the shape each array -> array
/// codec hands on, added to `extents`.
fn check_one(
    opened: &Array<MemoryStore>,
    shape: Vec<NonZeroU64>,
    extents: &mut [Vec<BTreeSet<u64>>],
) -> Step<()> {
    let chain = opened.codecs();
    guard(|| chain.encoded_representation(&shape, opened.data_type(), opened.fill_value()))?
        .map_err(zarrs_error)?;
    let mut handed = shape;
    for (codec, per_axis) in chain.array_to_array_codecs().iter().zip(extents) {
        handed = guard(|| codec.encoded_shape(&handed))?.map_err(zarrs_error)?;
        if per_axis.len() < handed.len() {
            per_axis.resize(handed.len(), BTreeSet::new());
        }
        for (set, extent) in per_axis.iter_mut().zip(&handed) {
            set.insert(extent.get());
        }
    }
    Ok(())
}

/// zarrs' refusal, with the grid coordinates of the chunk refused.
fn at_chunk(answer: Answer, chunk: &[u64]) -> Answer {
    match answer {
        Answer::Error(message) => Answer::ErrorAt(message, chunk.to_vec()),
        answer => answer,
    }
}

/// The next combination of per-axis picks in C order; false after the last.
fn advance(picks: &mut [usize], axes: &[Vec<(NonZeroU64, u64)>]) -> bool {
    for (pick, axis) in picks.iter_mut().zip(axes).rev() {
        *pick += 1;
        if *pick < axis.len() {
            return true;
        }
        *pick = 0;
    }
    false
}
