//! The pipeline: the document cut into blocks and fragments, each example parsed
//! into a JSON value whose spans point into the document, each value and fragment
//! checked into findings, the findings sorted into a report.

use serde_json::json;

use super::finding::{Finding, Kind, Label, Report, Severity};
use super::lines::LineIndex;
use super::{extract, fragments, intro, json_errors, metadata, prose, stated};

/// The largest document checked, in bytes (4 MiB). A larger one is not read
/// for examples: its report holds one error finding, `too-large`, and nothing else.
/// Below it, checking is linear in the document's size and in the number of findings.
pub const MAX_DOCUMENT_BYTES: usize = 4 << 20;

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
        let whole = pieces == block.pieces;
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
        if whole {
            let after = document
                .blocks
                .partition_point(|next| next.first_line <= block.first_line);
            let next = document.blocks.get(after);
            let said = stated::check(text, &document, block, next, &content);
            keyed.extend(
                said.into_iter()
                    .map(|finding| (finding.primary.span.start, 1, finding)),
            );
        }
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
    // A verdict that several fragments share ("A and B are not allowed", a list's
    // lead-in) is not repaired for one of them: the others would change too.
    let mut verdict_spans: Vec<(usize, usize)> = verdicts
        .iter()
        .flatten()
        .map(|(_, span)| (span.start, span.end))
        .collect();
    verdict_spans.sort_unstable();
    let shared = |span: &std::ops::Range<usize>| {
        let key = (span.start, span.end);
        verdict_spans
            .partition_point(|probe| *probe < key)
            .saturating_add(1)
            < verdict_spans.partition_point(|probe| *probe <= key)
    };
    // Fragments on one line discuss the same clauses: read the paragraph once.
    let mut discussed: Option<(usize, Vec<zarr_reshape::Clause>)> = None;
    let masks = prose::line_masks(text, &document);
    for (fragment, said) in document.fragments.iter().zip(verdicts) {
        if discussed.as_ref().map(|(line, _)| *line) != Some(fragment.line) {
            discussed = Some((
                fragment.line,
                prose::discussed(text, &document, &masks, fragment),
            ));
        }
        let clauses = discussed.as_ref().map_or(&[][..], |(_, clauses)| clauses);
        let alone = said.as_ref().is_none_or(|(_, span)| !shared(span));
        let mut found = fragments::check(&lines, fragment, said, clauses);
        if !alone {
            found
                .iter_mut()
                .filter(|finding| finding.kind == Kind::FragmentDisagrees)
                .for_each(|finding| finding.suggestion = None);
        }
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
            suggestion: None,
        }],
        blocks: 0,
        fragments: 0,
    }
}
