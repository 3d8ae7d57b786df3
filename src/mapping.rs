//! Step 4 of the data flow, for partial decoding: index and region mapping for partial decoding. Since `ravel(B) == ravel(A)`
//! (algorithm.ravel), an element has the same C-order offset in both arrays: a
//! coordinate maps by raveling in one shape and unraveling in the other, and a box
//! of A is a set of contiguous runs of offsets, the same runs in B.

use ndarray::{ArrayBase, ArrayD, Data, IxDyn};

use crate::algorithm::check_shape;
use crate::codec::ReshapeCodec;
use crate::error::{ReshapeError, Result};
use crate::limits::array_dims;
use crate::position::Argument;
use crate::product::product_of;

/// A run of consecutive elements in C order: offsets `offset .. offset + len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// The C-order offset of the run's first element, in A and in B alike.
    pub offset: u64,
    /// The number of elements.
    pub len: u64,
}

impl ReshapeCodec {
    /// The encoded coordinate of the element at `decoded_index`.
    ///
    /// # Errors
    /// `shape-mismatch` for an index of the wrong rank, `out-of-bounds` for one outside A.
    ///
    /// ```
    /// # use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};
    /// let configuration = ReshapeConfiguration::from_json_value(
    ///     &serde_json::json!({"shape": [[0, 1], [2]]}))?;
    /// let codec = ReshapeCodec::new(configuration, &[2, 3, 4])?;
    /// assert_eq!(codec.encoded_index(&[1, 2, 3])?, [5, 3]);
    /// # Ok::<(), zarr_reshape::ReshapeError>(())
    /// ```
    pub fn encoded_index(&self, decoded_index: &[u64]) -> Result<Vec<u64>> {
        let offset = ravel(self.decoded_shape(), decoded_index, Argument::DecodedIndex)?;
        unravel(self.encoded_shape(), offset)
    }

    /// The decoded coordinate of the element at `encoded_index`.
    ///
    /// # Errors
    /// `shape-mismatch` for an index of the wrong rank, `out-of-bounds` for one outside B.
    pub fn decoded_index(&self, encoded_index: &[u64]) -> Result<Vec<u64>> {
        let offset = ravel(self.encoded_shape(), encoded_index, Argument::EncodedIndex)?;
        unravel(self.decoded_shape(), offset)
    }

    /// The encoded coordinate of the element at C-order `offset` (a [`Run`] offset).
    ///
    /// # Errors
    /// `out-of-bounds` when `offset` is not below `prod(B_shape)`.
    pub fn encoded_index_at(&self, offset: u64) -> Result<Vec<u64>> {
        let count = product_of(self.encoded_shape()).unwrap_or(u64::MAX);
        if offset >= count {
            return Err(ReshapeError::OutOfBounds {
                argument: Argument::EncodedIndex,
                detail: format!("offset {offset} is not below the element count {count}"),
            });
        }
        unravel(self.encoded_shape(), offset)
    }

    /// The elements of the decoded box `start .. stop` (half-open per dimension) as
    /// the fewest runs of consecutive offsets, in C order of the box. Each run is
    /// produced in time proportional to the rank, never per element.
    ///
    /// # Errors
    /// `shape-mismatch` for a box of the wrong rank, `out-of-bounds` when `start`
    /// exceeds `stop` or `stop` exceeds A along some dimension.
    ///
    /// ```
    /// # use zarr_reshape::{ReshapeCodec, ReshapeConfiguration, Run};
    /// let configuration = ReshapeConfiguration::from_json_value(
    ///     &serde_json::json!({"shape": [-1]}))?;
    /// let codec = ReshapeCodec::new(configuration, &[4, 5])?;
    /// let runs: Vec<Run> = codec.region_runs(&[1, 0], &[3, 5])?.collect();
    /// assert_eq!(runs, [Run { offset: 5, len: 10 }]);
    /// # Ok::<(), zarr_reshape::ReshapeError>(())
    /// ```
    pub fn region_runs(&self, start: &[u64], stop: &[u64]) -> Result<Runs> {
        Runs::new(self.decoded_shape(), start, stop)
    }

