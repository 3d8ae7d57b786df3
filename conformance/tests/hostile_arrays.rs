//! Hostile Zarr arrays and array folders (issue 18): shapes ndarray cannot hold,
//! tiny `zarr.json` files asking for millions of chunks, FIFOs and links where
//! files belong, read-array paths out of the suite root, and fixture folders the
//! fixtures writer did not write. Each is refused with an error, quickly, and
//! nothing of the user's is touched.

// Test helpers outside #[test] functions: a failed unwrap or index is a failed check.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{Scratch, mkfifo};
use serde_json::{Value, json};
use zarr_reshape_conformance::fixtures;
use zarr_reshape_conformance::vector;
use zarr_reshape_conformance::zarr::{self, MAX_CHUNKS_READ, MAX_ELEMENTS_READ, ZarrError};

fn metadata(shape: &[u64], chunks: &[u64]) -> Value {
    json!({
        "zarr_format": 3, "node_type": "array", "shape": shape, "data_type": "uint8",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunks}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0, "codecs": [{"name": "bytes"}]
    })
}

fn array_folder(dir: &Path, shape: &[u64], chunks: &[u64]) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("zarr.json"), metadata(shape, chunks).to_string()).unwrap();
}

/// Reads on another thread, failing the test (not hanging it) after `limit`.
fn read_within(
    dir: &Path,
    region: Option<(Vec<u64>, Vec<u64>)>,
    limit: Duration,
) -> Result<zarr_reshape_conformance::TypedArray, ZarrError> {
    let (send, receive) = mpsc::channel();
    let shown = dir.display().to_string();
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        let region = region
            .as_ref()
            .map(|(start, stop)| (start.as_slice(), stop.as_slice()));
        let _ = send.send(zarr::read_array(&dir, region));
    });
    receive
        .recv_timeout(limit)
        .unwrap_or_else(|_| panic!("reading {shown} took longer than {limit:?}"))
}

fn refused(result: Result<impl std::fmt::Debug, ZarrError>, words: &str) {
    let error = match result {
        Ok(answer) => panic!("the reader must refuse it, not answer {answer:?}"),
        Err(error) => error,
    };
    assert_eq!(error.class.as_str(), "malformed-configuration", "{error}");
    assert!(error.message.contains(words), "{error}");
}

#[test]
fn a_shape_ndarray_cannot_hold_is_refused_even_when_empty() {
    let scratch = Scratch::new("isize");
    for shape in [
        vec![0, u64::MAX],
        vec![0, 1 << 63],
        vec![1 << 62, 0, 4],
        vec![0, 1 << 40, 1 << 40],
    ] {
        let dir = scratch.0.join(format!("{}", shape.len()));
        array_folder(&dir, &shape, &vec![1; shape.len()]);
        refused(
            zarr::ZarrArray::open(&dir),
            "too large for an array in memory",
        );
    }
    // Just within isize: an empty array, read as such.
    let dir = scratch.0.join("fits");
    array_folder(&dir, &[0, 1 << 62], &[1, 1]);
    let array = read_within(&dir, None, Duration::from_secs(5)).unwrap();
    assert_eq!(array.shape(), vec![0, 1 << 62]);
}

#[test]
fn a_tiny_zarr_json_with_millions_of_chunks_is_refused_before_reading() {
    let scratch = Scratch::new("chunks");
    let cases: [(&str, Vec<u64>, Vec<u64>); 3] = [
        ("rank-24", vec![2; 24], vec![1; 24]),
        ("rank-1", vec![1 << 24], vec![1]),
        // Few elements, but each touched chunk is 2^24 elements mostly past the edge.
        ("edge-chunks", vec![4096, 1], vec![1, 1 << 24]),
    ];
    for (name, shape, chunks) in cases {
        let dir = scratch.0.join(name);
        array_folder(&dir, &shape, &chunks);
        let began = Instant::now();
        refused(
            read_within(&dir, None, Duration::from_secs(10)),
            "beyond this reader's limits",
        );
        assert!(
            began.elapsed() < Duration::from_secs(1),
            "{name}: {:?}",
            began.elapsed()
        );
    }
}

