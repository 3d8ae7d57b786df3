//! Writing below a folder the user named (the *target*) and nowhere else: the
//! commands that write files (`fixtures`, `fuzz --out`, `man --out`) check every
//! path before they change anything, and then write without following a link.
//!
//! The rules: the target's own path is taken as the system resolves it (it is
//! what the user typed), but the target itself is never a symbolic link, and no
//! folder or file below it is one. A missing target is made with its parent
//! already there (never the parents: they would be outside it). A file is written
//! to a new temporary file beside it, renamed over the old one: a link planted
//! after the check is replaced, never written through, and a file that shares its
//! data with another hard link is not changed under the other name.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// What is at a path, its last part not followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    Nothing,
    Folder,
    File,
    Link,
    Other,
}

fn found(path: &Path) -> io::Result<Found> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Ok(Found::Link),
        Ok(meta) if meta.is_dir() => Ok(Found::Folder),
        Ok(meta) if meta.is_file() => Ok(Found::File),
        Ok(_) => Ok(Found::Other),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Found::Nothing),
        Err(error) => Err(located(path, &error)),
    }
}

fn located(path: &Path, error: &io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

fn refuse(path: &Path, why: &str) -> io::Error {
    io::Error::other(format!("{}: {why}", path.display()))
}

const LINK: &str = "is a symbolic link, which is never written through; \
                    name the folder it points to, or move the link away";

/// Checks that `dir` can be the target: a folder that is not a link, or nothing
/// yet with an existing folder as its parent. Changes nothing; returns whether
/// the folder exists.
///
/// # Errors
/// When `dir` is a link, a file or anything else but a folder, or is missing
/// and so is its parent.
pub fn check_folder(dir: &Path) -> io::Result<bool> {
    match found(dir)? {
        Found::Folder => Ok(true),
        Found::Link => Err(refuse(dir, LINK)),
        Found::File | Found::Other => Err(refuse(dir, "exists and is not a folder")),
        Found::Nothing => {
            let parent = match dir.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            if parent.is_dir() {
                Ok(false)
            } else {
                Err(refuse(
                    dir,
                    "does not exist and neither does its parent folder; make the parent \
                     first (only the named folder itself is made)",
                ))
            }
        }
    }
}

/// [`check_folder`], then makes `dir` when it is missing (not its parents).
/// Returns whether it made it.
///
/// # Errors
/// As [`check_folder`], or when the folder cannot be made.
pub fn make_folder(dir: &Path) -> io::Result<bool> {
    if check_folder(dir)? {
        return Ok(false);
    }
    std::fs::create_dir(dir).map_err(|e| located(dir, &e))?;
    Ok(true)
}

/// The `/`-separated parts of `name`, each a plain file name (no `..`, no root,
/// no empty part).
///
/// # Errors
/// When a part is not plain.
pub fn plain_parts(name: &str) -> io::Result<Vec<&str>> {
    let parts: Vec<&str> = name.split('/').collect();
    let plain = |part: &&str| {
        !part.is_empty() && *part != "." && *part != ".." && !part.contains(['\\', '\0'])
    };
    if parts.iter().all(plain) {
        Ok(parts)
    } else {
        Err(io::Error::other(format!(
            "{name:?} is not a plain relative path; nothing is written outside the target"
        )))
    }
}

/// Checks that the file `name` (`/`-separated) below `root` can be written:
/// each folder on the way is a folder that is not a link, or missing; the file
/// a regular file that is not a link, or missing. Changes nothing; returns
/// whether the file exists.
///
/// # Errors
/// When `name` is not plain, or a part of the way is a link, a file where a
/// folder belongs, or something other than a regular file where the file belongs.
pub fn check_file(root: &Path, name: &str) -> io::Result<bool> {
    let parts = plain_parts(name)?;
    let mut path = root.to_path_buf();
    let Some((file, folders)) = parts.split_last() else {
        return Err(io::Error::other("an empty file name"));
    };
    for folder in folders {
        path.push(folder);
        match found(&path)? {
            Found::Folder => {}
            // Nothing below a missing folder exists either.
            Found::Nothing => return Ok(false),
            Found::Link => return Err(refuse(&path, LINK)),
            Found::File | Found::Other => {
                return Err(refuse(&path, "is in the way: a folder belongs there"));
            }
        }
    }
    path.push(file);
    match found(&path)? {
        Found::Nothing => Ok(false),
        Found::File => Ok(true),
        Found::Link => Err(refuse(&path, LINK)),
        Found::Folder | Found::Other => Err(refuse(&path, "is not a regular file")),
    }
}

/// Writes `bytes` to the file `name` (`/`-separated) below `root`, an existing
/// folder: makes the folders on the way (refusing links), writes a new temporary
/// file beside it and renames it over the file. Returns the file's path.
///
/// # Errors
/// As [`check_file`], or when a folder or the file cannot be written.
pub fn replace_file(root: &Path, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let parts = plain_parts(name)?;
    let Some((file, folders)) = parts.split_last() else {
        return Err(io::Error::other("an empty file name"));
    };
    let mut path = root.to_path_buf();
    for folder in folders {
        path.push(folder);
        match found(&path)? {
            Found::Folder => {}
            Found::Nothing => std::fs::create_dir(&path).map_err(|e| located(&path, &e))?,
            Found::Link => return Err(refuse(&path, LINK)),
            Found::File | Found::Other => {
                return Err(refuse(&path, "is in the way: a folder belongs there"));
            }
        }
    }
    let temporary = path.join(format!(".{file}.{}.tmp", std::process::id()));
    path.push(file);
    match found(&path)? {
        Found::Nothing | Found::File => {}
        Found::Link => return Err(refuse(&path, LINK)),
        Found::Folder | Found::Other => return Err(refuse(&path, "is not a regular file")),
    }
    // create_new: fails on anything already there, a link included.
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)
        .map_err(|e| located(&temporary, &e))?;
    let written = out
        .write_all(bytes)
        .and_then(|()| std::fs::rename(&temporary, &path));
    if let Err(error) = written {
        // Only the file this call made.
        let _ = std::fs::remove_file(&temporary);
        return Err(located(&path, &error));
    }
    Ok(path)
}
