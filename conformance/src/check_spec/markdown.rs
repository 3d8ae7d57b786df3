//! The CommonMark structure check-spec reads from pulldown-cmark: fenced code
//! blocks (their language and their content, as byte ranges of the document) and
//! HTML comment blocks. Everything else is prose, read line by line (see
//! `extract`), because a rendered copy of a spec keeps none of its markup.
//!
//! Indented code blocks are read as prose on purpose: a rendered copy indents the
//! continuation lines of its list items by four spaces, which CommonMark calls code.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// A fenced code block.
#[derive(Debug, Clone)]
pub(crate) struct Fence {
    /// The whole block, its fences included.
    pub(crate) range: Range<usize>,
    /// The first word of the info string (`json`), or "" when there is none.
    pub(crate) language: String,
    /// The content, in pieces that leave out what a container puts before each
    /// line (a list item's indentation, a block quote's `>`) and line breaks' `\r`.
    pub(crate) pieces: Vec<Range<usize>>,
}

/// The fenced code blocks and HTML comment blocks of a document, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Structure {
    pub(crate) fences: Vec<Fence>,
    pub(crate) comments: Vec<Range<usize>>,
}

/// Reads the structure of `text`, in one pass.
pub(crate) fn structure(text: &str) -> Structure {
    let mut structure = Structure::default();
    let mut open: Option<Fence> = None;
    for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let language = info.split_whitespace().next().unwrap_or_default();
                open = Some(Fence {
                    range,
                    language: language.to_string(),
                    pieces: Vec::new(),
                });
            }
            Event::Text(_) => {
                // A tab only partly taken by a container comes as spaces of no
                // range: nothing of the document, so nothing to check.
                if let Some(fence) = open.as_mut().filter(|_| !range.is_empty()) {
                    fence.pieces.push(range);
                }
            }
            Event::End(TagEnd::CodeBlock) => structure.fences.extend(open.take()),
            Event::Start(Tag::HtmlBlock) => {
                let block = text.get(range.clone()).unwrap_or_default();
                if block.trim_start().starts_with("<!--") {
                    structure.comments.push(range);
                }
            }
            _ => {}
        }
    }
    structure
}

/// The text of `pieces` of `text`, joined.
pub(crate) fn joined(text: &str, pieces: &[Range<usize>]) -> String {
    pieces
        .iter()
        .filter_map(|piece| text.get(piece.clone()))
        .collect()
}
