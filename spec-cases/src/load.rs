//! Reading the embedded vector files into [`Case`]s.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::case::{Case, Members, Operation};
use crate::{FORMAT, File, vector_files};

/// A vector file that could not be read: which file, which case, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The vector file, '/'-separated below the suite root.
    pub file: &'static str,
    /// The index of the case in the file's `cases`, when the fault is in one.
    pub case: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.case {
            Some(index) => write!(f, "{}: cases[{index}]: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for LoadError {}

/// The members of a vector file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileMembers<'a> {
    format: u64,
    #[serde(borrow)]
    cases: Vec<&'a RawValue>,
}

/// Every case of every vector file, files in path order, cases in file order.
///
/// ```
/// let cases = zarr_reshape_vectors::cases()?;
/// let must = cases
///     .iter()
///     .filter(|case| case.level == zarr_reshape_vectors::Level::Must)
///     .count();
/// assert!(must > 0 && must < cases.len());
/// # Ok::<(), zarr_reshape_vectors::LoadError>(())
/// ```
///
/// # Errors
/// The first file that is not a vector file of format [`FORMAT`], or a case id
/// that another case already has, with the file and what is wrong.
pub fn cases() -> Result<Vec<Case>, LoadError> {
    cases_of_files(vector_files())
}

/// The cases of `files`, with every id checked to be unique across them.
pub(crate) fn cases_of_files(
    files: impl Iterator<Item = &'static File>,
) -> Result<Vec<Case>, LoadError> {
    let mut cases = Vec::new();
    let mut seen: BTreeMap<String, &'static str> = BTreeMap::new();
    for file in files {
        for (index, case) in cases_of(file)?.into_iter().enumerate() {
            if let Some(first) = seen.insert(case.id.clone(), file.path) {
                return Err(LoadError {
                    file: file.path,
                    case: Some(index),
                    message: format!("the id {:?} is also a case of {first}", case.id),
                });
            }
            cases.push(case);
        }
    }
    Ok(cases)
}

/// The cases of one vector file.
///
/// ```
/// let file = zarr_reshape_vectors::vector_files()
///     .find(|file| file.path == "shape.auto.once/two-autos.json")
///     .expect("a vector file");
/// let cases = zarr_reshape_vectors::cases_of(file)?;
/// assert_eq!(cases.len(), 1);
/// # Ok::<(), zarr_reshape_vectors::LoadError>(())
/// ```
///
/// # Errors
/// When the file is not JSON, not of format [`FORMAT`], holds no case, or a case
/// lacks a member, has one the format does not name, or has a member of the
/// wrong kind.
pub fn cases_of(file: &'static File) -> Result<Vec<Case>, LoadError> {
    let fail = |case: Option<usize>, message: String| LoadError {
        file: file.path,
        case,
        message,
    };
    let members: FileMembers<'static> = serde_json::from_slice(file.bytes)
        .map_err(|error| fail(None, format!("not a vector file: {error}")))?;
    if members.format != FORMAT {
        return Err(fail(
            None,
            format!(
                "format {}, this crate reads format {FORMAT}",
                members.format
            ),
        ));
    }
    if members.cases.is_empty() {
        return Err(fail(None, "holds no case".into()));
    }
    members
        .cases
        .into_iter()
        .enumerate()
        .map(|(index, json)| case(file.path, json).map_err(|message| fail(Some(index), message)))
        .collect()
}

/// One case object, checked for the members its operation needs.
fn case(file: &'static str, json: &'static RawValue) -> Result<Case, String> {
    let members: Members<'static> =
        serde_json::from_str(json.get()).map_err(|error| error.to_string())?;
    let chain = matches!(
        members.operation,
        Operation::ResolveChain | Operation::ResolveGrid
    );
    if chain && (members.configuration.is_some() || members.codec.is_some()) {
        return Err(format!(
            "{}: {} takes codecs, not configuration or codec",
            members.id, members.operation
        ));
    }
    if !chain && members.configuration.is_some() == members.codec.is_some() {
        return Err(format!(
            "{}: needs exactly one of configuration and codec",
            members.id
        ));
    }
    if chain && members.data_type.is_none() {
        return Err(format!(
            "{}: the operation {} needs the member data_type",
            members.id, members.operation
        ));
    }
    if members.operation == Operation::ResolveGrid
        && (members.array_shape.is_none() || members.chunk_grid.is_none())
    {
        return Err(format!(
            "{}: the operation resolve-grid needs the members array_shape and chunk_grid",
            members.id
        ));
    }
    let argument = match members.operation {
        Operation::Resolve => None,
        Operation::ResolveChain | Operation::ResolveGrid => {
            Some(("codecs", members.codecs.is_some()))
        }
        Operation::Encode | Operation::Decode => Some(("input", members.input.is_some())),
        Operation::MapIndex => Some(("decoded_index", members.decoded_index.is_some())),
        Operation::MapRegion => Some(("decoded_region", members.decoded_region.is_some())),
        Operation::ReadArray => Some(("array", members.array.is_some())),
    };
    if let Some((name, false)) = argument {
        return Err(format!(
            "{}: the operation {} needs the member {name}",
            members.id, members.operation
        ));
    }
    if members.clauses.is_empty() {
        return Err(format!("{}: names no clause", members.id));
    }
    Ok(Case {
        file,
        id: members.id,
        description: members.description,
        clauses: members.clauses,
        interpretations: members.interpretations,
        level: members.level,
        operation: members.operation,
        configuration: members.configuration,
        codec: members.codec,
        decoded_shape: members.decoded_shape,
        input: members.input,
        decoded_index: members.decoded_index,
        decoded_region: members.decoded_region,
        array: members.array,
        codecs: members.codecs,
        data_type: members.data_type,
        array_shape: members.array_shape,
        chunk_grid: members.chunk_grid,
        expect: members.expect,
        json,
    })
}
