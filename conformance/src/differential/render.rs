//! A [`Draft`] written out as a vector case (format 1), still without its
//! expectation: the groups laid over the decoded dims, numbers spelled exactly,
//! arrays filled with distinct values so that a misplaced element shows.

use serde_json::{Map, Value, json};
use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};

use super::generate::{Coordinate, Draft, Element, ODD_JSON, Operand, SPECIAL_NUMBERS, Wrapper};
use crate::arrays::DataType;

/// The most elements of an array in a generated encode or decode case; a larger
/// shape is replaced by a small wrong one (a shape-mismatch case).
pub const MAX_ARRAY_ELEMENTS: u64 = 4096;

/// The highest rank of an array in a generated encode or decode case: nested lists
/// deeper than serde_json's recursion limit (128, `zarr_reshape::limits::MAX_JSON_DEPTH`)
/// cannot be read back from a vector file nor from an adapter request.
pub const MAX_ARRAY_RANK: usize = 64;

/// The most elements of a generated `map-region` box; sides beyond it get length 1.
pub const MAX_BOX_ELEMENTS: u64 = 4096;

/// The case JSON of a draft, with a placeholder id, description and expectation.
#[must_use]
pub fn case_json(draft: &Draft) -> Value {
    let shape = Value::Array(shape_elements(draft));
    let mut case = Map::new();
    case.insert("id".into(), "fuzz/pending".into());
    case.insert("description".into(), "pending".into());
    case.insert("clauses".into(), json!([]));
    case.insert("level".into(), "must".into());
    let configuration = match draft.wrapper {
        Wrapper::ExtraMember => json!({"shape": shape, "order": "C"}),
        Wrapper::NoShape => json!({"size": shape}),
        Wrapper::ShapeNotArray => json!({"shape": shape.to_string()}),
        Wrapper::Plain | Wrapper::Codec | Wrapper::WrongName => json!({"shape": shape}),
    };
    match draft.wrapper {
        Wrapper::Codec => {
            case.insert(
                "codec".into(),
                json!({"name": "reshape", "configuration": configuration}),
            );
        }
        Wrapper::WrongName => {
            case.insert(
                "codec".into(),
                json!({"name": "Reshape", "configuration": configuration}),
            );
        }
        _ => {
            case.insert("configuration".into(), configuration);
        }
    }
    case.insert(
        "decoded_shape".into(),
        Value::from(draft.decoded_shape.clone()),
    );
    let operation = match &draft.operand {
        Operand::Resolve => "resolve",
        Operand::Array {
            decode,
            data_type,
            values,
            wrong_shape,
        } => {
            // Both shapes small, so that neither the input nor the answer is huge.
            let encoded = encoded_shape(&case);
            let needed = match (&encoded, *decode) {
                (Some(b_shape), true) => b_shape.clone(),
                _ => draft.decoded_shape.clone(),
            };
            let both_small = small(&draft.decoded_shape) && encoded.as_deref().is_none_or(small);
            let shape = match wrong_shape {
                Some(wrong) => wrong.clone(),
                None if both_small => needed,
                None => vec![2],
            };
            let count = element_count(&shape).unwrap_or(0);
            let flat: Vec<Value> = (0..count)
                .map(|i| element_value(*data_type, i, values))
                .collect();
            let data = nest(&flat, &shape);
            case.insert(
                "input".into(),
                json!({"data_type": data_type.name(), "shape": shape, "data": data}),
            );
            if *decode { "decode" } else { "encode" }
        }
        Operand::Index {
            coordinates,
            rank_change,
        } => {
            let mut index: Vec<Value> = draft
                .decoded_shape
                .iter()
                .enumerate()
                .map(|(dim, extent)| {
                    coordinate(*coordinates.get(dim).unwrap_or(&Coordinate::First), *extent)
                })
                .collect();
            change_rank(&mut index, *rank_change, Value::from(0));
            case.insert("decoded_index".into(), Value::Array(index));
            "map-index"
        }
        Operand::Region {
            sides,
            reversed,
            rank_change,
        } => {
            let (mut start, mut stop) = region(draft, sides, *reversed);
            change_rank(&mut start, *rank_change, Value::from(0));
            change_rank(&mut stop, *rank_change, Value::from(1));
            case.insert(
                "decoded_region".into(),
                json!({"start": start, "stop": stop}),
            );
            "map-region"
        }
    };
    case.insert("operation".into(), operation.into());
    Value::Object(case)
}

