//! `zarr-reshape resolve`: one configuration against one decoded shape, for spec editors.

use std::process::ExitCode;

use super::output::outln;
use clap::Args;
use serde_json::{Value, json};
use zarr_reshape::{explain, explain_codec};

/// Options of `zarr-reshape resolve`.
#[derive(Debug, Args)]
pub struct ResolveArgs {
    /// The configuration as JSON: `{"shape": [...]}`, a whole codec object, or just the shape array.
    #[arg(value_name = "CONFIG")]
    configuration: String,
    /// A_shape, the decoded chunk shape, e.g. 100,50,64,3 (empty for rank 0).
    #[arg(long, value_name = "EXTENTS", allow_hyphen_values = true)]
    decoded_shape: String,
    /// Print the result object of the adapter protocol instead of text.
    #[arg(long)]
    json: bool,
    /// Show every clause evaluated, with its numbers.
    #[arg(long)]
    explain: bool,
}

/// Exit 0 when the configuration resolves, 1 when it breaks a rule, 2 for bad arguments.
pub fn execute(args: &ResolveArgs) -> ExitCode {
    let value: Value = match serde_json::from_str(&args.configuration) {
        Ok(value) => value,
        Err(error) => return usage(&format!("CONFIG is not JSON: {error}")),
    };
    let a_shape = match parse_shape(&args.decoded_shape) {
        Ok(shape) => shape,
        Err(message) => return usage(&message),
    };
    let explanation = match &value {
        Value::Array(_) => explain(&json!({ "shape": value }), &a_shape),
        Value::Object(object) if object.contains_key("name") => explain_codec(&value, &a_shape),
        _ => explain(&value, &a_shape),
    };
    if args.json {
        let mut result = match &explanation.outcome {
            Ok(b_shape) => json!({ "encoded_shape": b_shape }),
            Err(error) => {
                json!({"error": {"class": error.class().as_str(), "message": error.to_string()}})
            }
        };
        if args.explain {
            let steps: Vec<String> = explanation.steps.iter().map(ToString::to_string).collect();
            if let Some(object) = result.as_object_mut() {
                object.insert("explain".into(), json!(steps));
            }
        }
        outln!("{result}");
    } else if args.explain {
        outln!("{explanation}");
    } else {
        match &explanation.outcome {
            Ok(b_shape) => outln!("{}", Value::from(b_shape.clone())),
            Err(error) => outln!("error [{}] ({}): {error}", error.class(), error.clause()),
        }
    }
    if explanation.outcome.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn parse_shape(text: &str) -> Result<Vec<u64>, String> {
    let text = text.trim().trim_start_matches('[').trim_end_matches(']');
    text.split(',')
        .map(str::trim)
        .filter(|extent| !extent.is_empty())
        .map(|extent| {
            extent.parse::<u64>().map_err(|_| {
                format!("--decoded-shape takes extents from 0 to 2^64-1 separated by commas, got {extent:?}")
            })
        })
        .collect()
}

fn usage(message: &str) -> ExitCode {
    eprintln!("zarr-reshape resolve: {message}");
    ExitCode::from(2)
}
