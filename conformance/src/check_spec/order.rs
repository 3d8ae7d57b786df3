//! The codec chain order of the core spec: array-to-array codecs, exactly one
//! array-to-bytes codec, then bytes-to-bytes codecs.

use serde_json::{Value, json};

use super::checker::{Checker, key, with};
use super::finding::{Kind, Label, Severity};
use super::spans::{Step, path_text};

/// The three kinds of codec of the core spec, in chain order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum CodecKind {
    ArrayToArray,
    ArrayToBytes,
    BytesToBytes,
}

impl CodecKind {
    fn of(name: &str) -> Option<Self> {
        match name {
            "transpose" | "reshape" => Some(Self::ArrayToArray),
            "bytes" | "sharding_indexed" => Some(Self::ArrayToBytes),
            "gzip" | "zstd" | "blosc" | "crc32c" => Some(Self::BytesToBytes),
            _ => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Self::ArrayToArray => "array-to-array",
            Self::ArrayToBytes => "array-to-bytes",
            Self::BytesToBytes => "bytes-to-bytes",
        }
    }
}

impl Checker<'_> {
    /// Array-to-array codecs, exactly one array-to-bytes codec, then bytes-to-bytes codecs.
    pub(crate) fn order(&mut self, codecs: &[Value], path: &[Step]) {
        let mut known: Vec<(usize, &str, CodecKind)> = Vec::new();
        for (index, codec) in codecs.iter().enumerate() {
            let name_path = with(path, &[Step::Index(index), key("name")]);
            let Some(name) = codec.get("name").and_then(Value::as_str) else {
                let message = format!(
                    "{} has no name",
                    path_text(&with(path, &[Step::Index(index)]))
                );
                let span = self.span(&with(path, &[Step::Index(index)]));
                self.push(
                    Kind::CodecOrder,
                    Severity::Error,
                    &message,
                    span,
                    "a codec object needs a name",
                );
                continue;
            };
            match CodecKind::of(name) {
                Some(kind) => known.push((index, name, kind)),
                None => {
                    let message = format!(
                        "`{name}` is not a core codec: its kind is unknown, so the order check passes over it"
                    );
                    self.push(
                        Kind::UnknownCodec,
                        Severity::Warning,
                        &message,
                        self.span(&name_path),
                        "unknown codec",
                    );
                }
            }
        }
        let name_span = |checker: &Self, index: usize| {
            checker.span(&with(path, &[Step::Index(index), key("name")]))
        };
        let to_bytes: Vec<_> = known
            .iter()
            .filter(|(_, _, kind)| *kind == CodecKind::ArrayToBytes)
            .collect();
        if let (Some(first), Some(second)) = (to_bytes.first(), to_bytes.get(1)) {
            let message = format!(
                "a second array-to-bytes codec, `{}`: a chain has exactly one",
                second.1
            );
            self.push(
                Kind::CodecOrder,
                Severity::Error,
                &message,
                name_span(self, second.0),
                "second array-to-bytes codec",
            );
            let related = Label::new(
                name_span(self, first.0),
                format!("`{}` is the first", first.1),
            );
            self.related(related);
        }
        if to_bytes.is_empty() && known.len() == codecs.len() {
            let message = "no array-to-bytes codec: a chain has exactly one (such as `bytes`)";
            self.push(
                Kind::CodecOrder,
                Severity::Error,
                message,
                self.span(path),
                "no array-to-bytes codec here",
            );
        }
        for (position, &(index, name, kind)) in known.iter().enumerate() {
            let earlier = known
                .iter()
                .take(position)
                .find(|(_, _, before)| *before > kind);
            if let Some(&(before_index, before_name, before_kind)) = earlier {
                let message = format!(
                    "{} codec `{before_name}` comes before the {} codec `{name}`",
                    before_kind.describe(),
                    kind.describe()
                );
                self.push(
                    Kind::CodecOrder,
                    Severity::Error,
                    &message,
                    name_span(self, before_index),
                    "out of order",
                );
                self.related(Label::new(
                    name_span(self, index),
                    format!("`{name}` must come before `{before_name}`"),
                ));
                self.note("the core spec orders codecs: array-to-array codecs, then exactly one array-to-bytes codec, then bytes-to-bytes codecs");
                if let Some(finding) = self.findings.last_mut() {
                    finding.data = json!({"codec": before_name, "kind": before_kind.describe(), "before": name, "before_kind": kind.describe()});
                }
            }
        }
    }
}
