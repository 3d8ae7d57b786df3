//! Arrays of the protocol (nested JSON lists in C order) to zarrs' element bytes and
//! back. zarrs keeps decoded elements in native byte order.

use serde_json::Value;
use zarrs::array::DataType;
use zarrs::metadata::v3::MetadataV3;

use crate::answer::{Answer, Step};
use crate::rawjson::Raw;

/// The Zarr v3 core data types the protocol uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Float32,
    Float64,
}

impl Element {
    /// The element type of a Zarr v3 data type name.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "bool" => Self::Bool,
            "int8" => Self::Int8,
            "int16" => Self::Int16,
            "int32" => Self::Int32,
            "int64" => Self::Int64,
            "uint8" => Self::Uint8,
            "uint16" => Self::Uint16,
            "uint32" => Self::Uint32,
            "uint64" => Self::Uint64,
            "float32" => Self::Float32,
            "float64" => Self::Float64,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Self::Bool | Self::Int8 | Self::Uint8 => 1,
            Self::Int16 | Self::Uint16 => 2,
            Self::Int32 | Self::Uint32 | Self::Float32 => 4,
            Self::Int64 | Self::Uint64 | Self::Float64 => 8,
        }
    }
}

/// zarrs' data type of that name, built from its metadata as zarrs builds the
/// `data_type` of an array it opens.
pub fn data_type(name: &str) -> Step<(Element, DataType)> {
    let element = Element::from_name(name).ok_or_else(|| {
        Answer::Skipped(format!(
            "the adapter converts only the Zarr v3 core data types bool, int8..uint64, \
             float32 and float64, not {name:?}"
        ))
    })?;
    let data_type = DataType::from_metadata(&MetadataV3::new(name))
        .map_err(|error| Answer::Error(format!("zarrs has no data type {name:?}: {error}")))?;
    Ok((element, data_type))
}

/// The elements of `data` (nested lists of `shape`) as native-endian bytes.
pub fn to_bytes(element: Element, shape: &[u64], data: &Raw) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    push_elements(element, shape, data, &mut bytes)?;
    Ok(bytes)
}

fn push_elements(
    element: Element,
    shape: &[u64],
    data: &Raw,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let Some((&extent, inner)) = shape.split_first() else {
        return push_scalar(element, data, out);
    };
    match data {
        Raw::Array(items) if u64::try_from(items.len()) == Ok(extent) => items
            .iter()
            .try_for_each(|item| push_elements(element, inner, item, out)),
        _ => Err(format!(
            "the data does not have the input's shape {shape:?}"
        )),
    }
}

fn push_scalar(element: Element, data: &Raw, out: &mut Vec<u8>) -> Result<(), String> {
    fn parse<T: std::str::FromStr>(data: &Raw) -> Result<T, String> {
        match data {
            Raw::Number(text) => text
                .parse()
                .map_err(|_| format!("element {text} is out of range")),
            other => Err(format!("element {other:?} is not a number")),
        }
    }
    fn float<T: std::str::FromStr>(data: &Raw) -> Result<T, String> {
        let text = match data {
            Raw::String(name) if name == "NaN" => "NaN",
            Raw::String(name) if name == "Infinity" => "inf",
            Raw::String(name) if name == "-Infinity" => "-inf",
            Raw::Number(_) => return parse(data),
            other => return Err(format!("element {other:?} is not a float")),
        };
        text.parse()
            .map_err(|_| format!("element {text} is not a float"))
    }
    match element {
        Element::Bool => match data {
            Raw::Bool(value) => out.push(u8::from(*value)),
            other => return Err(format!("element {other:?} is not a bool")),
        },
        Element::Int8 => out.extend(parse::<i8>(data)?.to_ne_bytes()),
        Element::Int16 => out.extend(parse::<i16>(data)?.to_ne_bytes()),
        Element::Int32 => out.extend(parse::<i32>(data)?.to_ne_bytes()),
        Element::Int64 => out.extend(parse::<i64>(data)?.to_ne_bytes()),
        Element::Uint8 => out.extend(parse::<u8>(data)?.to_ne_bytes()),
        Element::Uint16 => out.extend(parse::<u16>(data)?.to_ne_bytes()),
        Element::Uint32 => out.extend(parse::<u32>(data)?.to_ne_bytes()),
        Element::Uint64 => out.extend(parse::<u64>(data)?.to_ne_bytes()),
        Element::Float32 => match hex_bits(data, 8).and_then(|bits| u32::try_from(bits).ok()) {
            Some(bits) => out.extend(bits.to_ne_bytes()),
            None => out.extend(float::<f32>(data)?.to_ne_bytes()),
        },
        Element::Float64 => match hex_bits(data, 16) {
            Some(bits) => out.extend(bits.to_ne_bytes()),
            None => out.extend(float::<f64>(data)?.to_ne_bytes()),
        },
    }
    Ok(())
}

