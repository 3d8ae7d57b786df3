//! Errors: one variant per broken rule; its class, clause and place in `shape`
//! come from the one `error_table!` below the enum.

use crate::clause::Clause;
use crate::error_class::ErrorClass;
use crate::position::{Argument, Position};

/// Everything that can go wrong when parsing, resolving or applying a reshape codec.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReshapeError {
    /// The configuration is beyond a resource limit of [`crate::limits`].
    #[error("{what} is {found}, beyond the limit of {limit} (limits.rank)")]
    ConfigurationTooLarge {
        /// What was counted, e.g. `len(shape)` or `the input dims of shape[0]`.
        what: String,
        /// How many there are.
        found: usize,
        /// The limit.
        limit: usize,
    },
    /// The decoded shape has more dimensions than [`crate::limits::MAX_RANK`].
    #[error("the decoded shape has rank {found}, beyond the limit of {limit} (limits.rank)")]
    RankTooLarge {
        /// The decoded rank.
        found: usize,
        /// The limit.
        limit: usize,
    },
    /// The text handed to a `*_json_str` function is not one JSON value: a syntax
    /// error, data after the value, or nesting deeper than
    /// [`crate::limits::MAX_JSON_DEPTH`].
    #[error("the {container} is not JSON: {message}")]
    NotJson {
        /// `codec object` or `configuration`.
        container: &'static str,
        /// What is wrong and where (line and column).
        message: String,
    },
    /// The codec object is not a JSON object.
    #[error("the codec must be a JSON object, found {found}")]
    CodecNotObject {
        /// The JSON type found.
        found: &'static str,
    },
    /// The codec object has no `name`.
    #[error("the codec object has no name member; it must be \"reshape\"")]
    MissingName,
    /// The codec's `name` is not `"reshape"`.
    #[error("the codec name must be \"reshape\", found {found}")]
    WrongName {
        /// The name member as found (JSON text).
        found: String,
    },
    /// The configuration is not a JSON object.
    #[error("the configuration must be a JSON object, found {found}")]
    ConfigurationNotObject {
        /// The JSON type found.
        found: &'static str,
    },
    /// A member the codec does not define.
    #[error("unknown member {member:?} in the {container}")]
    UnknownMember {
        /// `codec object` or `configuration`.
        container: &'static str,
        /// The member's name.
        member: String,
    },
    /// The codec object's `must_understand` is not a boolean (reading I-5: the
    /// core spec writes it as `true` or `false` and states no other type).
    #[error("must_understand must be true or false, found {found}")]
    MustUnderstandNotBoolean {
        /// The JSON type found.
        found: &'static str,
    },
    /// The configuration has no `shape`.
    #[error("the configuration has no shape member")]
    ShapeMissing,
    /// `shape` is not a JSON array.
    #[error("shape must be an array, found {found}")]
    ShapeNotArray {
        /// The JSON type found.
        found: &'static str,
    },
    /// An element, or an input dim, of the wrong JSON type.
    #[error("{at} must be {wanted}, found {found}")]
    WrongKind {
        /// Where.
        at: Position,
        /// What the position admits.
        wanted: &'static str,
        /// The JSON type found.
        found: &'static str,
    },
    /// A number with a fraction or an exponent (reading I-6).
    #[error("{at} is {text}, which is not written as an integer")]
    NotAnInteger {
        /// Where.
        at: Position,
        /// The number as written.
        text: String,
    },
    /// An integer element that is neither -1 nor positive.
    #[error("{at} is {value}: a size must be positive (or -1 for an automatic extent)")]
    InvalidSize {
        /// Where.
        at: Position,
        /// The integer as written.
        value: String,
    },
    /// A size that does not fit in 64 bits.
    #[error("{at} is {value}, a size beyond 64 bits")]
    SizeTooLarge {
        /// Where.
        at: Position,
        /// The integer as written.
        value: String,
    },
    /// A negative input dim.
    #[error("{at} is {value}: an input dim must not be negative")]
    NegativeInputDim {
        /// Where.
        at: Position,
        /// The integer as written.
        value: String,
    },
    /// -1 occurs more than once.
    #[error("-1 occurs at shape[{first}] and again at shape[{second}]; it may occur at most once")]
    RepeatedAuto {
        /// The element of the first -1.
        first: usize,
        /// The element of the second -1.
        second: usize,
    },
    /// The flattened input dims do not strictly increase.
    #[error(
        "input dims must strictly increase across shape, but {at} is {value} after {previous} at {previous_at}"
    )]
    InputDimsNotIncreasing {
        /// Where the offending dim is.
        at: Position,
        /// The offending dim.
        value: u64,
        /// Where the dim before it is.
        previous_at: Position,
        /// The dim before it.
        previous: u64,
    },
    /// An input dim beyond 64 bits: no decoded shape has that many dimensions.
    #[error("{at} is {value}, an input dim beyond any decoded rank")]
    InputDimTooLarge {
        /// Where.
        at: Position,
        /// The integer as written.
        value: String,
    },
    /// An input dim that is not below the decoded rank.
    #[error("{at} is input dim {value}, but the decoded shape has rank {rank}")]
    InputDimOutOfRange {
        /// Where.
        at: Position,
        /// The input dim.
        value: u64,
        /// The rank of the decoded shape.
        rank: usize,
    },
    /// A product that does not fit in 64 bits.
    #[error("{what} does not fit in 64 bits")]
    Overflow {
        /// The product, as a formula with its position.
        what: String,
    },
    /// ndarray refused a reshape or an array this crate asked for, though the
    /// element counts agree: short of a bug, ndarray's own bound on sizes
    /// (`isize`), so it keeps the class and clause of a size beyond 64 bits.
    #[error("ndarray refused {what}: {reason}")]
    NdarrayShape {
        /// What was asked of ndarray, e.g. `reshaping to [2, 3]`.
        what: String,
        /// ndarray's `ShapeError`, as it words it.
        reason: String,
    },
    /// -1 cannot be given an extent that makes the counts equal.
    #[error(
        "-1 at shape[{element}] cannot be determined: {}",
        auto_reason(*a_product, *others)
    )]
    AutoIndeterminate {
        /// The element holding -1.
        element: usize,
        /// `prod(A_shape)`.
        a_product: u64,
        /// The product of the other extents of `B_shape`.
        others: u64,
    },
    /// `prod(B_shape) != prod(A_shape)` with no -1 to absorb the difference.
    #[error("prod(B_shape) = {b_product} but prod(A_shape) = {a_product}; they must be equal")]
    ElementCountMismatch {
        /// `prod(B_shape)`.
        b_product: u64,
        /// `prod(A_shape)`.
        a_product: u64,
    },
    /// The prefix rule fails for the input dims at `shape[element]`.
    #[error(
        "shape[{element}] starts at input dim {first_dim}, but prod(B_shape[:{element}]) = {b_product} while prod(A_shape[:{first_dim}]) = {a_product}"
    )]
    PrefixMisaligned {
        /// The element `i` holding the input dims.
        element: usize,
        /// `input_dims[0]`.
        first_dim: u64,
        /// `prod(B_shape[:i])`.
        b_product: u64,
        /// `prod(A_shape[:input_dims[0]])`.
        a_product: u64,
    },
    /// The suffix rule fails for the input dims at `shape[element]`.
    #[error(
        "shape[{element}] ends at input dim {last_dim}, but prod(B_shape[{}:]) = {b_product} while prod(A_shape[{}:]) = {a_product}",
        element.saturating_add(1),
        last_dim.saturating_add(1)
    )]
    SuffixMisaligned {
        /// The element `i` holding the input dims.
        element: usize,
        /// `input_dims[k-1]`.
        last_dim: u64,
        /// `prod(B_shape[i+1:])`.
        b_product: u64,
        /// `prod(A_shape[input_dims[k-1]+1:])`.
        a_product: u64,
    },
    /// An array whose shape is not the one required.
    #[error("the {argument} has shape {found:?}, expected {expected:?}")]
    ShapeMismatch {
        /// Which argument.
        argument: Argument,
        /// The shape required.
        expected: Vec<u64>,
        /// The shape handed in.
        found: Vec<u64>,
    },
    /// An index or box whose rank is not the array's.
    #[error("the {argument} has rank {found}, expected rank {expected}")]
    RankMismatch {
        /// Which argument.
        argument: Argument,
        /// The array's rank.
        expected: usize,
        /// The rank handed in.
        found: usize,
    },
    /// An index, box or offset outside the array.
    #[error("the {argument} is outside the array: {detail}")]
    OutOfBounds {
        /// Which argument.
        argument: Argument,
        /// Where and by how much, e.g. `index 4 is not below extent 3 along dimension 1`.
        detail: String,
    },
}

