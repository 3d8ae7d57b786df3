//! Arrays in vectors: a Zarr data type name, a shape, and nested JSON lists in C
//! order, read into typed ndarray arrays and written back.

use ndarray::{ArrayD, IxDyn};
use serde_json::Value;

/// The most elements an array in a vector may hold; vectors are for reading.
pub const MAX_ELEMENTS: u64 = 1 << 24;

/// A Zarr v3 core data type, as named in vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    /// The Zarr name.
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

    /// The data type with this Zarr name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|data_type| data_type.name() == name)
    }
}

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

/// Applies a generic expression to the ndarray inside a [`TypedArray`], rewrapping the result.
#[macro_export]
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

impl TypedArray {
    /// Reads `data` (nested lists of `shape`) as elements of `data_type`.
    ///
    /// # Errors
    /// A message naming the place where the nesting, a length or an element is wrong.
    pub fn from_json(data_type: DataType, shape: &[u64], data: &Value) -> Result<Self, String> {
        let count = shape
            .iter()
            .try_fold(1u64, |acc, extent| acc.checked_mul(*extent))
            .filter(|count| *count <= MAX_ELEMENTS)
            .ok_or_else(|| format!("shape {shape:?} holds more than {MAX_ELEMENTS} elements"))?;
        let mut leaves = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
        collect_leaves(data, shape, "", &mut leaves)?;
        let dims: Vec<usize> = shape
            .iter()
            .map(|extent| usize::try_from(*extent).map_err(|_| "extent beyond usize".to_string()))
            .collect::<Result<_, _>>()?;
        let dims = IxDyn(&dims);
        fn typed<T>(
            dims: IxDyn,
            leaves: &[(String, &Value)],
            read: impl Fn(&Value) -> Option<T>,
            name: &str,
        ) -> Result<ArrayD<T>, String> {
            let elements = leaves
                .iter()
                .map(|(at, value)| {
                    read(value).ok_or_else(|| format!("{at}: {value} is not a {name}"))
                })
                .collect::<Result<Vec<T>, String>>()?;
            ArrayD::from_shape_vec(dims, elements).map_err(|error| error.to_string())
        }
        let name = data_type.name();
        Ok(match data_type {
            DataType::Bool => Self::Bool(typed(dims, &leaves, Value::as_bool, name)?),
            DataType::Int8 => Self::Int8(typed(dims, &leaves, integer, name)?),
            DataType::Int16 => Self::Int16(typed(dims, &leaves, integer, name)?),
            DataType::Int32 => Self::Int32(typed(dims, &leaves, integer, name)?),
            DataType::Int64 => Self::Int64(typed(dims, &leaves, integer, name)?),
            DataType::UInt8 => Self::UInt8(typed(dims, &leaves, integer, name)?),
            DataType::UInt16 => Self::UInt16(typed(dims, &leaves, integer, name)?),
            DataType::UInt32 => Self::UInt32(typed(dims, &leaves, integer, name)?),
            DataType::UInt64 => Self::UInt64(typed(dims, &leaves, integer, name)?),
            DataType::Float32 => Self::Float32(typed(
                dims,
                &leaves,
                |v| float::<f32>(v).map(f32::to_bits),
                name,
            )?),
            DataType::Float64 => Self::Float64(typed(
                dims,
                &leaves,
                |v| float::<f64>(v).map(f64::to_bits),
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
            Self::Float32(a) => nest(a, |bits| float_json(f32::from_bits(bits).to_string())),
            Self::Float64(a) => nest(a, |bits| float_json(f64::from_bits(bits).to_string())),
        }
    }
}

fn collect_leaves<'a>(
    data: &'a Value,
    shape: &[u64],
    at: &str,
    leaves: &mut Vec<(String, &'a Value)>,
) -> Result<(), String> {
    let Some((extent, inner)) = shape.split_first() else {
        leaves.push((format!("data{at}"), data));
        return Ok(());
    };
    let items = data
        .as_array()
        .ok_or_else(|| format!("data{at} must be a list of {extent} items"))?;
    if u64::try_from(items.len()).ok() != Some(*extent) {
        return Err(format!(
            "data{at} has {} items, the shape says {extent}",
            items.len()
        ));
    }
    for (i, item) in items.iter().enumerate() {
        collect_leaves(item, inner, &format!("{at}[{i}]"), leaves)?;
    }
    Ok(())
}

fn build(shape: &[usize], leaves: &mut impl Iterator<Item = Value>) -> Value {
    match shape.split_first() {
        None => leaves.next().unwrap_or(Value::Null),
        Some((extent, inner)) => Value::Array((0..*extent).map(|_| build(inner, leaves)).collect()),
    }
}

/// An integer element, read exactly from its JSON text (no floats, no wrap).
fn integer<T: std::str::FromStr>(value: &Value) -> Option<T> {
    match value {
        Value::Number(number) => number.to_string().parse().ok(),
        _ => None,
    }
}

/// A float element: a JSON number, or "NaN", "Infinity", "-Infinity" as Zarr writes them.
fn float<T: std::str::FromStr>(value: &Value) -> Option<T> {
    match value {
        Value::Number(number) => number.to_string().parse().ok(),
        Value::String(text) => match text.as_str() {
            "NaN" => "NaN".parse().ok(),
            "Infinity" => "inf".parse().ok(),
            "-Infinity" => "-inf".parse().ok(),
            _ => None,
        },
        _ => None,
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
