//! The harness as an adopter uses it: the library answers `resolve` cases, every
//! other operation is skipped (the harness shows those as ignored). Run with
//! harness/tests/adopter/run.sh.

use std::process::ExitCode;

use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};
use zarr_reshape_harness::{Answer, Case, Operation};

/// The encoded shape of the case's codec on its decoded shape, or the library's
/// error with its class. Members are read from their exact text.
fn resolve(case: &Case) -> Answer {
    let configuration = match (case.configuration, case.codec) {
        (Some(configuration), _) => ReshapeConfiguration::from_json_str(configuration.get()),
        (None, Some(codec)) => ReshapeConfiguration::from_codec_json_str(codec.get()),
        (None, None) => {
            return Answer::Errored {
                message: "the case has no codec".into(),
            };
        }
    };
    let decoded_shape: Vec<u64> = match serde_json::from_str(case.decoded_shape.get()) {
        Ok(shape) => shape,
        Err(error) => {
            return Answer::Errored {
                message: format!("decoded_shape: {error}"),
            };
        }
    };
    match configuration.and_then(|configuration| ReshapeCodec::new(configuration, &decoded_shape)) {
        Ok(codec) => Answer::output(&serde_json::json!({"encoded_shape": codec.encoded_shape()})),
        Err(error) => Answer::error(error.class().as_str(), error.to_string()),
    }
}

fn main() -> ExitCode {
    zarr_reshape_harness::run(|case| match case.operation {
        Operation::Resolve => resolve(case),
        other => Answer::skipped(format!("this fixture answers resolve only, not {other}")),
    })
}
