//! Explains one resolution, clause by clause, quoting the spec under a broken rule:
//! `cargo run --example resolve -- '{"shape": [[0, 1], [2], 3]}' 100,50,64,3`
#![allow(clippy::print_stdout)]

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(configuration), Some(decoded_shape)) = (args.next(), args.next()) else {
        eprintln!("usage: resolve CONFIGURATION_JSON DECODED_SHAPE (e.g. 100,50,64,3)");
        return ExitCode::from(2);
    };
    let decoded_shape: Result<Vec<u64>, _> = decoded_shape
        .split(',')
        .filter(|extent| !extent.trim().is_empty())
        .map(|extent| extent.trim().parse::<u64>())
        .collect();
    let Ok(decoded_shape) = decoded_shape else {
        eprintln!("the decoded shape must be extents separated by commas, e.g. 100,50,64,3");
        return ExitCode::from(2);
    };
    // The text API: every number read as written, and text that is not JSON is a
    // malformed-configuration step of the trace, saying where.
    let explanation = zarr_reshape::explain_json_str(&configuration, &decoded_shape);
    println!("{explanation:#}");
    if explanation.outcome.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
