//! The array fixtures as a bats suite in the layout of the Zarr community's
//! cross-implementation conformance project (zarr-conformance-tests), written by
//! `zarr-reshape export-bats DIR`:
//!
//! - `data/<fixture>.zarr/`: the fixture's `zarr.json` and chunk files;
//! - `data/<fixture>.expected`: for a valid fixture, its elements in C order, one
//!   JSON value a line, as `zarr-reshape read` prints them;
//! - `tests.bats`: one test per fixture, named `reshape: <fixture> (<case id>)`,
//!   that runs `$ZARR_CLI --array_path=$ZARR_CONFORMANCE_DATA/<fixture>.zarr` and
//!   expects status 0 and the right elements (valid fixtures) or a nonzero status
//!   that is no signal (invalid ones);
//! - `README.md`, what the export is and how to run it;
//! - [`MANIFEST`], every file written: the only files a later export rewrites or
//!   removes (see [`write()`]).

mod disk;
mod script;

use std::collections::BTreeMap;

pub use self::disk::{MANIFEST, check, write};
use crate::fixtures::{self, Fixture};
use crate::reader::values;

/// The folder of the arrays and expected values, below the export folder.
pub const DATA: &str = "data";

/// The files of a fixture's array folder that the export leaves out: they are
/// the suite's, not the array's.
const NOT_OF_THE_ARRAY: [&str; 2] = ["expected.json", "case.json"];

/// Every file of the export, by path below the export folder (`/`-separated),
/// the manifest included.
///
/// # Errors
/// When a fixture cannot be written (a faulty table entry).
pub fn render() -> Result<BTreeMap<String, Vec<u8>>, String> {
    let table = fixtures::fixtures();
    let mut files = BTreeMap::new();
    for fixture in &table {
        for (name, bytes) in fixture.files()? {
            if !NOT_OF_THE_ARRAY.contains(&name.as_str()) {
                files.insert(format!("{DATA}/{}.zarr/{name}", fixture.name), bytes);
            }
        }
        if fixture.error.is_none() {
            let data = fixtures::pattern(fixture.data_type, &fixture.shape);
            files.insert(
                format!("{DATA}/{}.expected", fixture.name),
                values::lines(&data).into_bytes(),
            );
        }
    }
    files.insert("tests.bats".into(), script::bats(&table).into_bytes());
    files.insert("README.md".into(), script::readme(&table).into_bytes());
    let manifest = disk::OWNER.manifest_text(files.keys());
    files.insert(MANIFEST.into(), manifest);
    Ok(files)
}

/// The test name of a fixture: `reshape: <fixture> (<case id>)`.
#[must_use]
pub fn test_name(fixture: &Fixture) -> String {
    format!("reshape: {} ({})", fixture.name, fixture.id())
}
