//! The one opener of every input file the suite reads: vector files,
//! `vector.schema.json`, `clauses.json`, expectations files, the files of an array
//! folder, the JSON-lines runs `report` reads, and the files a writer reads back
//! from its own folder ([`crate::owned_files`]).
//!
//! Before a byte is read it refuses what could block or never end: anything but
//! a regular file (a FIFO, a device such as `/dev/zero`, a socket), a file on a
//! pseudo filesystem (on Linux: one on the device of `/proc` or `/sys`, such as a
//! link to `/proc/kmsg`, whose read blocks), and a file larger than the caller's
//! limit. The read itself stops one byte past the limit, so a file that grows
//! after it was measured is refused too. The file is measured through links (a
//! link to a regular file is read; [`open_unlinked`] refuses one instead), and
//! measured again once opened: a file swapped between the two is refused.

use std::fs::File;
use std::io::{Read, Take};
use std::path::Path;

/// Why a file was not read: a sentence, the path not included.
pub type Refusal = String;

/// Opens `path` for a read of at most `limit` bytes, after the checks of the
/// module documentation. The reader yields at most `limit + 1` bytes: one more
/// than the limit tells the caller the file is too large.
///
/// # Errors
/// The file cannot be measured or opened, is not a regular file, lies on a
/// pseudo filesystem, or is larger than `limit`.
pub fn open(path: &Path, limit: u64) -> Result<Take<File>, Refusal> {
    let before = std::fs::metadata(path).map_err(|e| e.to_string())?;
    open_measured(path, &before, limit)
}

/// As [`open`], but a symbolic link at `path` is refused, not followed: the
/// path is measured without following it, and the file opened must be the one
/// measured (a link swapped in between is refused too).
///
/// # Errors
/// As [`open`]; `path` is a symbolic link.
pub fn open_unlinked(path: &Path, limit: u64) -> Result<Take<File>, Refusal> {
    let before = std::fs::symlink_metadata(path).map_err(|e| e.to_string())?;
    if before.file_type().is_symlink() {
        return Err("a symbolic link, which is never followed here".into());
    }
    open_measured(path, &before, limit)
}

fn open_measured(
    path: &Path,
    before: &std::fs::Metadata,
    limit: u64,
) -> Result<Take<File>, Refusal> {
    refuse_unreadable(before, limit)?;
    let file = File::open(path).map_err(|e| e.to_string())?;
    let after = file.metadata().map_err(|e| e.to_string())?;
    refuse_unreadable(&after, limit)?;
    if !same_file(before, &after) {
        return Err("the file changed while it was opened".into());
    }
    Ok(file.take(limit.saturating_add(1)))
}

/// The bytes of `path`, at most `limit` of them (see [`open`]).
///
/// # Errors
/// As [`open`]; a read error; more than `limit` bytes read.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    read_all(open(path, limit)?, limit)
}

/// The bytes of `path`, at most `limit` of them, a link at `path` refused (see
/// [`open_unlinked`]).
///
/// # Errors
/// As [`open_unlinked`]; a read error; more than `limit` bytes read.
pub fn read_bytes_unlinked(path: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    read_all(open_unlinked(path, limit)?, limit)
}

fn read_all(mut file: Take<File>, limit: u64) -> Result<Vec<u8>, Refusal> {
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if !u64::try_from(bytes.len()).is_ok_and(|read| read <= limit) {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

/// The text of `path`, at most `limit` bytes of UTF-8 (see [`open`]).
///
/// # Errors
/// As [`read_bytes`]; text that is not UTF-8.
pub fn read_string(path: &Path, limit: u64) -> Result<String, Refusal> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|_| "not UTF-8 text".to_string())
}

fn too_large(limit: u64) -> Refusal {
    format!("larger than {limit} bytes, the limit for this file")
}

