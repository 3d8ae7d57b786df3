//! Arrays in answers and expectations, compared as the runner compares them: read
//! as elements of the case's data type (floats bit for bit, so NaN equals NaN and
//! -0 differs from 0), with the runner's bounds on what an array may hold.

use crate::json::Json;

/// The largest rank read (the library's `MAX_RANK`).
const MAX_RANK: usize = 256;
/// The most elements read (the runner's `MAX_ELEMENTS`).
const MAX_ELEMENTS: u64 = 1 << 24;
/// The largest extent and product of non-zero extents (`isize::MAX`, ndarray's bound,
/// which the runner's arrays keep).
const MAX_SPAN: u64 = i64::MAX.unsigned_abs();

/// A Zarr v3 core data type, as vectors name them (`data_type` of an `input` or
/// an `array`): the one list of data types of the project, which the runner uses too.
///
/// ```
/// use zarr_reshape_harness::DataType;
/// assert_eq!(DataType::from_name("uint16"), Some(DataType::UInt16));
/// assert_eq!(DataType::Float32.name(), "float32");
/// assert_eq!(DataType::from_name("UInt16"), None);
/// assert_eq!(DataType::ALL.len(), 11);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataType {
    /// `bool`
    Bool,
    /// `int8`
    Int8,
    /// `int16`
    Int16,
    /// `int32`
    Int32,
    /// `int64`
    Int64,
    /// `uint8`
    UInt8,
    /// `uint16`
    UInt16,
    /// `uint32`
    UInt32,
    /// `uint64`
    UInt64,
    /// `float32`
    Float32,
    /// `float64`
    Float64,
}

impl DataType {
    /// Every data type vectors may use.
    pub const ALL: &'static [DataType] = &[
        Self::Bool,
        Self::Int8,
        Self::Int16,
        Self::Int32,
        Self::Int64,
        Self::UInt8,
        Self::UInt16,
        Self::UInt32,
        Self::UInt64,
        Self::Float32,
        Self::Float64,
    ];

    /// The Zarr name, e.g. `uint16`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Bool => "bool",
            Self::Int8 => "int8",
            Self::Int16 => "int16",
            Self::Int32 => "int32",
            Self::Int64 => "int64",
            Self::UInt8 => "uint8",
            Self::UInt16 => "uint16",
            Self::UInt32 => "uint32",
            Self::UInt64 => "uint64",
            Self::Float32 => "float32",
            Self::Float64 => "float64",
        }
    }

    /// The data type with this Zarr name, exactly as written.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|data_type| data_type.name() == name)
    }

    /// One element of this type, or `None` when `value` is not one.
    fn element(self, value: &Json) -> Option<Element> {
        let integer = |fits: fn(i128) -> bool| {
            let value = value
                .as_u64()
                .map(i128::from)
                .or_else(|| value.as_i64().map(i128::from))?;
            fits(value).then_some(Element::Integer(value))
        };
        match self {
            Self::Bool => match value {
                Json::Bool(value) => Some(Element::Bool(*value)),
                _ => None,
            },
            Self::Int8 => integer(|v| i8::try_from(v).is_ok()),
            Self::Int16 => integer(|v| i16::try_from(v).is_ok()),
            Self::Int32 => integer(|v| i32::try_from(v).is_ok()),
            Self::Int64 => integer(|v| i64::try_from(v).is_ok()),
            Self::UInt8 => integer(|v| u8::try_from(v).is_ok()),
            Self::UInt16 => integer(|v| u16::try_from(v).is_ok()),
            Self::UInt32 => integer(|v| u32::try_from(v).is_ok()),
            Self::UInt64 => integer(|v| u64::try_from(v).is_ok()),
            Self::Float32 => float_bits(value, 8)
                .or_else(|| float::<f32>(value).map(|v| u64::from(v.to_bits())))
                .map(Element::Float),
            Self::Float64 => float_bits(value, 16)
                .or_else(|| float::<f64>(value).map(f64::to_bits))
                .map(Element::Float),
        }
    }
}

/// An element, compared exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Element {
    Bool(bool),
    Integer(i128),
    /// A float's bits.
    Float(u64),
}

/// An array of one data type: its shape and elements in C order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TypedArray {
    shape: Vec<u64>,
    elements: Vec<Element>,
}

impl TypedArray {
    /// Reads `data`, nested lists of `shape`, as elements of `data_type`; `None`
    /// when the shape is missing or beyond the bounds, or the data does not fit it.
    pub(crate) fn read(data_type: DataType, shape: Option<&Json>, data: &Json) -> Option<Self> {
        let shape: Vec<u64> = shape?
            .as_array()?
            .iter()
            .map(Json::as_u64)
            .collect::<Option<_>>()?;
        element_count(&shape)?;
        // No room made up front: a declared shape is not evidence of data.
        let mut elements = Vec::new();
        read_leaves(data_type, data, &shape, &mut elements)?;
        Some(Self { shape, elements })
    }
}

/// The number of elements of `shape`, when the runner would read such an array.
fn element_count(shape: &[u64]) -> Option<u64> {
    if shape.len() > MAX_RANK {
        return None;
    }
    let mut span: u64 = 1;
    for extent in shape.iter().copied().filter(|extent| *extent != 0) {
        span = span.checked_mul(extent).filter(|span| *span <= MAX_SPAN)?;
    }
    if shape.iter().any(|extent| *extent > MAX_SPAN) {
        return None;
    }
    let count = if shape.contains(&0) { 0 } else { span };
    (count <= MAX_ELEMENTS).then_some(count)
}

/// Appends the leaves of `data` (lists nested as `shape` says) in C order.
fn read_leaves(
    data_type: DataType,
    data: &Json,
    shape: &[u64],
    elements: &mut Vec<Element>,
) -> Option<()> {
    let Some((extent, inner)) = shape.split_first() else {
        elements.push(data_type.element(data)?);
        return Some(());
    };
    let items = data.as_array()?;
    if u64::try_from(items.len()).ok()? != *extent {
        return None;
    }
    items
        .iter()
        .try_for_each(|item| read_leaves(data_type, item, inner, elements))
}

/// A float element written as its IEEE 754 bits, `"0x"` and exactly `digits` hex
/// digits (spec-cases/README.md): the one spelling that keeps a NaN's payload.
fn float_bits(value: &Json, digits: usize) -> Option<u64> {
    let Json::String(text) = value else {
        return None;
    };
    let hex = text.strip_prefix("0x")?;
    (hex.len() == digits && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// A float element: a JSON number read from its text, rounded once, or "NaN",
/// "Infinity", "-Infinity" as Zarr writes them.
fn float<T: std::str::FromStr>(value: &Json) -> Option<T> {
    match value {
        Json::Number(text) => text.parse().ok(),
        Json::String(text) => match text.as_str() {
            "NaN" => "NaN".parse().ok(),
            "Infinity" => "inf".parse().ok(),
            "-Infinity" => "-inf".parse().ok(),
            _ => None,
        },
        _ => None,
    }
}
