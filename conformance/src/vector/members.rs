//! The typed members of a vector file and of its cases, read with serde through
//! `serde_path_to_error`, so that a fault names its JSON pointer down to the element
//! (`/cases/3/decoded_shape/1`) without a hand-built path at every step.
//!
//! Members kept as JSON (`configuration`, `codec`, `expect`, an array's `data`) are
//! read by their own readers: the codec is sent as written, an expectation checks
//! its error classes against the closed set, and array data is read element by
//! element against its shape without building a `Value` twice.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, Visitor};
use serde_json::{Map, Value};
use serde_path_to_error::Segment;

use super::Fault;
use crate::arrays::DataType;

/// Reads `value` as `T`; a fault is `pointer` followed by the pointer of the
/// faulty part below `value`, and serde's message.
pub(super) fn read<'de, T: Deserialize<'de>>(value: &'de Value, pointer: &str) -> Result<T, Fault> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let below: String = error.path().iter().map(segment).collect();
        (format!("{pointer}{below}"), error.into_inner().to_string())
    })
}

/// The member `name` of a case object, read as `T`; `what` says why it is needed
/// when it is missing. A member read as a struct must be an object: serde would
/// also read a struct from a list, by position.
pub(super) fn member<'de, T: Deserialize<'de>>(
    case: &'de Map<String, Value>,
    name: &str,
    what: &str,
    object: bool,
) -> Result<T, Fault> {
    let pointer = format!("/{name}");
    match case.get(name) {
        None => Err((pointer, format!("is missing: {what}"))),
        Some(value) if object && !value.is_object() => {
            Err((pointer, format!("must be an object: {what}")))
        }
        Some(value) => read(value, &pointer),
    }
}

/// One step of a JSON pointer (RFC 6901: `~` and `/` escaped in names).
fn segment(segment: &Segment) -> String {
    match segment {
        Segment::Seq { index } => format!("/{index}"),
        Segment::Map { key } => format!("/{}", key.replace('~', "~0").replace('/', "~1")),
        Segment::Enum { variant } => format!("/{variant}"),
        Segment::Unknown => String::new(),
    }
}

/// A vector file's members (the other members are ignored, as the format allows).
#[derive(Deserialize)]
pub(super) struct FileMembers {
    pub(super) format: Extent,
    /// Checked to be a list here; each case is read on its own, as written.
    #[serde(rename = "cases")]
    _cases: Vec<IgnoredAny>,
}

/// The members every case has, whatever its operation.
#[derive(Deserialize)]
pub(super) struct CaseMembers {
    pub(super) id: String,
    pub(super) description: String,
    #[serde(default)]
    pub(super) clauses: Vec<String>,
    #[serde(default)]
    pub(super) interpretations: Vec<String>,
    pub(super) level: String,
    pub(super) operation: String,
    pub(super) decoded_shape: Vec<Extent>,
}

/// `input` of `encode` and `decode`; `data` is read against the shape afterwards.
#[derive(Deserialize)]
pub(super) struct InputMembers {
    pub(super) data_type: DataTypeName,
    pub(super) shape: Vec<Extent>,
    /// Checked to be present here.
    #[serde(rename = "data")]
    _data: IgnoredAny,
}

/// `array` of `read-array`.
#[derive(Deserialize)]
pub(super) struct ArrayMembers {
    pub(super) path: String,
    pub(super) data_type: DataTypeName,
}

/// `decoded_region` of `map-region` (coordinates, negative ones expressible so that
/// a case can show them refused) and of `read-array` (array coordinates).
#[derive(Deserialize)]
pub(super) struct Region<T> {
    pub(super) start: Vec<T>,
    pub(super) stop: Vec<T>,
}

/// An integer from 0 to 2^64-1: an extent, a format version, an array coordinate.
#[derive(Debug, Clone, Copy)]
pub(super) struct Extent(pub(super) u64);

/// A 64-bit integer, signed or not: a decoded coordinate.
#[derive(Debug, Clone, Copy)]
pub(super) struct Coordinate(pub(super) i128);

/// A Zarr core data type, by its name.
#[derive(Debug, Clone, Copy)]
pub(super) struct DataTypeName(pub(super) DataType);

/// Unwraps a list of extents.
pub(super) fn extents(list: Vec<Extent>) -> Vec<u64> {
    list.into_iter().map(|Extent(extent)| extent).collect()
}

/// Unwraps a list of coordinates.
pub(super) fn coordinates(list: Vec<Coordinate>) -> Vec<i128> {
    list.into_iter()
        .map(|Coordinate(coordinate)| coordinate)
        .collect()
}

// Hand-written visitors rather than `u64` and `i128`: under serde_json's
// `arbitrary_precision` those read a number's text and say only "invalid number";
// these say what was expected, and refuse integers beyond 64 bits.
struct IntegerVisitor {
    signed: bool,
}

impl<'de> Visitor<'de> for IntegerVisitor {
    type Value = i128;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.signed {
            f.write_str("a 64-bit integer")
        } else {
            f.write_str("an integer from 0 to 2^64-1")
        }
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<i128, E> {
        Ok(i128::from(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<i128, E> {
        if self.signed || value >= 0 {
            Ok(i128::from(value))
        } else {
            Err(E::invalid_value(de::Unexpected::Signed(value), &self))
        }
    }
}

impl<'de> Deserialize<'de> for Extent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = deserializer.deserialize_any(IntegerVisitor { signed: false })?;
        u64::try_from(value)
            .map(Extent)
            .map_err(|_| de::Error::custom("expected an integer from 0 to 2^64-1"))
    }
}

impl<'de> Deserialize<'de> for Coordinate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(IntegerVisitor { signed: true })
            .map(Coordinate)
    }
}

impl<'de> Deserialize<'de> for DataTypeName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        DataType::from_name(&name).map(DataTypeName).ok_or_else(|| {
            let names: Vec<&str> = DataType::ALL.iter().map(|t| t.name()).collect();
            de::Error::custom(format!(
                "unknown data type {name:?}; a Zarr core data type is one of {}",
                names.join(", ")
            ))
        })
    }
}
