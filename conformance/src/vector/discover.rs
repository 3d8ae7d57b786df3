//! Finding the vector files below a folder, without following links to folders:
//! two links to a parent would otherwise make the walk grow exponentially.

use std::io;
use std::path::{Path, PathBuf};

/// The most vector files one walk finds; a folder holding more is refused
/// (an error naming the folder), as the cases are all kept in memory for a run.
pub const MAX_VECTOR_FILES: usize = 20_000;
/// The deepest sub-folder walked, counted from the root (a sub-folder of the root
/// is at depth 1); a folder nested deeper is refused with an error.
pub const MAX_FOLDER_DEPTH: usize = 16;
/// The most folder entries (files and folders of any kind) one walk looks at;
/// beyond it the walk is refused with an error.
pub const MAX_FOLDER_ENTRIES: usize = 200_000;

/// What a walk found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    /// The vector files, sorted.
    pub files: Vec<PathBuf>,
    /// Links to folders met on the way, sorted: not followed.
    pub skipped_links: Vec<PathBuf>,
}

/// The vector files below `root`, sorted: every `*.json` in a sub-folder, except
/// the array fixtures under `arrays/`. `root` itself may be a link; links below it
/// to folders are not followed (they are listed in [`Discovery::skipped_links`]),
/// links to files are read as files.
///
/// # Errors
/// When a folder cannot be listed, or a walk passes [`MAX_VECTOR_FILES`],
/// [`MAX_FOLDER_DEPTH`] or [`MAX_FOLDER_ENTRIES`].
pub fn discover_all(root: &Path) -> io::Result<Discovery> {
    walk(root, false)
}

/// As [`discover_all`], but a folder that is not a suite root (it holds no
/// `clauses.json`, e.g. `spec-cases/input-dims.prefix/`) has its own `*.json`
/// files read as vector files too.
///
/// # Errors
/// As [`discover_all`].
pub fn discover_below(folder: &Path) -> io::Result<Discovery> {
    walk(folder, !folder.join("clauses.json").exists())
}

fn walk(root: &Path, top_level_files: bool) -> io::Result<Discovery> {
    let mut found = Discovery::default();
    let mut entries: usize = 0;
    let mut folders = vec![(root.to_path_buf(), 0_usize)];
    while let Some((folder, depth)) = folders.pop() {
        let listing = std::fs::read_dir(&folder).map_err(|e| at(&folder, root, &e))?;
        for entry in listing {
            let entry = entry.map_err(|e| at(&folder, root, &e))?;
            entries = entries.saturating_add(1);
            if entries > MAX_FOLDER_ENTRIES {
                return Err(too_many(format!(
                    "more than {MAX_FOLDER_ENTRIES} entries below {}",
                    root.display()
                )));
            }
            let path = entry.path();
            // The entry's own type: a link is a link, whatever it points to.
            let kind = entry.file_type().map_err(|e| at(&path, root, &e))?;
            if kind.is_dir() {
                if depth == 0 && path.file_name() == Some("arrays".as_ref()) {
                    continue;
                }
                let deeper = depth.saturating_add(1);
                if deeper > MAX_FOLDER_DEPTH {
                    return Err(too_many(format!(
                        "{}: folders nest deeper than {MAX_FOLDER_DEPTH} levels",
                        path.display()
                    )));
                }
                folders.push((path, deeper));
            } else if kind.is_symlink() && path.is_dir() {
                found.skipped_links.push(path);
            } else if (depth > 0 || top_level_files) && path.extension() == Some("json".as_ref()) {
                found.files.push(path);
                if found.files.len() > MAX_VECTOR_FILES {
                    return Err(too_many(format!(
                        "more than {MAX_VECTOR_FILES} vector files below {}",
                        root.display()
                    )));
                }
            }
        }
    }
    found.files.sort();
    found.skipped_links.sort();
    Ok(found)
}

/// The error, naming the path below the root (the caller names the root).
fn at(path: &Path, root: &Path, error: &io::Error) -> io::Error {
    if path == root {
        io::Error::new(error.kind(), error.to_string())
    } else {
        io::Error::new(error.kind(), format!("{}: {error}", path.display()))
    }
}

fn too_many(message: String) -> io::Error {
    io::Error::other(message)
}
