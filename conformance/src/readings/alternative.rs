//! The other readings CONFORMANCE.md documents, one per open question whose two
//! readings can give different verdicts, and what each looks at in a case.

use serde_json::Value;
use zarr_reshape::ErrorClass;

use super::spelling::integral_spellings;
use crate::vector::{Case, CodecJson, Operation};

/// A documented reading other than the reference's (CONFORMANCE.md names each
/// under its interpretation, `other_reading` in `clauses.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Alternative {
    /// I-1: an empty input dims array is refused (`malformed-configuration`): the
    /// rules are stated for k > 0 input dims only.
    EmptyInputDimsRefused,
    /// I-2: an empty shape is refused (`malformed-configuration`).
    EmptyShapeRefused,
    /// I-3: a 0-dimensional decoded array is refused (`shape-mismatch`).
    ZeroRankRefused,
    /// I-5: a `must_understand` that is not a boolean is read as `true`.
    MustUnderstandAsTrue,
    /// I-5: an unknown member whose value is an object marked
    /// `"must_understand": false` is ignored, as the core spec lets a reader do.
    OptionalMemberIgnored,
    /// I-6: numbers read as a JSON library that yields doubles reads them, where
    /// that is exact: an integral one spelled `2.0` or `1e1` is that integer, and
    /// `-0` keeps its sign, a negative input dim.
    NumbersAsDoubles,
    /// I-7: sizes and products are exact integers, and the rules' answer stands
    /// however large its extents.
    ExactIntegers,
    /// I-9: a decoded shape with a zero extent is refused (`shape-mismatch`).
    ZeroExtentRefused,
    /// I-9: a -1 whose other extents multiply to 0 takes the value the prefix or
    /// suffix rule fixes, where one does.
    AutoFromAlignment,
    /// I-10: no limit on the length of shape, input dims or the decoded rank.
    Unbounded,
    /// I-11: every declared chunk of a grid is checked, overflow chunks wholly
    /// beyond the array included.
    EveryDeclaredChunk,
    /// I-12: an array whose chain refuses some of its chunks opens; only a read
    /// touching a refused chunk fails.
    FittingChunksRead,
}

/// The other readings whose answers the vectors accept beside the reference's:
/// I-6, I-7 and I-12 are implementation-defined (CONFORMANCE.md), so a case whose
/// answer one of them changes accepts both.
pub const IMPLEMENTATION_DEFINED: [Alternative; 3] = [
    Alternative::NumbersAsDoubles,
    Alternative::ExactIntegers,
    Alternative::FittingChunksRead,
];

impl Alternative {
    /// Every documented other reading.
    pub const ALL: [Self; 12] = [
        Self::EmptyInputDimsRefused,
        Self::EmptyShapeRefused,
        Self::ZeroRankRefused,
        Self::MustUnderstandAsTrue,
        Self::OptionalMemberIgnored,
        Self::NumbersAsDoubles,
        Self::ExactIntegers,
        Self::ZeroExtentRefused,
        Self::AutoFromAlignment,
        Self::Unbounded,
        Self::EveryDeclaredChunk,
        Self::FittingChunksRead,
    ];

    /// The interpretation it reads otherwise.
    #[must_use]
    pub fn reading(self) -> &'static str {
        match self {
            Self::EmptyInputDimsRefused => "I-1",
            Self::EmptyShapeRefused => "I-2",
            Self::ZeroRankRefused => "I-3",
            Self::MustUnderstandAsTrue | Self::OptionalMemberIgnored => "I-5",
            Self::NumbersAsDoubles => "I-6",
            Self::ExactIntegers => "I-7",
            Self::ZeroExtentRefused | Self::AutoFromAlignment => "I-9",
            Self::Unbounded => "I-10",
            Self::EveryDeclaredChunk => "I-11",
            Self::FittingChunksRead => "I-12",
        }
    }

    /// The class a refusal reading answers with, before anything else is read.
    #[must_use]
    pub fn refusal(self) -> Option<ErrorClass> {
        match self {
            Self::EmptyInputDimsRefused | Self::EmptyShapeRefused => {
                Some(ErrorClass::MalformedConfiguration)
            }
            Self::ZeroRankRefused | Self::ZeroExtentRefused => Some(ErrorClass::ShapeMismatch),
            _ => None,
        }
    }

    /// Whether the case raises the question at all: only then can the answer
    /// differ. (I-7 and I-10 are asked only where the reference meets a limit.)
    #[must_use]
    pub fn applies(self, case: &Case) -> bool {
        let shapes = shapes(case);
        match self {
            Self::EmptyInputDimsRefused => shapes.iter().any(|shape| {
                shape.as_array().is_some_and(|items| {
                    items
                        .iter()
                        .any(|item| item.as_array().is_some_and(Vec::is_empty))
                })
            }),
            Self::EmptyShapeRefused => shapes
                .iter()
                .any(|shape| shape.as_array().is_some_and(Vec::is_empty)),
            Self::ZeroRankRefused => case.decoded_shape.is_empty(),
            Self::MustUnderstandAsTrue => codecs(case).iter().any(|codec| {
                codec
                    .get("must_understand")
                    .is_some_and(|flag| !flag.is_boolean())
            }),
            Self::OptionalMemberIgnored => optional_members_rewrite(case).is_some(),
            Self::NumbersAsDoubles => {
                integral_rewrite(case).is_some() || shapes.iter().any(negative_zero_dim)
            }
            Self::ExactIntegers | Self::Unbounded => true,
            // Asked of every grid: only the reader knows which has overflow chunks.
            Self::EveryDeclaredChunk => matches!(
                case.operation,
                Operation::ResolveGrid { .. } | Operation::ReadArray { .. }
            ),
            Self::FittingChunksRead => matches!(case.operation, Operation::ReadArray { .. }),
            Self::ZeroExtentRefused => case.decoded_shape.contains(&0),
            Self::AutoFromAlignment => {
                case.decoded_shape.contains(&0)
                    && shapes.iter().any(|shape| {
                        shape
                            .as_array()
                            .is_some_and(|items| items.iter().any(|item| item.as_i64() == Some(-1)))
                    })
            }
        }
    }
}