    /// Reads the decoded box `start .. stop` out of an encoded chunk (shape B),
    /// copying run by run.
    ///
    /// # Errors
    /// As [`Self::region_runs`]; `shape-mismatch` when `encoded` does not have shape B;
    /// `overflow` when the box's shape is beyond [`crate::limits::MAX_ARRAY_SPAN`].
    pub fn partial_decode<A, S>(
        &self,
        encoded: &ArrayBase<S, IxDyn>,
        start: &[u64],
        stop: &[u64],
    ) -> Result<ArrayD<A>>
    where
        A: Clone,
        S: Data<Elem = A>,
    {
        check_shape(
            encoded.shape(),
            self.encoded_shape(),
            Argument::EncodedArray,
        )?;
        let runs = self.region_runs(start, stop)?;
        let box_shape: Vec<u64> = start
            .iter()
            .zip(stop)
            .map(|(a, b)| b.saturating_sub(*a))
            .collect();
        let box_shape = array_dims(&box_shape)?;
        let contiguous = encoded.as_standard_layout();
        let elements = contiguous.as_slice().unwrap_or_default();
        // Every run of a box has the same length.
        let run_len = usize::try_from(runs.len).map_err(|_| ReshapeError::Overflow {
            what: format!("a run of {} elements on this platform (usize)", runs.len),
        })?;
        // array_dims bounded the product of the non-zero extents; a zero extent holds none.
        let capacity = if box_shape.contains(&0) {
            0
        } else {
            box_shape
                .iter()
                .try_fold(1usize, |acc, dim| acc.checked_mul(*dim))
                .unwrap_or(0)
        };
        let mut gathered = Vec::with_capacity(capacity);
        runs.try_for_each_offset(|offset| {
            let slice = usize::try_from(offset)
                .ok()
                .and_then(|offset| elements.get(offset..offset.checked_add(run_len)?))
                .ok_or_else(|| ReshapeError::Overflow {
                    what: format!("a run of {run_len} at offset {offset} on this platform (usize)"),
                })?;
            gathered.extend_from_slice(slice);
            Ok(())
        })?;
        ArrayD::from_shape_vec(IxDyn(&box_shape), gathered).map_err(|error| {
            ReshapeError::NdarrayShape {
                what: format!("the gathered box {box_shape:?}"),
                reason: error.to_string(),
            }
        })
    }
}

/// The C-order offset of `index` in `shape`.
fn ravel(shape: &[u64], index: &[u64], argument: Argument) -> Result<u64> {
    check_rank(shape, index.len(), argument)?;
    // Bounds first: an array with a zero extent holds no element, whatever its other extents.
    for (dim, (extent, coordinate)) in shape.iter().zip(index).enumerate() {
        if coordinate >= extent {
            return Err(ReshapeError::OutOfBounds {
                argument,
                detail: format!(
                    "index {coordinate} is not below extent {extent} along dimension {dim}"
                ),
            });
        }
    }
    let mut offset: u64 = 0;
    for (extent, coordinate) in shape.iter().zip(index) {
        // offset * extent + coordinate < prod(shape[..=dim]) <= prod(shape), which fits
        // whenever the codec resolved; checked all the same.
        offset = offset
            .checked_mul(*extent)
            .and_then(|scaled| scaled.checked_add(*coordinate))
            .ok_or_else(|| ReshapeError::Overflow {
                what: format!("the offset of {index:?}"),
            })?;
    }
    Ok(offset)
}

/// The coordinate in `shape` of the C-order `offset` (which lies inside `shape`).
fn unravel(shape: &[u64], mut offset: u64) -> Result<Vec<u64>> {
    let mut index = vec![0; shape.len()];
    for (coordinate, extent) in index.iter_mut().zip(shape).rev() {
        *coordinate = offset.checked_rem(*extent).unwrap_or(0);
        offset = offset.checked_div(*extent).unwrap_or(0);
    }
    Ok(index)
}

fn check_rank(shape: &[u64], rank: usize, argument: Argument) -> Result<()> {
    if rank == shape.len() {
        return Ok(());
    }
    Err(ReshapeError::RankMismatch {
        argument,
        expected: shape.len(),
        found: rank,
    })
}

/// The runs of a box, in C order; see [`ReshapeCodec::region_runs`].
///
/// Dimensions after `split` are covered whole by the box, so one run spans the
/// box's extent along `split` times everything after it; an odometer walks the
/// dimensions before `split`, moving the next run's offset by one stride per step.
#[derive(Debug, Clone)]
pub struct Runs {
    /// The dimensions before `split`, outermost first.
    odometer: Vec<Wheel>,
    /// The next run's offset.
    offset: u64,
    len: u64,
    done: bool,
}

