//! The runner's side of the protocol: line 1 is a vector file (one line of JSON),
//! each further line an adapter's answer line (`{"seq": .., "result": ..}`), read
//! as the runner reads one (`Answer::from_json`) and judged against every case of
//! the file, strictly and leniently. Nothing may panic, and the reference's own
//! answer judges the same after a trip through its JSON form.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::{ClassCheck, judge};
use zarr_reshape_conformance::{reference, vector};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (file, answers) = common::split_line(text);
    let Ok(file) = serde_json::from_str::<serde_json::Value>(file) else {
        return;
    };
    let Ok(cases) = vector::parse_file(&file) else {
        return;
    };
    let answers: Vec<Answer> = answers
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .map(|value| Answer::from_json(value.get("result").unwrap_or(&value)))
        .collect();
    for case in &cases {
        for answer in &answers {
            let _ = judge(case, answer, ClassCheck::Strict);
            let _ = judge(case, answer, ClassCheck::WhenNamed);
        }
        let own = reference::run(case);
        let lenient = judge(case, &own, ClassCheck::WhenNamed);
        let read_back = judge(case, &Answer::from_json(&own.to_json()), ClassCheck::WhenNamed);
        assert_eq!(lenient, read_back, "an answer judges the same after a round trip");
    }
});
