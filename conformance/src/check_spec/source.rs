//! Reading a spec document without blocking: the path is examined before it is
//! opened, and only a regular file outside the kernel's pseudo filesystems is
//! read. A FIFO would block the read until a writer comes (or forever), a device
//! may never end it, and a "regular" file of procfs or sysfs (`/proc/kmsg`) may
//! block like a FIFO; each is refused, with a sentence saying why, before any
//! byte is read. The file is then opened without blocking and must be the one
//! examined (same device and inode), so a swap between the two steps is refused
//! too.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::Path;

use super::check::MAX_DOCUMENT_BYTES;

/// `O_NONBLOCK` for `open(2)`: a FIFO opens at once (and is then refused) instead
/// of waiting for a writer, and a pseudo file that honours it fails its read
/// rather than waiting. Its value differs between systems; where it is not known
/// here, no flag is added (the checks before the open still apply).
pub(crate) const O_NONBLOCK: i32 = if cfg!(all(
    any(target_os = "linux", target_os = "android"),
    not(any(
        target_arch = "mips",
        target_arch = "mips64",
        target_arch = "sparc",
        target_arch = "sparc64"
    ))
)) {
    0o4000
} else if cfg!(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
)) {
    0x4
} else {
    0
};

/// The mount points of the kernel's pseudo filesystems: a file on the device of
/// one of them is refused.
const PSEUDO_FILESYSTEMS: &[&str] = &[
    "/proc",
    "/sys",
    "/sys/kernel/debug",
    "/sys/kernel/tracing",
    "/sys/fs/cgroup",
    "/dev/pts",
];

/// Refuses what is not a regular file of an ordinary filesystem, from its
/// metadata (the link followed), with a sentence saying why.
///
/// # Errors
/// A FIFO, a socket, a device, a folder, or a file on a pseudo filesystem.
pub fn readable(metadata: &Metadata) -> io::Result<()> {
    let kind = metadata.file_type();
    if kind.is_dir() {
        return Err(io::Error::other("a folder, not a document"));
    }
    if !kind.is_file() {
        // A FIFO or a device would block the read, or never end it.
        return Err(io::Error::other(
            "not a regular file (a FIFO, a socket or a device)",
        ));
    }
    if let Some(mount) = pseudo_filesystem(metadata.dev()) {
        return Err(io::Error::other(format!(
            "a file of the pseudo filesystem at {mount}, whose reads may block"
        )));
    }
    Ok(())
}

/// The mount point of the pseudo filesystem on device `dev`, if it is one.
fn pseudo_filesystem(dev: u64) -> Option<&'static str> {
    PSEUDO_FILESYSTEMS.iter().copied().find(|mount| {
        fs::symlink_metadata(mount).is_ok_and(|metadata| metadata.is_dir() && metadata.dev() == dev)
    })
}

/// Opens the document at `path` for reading after [`readable`] accepts it, without
/// blocking, and checks that the file opened is the one examined.
///
/// # Errors
/// As [`readable`]; when the path cannot be opened; when it changed in between.
pub fn open(path: &Path) -> io::Result<(File, Metadata)> {
    let refused = |error: io::Error| io::Error::other(format!("{error}; not read"));
    let before = fs::metadata(path)?;
    readable(&before).map_err(refused)?;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)?;
    let opened = file.metadata()?;
    readable(&opened).map_err(refused)?;
    if (opened.dev(), opened.ino()) != (before.dev(), before.ino()) {
        return Err(io::Error::other(
            "replaced while it was being opened; not read",
        ));
    }
    Ok((file, opened))
}

/// The document's text, or its size when it is over [`MAX_DOCUMENT_BYTES`]
/// (then it is not read past the limit).
///
/// # Errors
/// As [`open`]; when the read fails (a pseudo file that would block fails it
/// here, the descriptor being non-blocking) or the text is not UTF-8.
pub fn read(path: &Path) -> io::Result<Result<String, u64>> {
    let (file, metadata) = open(path)?;
    let limit = u64::try_from(MAX_DOCUMENT_BYTES).unwrap_or(u64::MAX);
    let mut text = String::new();
    file.take(limit.saturating_add(1))
        .read_to_string(&mut text)?;
    if text.len() <= MAX_DOCUMENT_BYTES {
        Ok(Ok(text))
    } else {
        Ok(Err(metadata.len().max(limit.saturating_add(1))))
    }
}