/// The one table of what each error means: its class (comparable across
/// implementations), the clause it enforces, and the field that says where in
/// `shape` it is, if any. The compiler checks that every variant has its row;
/// adding a rule is its variant above and one row here.
macro_rules! error_table {
    ($($variant:ident => $class:ident, $clause:ident $(, $place:ident)?;)*) => {
        impl ReshapeError {
            /// The error's class, comparable across implementations.
            #[must_use]
            pub fn class(&self) -> ErrorClass {
                match self { $(Self::$variant { .. } => ErrorClass::$class,)* }
            }

            /// The clause the error enforces.
            #[must_use]
            pub fn clause(&self) -> Clause {
                match self { $(Self::$variant { .. } => Clause::$clause,)* }
            }

            /// Where in `shape` the rule was broken, for errors that have a place there.
            #[must_use]
            pub fn position(&self) -> Option<Position> {
                match self { $(Self::$variant { .. } => error_table!(@at self, $variant $(, $place)?),)* }
            }
        }
    };
    (@at $error:ident, $variant:ident) => { None };
    (@at $error:ident, $variant:ident, $place:ident) => {
        match $error {
            Self::$variant { $place, .. } => Some(Place::place($place)),
            _ => None,
        }
    };
}

/// A field that says where in `shape`: a [`Position`], or the index of an element.
trait Place {
    fn place(&self) -> Position;
}

