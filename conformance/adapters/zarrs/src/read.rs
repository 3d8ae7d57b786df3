//! `read-array`: a Zarr v3 array on disk, opened and read through zarrs' public
//! `Array` API as a zarrs user reads one: `FilesystemStore::new` on the array's
//! folder, `Array::open` at the store's root, then `retrieve_array_subset` of the
//! whole array or of the case's box. [`open`] and [`retrieve`] are shared with the
//! command-line reader (`src/bin/zarrs-array-path.rs`).

use std::sync::Arc;

use serde_json::Value;
use zarrs::array::{Array, ArrayBytes, ArraySubset};
use zarrs::filesystem::FilesystemStore;

use crate::answer::{Answer, Step};
use crate::array::{self, Element};
use crate::panics::guard;

/// The most elements one answer may hold (the answer line is at most 16 MiB).
const MAX_ELEMENTS: u64 = 1 << 20;

fn zarrs_error(error: impl std::fmt::Display) -> Answer {
    Answer::Error(error.to_string())
}

/// Answers a `read-array` case: `{"shape", "data"}` of the whole array or of
/// `decoded_region`, or zarrs' error when it refuses to open or to read.
pub fn answer(case: &Value) -> Step<Value> {
    let spec = case.get("array");
    let path = spec.and_then(|a| a.get("path")).and_then(Value::as_str);
    let path = path.ok_or_else(|| Answer::Errored("array.path is not a string".into()))?;
    let name = spec
        .and_then(|a| a.get("data_type"))
        .and_then(Value::as_str);
    let name = name.ok_or_else(|| Answer::Errored("array.data_type is not a string".into()))?;
    let (element, data_type) = array::data_type(name)?;

    let opened = open(path)?;
    if opened.data_type() != &data_type {
        return Err(Answer::Errored(format!(
            "the case says {name:?}, but zarrs opened an array of data type {}",
            opened.data_type()
        )));
    }

    let subset = match case.get("decoded_region") {
        None => ArraySubset::new_with_shape(opened.shape().to_vec()),
        Some(region) => {
            let start = corner(region.get("start"), "decoded_region.start")?;
            let stop = corner(region.get("stop"), "decoded_region.stop")?;
            ArraySubset::new_with_start_end_exc(start, stop).map_err(zarrs_error)?
        }
    };
    retrieve(&opened, element, &subset, MAX_ELEMENTS)
}

/// Opens the array at `path` as a user does: a filesystem store on the array's
/// folder, the array at "/".
pub fn open(path: &str) -> Step<Array<FilesystemStore>> {
    let store = guard(|| FilesystemStore::new(path))?.map_err(zarrs_error)?;
    guard(|| Array::open(Arc::new(store), "/"))?.map_err(zarrs_error)
}

/// `{"shape", "data"}` of `subset` of `opened`, read as elements of `element`;
/// skipped when the box holds more than `max_elements`.
pub fn retrieve(
    opened: &Array<FilesystemStore>,
    element: Element,
    subset: &ArraySubset,
    max_elements: u64,
) -> Step<Value> {
    let count = subset
        .shape()
        .iter()
        .try_fold(1u64, |n, &extent| n.checked_mul(extent));
    if count.is_none_or(|n| n > max_elements) {
        return Err(Answer::Skipped(format!(
            "the box {subset} holds more than {max_elements} elements, too many for one answer"
        )));
    }
    let bytes: ArrayBytes<'static> =
        guard(|| opened.retrieve_array_subset(subset))?.map_err(zarrs_error)?;
    let bytes = bytes.into_fixed().map_err(zarrs_error)?;
    Ok(array::output(element, subset.shape(), &bytes))
}

/// A corner of the box: zarrs' subsets take `u64` coordinates.
fn corner(value: Option<&Value>, what: &str) -> Step<Vec<u64>> {
    let values = value.and_then(Value::as_array);
    let values = values.ok_or_else(|| Answer::Errored(format!("{what} is not an array")))?;
    values
        .iter()
        .map(|coordinate| {
            coordinate.as_u64().ok_or_else(|| {
                Answer::Skipped(format!(
                    "zarrs' array subsets take u64 coordinates: {coordinate} in {what} cannot be passed"
                ))
            })
        })
        .collect()
}
