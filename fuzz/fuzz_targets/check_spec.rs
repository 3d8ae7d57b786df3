//! `check-spec` on arbitrary markdown: a report, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zarr_reshape_conformance::check_spec;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let report = check_spec::check(&text);
    let _ = report.is_ok();
});
