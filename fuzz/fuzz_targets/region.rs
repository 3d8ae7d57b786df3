//! Region mapping with arbitrary boxes. Input: line 1 the decoded shape, line 2
//! the configuration, line 3 `start`, line 4 `stop`, line 5 an encoded index.
//! The runs must cover the box once, in C order, without allocating per element.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};

#[path = "common.rs"]
mod common;

/// At most this many runs are walked per input (a box may have 2^64 rows).
const MAX_RUNS: usize = 1 << 12;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let (Some(shape), Some(json)) = (lines.next(), lines.next()) else {
        return;
    };
    let Some(a_shape) = common::u64_list(shape) else {
        return;
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(json) else {
        return;
    };
    let Ok(configuration) = ReshapeConfiguration::from_json_value(&value) else {
        return;
    };
    let Ok(codec) = ReshapeCodec::new(configuration, &a_shape) else {
        return;
    };
    let start = lines.next().and_then(common::u64_list).unwrap_or_default();
    let stop = lines.next().and_then(common::u64_list).unwrap_or_default();
    let index = lines.next().and_then(common::u64_list).unwrap_or_default();
    if let Ok(runs) = codec.region_runs(&start, &stop) {
        let mut next: Option<u64> = None;
        for run in runs.take(MAX_RUNS) {
            assert!(run.len > 0, "an empty run");
            if let Some(next) = next {
                assert!(run.offset >= next, "runs out of C order or overlapping");
            }
            next = Some(run.offset.checked_add(run.len).expect("a run past 2^64"));
            let first = codec.encoded_index_at(run.offset).expect("a run's offset is in B");
            let decoded = codec.decoded_index(&first).expect("an encoded index maps back");
            assert_eq!(codec.encoded_index(&decoded).ok(), Some(first));
        }
    }
    if let Ok(decoded) = codec.decoded_index(&index) {
        assert_eq!(codec.encoded_index(&decoded).ok(), Some(index.clone()));
    }
    let _ = codec.encoded_index(&index);
});
