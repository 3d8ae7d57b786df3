//! The vector format (version 1, `spec-cases/README.md`): files of cases, read
//! with serde (`members`) so that a bad file is reported with its path and the
//! JSON pointer of the fault.

mod chain;
mod discover;
pub mod embedded;
pub mod export;
mod members;
mod read_array;
mod written;

pub use discover::{
    Discovery, MAX_FOLDER_DEPTH, MAX_FOLDER_ENTRIES, MAX_VECTOR_FILES, discover_all, discover_below,
};
pub use read_array::{suite_root, wire_json};

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use zarr_reshape::ErrorClass;

use self::members::{CaseMembers, Coordinate, FileMembers, InputMembers, Region, member};
use crate::arrays::{DataType, TypedArray};

/// The vector format version this crate reads.
pub const FORMAT: u64 = 1;
/// The largest vector file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 16 << 20;
/// The levels a case may have. Any other level is a load error: only `must`
/// failures break a run, so an unknown level (`"MUST"`) would let a failure pass.
pub const LEVELS: [&str; 3] = ["must", "should", "interpretation"];

/// One case: an operation on a codec configuration and what it must give.
#[derive(Debug, Clone)]
pub struct Case {
    /// Unique, stable id.
    pub id: String,
    /// What the case shows, for people.
    pub description: String,
    /// Clause ids; the first is the one under test.
    pub clauses: Vec<String>,
    /// Interpretation ids the expectation depends on.
    pub interpretations: Vec<String>,
    /// `must`, `should` or `interpretation`.
    pub level: String,
    /// The operation.
    pub operation: Operation,
    /// The codec, as a configuration member or a whole codec object; the whole
    /// codec chain for `resolve-chain`.
    pub codec: CodecJson,
    /// A_shape.
    pub decoded_shape: Vec<u64>,
    /// The expected result.
    pub expect: Expectation,
    /// The case object as written, sent to adapters unchanged.
    pub json: Value,
}

/// What a case does.
#[derive(Debug, Clone)]
pub enum Operation {
    /// The encoded shape.
    Resolve,
    /// Encode the given decoded array.
    Encode(TypedArray),
    /// Decode the given encoded array.
    Decode(TypedArray),
    /// The encoded coordinate of a decoded one (negative coordinates are expressible,
    /// to test that they are refused).
    MapIndex(Vec<i128>),
    /// The encoded coordinates of a decoded box.
    MapRegion {
        /// Inclusive start per dimension.
        start: Vec<i128>,
        /// Exclusive stop per dimension.
        stop: Vec<i128>,
    },
    /// Read a Zarr array fixture, whole or a box of it.
    ReadArray {
        /// The array's folder. As written in the case it is relative to the suite
        /// root (the nearest folder above the vector file holding `clauses.json`);
        /// [`load_file`] makes it absolute. The case's `json` keeps it as written.
        path: PathBuf,
        /// The array's data type.
        data_type: DataType,
        /// The box read (start, stop), in array coordinates; `None` reads it whole.
        region: Option<(Vec<u64>, Vec<u64>)>,
    },
    /// The encoded representation of every step of the codec chain
    /// ([`CodecJson::Chain`]) for chunks of the decoded shape.
    ResolveChain {
        /// The array's data type.
        data_type: DataType,
        /// The array's shape, when the case gives its array context (`array_shape`
        /// with `chunk_grid`, checked to be the regular grid of chunks of the decoded
        /// shape). The reference does not use it: the chain is resolved per chunk,
        /// and every chunk of a regular grid is handed the chunk shape, the edge
        /// chunks too. It is there for implementations that check a chain against
        /// the array (zarr-python does), which the case's JSON gives them.
        array_shape: Option<Vec<u64>>,
    },
    /// Whether every chunk of a chunk grid fits the codec chain
    /// ([`CodecJson::Chain`]), answered per chunk shape of the grid.
    ResolveGrid {
        /// The array's data type.
        data_type: DataType,
        /// The array's shape.
        array_shape: Vec<u64>,
        /// The chunk grid, as in `zarr.json` (`regular` or `rectilinear`); read
        /// by the implementation, so a grid it refuses is an answer, not a fault
        /// of the case.
        chunk_grid: Value,
    },
}

