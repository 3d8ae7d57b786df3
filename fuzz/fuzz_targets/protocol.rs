//! Protocol traffic, both ways. The bytes are (1) a stream of request lines served
//! by the reference adapter (`serve::serve`), which must answer each non-blank line
//! exactly once, and (2) a stream of answer lines read as the runner reads an
//! adapter's output (a JSON object with `seq` and `result`, the result through
//! `Answer::from_json`). Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zarr_reshape_conformance::Answer;
use zarr_reshape_conformance::serve;

fuzz_target!(|data: &[u8]| {
    let mut output = Vec::new();
    serve::serve(data, &mut output).expect("serving from memory cannot fail");
    let answers = output.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    for answer in answers {
        let value: serde_json::Value =
            serde_json::from_slice(answer).expect("serve writes JSON lines");
        assert!(value.is_object(), "serve answers with objects");
    }
    for line in data.split(|&b| b == b'\n') {
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(line) else {
            continue;
        };
        let result = value.get("result").unwrap_or(&value);
        let answer = Answer::from_json(result);
        let _ = Answer::from_json(&answer.to_json());
    }
});
