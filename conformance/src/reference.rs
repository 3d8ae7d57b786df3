//! The embedded reference: runs a case through the `zarr-reshape` library.

use std::io::{self, Write};
use std::path::Path;

use serde_json::{Map, Value};
use zarr_reshape::{Argument, ReshapeCodec, ReshapeConfiguration, ReshapeError};

use crate::answer::Answer;
use crate::arrays::{DataType, TypedArray, map_typed};
use crate::vector::{Case, CodecJson, Operation};
use crate::wire::MAX_LINE_BYTES;
use crate::zarr;

/// The work budget of one `map-region` case: the most coordinates (elements of the
/// box times the encoded rank) its answer may hold, 2^16. A larger box is answered
/// `errored`, before the work: the reference declines, the spec allows the box.
/// An answer within it is at most about 1.5 MB of JSON (well within the line
/// limit) and 16 MB as a JSON value in memory; 2^20 coordinates took about 550 MB
/// per case in a run, so a few cases at once passed 1 GiB.
pub const MAX_REGION_COORDINATES: u64 = 1 << 16;

/// The longest answer the reference gives, in bytes of compact JSON: the
/// protocol's line limit ([`MAX_LINE_BYTES`]) less 64 KiB for the line's envelope
/// (`seq`). A longer answer is `errored` (no reader could take its line), checked
/// before its JSON is built where its size can be bounded from below, and by
/// counting the bytes (never buffering them) otherwise.
pub const MAX_ANSWER_BYTES: usize = MAX_LINE_BYTES.saturating_sub(64 << 10);

/// Runs one case through the reference implementation.
#[must_use]
pub fn run(case: &Case) -> Answer {
    run_under(case, zarr::GridReading::default())
}

/// [`run`] under the grid readings `reading` (I-11, I-12; `crate::readings`
/// answers a case under each documented reading).
#[must_use]
pub fn run_under(case: &Case, reading: zarr::GridReading) -> Answer {
    if let Operation::ReadArray { path, region, .. } = &case.operation {
        return bounded(read_array(path, region.as_ref(), reading));
    }
    if let (Operation::ResolveChain { data_type, .. }, CodecJson::Chain(codecs)) =
        (&case.operation, &case.codec)
    {
        return bounded(resolve_chain(codecs, &case.decoded_shape, *data_type));
    }
    if let (
        Operation::ResolveGrid {
            data_type,
            array_shape,
            chunk_grid,
        },
        CodecJson::Chain(codecs),
    ) = (&case.operation, &case.codec)
    {
        return bounded(resolve_grid(
            codecs,
            array_shape,
            chunk_grid,
            *data_type,
            reading,
        ));
    }
    match execute(case) {
        Ok(output) => bounded(Answer::Output(output)),
        Err(Declined(message)) => Answer::Errored { message },
        Err(Refused(error)) => Answer::Error {
            class: Some(error.class().as_str().to_string()),
            message: error.to_string(),
            chunk: None,
        },
    }
}

/// Why [`execute`] gives no output.
enum Stop {
    /// The codec's verdict: an error class.
    Refused(ReshapeError),
    /// Beyond what the reference answers (a budget, the line limit): `errored`.
    Declined(String),
}
use Stop::{Declined, Refused};

impl From<ReshapeError> for Stop {
    fn from(error: ReshapeError) -> Self {
        Refused(error)
    }
}

/// `answer`, or `errored` when its JSON would be longer than [`MAX_ANSWER_BYTES`].
fn bounded(answer: Answer) -> Answer {
    let Answer::Output(output) = &answer else {
        return answer;
    };
    match serde_json::to_writer(&mut Counter(0), output) {
        Ok(()) => answer,
        Err(_) => Answer::Errored {
            message: too_long("the answer"),
        },
    }
}

fn too_long(what: &str) -> String {
    format!(
        "{what} would be longer than {MAX_ANSWER_BYTES} bytes of JSON, beyond the protocol's line limit of {MAX_LINE_BYTES} bytes"
    )
}

