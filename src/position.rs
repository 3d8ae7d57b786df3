//! Where a rule was broken (`shape[i]`, `shape[i][j]`) and which argument of
//! encode, decode or mapping was ill-shaped: the vocabulary that errors and the
//! trace share. Uses nothing else of the crate.

use std::fmt;

/// Where in `shape` a rule was broken: `shape[i]`, or `shape[i][j]` inside input dims.
///
/// ```
/// use zarr_reshape::Position;
/// assert_eq!(Position::element(2).to_string(), "shape[2]");
/// assert_eq!(Position::input_dim(0, 1).to_string(), "shape[0][1]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Index `i` of the element of `shape`.
    pub element: usize,
    /// Index `j` inside the element's input dims, if the fault is there.
    pub input_dim: Option<usize>,
}

impl Position {
    /// `shape[element]`: the whole element.
    #[must_use]
    pub const fn element(element: usize) -> Self {
        Self {
            element,
            input_dim: None,
        }
    }

    /// `shape[element][input_dim]`: one input dim of an element.
    #[must_use]
    pub const fn input_dim(element: usize, input_dim: usize) -> Self {
        Self {
            element,
            input_dim: Some(input_dim),
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.input_dim {
            None => write!(f, "shape[{}]", self.element),
            Some(j) => write!(f, "shape[{}][{j}]", self.element),
        }
    }
}

/// What an ill-shaped argument of encode, decode or mapping was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Argument {
    /// The array handed to encode.
    DecodedArray,
    /// The array handed to decode.
    EncodedArray,
    /// A coordinate in the decoded array.
    DecodedIndex,
    /// A coordinate in the encoded array.
    EncodedIndex,
    /// A box of the decoded array.
    DecodedRegion,
}

impl fmt::Display for Argument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::DecodedArray => "decoded array",
            Self::EncodedArray => "encoded array",
            Self::DecodedIndex => "decoded index",
            Self::EncodedIndex => "encoded index",
            Self::DecodedRegion => "decoded region",
        })
    }
}