/// A float element written as its IEEE 754 bits, `"0x"` and `digits` hex digits
/// (spec-cases/README.md): the one spelling that keeps a NaN's sign and payload.
fn hex_bits(data: &Raw, digits: usize) -> Option<u64> {
    let Raw::String(text) = data else { return None };
    let hex = text.strip_prefix("0x")?;
    (hex.len() == digits)
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// The protocol's output `{"shape", "data"}` for zarrs' bytes in `shape`. When the
/// bytes do not hold exactly that many elements (zarrs did not check), the elements
/// are given flat, with a `note` saying so.
pub fn output(element: Element, shape: &[u64], bytes: &[u8]) -> Value {
    let values: Vec<Value> = bytes
        .chunks(element.size())
        .map(|chunk| scalar(element, chunk))
        .collect();
    let count = shape
        .iter()
        .try_fold(1u64, |n, &extent| n.checked_mul(extent));
    let exact = bytes.len().is_multiple_of(element.size())
        && count.and_then(|n| usize::try_from(n).ok()) == Some(values.len());
    if !exact {
        let note = format!(
            "zarrs returned {} bytes ({} elements of {} bytes) for the shape {shape:?}",
            bytes.len(),
            values.len(),
            element.size()
        );
        return serde_json::json!({"shape": shape, "data": values, "note": note});
    }
    let mut items = values.into_iter();
    serde_json::json!({"shape": shape, "data": nest(shape, &mut items)})
}

fn nest(shape: &[u64], items: &mut impl Iterator<Item = Value>) -> Value {
    match shape.split_first() {
        None => items.next().unwrap_or(Value::Null),
        Some((&extent, inner)) => Value::Array((0..extent).map(|_| nest(inner, items)).collect()),
    }
}

fn scalar(element: Element, chunk: &[u8]) -> Value {
    fn bytes<const N: usize>(chunk: &[u8]) -> [u8; N] {
        let mut array = [0; N];
        array.iter_mut().zip(chunk).for_each(|(a, b)| *a = *b);
        array
    }
    match element {
        Element::Bool => Value::Bool(chunk.first().is_some_and(|b| *b != 0)),
        Element::Int8 => i8::from_ne_bytes(bytes(chunk)).into(),
        Element::Int16 => i16::from_ne_bytes(bytes(chunk)).into(),
        Element::Int32 => i32::from_ne_bytes(bytes(chunk)).into(),
        Element::Int64 => i64::from_ne_bytes(bytes(chunk)).into(),
        Element::Uint8 => u8::from_ne_bytes(bytes(chunk)).into(),
        Element::Uint16 => u16::from_ne_bytes(bytes(chunk)).into(),
        Element::Uint32 => u32::from_ne_bytes(bytes(chunk)).into(),
        Element::Uint64 => u64::from_ne_bytes(bytes(chunk)).into(),
        // A NaN other than the canonical one is answered as its bits.
        Element::Float32 => {
            let x = f32::from_ne_bytes(bytes(chunk));
            if x.is_nan() && x.to_bits() != f32::NAN.to_bits() {
                return Value::from(format!("0x{:08x}", x.to_bits()));
            }
            float(f64::from(x), x.is_finite().then(|| format!("{x:?}")))
        }
        Element::Float64 => {
            let x = f64::from_ne_bytes(bytes(chunk));
            if x.is_nan() && x.to_bits() != f64::NAN.to_bits() {
                return Value::from(format!("0x{:016x}", x.to_bits()));
            }
            float(x, None)
        }
    }
}

/// A float as the protocol writes it; `shortest` is the shortest decimal text of a
/// float32, so that the answer reads as written (`0.1`, not `0.10000000149011612`).
fn float(x: f64, shortest: Option<String>) -> Value {
    if x.is_nan() {
        return Value::from("NaN");
    }
    if x.is_infinite() {
        return Value::from(if x > 0.0 { "Infinity" } else { "-Infinity" });
    }
    shortest
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .unwrap_or_else(|| Value::from(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_each_type() {
        let cases = [
            (Element::Bool, "[true, false]"),
            (Element::Int8, "[-128, 127]"),
            (Element::Uint64, "[0, 18446744073709551615]"),
            (Element::Float32, r#"[0.1, "NaN"]"#),
            (Element::Float64, r#"[-0.0, "-Infinity"]"#),
        ];
        for (element, text) in cases {
            let raw = Raw::parse(text).ok();
            let bytes = raw.and_then(|raw| to_bytes(element, &[2], &raw).ok());
            let json = bytes.map(|bytes| output(element, &[2], &bytes)["data"].to_string());
            let expected = serde_json::from_str::<Value>(text)
                .ok()
                .map(|v| v.to_string());
            assert_eq!(json, expected, "{element:?}");
        }
    }

    #[test]
    fn rejects_out_of_range_and_wrong_shape() {
        let raw = Raw::parse("[300]").ok();
        assert!(raw.is_some_and(|raw| to_bytes(Element::Int8, &[1], &raw).is_err()));
        let raw = Raw::parse("[[1, 2]]").ok();
        assert!(raw.is_some_and(|raw| to_bytes(Element::Int8, &[2, 1], &raw).is_err()));
    }
}
