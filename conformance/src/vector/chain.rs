//! The `resolve-chain` operation: a whole `codecs` list (in place of a
//! `configuration` or `codec`), the array's `data_type`, and optionally the array
//! context (`array_shape` and `chunk_grid`, as in `zarr.json`).

use serde_json::{Map, Value};

use super::members::{self, DataTypeName, Extent, member};
use super::{CodecJson, Fault, Operation, fault};

/// The codec member of a case: `configuration` or `codec`, or for `resolve-chain`
/// (and only there) `codecs`.
pub(super) fn codec(case: &Map<String, Value>, operation: &str) -> Result<CodecJson, Fault> {
    let chain = matches!(operation, "resolve-chain" | "resolve-grid");
    match (
        case.get("configuration"),
        case.get("codec"),
        case.get("codecs"),
    ) {
        (Some(configuration), None, None) if !chain => {
            Ok(CodecJson::Configuration(configuration.clone()))
        }
        (None, Some(codec), None) if !chain => Ok(CodecJson::Codec(codec.clone())),
        (None, None, Some(codecs)) if chain => Ok(CodecJson::Chain(codecs.clone())),
        (None, None, None) if chain => Err(fault(
            "/codecs",
            "is missing: resolve-chain needs the codec chain",
        )),
        _ if chain => Err(fault(
            "",
            "resolve-chain takes codecs, not configuration or codec",
        )),
        (_, _, Some(_)) => Err(fault(
            "/codecs",
            "only resolve-chain and resolve-grid take codecs",
        )),
        _ => Err(fault("", "needs exactly one of configuration and codec")),
    }
}

/// The operation, with its `data_type` and its array context.
pub(super) fn operation(
    case: &Map<String, Value>,
    decoded_shape: &[u64],
) -> Result<Operation, Fault> {
    let data_type: DataTypeName = member(
        case,
        "data_type",
        "resolve-chain needs the array's data type",
        false,
    )?;
    Ok(Operation::ResolveChain {
        data_type: data_type.0,
        array_shape: context(case, decoded_shape)?,
    })
}

/// `resolve-grid`: its `data_type`, `array_shape` and `chunk_grid` (an object,
/// read by the implementation: a grid it refuses is its answer). `decoded_shape`
/// is the first chunk's, for information: it must have the array's rank.
pub(super) fn grid_operation(
    case: &Map<String, Value>,
    decoded_shape: &[u64],
) -> Result<Operation, Fault> {
    let data_type: DataTypeName = member(
        case,
        "data_type",
        "resolve-grid needs the array's data type",
        false,
    )?;
    let shape = case.get("array_shape").ok_or(fault(
        "/array_shape",
        "is missing: resolve-grid needs the array's shape",
    ))?;
    let array_shape = array_shape(shape, decoded_shape)?;
    let chunk_grid = case
        .get("chunk_grid")
        .filter(|grid| grid.is_object())
        .ok_or(fault(
            "/chunk_grid",
            "must be an object, the chunk grid as in zarr.json",
        ))?
        .clone();
    Ok(Operation::ResolveGrid {
        data_type: data_type.0,
        array_shape,
        chunk_grid,
    })
}

/// `array_shape`: of `decoded_shape`'s rank (the chunks' rank), every extent
/// positive (an array without elements has no chunk to resolve the chain for).
fn array_shape(shape: &Value, decoded_shape: &[u64]) -> Result<Vec<u64>, Fault> {
    let shape = members::extents(members::read::<Vec<Extent>>(shape, "/array_shape")?);
    if shape.len() != decoded_shape.len() {
        return Err(fault(
            "/array_shape",
            &format!(
                "must have decoded_shape's rank {}: the array's chunks have it",
                decoded_shape.len()
            ),
        ));
    }
    if let Some(axis) = shape.iter().position(|&extent| extent == 0) {
        return Err(fault(
            &format!("/array_shape/{axis}"),
            "must be positive: an array without elements has no chunk to resolve the chain for",
        ));
    }
    Ok(shape)
}

/// The array's shape of a case's array context, or `None` without one. The context
/// is `array_shape` and `chunk_grid` together; the grid must be the regular grid of
/// chunks of `decoded_shape` (the chunks the case's chain is resolved for), and the
/// array must hold at least one element (an array without elements has no chunk).
fn context(case: &Map<String, Value>, decoded_shape: &[u64]) -> Result<Option<Vec<u64>>, Fault> {
    let together = "array_shape and chunk_grid come together (the array context)";
    let (shape, grid) = match (case.get("array_shape"), case.get("chunk_grid")) {
        (None, None) => return Ok(None),
        (Some(_), None) => return Err(fault("/chunk_grid", &format!("is missing: {together}"))),
        (None, Some(_)) => return Err(fault("/array_shape", &format!("is missing: {together}"))),
        (Some(shape), Some(grid)) => (shape, grid),
    };
    let shape = array_shape(shape, decoded_shape)?;
    let name = grid.get("name").and_then(Value::as_str);
    let configuration = grid.get("configuration").filter(|c| c.is_object());
    let chunk_shape = match (grid.is_object(), name, configuration) {
        (false, _, _) => return Err(fault("/chunk_grid", "must be an object, as in zarr.json")),
        (true, Some("regular"), Some(configuration)) => configuration.get("chunk_shape"),
        (true, Some("regular"), None) => {
            return Err(fault(
                "/chunk_grid/configuration",
                "must be an object holding chunk_shape",
            ));
        }
        (true, _, _) => {
            return Err(fault(
                "/chunk_grid/name",
                "must be \"regular\": resolve-chain resolves the chain for chunks of one shape, \
                 decoded_shape (a rectilinear grid is resolve-grid's)",
            ));
        }
    };
    let pointer = "/chunk_grid/configuration/chunk_shape";
    let chunk_shape = chunk_shape.ok_or(fault(pointer, "is missing"))?;
    let chunk_shape = members::extents(members::read::<Vec<Extent>>(chunk_shape, pointer)?);
    if chunk_shape != decoded_shape {
        return Err(fault(
            pointer,
            &format!(
                "must equal decoded_shape {decoded_shape:?}: the case resolves the chain for its chunks"
            ),
        ));
    }
    Ok(Some(shape))
}
