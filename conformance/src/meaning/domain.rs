//! The small domain the meaning check runs over: every decoded shape and every
//! configuration built from a few extents, sizes and input-dims lists.

use serde_json::Value;
use zarr_reshape::ShapeElement;

/// Extents of the decoded shapes: 1 (a unit dim, where the rules and the meaning
/// part ways) and the primes 2, 3, 5, so that products reveal which dims met.
pub const DECODED_EXTENTS: [u64; 4] = [1, 2, 3, 5];
/// The largest decoded rank; ranks 0 to this are enumerated.
pub const MAX_DECODED_RANK: usize = 3;
/// Sizes a configuration may give: composite 4 and 6 as well as the decoded extents.
pub const SIZES: [u64; 5] = [1, 2, 3, 4, 6];
/// The largest output rank (length of `shape`); lengths 0 to this are enumerated.
pub const MAX_ENCODED_RANK: usize = 3;
/// Input dims are drawn from `0..INPUT_DIM_LIMIT`, the largest decoded rank, for every
/// decoded shape alike: this includes every strictly increasing subset of
/// `0..rank(A)` for each A, and dims out of range for the smaller ranks.
pub const INPUT_DIM_LIMIT: u64 = 3;

/// The domain: configurations crossed with decoded shapes.
#[derive(Debug, Clone)]
pub struct Domain {
    /// The `shape` parameters, shortest first, then in the order of [`Domain::alphabet`].
    pub configurations: Vec<Vec<ShapeElement>>,
    /// The decoded shapes `A_shape`, lowest rank first, then lexicographic.
    pub decoded_shapes: Vec<Vec<u64>>,
}

/// One pair of the domain, with its position in the enumeration.
#[derive(Debug, Clone, Copy)]
pub struct Pair<'a> {
    /// Position in [`Domain::pairs`]: configuration-major, decoded shape minor.
    pub index: usize,
    /// The `shape` parameter.
    pub configuration: &'a [ShapeElement],
    /// `A_shape`.
    pub a_shape: &'a [u64],
}

impl Domain {
    /// The domain stated in the issue "The meaning check" (see the constants above).
    #[must_use]
    pub fn standard() -> Self {
        Self {
            configurations: sequences(&Self::alphabet(), MAX_ENCODED_RANK),
            decoded_shapes: sequences(&DECODED_EXTENTS, MAX_DECODED_RANK),
        }
    }

    /// The elements a configuration is made of: the sizes, -1, then every strictly
    /// increasing list of input dims below [`INPUT_DIM_LIMIT`] (the empty one first,
    /// then by length, then lexicographic).
    #[must_use]
    pub fn alphabet() -> Vec<ShapeElement> {
        let sizes = SIZES.iter().map(|size| ShapeElement::Size(*size));
        let dims: Vec<u64> = (0..INPUT_DIM_LIMIT).collect();
        let lists = sequences(&dims, dims.len())
            .into_iter()
            .filter(|list| list.windows(2).all(|pair| pair.first() < pair.last()));
        sizes
            .chain(std::iter::once(ShapeElement::Auto))
            .chain(lists.map(ShapeElement::InputDims))
            .collect()
    }

    /// How many pairs the domain holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.configurations
            .len()
            .saturating_mul(self.decoded_shapes.len())
    }

    /// Whether the domain is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every pair, configuration-major.
    pub fn pairs(&self) -> impl Iterator<Item = Pair<'_>> {
        self.configurations
            .iter()
            .flat_map(move |configuration| {
                self.decoded_shapes
                    .iter()
                    .map(move |a_shape| (configuration, a_shape))
            })
            .enumerate()
            .map(|(index, (configuration, a_shape))| Pair {
                index,
                configuration,
                a_shape,
            })
    }
}

/// Every sequence of length `0..=max_len` over `alphabet`, shortest first, then in
/// the order of the alphabet.
fn sequences<T: Clone>(alphabet: &[T], max_len: usize) -> Vec<Vec<T>> {
    let mut all: Vec<Vec<T>> = vec![Vec::new()];
    let mut previous: Vec<Vec<T>> = vec![Vec::new()];
    for _ in 0..max_len {
        let next: Vec<Vec<T>> = previous
            .iter()
            .flat_map(|prefix| {
                alphabet.iter().map(move |item| {
                    let mut sequence = prefix.clone();
                    sequence.push(item.clone());
                    sequence
                })
            })
            .collect();
        all.extend(next.iter().cloned());
        previous = next;
    }
    all
}

/// A `shape` parameter as the JSON of a codec's configuration member.
#[must_use]
pub fn configuration_json(configuration: &[ShapeElement]) -> Value {
    let elements: Vec<Value> = configuration
        .iter()
        .map(|element| match element {
            ShapeElement::Size(size) => Value::from(*size),
            ShapeElement::InputDims(dims) => Value::from(dims.clone()),
            ShapeElement::Auto => Value::from(-1),
        })
        .collect();
    serde_json::json!({ "shape": elements })
}

/// A `shape` parameter as the spec writes it: `[[0, 1], -1]`.
#[must_use]
pub fn configuration_text(configuration: &[ShapeElement]) -> String {
    let elements: Vec<String> = configuration
        .iter()
        .map(|element| match element {
            ShapeElement::Size(size) => size.to_string(),
            ShapeElement::InputDims(dims) => list(dims),
            ShapeElement::Auto => "-1".into(),
        })
        .collect();
    format!("[{}]", elements.join(", "))
}

/// A list of numbers as the spec writes shapes: `[2, 3, 5]`.
#[must_use]
pub fn list(values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// A JSON value on one line, with a space after each comma and colon, as the
/// hand-written vectors write it: `{"shape": [[0, 1], -1]}`.
#[must_use]
pub fn json_text(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(json_text).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(members) => {
            let members: Vec<String> = members
                .iter()
                .map(|(key, value)| format!("{}: {}", Value::from(key.as_str()), json_text(value)))
                .collect();
            format!("{{{}}}", members.join(", "))
        }
        scalar => scalar.to_string(),
    }
}
