//! Strategies for valid inputs: configurations built from a decoded shape, and
//! non-standard memory layouts of a logical shape.

use ndarray::{ArrayD, ArrayViewD, IxDyn, Slice};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Value, json};
use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};

/// A decoded shape and a configuration that satisfies every rule for it, built by
/// cutting the decoded dims into consecutive groups (see [`valid`]).
#[derive(Debug, Clone)]
pub(crate) struct Valid {
    pub(crate) a_shape: Vec<u64>,
    pub(crate) configuration: Value,
    /// For each element of `shape`, the decoded dims it spans (none for a size-1 element).
    pub(crate) groups: Vec<Vec<usize>>,
}

impl Valid {
    pub(crate) fn configuration(&self) -> ReshapeConfiguration {
        ReshapeConfiguration::from_json_value(&self.configuration).unwrap()
    }

    pub(crate) fn codec(&self) -> ReshapeCodec {
        ReshapeCodec::new(self.configuration(), &self.a_shape).unwrap()
    }

    /// What the construction implies: each element spans its group, so its extent
    /// is the product of the group's decoded extents (1 for an empty group).
    pub(crate) fn group_products(&self) -> Vec<u64> {
        self.groups
            .iter()
            .map(|dims| dims.iter().map(|&d| self.a_shape[d]).product())
            .collect()
    }
}

/// Decoded shapes of rank 0..=5 with extents 1..=6, and a valid configuration for each.
///
/// The decoded dims are cut into consecutive groups; each group becomes its input dims,
/// or its product as a size, or (at most once) -1; up to two empty groups are inserted
/// anywhere, as `[]` or as the size 1. Whatever the choices, the input dims strictly
/// increase, every element spans exactly the dims after those of the elements before
/// it (so the prefix and suffix rules hold), and the -1 resolves to its group's product.
pub(crate) fn valid() -> impl Strategy<Value = Valid> {
    prop::collection::vec(1..=6_u64, 0..=5).prop_flat_map(valid_for)
}

fn valid_for(a_shape: Vec<u64>) -> impl Strategy<Value = Valid> {
    let rank = a_shape.len();
    (
        prop::collection::vec(any::<bool>(), rank),
        prop::collection::vec(any::<bool>(), rank),
        prop::collection::vec((0..=rank, any::<bool>()), 0..=2),
        any::<Option<Index>>(),
    )
        .prop_map(move |(cuts, as_dims, empties, auto)| {
            build(a_shape.clone(), &cuts, &as_dims, &empties, auto)
        })
}

/// `cuts[d]`: a new group starts at dim d; `as_dims[d]`: the group starting at d is
/// written as input dims rather than a size; `empties`: (position, written as `[]`).
fn build(
    a_shape: Vec<u64>,
    cuts: &[bool],
    as_dims: &[bool],
    empties: &[(usize, bool)],
    auto: Option<Index>,
) -> Valid {
    let mut groups: Vec<(Vec<usize>, bool)> = Vec::new();
    for d in 0..a_shape.len() {
        if d == 0 || cuts[d] {
            groups.push((Vec::new(), as_dims[d]));
        }
        groups.last_mut().unwrap().0.push(d);
    }
    for &(position, as_dims) in empties {
        groups.insert(position.min(groups.len()), (Vec::new(), as_dims));
    }
    let auto = auto
        .filter(|_| !groups.is_empty())
        .map(|index| index.index(groups.len()));
    let shape: Vec<Value> = groups
        .iter()
        .enumerate()
        .map(|(i, (dims, as_dims))| match (Some(i) == auto, as_dims) {
            (true, _) => json!(-1),
            (false, true) => json!(dims),
            (false, false) => json!(dims.iter().map(|&d| a_shape[d]).product::<u64>()),
        })
        .collect();
    Valid {
        configuration: json!({ "shape": shape }),
        groups: groups.into_iter().map(|(dims, _)| dims).collect(),
        a_shape,
    }
}

/// An array holding 0, 1, 2, ... in C order, so every element tells its offset.
pub(crate) fn arange(shape: &[u64]) -> ArrayD<u32> {
    let shape: Vec<usize> = shape.iter().map(|&extent| extent as usize).collect();
    let count = shape.iter().product::<usize>() as u32;
    ArrayD::from_shape_vec(IxDyn(&shape), (0..count).collect()).unwrap()
}

/// A way to lay out a logical shape in memory other than standard C order.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// Per axis of the stored array: the first index kept and the step (negative: backwards).
    slices: Option<Vec<(usize, isize)>>,
    axes: Axes,
}

#[derive(Debug, Clone)]
enum Axes {
    Kept,
    /// `.reversed_axes()`: Fortran order for an unsliced array.
    Reversed,
    /// `.permuted_axes(axes)`.
    Permuted(Vec<usize>),
}

/// Layouts for arrays of rank `rank`: transposed, permuted, sliced with steps, or both.
pub(crate) fn layout(rank: usize) -> impl Strategy<Value = Layout> {
    let axes = prop_oneof![
        Just(Axes::Kept),
        Just(Axes::Reversed),
        Just((0..rank).collect::<Vec<usize>>())
            .prop_shuffle()
            .prop_map(Axes::Permuted),
    ];
    let step = prop_oneof![1..=3_isize, -3..=-1_isize];
    let slices = prop::option::of(prop::collection::vec((0..3_usize, step), rank));
    (slices, axes).prop_map(|(slices, axes)| Layout { slices, axes })
}

impl Layout {
    /// For each logical axis, the stored axis it comes from.
    fn source_axes(&self, rank: usize) -> Vec<usize> {
        match &self.axes {
            Axes::Kept => (0..rank).collect(),
            Axes::Reversed => (0..rank).rev().collect(),
            Axes::Permuted(axes) => axes.clone(),
        }
    }

    /// A stored array large enough that [`Self::view`] of it has the logical `shape`.
    pub(crate) fn base(&self, shape: &[u64]) -> ArrayD<u32> {
        let mut stored = vec![0; shape.len()];
        for (logical, source) in self.source_axes(shape.len()).into_iter().enumerate() {
            stored[source] = shape[logical];
        }
        if let Some(slices) = &self.slices {
            for (extent, &(start, step)) in stored.iter_mut().zip(slices) {
                *extent = start as u64 + *extent * step.unsigned_abs() as u64;
            }
        }
        arange(&stored)
    }

    /// The logical array: `base` sliced (`start..` with the step), then with its axes moved.
    pub(crate) fn view<'a>(&self, base: &'a ArrayD<u32>) -> ArrayViewD<'a, u32> {
        let view = match &self.slices {
            None => base.view(),
            Some(slices) => base.slice_each_axis(|axis| {
                let (start, step) = slices[axis.axis.index()];
                Slice::new(start as isize, None, step)
            }),
        };
        match &self.axes {
            Axes::Kept => view,
            Axes::Reversed => view.reversed_axes(),
            Axes::Permuted(axes) => view.permuted_axes(axes.clone()),
        }
    }
}
