//! Arrays in vectors: a Zarr data type name, a shape, and nested JSON lists in C
//! order, read into typed ndarray arrays and written back.
//!
//! The harness crate reads arrays too (`harness/src/typed.rs`), for judging only,
//! and both share its [`DataType`]. Its arrays stay separate on purpose: these are
//! ndarray arrays that the reference encodes, decodes and writes to Zarr stores;
//! the harness compares flat element lists read from number text, so that an
//! adopter's build gets neither ndarray nor serde_json's `arbitrary_precision`
//! (which this crate turns on, and which would change how every crate of that
//! build reads numbers).

use std::fmt::Write as _;

use ndarray::{ArrayD, Dimension, IxDyn};
use serde_json::Value;
use zarr_reshape::limits::{MAX_RANK, array_dims};

/// The most elements an array in a vector (or in an adapter's answer) may hold;
/// vectors are for reading. A larger array is refused before any room is made for it.
pub const MAX_ELEMENTS: u64 = 1 << 24;

/// The data types: the harness's list, the one list of the project.
pub use zarr_reshape_harness::DataType;

/// An array of one of the data types, elements compared bit for bit.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)]
pub enum TypedArray {
    Bool(ArrayD<bool>),
    Int8(ArrayD<i8>),
    Int16(ArrayD<i16>),
    Int32(ArrayD<i32>),
    Int64(ArrayD<i64>),
    UInt8(ArrayD<u8>),
    UInt16(ArrayD<u16>),
    UInt32(ArrayD<u32>),
    UInt64(ArrayD<u64>),
    /// Floats are held as bits so that NaN equals NaN and -0 differs from 0.
    Float32(ArrayD<u32>),
    /// As `Float32`.
    Float64(ArrayD<u64>),
}

/// Applies a generic expression to the ndarray inside a [`TypedArray`], rewrapping
/// the result. Crate-private: `use crate::arrays::map_typed`.
macro_rules! map_typed {
    ($array:expr, |$inner:ident| $body:expr) => {{
        use $crate::arrays::TypedArray as T;
        match $array {
            T::Bool($inner) => $body.map(T::Bool),
            T::Int8($inner) => $body.map(T::Int8),
            T::Int16($inner) => $body.map(T::Int16),
            T::Int32($inner) => $body.map(T::Int32),
            T::Int64($inner) => $body.map(T::Int64),
            T::UInt8($inner) => $body.map(T::UInt8),
            T::UInt16($inner) => $body.map(T::UInt16),
            T::UInt32($inner) => $body.map(T::UInt32),
            T::UInt64($inner) => $body.map(T::UInt64),
            T::Float32($inner) => $body.map(T::Float32),
            T::Float64($inner) => $body.map(T::Float64),
        }
    }};
}
pub(crate) use map_typed;

impl TypedArray {
    /// Reads `data` (nested lists of `shape`) as elements of `data_type`.
    ///
    /// The shape is checked first (`check_shape`), then the nesting and every
    /// list's length against it, and only then is room made for the elements: a
    /// large declared shape with short data reserves nothing. No allocation is made
    /// per element; the place of a wrong element is spelled out only when one is found.
    ///
    /// # Errors
    /// A message naming the place where the nesting, a length or an element is wrong.
    pub fn from_json(data_type: DataType, shape: &[u64], data: &Value) -> Result<Self, String> {
        let (dims, count) = check_shape(shape)?;
        check_nesting(data, shape, &mut Vec::new())?;
        let dims = IxDyn(&dims);
        let name = data_type.name();
        Ok(match data_type {
            DataType::Bool => Self::Bool(typed(dims, count, data, Value::as_bool, name)?),
            DataType::Int8 => Self::Int8(typed(dims, count, data, integer, name)?),
            DataType::Int16 => Self::Int16(typed(dims, count, data, integer, name)?),
            DataType::Int32 => Self::Int32(typed(dims, count, data, integer, name)?),
            DataType::Int64 => Self::Int64(typed(dims, count, data, integer, name)?),
            DataType::UInt8 => Self::UInt8(typed(dims, count, data, integer, name)?),
            DataType::UInt16 => Self::UInt16(typed(dims, count, data, integer, name)?),
            DataType::UInt32 => Self::UInt32(typed(dims, count, data, integer, name)?),
            DataType::UInt64 => Self::UInt64(typed(dims, count, data, integer, name)?),
            DataType::Float32 => Self::Float32(typed(
                dims,
                count,
                data,
                |v| {
                    float_bits(v, 8, u32::from_str_radix)
                        .or_else(|| float::<f32>(v).map(f32::to_bits))
                },
                name,
            )?),
            DataType::Float64 => Self::Float64(typed(
                dims,
                count,
                data,
                |v| {
                    float_bits(v, 16, u64::from_str_radix)
                        .or_else(|| float::<f64>(v).map(f64::to_bits))
                },
                name,
            )?),
        })
    }

