//! Resource limits (clause `limits.rank`, reading I-10): bounds that a hostile
//! `zarr.json` cannot get past. Each is checked before any work that depends on
//! it, with a clear error class; resolution and mapping never allocate in
//! proportion to the number of elements of the array, only to the rank.
//!
//! | Bound | Limit | Error class |
//! |---|---|---|
//! | `len(shape)`, the encoded rank | [`MAX_SHAPE_LEN`] | `malformed-configuration` |
//! | input dims in one element of `shape` | [`MAX_INPUT_DIMS`] | `malformed-configuration` |
//! | the decoded rank, `len(A_shape)` | [`MAX_RANK`] | `shape-mismatch` |
//! | nesting depth of the JSON text | [`MAX_JSON_DEPTH`] (serde_json's recursion limit) | `malformed-configuration` from the `*_json_str` functions; with a `Value`, the caller's parse error |
//! | length of the JSON text handed to a `*_json_str` function | [`MAX_JSON_TEXT_LEN`] | `malformed-configuration` |
//! | an array's shape handed to or made by encode, decode, partial decode | [`MAX_ARRAY_SPAN`] | `overflow` |
//!
//! Sizes, extents and products are bounded by 64 bits (clause `limits.u64`).

use crate::error::{ReshapeError, Result};

/// The largest decoded rank accepted by resolution (and so by every operation).
/// Zarr arrays in practice have a handful of dimensions; NumPy caps them at 64.
pub const MAX_RANK: usize = 256;

/// The largest number of elements of `shape`, the encoded rank.
pub const MAX_SHAPE_LEN: usize = MAX_RANK;

/// The largest number of input dims in one element of `shape`. Input dims strictly
/// increase and stay below the decoded rank, so a valid element never has more
/// than [`MAX_RANK`].
pub const MAX_INPUT_DIMS: usize = MAX_RANK;

/// The nesting of arrays and objects at which JSON text is refused: serde_json's
/// recursion limit, which `serde_json::from_str` and `from_slice` enforce with a
/// "recursion limit exceeded" error (they take 127 levels, not 128). The
/// `*_json_str` functions refuse the same text, as `malformed-configuration`,
/// wherever the nesting is (even in a member the codec does not read). A valid
/// codec object nests 4 deep.
pub const MAX_JSON_DEPTH: usize = 128;

/// The longest JSON text, in bytes, that `ReshapeConfiguration::from_json_str`,
/// `from_codec_json_str` and the `explain_*json_str` functions read: 1 MiB. A
/// configuration within the other limits is a few kilobytes even pretty-printed;
/// longer text is `malformed-configuration` (clause `limits.rank`) before any of it
/// is parsed.
pub const MAX_JSON_TEXT_LEN: usize = 1 << 20;

/// The largest extent, and the largest product of the non-zero extents, of an
/// array that encode, decode and partial decoding build: `isize::MAX`, the bound
/// ndarray puts on every shape (it panics beyond it). A resolved shape beyond it,
/// such as `[0, 2^64 - 1]` (no element, but extents past `isize`), is valid for
/// the spec and resolves, but encoding or decoding to it is `overflow` (clause
/// `limits.u64`, reading I-7: a size this platform cannot hold), never a panic.
pub const MAX_ARRAY_SPAN: usize = isize::MAX.unsigned_abs();

/// `shape` as ndarray dimensions, when every extent and the product of the
/// non-zero extents are at most [`MAX_ARRAY_SPAN`] (ndarray panics beyond it,
/// even for a shape that holds no element). The one check of this bound: the
/// codec and the suite's array readers all go through it.
///
/// # Errors
/// `overflow` naming the extent or the product that does not fit.
pub fn array_dims(shape: &[u64]) -> Result<Vec<usize>> {
    let too_large = |what: String| ReshapeError::Overflow {
        what: format!(
            "{what} of the array shape {shape:?} on this platform (at most isize::MAX, {MAX_ARRAY_SPAN})"
        ),
    };
    let mut span: usize = 1;
    shape
        .iter()
        .map(|extent| {
            let dim = usize::try_from(*extent)
                .ok()
                .filter(|dim| *dim <= MAX_ARRAY_SPAN)
                .ok_or_else(|| too_large(format!("extent {extent}")))?;
            if dim != 0 {
                span = span
                    .checked_mul(dim)
                    .filter(|span| *span <= MAX_ARRAY_SPAN)
                    .ok_or_else(|| too_large("the product of the non-zero extents".into()))?;
            }
            Ok(dim)
        })
        .collect()
}
