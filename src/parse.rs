//! Step 1 of the data flow, spec sections "Codec name" and "Configuration
//! parameters": reading the codec's JSON into a checked [`ReshapeConfiguration`].
//!
//! Everything the JSON alone decides is checked here (the codec's name, the
//! members, element kinds, sizes, -1 at most once, increasing input dims); what
//! needs the decoded shape is checked by [`crate::resolve`].

use serde_json::Value;

use crate::clause::Clause;
use crate::configuration::{ReshapeConfiguration, ShapeElement};
use crate::error::{ReshapeError, Result};
use crate::input_dims::input_dims_increasing;
use crate::json::{Integer, Json, Members, Node, integer_literal};
use crate::limits;
use crate::position::Position;
use crate::shape::{shape_auto_once, shape_size};
use crate::trace::{Trace, Verdict};

/// The configuration members the codec defines (reading I-5: nothing else).
pub(crate) const CONFIGURATION_MEMBERS: &[&str] = &["shape"];
/// The codec object members of Zarr v3.1's extension definition.
pub(crate) const CODEC_MEMBERS: &[&str] = &["name", "configuration", "must_understand"];

impl ReshapeConfiguration {
    /// Builds a configuration from elements, checking what needs no decoded shape.
    ///
    /// # Errors
    /// `invalid-size` for `Size(0)`, `repeated-auto` for a second `Auto`,
    /// `input-dims-not-increasing` when the flattened input dims do not strictly increase.
    pub fn new(shape: Vec<ShapeElement>) -> Result<Self> {
        for (element, item) in shape.iter().enumerate() {
            if let ShapeElement::Size(size) = item {
                shape_size(Ok(*size), Position::element(element))?;
            }
        }
        checked(shape, &mut Trace::off())
    }

    /// Parses the codec's `configuration` member, e.g. `{"shape": [[0, 1], [2], 3]}`,
    /// from a `serde_json::Value`.
    ///
    /// A `Value` holds numbers as its build parsed them. Integers within `u64` or
    /// `i64` are exact in every build. Without serde_json's `arbitrary_precision`
    /// (which this crate does not turn on), a `Value` parsed from text has already
    /// made a float of a larger integer, so `[18446744073709551616]` reads as a
    /// non-integral number (`malformed-configuration`, not `overflow`), and
    /// `1e400` did not parse at all; `-0` became the float `-0.0`, so it is
    /// `malformed-configuration` where the text API says `invalid-size`. For exact
    /// results from text, use [`Self::from_json_str`]; with `arbitrary_precision`
    /// on, both agree.
    ///
    /// # Errors
    /// `malformed-configuration` for JSON that is not of the codec's form,
    /// `invalid-size`, `overflow` (a size beyond 64 bits), `input-dim-out-of-range`
    /// (an input dim beyond 64 bits), `repeated-auto`, `input-dims-not-increasing`.
    ///
    /// ```
    /// use zarr_reshape::{ReshapeConfiguration, ShapeElement};
    /// let configuration = serde_json::json!({"shape": [[0, 1], [2], 3]});
    /// let parsed = ReshapeConfiguration::from_json_value(&configuration)?;
    /// assert_eq!(parsed.shape()[2], ShapeElement::Size(3));
    /// # Ok::<(), zarr_reshape::ReshapeError>(())
    /// ```
    pub fn from_json_value(configuration: &Value) -> Result<Self> {
        parse_configuration(Json::Value(configuration), &mut Trace::off())
    }

    /// Parses a whole codec object, `{"name": "reshape", "configuration": {...}}`,
    /// from a `serde_json::Value`.
    ///
    /// # Errors
    /// As [`Self::from_json_value`]; also `malformed-configuration` when the
    /// name is not `reshape`, the object has a member the codec does not define,
    /// or its `must_understand` is not a boolean.
    pub fn from_codec_json_value(codec: &Value) -> Result<Self> {
        parse_codec(Json::Value(codec), &mut Trace::off())
    }

    /// The former name of [`Self::from_json_value`].
    ///
    /// # Errors
    /// As [`Self::from_json_value`].
    #[deprecated(since = "0.1.0", note = "renamed to `from_json_value`")]
    pub fn from_configuration_json(configuration: &Value) -> Result<Self> {
        Self::from_json_value(configuration)
    }

    /// The former name of [`Self::from_codec_json_value`].
    ///
    /// # Errors
    /// As [`Self::from_codec_json_value`].
    #[deprecated(since = "0.1.0", note = "renamed to `from_codec_json_value`")]
    pub fn from_codec_json(codec: &Value) -> Result<Self> {
        Self::from_codec_json_value(codec)
    }

