//! Writing the embedded suite's files below a folder, keeping a list of exactly
//! what was written, so that the writer removes those files and folders and
//! nothing else. No link is ever followed: folders are made with `create_dir` and
//! files with `create_new`, which both fail on anything already there.

use std::collections::BTreeSet;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use zarr_reshape_vectors::File;

/// The files and folders one writer made, in the order it made them.
#[derive(Debug, Default)]
pub(super) struct Written {
    files: Vec<PathBuf>,
    folders: Vec<PathBuf>,
}

impl Written {
    /// Records a folder the caller made itself (the root of a fresh folder).
    pub(super) fn made_folder(&mut self, folder: PathBuf) {
        self.folders.push(folder);
    }

    /// The number of files written.
    pub(super) fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Writes `bytes` to a new file at `path`; fails if anything is there.
    pub(super) fn write_new(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        self.files.push(path.to_path_buf());
        file.write_all(bytes)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }

    /// Writes every file of `files` below `root`, an existing folder, making the
    /// sub-folders they need.
    pub(super) fn write_suite(&mut self, root: &Path, files: &[File]) -> io::Result<()> {
        let mut known: BTreeSet<PathBuf> = BTreeSet::new();
        for file in files {
            let parts = plain_parts(file.path)?;
            let mut path = root.to_path_buf();
            let Some((name, folders)) = parts.split_last() else {
                return Err(io::Error::other("an empty suite path"));
            };
            for folder in folders {
                path.push(folder);
                if known.insert(path.clone()) {
                    std::fs::create_dir(&path).map_err(|e| {
                        io::Error::new(e.kind(), format!("{}: {e}", path.display()))
                    })?;
                    self.folders.push(path.clone());
                }
            }
            path.push(name);
            self.write_new(&path, file.bytes)?;
        }
        Ok(())
    }

    /// Removes what was written, newest first. A folder that someone else has put
    /// a file into is kept (removing it would remove their file): the error says so.
    pub(super) fn remove(&mut self) -> io::Result<()> {
        let mut first_error = None;
        for file in self.files.drain(..).rev() {
            if let Err(error) = std::fs::remove_file(&file) {
                first_error.get_or_insert(io::Error::new(
                    error.kind(),
                    format!("{}: {error}", file.display()),
                ));
            }
        }
        for folder in self.folders.drain(..).rev() {
            if let Err(error) = std::fs::remove_dir(&folder) {
                first_error.get_or_insert(io::Error::new(
                    error.kind(),
                    format!("{}: {error}", folder.display()),
                ));
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

/// The '/'-separated parts of a suite path, each a plain file name: no `..`, no
/// root, nothing a checksum manifest line could not hold.
pub(super) fn plain_parts(path: &str) -> io::Result<Vec<&str>> {
    let parts: Vec<&str> = path.split('/').collect();
    let plain = |part: &&str| {
        !part.is_empty()
            && *part != "."
            && *part != ".."
            && !part.contains(['\\', '\n', '\r', '\0', ':'])
    };
    if parts.iter().all(plain) {
        Ok(parts)
    } else {
        Err(io::Error::other(format!(
            "the suite path {path:?} is not a plain relative path"
        )))
    }
}
