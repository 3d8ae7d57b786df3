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
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use super::DATA;
use crate::write_guard;

/// The manifest of an export, below its folder: a header, then one path a line
/// (`/`-separated) of every file the export wrote, itself included.
pub const MANIFEST: &str = "ZARR-RESHAPE-MANIFEST.txt";

/// The manifest's first line, which marks it as the export's own.
const HEADER: &str = "# Written by `zarr-reshape export-bats`: every file it wrote, the only files";

/// The largest file read back, in bytes (the whole export is under 1 MB).
const MAX_FILE_BYTES: u64 = 16 << 20;

/// The manifest's text for the files `names` and itself.
pub(super) fn manifest<'a>(names: impl Iterator<Item = &'a String>) -> Vec<u8> {
    let mut listed: BTreeSet<&str> = names.map(String::as_str).collect();
    listed.insert(MANIFEST);
    let mut text = format!(
        "{HEADER}\n# it rewrites or removes. Do not edit; regenerate with `zarr-reshape export-bats DIR`.\n"
    );
    for name in listed {
        text.push_str(name);
        text.push('\n');
    }
    text.into_bytes()
}

fn join(root: &Path, name: &str) -> PathBuf {
    name.split('/')
        .fold(root.to_path_buf(), |path, part| path.join(part))
}

fn located(path: &Path, message: impl std::fmt::Display) -> String {
    format!("{}: {message}", path.display())
}

/// A regular file of at most [`MAX_FILE_BYTES`], read without following a link;
/// `None` when nothing is there.
fn read_file(path: &Path) -> Result<Option<Vec<u8>>, String> {
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(located(path, error)),
    };
    if !metadata.file_type().is_file() {
        return Err(located(
            path,
            "is not a regular file (a link is never read)",
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| {
            file.take(MAX_FILE_BYTES.saturating_add(1))
                .read_to_end(&mut bytes)
        })
        .map_err(|e| located(path, e))?;
    if u64::try_from(bytes.len()).is_ok_and(|len| len > MAX_FILE_BYTES) {
        return Err(located(
            path,
            format!("is larger than {MAX_FILE_BYTES} bytes"),
        ));
    }
    Ok(Some(bytes))
}

/// The files the manifest under `root` lists; none without one. A manifest
/// without the export's header, or listing a path it never writes, is refused.
fn listed(root: &Path) -> Result<BTreeSet<String>, String> {
    let path = join(root, MANIFEST);
    let Some(bytes) = read_file(&path)? else {
        return Ok(BTreeSet::new());
    };
    let text = String::from_utf8(bytes).map_err(|_| located(&path, "is not UTF-8"))?;
    if !text.starts_with(HEADER) {
        return Err(located(
            &path,
            "was not written by `zarr-reshape export-bats`; nothing was written",
        ));
    }
    let mut names = BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let plain = Path::new(line)
            .components()
            .all(|part| matches!(part, Component::Normal(_)));
        let ours = matches!(line, "tests.bats" | "README.md" | MANIFEST)
            || line.starts_with(&format!("{DATA}/"));
        if !plain || !ours {
            return Err(located(
                &path,
                format!("lists {line:?}, which `zarr-reshape export-bats` never writes"),
            ));
        }
        names.insert(line.to_string());
    }
    Ok(names)
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

/// Every entry below `root/folder` that is not a folder (links not followed,
/// and reported), by path below `root`.
fn files_below(root: &Path, folder: &str) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_string()];
    while let Some(name) = pending.pop() {
        let path = join(root, &name);
        let listing = match std::fs::read_dir(&path) {
            Ok(listing) => listing,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            Err(error) => return Err(located(&path, error)),
        };
        for entry in listing {
            let entry = entry.map_err(|e| located(&path, e))?;
            let child = format!("{name}/{}", entry.file_name().to_string_lossy());
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(child),
                Ok(_) => found.push(child),
                Err(error) => return Err(located(&entry.path(), error)),
            }
        }
    }
    Ok(found)
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
    write_guard::check_folder(dir).map_err(|e| e.to_string())?;
    for name in rendered.keys() {
        write_guard::check_file(dir, name).map_err(|e| e.to_string())?;
    }
    let known = listed(dir)?;
    let mut present: Vec<String> = rendered
        .keys()
        .filter(|name| std::fs::symlink_metadata(join(dir, name)).is_ok())
        .cloned()
        .collect();
    for folder in array_folders(&rendered) {
        present.extend(files_below(dir, &folder)?);
    }
    let foreign: BTreeSet<&String> = present
        .iter()
        .filter(|name| name.as_str() != MANIFEST && !known.contains(*name))
        .collect();
    if let Some(first) = foreign.first() {
        return Err(format!(
            "{} holds {} file(s) where the export writes that `zarr-reshape export-bats` did \
             not write (first: {first}); nothing was written. Move them away, or export into \
             another folder",
            dir.display(),
            foreign.len()
        ));
    }
    // Checked: from here on, only acting.
    for name in known.iter().filter(|name| !rendered.contains_key(*name)) {
        let path = join(dir, name);
        let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
        if regular {
            std::fs::remove_file(&path).map_err(|e| located(&path, e))?;
            for folder in path.ancestors().skip(1) {
                if folder == dir || std::fs::remove_dir(folder).is_err() {
                    break;
                }
            }
        }
    }
    write_guard::make_folder(dir).map_err(|e| e.to_string())?;
    let manifest_first = rendered
        .iter()
        .filter(|(name, _)| name.as_str() == MANIFEST)
        .chain(
            rendered
                .iter()
                .filter(|(name, _)| name.as_str() != MANIFEST),
        );
    for (name, bytes) in manifest_first {
        write_guard::replace_file(dir, name, bytes).map_err(|e| e.to_string())?;
    }
    Ok(rendered.len())
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
        match read_file(&join(dir, name))? {
            None => return Ok((rendered.len(), Some(format!("{name} is missing")))),
            Some(got) if &got != want => {
                return Ok((rendered.len(), Some(format!("{name} differs"))));
            }
            Some(_) => {}
        }
    }
    let mut extra = listed(dir)?
        .into_iter()
        .filter(|name| !rendered.contains_key(name))
        .filter(|name| std::fs::symlink_metadata(join(dir, name)).is_ok())
        .map(|name| format!("{name} is stale: the export no longer writes it"));
    if let Some(stale) = extra.next() {
        return Ok((rendered.len(), Some(stale)));
    }
    for folder in array_folders(&rendered) {
        if let Some(name) = files_below(dir, &folder)?
            .into_iter()
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