    /// The array's data type.
    #[must_use]
    pub fn data_type(&self) -> DataType {
        match self {
            Self::Bool(_) => DataType::Bool,
            Self::Int8(_) => DataType::Int8,
            Self::Int16(_) => DataType::Int16,
            Self::Int32(_) => DataType::Int32,
            Self::Int64(_) => DataType::Int64,
            Self::UInt8(_) => DataType::UInt8,
            Self::UInt16(_) => DataType::UInt16,
            Self::UInt32(_) => DataType::UInt32,
            Self::UInt64(_) => DataType::UInt64,
            Self::Float32(_) => DataType::Float32,
            Self::Float64(_) => DataType::Float64,
        }
    }

    /// The array's shape.
    #[must_use]
    pub fn shape(&self) -> Vec<u64> {
        let shape = match self {
            Self::Bool(a) => a.shape(),
            Self::Int8(a) => a.shape(),
            Self::Int16(a) => a.shape(),
            Self::Int32(a) => a.shape(),
            Self::Int64(a) => a.shape(),
            Self::UInt8(a) => a.shape(),
            Self::UInt16(a) => a.shape(),
            Self::UInt32(a) => a.shape(),
            Self::UInt64(a) => a.shape(),
            Self::Float32(a) => a.shape(),
            Self::Float64(a) => a.shape(),
        };
        shape
            .iter()
            .map(|extent| u64::try_from(*extent).unwrap_or(u64::MAX))
            .collect()
    }

    /// The elements as nested JSON lists in C order (a bare value for rank 0).
    #[must_use]
    pub fn to_json(&self) -> Value {
        fn nest<T: Clone>(array: &ArrayD<T>, leaf: impl Fn(T) -> Value) -> Value {
            let mut leaves = array.iter().cloned().map(leaf);
            build(array.shape(), &mut leaves)
        }
        match self {
            Self::Bool(a) => nest(a, Value::from),
            Self::Int8(a) => nest(a, Value::from),
            Self::Int16(a) => nest(a, Value::from),
            Self::Int32(a) => nest(a, Value::from),
            Self::Int64(a) => nest(a, Value::from),
            Self::UInt8(a) => nest(a, Value::from),
            Self::UInt16(a) => nest(a, Value::from),
            Self::UInt32(a) => nest(a, Value::from),
            Self::UInt64(a) => nest(a, Value::from),
            Self::Float32(a) => nest(a, |bits| {
                let value = f32::from_bits(bits);
                if value.is_nan() && bits != f32::NAN.to_bits() {
                    Value::from(format!("0x{bits:08x}"))
                } else {
                    float_json(value.to_string())
                }
            }),
            Self::Float64(a) => nest(a, |bits| {
                let value = f64::from_bits(bits);
                if value.is_nan() && bits != f64::NAN.to_bits() {
                    Value::from(format!("0x{bits:016x}"))
                } else {
                    float_json(value.to_string())
                }
            }),
        }
    }
}

/// The dimensions of an array of `shape` and its element count, when ndarray can
/// hold it and a vector may: the rank at most [`zarr_reshape::limits::MAX_RANK`],
/// at most [`MAX_ELEMENTS`] elements, and every extent and the product of the
/// non-zero extents at most [`zarr_reshape::limits::MAX_ARRAY_SPAN`] (so `[0, 2^64 - 1]`, which holds no
/// element, is refused here rather than panicking inside ndarray).
///
/// # Errors
/// A message saying which limit `shape` passes.
pub fn check_shape(shape: &[u64]) -> Result<(Vec<usize>, usize), String> {
    if shape.len() > MAX_RANK {
        return Err(format!(
            "a shape of rank {} is beyond the limit of {MAX_RANK} dimensions",
            shape.len()
        ));
    }
    let dims = array_dims(shape)
        .map_err(|error| format!("shape {shape:?} is beyond what an array can hold: {error}"))?;
    let count = dims
        .iter()
        .try_fold(1usize, |count, dim| count.checked_mul(*dim))
        .unwrap_or(usize::MAX);
    if u64::try_from(count)
        .ok()
        .is_none_or(|count| count > MAX_ELEMENTS)
    {
        return Err(format!(
            "shape {shape:?} holds more than {MAX_ELEMENTS} elements"
        ));
    }
    Ok((dims, count))
}

/// `data[i][j]...`, the place of the item at `path`.
fn place(path: &[usize]) -> String {
    let indices: String = path.iter().map(|i| format!("[{i}]")).collect();
    format!("data{indices}")
}

