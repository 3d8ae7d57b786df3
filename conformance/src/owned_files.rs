//! Files a tool owns in a folder, listed in its manifest: the one piece of code
//! behind `zarr-reshape fixtures`, `fixtures --sample-data DIR` and
//! `export-bats DIR`.
//!
//! A writer lists every file it wrote in a manifest (an [`Owner`]'s
//! `manifest`, itself one of the files written); those are the only files it
//! ever rewrites or removes. A file in a place the writer watches that no
//! manifest lists belongs to someone else ([`Foreign`]): it stops the write
//! before anything changes, unless forced, and even forced is never removed.
//! Nothing is read, removed or written through a symbolic link: every path is
//! checked first ([`crate::write_guard`]), and files are read by
//! [`crate::input_file::read_bytes_unlinked`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use crate::{input_file, write_guard};

/// A tool that owns files below a folder (the *root*), and its manifest.
#[derive(Debug, Clone, Copy)]
pub struct Owner {
    /// The command, as messages name it (`zarr-reshape fixtures`).
    pub tool: &'static str,
    /// The manifest's path below the root (`/`-separated).
    pub manifest: &'static str,
    /// The manifest's comment lines, each starting with `#` and ending in a
    /// newline, before the paths.
    pub header: &'static str,
    /// Whether a manifest that does not start with the header's first line is
    /// refused as someone else's.
    pub header_required: bool,
    /// Whether the manifest lists itself.
    pub lists_itself: bool,
    /// Whether a path (`/`-separated, below the root) is one the tool may
    /// write: a manifest listing any other is refused.
    pub may_write: fn(&str) -> bool,
    /// The largest file read back, in bytes.
    pub max_file_bytes: u64,
}

/// Where a file that no manifest lists is someone else's, and what then.
#[derive(Debug, Clone)]
pub struct Foreign<'a> {
    /// The folders below the root (`""`: the root itself) every file of which
    /// is watched; the paths the tool writes are always watched.
    pub folders: Vec<String>,
    /// Whether the write goes on all the same: such a file is then overwritten
    /// where the tool writes a file of its name, and otherwise left alone.
    pub force: bool,
    /// Where such files are, as the refusal says it before "that `tool` did
    /// not write" (`""`, or a phrase ending in a space).
    pub place: &'a str,
    /// What the refusal offers after "Move them away, " (`or pass --force`).
    pub remedy: &'a str,
}

/// `root` joined with the `/`-separated `name`.
#[must_use]
pub fn join(root: &Path, name: &str) -> PathBuf {
    name.split('/')
        .fold(root.to_path_buf(), |path, part| path.join(part))
}

/// A message about `path`: `<path>: <message>`.
pub fn located(path: &Path, message: impl std::fmt::Display) -> String {
    format!("{}: {message}", path.display())
}

/// Every entry below `root/folder` (`folder` `/`-separated, `""` for the root)
/// that is not a folder, by path below `root`, with whether it is a regular
/// file. Links are listed, never followed; a missing folder holds nothing.
///
/// # Errors
/// When a folder cannot be listed.
pub fn files_below(root: &Path, folder: &str) -> Result<BTreeMap<String, bool>, String> {
    let mut found = BTreeMap::new();
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
            let file_name = entry.file_name().to_string_lossy().into_owned();
            let child = if name.is_empty() {
                file_name
            } else {
                format!("{name}/{file_name}")
            };
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(child),
                Ok(kind) => {
                    found.insert(child, kind.is_file());
                }
                Err(error) => return Err(located(&entry.path(), error)),
            }
        }
    }
    Ok(found)
}