#[test]
fn a_read_up_to_the_chunk_limit_succeeds_and_one_beyond_is_refused() {
    let scratch = Scratch::new("chunk-limit");
    let dir = scratch.0.join("a");
    array_folder(&dir, &[MAX_CHUNKS_READ + 1], &[1]);
    let began = Instant::now();
    let box_at_limit = Some((vec![0], vec![MAX_CHUNKS_READ]));
    let array = read_within(&dir, box_at_limit, Duration::from_secs(10)).unwrap();
    assert_eq!(array.shape(), vec![MAX_CHUNKS_READ]);
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
    refused(
        read_within(&dir, None, Duration::from_secs(10)),
        "at most 65536 chunks",
    );
    // The element budget counts whole chunks: chunks of 2^24 elements, though the
    // array holds one element per chunk.
    let dir = scratch.0.join("b");
    array_folder(&dir, &[MAX_ELEMENTS_READ / 4, 1], &[1, 1 << 24]);
    refused(
        read_within(&dir, None, Duration::from_secs(10)),
        "elements together",
    );
    // It bounds the answer too: a fill-only array of one element more, in one chunk
    // or in many, is refused; one of exactly the budget is read.
    for chunk in [MAX_ELEMENTS_READ + 1, 1 << 10] {
        let dir = scratch.0.join(format!("fill-{chunk}"));
        array_folder(&dir, &[MAX_ELEMENTS_READ + 1], &[chunk]);
        refused(
            read_within(&dir, None, Duration::from_secs(10)),
            "elements together",
        );
    }
    let dir = scratch.0.join("fill-at-limit");
    array_folder(&dir, &[MAX_ELEMENTS_READ], &[1 << 10]);
    let array = read_within(&dir, None, Duration::from_secs(10)).unwrap();
    assert_eq!(array.shape(), vec![MAX_ELEMENTS_READ]);
}

#[cfg(unix)]
#[test]
fn a_fifo_or_link_where_a_file_belongs_is_refused_without_blocking() {
    let scratch = Scratch::new("fifo");
    let limit = Duration::from_secs(5);
    // zarr.json a FIFO.
    let dir = scratch.0.join("fifo-metadata");
    std::fs::create_dir_all(&dir).unwrap();
    mkfifo(&dir.join("zarr.json"));
    refused(read_within(&dir, None, limit), "is not a regular file");
    // A chunk a FIFO.
    let dir = scratch.0.join("fifo-chunk");
    array_folder(&dir, &[4], &[2]);
    std::fs::create_dir_all(dir.join("c")).unwrap();
    mkfifo(&dir.join("c/1"));
    refused(read_within(&dir, None, limit), "is not a regular file");
    // A chunk a link to a file outside the array's folder.
    let outside = scratch.0.join("outside");
    std::fs::write(&outside, [7u8, 7]).unwrap();
    let dir = scratch.0.join("linked-chunk");
    array_folder(&dir, &[4], &[2]);
    std::fs::create_dir_all(dir.join("c")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("c/0")).unwrap();
    refused(read_within(&dir, None, limit), "is not a regular file");
    // The chunk folder a link.
    let dir = scratch.0.join("linked-folder");
    array_folder(&dir, &[4], &[2]);
    std::fs::create_dir_all(scratch.0.join("elsewhere")).unwrap();
    std::fs::copy(&outside, scratch.0.join("elsewhere/0")).unwrap();
    std::os::unix::fs::symlink(scratch.0.join("elsewhere"), dir.join("c")).unwrap();
    refused(read_within(&dir, None, limit), "is not a folder");
    // zarr.json beyond the file limit: refused by its size, unread.
    let dir = scratch.0.join("huge");
    std::fs::create_dir_all(&dir).unwrap();
    let file = std::fs::File::create(dir.join("zarr.json")).unwrap();
    file.set_len(u64::try_from(zarr::MAX_CHUNK_BYTES).unwrap() + 1)
        .unwrap();
    refused(read_within(&dir, None, limit), "larger than");
}