/// One dimension of the odometer: where the box starts and stops along it, where
/// the next run is, and how far one step along it moves the offset.
#[derive(Debug, Clone, Copy)]
struct Wheel {
    start: u64,
    stop: u64,
    coordinate: u64,
    /// `prod(A_shape[d+1:])`: the C-order stride of this dimension.
    stride: u64,
}

impl Runs {
    fn new(a_shape: &[u64], start: &[u64], stop: &[u64]) -> Result<Self> {
        check_rank(a_shape, start.len(), Argument::DecodedRegion)?;
        check_rank(a_shape, stop.len(), Argument::DecodedRegion)?;
        for (dim, ((begin, end), extent)) in start.iter().zip(stop).zip(a_shape).enumerate() {
            let detail = if begin > end {
                format!("start {begin} is after stop {end} along dimension {dim}")
            } else if end > extent {
                format!("stop {end} is beyond extent {extent} along dimension {dim}")
            } else {
                continue;
            };
            return Err(ReshapeError::OutOfBounds {
                argument: Argument::DecodedRegion,
                detail,
            });
        }
        if start.iter().zip(stop).any(|(a, b)| a == b) {
            // No element, so no run; the strides of an empty array need not fit in 64 bits.
            return Ok(Self {
                odometer: Vec::new(),
                offset: 0,
                len: 0,
                done: true,
            });
        }
        let strides = a_shape
            .iter()
            .enumerate()
            .map(|(d, _)| a_shape.get(d.saturating_add(1)..).and_then(product_of))
            .collect::<Option<Vec<u64>>>()
            .ok_or_else(|| ReshapeError::Overflow {
                what: "prod(A_shape)".into(),
            })?;
        // The last dimension the box does not cover whole; a run spans it and all after.
        let split = (0..a_shape.len())
            .rev()
            .find(|&d| start.get(d) != Some(&0) || stop.get(d) != a_shape.get(d))
            .unwrap_or(0);
        let along_split = stop
            .get(split)
            .zip(start.get(split))
            .map_or(1, |(b, a)| b.saturating_sub(*a));
        let len = along_split
            .checked_mul(strides.get(split).copied().unwrap_or(1))
            .ok_or_else(|| ReshapeError::Overflow {
                what: "a run length".into(),
            })?;
        // The first run starts at `start`; inside the box, so below prod(A_shape).
        let offset = start
            .iter()
            .zip(&strides)
            .map(|(c, s)| c.saturating_mul(*s))
            .fold(0, u64::saturating_add);
        let odometer = start
            .iter()
            .zip(stop)
            .zip(&strides)
            .take(split)
            .map(|((&start, &stop), &stride)| Wheel {
                start,
                stop,
                coordinate: start,
                stride,
            })
            .collect();
        Ok(Self {
            odometer,
            offset,
            len,
            done: false,
        })
    }

    /// Calls `visit` with the offset of every run, in C order, stopping at the first
    /// error. The innermost dimension of the odometer is walked in a plain loop (one
    /// stride per run), which is what makes a gather of short runs cost what copying
    /// them costs.
    fn try_for_each_offset(mut self, mut visit: impl FnMut(u64) -> Result<()>) -> Result<()> {
        if self.done {
            return Ok(());
        }
        let Some(inner) = self.odometer.pop() else {
            return visit(self.offset);
        };
        loop {
            let mut offset = self.offset;
            for _ in inner.start..inner.stop {
                visit(offset)?;
                offset = offset.saturating_add(inner.stride);
            }
            if !self.advance() {
                return Ok(());
            }
        }
    }

    /// Moves the odometer to the next run; false when the box is done. Every offset
    /// stays inside the box, so below prod(A_shape): the saturating steps never saturate.
    fn advance(&mut self) -> bool {
        for wheel in self.odometer.iter_mut().rev() {
            let next = wheel.coordinate.saturating_add(1);
            if next < wheel.stop {
                wheel.coordinate = next;
                self.offset = self.offset.saturating_add(wheel.stride);
                return true;
            }
            let back = wheel.coordinate.saturating_sub(wheel.start);
            self.offset = self
                .offset
                .saturating_sub(back.saturating_mul(wheel.stride));
            wheel.coordinate = wheel.start;
        }
        false
    }
}

impl Iterator for Runs {
    type Item = Run;

    #[inline]
    fn next(&mut self) -> Option<Run> {
        if self.done {
            return None;
        }
        let run = Run {
            offset: self.offset,
            len: self.len,
        };
        self.done = !self.advance();
        Some(run)
    }
}
