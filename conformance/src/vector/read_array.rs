//! The `read-array` operation: its members, and its array paths made absolute
//! against the suite root. An array path is confined to the suite root: it is
//! relative, has no `..` (nor any other component than a name or `.`), and does
//! not lead out of the root through a symbolic link.

use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value};

use super::members::{ArrayMembers, Extent, Region, extents, member};
use super::{Case, Fault, Operation, fault};

/// Reads `array` (`{"path", "data_type"}`) and the optional `decoded_region`.
pub(super) fn operation(case: &Map<String, Value>) -> Result<Operation, Fault> {
    let array: ArrayMembers = member(case, "array", "read-array needs an array object", true)?;
    if array.path.is_empty() {
        return Err(fault("/array/path", "must be a non-empty string"));
    }
    let region = match case.get("decoded_region") {
        None => None,
        Some(_) => {
            let region: Region<Extent> = member(case, "decoded_region", "the box read", true)?;
            Some((extents(region.start), extents(region.stop)))
        }
    };
    Ok(Operation::ReadArray {
        path: PathBuf::from(array.path),
        data_type: array.data_type.0,
        region,
    })
}

/// The suite root of a vector file: the nearest folder above it that holds
/// `clauses.json`.
#[must_use]
pub fn suite_root(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .find(|folder| folder.join("clauses.json").is_file())
        .map(Path::to_path_buf)
}

/// Makes the relative array paths of `cases`, read from `file`, absolute: joined
/// to the suite root, itself made absolute (canonical where it can be). A path
/// whose nearest existing folder lies outside the root once symbolic links are
/// resolved is refused.
pub(super) fn resolve_paths(file: &Path, cases: &mut [Case]) -> Result<(), Fault> {
    let mut root: Option<PathBuf> = None;
    for (i, case) in cases.iter_mut().enumerate() {
        let Operation::ReadArray { path, .. } = &mut case.operation else {
            continue;
        };
        let pointer = format!("/cases/{i}/array/path");
        // Lexically first: an adapter is sent the absolute path, but a vector file
        // names arrays below its suite root only.
        let confined = path
            .components()
            .all(|part| matches!(part, Component::Normal(_) | Component::CurDir));
        if !confined {
            return Err((
                pointer,
                format!(
                    "case {:?}: the array path {:?} must be relative to the suite root and \
                     stay below it: no absolute path, no `..`",
                    case.id,
                    path.display()
                ),
            ));
        }
        let base = match &root {
            Some(base) => base.clone(),
            None => {
                let found = suite_root(file).ok_or_else(|| {
                    (
                        pointer.clone(),
                        "a relative array path needs a suite root: no folder above the vector file holds clauses.json"
                            .to_string(),
                    )
                })?;
                let base = std::fs::canonicalize(&found)
                    .or_else(|_| std::path::absolute(&found))
                    .unwrap_or(found);
                root = Some(base.clone());
                base
            }
        };
        let joined = base.join(&*path);
        // The nearest part of the path that exists, with its links resolved.
        let real = joined
            .ancestors()
            .find_map(|ancestor| std::fs::canonicalize(ancestor).ok());
        if real.is_none_or(|real| !real.starts_with(&base)) {
            return Err((
                pointer,
                format!(
                    "case {:?}: the array path {} leads out of the suite root {} through a symbolic link",
                    case.id,
                    path.display(),
                    base.display()
                ),
            ));
        }
        *path = joined;
    }
    Ok(())
}

/// The case object as sent to an adapter: as written, except that a read-array
/// case's `array.path` is the absolute path [`super::load_file`] resolved.
#[must_use]
pub fn wire_json(case: &Case) -> std::borrow::Cow<'_, Value> {
    let Operation::ReadArray { path, .. } = &case.operation else {
        return std::borrow::Cow::Borrowed(&case.json);
    };
    let mut json = case.json.clone();
    if let Some(array) = json.get_mut("array").and_then(Value::as_object_mut) {
        array.insert(
            "path".into(),
            Value::from(path.to_string_lossy().into_owned()),
        );
    }
    std::borrow::Cow::Owned(json)
}
