//! The suite embedded in this crate (the `zarr-reshape-vectors` crate), on disk.
//! The runner reads vector files, and adapters read Zarr array fixtures, by path,
//! so an installed binary writes its embedded suite once to a fresh private folder
//! that this process makes under the system's temporary directory, and removes
//! exactly what it wrote when done.

use std::hash::{BuildHasher as _, Hasher as _};
use std::io;
use std::path::{Path, PathBuf};

use super::written::Written;

/// The suite version of the embedded vectors (semver).
pub const SUITE_VERSION: &str = zarr_reshape_vectors::SUITE_VERSION;

/// How many fresh folder names are tried before giving up.
const ATTEMPTS: u32 = 16;

/// The embedded suite's name in messages and reports, e.g. `embedded suite 1.0.0`.
#[must_use]
pub fn name() -> String {
    format!("embedded suite {SUITE_VERSION}")
}

/// The upstream spec commit the embedded suite tracks (`clauses.json`'s
/// `spec.commit`), or `None` when the registry cannot be read.
#[must_use]
pub fn spec_commit() -> Option<String> {
    let registry = zarr_reshape_vectors::file("clauses.json")?;
    let registry: serde_json::Value = serde_json::from_slice(registry).ok()?;
    registry
        .pointer("/spec/commit")
        .and_then(serde_json::Value::as_str)
        .map(str::to_string)
}

/// The clause ids of the embedded registry, in registry order.
#[must_use]
pub fn clause_ids() -> Vec<String> {
    let Some(registry) = zarr_reshape_vectors::file("clauses.json") else {
        return Vec::new();
    };
    let Ok(registry) = serde_json::from_slice::<crate::registry::Registry>(registry) else {
        return Vec::new();
    };
    registry
        .clauses
        .into_iter()
        .map(|clause| clause.id)
        .collect()
}

/// The embedded suite written to a fresh folder; removed when dropped.
#[derive(Debug)]
pub struct EmbeddedSuite {
    root: PathBuf,
    written: Written,
}

impl EmbeddedSuite {
    /// Writes every embedded file to a new folder under the system's temporary
    /// directory, readable by this user only.
    ///
    /// # Errors
    /// When no fresh folder can be made or a file cannot be written; what was
    /// written is removed first.
    pub fn unpack() -> io::Result<Self> {
        Self::unpack_in(&std::env::temp_dir())
    }

    /// As [`EmbeddedSuite::unpack`], in `parent` (which must exist).
    ///
    /// # Errors
    /// As [`EmbeddedSuite::unpack`].
    pub fn unpack_in(parent: &Path) -> io::Result<Self> {
        let root = fresh_folder(parent)?;
        let mut written = Written::default();
        written.made_folder(root.clone());
        if let Err(error) = written.write_suite(&root, zarr_reshape_vectors::files()) {
            let _ = written.remove();
            return Err(error);
        }
        Ok(Self { root, written })
    }

    /// The suite root: the folder holding `clauses.json`.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Removes the folder now, reporting a failure (drop removes it silently).
    ///
    /// # Errors
    /// When a written file or folder cannot be removed, e.g. because someone
    /// else put a file in it, which is kept.
    pub fn remove(mut self) -> io::Result<()> {
        self.written.remove()
    }

    /// `text` with the temporary root replaced by the suite's name, for messages.
    #[must_use]
    pub fn describe(&self, text: &str) -> String {
        text.replace(&self.root.display().to_string(), &name())
    }
}

impl Drop for EmbeddedSuite {
    fn drop(&mut self) {
        let _ = self.written.remove();
    }
}

/// A new folder in `parent` with a name no other process chose: `create_dir`
/// fails on any existing entry (a link included), so the folder is this process's.
fn fresh_folder(parent: &Path) -> io::Result<PathBuf> {
    let mut last = None;
    for attempt in 0..ATTEMPTS {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.write_u32(attempt);
        if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            hasher.write_u128(now.as_nanos());
        }
        let folder = parent.join(format!(
            "zarr-reshape-suite-{}-{:016x}",
            std::process::id(),
            hasher.finish()
        ));
        match private_folder(&folder) {
            Ok(()) => return Ok(folder),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = Some(error),
            Err(error) => {
                return Err(io::Error::new(
                    error.kind(),
                    format!("{}: {error}", folder.display()),
                ));
            }
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no fresh folder name")))
}

#[cfg(unix)]
fn private_folder(folder: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new().mode(0o700).create(folder)
}

#[cfg(not(unix))]
fn private_folder(folder: &Path) -> io::Result<()> {
    std::fs::DirBuilder::new().create(folder)
}