    /// Parses the codec's `configuration` member from JSON text, e.g.
    /// `{"shape": [[0, 1], [2], 3]}`, reading every number exactly as written
    /// whatever serde_json's features are: an integer beyond 64 bits is `overflow`
    /// (a size) or `input-dim-out-of-range` (an input dim), `1e400` and `2.0` are
    /// `malformed-configuration` (not written as integers).
    ///
    /// # Errors
    /// As [`Self::from_json_value`]; also `malformed-configuration` when the
    /// text is not one JSON value (a syntax error, data after it, nesting deeper
    /// than [`limits::MAX_JSON_DEPTH`]; the message says where) or is longer than
    /// [`limits::MAX_JSON_TEXT_LEN`].
    ///
    /// ```
    /// use zarr_reshape::{ErrorClass, ReshapeConfiguration, ShapeElement};
    /// let parsed = ReshapeConfiguration::from_json_str(r#"{"shape": [[0, 1], [2], 3]}"#)?;
    /// assert_eq!(parsed.shape()[2], ShapeElement::Size(3));
    ///
    /// // 2^64, one more than the largest 64-bit size, read exactly in every build:
    /// // `overflow` (clause limits.u64), never a float or a wrapped integer.
    /// let error = ReshapeConfiguration::from_json_str(r#"{"shape": [18446744073709551616]}"#)
    ///     .unwrap_err();
    /// assert_eq!(error.class(), ErrorClass::Overflow);
    /// assert_eq!(error.to_string(), "shape[0] is 18446744073709551616, a size beyond 64 bits");
    /// # Ok::<(), zarr_reshape::ReshapeError>(())
    /// ```
    pub fn from_json_str(configuration: &str) -> Result<Self> {
        let configuration = Json::from_text(configuration, "configuration")?;
        parse_configuration(configuration, &mut Trace::off())
    }

    /// Parses a whole codec object from JSON text,
    /// `{"name": "reshape", "configuration": {...}}`, reading numbers exactly as
    /// [`Self::from_json_str`] does.
    ///
    /// # Errors
    /// As [`Self::from_json_str`]; also `malformed-configuration` when the name is
    /// not `reshape`, the object has a member the codec does not define, or its
    /// `must_understand` is not a boolean.
    pub fn from_codec_json_str(codec: &str) -> Result<Self> {
        let codec = Json::from_text(codec, "codec object")?;
        parse_codec(codec, &mut Trace::off())
    }
}

/// Parses a codec object, writing each step into `trace`.
pub(crate) fn parse_codec(codec: Json<'_>, trace: &mut Trace) -> Result<ReshapeConfiguration> {
    let object = match codec.open()? {
        Node::Object(object) => object,
        other => {
            return Err(ReshapeError::CodecNotObject {
                found: other.kind(),
            });
        }
    };
    configuration_members(&object, CODEC_MEMBERS, "codec object")?;
    codec_name(&object, trace)?;
    match object.get("configuration") {
        Some(configuration) => parse_configuration(configuration, trace),
        None => Err(ReshapeError::ConfigurationNotObject {
            found: Node::Null.kind(),
        }),
    }
}

/// Parses a codec's `configuration` member, writing each step into `trace`.
pub(crate) fn parse_configuration(
    configuration: Json<'_>,
    trace: &mut Trace,
) -> Result<ReshapeConfiguration> {
    // configuration.members (I-5): an object whose one member is `shape`, an array.
    let object = match configuration.open()? {
        Node::Object(object) => object,
        other => {
            return Err(ReshapeError::ConfigurationNotObject {
                found: other.kind(),
            });
        }
    };
    configuration_members(&object, CONFIGURATION_MEMBERS, "configuration")?;
    let Some(shape_json) = object.get("shape") else {
        return Err(ReshapeError::ShapeMissing);
    };
    let elements = match shape_json.open()? {
        Node::Array(elements) => elements,
        other => {
            return Err(ReshapeError::ShapeNotArray {
                found: other.kind(),
            });
        }
    };
    check_shape_len(elements.len())?;
    let mut shape = Vec::with_capacity(elements.len());
    for (element, value) in elements.iter().enumerate() {
        let parsed = shape_element(value, element)?;
        trace.note(
            Clause::ShapeElement,
            Some(Position::element(element)),
            Verdict::Defines,
            || parsed.describe(),
        );
        shape.push(parsed);
    }
    checked(shape, trace)
}

/// The parse-phase rules that look at several elements at once.
fn checked(shape: Vec<ShapeElement>, trace: &mut Trace) -> Result<ReshapeConfiguration> {
    check_shape_len(shape.len())?;
    for (element, item) in shape.iter().enumerate() {
        if let ShapeElement::InputDims(dims) = item {
            check_input_dims_len(element, dims.len())?;
        }
    }
    shape_auto_once(&shape, trace)?;
    input_dims_increasing(&shape, trace)?;
    Ok(ReshapeConfiguration::from_checked(shape))
}

/// codec.name: the codec object's `name` is the string `reshape`.
///
/// zarr-extensions codecs/reshape, "Codec name": "The value of the name member in the codec
/// object MUST be reshape."
pub(crate) fn codec_name(codec: &Members<'_>, trace: &mut Trace) -> Result<()> {
    let Some(name) = codec.get("name") else {
        return Err(ReshapeError::MissingName);
    };
    let is_reshape = matches!(name.open()?, Node::String(found) if found == "reshape");
    trace.check(
        is_reshape,
        Clause::CodecName,
        None,
        || format!("name is {}", name.text()),
        || ReshapeError::WrongName {
            found: name.text().into_owned(),
        },
    )
}

