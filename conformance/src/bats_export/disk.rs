//! The export on disk: written so that only what `export-bats` wrote is ever
//! rewritten or removed, and compared with a fresh rendering for `--check`.
//!
//! What it wrote is listed in [`MANIFEST`]. Before anything changes, every path
//! it writes is checked ([`crate::write_guard`]: no symbolic link on the way),
//! and the export is refused when a file it would write, or any file inside an
//! array folder it writes (`data/<fixture>.zarr/`, where a reader would see it),
//! is not listed: that file is someone else's. Files elsewhere in the folder (a
//! clone of zarr-conformance-tests, say) are left alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::DATA;
use crate::owned_files::{Foreign, Owner, files_below, join};
use crate::write_guard;

/// The manifest of an export, below its folder: a header, then one path a line
/// (`/`-separated) of every file the export wrote, itself included.
pub const MANIFEST: &str = "ZARR-RESHAPE-MANIFEST.txt";

/// `zarr-reshape export-bats` and its manifest, whose first line marks it as
/// the export's own. The largest file read back is 16 MiB (the whole export is
/// under 1 MB).
pub(super) const OWNER: Owner = Owner {
    tool: "zarr-reshape export-bats",
    manifest: MANIFEST,
    header: "# Written by `zarr-reshape export-bats`: every file it wrote, the only files\n\
             # it rewrites or removes. Do not edit; regenerate with `zarr-reshape export-bats DIR`.\n",
    header_required: true,
    lists_itself: true,
    may_write: is_export_file,
    max_file_bytes: 16 << 20,
};

/// Whether `name` is one of the export's files: below `data/`, the script, the
/// README or the manifest.
fn is_export_file(name: &str) -> bool {
    matches!(name, "tests.bats" | "README.md" | MANIFEST)
        || name
            .strip_prefix(DATA)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The array folders of `rendered` (`data/<fixture>.zarr`).
fn array_folders(rendered: &BTreeMap<String, Vec<u8>>) -> BTreeSet<String> {
    rendered
        .keys()
        .filter_map(|name| {
            let rest = name.strip_prefix(&format!("{DATA}/"))?;
            let (folder, _) = rest.split_once(".zarr/")?;
            Some(format!("{DATA}/{folder}.zarr"))
        })
        .collect()
}

/// Writes the export under `dir` (made when missing; its parent must exist):
/// first the manifest, then every file; files the previous manifest lists and
/// the export no longer holds are removed (with the folders they leave empty).
/// Returns the number of files written.
///
/// # Errors
/// When a file it would write, or any file inside an array folder it writes, is
/// not its own (nothing is written then); when a path runs through a link or a
/// non-regular file; when a file cannot be read or written.
pub fn write(dir: &Path) -> Result<usize, String> {
    let rendered = super::render()?;
    let foreign = Foreign {
        folders: array_folders(&rendered).into_iter().collect(),
        force: false,
        place: "where the export writes ",
        remedy: "or export into another folder",
    };
    OWNER.write(dir, &rendered, &foreign)
}

/// The first difference between the export under `dir` and a fresh one: a file
/// missing or different, a file the manifest lists that the export no longer
/// writes, or a file inside an array folder that is not the export's. `None`
/// when current. Returns also the number of files compared.
///
/// # Errors
/// When a file cannot be read, a link is on its way, or it is larger than the bound.
pub fn check(dir: &Path) -> Result<(usize, Option<String>), String> {
    let rendered = super::render()?;
    for (name, want) in &rendered {
        // Nothing is read through a link on the way.
        write_guard::check_file(dir, name).map_err(|e| e.to_string())?;
        match OWNER.read(&join(dir, name))? {
            None => return Ok((rendered.len(), Some(format!("{name} is missing")))),
            Some(got) if &got != want => {
                return Ok((rendered.len(), Some(format!("{name} differs"))));
            }
            Some(_) => {}
        }
    }
    let mut extra = OWNER
        .listed(dir)?
        .into_iter()
        .filter(|name| !rendered.contains_key(name))
        .filter(|name| std::fs::symlink_metadata(join(dir, name)).is_ok())
        .map(|name| format!("{name} is stale: the export no longer writes it"));
    if let Some(stale) = extra.next() {
        return Ok((rendered.len(), Some(stale)));
    }
    for folder in array_folders(&rendered) {
        if let Some(name) = files_below(dir, &folder)?
            .into_keys()
            .find(|name| !rendered.contains_key(name))
        {
            return Ok((
                rendered.len(),
                Some(format!("{name} is not part of the export (move it away)")),
            ));
        }
    }
    Ok((rendered.len(), None))
}