/// The reshape codec objects of the case (a bare configuration counts as one
/// with a name): every reshape in a chain, the codec object, or the configuration.
pub(crate) fn codecs(case: &Case) -> Vec<Value> {
    match &case.codec {
        CodecJson::Configuration(configuration) => {
            vec![serde_json::json!({"name": "reshape", "configuration": configuration})]
        }
        CodecJson::Codec(codec) => vec![codec.clone()],
        CodecJson::Chain(chain) => reshapes_in(chain),
    }
}

/// Every reshape codec object in a chain, sharding's inner chains included.
fn reshapes_in(chain: &Value) -> Vec<Value> {
    let mut found = Vec::new();
    for codec in chain.as_array().map(Vec::as_slice).unwrap_or_default() {
        if codec.get("name").and_then(Value::as_str) == Some("reshape") {
            found.push(codec.clone());
        }
        if let Some(configuration) = codec.get("configuration") {
            for inner in ["codecs", "index_codecs"] {
                if let Some(inner) = configuration.get(inner) {
                    found.extend(reshapes_in(inner));
                }
            }
        }
    }
    found
}

/// The `shape` member of every reshape of the case.
fn shapes(case: &Case) -> Vec<Value> {
    codecs(case)
        .iter()
        .filter_map(|codec| codec.get("configuration")?.get("shape").cloned())
        .collect()
}

/// The case's JSON with integral numbers spelled `2.0` or `1e1` written as
/// integers in its codec, if any was.
pub(crate) fn integral_rewrite(case: &Case) -> Option<Value> {
    let mut json = case.json.clone();
    let object = json.as_object_mut()?;
    let mut changed = false;
    for member in ["configuration", "codec", "codecs"] {
        if let Some(value) = object.get_mut(member) {
            changed |= integral_spellings(value);
        }
    }
    changed.then_some(json)
}

/// Whether an input dim of `shape` is written `-0`.
pub(crate) fn negative_zero_dim(shape: &Value) -> bool {
    shape.as_array().is_some_and(|items| {
        items
            .iter()
            .filter_map(Value::as_array)
            .flatten()
            .any(|dim| matches!(dim, Value::Number(number) if number.to_string().starts_with("-0")))
    })
}

/// Members the codec object and the configuration define (`must_understand` is
/// the core spec's, on every extension object).
const CODEC_MEMBERS: [&str; 3] = ["name", "configuration", "must_understand"];
const CONFIGURATION_MEMBERS: [&str; 1] = ["shape"];

/// The case's JSON without the unknown members marked `"must_understand": false`
/// of its codec object and configuration, if it had any.
pub(crate) fn optional_members_rewrite(case: &Case) -> Option<Value> {
    without_unknown_members(case, |value| {
        value.get("must_understand").and_then(Value::as_bool) == Some(false)
    })
}

/// The case's JSON without the unknown members of its codec object and of its
/// configuration for which `drop` holds, if it had any.
pub(crate) fn without_unknown_members(case: &Case, drop: impl Fn(&Value) -> bool) -> Option<Value> {
    let mut json = case.json.clone();
    let object = json.as_object_mut()?;
    let mut changed = false;
    let mut prune = |members: &mut serde_json::Map<String, Value>, known: &[&str]| {
        let before = members.len();
        members.retain(|name, value| known.contains(&name.as_str()) || !drop(value));
        changed |= members.len() != before;
    };
    if let Some(codec) = object.get_mut("codec").and_then(Value::as_object_mut) {
        prune(codec, &CODEC_MEMBERS);
        if let Some(configuration) = codec
            .get_mut("configuration")
            .and_then(Value::as_object_mut)
        {
            prune(configuration, &CONFIGURATION_MEMBERS);
        }
    }
    if let Some(configuration) = object
        .get_mut("configuration")
        .and_then(Value::as_object_mut)
    {
        prune(configuration, &CONFIGURATION_MEMBERS);
    }
    changed.then_some(json)
}

/// The case's JSON with every non-boolean `must_understand` of a codec object
/// removed (read as `true`, the default), if any was.
pub(crate) fn must_understand_rewrite(case: &Case) -> Option<Value> {
    let mut json = case.json.clone();
    let codec = json.as_object_mut()?.get_mut("codec")?.as_object_mut()?;
    let flag = codec.get("must_understand")?;
    if flag.is_boolean() {
        return None;
    }
    codec.remove("must_understand");
    Some(json)
}

/// Whether the case reads an array from disk or resolves a chain: the shape
/// reshape is handed is then not the case's `decoded_shape`.
pub(crate) fn shape_is_computed(case: &Case) -> bool {
    matches!(
        case.operation,
        Operation::ReadArray { .. }
            | Operation::ResolveChain { .. }
            | Operation::ResolveGrid { .. }
    )
}