impl Owner {
    /// The manifest's text for the files `names`: the header, then one path a
    /// line in order (the manifest itself included when it lists itself).
    pub fn manifest_text<'a>(&self, names: impl Iterator<Item = &'a String>) -> Vec<u8> {
        let mut listed: BTreeSet<&str> = names.map(String::as_str).collect();
        if self.lists_itself {
            listed.insert(self.manifest);
        } else {
            listed.remove(self.manifest);
        }
        let mut text = self.header.to_string();
        for name in listed {
            text.push_str(name);
            text.push('\n');
        }
        text.into_bytes()
    }

    /// The regular file at `path`, read without following a link and refused
    /// beyond [`Owner::max_file_bytes`]; `None` when nothing is there.
    ///
    /// # Errors
    /// When `path` is a link or anything but a regular file, too large, or
    /// cannot be read.
    pub fn read(&self, path: &Path) -> Result<Option<Vec<u8>>, String> {
        match std::fs::symlink_metadata(path) {
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(located(path, error)),
        }
        input_file::read_bytes_unlinked(path, self.max_file_bytes)
            .map(Some)
            .map_err(|refusal| located(path, refusal))
    }

    /// Every file below `root/folder` read back (for `--check`), by path below
    /// `root`.
    ///
    /// # Errors
    /// When a folder cannot be listed or a file read; for a link or another
    /// entry that is not a regular file, or a file beyond the size limit.
    pub fn on_disk(&self, root: &Path, folder: &str) -> Result<BTreeMap<String, Vec<u8>>, String> {
        let mut files = BTreeMap::new();
        for name in files_below(root, folder)?.into_keys() {
            if let Some(bytes) = self.read(&join(root, &name))? {
                files.insert(name, bytes);
            }
        }
        Ok(files)
    }

    /// The files the manifest under `root` lists; none without a manifest.
    ///
    /// # Errors
    /// When the manifest cannot be read, is not UTF-8, lacks the header (where
    /// it is required), or lists a path that is not plain or that the tool
    /// never writes.
    pub fn listed(&self, root: &Path) -> Result<BTreeSet<String>, String> {
        let path = join(root, self.manifest);
        let Some(bytes) = self.read(&path)? else {
            return Ok(BTreeSet::new());
        };
        let text = String::from_utf8(bytes).map_err(|_| located(&path, "is not UTF-8"))?;
        let first_line = self.header.lines().next().unwrap_or_default();
        if self.header_required && !text.starts_with(first_line) {
            return Err(located(
                &path,
                format!("was not written by `{}`; nothing was written", self.tool),
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
            if !plain || !(self.may_write)(line) {
                let why = if plain {
                    ""
                } else {
                    ": not a plain relative path"
                };
                return Err(located(
                    &path,
                    format!("lists {line:?}, which `{}` never writes{why}", self.tool),
                ));
            }
            names.insert(line.to_string());
        }
        Ok(names)
    }

    /// Writes `rendered` (by path below `root`, the manifest among them) under
    /// `root` (made when missing; its parent must exist): first the manifest,
    /// then every other file; files the previous manifest lists and `rendered`
    /// no longer holds are removed (with the folders they leave empty below
    /// `root`). Returns the number of files written.
    ///
    /// Everything is checked before anything changes: `root` and every folder
    /// and file written must not be symbolic links ([`write_guard`]), the old
    /// manifest must be the tool's ([`Owner::listed`]), and no file the
    /// [`Foreign`] policy watches may be unlisted unless it forces.
    ///
    /// # Errors
    /// When a path runs through a link or a non-regular file, the manifest is
    /// refused, a foreign file is found (unforced), or a file cannot be read,
    /// removed or written.
    pub fn write(
        &self,
        root: &Path,
        rendered: &BTreeMap<String, Vec<u8>>,
        foreign: &Foreign<'_>,
    ) -> Result<usize, String> {
        write_guard::check_folder(root).map_err(|e| e.to_string())?;
        for name in rendered.keys() {
            write_guard::check_file(root, name).map_err(|e| e.to_string())?;
        }
        let known = self.listed(root)?;
        let mut present: BTreeSet<String> = rendered
            .keys()
            .filter(|name| std::fs::symlink_metadata(join(root, name)).is_ok())
            .cloned()
            .collect();
        for folder in &foreign.folders {
            present.extend(files_below(root, folder)?.into_keys());
        }
        let unknown: Vec<&String> = present
            .iter()
            .filter(|name| name.as_str() != self.manifest && !known.contains(*name))
            .collect();
        if let (Some(first), false) = (unknown.first(), foreign.force) {
            return Err(format!(
                "{} holds {} file(s) {}that `{}` did not write (first: {first}); nothing was \
                 written. Move them away, {}",
                root.display(),
                unknown.len(),
                foreign.place,
                self.tool,
                foreign.remedy
            ));
        }
        // Checked: from here on, only acting.
        for name in known.iter().filter(|name| !rendered.contains_key(*name)) {
            remove_owned(root, name)?;
        }
        write_guard::make_folder(root).map_err(|e| e.to_string())?;
        let manifest_first = rendered
            .iter()
            .filter(|(name, _)| name.as_str() == self.manifest)
            .chain(
                rendered
                    .iter()
                    .filter(|(name, _)| name.as_str() != self.manifest),
            );
        for (name, bytes) in manifest_first {
            write_guard::replace_file(root, name, bytes).map_err(|e| e.to_string())?;
        }
        Ok(rendered.len())
    }
}

/// Removes the file `name` below `root` when it is a regular file with no link
/// on its way (anything else is left alone), then the folders it leaves empty,
/// up to `root` (which stays).
fn remove_owned(root: &Path, name: &str) -> Result<(), String> {
    if !matches!(write_guard::check_file(root, name), Ok(true)) {
        return Ok(());
    }
    let path = join(root, name);
    std::fs::remove_file(&path).map_err(|e| located(&path, e))?;
    // A folder still holding anything stays.
    for folder in path.ancestors().skip(1) {
        if folder == root || std::fs::remove_dir(folder).is_err() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::input_file::tests::scratch;

    const TOOL: Owner = Owner {
        tool: "tool",
        manifest: "OWNED.txt",
        header: "# Written by tool.\n",
        header_required: true,
        lists_itself: true,
        may_write: |_| true,
        max_file_bytes: 64,
    };

    fn rendered(names: &[&str]) -> BTreeMap<String, Vec<u8>> {
        let mut files: BTreeMap<String, Vec<u8>> = names
            .iter()
            .map(|name| ((*name).to_string(), name.as_bytes().to_vec()))
            .collect();
        let manifest = TOOL.manifest_text(files.keys());
        files.insert(TOOL.manifest.to_string(), manifest);
        files
    }

    fn nothing_foreign() -> Foreign<'static> {
        Foreign {
            folders: Vec::new(),
            force: false,
            place: "",
            remedy: "",
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_stale_file_behind_a_linked_folder_is_left_alone() {
        let scratch = scratch("owned-stale-link");
        let (root, outside) = (scratch.join("root"), scratch.join("outside"));
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("old.txt"), "not the tool's").unwrap();
        TOOL.write(
            &root,
            &rendered(&["a/old.txt", "b.txt"]),
            &nothing_foreign(),
        )
        .unwrap();
        // The folder of a listed file becomes a link to a folder the tool never wrote.
        std::fs::remove_dir_all(root.join("a")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("a")).unwrap();
        TOOL.write(&root, &rendered(&["b.txt"]), &nothing_foreign())
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(outside.join("old.txt")).unwrap(),
            "not the tool's"
        );
        let listed = TOOL.listed(&root).unwrap();
        assert_eq!(listed, BTreeSet::from(["OWNED.txt".into(), "b.txt".into()]));
        std::fs::remove_dir_all(scratch).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_owned_file_is_read_up_to_the_limit_and_never_through_a_link() {
        let scratch = scratch("owned-read");
        let file = scratch.join("file");
        std::fs::write(&file, [0u8; 64]).unwrap();
        assert_eq!(TOOL.read(&file).unwrap().map(|b| b.len()), Some(64));
        assert_eq!(TOOL.read(&scratch.join("missing")).unwrap(), None);
        let link = scratch.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let refusal = TOOL.read(&link).unwrap_err();
        assert!(refusal.contains("symbolic link"), "{refusal}");
        std::fs::write(&file, [0u8; 65]).unwrap();
        let refusal = TOOL.read(&file).unwrap_err();
        assert!(refusal.contains("larger than 64"), "{refusal}");
        std::fs::remove_dir_all(scratch).unwrap();
    }
}
