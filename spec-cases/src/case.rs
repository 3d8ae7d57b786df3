//! One case of a vector file, typed where a harness needs to choose (level,
//! operation) and kept as written everywhere else, so that no number is rounded:
//! the suite has integers beyond 2^64, which only text keeps.

use std::fmt;

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

/// How strongly the spec asks for a case's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The spec requires the result.
    Must,
    /// The spec recommends it.
    Should,
    /// The suite's reading of an unclear point (see `clauses.json`).
    Interpretation,
}

impl Level {
    /// Every level, strongest first.
    pub const ALL: [Level; 3] = [Self::Must, Self::Should, Self::Interpretation];

    /// The name used in vector files: `must`, `should` or `interpretation`.
    ///
    /// ```
    /// use zarr_reshape_vectors::Level;
    /// assert_eq!(Level::Interpretation.name(), "interpretation");
    /// assert_eq!(Level::from_name("should"), Some(Level::Should));
    /// assert_eq!(Level::from_name("MUST"), None);
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Must => "must",
            Self::Should => "should",
            Self::Interpretation => "interpretation",
        }
    }

    /// The level with this name, exactly as vector files write it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|level| level.name() == name)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a case asks of the implementation. New operations may arrive in a minor
/// release (the vector format stays 1): match with a fallback arm that skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Operation {
    /// The encoded shape of `decoded_shape`.
    Resolve,
    /// Encode the decoded array `input`.
    Encode,
    /// Decode the encoded array `input`.
    Decode,
    /// The encoded coordinates of `decoded_index`.
    MapIndex,
    /// The encoded coordinates of the box `decoded_region`, in C order.
    MapRegion,
    /// Read the Zarr array fixture `array`, whole or the box `decoded_region`.
    ReadArray,
    /// The encoded representation of every step of the codec chain `codecs`
    /// (reshape among them) for chunks of `decoded_shape` and `data_type`.
    ResolveChain,
    /// Whether every chunk of the grid `chunk_grid` over `array_shape` fits the
    /// codec chain `codecs`: the distinct extents each codec hands on, or a chunk
    /// it refuses.
    ResolveGrid,
}

impl Operation {
    /// Every operation, in the order of the vector format.
    pub const ALL: [Operation; 8] = [
        Self::Resolve,
        Self::Encode,
        Self::Decode,
        Self::MapIndex,
        Self::MapRegion,
        Self::ReadArray,
        Self::ResolveChain,
        Self::ResolveGrid,
    ];