/// Checks that `data` nests as `shape` says, every list of the right length, before
/// anything is allocated for its elements; `path` is the place of `data`.
fn check_nesting(data: &Value, shape: &[u64], path: &mut Vec<usize>) -> Result<(), String> {
    let Some((extent, inner)) = shape.split_first() else {
        return Ok(());
    };
    let items = data
        .as_array()
        .ok_or_else(|| format!("{} must be a list of {extent} items", place(path)))?;
    if u64::try_from(items.len()).ok() != Some(*extent) {
        return Err(format!(
            "{} has {} items, the shape says {extent}",
            place(path),
            items.len()
        ));
    }
    if inner.is_empty() {
        return Ok(());
    }
    for (i, item) in items.iter().enumerate() {
        path.push(i);
        check_nesting(item, inner, path)?;
        path.pop();
    }
    Ok(())
}

/// Reads the `count` leaves of `data` (already checked by [`check_nesting`]) in C
/// order into an array of `dims`.
fn typed<T>(
    dims: IxDyn,
    count: usize,
    data: &Value,
    read: impl Fn(&Value) -> Option<T>,
    name: &str,
) -> Result<ArrayD<T>, String> {
    let mut elements = Vec::with_capacity(count);
    let mut path = Vec::with_capacity(dims.ndim());
    read_leaves(data, dims.ndim(), &mut path, &mut |path, value| {
        let element =
            read(value).ok_or_else(|| format!("{}: {value} is not a {name}", place(path)))?;
        elements.push(element);
        Ok(())
    })?;
    ArrayD::from_shape_vec(dims, elements).map_err(|error| error.to_string())
}

/// Visits the leaves of `data`, `depth` lists deep, in C order.
fn read_leaves(
    data: &Value,
    depth: usize,
    path: &mut Vec<usize>,
    visit: &mut impl FnMut(&[usize], &Value) -> Result<(), String>,
) -> Result<(), String> {
    let Some(inner) = depth.checked_sub(1) else {
        return visit(path, data);
    };
    for (i, item) in data
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        path.push(i);
        read_leaves(item, inner, path, visit)?;
        path.pop();
    }
    Ok(())
}

fn build(shape: &[usize], leaves: &mut impl Iterator<Item = Value>) -> Value {
    match shape.split_first() {
        None => leaves.next().unwrap_or(Value::Null),
        Some((extent, inner)) => Value::Array((0..*extent).map(|_| build(inner, leaves)).collect()),
    }
}

/// An integer element, read exactly (no floats, no wrap, no allocation).
fn integer<T: TryFrom<u64> + TryFrom<i64>>(value: &Value) -> Option<T> {
    let Value::Number(number) = value else {
        return None;
    };
    match (number.as_u64(), number.as_i64()) {
        (Some(unsigned), _) => <T as TryFrom<u64>>::try_from(unsigned).ok(),
        (None, Some(signed)) => <T as TryFrom<i64>>::try_from(signed).ok(),
        // A fraction or an exponent: not an integer.
        (None, None) => None,
    }
}

/// A float element: a JSON number, or "NaN", "Infinity", "-Infinity" as Zarr writes
/// them. A number is read from its shortest decimal text (as serde_json prints it),
/// rounded once to `T`, in a buffer on the stack.
fn float<T: std::str::FromStr>(value: &Value) -> Option<T> {
    match value {
        Value::Number(number) => {
            let mut text = StackText::default();
            match write!(text, "{number}") {
                Ok(()) => text.as_str()?.parse().ok(),
                // Longer text (serde_json's arbitrary_precision keeps it as written).
                Err(_) => number.to_string().parse().ok(),
            }
        }
        Value::String(text) => match text.as_str() {
            "NaN" => "NaN".parse().ok(),
            "Infinity" => "inf".parse().ok(),
            "-Infinity" => "-inf".parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

/// A float element given as its IEEE 754 bits, `"0x"` and exactly `digits` hex
/// digits (the form Zarr v3 uses for float fill values): the one spelling that
/// keeps a NaN's sign and payload.
fn float_bits<T>(
    value: &Value,
    digits: usize,
    from_hex: fn(&str, u32) -> Result<T, std::num::ParseIntError>,
) -> Option<T> {
    let hex = value.as_str()?.strip_prefix("0x")?;
    (hex.len() == digits && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| from_hex(hex, 16).ok())
        .flatten()
}

/// The text of one JSON number, without a heap allocation: a float prints in
/// positional notation, at most 327 bytes (`-5e-324` is 0.000...5, 324 places).
struct StackText {
    bytes: [u8; 512],
    len: usize,
}

impl Default for StackText {
    fn default() -> Self {
        Self {
            bytes: [0; 512],
            len: 0,
        }
    }
}

impl StackText {
    fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(self.bytes.get(..self.len)?).ok()
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let end = self.len.checked_add(text.len()).ok_or(std::fmt::Error)?;
        self.bytes
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn float_json(text: String) -> Value {
    match text.as_str() {
        "NaN" => Value::from("NaN"),
        "inf" => Value::from("Infinity"),
        "-inf" => Value::from("-Infinity"),
        _ => serde_json::from_str(&text).unwrap_or(Value::from(text)),
    }
}
