//! Step 4 of the data flow, spec section "Format and algorithm": encode A to B and
//! decode B to A, keeping C order (`ravel(B) == ravel(A)`), as a view whenever the
//! layout allows. One function per clause: `algorithm.rank`, `algorithm.ravel`,
//! `algorithm.view`.

use ndarray::{ArrayBase, CowArray, Data, IxDyn, Order};

use crate::codec::ReshapeCodec;
use crate::error::{ReshapeError, Result};
use crate::limits::array_dims;
use crate::position::Argument;
use crate::strided;

impl ReshapeCodec {
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
        check_shape(
            decoded.shape(),
            self.decoded_shape(),
            Argument::DecodedArray,
        )?;
        algorithm_ravel(decoded, &algorithm_rank(self.encoded_shape())?)
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
        check_shape(
            encoded.shape(),
            self.encoded_shape(),
            Argument::EncodedArray,
        )?;
        algorithm_ravel(encoded, &array_dims(self.decoded_shape())?)
    }
}

/// algorithm.rank: B has one dimension per element of `shape`, the extents of
/// `b_shape` (which resolution built one per element), as ndarray dimensions.
///
/// zarr-extensions codecs/reshape, "Format and algorithm": "The dimensionality of the
/// output array B is equal to the length of the shape configuration parameter, ..."
fn algorithm_rank(b_shape: &[u64]) -> Result<Vec<usize>> {
    array_dims(b_shape)
}

/// algorithm.ravel: `ravel(B) == ravel(A)`, so `array` is reshaped to `to` in C
/// (row-major) order, never transposed; a view whenever algorithm.view allows.
///
/// zarr-extensions codecs/reshape, "Format and algorithm": "As this codec does NOT alter
/// the lexicographical order of elements, the contents of the output array B are related to
/// the contents of the input array A by: ravel(B) == ravel(A)."
fn algorithm_ravel<'a, A, S>(
    array: &'a ArrayBase<S, IxDyn>,
    to: &[usize],
) -> Result<CowArray<'a, A, IxDyn>>
where
    A: Clone,
    S: Data<Elem = A>,
{
    // The element counts agree (shape.invariant held at resolve), so only an
    // inconsistency between ndarray and this crate could fail here.
    let failed = |error: ndarray::ShapeError| ReshapeError::NdarrayShape {
        what: format!("reshaping to {to:?}"),
        reason: error.to_string(),
    };
    if algorithm_view(array.shape(), array.strides(), to) {
        return array.to_shape((IxDyn(to), Order::RowMajor)).map_err(failed);
    }
    let copy = strided::c_order(&array.view());
    copy.into_shape_with_order((IxDyn(to), Order::RowMajor))
        .map(CowArray::from)
        .map_err(failed)
}

/// algorithm.view: a view rather than a copy, whenever the strides allow it.
/// ndarray's `to_shape` borrows when they do; when they do not, the one copy is
/// made by `strided::c_order`, which is faster than ndarray's.
///
/// zarr-extensions codecs/reshape, "Format and algorithm": "Implementations should, when
/// possible, construct a virtual view rather than copy the array."
fn algorithm_view(shape: &[usize], strides: &[isize], to: &[usize]) -> bool {
    strided::reshapes_as_view(shape, strides, to)
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