impl Operation {
    /// The operation's name in vectors.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::Resolve => "resolve",
            Self::Encode(_) => "encode",
            Self::Decode(_) => "decode",
            Self::MapIndex(_) => "map-index",
            Self::MapRegion { .. } => "map-region",
            Self::ReadArray { .. } => "read-array",
            Self::ResolveChain { .. } => "resolve-chain",
            Self::ResolveGrid { .. } => "resolve-grid",
        }
    }
}

/// The codec under test, in the form the case gives it.
#[derive(Debug, Clone)]
pub enum CodecJson {
    /// The `configuration` member.
    Configuration(Value),
    /// The whole codec object.
    Codec(Value),
    /// `resolve-chain`: the `codecs` member, a whole codec chain as in `zarr.json`.
    Chain(Value),
}

/// An expected result.
#[derive(Debug, Clone, PartialEq)]
pub enum Expectation {
    /// The operation's output members, e.g. `{"encoded_shape": [...]}`.
    Output(Map<String, Value>),
    /// An error of one of these classes.
    Error(Vec<String>),
    /// Any one of these results conforms.
    AnyOf(Vec<Expectation>),
}

/// A vector file that could not be read, with where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file.
    pub path: PathBuf,
    /// The JSON pointer of the fault, empty for the whole file.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if !self.pointer.is_empty() {
            write!(f, " at {}", self.pointer)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

/// The vector files below `root`, sorted, as [`discover_all`] finds them; the
/// links to folders it skips are dropped (call [`discover_all`] to report them).
///
/// # Errors
/// As [`discover_all`].
pub fn discover(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    discover_all(root).map(|found| found.files)
}

/// Reads every case of one vector file.
///
/// # Errors
/// The first fault found, with its JSON pointer.
pub fn load_file(path: &Path) -> Result<Vec<Case>, LoadError> {
    let fail = |pointer: &str, message: String| LoadError {
        path: path.to_path_buf(),
        pointer: pointer.to_string(),
        message,
    };
    // Refused unread: not a regular file, on /proc or /sys, beyond the limit.
    let text = crate::input_file::read_string(path, MAX_FILE_BYTES).map_err(|e| fail("", e))?;
    // Deeper than serde_json's 128: a case of rank 256 nests that deep.
    let file = crate::input_file::parse_json(text.as_bytes(), crate::input_file::MAX_VECTOR_DEPTH)
        .map_err(|e| fail("", format!("not JSON: {e}")))?;
    let mut cases = parse_file(&file).map_err(|(pointer, message)| fail(&pointer, message))?;
    read_array::resolve_paths(path, &mut cases)
        .map_err(|(pointer, message)| fail(&pointer, message))?;
    Ok(cases)
}

type Fault = (String, String);

/// Reads the cases of a vector file's JSON.
///
/// # Errors
/// The JSON pointer and the message of the first fault.
pub fn parse_file(file: &Value) -> Result<Vec<Case>, Fault> {
    // serde would also read a struct from a list, by position: not a vector file.
    if !file.is_object() {
        return Err(fault("", "a vector file is a JSON object"));
    }
    let members: FileMembers = members::read(file, "")?;
    if members.format.0 != FORMAT {
        return Err(fault(
            "/format",
            "must be 1 (this reader knows format 1 only)",
        ));
    }
    file.get("cases")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, case)| {
            parse_case(case).map_err(|(pointer, message)| (format!("/cases/{i}{pointer}"), message))
        })
        .collect()
}

fn fault(pointer: &str, message: &str) -> Fault {
    (pointer.to_string(), message.to_string())
}