/// configuration.members (I-5): the members of the `container` are those `known`
/// (core.must-understand), and a codec object's `must_understand` is a boolean.
pub(crate) fn configuration_members(
    object: &Members<'_>,
    known: &[&str],
    container: &'static str,
) -> Result<()> {
    core_must_understand(object, known, container)?;
    // Inside the configuration `must_understand` is unknown, rejected above.
    match object.get("must_understand").map(Json::open).transpose()? {
        None | Some(Node::Bool) => Ok(()),
        Some(other) => Err(ReshapeError::MustUnderstandNotBoolean {
            found: other.kind(),
        }),
    }
}

/// core.must-understand: a member the codec does not define is an error. The codec
/// defines no member of its own that may be ignored, and a member holding
/// `{"must_understand": false}` is not one the suite ignores (I-5).
///
/// Zarr v3 core specification, "Extension definition / must_understand": "An
/// implementation MUST fail to open Zarr groups or arrays if any metadata fields are
/// present which (a) the implementation does not recognize and (b) are not explicitly
/// set to "must_understand": false."
pub(crate) fn core_must_understand(
    object: &Members<'_>,
    known: &[&str],
    container: &'static str,
) -> Result<()> {
    match object.first_unknown(known) {
        Some(member) => Err(ReshapeError::UnknownMember {
            container,
            member: member.to_owned(),
        }),
        None => Ok(()),
    }
}

/// shape.element: a positive integer, an array of integers, or -1; nothing else.
///
/// zarr-extensions codecs/reshape, "Configuration parameters": "Each element shape[i] must
/// be one of:"
pub(crate) fn shape_element(value: Json<'_>, element: usize) -> Result<ShapeElement> {
    let at = Position::element(element);
    match value.open()? {
        Node::Number(text) => match integer_literal(&text) {
            None => Err(ReshapeError::NotAnInteger {
                at,
                text: text.into_owned(),
            }),
            // The special value -1 (shape.auto.value); its count is checked later.
            Some(Integer::MinusOne) => Ok(ShapeElement::Auto),
            // shape.size: 0 and negatives other than -1 are not sizes (E6).
            Some(Integer::Negative) => shape_size(Err(&text), at).map(ShapeElement::Size),
            Some(Integer::NonNegative(Some(size))) => {
                shape_size(Ok(size), at).map(ShapeElement::Size)
            }
            // limits.u64 (I-7): a size that no 64-bit extent can hold.
            Some(Integer::NonNegative(None)) => Err(ReshapeError::SizeTooLarge {
                at,
                value: text.into_owned(),
            }),
        },
        Node::Array(items) => check_input_dims_len(element, items.len()).and_then(|()| {
            items
                .iter()
                .enumerate()
                .map(|(j, item)| input_dim(item, Position::input_dim(element, j)))
                .collect::<Result<Vec<u64>>>()
                .map(ShapeElement::InputDims)
        }),
        other => Err(ReshapeError::WrongKind {
            at,
            wanted: "a positive integer, an array of input dims, or -1",
            found: other.kind(),
        }),
    }
}

/// shape.input-dims: each input dim is a non-negative integer (the schema's minimum 0, I-4).
fn input_dim(value: Json<'_>, at: Position) -> Result<u64> {
    let text = match value.open()? {
        Node::Number(text) => text,
        other => {
            return Err(ReshapeError::WrongKind {
                at,
                wanted: "a non-negative integer input dim",
                found: other.kind(),
            });
        }
    };
    match integer_literal(&text) {
        None => Err(ReshapeError::NotAnInteger {
            at,
            text: text.into_owned(),
        }),
        Some(Integer::MinusOne | Integer::Negative) => Err(ReshapeError::NegativeInputDim {
            at,
            value: text.into_owned(),
        }),
        Some(Integer::NonNegative(Some(dim))) => Ok(dim),
        Some(Integer::NonNegative(None)) => Err(ReshapeError::InputDimTooLarge {
            at,
            value: text.into_owned(),
        }),
    }
}

/// limits.rank (I-10): at most `MAX_SHAPE_LEN` elements in `shape`.
pub(crate) fn check_shape_len(len: usize) -> Result<()> {
    if len > limits::MAX_SHAPE_LEN {
        return Err(ReshapeError::ConfigurationTooLarge {
            what: "len(shape)".into(),
            found: len,
            limit: limits::MAX_SHAPE_LEN,
        });
    }
    Ok(())
}

/// limits.rank (I-10): at most `MAX_INPUT_DIMS` input dims in one element.
fn check_input_dims_len(element: usize, len: usize) -> Result<()> {
    if len > limits::MAX_INPUT_DIMS {
        return Err(ReshapeError::ConfigurationTooLarge {
            what: format!("the number of input dims of shape[{element}]"),
            found: len,
            limit: limits::MAX_INPUT_DIMS,
        });
    }
    Ok(())
}
