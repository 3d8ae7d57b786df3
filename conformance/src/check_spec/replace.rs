//! Writing a repaired document back in place, for `--fix`, without harming
//! anything else: the new text goes to a fresh file in the same folder (created,
//! never opened if it exists) and is renamed over the document, so a reader sees
//! the old text or the new one, never a half-written file. A symbolic link is
//! refused (writing through it would change a file elsewhere), as is a file that
//! changed since it was read.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};

use super::check::MAX_DOCUMENT_BYTES;

/// How many temporary names are tried before giving up (one exists already when
/// an earlier run was killed between create and rename).
const MAX_TEMPORARY_NAMES: u32 = 16;

/// Refuses a path that is not a regular file of its own (a symbolic link, a
/// folder, a device), with a sentence saying why.
///
/// # Errors
/// When the path cannot be examined, or is not a regular file.
pub fn check_target(path: &Path) -> io::Result<()> {
    let metadata = fs::symlink_metadata(path)?;
    if metadata.file_type().is_symlink() {
        return Err(io::Error::other(
            "a symbolic link; not fixed (fix the file it points to by its own path)",
        ));
    }
    if !metadata.is_file() {
        return Err(io::Error::other("not a regular file; not fixed"));
    }
    Ok(())
}

/// Replaces the text of the file at `path`, which was `original` when read, by
/// `repaired`.
///
/// # Errors
/// When the path is refused by [`check_target`], the file no longer holds
/// `original`, or the temporary file cannot be written or renamed (it is then
/// removed; the document is left as it was).
pub fn replace(path: &Path, original: &str, repaired: &str) -> io::Result<()> {
    check_target(path)?;
    let limit = u64::try_from(MAX_DOCUMENT_BYTES).unwrap_or(u64::MAX);
    let mut now = String::new();
    File::open(path)?
        .take(limit.saturating_add(1))
        .read_to_string(&mut now)?;
    if now != original {
        return Err(io::Error::other(
            "changed while it was being checked; not fixed",
        ));
    }
    let permissions = fs::metadata(path)?.permissions();
    let (temporary, mut file) = create_temporary(path)?;
    let written = file
        .write_all(repaired.as_bytes())
        .and_then(|()| file.set_permissions(permissions))
        .and_then(|()| file.sync_all())
        .and_then(|()| check_target(path))
        .and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        // Ours (created above, never there before): safe to remove.
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// A new file next to `path`, named after it, created only if no such file exists.
fn create_temporary(path: &Path) -> io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("names no file"))?
        .to_string_lossy();
    let folder = path.parent().unwrap_or_else(|| Path::new(""));
    let mut last = io::Error::other("no temporary name was free");
    for attempt in 0..MAX_TEMPORARY_NAMES {
        let candidate = folder.join(format!(
            ".{name}.check-spec-fix.{}.{attempt}.tmp",
            std::process::id()
        ));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => return Ok((candidate, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = error,
            Err(error) => return Err(error),
        }
    }
    Err(last)
}
