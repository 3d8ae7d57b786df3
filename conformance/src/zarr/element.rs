//! Array elements as the `bytes` codec stores them: fixed-size, little or big
//! endian, and the dispatch from a [`DataType`] to the element type that holds it.

use ndarray::{ArrayD, IxDyn};

use super::ZarrError;

/// An element type of [`crate::arrays::TypedArray`]: floats are held as their bits,
/// so `u32` serves `float32` and `u64` serves `float64`.
pub(crate) trait Element: Clone + Default + 'static {
    /// Bytes per element.
    const SIZE: usize;
    /// Appends the element's bytes.
    fn put(&self, big_endian: bool, out: &mut Vec<u8>);
    /// Reads one element from exactly [`Self::SIZE`] bytes; `None` for a bit pattern
    /// that is no value of the type.
    fn get(bytes: &[u8], big_endian: bool) -> Option<Self>;
}

macro_rules! numeric_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(&self, big_endian: bool, out: &mut Vec<u8>) {
                if big_endian {
                    out.extend_from_slice(&self.to_be_bytes());
                } else {
                    out.extend_from_slice(&self.to_le_bytes());
                }
            }
            fn get(bytes: &[u8], big_endian: bool) -> Option<Self> {
                let bytes = bytes.try_into().ok()?;
                Some(if big_endian { <$t>::from_be_bytes(bytes) } else { <$t>::from_le_bytes(bytes) })
            }
        }
    )*};
}

numeric_element!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Element for bool {
    const SIZE: usize = 1;
    fn put(&self, _: bool, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    /// The core spec's `bool` is one byte, 0 or 1; any other byte is no bool.
    fn get(bytes: &[u8], _: bool) -> Option<Self> {
        match bytes {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }
}

/// The `bytes` codec's encoding: the elements in C order (the logical order,
/// whatever the memory layout), each in the given byte order.
pub(crate) fn to_bytes<T: Element>(array: &ArrayD<T>, big_endian: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(array.len().saturating_mul(T::SIZE));
    for element in array {
        element.put(big_endian, &mut out);
    }
    out
}

/// The `bytes` codec's decoding into an array of `shape`.
///
/// # Errors
/// `shape-mismatch` when the length is not that of `shape`; `malformed-configuration`
/// for a byte that is no `bool`.
pub(crate) fn from_bytes<T: Element>(
    bytes: &[u8],
    shape: &[usize],
    big_endian: bool,
) -> Result<ArrayD<T>, ZarrError> {
    let count = shape
        .iter()
        .try_fold(1usize, |acc, extent| acc.checked_mul(*extent));
    if count.and_then(|count| count.checked_mul(T::SIZE)) != Some(bytes.len()) {
        return Err(ZarrError::new(
            zarr_reshape::ErrorClass::ShapeMismatch,
            format!(
                "a chunk of {} bytes does not hold {shape:?} elements of {} bytes",
                bytes.len(),
                T::SIZE
            ),
        ));
    }
    let elements = bytes
        .chunks_exact(T::SIZE)
        .map(|element| T::get(element, big_endian))
        .collect::<Option<Vec<T>>>()
        .ok_or_else(|| ZarrError::malformed("a chunk holds a byte that is no bool (0 or 1)"))?;
    ArrayD::from_shape_vec(IxDyn(shape), elements).map_err(|e| ZarrError::malformed(e.to_string()))
}

/// Evaluates `$body` with `$T` the element type of `$data_type`, wrapping the
/// `Result<ArrayD<$T>, _>` it gives into the matching [`crate::arrays::TypedArray`].
macro_rules! with_element_type {
    ($data_type:expr, $T:ident => $body:expr) => {{
        use $crate::arrays::{DataType as D, TypedArray as A};
        match $data_type {
            D::Bool => {
                type $T = bool;
                $body.map(A::Bool)
            }
            D::Int8 => {
                type $T = i8;
                $body.map(A::Int8)
            }
            D::Int16 => {
                type $T = i16;
                $body.map(A::Int16)
            }
            D::Int32 => {
                type $T = i32;
                $body.map(A::Int32)
            }
            D::Int64 => {
                type $T = i64;
                $body.map(A::Int64)
            }
            D::UInt8 => {
                type $T = u8;
                $body.map(A::UInt8)
            }
            D::UInt16 => {
                type $T = u16;
                $body.map(A::UInt16)
            }
            D::UInt32 => {
                type $T = u32;
                $body.map(A::UInt32)
            }
            D::UInt64 => {
                type $T = u64;
                $body.map(A::UInt64)
            }
            D::Float32 => {
                type $T = u32;
                $body.map(A::Float32)
            }
            D::Float64 => {
                type $T = u64;
                $body.map(A::Float64)
            }
        }
    }};
}

/// Evaluates `$body` with `$a` bound to the ndarray inside a
/// [`crate::arrays::TypedArray`]; every arm gives the same type.
macro_rules! with_elements {
    ($array:expr, $a:ident => $body:expr) => {{
        use $crate::arrays::TypedArray as A;
        match $array {
            A::Bool($a) => $body,
            A::Int8($a) => $body,
            A::Int16($a) => $body,
            A::Int32($a) => $body,
            A::Int64($a) => $body,
            A::UInt8($a) => $body,
            A::UInt16($a) => $body,
            A::UInt32($a) => $body,
            A::UInt64($a) => $body,
            A::Float32($a) => $body,
            A::Float64($a) => $body,
        }
    }};
}

pub(crate) use {with_element_type, with_elements};

/// Bytes per element of a data type.
#[must_use]
pub(crate) fn size_of(data_type: crate::arrays::DataType) -> usize {
    use crate::arrays::DataType as D;
    match data_type {
        D::Bool | D::Int8 | D::UInt8 => 1,
        D::Int16 | D::UInt16 => 2,
        D::Int32 | D::UInt32 | D::Float32 => 4,
        D::Int64 | D::UInt64 | D::Float64 => 8,
    }
}
