//! What check-spec finds: findings with their places in the document, and the
//! report that holds them. Plain data, used by every other part.

use std::ops::Range;

use serde_json::Value;

/// How bad a finding is. Errors make the command exit non-zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// A result worth showing: an encoded shape, a fragment that agrees.
    Note,
    /// Suspicious, but not provably wrong (an unknown codec, the prose heuristic).
    Warning,
    /// Wrong: the document says or shows something the spec forbids.
    Error,
}

impl Severity {
    /// The name used in both output formats.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Note => "note",
            Self::Warning => "warning",
            Self::Error => "error",
        }
    }
}

/// What a finding is about; the stable name is its `id` in both formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A JSON example or fragment that does not parse.
    JsonSyntax,
    /// The codecs are not array-to-array, one array-to-bytes, bytes-to-bytes.
    CodecOrder,
    /// A codec name that is not a core codec: its kind is not known.
    UnknownCodec,
    /// Metadata with codecs but no chunk shape to resolve them against.
    ChunkShape,
    /// A reshape configuration that does not resolve against its decoded shape.
    ReshapeViolation,
    /// A transpose order that is not a permutation of the decoded dimensions.
    TransposeInvalid,
    /// The shape an array-to-array codec encodes its input as.
    EncodedShape,
    /// A fragment whose verdict in the prose is the one the rules give.
    FragmentAgrees,
    /// A fragment whose verdict in the prose is not the one the rules give.
    FragmentDisagrees,
    /// The verdict agrees, but another clause than the one discussed decides it.
    FragmentOtherClause,
    /// A fragment the prose gives no verdict on; its resolution is shown.
    FragmentNoVerdict,
    /// The sentence introducing an example speaks of another codec.
    ProseCodec,
    /// The prose around an example states an encoded shape its codecs do not give.
    StatedShape,
    /// The document is larger than `MAX_DOCUMENT_BYTES`, and was not checked.
    TooLarge,
}

impl Kind {
    /// The stable name of the kind.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::JsonSyntax => "json-syntax",
            Self::CodecOrder => "codec-order",
            Self::UnknownCodec => "unknown-codec",
            Self::ChunkShape => "chunk-shape",
            Self::ReshapeViolation => "reshape-violation",
            Self::TransposeInvalid => "transpose-invalid",
            Self::EncodedShape => "encoded-shape",
            Self::FragmentAgrees => "fragment-agrees",
            Self::FragmentDisagrees => "fragment-disagrees",
            Self::FragmentOtherClause => "fragment-other-clause",
            Self::FragmentNoVerdict => "fragment-no-verdict",
            Self::ProseCodec => "prose-codec",
            Self::StatedShape => "stated-shape",
            Self::TooLarge => "too-large",
        }
    }
}

/// A place in the markdown (a byte range) with what to say there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Byte range in the document; empty for a point (e.g. where a comma is missing).
    pub span: Range<usize>,
    /// The text shown under it.
    pub message: String,
}

impl Label {
    pub(crate) fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        Self {
            span,
            message: message.into(),
        }
    }
}

/// One thing found in the document.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// What it is about.
    pub kind: Kind,
    /// How bad it is.
    pub severity: Severity,
    /// The headline.
    pub message: String,
    /// Where it is; its start gives the line and column reported.
    pub primary: Label,
    /// Other places that explain it.
    pub related: Vec<Label>,
    /// Notes shown after the snippet (an explain trace, the repair made, ...).
    pub notes: Vec<String>,
    /// Kind-specific facts for `--format json` (shapes, clauses, verdicts).
    pub data: Value,
    /// The one obvious repair, when there is one (`--fix` applies it).
    pub suggestion: Option<Suggestion>,
}

/// One replacement of a byte range of the document (empty range: an insertion,
/// empty text: a deletion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The bytes replaced.
    pub span: Range<usize>,
    /// What stands there afterwards.
    pub replacement: String,
}

/// A repair with one obvious form, said the way rustc says it (`help: ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The help text, e.g. "the encoded shape is [6, 4]".
    pub message: String,
    /// The edits that make the repair, in document order, not overlapping.
    pub edits: Vec<Edit>,
}

impl Suggestion {
    pub(crate) fn replace(message: impl Into<String>, span: Range<usize>, text: &str) -> Self {
        Self {
            message: message.into(),
            edits: vec![Edit {
                span,
                replacement: text.into(),
            }],
        }
    }
}

/// Everything found in one document, in document order.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The findings, sorted by where they start.
    pub findings: Vec<Finding>,
    /// How many JSON examples were read.
    pub blocks: usize,
    /// How many `"shape": [...]` fragments of the prose were read.
    pub fragments: usize,
}

impl Report {
    /// How many findings have this severity.
    #[must_use]
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|finding| finding.severity == severity)
            .count()
    }

    /// True when nothing is wrong (notes and warnings only).
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.count(Severity::Error) == 0
    }
}

/// A shape as `[a, b, c]`.
pub(crate) fn shape_text(shape: &[u64]) -> String {
    let items: Vec<String> = shape.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}