/// Reads one case object.
///
/// # Errors
/// The JSON pointer (relative to the case) and the message of the first fault.
pub fn parse_case(json: &Value) -> Result<Case, Fault> {
    let case = json
        .as_object()
        .ok_or(fault("", "a case is a JSON object"))?;
    let typed: CaseMembers = members::read(json, "")?;
    let codec = chain::codec(case, &typed.operation)?;
    let decoded_shape = members::extents(typed.decoded_shape);
    let operation = match typed.operation.as_str() {
        "resolve" => Operation::Resolve,
        "encode" => Operation::Encode(array(case)?),
        "decode" => Operation::Decode(array(case)?),
        "map-index" => Operation::MapIndex(members::coordinates(member(
            case,
            "decoded_index",
            "map-index needs the decoded coordinates",
            false,
        )?)),
        "map-region" => {
            let region: Region<Coordinate> = member(
                case,
                "decoded_region",
                "map-region needs the decoded box",
                true,
            )?;
            Operation::MapRegion {
                start: members::coordinates(region.start),
                stop: members::coordinates(region.stop),
            }
        }
        "read-array" => read_array::operation(case)?,
        "resolve-chain" => chain::operation(case, &decoded_shape)?,
        "resolve-grid" => chain::grid_operation(case, &decoded_shape)?,
        other => return Err(fault("/operation", &format!("unknown operation {other:?}"))),
    };
    let level = typed.level;
    if !LEVELS.contains(&level.as_str()) {
        return Err(fault(
            "/level",
            &format!(
                "unknown level {level:?}; a level is one of {}",
                LEVELS.join(", ")
            ),
        ));
    }
    let expect = expectation(case.get("expect"), "/expect")?;
    if level != "interpretation"
        && matches!(expect, Expectation::AnyOf(_))
        && typed.interpretations.is_empty()
    {
        // any_of widens what passes: above interpretation it must name the readings
        // whose answers it lists, so that a reader can check none is missing or extra.
        return Err(fault(
            "/expect/any_of",
            &format!(
                "a case of level {level} may give any_of only with the interpretations whose answers it lists"
            ),
        ));
    }
    Ok(Case {
        id: typed.id,
        description: typed.description,
        clauses: typed.clauses,
        interpretations: typed.interpretations,
        level,
        operation,
        codec,
        decoded_shape,
        expect,
        json: json.clone(),
    })
}

/// The `input` array of `encode` and `decode`, its data read against its shape.
fn array(case: &Map<String, Value>) -> Result<TypedArray, Fault> {
    let input: InputMembers = member(case, "input", "encode and decode need an input array", true)?;
    let data = case
        .get("input")
        .and_then(|input| input.get("data"))
        .ok_or(fault("/input/data", "is missing"))?;
    TypedArray::from_json(input.data_type.0, &members::extents(input.shape), data)
        .map_err(|message| fault("/input/data", &message))
}

// The harness reads the same three forms (`harness/src/judge.rs`) into its own
// exact-text JSON, for the reason `judge.rs` gives; this reader also checks every
// class against the closed set, which the harness leaves to the suite's own tests.
fn expectation(value: Option<&Value>, pointer: &str) -> Result<Expectation, Fault> {
    let object = value
        .and_then(Value::as_object)
        .ok_or(fault(pointer, "an expectation is a JSON object"))?;
    if let Some(options) = object.get("any_of") {
        let options = options
            .as_array()
            .ok_or(fault(pointer, "any_of must be a list"))?;
        return options
            .iter()
            .enumerate()
            .map(|(i, option)| expectation(Some(option), &format!("{pointer}/any_of/{i}")))
            .collect::<Result<_, _>>()
            .map(Expectation::AnyOf);
    }
    let pointer = format!("{pointer}/error");
    let classes: Vec<&Value> = match object.get("error") {
        None => return Ok(Expectation::Output(object.clone())),
        Some(Value::Array(classes)) if !classes.is_empty() => classes.iter().collect(),
        Some(class) => vec![class],
    };
    classes
        .into_iter()
        .map(|class| error_class(class, &pointer))
        .collect::<Result<_, _>>()
        .map(Expectation::Error)
}

/// One expected error class, from the closed set: a misspelt class would make a
/// case that no implementation can pass.
fn error_class(class: &Value, pointer: &str) -> Result<String, Fault> {
    let known = || {
        let names: Vec<&str> = ErrorClass::ALL.iter().map(|c| c.as_str()).collect();
        names.join(", ")
    };
    match class.as_str() {
        Some(name) if ErrorClass::from_name(name).is_some() => Ok(name.to_string()),
        Some(name) => Err(fault(
            pointer,
            &format!(
                "unknown error class {name:?}; a class is one of {}",
                known()
            ),
        )),
        None => Err(fault(
            pointer,
            "must be a class or a non-empty list of classes",
        )),
    }
}
