//! One judged pair: the library's verdict and the oracle's, side by side.

use zarr_reshape::{ReshapeError, ShapeElement};

use super::oracle::OracleResult;

/// The library's verdict: `B_shape`, or the error.
pub type Literal = Result<Vec<u64>, ReshapeError>;

/// One judged pair.
#[derive(Debug, Clone)]
pub struct Example {
    /// Position in the domain's enumeration.
    pub index: usize,
    /// The `shape` parameter.
    pub configuration: Vec<ShapeElement>,
    /// `A_shape`.
    pub a_shape: Vec<u64>,
    /// The library's verdict.
    pub literal: Literal,
    /// The oracle's.
    pub oracle: OracleResult,
}

impl Example {
    /// How small the pair is: fewest dimensions in all, then fewest decoded
    /// elements, then first enumerated.
    #[must_use]
    pub fn size_key(&self) -> (usize, u64, usize) {
        size_key(&self.configuration, &self.a_shape, self.index)
    }
}

/// The order "smallest" means for a pair: fewest dimensions in all, then fewest
/// decoded elements, then first enumerated.
#[must_use]
pub fn size_key(
    configuration: &[ShapeElement],
    a_shape: &[u64],
    index: usize,
) -> (usize, u64, usize) {
    let elements = a_shape
        .iter()
        .try_fold(1_u64, |acc, extent| acc.checked_mul(*extent))
        .unwrap_or(u64::MAX);
    (
        configuration.len().saturating_add(a_shape.len()),
        elements,
        index,
    )
}