/// A suite root holding `arrays/a`, and one vector file with a read-array case
/// of the given path.
fn suite(scratch: &Scratch, path: &str) -> PathBuf {
    let root = scratch.0.join("suite");
    std::fs::create_dir_all(root.join("cases")).unwrap();
    std::fs::write(root.join("clauses.json"), "{}").unwrap();
    array_folder(&root.join("arrays/a"), &[4], &[2]);
    let case = json!({
        "id": "hostile/path", "description": "d", "clauses": ["shape.size"], "level": "must",
        "operation": "read-array", "configuration": {"shape": [-1]}, "decoded_shape": [2],
        "array": {"path": path, "data_type": "uint8"}, "expect": {"error": ["overflow"]}
    });
    let file = root.join("cases/case.json");
    std::fs::write(&file, json!({"format": 1, "cases": [case]}).to_string()).unwrap();
    file
}

#[test]
fn read_array_paths_are_confined_to_the_suite_root() {
    for path in [
        "../outside",
        "/tmp",
        "arrays/../../outside",
        "arrays/a/../../..",
    ] {
        let scratch = Scratch::new("paths");
        let error = vector::load_file(&suite(&scratch, path)).unwrap_err();
        assert_eq!(error.pointer, "/cases/0/array/path", "{path}: {error}");
        assert!(error.message.contains("hostile/path"), "{path}: {error}");
    }
    let scratch = Scratch::new("paths-fine");
    for path in ["arrays/a", "./arrays/a", "arrays/missing"] {
        vector::load_file(&suite(&scratch, path)).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn a_read_array_path_through_a_link_out_of_the_root_is_refused() {
    let scratch = Scratch::new("path-link");
    let file = suite(&scratch, "arrays/link/a");
    let outside = scratch.0.join("outside");
    array_folder(&outside.join("a"), &[4], &[2]);
    std::os::unix::fs::symlink(&outside, scratch.0.join("suite/arrays/link")).unwrap();
    let error = vector::load_file(&file).unwrap_err();
    assert!(
        error.message.contains("leads out of the suite root"),
        "{error}"
    );
    // A link that stays inside the root is followed.
    let file = suite(&scratch, "arrays/inside");
    std::os::unix::fs::symlink(
        scratch.0.join("suite/arrays/a"),
        scratch.0.join("suite/arrays/inside"),
    )
    .unwrap();
    vector::load_file(&file).unwrap();
}

fn everything_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                folders.push(entry.path());
            } else {
                found.push((
                    entry.path(),
                    std::fs::read(entry.path()).unwrap_or_default(),
                ));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn fixtures_refuse_a_folder_they_did_not_write_and_never_remove_it() {
    let scratch = Scratch::new("fixtures-foreign");
    let mine = scratch.0.join("arrays/mine");
    array_folder(&mine, &[4], &[2]);
    std::fs::write(mine.join("notes.txt"), "my notes").unwrap();
    let before = everything_under(&mine);
    let error = fixtures::write(&scratch.0).unwrap_err();
    assert!(
        error.contains("did not write") && error.contains("--force"),
        "{error}"
    );
    assert!(
        !scratch.0.join(fixtures::MANIFEST).exists(),
        "nothing written"
    );
    fixtures::write_with(&scratch.0, true).unwrap();
    assert_eq!(
        everything_under(&mine),
        before,
        "forced, the user's folder stays"
    );
    // A second run knows its own files and still refuses the user's.
    assert!(fixtures::write(&scratch.0).is_err());
    std::fs::remove_dir_all(&mine).unwrap();
    assert_eq!(
        fixtures::write(&scratch.0).unwrap(),
        fixtures::render().unwrap().len()
    );
    assert_eq!(
        fixtures::on_disk(&scratch.0).unwrap(),
        fixtures::render().unwrap()
    );
}

#[test]
fn fixtures_remove_only_the_files_their_manifest_lists() {
    let scratch = Scratch::new("fixtures-stale");
    fixtures::write(&scratch.0).unwrap();
    // A fixture the set no longer has, once written (listed), beside a user's file.
    let old = scratch.0.join("arrays/retired");
    array_folder(&old, &[4], &[2]);
    std::fs::write(old.join("notes.txt"), "mine").unwrap();
    let manifest = scratch.0.join(fixtures::MANIFEST);
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("arrays/retired/zarr.json\n");
    std::fs::write(&manifest, text).unwrap();
    fixtures::write_with(&scratch.0, true).unwrap();
    assert!(
        !old.join("zarr.json").exists(),
        "the listed stale file is removed"
    );
    assert_eq!(
        std::fs::read_to_string(old.join("notes.txt")).unwrap(),
        "mine"
    );
    // Once the user's file is gone, the folder it left empty goes with the next stale file.
    std::fs::remove_file(old.join("notes.txt")).unwrap();
    std::fs::write(old.join("zarr.json"), "{}").unwrap();
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("arrays/retired/zarr.json\n");
    std::fs::write(&manifest, text).unwrap();
    fixtures::write(&scratch.0).unwrap();
    assert!(!old.exists());
}

#[test]
fn a_manifest_listing_files_the_tool_never_writes_is_refused() {
    for line in [
        "../outside.txt",
        "/etc/hostname",
        "arrays/../../x",
        "clauses.json",
    ] {
        let scratch = Scratch::new("fixtures-manifest");
        std::fs::create_dir_all(scratch.0.join("arrays")).unwrap();
        std::fs::write(scratch.0.join(fixtures::MANIFEST), format!("{line}\n")).unwrap();
        let error = fixtures::write_with(&scratch.0, true).unwrap_err();
        assert!(error.contains("never writes"), "{line}: {error}");
    }
}

#[cfg(unix)]
#[test]
fn fixtures_never_write_through_a_link() {
    let scratch = Scratch::new("fixtures-link");
    let target = scratch.0.join("target");
    std::fs::create_dir_all(&target).unwrap();
    let root = scratch.0.join("suite");
    fixtures::write(&root).unwrap();
    let name = fixtures::fixtures()[0].name;
    let folder = root.join(fixtures::ARRAYS).join(name);
    std::fs::remove_dir_all(&folder).unwrap();
    std::os::unix::fs::symlink(&target, &folder).unwrap();
    assert!(fixtures::write(&root).is_err(), "an unknown link refused");
    let error = fixtures::write_with(&root, true).unwrap_err();
    assert!(error.contains("symbolic link"), "{error}");
    assert!(
        everything_under(&target).is_empty(),
        "nothing written into the link's target"
    );
    // `--check` reads no link either, and a link cycle does not make it loop.
    std::os::unix::fs::symlink(root.join("arrays"), root.join("arrays/loop")).unwrap();
    assert!(fixtures::on_disk(&root).is_err());
}

#[test]
fn a_compressed_chunk_is_decoded_no_further_than_its_size() {
    use std::io::Write as _;
    // Two layers of gzip over 16 MiB of zeros, 16 KiB on disk: each layer stops
    // at the chunk's size (8 bytes; twice that and 4 KiB between layers), not at
    // the 64 MiB file limit.
    let scratch = Scratch::new("gzip-bomb");
    let dir = scratch.0.clone();
    let mut meta = metadata(&[8], &[8]);
    meta["codecs"] = json!([
        {"name": "bytes"},
        {"name": "gzip", "configuration": {"level": 9}},
        {"name": "gzip", "configuration": {"level": 9}}
    ]);
    std::fs::write(dir.join("zarr.json"), meta.to_string()).unwrap();
    let gzip = |bytes: &[u8]| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    };
    let bomb = gzip(&gzip(&vec![0_u8; 16 << 20]));
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    std::fs::create_dir_all(dir.join("c")).unwrap();
    std::fs::write(dir.join("c/0"), bomb).unwrap();
    let result = read_within(&dir, None, Duration::from_secs(5));
    refused(result, &format!("more than {} bytes", 2 * 8 + 4096));
}
