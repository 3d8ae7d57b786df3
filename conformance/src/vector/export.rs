//! `zarr-reshape vectors --export DIR`: a self-contained copy of the embedded
//! suite (every vector file, `clauses.json`, `vector.schema.json`, the README and
//! the array fixtures) with a SHA-256 manifest that `sha256sum -c` reads.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use sha2::{Digest as _, Sha256};

use super::written::{Written, plain_parts};

/// The checksum manifest's file name, at the root of an export.
pub const MANIFEST: &str = "SHA256SUMS";

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exported {
    /// Suite files written, the manifest not counted.
    pub files: usize,
    /// Of which vector files.
    pub vector_files: usize,
}

/// Writes the embedded suite and its manifest to `dir`: a folder that does not
/// exist yet (its parent must) or an empty one. Nothing is written outside `dir`
/// and no link is followed, `dir` itself included.
///
/// # Errors
/// When `dir` is a link, a file, or a folder that is not empty, or a file cannot
/// be written; what was written is then removed again.
pub fn export(dir: &Path) -> io::Result<Exported> {
    let mut written = Written::default();
    match std::fs::symlink_metadata(dir) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            // Not create_dir_all: the parent folders would be outside `dir`.
            std::fs::create_dir(dir).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!(
                        "{}: cannot create it (its parent folder must exist): {e}",
                        dir.display()
                    ),
                )
            })?;
            written.made_folder(dir.to_path_buf());
        }
        Err(error) => {
            return Err(io::Error::new(
                error.kind(),
                format!("{}: {error}", dir.display()),
            ));
        }
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(refuse(dir, "is a symbolic link, which is not followed"));
        }
        Ok(meta) if !meta.is_dir() => return Err(refuse(dir, "exists and is not a folder")),
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
            if entries.next().is_some() {
                return Err(refuse(
                    dir,
                    "exists and is not empty; export into a new or empty folder",
                ));
            }
        }
    }
    let files = zarr_reshape_vectors::files();
    let result = manifest(files).and_then(|manifest| {
        written.write_suite(dir, files)?;
        written.write_new(&dir.join(MANIFEST), manifest.as_bytes())
    });
    match result {
        Ok(()) => Ok(Exported {
            files: written.file_count().saturating_sub(1),
            vector_files: zarr_reshape_vectors::vector_files().count(),
        }),
        Err(error) => {
            let _ = written.remove();
            Err(error)
        }
    }
}

/// The manifest of `files`: one `<sha256 hex>  <path>` line each, in path order.
///
/// # Errors
/// When a path is not a plain relative path (a manifest line could not hold it).
pub fn manifest(files: &[zarr_reshape_vectors::File]) -> io::Result<String> {
    let mut text = String::new();
    for file in files {
        plain_parts(file.path)?;
        for byte in Sha256::digest(file.bytes) {
            let _ = write!(text, "{byte:02x}");
        }
        let _ = writeln!(text, "  {}", file.path);
    }
    Ok(text)
}

fn refuse(dir: &Path, why: &str) -> io::Error {
    io::Error::other(format!("{}: {why}", dir.display()))
}
