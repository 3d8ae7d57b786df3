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
//!
//! # The pipeline
//!
//! ```text
//! document ──extract──▶ blocks, fragments ──json_errors──▶ JSON values with spans
//!   (markdown: pulldown-cmark)                  │ (a repaired text, each byte's origin)
//!                                               ▼
//!            metadata, order, fragments, intro ──▶ findings ──check──▶ Report ──render──▶ text, JSON
//! ```
//!
//! - `markdown` reads the CommonMark structure (fenced code, HTML comments) with
//!   pulldown-cmark; `extract` adds what a rendered copy keeps (unfenced blocks,
//!   fragments outside backticks) and builds the `document`;
//! - `json_errors` parses an example, repairing slips, and keeps each byte's place
//!   in the document; `spans` finds a value's range by its path;
//! - `metadata` (with `order` and `checker`), `fragments` (with `prose` and
//!   `shapes`) and `intro` turn values and prose into findings (`finding`);
//! - `check` runs the pipeline and sorts the findings; `render` prints them;
//! - `source` opens a document only when its read cannot block (a regular file on
//!   no pseudo filesystem); `fix` and `replace` repair it in place, writing only a
//!   file of the user's own (see `conformance/CHECK-SPEC.md`).
//!
//! The module uses the library `zarr_reshape` and nothing else of this crate: a
//! change here cannot touch the runner.

mod check;
mod checker;
mod document;
mod extract;
mod finding;
pub mod fix;
mod fragments;
pub mod github;
mod inline;
mod intro;
mod json_errors;
mod lines;
mod markdown;
mod metadata;
mod order;
mod prose;
pub mod render;
pub mod replace;
mod shapes;
pub mod source;
mod spans;
mod stated;
mod text;

pub use check::{MAX_DOCUMENT_BYTES, check, refused};
pub use finding::{Edit, Finding, Kind, Label, Report, Severity, Suggestion};
pub use inline::MAX_FRAGMENT_BYTES;
pub use prose::{MAX_CONTEXT_BYTES, MAX_LEAD_IN_LINES};