impl Place for Position {
    fn place(&self) -> Position {
        *self
    }
}

impl Place for usize {
    fn place(&self) -> Position {
        Position::element(*self)
    }
}

error_table! {
    // variant             => class,                  clause,               where
    NotJson                => MalformedConfiguration, ConfigurationMembers;
    CodecNotObject         => MalformedConfiguration, CodecName;
    MissingName            => MalformedConfiguration, CodecName;
    WrongName              => MalformedConfiguration, CodecName;
    ConfigurationNotObject => MalformedConfiguration, ConfigurationMembers;
    UnknownMember          => MalformedConfiguration, CoreMustUnderstand;
    MustUnderstandNotBoolean => MalformedConfiguration, ConfigurationMembers;
    ShapeMissing           => MalformedConfiguration, ConfigurationMembers;
    ShapeNotArray          => MalformedConfiguration, ConfigurationMembers;
    WrongKind              => MalformedConfiguration, ShapeElement,         at;
    NotAnInteger           => MalformedConfiguration, ShapeElement,         at;
    NegativeInputDim       => MalformedConfiguration, ShapeInputDims,       at;
    ConfigurationTooLarge  => MalformedConfiguration, LimitsRank;
    InvalidSize            => InvalidSize,            ShapeSize,            at;
    SizeTooLarge           => Overflow,               LimitsU64,            at;
    Overflow               => Overflow,               LimitsU64;
    NdarrayShape           => Overflow,               LimitsU64;
    RepeatedAuto           => RepeatedAuto,           ShapeAutoOnce,        second;
    InputDimsNotIncreasing => InputDimsNotIncreasing, InputDimsIncreasing,  at;
    InputDimTooLarge       => InputDimOutOfRange,     InputDimsRange,       at;
    InputDimOutOfRange     => InputDimOutOfRange,     InputDimsRange,       at;
    AutoIndeterminate      => ElementCountMismatch,   ShapeAutoValue,       element;
    ElementCountMismatch   => ElementCountMismatch,   ShapeInvariant;
    PrefixMisaligned       => InputDimsMisaligned,    InputDimsPrefix,      element;
    SuffixMisaligned       => InputDimsMisaligned,    InputDimsSuffix,      element;
    ShapeMismatch          => ShapeMismatch,          AlgorithmRavel;
    RankMismatch           => ShapeMismatch,          AlgorithmRavel;
    RankTooLarge           => ShapeMismatch,          LimitsRank;
    OutOfBounds            => OutOfBounds,            AlgorithmRavel;
}

/// Why -1 has no extent: no integer works, or (with a zero extent) every one does.
pub(crate) fn auto_reason(a_product: u64, others: u64) -> String {
    match (others, a_product) {
        (0, 0) => "the other extents multiply to 0, so every extent satisfies the invariant".into(),
        (0, _) => format!(
            "the other extents multiply to 0, so no extent gives prod(A_shape) = {a_product}"
        ),
        _ => format!(
            "prod(A_shape) = {a_product} is not a multiple of {others}, the product of the other extents"
        ),
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = ReshapeError> = std::result::Result<T, E>;
