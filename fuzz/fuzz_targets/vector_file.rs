//! The vector-file loader: arbitrary bytes as a vector file, then every case it
//! yields through the reference. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zarr_reshape_conformance::{reference, vector};

fuzz_target!(|data: &[u8]| {
    let Ok(file) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    if let Ok(cases) = vector::parse_file(&file) {
        for case in &cases {
            let _ = reference::run(case);
        }
    }
});
