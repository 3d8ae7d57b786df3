//! The proptest strategies behind `zarr-reshape fuzz`: drafts of cases that reach
//! the corners of the codec (extents 0 and 1, ranks 0 to the 256 limit and past it,
//! products at and past 2^53, 2^63 and 2^64, -1 anywhere, empty and multi-dimension
//! groups, every JSON type in every slot, boxes at the edges of huge shapes, float
//! data with -0.0, NaN, infinities and subnormals).
//!
//! A [`Draft`] is built from small choices rather than final JSON, so that proptest's
//! shrinking (fewer elements, smaller numbers, earlier alternatives) moves towards
//! simple, valid cases; [`super::render`] turns it into a vector case.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

use crate::arrays::DataType;

/// Numbers written as JSON text, so that values beyond 64 bits stay exact.
pub const SPECIAL_NUMBERS: &[&str] = &[
    "1",
    "2",
    "3",
    "0",
    "-2",
    "-1",
    "9007199254740992",
    "9007199254740993",
    "4294967297",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
];

/// JSON of the wrong type, or of an unusual spelling, for a slot of `shape`.
pub const ODD_JSON: &[&str] = &[
    "\"2\"",
    "true",
    "null",
    "2.0",
    "1e1",
    "1.5",
    "-1.0",
    "{}",
    "[[0]]",
    "[\"0\"]",
    "[0.0]",
    "[-1]",
    "[18446744073709551616]",
    "-0",
    "1E400",
];

/// Large extents of the decoded shape: products of two or three of them reach 2^53,
/// 2^63 and 2^64 and go past them.
pub const LARGE_EXTENTS: &[u64] = &[
    1 << 32,
    (1 << 32) + 1,
    3_037_000_499,
    1 << 53,
    (1 << 53) + 1,
    1 << 63,
    u64::MAX,
];

/// One element of `shape`, as a choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Element {
    /// The next `n` decoded dims as input dims (`[]` when `n` is 0).
    Group(usize),
    /// The product of the next `n` decoded dims as a size.
    GroupSize(usize),
    /// -1 in place of the next `n` decoded dims.
    GroupAuto(usize),
    /// A literal number (index into [`SPECIAL_NUMBERS`]).
    Number(usize),
    /// Literal input dims, possibly out of order, negative or out of range.
    Dims(Vec<i64>),
    /// JSON of the wrong type (index into [`ODD_JSON`]).
    Odd(usize),
}

/// How the configuration is wrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrapper {
    /// `{"shape": [...]}` as the case's `configuration`.
    Plain,
    /// The whole codec object `{"name": "reshape", "configuration": ...}`.
    Codec,
    /// A codec object with another name.
    WrongName,
    /// An unknown member beside `shape`.
    ExtraMember,
    /// No `shape` member.
    NoShape,
    /// `shape` is not an array.
    ShapeNotArray,
}

/// Where a coordinate lies along its dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coordinate {
    /// 0.
    First,
    /// The last index.
    Last,
    /// The middle.
    Middle,
    /// One past the last.
    Past,
    /// -1.
    Negative,
}

/// What an operation is handed besides the codec.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// Nothing: resolve.
    Resolve,
    /// An array to encode or decode.
    Array {
        /// Decode when true, encode otherwise.
        decode: bool,
        /// The data type.
        data_type: DataType,
        /// Element values: `None` is the element's own index, `Some(k)` a special value.
        values: Vec<Option<usize>>,
        /// The array's shape when it is not the one the operation needs.
        wrong_shape: Option<Vec<u64>>,
    },
    /// A decoded coordinate to map.
    Index {
        /// One choice per decoded dim.
        coordinates: Vec<Coordinate>,
        /// Drop or add a dimension.
        rank_change: i8,
    },
    /// A decoded box to map.
    Region {
        /// Start and length per decoded dim.
        sides: Vec<(Coordinate, u64)>,
        /// Start after stop in the first dimension.
        reversed: bool,
        /// Drop or add a dimension.
        rank_change: i8,
    },
}

/// A case in the making.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// A_shape.
    pub decoded_shape: Vec<u64>,
    /// The elements of `shape`.
    pub elements: Vec<Element>,
    /// Whether the groups are stretched to cover every decoded dim exactly.
    pub complete: bool,
    /// How the configuration is wrapped.
    pub wrapper: Wrapper,
    /// The operation and its operand.
    pub operand: Operand,
}

fn extent() -> impl Strategy<Value = u64> {
    prop_oneof![
        12 => 1_u64..=5,
        2 => Just(1_u64),
        1 => Just(0_u64),
        1 => select(LARGE_EXTENTS),
    ]
}