fn refuse_unreadable(metadata: &std::fs::Metadata, limit: u64) -> Result<(), Refusal> {
    if !metadata.is_file() {
        // A FIFO blocks, a device such as /dev/zero never ends.
        return Err("not a regular file (FIFOs, devices and sockets are not read)".into());
    }
    if on_pseudo_filesystem(metadata) {
        return Err(
            "a file of /proc or /sys, whose read can block (such as /proc/kmsg), is not read"
                .into(),
        );
    }
    if metadata.len() > limit {
        return Err(too_large(limit));
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    true
}

/// Whether the file lies on the device of `/proc` or `/sys` (Linux's pseudo
/// filesystems, whose "regular" files report a size of 0 or 4096 whatever they
/// hold, and some of whose reads block).
#[cfg(unix)]
fn on_pseudo_filesystem(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    ["/proc", "/sys"].iter().any(|root| {
        std::fs::metadata(root).is_ok_and(|pseudo| {
            pseudo.dev() == metadata.dev() && !pseudo_is_the_root_device(&pseudo)
        })
    })
}

/// Where `/proc` or `/sys` is a plain folder of the root filesystem (not
/// mounted, as in some containers), its device is no sign of a pseudo
/// filesystem.
#[cfg(unix)]
fn pseudo_is_the_root_device(pseudo: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/").is_ok_and(|root| root.dev() == pseudo.dev())
}

#[cfg(not(unix))]
fn on_pseudo_filesystem(_: &std::fs::Metadata) -> bool {
    false
}

/// The deepest JSON a vector file may nest: 272 (a rank-256 array, the
/// documented rank limit, and 16 levels of the file around it). serde_json's own
/// limit, 128, would refuse a file of a rank-200 case.
pub const MAX_VECTOR_DEPTH: usize = 272;

/// The deepest JSON line the runner writes and `report` reads: a record holds a
/// case's values at most 16 levels deeper than its vector file. Requests read by
/// `zarr-reshape adapter` and answers read from an adapter take the same limit.
pub const MAX_RECORD_DEPTH: usize = MAX_VECTOR_DEPTH + 16;

/// Parses `text` as JSON nested at most `max_depth` deep: the depth is counted
/// first, in one pass that takes no room, and the parse then runs without
/// serde_json's recursion limit of 128 (the stack taken stays bounded by
/// `max_depth`).
///
/// # Errors
/// JSON nested deeper than `max_depth`; text that is not JSON.
pub fn parse_json(text: &[u8], max_depth: usize) -> Result<serde_json::Value, Refusal> {
    use serde::Deserialize as _;
    let depth = nesting_depth(text);
    if depth > max_depth {
        return Err(format!(
            "nested {depth} deep, beyond the limit of {max_depth} (a rank-256 array and its envelope)"
        ));
    }
    let mut parser = serde_json::Deserializer::from_slice(text);
    parser.disable_recursion_limit();
    let value = serde_json::Value::deserialize(&mut parser).map_err(|e| e.to_string())?;
    parser.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// The deepest nesting of arrays and objects in `text`, brackets in strings not
/// counted (on text that is not JSON, some number: the parse then refuses it).
fn nesting_depth(text: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for byte in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if *byte == b'\\' {
                escaped = true;
            } else if *byte == b'"' {
                in_string = false;
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth = depth.saturating_add(1);
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
pub(crate) mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// A new, empty folder `name` of this process below the system's temporary
    /// folder (other modules' unit tests use it too).
    pub(crate) fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "zarr-reshape-input-file-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_within_the_limit_is_read_and_one_beyond_is_refused() {
        let dir = scratch("limit");
        let path = dir.join("f");
        std::fs::write(&path, "abcd").unwrap();
        assert_eq!(read_string(&path, 4).unwrap(), "abcd");
        assert!(read_string(&path, 3).unwrap_err().contains("larger than 3"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn json_is_read_to_the_depth_limit_and_refused_beyond_it() {
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        assert!(parse_json(nested(MAX_RECORD_DEPTH).as_bytes(), MAX_RECORD_DEPTH).is_ok());
        let refusal =
            parse_json(nested(MAX_RECORD_DEPTH + 1).as_bytes(), MAX_RECORD_DEPTH).unwrap_err();
        assert!(refusal.contains("beyond the limit"), "{refusal}");
        assert_eq!(nesting_depth(br#"["[[\"[", {"a": []}]"#), 3);
        assert!(parse_json(b"[1] x", 4).is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_fifos_and_proc_files_are_refused_before_any_read() {
        let dir = scratch("kinds");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let kmsg = dir.join("kmsg");
        std::os::unix::fs::symlink("/proc/kmsg", &kmsg).unwrap();
        let version = dir.join("version");
        std::os::unix::fs::symlink("/proc/version", &version).unwrap();
        for path in [Path::new("/dev/zero"), &fifo] {
            let refusal = read_bytes(path, 1 << 20).unwrap_err();
            assert!(refusal.contains("not a regular file"), "{refusal}");
        }
        // /proc/kmsg may be unreadable (not root) or absent; /proc/version is neither.
        let refusal = read_bytes(&version, 1 << 20).unwrap_err();
        assert!(refusal.contains("/proc or /sys"), "{refusal}");
        if std::fs::metadata("/proc/kmsg").is_ok() {
            let refusal = read_bytes(&kmsg, 1 << 20).unwrap_err();
            assert!(refusal.contains("/proc or /sys"), "{refusal}");
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