/// Counts the bytes written to it, failing past [`MAX_ANSWER_BYTES`].
struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0 = self
            .0
            .checked_add(bytes.len())
            .filter(|total| *total <= MAX_ANSWER_BYTES)
            .ok_or_else(|| io::Error::other("the answer is too long"))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A lower bound of the JSON text of an array of `shape` (a digit per element,
/// `[]` per list, a comma between items): beyond [`MAX_ANSWER_BYTES`] the answer
/// cannot fit, and is declined before its JSON is built.
fn check_array_size(shape: &[u64]) -> Result<(), Stop> {
    // Lists at depth k: prod(shape[..k]); each holds its items and their commas.
    let mut lists: u64 = 0;
    let mut across: u64 = 1;
    for extent in shape {
        lists = lists.saturating_add(across);
        across = across.saturating_mul(*extent);
    }
    // `across` is now the element count; every element and list but the outer
    // one follows a comma or opens its list.
    let bytes = across
        .saturating_mul(2)
        .saturating_add(lists.saturating_mul(3));
    if usize::try_from(bytes)
        .ok()
        .is_none_or(|bytes| bytes > MAX_ANSWER_BYTES)
    {
        return Err(Declined(too_long(&format!("an array of shape {shape:?}"))));
    }
    Ok(())
}

fn execute(case: &Case) -> Result<Map<String, Value>, Stop> {
    let configuration = match &case.codec {
        CodecJson::Configuration(json) => ReshapeConfiguration::from_json_value(json)?,
        CodecJson::Codec(json) => ReshapeConfiguration::from_codec_json_value(json)?,
        CodecJson::Chain(_) => {
            return Err(Declined(format!(
                "a codec chain is resolved by resolve-chain only, not by {}",
                case.operation.name()
            )));
        }
    };
    let codec = ReshapeCodec::new(configuration, &case.decoded_shape)?;
    let mut output = Map::new();
    match &case.operation {
        Operation::Resolve => {
            output.insert(
                "encoded_shape".into(),
                Value::from(codec.encoded_shape().to_vec()),
            );
        }
        Operation::Encode(array) => {
            let encoded = map_typed!(array, |a| codec.encode(a).map(|b| b.into_owned()))?;
            // The codec's verdict first; then whether its JSON can be answered at all.
            check_array_size(&encoded.shape())?;
            insert_array(&mut output, &encoded);
        }
        Operation::Decode(array) => {
            let decoded = map_typed!(array, |a| codec.decode(a).map(|b| b.into_owned()))?;
            check_array_size(&decoded.shape())?;
            insert_array(&mut output, &decoded);
        }
        Operation::MapIndex(index) => {
            let index = unsigned(index, Argument::DecodedIndex)?;
            output.insert(
                "encoded_index".into(),
                Value::from(codec.encoded_index(&index)?),
            );
        }
        Operation::MapRegion { start, stop } => {
            let start = unsigned(start, Argument::DecodedRegion)?;
            let stop = unsigned(stop, Argument::DecodedRegion)?;
            let runs = codec.region_runs(&start, &stop)?;
            // The work is one coordinate per element and encoded dimension.
            let elements = start
                .iter()
                .zip(&stop)
                .try_fold(1u64, |acc, (a, b)| acc.checked_mul(b.saturating_sub(*a)));
            let rank = u64::try_from(codec.encoded_shape().len()).unwrap_or(u64::MAX);
            let coordinates = elements.map(|elements| elements.saturating_mul(rank.max(1)));
            if coordinates.is_none_or(|coordinates| coordinates > MAX_REGION_COORDINATES) {
                return Err(Declined(format!(
                    "a box of {} elements at encoded rank {rank} is beyond the reference's budget of {MAX_REGION_COORDINATES} coordinates",
                    elements.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string())
                )));
            }
            let mut indices = Vec::new();
            // Within the budget the answer fits the line (2^16 coordinates of at
            // most 20 digits); `bounded` still measures it. The loop stops at the
            // case's deadline once the runner has abandoned it.
            for run in runs {
                if crate::deadline::passed() {
                    return Err(Declined(crate::deadline::STOPPED.into()));
                }
                for offset in (run.offset..).take(usize::try_from(run.len).unwrap_or(usize::MAX)) {
                    indices.push(Value::from(codec.encoded_index_at(offset)?));
                }
            }
            output.insert("encoded_indices".into(), Value::Array(indices));
        }
        // Answered by `read_array`, through the whole codec chain.
        Operation::ReadArray { .. } => {}
        Operation::ResolveChain { .. } | Operation::ResolveGrid { .. } => {
            return Err(Declined(format!(
                "{} takes a codec chain (codecs), not one codec",
                case.operation.name()
            )));
        }
    }
    Ok(output)
}

