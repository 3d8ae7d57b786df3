//! Writing a repaired document back in place, for `--fix`, without harming
//! anything else. Everything is checked before anything is written (and checked
//! again just before the rename): the path must name a regular file of its own,
//! through folders that are not symbolic links, writable (not read-only), with a
//! single link. The new text then goes to a fresh file in the same folder
//! (created, never opened if it exists, with the document's mode from the start,
//! given the document's owner and group), and is renamed over the document, so a
//! reader sees the old text or the new one, never a half-written file. A file
//! that changed since it was read is left as it was.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read as _, Write as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use super::check::MAX_DOCUMENT_BYTES;
use super::source;

/// How many temporary names are tried before giving up (one exists already when
/// an earlier run was killed between create and rename).
const MAX_TEMPORARY_NAMES: u32 = 16;

/// Refuses a path that `--fix` must not write: a symbolic link, a path through a
/// folder that is a symbolic link, anything but a regular file of an ordinary
/// filesystem, a read-only file, a file this user cannot open for writing, a file
/// with more than one hard link. Returns the file's metadata.
///
/// # Errors
/// When the path cannot be examined, or is refused (the sentence says why).
pub fn check_target(path: &Path) -> io::Result<Metadata> {
    for folder in path.ancestors().skip(1) {
        if folder.as_os_str().is_empty() || folder == Path::new("/") {
            continue;
        }
        if fs::symlink_metadata(folder)?.file_type().is_symlink() {
            return Err(io::Error::other(format!(
                "its folder {} is a symbolic link; not fixed (give the path without links)",
                folder.display()
            )));
        }
    }
    let metadata = fs::symlink_metadata(path)?;
    if metadata.file_type().is_symlink() {
        return Err(io::Error::other(
            "a symbolic link; not fixed (fix the file it points to by its own path)",
        ));
    }
    source::readable(&metadata).map_err(|error| io::Error::other(format!("{error}; not fixed")))?;
    if metadata.permissions().readonly() {
        return Err(io::Error::other(format!(
            "read-only (mode {:o}); not fixed",
            metadata.mode() & 0o7777
        )));
    }
    if metadata.nlink() > 1 {
        return Err(io::Error::other(format!(
            "has {} hard links; not fixed (the repaired file would replace this name only, \
             and the other links would keep the old text)",
            metadata.nlink()
        )));
    }
    // Opened for writing (neither created nor truncated) to learn whether this
    // user may write it; nothing is written through it.
    OpenOptions::new()
        .write(true)
        .custom_flags(source::O_NONBLOCK)
        .open(path)
        .map_err(|error| {
            io::Error::new(error.kind(), format!("not writable: {error}; not fixed"))
        })?;
    Ok(metadata)
}

/// Replaces the text of the file at `path`, which was `original` when read, by
/// `repaired`.
///
/// # Errors
/// When the path is refused by [`check_target`], the file no longer holds
/// `original`, or the temporary file cannot be written, given the document's
/// owner or renamed (it is then removed; the document is left as it was).
pub fn replace(path: &Path, original: &str, repaired: &str) -> io::Result<()> {
    let metadata = check_target(path)?;
    let limit = u64::try_from(MAX_DOCUMENT_BYTES).unwrap_or(u64::MAX);
    let (file, _) = source::open(path)?;
    let mut now = String::new();
    file.take(limit.saturating_add(1))
        .read_to_string(&mut now)?;
    if now != original {
        return Err(io::Error::other(
            "changed while it was being checked; not fixed",
        ));
    }
    let (temporary, mut file) = create_temporary(path, &metadata)?;
    let same = |now: Metadata| (now.dev(), now.ino()) == (metadata.dev(), metadata.ino());
    let written = keep_owner(&file, &metadata)
        .and_then(|()| file.set_permissions(metadata.permissions()))
        .and_then(|()| file.write_all(repaired.as_bytes()))
        .and_then(|()| file.sync_all())
        .and_then(|()| check_target(path))
        .and_then(|now| {
            if same(now) {
                Ok(())
            } else {
                Err(io::Error::other(
                    "replaced while it was being checked; not fixed",
                ))
            }
        })
        .and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        // Ours (created above, never there before): safe to remove.
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// Gives the new file the document's owner and group when it did not get them by
/// itself; refuses when this user may not.
fn keep_owner(file: &File, document: &Metadata) -> io::Result<()> {
    let new = file.metadata()?;
    if (new.uid(), new.gid()) == (document.uid(), document.gid()) {
        return Ok(());
    }
    std::os::unix::fs::fchown(file, Some(document.uid()), Some(document.gid())).map_err(|error| {
        io::Error::new(
            error.kind(),
            format!(
                "owned by {}:{}, which the repaired file cannot be given ({error}); not fixed",
                document.uid(),
                document.gid()
            ),
        )
    })
}

/// A new file next to `path`, named after it, created only if no such file
/// exists, with no permission the document does not have.
fn create_temporary(path: &Path, document: &Metadata) -> io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("names no file"))?
        .to_string_lossy();
    let folder = path.parent().unwrap_or_else(|| Path::new(""));
    let mode = document.permissions().mode() & 0o777;
    let mut last = io::Error::other("no temporary name was free");
    for attempt in 0..MAX_TEMPORARY_NAMES {
        let candidate = folder.join(format!(
            ".{name}.check-spec-fix.{}.{attempt}.tmp",
            std::process::id()
        ));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&candidate)
        {
            Ok(file) => return Ok((candidate, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = error,
            Err(error) => return Err(error),
        }
    }
    Err(last)
}
