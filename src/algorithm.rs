//! Spec section "Format and algorithm": encode A to B and decode B to A, keeping
//! C order (`ravel(B) == ravel(A)`), as a view whenever the layout allows.

use ndarray::{ArrayBase, CowArray, Data, IxDyn, Order};

use crate::configuration::ReshapeConfiguration;
use crate::error::{Argument, ReshapeError, Result};
use crate::limits::array_dims;
use crate::strided;

/// What an array-to-array codec knows about a chunk: its shape, data type and fill value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkRepresentation<D, F> {
    /// The chunk's shape.
    pub shape: Vec<u64>,
    /// The data type, in whatever form the caller uses.
    pub data_type: D,
    /// The fill value, in whatever form the caller uses.
    pub fill_value: F,
}

impl ReshapeConfiguration {
    /// The encoded representation of a decoded chunk: `B_shape`, with the data type
    /// and fill value unchanged (reshape moves no element and changes no value).
    ///
    /// # Errors
    /// As [`ReshapeConfiguration::resolve`].
    pub fn encoded_representation<D: Clone, F: Clone>(
        &self,
        decoded: &ChunkRepresentation<D, F>,
    ) -> Result<ChunkRepresentation<D, F>> {
        Ok(ChunkRepresentation {
            shape: self.resolve(&decoded.shape)?,
            data_type: decoded.data_type.clone(),
            fill_value: decoded.fill_value.clone(),
        })
    }
}

/// A reshape codec resolved for one decoded chunk shape: `A_shape` and `B_shape` fixed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReshapeCodec {
    configuration: ReshapeConfiguration,
    a_shape: Vec<u64>,
    b_shape: Vec<u64>,
}

impl ReshapeCodec {
    /// Resolves `configuration` for chunks of shape `decoded_shape`.
    ///
    /// # Errors
    /// As [`ReshapeConfiguration::resolve`].
    pub fn new(configuration: ReshapeConfiguration, decoded_shape: &[u64]) -> Result<Self> {
        let b_shape = configuration.resolve(decoded_shape)?;
        Ok(Self {
            configuration,
            a_shape: decoded_shape.to_vec(),
            b_shape,
        })
    }

    /// The configuration this codec was resolved from.
    #[must_use]
    pub fn configuration(&self) -> &ReshapeConfiguration {
        &self.configuration
    }

    /// `A_shape`, the decoded chunk shape.
    #[must_use]
    pub fn decoded_shape(&self) -> &[u64] {
        &self.a_shape
    }

    /// `B_shape`, the encoded chunk shape; its rank is `len(shape)` (algorithm.rank).
    #[must_use]
    pub fn encoded_shape(&self) -> &[u64] {
        &self.b_shape
    }

    /// Encodes a decoded chunk A into B, keeping the elements' C order; the result
    /// borrows `decoded` whenever its strides allow (also for many non-standard
    /// layouts), and is one copy otherwise.
    ///
    /// # Errors
    /// `shape-mismatch` when `decoded` does not have shape `A_shape`; `overflow`
    /// when `B_shape` is beyond [`crate::limits::MAX_ARRAY_SPAN`] on this platform.
    pub fn encode<'a, A, S>(
        &self,
        decoded: &'a ArrayBase<S, IxDyn>,
    ) -> Result<CowArray<'a, A, IxDyn>>
    where
        A: Clone,
        S: Data<Elem = A>,
    {
        reshape(
            decoded,
            &self.a_shape,
            &self.b_shape,
            Argument::DecodedArray,
        )
    }

    /// Decodes an encoded chunk B back into A, the inverse of [`Self::encode`].
    ///
    /// # Errors
    /// `shape-mismatch` when `encoded` does not have shape `B_shape`; `overflow`
    /// when `A_shape` is beyond [`crate::limits::MAX_ARRAY_SPAN`] on this platform.
    pub fn decode<'a, A, S>(
        &self,
        encoded: &'a ArrayBase<S, IxDyn>,
    ) -> Result<CowArray<'a, A, IxDyn>>
    where
        A: Clone,
        S: Data<Elem = A>,
    {
        reshape(
            encoded,
            &self.b_shape,
            &self.a_shape,
            Argument::EncodedArray,
        )
    }
}

/// Reshapes `array` (which must have shape `from`) to `to` in C order.
fn reshape<'a, A, S>(
    array: &'a ArrayBase<S, IxDyn>,
    from: &[u64],
    to: &[u64],
    argument: Argument,
) -> Result<CowArray<'a, A, IxDyn>>
where
    A: Clone,
    S: Data<Elem = A>,
{
    check_shape(array.shape(), from, argument)?;
    // algorithm.rank: B has len(shape) dimensions, since `to` is B_shape.
    let to = array_dims(to)?;
    // algorithm.ravel: ravel(B) == ravel(A), so reshape in C (row-major) order.
    // algorithm.view: ndarray's to_shape borrows whenever the strides allow; when
    // they do not, the one copy is made by `strided::c_order`, which is faster.
    // The element counts agree (shape.invariant held at resolve), so only an
    // inconsistency between ndarray and this crate could fail here.
    let failed = |error: ndarray::ShapeError| ReshapeError::Overflow {
        what: format!("reshaping to {to:?}: {error}"),
    };
    if strided::reshapes_as_view(array.shape(), array.strides(), &to) {
        return array
            .to_shape((IxDyn(&to), Order::RowMajor))
            .map_err(failed);
    }
    let copy = strided::c_order(&array.view());
    copy.into_shape_with_order((IxDyn(&to), Order::RowMajor))
        .map(CowArray::from)
        .map_err(failed)
}

/// `shape-mismatch` unless the array's `shape` is `expected`.
pub(crate) fn check_shape(shape: &[usize], expected: &[u64], argument: Argument) -> Result<()> {
    let same = shape.len() == expected.len()
        && shape
            .iter()
            .zip(expected)
            .all(|(extent, expected)| u64::try_from(*extent).ok() == Some(*expected));
    if same {
        return Ok(());
    }
    Err(ReshapeError::ShapeMismatch {
        argument,
        expected: expected.to_vec(),
        found: to_u64(shape),
    })
}

fn to_u64(shape: &[usize]) -> Vec<u64> {
    shape
        .iter()
        .map(|extent| u64::try_from(*extent).unwrap_or(u64::MAX))
        .collect()
}
