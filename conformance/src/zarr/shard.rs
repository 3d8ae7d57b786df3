//! The byte layout of a shard (core spec, "Sharding codec"): the inner chunks
//! stored one after the other, and the index, one `(offset, nbytes)` pair of
//! `uint64` per inner chunk (C order of the inner chunk coordinates), encoded
//! through `index_codecs` and stored at the end (`index_location: "end"`, the
//! default) or at the start of the shard. Offsets count from the shard's first
//! byte, the index included when it comes first. The pair `(2^64 - 1, 2^64 - 1)`
//! marks an inner chunk that is not stored: it reads as the fill value.
//!
//! The sharding step of a chain (decoding and encoding through the inner chains)
//! is [`super::chain`]'s; here only what needs no chain: where the index lies,
//! which bytes an index entry names, and the shard assembled. Every offset and
//! length is checked against the shard with checked arithmetic.

use std::ops::Range;

use super::ZarrError;

/// The most inner chunks one shard may hold: 2^16, as many as one read may touch
/// chunks ([`super::MAX_CHUNKS_READ`]). The index alone holds 16 bytes per inner
/// chunk, and every inner chunk of a shard a read touches is decoded on its own:
/// a tiny `zarr.json` asking for inner chunks of one element in a shard of
/// millions is refused when the array is opened (`malformed-configuration`).
pub const MAX_INNER_CHUNKS: u64 = 1 << 16;

/// The index entry of an inner chunk that is not stored.
pub(crate) const MISSING: u64 = u64::MAX;

/// Where the encoded index lies in a shard of `total` bytes.
///
/// # Errors
/// `malformed-configuration` when the shard is shorter than the index.
pub(crate) fn index_range(
    total: usize,
    index_bytes: usize,
    at_start: bool,
) -> Result<Range<usize>, ZarrError> {
    let rest = total.checked_sub(index_bytes).ok_or_else(|| {
        ZarrError::malformed(format!(
            "a shard of {total} bytes is shorter than its index of {index_bytes} bytes"
        ))
    })?;
    Ok(if at_start {
        0..index_bytes
    } else {
        rest..total
    })
}

/// The bytes of one inner chunk named by its index entry, in a shard of `total`
/// bytes; `None` for the missing entry `(2^64 - 1, 2^64 - 1)`.
///
/// # Errors
/// `malformed-configuration` for an entry with only one of the two at 2^64 - 1,
/// or one that reaches beyond the shard.
pub(crate) fn entry_range(
    offset: u64,
    nbytes: u64,
    total: usize,
) -> Result<Option<Range<usize>>, ZarrError> {
    if offset == MISSING && nbytes == MISSING {
        return Ok(None);
    }
    let beyond = || {
        ZarrError::malformed(format!(
            "the shard index names bytes {offset} + {nbytes}, beyond the shard of {total} bytes"
        ))
    };
    let end = offset.checked_add(nbytes).ok_or_else(beyond)?;
    let start = usize::try_from(offset).map_err(|_| beyond())?;
    let end = usize::try_from(end).map_err(|_| beyond())?;
    if end > total {
        return Err(beyond());
    }
    Ok(Some(start..end))
}

/// A shard: the encoded index before or after the inner chunks' bytes.
pub(crate) fn assemble(data: Vec<u8>, index: Vec<u8>, at_start: bool) -> Vec<u8> {
    let (mut first, second) = if at_start {
        (index, data)
    } else {
        (data, index)
    };
    first.extend(second);
    first
}

/// A count as `u64`, for an index entry.
///
/// # Errors
/// `malformed-configuration` beyond `u64` (never on the platforms served).
pub(crate) fn entry_value(count: usize) -> Result<u64, ZarrError> {
    u64::try_from(count)
        .map_err(|_| ZarrError::malformed("a shard larger than this writer's limit"))
}