/// The elements of `shape`: groups laid over the decoded dims in order, the last
/// group stretched to the last dim when the draft is `complete`.
fn shape_elements(draft: &Draft) -> Vec<Value> {
    let a_shape = &draft.decoded_shape;
    let rank = a_shape.len();
    let last_group = draft.elements.iter().rposition(|element| {
        matches!(
            element,
            Element::Group(_) | Element::GroupSize(_) | Element::GroupAuto(_)
        )
    });
    let mut cursor = 0_usize;
    let mut out = Vec::with_capacity(draft.elements.len());
    for (position, element) in draft.elements.iter().enumerate() {
        let mut take = |n: usize| {
            let left = rank.saturating_sub(cursor);
            let count = if draft.complete && Some(position) == last_group {
                left
            } else {
                n.min(left)
            };
            let dims: Vec<usize> = (cursor..cursor.saturating_add(count)).collect();
            cursor = cursor.saturating_add(count);
            dims
        };
        let value = match element {
            Element::Group(n) => Value::from(take(*n)),
            Element::GroupSize(n) => {
                let product = take(*n)
                    .iter()
                    .map(|dim| a_shape.get(*dim).copied().unwrap_or(1))
                    .try_fold(1_u128, |acc, extent| acc.checked_mul(u128::from(extent)));
                match product {
                    Some(product) => number(&product.to_string()),
                    None => number("340282366920938463463374607431768211456"),
                }
            }
            Element::GroupAuto(n) => {
                take(*n);
                Value::from(-1)
            }
            Element::Number(k) => number(SPECIAL_NUMBERS.get(*k).copied().unwrap_or("1")),
            Element::Dims(dims) => Value::from(dims.clone()),
            Element::Odd(k) => number(ODD_JSON.get(*k).copied().unwrap_or("null")),
        };
        out.push(value);
    }
    out
}

