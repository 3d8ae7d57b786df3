//! The copy that algorithm.view cannot avoid: a chunk whose strides do not allow a
//! C-order view of `B_shape` (say, a fully transposed chunk being flattened) is
//! copied into C order first.
//!
//! ndarray's own copy walks such a view element by element in C order; for a
//! transposed chunk each step jumps a whole plane in memory, a cache and TLB miss
//! per element. This copy appends whole rows when the last axis is already the
//! densest in memory, and otherwise moves tiles of [`TILE`] × [`TILE`] elements
//! between the densest axis and the last one, so that both the reads and the
//! writes of a tile stay in cache (BENCHMARKS.md, benchmark 2).

use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD, Axis, Ix2, IxDyn};

/// The side of a tile: 64 × 64 elements of up to 8 bytes fit in L1 on both sides.
const TILE: usize = 64;

/// Whether ndarray's `to_shape` can give `to` (in C order) as a view of an array
/// with this `shape` and these `strides`: every place where the array's memory is
/// not contiguous from one axis to the next must also be a place where `to` splits.
/// Axes of extent 1 never matter; an empty array is always a view.
///
/// Only speed depends on this answer: when it says yes, `to_shape` is asked (and
/// would still copy correctly were it to disagree); when it says no, [`c_order`] copies.
pub(crate) fn reshapes_as_view(shape: &[usize], strides: &[isize], to: &[usize]) -> bool {
    if shape.contains(&0) {
        return true;
    }
    // Both walks go from the innermost axis outwards, counting the elements after
    // the current place: `inner_elements` along the array, `to_elements` along `to`.
    let mut to_extents = to.iter().rev();
    let mut to_elements: usize = 1;
    let mut inner_elements: usize = 1;
    let mut inner: Option<(usize, isize)> = None;
    let axes = shape.iter().zip(strides).rev();
    for (extent, stride) in axes.filter(|(extent, _)| **extent > 1) {
        if let Some((inner_extent, inner_stride)) = inner {
            let Some(elements) = inner_elements.checked_mul(inner_extent) else {
                return false;
            };
            inner_elements = elements;
            let contiguous = isize::try_from(inner_extent)
                .ok()
                .and_then(|inner_extent| inner_stride.checked_mul(inner_extent))
                == Some(*stride);
            if !contiguous {
                // Memory jumps here, so `to` must split here too.
                while to_elements < inner_elements {
                    let next = to_extents
                        .next()
                        .and_then(|extent| to_elements.checked_mul(*extent));
                    let Some(next) = next else {
                        return false;
                    };
                    to_elements = next;
                }
                if to_elements != inner_elements {
                    return false;
                }
            }
        }
        inner = Some((*extent, *stride));
    }
    true
}

/// The elements of `view` in C order, as an array of the same shape in standard layout.
pub(crate) fn c_order<A: Clone>(view: &ArrayViewD<'_, A>) -> ArrayD<A> {
    let Some(first) = view.first() else {
        return view.to_owned();
    };
    let Some(last) = view.ndim().checked_sub(1) else {
        return view.to_owned();
    };
    // The axis along which memory is densest: the smallest stride among axes of
    // extent > 1, the last axis on a tie.
    let densest = view
        .shape()
        .iter()
        .zip(view.strides())
        .enumerate()
        .filter(|(_, (extent, _))| **extent > 1)
        .min_by_key(|(axis, (_, stride))| (stride.unsigned_abs(), *axis != last))
        .map_or(last, |(axis, _)| axis);
    if densest == last {
        // Rows of the result are runs in memory already: append them row by row.
        let mut elements = Vec::with_capacity(view.len());
        append_rows(view, &mut elements);
        return ArrayD::from_shape_vec(view.raw_dim(), elements)
            .unwrap_or_else(|_| view.as_standard_layout().into_owned());
    }
    let mut copy = ArrayD::from_elem(view.raw_dim(), first.clone());
    // Move the two axes to the end, in the same way on both sides, and copy plane by plane.
    let mut axes: Vec<usize> = (0..view.ndim())
        .filter(|axis| *axis != densest && *axis != last)
        .collect();
    axes.push(densest);
    axes.push(last);
    let from = view.view().permuted_axes(IxDyn(&axes));
    let to = copy.view_mut().permuted_axes(IxDyn(&axes));
    copy_planes(to, &from);
    copy
}

/// Appends the rows of `view` (along its last axis) to `elements`, in C order.
fn append_rows<A: Clone>(view: &ArrayViewD<'_, A>, elements: &mut Vec<A>) {
    if view.ndim() > 2 {
        for inner in view.outer_iter() {
            append_rows(&inner, elements);
        }
        return;
    }
    let Ok(plane) = view.view().into_dimensionality::<Ix2>() else {
        // Rank 1 (rank 0 has no last axis and never reaches here).
        elements.extend(view.iter().cloned());
        return;
    };
    for row in plane.rows() {
        match row.as_slice() {
            Some(run) => elements.extend_from_slice(run),
            None => elements.extend(row.iter().cloned()),
        }
    }
}

/// Copies `from` into `to` (same shape, rank >= 2), one plane of the last two axes at a time.
fn copy_planes<A: Clone>(mut to: ArrayViewMutD<'_, A>, from: &ArrayViewD<'_, A>) {
    if to.ndim() > 2 {
        for (to, from) in to.outer_iter_mut().zip(from.outer_iter()) {
            copy_planes(to, &from);
        }
        return;
    }
    let planes = (
        to.view_mut().into_dimensionality::<Ix2>(),
        from.view().into_dimensionality::<Ix2>(),
    );
    let (Ok(mut to_plane), Ok(from_plane)) = planes else {
        // Rank below 2 does not reach here; copy plainly all the same.
        to.assign(from);
        return;
    };
    let rows = to_plane
        .axis_chunks_iter_mut(Axis(0), TILE)
        .zip(from_plane.axis_chunks_iter(Axis(0), TILE));
    for (mut to_rows, from_rows) in rows {
        let tiles = to_rows
            .axis_chunks_iter_mut(Axis(1), TILE)
            .zip(from_rows.axis_chunks_iter(Axis(1), TILE));
        for (mut to_tile, from_tile) in tiles {
            to_tile.assign(&from_tile);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_follow_the_contiguous_groups() {
        // Standard layout: any reshape.
        assert!(reshapes_as_view(&[2, 3, 4], &[12, 4, 1], &[24]));
        // Axes rotated ([C, A, B] stored): A and B merge, C stays apart.
        assert!(reshapes_as_view(&[3, 4, 2], &[4, 1, 12], &[12, 2]));
        assert!(!reshapes_as_view(&[3, 4, 2], &[4, 1, 12], &[24]));
        // Fortran order: only size-1 axes may come and go.
        assert!(reshapes_as_view(&[2, 3], &[1, 2], &[2, 1, 3]));
        assert!(!reshapes_as_view(&[2, 3], &[1, 2], &[6]));
        // Memory jumps after every axis: `to` must split at 4 and at 12 elements.
        assert!(reshapes_as_view(
            &[2, 3, 4],
            &[100, 20, 2],
            &[2, 1, 3, 1, 4]
        ));
        assert!(!reshapes_as_view(&[2, 3, 4], &[100, 20, 2], &[6, 4]));
        assert!(!reshapes_as_view(&[2, 3, 4], &[100, 20, 2], &[2, 12]));
        // Empty arrays never copy.
        assert!(reshapes_as_view(&[0, 3], &[1, 2], &[3, 0]));
    }
}
