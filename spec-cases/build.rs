//! Lists every file of the suite (this folder, without the crate's own files) into
//! `$OUT_DIR/files.rs`, one `include_bytes!` each, so the crate embeds the suite.
//! A build script rather than a proc macro: `rerun-if-changed` on the folder makes
//! cargo rebuild when any vector is added, edited or removed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The crate's own files, which are not part of the suite. Cargo adds
/// `Cargo.toml.orig` and `.cargo_vcs_info.json` to every `.crate`, so a build from
/// crates.io has them beside the vectors; no dotfile is part of the suite.
const NOT_SUITE: [&str; 5] = [
    "Cargo.toml",
    "Cargo.toml.orig",
    "Cargo.lock",
    "build.rs",
    "src",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &root, &mut files)?;
    files.sort();
    let mut source = String::from("&[\n");
    for relative in &files {
        let absolute = root.join(relative);
        let absolute = absolute.to_str().ok_or("a suite path that is not UTF-8")?;
        writeln!(
            source,
            "    crate::File {{ path: {relative:?}, bytes: include_bytes!({absolute:?}) }},"
        )?;
    }
    source.push(']');
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("files.rs");
    std::fs::write(out, source)?;
    Ok(())
}

/// Every regular file below `folder`, as '/'-separated paths relative to `root`.
/// Links are not followed: a packaged suite holds files only.
fn walk(
    root: &Path,
    folder: &Path,
    files: &mut Vec<String>,
) -> Result<(), Box<dyn std::error::Error>> {
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let path = entry.path();
        let relative = path.strip_prefix(root)?;
        let relative: Vec<&str> = relative
            .components()
            .map(|component| {
                component
                    .as_os_str()
                    .to_str()
                    .ok_or("a suite path that is not UTF-8")
            })
            .collect::<Result<_, _>>()?;
        let relative = relative.join("/");
        let dotfile = entry
            .file_name()
            .to_str()
            .is_some_and(|name| name.starts_with('.'));
        if dotfile
            || folder == root && (NOT_SUITE.contains(&relative.as_str()) || relative == "target")
        {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(root, &path, files)?;
        } else if kind.is_file() {
            files.push(relative);
        }
    }
    Ok(())
}