/// JSON text read exactly (serde_json keeps the digits of any number).
fn number(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The encoded shape the reference gives the case's codec, if it accepts it.
fn encoded_shape(case: &Map<String, Value>) -> Option<Vec<u64>> {
    let configuration = match (case.get("configuration"), case.get("codec")) {
        (Some(configuration), _) => ReshapeConfiguration::from_json_value(configuration),
        (None, Some(codec)) => ReshapeConfiguration::from_codec_json_value(codec),
        (None, None) => return None,
    }
    .ok()?;
    let a_shape: Vec<u64> = case
        .get("decoded_shape")?
        .as_array()?
        .iter()
        .map(Value::as_u64)
        .collect::<Option<_>>()?;
    let codec = ReshapeCodec::new(configuration, &a_shape).ok()?;
    Some(codec.encoded_shape().to_vec())
}

/// Whether nested lists of `shape` stay small: its extents other than 0 multiply to
/// at most [`MAX_ARRAY_ELEMENTS`] (a zero extent elsewhere does not excuse a huge one),
/// and its rank is at most [`MAX_ARRAY_RANK`].
fn small(shape: &[u64]) -> bool {
    shape.len() <= MAX_ARRAY_RANK
        && shape
            .iter()
            .filter(|extent| **extent != 0)
            .try_fold(1_u64, |acc, extent| acc.checked_mul(*extent))
            .is_some_and(|count| count <= MAX_ARRAY_ELEMENTS)
}

fn element_count(shape: &[u64]) -> Option<u64> {
    shape
        .iter()
        .try_fold(1_u64, |acc, extent| acc.checked_mul(*extent))
}

/// Element `i`: its own index (so every element differs), or a special value.
fn element_value(data_type: DataType, i: u64, values: &[Option<usize>]) -> Value {
    let len = u64::try_from(values.len()).unwrap_or(1).max(1);
    let choice = usize::try_from(i.checked_rem(len).unwrap_or(0))
        .ok()
        .and_then(|at| values.get(at).copied().flatten());
    let (low, high): (&str, &str) = match data_type {
        DataType::Bool => {
            return Value::Bool(
                choice.map_or(i.checked_rem(2) == Some(1), |k| k.checked_rem(2) == Some(1)),
            );
        }
        DataType::Float32 | DataType::Float64 => return float_value(data_type, i, choice),
        DataType::Int8 => ("-128", "127"),
        DataType::Int16 => ("-32768", "32767"),
        DataType::Int32 => ("-2147483648", "2147483647"),
        DataType::Int64 => ("-9223372036854775808", "9223372036854775807"),
        DataType::UInt8 => ("0", "255"),
        DataType::UInt16 => ("0", "65535"),
        DataType::UInt32 => ("0", "4294967295"),
        DataType::UInt64 => ("0", "18446744073709551615"),
    };
    match choice.and_then(|k| k.checked_rem(3)) {
        Some(0) => number(low),
        Some(1) => number(high),
        Some(_) => Value::from(0),
        None => {
            let wrap = match data_type {
                DataType::Int8 => 100,
                DataType::UInt8 => 250,
                DataType::Int16 | DataType::UInt16 => 30_000,
                _ => u64::MAX,
            };
            Value::from(i.checked_rem(wrap).unwrap_or(i))
        }
    }
}

/// Float specials: -0.0, NaN, infinities, the smallest subnormal, the largest value.
fn float_value(data_type: DataType, i: u64, choice: Option<usize>) -> Value {
    let single = data_type == DataType::Float32;
    let special = match choice {
        None => {
            let index = u32::try_from(i).map_or(0.5, f64::from);
            return number(&format!("{index:?}"));
        }
        Some(k) => k.checked_rem(7).unwrap_or(0),
    };
    match (special, single) {
        (0, _) => number("-0.0"),
        (1, _) => Value::from("NaN"),
        (2, _) => Value::from("Infinity"),
        (3, _) => Value::from("-Infinity"),
        (4, true) => number("1e-45"),
        (4, false) => number("5e-324"),
        (5, true) => number("3.4028235e38"),
        (5, false) => number("1.7976931348623157e308"),
        _ => number("0.1"),
    }
}

/// Nested lists of `shape` in C order over `flat`; a bare value for rank 0.
fn nest(flat: &[Value], shape: &[u64]) -> Value {
    let Some((first, rest)) = shape.split_first() else {
        return flat.first().cloned().unwrap_or(Value::Null);
    };
    let inner = usize::try_from(element_count(rest).unwrap_or(0)).unwrap_or(0);
    let outer = usize::try_from(*first).unwrap_or(0);
    let items = (0..outer)
        .map(|row| {
            let begin = row.saturating_mul(inner);
            let end = begin.saturating_add(inner);
            nest(flat.get(begin..end).unwrap_or(&[]), rest)
        })
        .collect();
    Value::Array(items)
}

fn coordinate_value(choice: Coordinate, extent: u64) -> i128 {
    let value = match choice {
        Coordinate::First => 0,
        Coordinate::Last => extent.saturating_sub(1),
        Coordinate::Middle => extent.checked_div(2).unwrap_or(0),
        Coordinate::Past => extent,
        Coordinate::Negative => return -1,
    };
    i128::from(value)
}

fn coordinate(choice: Coordinate, extent: u64) -> Value {
    let value = coordinate_value(choice, extent);
    u64::try_from(value).map_or(Value::from(-1), Value::from)
}

/// A box: each side's start where its coordinate says, of the side's length,
/// lengths cut to 1 once the box would exceed [`MAX_BOX_ELEMENTS`].
fn region(draft: &Draft, sides: &[(Coordinate, u64)], reversed: bool) -> (Vec<Value>, Vec<Value>) {
    let mut elements = 1_u64;
    let mut start = Vec::new();
    let mut stop = Vec::new();
    for (dim, extent) in draft.decoded_shape.iter().enumerate() {
        let (choice, mut length) = sides.get(dim).copied().unwrap_or((Coordinate::First, 1));
        match elements.checked_mul(length.max(1)) {
            Some(product) if product <= MAX_BOX_ELEMENTS => elements = product,
            _ => length = length.min(1),
        }
        let begin = coordinate_value(choice, *extent);
        let mut end = begin.saturating_add(i128::from(length));
        let mut begin = begin;
        if reversed && dim == 0 {
            (begin, end) = (end, begin);
        }
        let value = |v: i128| {
            u64::try_from(v.min(i128::from(u64::MAX))).map_or(Value::from(-1), Value::from)
        };
        start.push(value(begin));
        stop.push(value(end));
    }
    (start, stop)
}

fn change_rank(coordinates: &mut Vec<Value>, change: i8, extra: Value) {
    match change {
        c if c < 0 => {
            coordinates.pop();
        }
        c if c > 0 => coordinates.push(extra),
        _ => {}
    }
}