/// Reads a Zarr array (or a box of it) through its codec chain (`crate::zarr`): the
/// array's values, or the class of what stopped the reader.
fn read_array(
    path: &Path,
    region: Option<&(Vec<u64>, Vec<u64>)>,
    reading: zarr::GridReading,
) -> Answer {
    let region = region.map(|(start, stop)| (start.as_slice(), stop.as_slice()));
    match zarr::read_array_under(path, region, reading) {
        Ok(array) => {
            let mut output = Map::new();
            insert_array(&mut output, &array);
            Answer::Output(output)
        }
        Err(error) => refused(error),
    }
}

/// Resolves a codec chain's shapes (`crate::zarr`): every step's encoded shape,
/// or the class of what stopped it.
fn resolve_chain(codecs: &Value, chunk_shape: &[u64], data_type: DataType) -> Answer {
    zarr::resolve_chain(codecs, chunk_shape, data_type)
        .map_or_else(refused, |shapes| Answer::Output(shapes.to_json()))
}

/// Whether every chunk of a grid fits a codec chain (`crate::zarr`, answered
/// from the rules' structure): the distinct extents each codec hands on, or the
/// error of a chunk the chain refuses, naming that chunk.
fn resolve_grid(
    codecs: &Value,
    array_shape: &[u64],
    chunk_grid: &Value,
    data_type: DataType,
    reading: zarr::GridReading,
) -> Answer {
    match zarr::resolve_grid(codecs, array_shape, chunk_grid, data_type, reading) {
        Ok(zarr::GridVerdict::Fits(shapes)) => Answer::Output(shapes.to_json()),
        Ok(zarr::GridVerdict::Refused { chunk, error }) => match refused(error) {
            Answer::Error { class, message, .. } => Answer::Error {
                class,
                message,
                chunk: Some(chunk),
            },
            other => other,
        },
        Err(error) => refused(error),
    }
}

/// What stopped the Zarr reader, as a rejection with its class; a codec the
/// reader does not implement is `skipped`, naming it: the chain may be valid, and
/// the reference has no verdict (never `malformed-configuration`).
fn refused(error: zarr::ZarrError) -> Answer {
    if error.is_unsupported() {
        return Answer::Skipped {
            reason: error.message,
        };
    }
    Answer::Error {
        class: Some(error.class.as_str().to_string()),
        message: error.message,
        chunk: None,
    }
}

/// The library takes unsigned coordinates; a negative one lies outside any array.
fn unsigned(coordinates: &[i128], argument: Argument) -> Result<Vec<u64>, ReshapeError> {
    coordinates
        .iter()
        .enumerate()
        .map(|(dim, coordinate)| {
            u64::try_from(*coordinate).map_err(|_| ReshapeError::OutOfBounds {
                argument,
                detail: format!("coordinate {coordinate} along dimension {dim} is negative"),
            })
        })
        .collect()
}

fn insert_array(output: &mut Map<String, Value>, array: &TypedArray) {
    output.insert("shape".into(), Value::from(array.shape()));
    output.insert("data".into(), array.to_json());
}
