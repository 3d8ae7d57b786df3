//! The innermost partial decoder under zarrs' reshape partial decoder: an encoded
//! chunk whose every element holds its own C-order position in the encoded shape.
//!
//! zarrs' `ReshapeCodec::partial_decoder` maps the decoded selection to encoded
//! indices and asks its input handle for them; the values that come back through
//! zarrs are therefore exactly the encoded positions zarrs selected, in the order
//! it returns them. Nothing is materialised, so any encoded shape can be probed.

use zarrs::array::{
    ArrayBytes, ArrayPartialDecoderTraits, CodecError, CodecOptions, DataType, Indexer,
};
use zarrs::storage::StorageError;

/// A uint64 chunk of `encoded_shape` whose element at position p holds p.
pub struct Probe {
    encoded_shape: Vec<u64>,
    data_type: DataType,
}

impl Probe {
    pub fn new(encoded_shape: Vec<u64>) -> Self {
        Self {
            encoded_shape,
            data_type: zarrs::array::data_type::uint64(),
        }
    }
}

impl ArrayPartialDecoderTraits for Probe {
    fn data_type(&self) -> &DataType {
        &self.data_type
    }

    fn exists(&self) -> Result<bool, StorageError> {
        Ok(true)
    }

    fn size_held(&self) -> usize {
        0
    }

    fn partial_decode(
        &self,
        indexer: &dyn Indexer,
        _options: &CodecOptions,
    ) -> Result<ArrayBytes<'_>, CodecError> {
        // zarrs' own bounds and rank checks, as any zarrs decoder below it applies.
        let positions = indexer.iter_linearised_indices(&self.encoded_shape)?;
        let bytes: Vec<u8> = positions.flat_map(u64::to_ne_bytes).collect();
        Ok(ArrayBytes::new_flen(bytes))
    }

    fn supports_partial_decode(&self) -> bool {
        true
    }
}
