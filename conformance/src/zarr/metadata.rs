//! `zarr.json` of a Zarr v3 array (core spec, "Array metadata"), for the subset this
//! reader knows: core data types but `r*`, the `regular` and `rectilinear` chunk
//! grids ([`ChunkGrid`]), the `default`
//! chunk key encoding, and the codecs `transpose`, `reshape`, `bytes`, `gzip`,
//! `zstd` and `crc32c` (and `sharding_indexed`, whose shapes `resolve-chain`
//! resolves but which the reader does not read). Another codec is kept as
//! unsupported (the array is not read: no verdict); anything else it does not
//! recognise fails to open, unless marked `"must_understand": false` where the
//! core spec allows that.

use serde_json::Value;

use super::ZarrError;
use super::chunk_grid::ChunkGrid;
use super::codecs::{Codec, codecs_of, extension, only, u64s};
use crate::arrays::{DataType, TypedArray};

/// The members of `zarr.json` this reader understands.
const KNOWN_MEMBERS: [&str; 11] = [
    "zarr_format",
    "node_type",
    "shape",
    "data_type",
    "chunk_grid",
    "chunk_key_encoding",
    "fill_value",
    "codecs",
    "attributes",
    "storage_transformers",
    "dimension_names",
];

/// An array's metadata, as far as reading and writing its chunks needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayMetadata {
    /// The array's shape.
    pub shape: Vec<u64>,
    /// Its data type.
    pub data_type: DataType,
    /// The chunk grid (see [`ArrayMetadata::regular_chunk_shape`] for callers
    /// that handle the regular grid only).
    pub chunk_grid: ChunkGrid,
    /// The default chunk key encoding's separator, `/` or `.`.
    pub separator: char,
    /// The fill value, as a 0-dimensional array of the data type.
    pub fill_value: TypedArray,
    /// The codecs, in order (unknown ones marked `"must_understand": false` dropped,
    /// other codecs this reader does not implement kept as unsupported).
    pub codecs: Vec<Codec>,
}

impl ArrayMetadata {
    /// Reads `zarr.json`'s JSON.
    ///
    /// # Errors
    /// The reshape library's class for a reshape configuration it rejects;
    /// `malformed-configuration` for anything else this reader cannot open.
    pub fn from_json(json: &Value) -> Result<Self, ZarrError> {
        let object = json
            .as_object()
            .ok_or_else(|| ZarrError::malformed("zarr.json must hold a JSON object"))?;
        for (key, value) in object {
            // Core spec, "must_understand": fail to open on a field not recognised
            // unless it says "must_understand": false.
            if !KNOWN_MEMBERS.contains(&key.as_str()) && !optional(value) {
                return Err(ZarrError::malformed(format!(
                    "zarr.json has the member {key:?}, which this reader does not understand"
                )));
            }
        }
        if object.get("zarr_format").and_then(Value::as_u64) != Some(3) {
            return Err(ZarrError::malformed("zarr_format must be 3"));
        }
        if object.get("node_type").and_then(Value::as_str) != Some("array") {
            return Err(ZarrError::malformed("node_type must be \"array\""));
        }
        let shape = u64s(object.get("shape"))
            .ok_or_else(|| ZarrError::malformed("shape must be a list of integers"))?;
        let data_type = object
            .get("data_type")
            .and_then(Value::as_str)
            .and_then(DataType::from_name)
            .ok_or_else(|| {
                ZarrError::malformed(
                    "data_type must name a core data type: bool, int8 .. uint64, float32, float64",
                )
            })?;
        let chunk_grid = ChunkGrid::from_json(
            object
                .get("chunk_grid")
                .ok_or_else(|| ZarrError::malformed("chunk_grid is required"))?,
            &shape,
        )?;
        let separator = chunk_key_encoding(object.get("chunk_key_encoding"))?;
        let fill_value = object
            .get("fill_value")
            .ok_or_else(|| ZarrError::malformed("fill_value is required"))
            .and_then(|fill| {
                TypedArray::from_json(data_type, &[], fill).map_err(|why| {
                    ZarrError::malformed(format!("fill_value is no {}: {why}", data_type.name()))
                })
            })?;
        let codecs = codecs_of(
            object
                .get("codecs")
                .ok_or_else(|| ZarrError::malformed("codecs must be a list"))?,
        )?;
        if object.get("attributes").is_some_and(|a| !a.is_object()) {
            return Err(ZarrError::malformed("attributes must be an object"));
        }
        match object.get("storage_transformers") {
            None => {}
            Some(Value::Array(list)) if list.is_empty() => {}
            Some(_) => {
                return Err(ZarrError::malformed(
                    "storage transformers are not supported",
                ));
            }
        }
        if let Some(names) = object.get("dimension_names") {
            let fits = names.as_array().is_some_and(|names| {
                names.len() == shape.len()
                    && names.iter().all(|name| name.is_string() || name.is_null())
            });
            if !fits {
                return Err(ZarrError::malformed(
                    "dimension_names must hold a string or null per dimension",
                ));
            }
        }
        Ok(Self {
            shape,
            data_type,
            chunk_grid,
            separator,
            fill_value,
            codecs,
        })
    }
}

impl ArrayMetadata {
    /// The regular grid's chunk shape, for callers that handle no other grid.
    ///
    /// # Errors
    /// Unsupported ([`ZarrError::is_unsupported`]) for a rectilinear grid, naming `what`.
    pub fn regular_chunk_shape(&self, what: &str) -> Result<&[u64], ZarrError> {
        self.chunk_grid.regular().ok_or_else(|| {
            ZarrError::unsupported(format!("{what} handles the regular chunk grid only"))
        })
    }
}

/// Whether an unknown member may be ignored: an object with `"must_understand": false`.
fn optional(value: &Value) -> bool {
    value.get("must_understand") == Some(&Value::Bool(false))
}

fn chunk_key_encoding(value: Option<&Value>) -> Result<char, ZarrError> {
    let (name, configuration, _) = extension(
        value.ok_or_else(|| ZarrError::malformed("chunk_key_encoding is required"))?,
        "chunk key encoding",
    )?;
    if name != "default" {
        return Err(ZarrError::malformed(format!(
            "the chunk key encoding {name:?} is not supported; only default"
        )));
    }
    only(&configuration, &["separator"], "default chunk key encoding")?;
    match configuration.get("separator").map(Value::as_str) {
        None | Some(Some("/")) => Ok('/'),
        Some(Some(".")) => Ok('.'),
        Some(_) => Err(ZarrError::malformed("the separator must be \"/\" or \".\"")),
    }
}
