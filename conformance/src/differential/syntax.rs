//! What a codec's JSON alone says, without the reference's parser: the rules it
//! breaks (for a configuration that does not parse, whose other faults an
//! implementation that checks in another order may report first) and the
//! readings it touches.

use serde_json::{Number, Value};

use crate::vector::{Case, CodecJson};

/// Facts about a case's codec JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// `len(shape)`, when `shape` is an array.
    pub shape_len: Option<usize>,
    /// An element `[]`.
    pub empty_group: bool,
    /// A negative input dim.
    pub negative_dim: bool,
    /// A member beyond those the schema allows.
    pub unknown_member: bool,
    /// A number with a fraction or an exponent.
    pub non_integral: bool,
    /// An integer beyond 64 bits.
    pub beyond_u64: bool,
}

/// The `shape` member's elements and whether anything beside it is unknown.
fn shape_of(case: &Case) -> (Option<&Vec<Value>>, bool) {
    let (configuration, mut unknown) = match &case.codec {
        CodecJson::Configuration(json) => (Some(json), false),
        CodecJson::Codec(json) => {
            let unknown = json.as_object().is_some_and(|codec| {
                codec.keys().any(|key| {
                    !["name", "configuration", "must_understand"].contains(&key.as_str())
                })
            });
            (json.get("configuration"), unknown)
        }
        CodecJson::Chain(_) => (None, false),
    };
    if let Some(object) = configuration.and_then(Value::as_object) {
        unknown |= object.keys().any(|key| key != "shape");
    }
    let shape = configuration
        .and_then(|c| c.get("shape"))
        .and_then(Value::as_array);
    (shape, unknown)
}

fn spelled_integral(number: &Number) -> bool {
    !number.to_string().contains(['.', 'e', 'E'])
}

impl Scan {
    /// Scans a case's codec JSON.
    #[must_use]
    pub fn of(case: &Case) -> Self {
        let (shape, unknown_member) = shape_of(case);
        let mut scan = Self {
            shape_len: shape.map(Vec::len),
            unknown_member,
            ..Self::default()
        };
        let mut numbers = Vec::new();
        for element in shape.into_iter().flatten() {
            match element {
                Value::Number(n) => numbers.push((n, false)),
                Value::Array(dims) => {
                    scan.empty_group |= dims.is_empty();
                    for dim in dims {
                        if let Value::Number(n) = dim {
                            numbers.push((n, true));
                        }
                    }
                }
                _ => {}
            }
        }
        for (number, is_dim) in numbers {
            if !spelled_integral(number) {
                scan.non_integral = true;
            } else if number.as_i64().is_none() && number.as_u64().is_none() {
                scan.beyond_u64 = true;
            }
            scan.negative_dim |= is_dim && number.to_string().starts_with('-');
        }
        scan
    }
}

/// The classes of every rule the codec's JSON alone breaks, for a configuration
/// the reference does not parse; `rank` is the decoded rank, for input dims out of range.
#[must_use]
pub fn broken_classes(case: &Case, rank: usize) -> Vec<&'static str> {
    let mut classes = Vec::new();
    let (shape, unknown) = shape_of(case);
    if unknown {
        classes.push("malformed-configuration");
    }
    let Some(shape) = shape else {
        return classes;
    };
    let mut autos = 0_usize;
    // Input dims as written; one beyond u128 counts as the largest.
    let mut flattened: Vec<u128> = Vec::new();
    let add = |class: &'static str, classes: &mut Vec<&'static str>| {
        if !classes.contains(&class) {
            classes.push(class);
        }
    };
    for element in shape {
        match element {
            Value::Number(n) if !spelled_integral(n) => {
                add("malformed-configuration", &mut classes)
            }
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(-1), _) => autos = autos.saturating_add(1),
                (Some(0), _) | (_, Some(0)) | (Some(i64::MIN..=-2), _) => {
                    add("invalid-size", &mut classes)
                }
                (None, None) if n.to_string().starts_with('-') => add("invalid-size", &mut classes),
                (None, None) => add("overflow", &mut classes),
                _ => {}
            },
            Value::Array(dims) => {
                for dim in dims {
                    match dim {
                        Value::Number(n)
                            if spelled_integral(n) && !n.to_string().starts_with('-') =>
                        {
                            flattened.push(n.to_string().parse().unwrap_or(u128::MAX));
                        }
                        _ => add("malformed-configuration", &mut classes),
                    }
                }
            }
            _ => add("malformed-configuration", &mut classes),
        }
    }
    if autos > 1 {
        add("repeated-auto", &mut classes);
    }
    let increasing = flattened
        .windows(2)
        .all(|pair| matches!(pair, [a, b] if a < b));
    if !increasing {
        add("input-dims-not-increasing", &mut classes);
    }
    let out_of_range = flattened.iter().any(|dim| {
        usize::try_from(*dim).is_ok_and(|dim| dim >= rank) || usize::try_from(*dim).is_err()
    });
    if out_of_range {
        add("input-dim-out-of-range", &mut classes);
    }
    classes
}
