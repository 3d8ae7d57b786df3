//! `check-spec`: check a spec document's examples the way a compiler checks code.
//!
//! A markdown document is read for its JSON examples (fenced blocks tagged `json`,
//! untagged blocks that hold a JSON object, and, in rendered copies that lost their
//! fences, a line `json` followed by a brace-started block) and for the inline
//! `"shape": [...]` fragments of its prose. Each is then checked:
//!
//! - JSON syntax, with the line and column in the markdown file; a single missing
//!   comma or a trailing comma is repaired so that the rest of the example is still
//!   checked in the same run;
//! - array metadata: the codec chain order of the core spec, then every `reshape`
//!   (and `transpose`) resolved against the example's chunk shape;
//! - fragments the prose calls allowed or not allowed: resolved against a decoded
//!   shape built so that only the clause under discussion decides;
//! - a heuristic on the sentence that introduces an example (it should speak of
//!   the document's own codec).
//!
//! [`check`] gives a [`Report`]; [`render`] prints it for people or for tools.

mod extract;
mod fragments;
mod inline;
mod intro;
mod json_errors;
mod lines;
mod markdown;
mod metadata;
mod order;
mod prose;
pub mod render;
mod shapes;
mod spans;
mod text;

use std::ops::Range;

use serde_json::{Value, json};

pub use inline::MAX_FRAGMENT_BYTES;
pub use lines::LineIndex;
pub use prose::{MAX_CONTEXT_BYTES, MAX_LEAD_IN_LINES};

/// The largest document checked, in bytes (4 MiB). A larger one is not read
/// for examples: its report holds one error finding, `too-large`, and nothing else.
/// Below it, checking is linear in the document's size and in the number of findings.
pub const MAX_DOCUMENT_BYTES: usize = 4 << 20;

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
    /// The document is larger than [`MAX_DOCUMENT_BYTES`], and was not checked.
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
    fn new(span: Range<usize>, message: impl Into<String>) -> Self {
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

/// Checks a markdown document's examples and fragments.
///
/// Findings come in document order, each example's JSON syntax errors before what
/// its content shows.
#[must_use]
pub fn check(text: &str) -> Report {
    if text.len() > MAX_DOCUMENT_BYTES {
        return too_large(text.len());
    }
    let lines = LineIndex::new(text);
    let document = extract::extract(text);
    // (group, phase, finding): a group is an example or a fragment, by where it starts.
    let mut keyed: Vec<(usize, u8, Finding)> = Vec::new();
    let own_codec = intro::document_codec(text, &document);
    let examples = document.blocks.iter().flat_map(|block| {
        match extract::json_lines(text, &block.pieces) {
            Some(lines) => lines.into_iter().map(|line| vec![line]).collect(),
            None => vec![block.pieces.clone()],
        }
        .into_iter()
        .map(move |pieces| (block, pieces))
    });
    for (block, pieces) in examples {
        let group = pieces.first().map_or(0, |piece| piece.start);
        let parsed = json_errors::parse(&lines, &pieces);
        keyed.extend(
            parsed
                .findings
                .iter()
                .cloned()
                .map(|finding| (group, 0, finding)),
        );
        let Some(value) = &parsed.value else {
            continue;
        };
        let mut content = metadata::check(value, &parsed);
        content.sort_by_key(|finding| finding.primary.span.start);
        let first_error = parsed
            .findings
            .first()
            .map(|finding| finding.primary.span.start);
        if let (Some(finding), Some(at)) = (content.first_mut(), first_error) {
            let (line, column) = lines.line_column(at);
            finding.notes.push(format!(
                "this example was checked as repaired (see the json-syntax error at {line}:{column})"
            ));
        }
        keyed.extend(content.into_iter().map(|finding| (group, 1, finding)));
        if let Some(own) = own_codec
            .as_deref()
            .filter(|own| metadata::uses(value, own))
        {
            let intro = intro::intro_codec(text, &document, block, own);
            keyed.extend(intro.map(|finding| (finding.primary.span.start, 1, finding)));
        }
    }
    let verdicts = prose::verdicts(text, &document);
    // Fragments on one line discuss the same clauses: read the paragraph once.
    let mut discussed: Option<(usize, Vec<zarr_reshape::Clause>)> = None;
    for (fragment, said) in document.fragments.iter().zip(verdicts) {
        if discussed.as_ref().map(|(line, _)| *line) != Some(fragment.line) {
            discussed = Some((fragment.line, prose::discussed(text, &document, fragment)));
        }
        let clauses = discussed.as_ref().map_or(&[][..], |(_, clauses)| clauses);
        let found = fragments::check(&lines, fragment, said, clauses);
        keyed.extend(found.into_iter().map(|finding| {
            let phase = u8::from(finding.kind != Kind::JsonSyntax);
            (fragment.whole.start, phase, finding)
        }));
    }
    keyed.sort_by_key(|(group, phase, finding)| (*group, *phase, finding.primary.span.start));
    Report {
        findings: keyed.into_iter().map(|(_, _, finding)| finding).collect(),
        blocks: document.blocks.len(),
        fragments: document.fragments.len(),
    }
}

/// The report on a document of `size` bytes, over [`MAX_DOCUMENT_BYTES`] and not read.
#[must_use]
pub fn refused(size: u64) -> Report {
    too_large(usize::try_from(size).unwrap_or(usize::MAX))
}

/// The report on a document over [`MAX_DOCUMENT_BYTES`]: one error at its start.
fn too_large(size: usize) -> Report {
    Report {
        findings: vec![Finding {
            kind: Kind::TooLarge,
            severity: Severity::Error,
            message: format!(
                "the document is {size} bytes; check-spec reads documents of at most {MAX_DOCUMENT_BYTES} bytes"
            ),
            primary: Label::new(0..0, "not checked"),
            related: Vec::new(),
            notes: vec!["split the document, or check the part that holds the examples".into()],
            data: json!({"bytes": size, "limit": MAX_DOCUMENT_BYTES}),
        }],
        blocks: 0,
        fragments: 0,
    }
}

/// 1-based line and column (in characters) of a byte offset. This indexes the
/// whole text for one answer: for many offsets, build one [`LineIndex`].
#[must_use]
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(text).line_column(offset)
}

/// A shape as `[a, b, c]`.
fn shape_text(shape: &[u64]) -> String {
    let items: Vec<String> = shape.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}
