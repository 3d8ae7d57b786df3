//! `zarrs-array-path --array_path=PATH`: a command-line reader of one Zarr v3 array
//! through zarrs 0.23.14, for the array-path convention of the Zarr community's
//! conformance tests (`$ZARR_CLI --array_path=PATH`) and the runner's
//! `--array-path-reader` mode (see `conformance/adapters/array-path/README.md`).
//!
//! It opens the array as a zarrs user does (`FilesystemStore::new(PATH)`, then
//! `Array::open(store, "/")`), reads the whole array with
//! `Array::retrieve_array_subset`, and prints its elements in C order, one JSON
//! value per line. An error of zarrs is printed to stderr and the exit status is 1
//! (2 for a wrong command line); a panic inside zarrs is caught, printed to stderr
//! with its zarrs source line, and the process aborts (SIGABRT): a panic is never a
//! success, nor a refusal. The conversion of
//! zarrs' bytes is the adapter's own (`src/array.rs`), shared by path.

#[allow(dead_code)]
#[path = "../answer.rs"]
mod answer;
#[allow(dead_code)]
#[path = "../array.rs"]
mod array;
#[allow(dead_code)]
#[path = "../panics.rs"]
mod panics;
#[allow(dead_code)]
#[path = "../rawjson.rs"]
mod rawjson;
#[allow(dead_code)]
#[path = "../read.rs"]
mod read;

use std::io::Write;

use serde_json::Value;
use zarrs::array::{Array, ArraySubset};

use crate::answer::Answer;
use crate::array::Element;

/// The most elements the reader reads (a bound against a hostile `shape`).
const MAX_ELEMENTS: u64 = 1 << 24;

/// The data types the reader prints: the Zarr v3 core types of the fixtures.
const NAMES: [&str; 11] = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
    "float64",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = match args.as_slice() {
        [one] => one.strip_prefix("--array_path="),
        _ => None,
    };
    let Some(path) = path.filter(|path| !path.is_empty()) else {
        eprintln!("usage: zarrs-array-path --array_path=PATH");
        std::process::exit(2);
    };
    panics::install_hook();
    match read_whole(path) {
        Ok(values) => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let written = values
                .iter()
                .try_for_each(|value| writeln!(out, "{value}"))
                .and_then(|()| out.flush());
            if let Err(error) = written {
                eprintln!("zarrs-array-path: cannot write the values: {error}");
                std::process::exit(1);
            }
        }
        Err(Answer::Crashed(message)) => {
            // A panic inside zarrs is a crash, not a refusal: the process ends by
            // SIGABRT, which the runner counts as a crash (a nonzero exit would read
            // as a refusal, and pass where the spec requires an error).
            eprintln!("zarrs-array-path: zarrs crashed: {message}");
            std::process::abort();
        }
        Err(answer) => {
            let text = match answer {
                Answer::Error(message) | Answer::ErrorAt(message, _) => {
                    format!("zarrs refused the array: {message}")
                }
                Answer::Crashed(message) => message,
                Answer::Skipped(message) | Answer::Errored(message) => message,
                Answer::Output(value) => value.to_string(),
            };
            eprintln!("zarrs-array-path: {text}");
            std::process::exit(1);
        }
    }
}

/// The array's elements in C order, or why zarrs does not give them: opened and
/// read whole as the adapter's `read-array` does (`src/read.rs`).
fn read_whole(path: &str) -> Result<Vec<Value>, Answer> {
    let opened = read::open(path)?;
    let element = element_of(&opened)?;
    let subset = ArraySubset::new_with_shape(opened.shape().to_vec());
    let output = read::retrieve(&opened, element, &subset, MAX_ELEMENTS)?;
    if let Some(note) = output.get("note") {
        // zarrs returned another number of elements than the shape holds: print what
        // it returned, so that the comparison shows it, and say so.
        eprintln!("zarrs-array-path: {note}");
    }
    let mut values = Vec::new();
    flatten(output.get("data").unwrap_or(&Value::Null), &mut values);
    Ok(values)
}

/// The element type of the array zarrs opened, found as the adapter finds it: zarrs'
/// own data type built from each core name, compared with the array's.
fn element_of<T: ?Sized>(opened: &Array<T>) -> Result<Element, Answer> {
    for name in NAMES {
        let (element, data_type) = array::data_type(name)?;
        if opened.data_type() == &data_type {
            return Ok(element);
        }
    }
    Err(Answer::Skipped(format!(
        "zarrs opened an array of data type {}; this reader prints only {}",
        opened.data_type(),
        NAMES.join(", ")
    )))
}

/// Nested lists in C order to their elements in that order. The adapter writes a NaN
/// with a payload as its bits (`"0x7fc00001"`); the reader contract has only `"NaN"`.
fn flatten(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| flatten(item, out)),
        Value::String(text) if text.starts_with("0x") => out.push(Value::from("NaN")),
        other => out.push(other.clone()),
    }
}
