//! Step 2 of the data flow: a checked configuration resolved against the decoded
//! shape `A_shape`, giving `B_shape`. This module only orders the rules (reading
//! I-8): element by element, input dims in range and the extent; then
//! `prod(A_shape)`, the -1, the invariant, and finally the input-dims alignment.
//! The rules themselves are in [`crate::shape`] and [`crate::input_dims`].

use crate::clause::Clause;
use crate::configuration::{ReshapeConfiguration, ShapeElement};
use crate::error::{ReshapeError, Result};
use crate::input_dims::{input_dims_prefix, input_dims_suffix};
use crate::limits::MAX_RANK;
use crate::position::Position;
use crate::product::{list, product_of};
use crate::shape::{shape_auto_value, shape_input_dims, shape_invariant};
use crate::trace::{Trace, Verdict};

impl ReshapeConfiguration {
    /// Resolves `B_shape`, the encoded chunk shape, from `a_shape`, the decoded one.
    ///
    /// # Errors
    /// `input-dim-out-of-range`, `overflow`, `element-count-mismatch`,
    /// `input-dims-misaligned`: the rules that need the decoded shape.
    ///
    /// ```
    /// # use zarr_reshape::ReshapeConfiguration;
    /// let configuration = serde_json::json!({"shape": [[0, 1], [2], 3]});
    /// let configuration = ReshapeConfiguration::from_json_value(&configuration)?;
    /// assert_eq!(configuration.resolve(&[100, 50, 64, 3])?, [5000, 64, 3]);
    /// # Ok::<(), zarr_reshape::ReshapeError>(())
    /// ```
    pub fn resolve(&self, a_shape: &[u64]) -> Result<Vec<u64>> {
        resolve_traced(self, a_shape, &mut Trace::off())
    }
}

/// [`ReshapeConfiguration::resolve`], writing each step into `trace`.
pub(crate) fn resolve_traced(
    configuration: &ReshapeConfiguration,
    a_shape: &[u64],
    trace: &mut Trace,
) -> Result<Vec<u64>> {
    // limits.rank (I-10): the decoded rank is bounded before any work.
    if a_shape.len() > MAX_RANK {
        return Err(ReshapeError::RankTooLarge {
            found: a_shape.len(),
            limit: MAX_RANK,
        });
    }
    let shape = configuration.shape();
    // B_shape, built in place, one extent per element of shape (algorithm.rank):
    // the -1's slot holds 0 until shape.auto.value fills it.
    let mut b_shape: Vec<u64> = Vec::with_capacity(shape.len());
    let mut auto = None;
    for (element, item) in shape.iter().enumerate() {
        let extent = match item {
            ShapeElement::Size(size) => {
                // shape.size: B_shape[i] := size (positive, as parsing checked).
                trace.note(
                    Clause::ShapeSize,
                    Some(Position::element(element)),
                    Verdict::Defines,
                    || format!("B_shape[{element}] := {size}"),
                );
                *size
            }
            ShapeElement::InputDims(dims) => shape_input_dims(element, dims, a_shape, trace)?,
            ShapeElement::Auto => {
                auto = Some(element);
                0
            }
        };
        b_shape.push(extent);
    }
    // limits.u64 (I-7): every product below is exact or an overflow error.
    let a_product = product_of(a_shape).ok_or_else(|| ReshapeError::Overflow {
        what: format!("prod(A_shape) for A_shape = {}", list(a_shape)),
    })?;
    if let Some(element) = auto {
        shape_auto_value(&mut b_shape, element, a_product, trace)?;
    }
    shape_invariant(&b_shape, a_product, trace)?;
    for (element, item) in shape.iter().enumerate() {
        let ShapeElement::InputDims(dims) = item else {
            continue;
        };
        // "If input_dims specifies k > 0 input dimensions": an empty list has no rule (I-1).
        let (Some(&first_dim), Some(&last_dim)) = (dims.first(), dims.last()) else {
            continue;
        };
        input_dims_prefix(element, first_dim, a_shape, &b_shape, trace)?;
        input_dims_suffix(element, last_dim, a_shape, &b_shape, trace)?;
    }
    Ok(b_shape)
}
