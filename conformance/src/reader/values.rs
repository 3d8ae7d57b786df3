//! A command-line reader's stdout read as the elements of an array, and the
//! elements of an array written the same way (`zarr-reshape read`, the bats
//! export's `.expected` files): one JSON value per line, in C order
//! (`conformance/PROTOCOL.md`, "Command-line readers").

use serde_json::Value;

use crate::arrays::{DataType, TypedArray};

/// The three float spellings that are strings: `"NaN"`, `"Infinity"`, `"-Infinity"`.
pub const SPECIAL: [&str; 3] = ["NaN", "Infinity", "-Infinity"];

/// The elements of `stdout`: the whole text as one JSON document of nested lists
/// (numpy's `tolist()`), flattened in order; else one JSON value per line, blank
/// trailing lines ignored (a bare `NaN`, `Infinity` or `-Infinity` line is read as
/// its string spelling).
///
/// # Errors
/// The place of the first line that is no JSON value, or of a blank line before
/// the last value.
pub fn parse(stdout: &str) -> Result<Vec<Value>, String> {
    let trimmed = stdout.trim();
    if trimmed.starts_with('[') {
        if let Ok(document) = serde_json::from_str::<Value>(trimmed) {
            let mut flat = Vec::new();
            flatten(document, &mut flat);
            return Ok(flat);
        }
    }
    let lines: Vec<&str> = stdout.lines().map(str::trim).collect();
    let used = lines
        .iter()
        .rposition(|line| !line.is_empty())
        .map_or(0, |last| last.saturating_add(1));
    lines
        .iter()
        .take(used)
        .enumerate()
        .map(|(index, line)| {
            let number = index.saturating_add(1);
            if line.is_empty() {
                return Err(format!("line {number} is blank, before the last value"));
            }
            if SPECIAL.contains(line) {
                return Ok(Value::from(*line));
            }
            serde_json::from_str::<Value>(line)
                .map_err(|error| format!("line {number} is no JSON value ({error}): {}", cut(line)))
        })
        .collect()
}

/// An upper bound of the values [`parse`] reads from `stdout`, counted without
/// reading them: the larger of the commas and one (a nested document's leaf
/// follows its first bracket or a comma) and the lines that are not blank.
#[must_use]
pub fn rough_count(stdout: &str) -> usize {
    let lines = stdout
        .lines()
        .filter(|line| !line.trim().is_empty())
        .count();
    lines.max(stdout.matches(',').count().saturating_add(1))
}

/// At most 80 characters of `text`.
fn cut(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((end, _)) => format!("{}...", text.get(..end).unwrap_or(text)),
        None => text.to_string(),
    }
}

fn flatten(value: Value, into: &mut Vec<Value>) {
    match value {
        Value::Array(items) => items.into_iter().for_each(|item| flatten(item, into)),
        leaf => into.push(leaf),
    }
}

/// `value` as an element of `data_type`, spelled as the vectors spell it: an
/// integer as written, a boolean, a float rounded once from its text to the type
/// (so that a float32 element reads as the float32 it names) and written back as
/// a number, or one of the strings of [`SPECIAL`] (an overflow to infinity too).
///
/// # Errors
/// Why the value is no element of the type (a fraction for an integer type, a
/// number for `bool`, another string, a list, an object, `null`).
pub fn element(data_type: DataType, value: &Value) -> Result<Value, String> {
    let wrong = || {
        format!(
            "{} is no {} value",
            cut(&value.to_string()),
            data_type.name()
        )
    };
    match data_type {
        DataType::Bool if value.is_boolean() => Ok(value.clone()),
        DataType::Bool => Err(wrong()),
        DataType::Float32 | DataType::Float64 => {
            let text = match value {
                Value::String(text) if SPECIAL.contains(&text.as_str()) => return Ok(value.clone()),
                Value::Number(number) => number.to_string(),
                _ => return Err(wrong()),
            };
            let spelled = if data_type == DataType::Float32 {
                text.parse::<f32>().map(|v| {
                    float_value(
                        v.is_nan(),
                        v.is_infinite(),
                        v.is_sign_negative(),
                        v.to_string(),
                    )
                })
            } else {
                text.parse::<f64>().map(|v| {
                    float_value(
                        v.is_nan(),
                        v.is_infinite(),
                        v.is_sign_negative(),
                        v.to_string(),
                    )
                })
            };
            spelled.map_err(|_| wrong())
        }
        _ => match value {
            Value::Number(number) if number.as_i64().is_some() || number.as_u64().is_some() => {
                Ok(value.clone())
            }
            _ => Err(wrong()),
        },
    }
}

/// A float's JSON spelling: a special string, or its shortest text as a number.
fn float_value(nan: bool, infinite: bool, negative: bool, text: String) -> Value {
    match (nan, infinite, negative) {
        (true, _, _) => Value::from("NaN"),
        (_, true, true) => Value::from("-Infinity"),
        (_, true, false) => Value::from("Infinity"),
        _ => serde_json::from_str(&text).unwrap_or(Value::from(text)),
    }
}

/// Whether `value` (a vector's element) is a NaN: `"NaN"` or a NaN's bits.
#[must_use]
pub fn is_nan(data_type: DataType, value: &Value) -> bool {
    match value.as_str() {
        Some("NaN") => true,
        Some(bits) => {
            let hex = bits.strip_prefix("0x").unwrap_or("");
            match data_type {
                DataType::Float32 => {
                    u32::from_str_radix(hex, 16).is_ok_and(|b| f32::from_bits(b).is_nan())
                }
                DataType::Float64 => {
                    u64::from_str_radix(hex, 16).is_ok_and(|b| f64::from_bits(b).is_nan())
                }
                _ => false,
            }
        }
        None => false,
    }
}

/// The leaves of a vector's nested `data`, in C order.
#[must_use]
pub fn leaves(data: &Value) -> Vec<Value> {
    let mut flat = Vec::new();
    flatten(data.clone(), &mut flat);
    flat
}

/// `flat` nested as lists of `shape` (a bare value for rank 0); `None` unless
/// the shape holds exactly `flat.len()` elements.
#[must_use]
pub fn nest(shape: &[u64], flat: Vec<Value>) -> Option<Value> {
    let count = shape
        .iter()
        .try_fold(1u64, |count, extent| count.checked_mul(*extent))?;
    if u64::try_from(flat.len()).ok()? != count {
        return None;
    }
    let mut values = flat.into_iter();
    let built = build(shape, &mut values)?;
    Some(built)
}

fn build(shape: &[u64], values: &mut impl Iterator<Item = Value>) -> Option<Value> {
    match shape.split_first() {
        None => values.next(),
        Some((extent, inner)) => (0..*extent)
            .map(|_| build(inner, values))
            .collect::<Option<Vec<Value>>>()
            .map(Value::Array),
    }
}

/// The elements of `array` as `zarr-reshape read` prints them: one JSON value a
/// line, in C order; floats as their shortest text, NaN (whatever its bits) and
/// the infinities as the strings of [`SPECIAL`].
#[must_use]
pub fn lines(array: &TypedArray) -> String {
    let mut text = String::new();
    for leaf in leaves(&array.to_json()) {
        let spelled = if is_nan(array.data_type(), &leaf) {
            "\"NaN\"".to_string()
        } else {
            leaf.to_string()
        };
        text.push_str(&spelled);
        text.push('\n');
    }
    text
}
