//! Reading a `rectilinear` chunk grid's configuration (zarr-extensions,
//! `chunk-grids/rectilinear`): the checks listed in the parent module.

use serde_json::{Map, Value};

use super::{Axis, ChunkGrid, MAX_AXIS_ITEMS};
use crate::zarr::ZarrError;
use crate::zarr::codecs::only;

/// The most items (edges and runs) a rectilinear grid may list over all its axes:
/// 2^18, four axes at the per-axis limit.
pub(crate) const MAX_GRID_ITEMS: usize = 1 << 18;

/// A rectilinear grid's configuration, for an array of `array_shape`.
pub(super) fn rectilinear(
    configuration: &Map<String, Value>,
    array_shape: &[u64],
) -> Result<ChunkGrid, ZarrError> {
    only(
        configuration,
        &["kind", "chunk_shapes"],
        "rectilinear chunk grid",
    )?;
    match configuration.get("kind") {
        Some(Value::String(kind)) if kind == "inline" => {}
        Some(other) => {
            return Err(ZarrError::malformed(format!(
                "the rectilinear chunk grid's kind is {other}; only \"inline\" is supported"
            )));
        }
        None => {
            return Err(ZarrError::malformed(
                "the rectilinear chunk grid needs kind \"inline\"",
            ));
        }
    }
    let entries = configuration
        .get("chunk_shapes")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            ZarrError::malformed("the rectilinear chunk grid's chunk_shapes must be a list")
        })?;
    if entries.len() != array_shape.len() {
        return Err(ZarrError::malformed(format!(
            "the rectilinear chunk grid's chunk_shapes has {} entries for an array of rank {}",
            entries.len(),
            array_shape.len()
        )));
    }
    // Per axis and over all axes: a zarr.json of rank 256 could otherwise hold
    // 256 axes of MAX_AXIS_ITEMS runs each, gigabytes once built.
    let items: usize = entries
        .iter()
        .map(|entry| entry.as_array().map_or(1, Vec::len))
        .fold(0, usize::saturating_add);
    if items > MAX_GRID_ITEMS {
        return Err(ZarrError::malformed(format!(
            "the rectilinear chunk grid lists {items} items over its axes, beyond this reader's limit of {MAX_GRID_ITEMS}"
        )));
    }
    let axes = entries
        .iter()
        .zip(array_shape)
        .enumerate()
        .map(|(axis, (entry, length))| rectilinear_axis(entry, *length, axis))
        .collect::<Result<_, _>>()?;
    Ok(ChunkGrid::Rectilinear { axes })
}

/// A positive JSON integer that fits in `u64`, exactly (no float, no sign).
fn positive(value: &Value) -> Option<u64> {
    value.as_u64().filter(|n| *n > 0)
}

/// One entry of `chunk_shapes`, for axis `axis` of length `length`.
fn rectilinear_axis(entry: &Value, length: u64, axis: usize) -> Result<Axis, ZarrError> {
    let at = |what: String| {
        ZarrError::malformed(format!(
            "the rectilinear chunk grid's chunk_shapes[{axis}]{what}"
        ))
    };
    let built = if let Some(step) = positive(entry) {
        // Repeated until the edges reach the axis length: ceil(length / step) chunks.
        Axis::from_runs(Some(step), &[(step, length.div_ceil(step))], axis)?
    } else if let Some(items) = entry.as_array() {
        if items.len() > MAX_AXIS_ITEMS {
            return Err(at(format!(
                " lists {} items, beyond this reader's limit of {MAX_AXIS_ITEMS}",
                items.len()
            )));
        }
        let pairs = items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::Array(pair) => match pair.as_slice() {
                    [value, count] => positive(value).zip(positive(count)),
                    _ => None,
                }
                .ok_or_else(|| {
                    at(format!(
                        "[{i}] is {item}: a run must be [edge, count], two positive integers"
                    ))
                }),
                _ => positive(item).map(|edge| (edge, 1)).ok_or_else(|| {
                    at(format!(
                        "[{i}] is {item}: an edge must be a positive integer"
                    ))
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Axis::from_runs(None, &pairs, axis)?
    } else {
        return Err(at(format!(
            " is {entry}: it must be a positive integer or a list of edges and [edge, count] runs"
        )));
    };
    if built.length() < length {
        return Err(at(format!(
            " declares edges summing to {}, short of the axis length {length}",
            built.length()
        )));
    }
    Ok(built)
}
