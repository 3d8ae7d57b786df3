//! What a parsed `reshape` configuration is: its `shape`, element by element.
//! Reading it from JSON is [`crate::parse`]'s job, resolving it against a decoded
//! shape [`crate::resolve`]'s.

use serde_json::Value;

use crate::product::list;

/// One element `shape[i]` of the configuration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ShapeElement {
    /// A positive integer: `B_shape[i] := size`.
    Size(u64),
    /// An array of input dims: `B_shape[i] := prod(A_shape[d] for d in input_dims)`.
    InputDims(Vec<u64>),
    /// -1: `B_shape[i]` is whatever makes `prod(B_shape) == prod(A_shape)`.
    Auto,
}

impl ShapeElement {
    /// The element as the trace shows it, e.g. `input_dims [0, 1]`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Size(size) => format!("size {size}"),
            Self::InputDims(dims) => format!("input_dims {}", list(dims)),
            Self::Auto => "-1 (automatic)".into(),
        }
    }
}

/// A parsed, checked `reshape` configuration: its `shape` parameter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReshapeConfiguration {
    shape: Vec<ShapeElement>,
}

impl ReshapeConfiguration {
    /// Wraps elements that passed every parse-phase rule (see [`crate::parse`]).
    pub(crate) fn from_checked(shape: Vec<ShapeElement>) -> Self {
        Self { shape }
    }

    /// The elements of `shape`, in order.
    #[must_use]
    pub fn shape(&self) -> &[ShapeElement] {
        &self.shape
    }

    /// The configuration as the JSON member of a codec object.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let elements = self.shape.iter().map(|element| match element {
            ShapeElement::Size(size) => Value::from(*size),
            ShapeElement::InputDims(dims) => Value::from(dims.clone()),
            ShapeElement::Auto => Value::from(-1),
        });
        serde_json::json!({ "shape": elements.collect::<Vec<Value>>() })
    }
}
