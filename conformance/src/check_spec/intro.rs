//! The document's own codec, and the sentence that introduces an example: a
//! heuristic warning when that sentence speaks of another codec.

use serde_json::json;

use super::document::{Block, Document, LineKind};
use super::finding::{Finding, Kind, Label, Severity};
use super::text::{is_prose, line_range, paragraph_start, words};

const CORE_CODECS: &[&str] = &[
    "bytes",
    "transpose",
    "gzip",
    "zstd",
    "blosc",
    "crc32c",
    "sharding",
    "sharding_indexed",
    "reshape",
];

/// The codec the document defines: its title `<name> codec`, else "MUST be `<name>`".
pub(crate) fn document_codec(text: &str, document: &Document) -> Option<String> {
    let prose = (0..document.lines.len()).filter(|index| is_prose(document, text, *index));
    for (position, index) in prose.clone().enumerate() {
        let line = document.line_text(text, index).trim();
        let title = line.trim_start_matches('#').trim();
        let heading = position == 0 || line.starts_with('#');
        if let (true, Some((name, "codec"))) = (heading, title.split_once(' ')) {
            return Some(name.trim_matches('`').to_string());
        }
    }
    prose
        .map(|index| document.line_text(text, index))
        .find_map(|line| {
            let (_, rest) = line.split_once("MUST be `")?;
            Some(rest.split('`').next()?.to_string())
        })
}

/// A warning when the paragraph before a metadata example speaks of another codec.
pub(crate) fn intro_codec(
    text: &str,
    document: &Document,
    block: &Block,
    own: &str,
) -> Option<Finding> {
    let last = (0..block.first_line).rev().find(|index| {
        let kind = document.lines.get(*index).map(|line| line.kind);
        kind == Some(LineKind::Prose) && is_prose(document, text, *index)
    })?;
    let paragraph = line_range(document, paragraph_start(document, text, last), last);
    let words = words(text, paragraph);
    if words.iter().any(|(word, _)| word == own) {
        return None;
    }
    let (name, span) = words.windows(2).find_map(|pair| match pair {
        [(name, span), (codec, end)]
            if codec == "codec"
                && CORE_CODECS.contains(&name.as_str())
                && !text
                    .get(..span.start)
                    .is_some_and(|before| before.ends_with('-')) =>
        {
            Some((text.get(span.clone())?.to_string(), span.start..end.end))
        }
        _ => None,
    })?;
    Some(Finding {
        kind: Kind::ProseCodec,
        severity: Severity::Warning,
        message: format!(
            "the sentence introducing this example speaks of the {name} codec, not of `{own}`"
        ),
        primary: Label::new(span, format!("the example is about `{own}`")),
        related: Vec::new(),
        notes: vec![format!(
            "a heuristic: the prose before an example should say what the example shows of `{own}`"
        )],
        data: json!({"codec": name, "document_codec": own}),
        suggestion: None,
    })
}
