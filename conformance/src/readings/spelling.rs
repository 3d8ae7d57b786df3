//! Numbers as a JSON library that yields doubles reads them (reading I-6): an
//! integral number spelled with a fraction or an exponent is that integer.

use serde_json::{Number, Value};

/// Whether the number is written as an integer (no fraction, no exponent).
fn spelled_integral(number: &Number) -> bool {
    !number.to_string().contains(['.', 'e', 'E'])
}

/// Rewrites integral numbers spelled with a fraction or an exponent (`2.0`, `1e1`,
/// `-1.0`) as integers, anywhere in `value`; whether anything changed.
pub fn integral_spellings(value: &mut Value) -> bool {
    match value {
        Value::Number(n) if !spelled_integral(n) => {
            let Some(float) = n.as_f64().filter(|f| f.is_finite() && f.fract() == 0.0) else {
                return false;
            };
            match serde_json::from_str::<Value>(&format!("{float:.0}")) {
                Ok(integer) => {
                    *value = integer;
                    true
                }
                Err(_) => false,
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, item| integral_spellings(item) | changed),
        Value::Object(members) => members
            .values_mut()
            .fold(false, |changed, item| integral_spellings(item) | changed),
        _ => false,
    }
}