    /// The name used in vector files, e.g. `map-index`.
    ///
    /// ```
    /// use zarr_reshape_vectors::Operation;
    /// assert_eq!(Operation::ReadArray.name(), "read-array");
    /// assert_eq!(Operation::from_name("resolve"), Some(Operation::Resolve));
    /// assert_eq!(Operation::ResolveChain.name(), "resolve-chain");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Resolve => "resolve",
            Self::Encode => "encode",
            Self::Decode => "decode",
            Self::MapIndex => "map-index",
            Self::MapRegion => "map-region",
            Self::ReadArray => "read-array",
            Self::ResolveChain => "resolve-chain",
            Self::ResolveGrid => "resolve-grid",
        }
    }

    /// The operation with this name, exactly as vector files write it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|operation| operation.name() == name)
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One case. The members a harness chooses by are typed; every other member is
/// the exact JSON text of the file (`RawValue::get` gives it), for the
/// implementation to read with its own parser: integers beyond 64 bits survive.
///
/// ```
/// let cases = zarr_reshape_vectors::cases()?;
/// let case = cases
///     .iter()
///     .find(|case| case.id == "input-dims.prefix/gap-between-groups")
///     .expect("a hand-written case");
/// assert_eq!(case.file, "input-dims.prefix/gap-between-groups.json");
/// assert_eq!(case.level, zarr_reshape_vectors::Level::Must);
/// assert_eq!(case.operation, zarr_reshape_vectors::Operation::Resolve);
/// let configuration = case.configuration.expect("a configuration").get();
/// assert!(configuration.contains("shape"));
/// // What an adapter would be sent: the whole case object, as written.
/// assert!(case.json.get().starts_with('{'));
/// # Ok::<(), zarr_reshape_vectors::LoadError>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Case {
    /// The vector file that holds the case, '/'-separated below the suite root.
    pub file: &'static str,
    /// Unique, stable id, e.g. `input-dims.prefix/gap-between-groups`.
    pub id: String,
    /// What the case shows, for people.
    pub description: String,
    /// Clause ids from `clauses.json`; the first is the clause under test.
    pub clauses: Vec<String>,
    /// Ids of the errata and interpretations the expectation depends on.
    pub interpretations: Vec<String>,
    /// How strongly the spec asks for the result.
    pub level: Level,
    /// What is asked.
    pub operation: Operation,
    /// The codec's `configuration` member (any JSON value, `null` included);
    /// exactly one of this and [`Case::codec`] is present, but in `resolve-chain`
    /// cases, which hold [`Case::codecs`] instead.
    pub configuration: Option<&'static RawValue>,
    /// Instead of a configuration: the whole codec object.
    pub codec: Option<&'static RawValue>,
    /// A_shape, the shape of the chunk handed to the codec.
    pub decoded_shape: &'static RawValue,
    /// `encode` and `decode`: the array, `{"data_type", "shape", "data"}`.
    pub input: Option<&'static RawValue>,
    /// `map-index`: the decoded coordinates.
    pub decoded_index: Option<&'static RawValue>,
    /// `map-region` (and optionally `read-array`): the box `{"start", "stop"}`.
    pub decoded_region: Option<&'static RawValue>,
    /// `read-array`: `{"path", "data_type"}`, the path relative to the suite root
    /// (its files are in [`crate::files`]).
    pub array: Option<&'static RawValue>,
    /// `resolve-chain` and `resolve-grid`: a whole `codecs` list as in `zarr.json`.
    pub codecs: Option<&'static RawValue>,
    /// `resolve-chain` and `resolve-grid`: the array's data type, e.g. `"int32"`.
    pub data_type: Option<&'static RawValue>,
    /// `resolve-chain` (optional, with [`Case::chunk_grid`]): the array's shape,
    /// for an implementation that checks the chain against the array;
    /// `resolve-grid` (required): the shape the grid covers.
    pub array_shape: Option<&'static RawValue>,
    /// `resolve-chain` (optional, with [`Case::array_shape`]) and `resolve-grid`
    /// (required): the array's chunk
    /// grid as in `zarr.json`, the regular grid of chunks of `decoded_shape`.
    pub chunk_grid: Option<&'static RawValue>,
    /// The expected result: the output members, `{"error": ...}` or `{"any_of": [...]}`.
    pub expect: &'static RawValue,
    /// The whole case object as written: what an adapter process would be sent.
    pub json: &'static RawValue,
}

impl Case {
    /// The clause under test: the first of [`Case::clauses`].
    #[must_use]
    pub fn clause(&self) -> &str {
        self.clauses.first().map_or("", String::as_str)
    }
}

/// The members of a case object, as the vector format names them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Members<'a> {
    pub(crate) id: String,
    pub(crate) description: String,
    pub(crate) clauses: Vec<String>,
    #[serde(default)]
    pub(crate) interpretations: Vec<String>,
    pub(crate) level: Level,
    pub(crate) operation: Operation,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) configuration: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) codec: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(crate) decoded_shape: &'a RawValue,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) input: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) decoded_index: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) decoded_region: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) array: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) codecs: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) data_type: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) array_shape: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(crate) chunk_grid: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(crate) expect: &'a RawValue,
}

/// A member that is present, whatever its value: `Option`'s own reading would
/// turn `"configuration": null` (a case of its own) into an absent member.
fn present<'de: 'a, 'a, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<&'a RawValue>, D::Error> {
    <&'a RawValue>::deserialize(deserializer).map(Some)
}