/// A_shape: mostly of rank 0 to 5, sometimes up to 12, rarely at the 256 limit and
/// past it. Built as a base and optional extra dims (rather than alternatives of
/// several ranks) so that shrinking can drop the extra dims: a vector drawn with a
/// minimum length never shrinks below it.
pub fn decoded_shape() -> impl Strategy<Value = Vec<u64>> {
    let extra = prop_oneof![
        30 => Just(Vec::new()),
        3 => vec(extent(), 1..=7),
        1 => vec(prop_oneof![15 => Just(1_u64), 1 => Just(2_u64)], 250..=252),
    ];
    (vec(extent(), 0..=5), extra).prop_map(|(mut base, extra)| {
        base.extend(extra);
        base
    })
}

fn element() -> impl Strategy<Value = Element> {
    prop_oneof![
        12 => (0_usize..=3).prop_map(Element::Group),
        6 => (1_usize..=3).prop_map(Element::GroupSize),
        4 => (1_usize..=2).prop_map(Element::GroupAuto),
        2 => (0..SPECIAL_NUMBERS.len()).prop_map(Element::Number),
        2 => vec(-1_i64..=6, 0..=3).prop_map(Element::Dims),
        1 => (0..ODD_JSON.len()).prop_map(Element::Odd),
    ]
}

fn wrapper() -> impl Strategy<Value = Wrapper> {
    prop_oneof![
        40 => Just(Wrapper::Plain),
        3 => Just(Wrapper::Codec),
        1 => Just(Wrapper::WrongName),
        1 => Just(Wrapper::ExtraMember),
        1 => Just(Wrapper::NoShape),
        1 => Just(Wrapper::ShapeNotArray),
    ]
}

fn coordinate() -> impl Strategy<Value = Coordinate> {
    prop_oneof![
        4 => Just(Coordinate::First),
        3 => Just(Coordinate::Last),
        3 => Just(Coordinate::Middle),
        1 => Just(Coordinate::Past),
        1 => Just(Coordinate::Negative),
    ]
}

fn rank_change() -> impl Strategy<Value = i8> {
    prop_oneof![20 => Just(0_i8), 1 => Just(-1_i8), 1 => Just(1_i8)]
}

fn operand(operation: &str) -> BoxedStrategy<Operand> {
    match operation {
        "encode" | "decode" => {
            let decode = operation == "decode";
            (
                select(DataType::ALL),
                vec(
                    prop_oneof![4 => Just(None), 1 => (0_usize..8).prop_map(Some)],
                    1..=24,
                ),
                prop_oneof![12 => Just(None), 1 => vec(1_u64..=4, 0..=3).prop_map(Some)],
            )
                .prop_map(move |(data_type, values, wrong_shape)| Operand::Array {
                    decode,
                    data_type,
                    values,
                    wrong_shape,
                })
                .boxed()
        }
        "map-index" => (vec(coordinate(), 0..=12), rank_change())
            .prop_map(|(coordinates, rank_change)| Operand::Index {
                coordinates,
                rank_change,
            })
            .boxed(),
        "map-region" => (
            vec((coordinate(), 0_u64..=2), 0..=12),
            prop_oneof![12 => Just(false), 1 => Just(true)],
            rank_change(),
        )
            .prop_map(|(sides, reversed, rank_change)| Operand::Region {
                sides,
                reversed,
                rank_change,
            })
            .boxed(),
        _ => Just(Operand::Resolve).boxed(),
    }
}

/// Drafts of cases of the given operations (names of the adapter protocol; others
/// are ignored, and none at all gives resolve cases).
pub fn draft(operations: &[String]) -> BoxedStrategy<Draft> {
    // The operations a draft may take: the first vector format's, by the names
    // of the adapter protocol.
    let known: Vec<&'static str> = crate::wire::OPERATIONS
        .iter()
        .copied()
        .filter(|op| operations.iter().any(|given| given == op))
        .collect();
    let known = if known.is_empty() {
        vec!["resolve"]
    } else {
        known
    };
    let operand = select(known).prop_flat_map(operand);
    (
        decoded_shape(),
        vec(element(), 0..=6),
        prop_oneof![5 => Just(true), 1 => Just(false)],
        wrapper(),
        operand,
    )
        .prop_map(
            |(decoded_shape, elements, complete, wrapper, operand)| Draft {
                decoded_shape,
                elements,
                complete,
                wrapper,
                operand,
            },
        )
        .boxed()
}
