//! Step 3 of the data flow: the resolved codec, `A_shape` and `B_shape` fixed for
//! one decoded chunk shape. Encoding and decoding are in [`crate::algorithm`],
//! index and region mapping in [`crate::mapping`].

use crate::configuration::ReshapeConfiguration;
use crate::error::Result;

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
}
