//! Array metadata in an example: the codec chain order of the core spec, then the
//! shapes the array-to-array codecs encode the example's chunk shape as.

use serde_json::{Value, json};
use zarr_reshape::{ReshapeConfiguration, explain};

use super::checker::{Checker, key, with};
use super::finding::{Finding, Kind, Severity, shape_text};
use super::json_errors::Parsed;
use super::spans::{Step, path_text};

/// True for array metadata (an object with a `codecs` array) that uses codec `name`.
pub(crate) fn uses(value: &Value, name: &str) -> bool {
    value
        .get("codecs")
        .and_then(Value::as_array)
        .is_some_and(|codecs| {
            codecs
                .iter()
                .any(|codec| codec.get("name").and_then(Value::as_str) == Some(name))
        })
}

/// Checks array metadata, or a lone reshape codec object; other JSON is let be.
pub(crate) fn check(value: &Value, parsed: &Parsed) -> Vec<Finding> {
    let mut checker = Checker::new(parsed);
    let codecs_path = [Step::Key("codecs".into())];
    if let Some(codecs) = value.get("codecs").and_then(Value::as_array) {
        checker.order(codecs, &codecs_path);
        let chunk_path =
            ["chunk_grid", "configuration", "chunk_shape"].map(|key| Step::Key(key.into()));
        match value.pointer("/chunk_grid/configuration/chunk_shape") {
            Some(chunk_shape) => match extents(chunk_shape) {
                Some(shape) => checker.chain(codecs, &codecs_path, shape),
                None => checker.push(
                    Kind::ChunkShape,
                    Severity::Error,
                    "chunk_shape must be an array of non-negative integers",
                    checker.span(&chunk_path),
                    "not a shape",
                ),
            },
            None => checker.push(
                Kind::ChunkShape,
                Severity::Warning,
                "no chunk_grid.configuration.chunk_shape: the codecs are checked for order only",
                checker.span(&codecs_path),
                "no chunk shape to resolve these against",
            ),
        }
    } else if value.get("name").and_then(Value::as_str) == Some("reshape") {
        if let Err(error) = ReshapeConfiguration::from_codec_json_value(value) {
            let message = format!("this reshape codec is malformed: {error}");
            let label = format!("{} ({})", error.clause(), error.class());
            checker.push(
                Kind::ReshapeViolation,
                Severity::Error,
                &message,
                checker.span(&[]),
                &label,
            );
        }
    }
    checker.findings
}

fn extents(value: &Value) -> Option<Vec<u64>> {
    value.as_array()?.iter().map(Value::as_u64).collect()
}

impl Checker<'_> {
    /// Follows the chunk shape through the array-to-array codecs, in order.
    fn chain(&mut self, codecs: &[Value], path: &[Step], chunk_shape: Vec<u64>) {
        let mut current = chunk_shape;
        for (index, codec) in codecs.iter().enumerate() {
            let codec_path = with(path, &[Step::Index(index)]);
            let at = path_text(&codec_path);
            let configuration = codec.get("configuration").unwrap_or(&Value::Null);
            let next = match codec.get("name").and_then(Value::as_str) {
                Some("reshape") => self.reshape(configuration, &codec_path, &current),
                Some("transpose") => self.transpose(configuration, &codec_path, &current),
                Some("sharding_indexed") => {
                    self.sharding(configuration, &codec_path);
                    return;
                }
                _ => return,
            };
            let Some(next) = next else { return };
            let name = codec
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let message = format!(
                "{at} ({name}) encodes {} as {}",
                shape_text(&current),
                shape_text(&next)
            );
            let member = if name == "transpose" {
                "order"
            } else {
                "shape"
            };
            let span = self.span(&with(&codec_path, &[key("configuration"), key(member)]));
            let label = format!("encoded shape {}", shape_text(&next));
            self.push(Kind::EncodedShape, Severity::Note, &message, span, &label);
            if let Some(finding) = self.findings.last_mut() {
                finding.data = json!({"path": at, "codec": name, "decoded_shape": current, "encoded_shape": next});
            }
            current = next;
        }
    }

    fn reshape(
        &mut self,
        configuration: &Value,
        path: &[Step],
        decoded: &[u64],
    ) -> Option<Vec<u64>> {
        let explanation = explain(configuration, decoded);
        let error = match explanation.outcome {
            Ok(encoded) => return Some(encoded),
            Err(ref error) => error,
        };
        let message = format!(
            "{} cannot encode the decoded shape {}: {error}",
            path_text(path),
            shape_text(decoded)
        );
        let shape_path = with(path, &[key("configuration"), key("shape")]);
        let span = self.located(&shape_path).unwrap_or_else(|| self.span(path));
        let label = format!("violates {} ({})", error.clause(), error.class());
        self.push(
            Kind::ReshapeViolation,
            Severity::Error,
            &message,
            span,
            &label,
        );
        let trace: Vec<String> = explanation
            .to_string()
            .lines()
            .map(|line| format!("  {line}"))
            .collect();
        self.note(format!("explain:\n{}", trace.join("\n")));
        if let Some(finding) = self.findings.last_mut() {
            finding.data = json!({
                "path": path_text(path), "decoded_shape": decoded,
                "clause": error.clause().id(), "class": error.class().as_str(),
                "explain": explanation.steps.iter().map(ToString::to_string).collect::<Vec<_>>(),
            });
        }
        None
    }

    fn transpose(
        &mut self,
        configuration: &Value,
        path: &[Step],
        decoded: &[u64],
    ) -> Option<Vec<u64>> {
        let order: Option<Vec<usize>> = configuration
            .get("order")
            .and_then(Value::as_array)
            .and_then(|order| {
                order
                    .iter()
                    .map(|item| item.as_u64().and_then(|item| usize::try_from(item).ok()))
                    .collect()
            });
        let encoded: Option<Vec<u64>> = order
            .as_ref()
            .filter(|order| {
                let mut sorted = order.to_vec();
                sorted.sort_unstable();
                sorted.iter().copied().eq(0..decoded.len())
            })
            .and_then(|order| {
                order
                    .iter()
                    .map(|axis| decoded.get(*axis).copied())
                    .collect()
            });
        if encoded.is_none() {
            let message = format!(
                "{}: order must be a permutation of 0..{} for the decoded shape {}",
                path_text(path),
                decoded.len(),
                shape_text(decoded)
            );
            let span = self.span(&with(path, &[key("configuration")]));
            self.push(
                Kind::TransposeInvalid,
                Severity::Error,
                &message,
                span,
                "not a permutation of the decoded dimensions",
            );
            self.note("transpose: encoded shape[i] = decoded shape[order[i]], with order a permutation of the decoded dimensions");
        }
        encoded
    }

    /// `sharding_indexed` holds chains of its own: the inner one is resolved against
    /// the inner chunk shape; the index chain is checked for order.
    fn sharding(&mut self, configuration: &Value, path: &[Step]) {
        let inner_path = with(path, &[key("configuration"), key("codecs")]);
        if let Some(inner) = configuration.get("codecs").and_then(Value::as_array) {
            self.order(inner, &inner_path);
            if let Some(shape) = configuration.get("chunk_shape").and_then(extents) {
                self.chain(inner, &inner_path, shape);
            }
        }
        if let Some(index) = configuration.get("index_codecs").and_then(Value::as_array) {
            self.order(
                index,
                &with(path, &[key("configuration"), key("index_codecs")]),
            );
        }
    }
}
