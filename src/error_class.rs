//! The closed set of error classes shared by every implementation under test.
//! Uses nothing else of the crate.

use std::fmt;

/// The closed set of error classes shared by every implementation under test
/// (see `spec-cases/README.md`). Messages may change; classes do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorClass {
    /// The JSON does not have the form of a reshape codec.
    MalformedConfiguration,
    /// An integer element that is neither -1 nor positive.
    InvalidSize,
    /// -1 more than once.
    RepeatedAuto,
    /// The flattened input dims do not strictly increase.
    InputDimsNotIncreasing,
    /// An input dim is not below the decoded rank.
    InputDimOutOfRange,
    /// `prod(B_shape) == prod(A_shape)` cannot hold.
    ElementCountMismatch,
    /// The prefix or the suffix rule fails.
    InputDimsMisaligned,
    /// A size or a product does not fit in 64 bits.
    Overflow,
    /// An array, index or box of the wrong shape or rank.
    ShapeMismatch,
    /// An index or box outside the decoded array.
    OutOfBounds,
}

impl ErrorClass {
    /// Every class, in the order of the table in `spec-cases/README.md`.
    pub const ALL: &'static [ErrorClass] = &[
        Self::MalformedConfiguration,
        Self::InvalidSize,
        Self::RepeatedAuto,
        Self::InputDimsNotIncreasing,
        Self::InputDimOutOfRange,
        Self::ElementCountMismatch,
        Self::InputDimsMisaligned,
        Self::Overflow,
        Self::ShapeMismatch,
        Self::OutOfBounds,
    ];

    /// The class name used in vectors and the adapter protocol.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MalformedConfiguration => "malformed-configuration",
            Self::InvalidSize => "invalid-size",
            Self::RepeatedAuto => "repeated-auto",
            Self::InputDimsNotIncreasing => "input-dims-not-increasing",
            Self::InputDimOutOfRange => "input-dim-out-of-range",
            Self::ElementCountMismatch => "element-count-mismatch",
            Self::InputDimsMisaligned => "input-dims-misaligned",
            Self::Overflow => "overflow",
            Self::ShapeMismatch => "shape-mismatch",
            Self::OutOfBounds => "out-of-bounds",
        }
    }

    /// The class with this name, if there is one.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|class| class.as_str() == name)
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
