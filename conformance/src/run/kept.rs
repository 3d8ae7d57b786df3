//! What a run keeps of each answer for its reports, once the answer is judged: the
//! whole answer when it is small (every answer the suite expects is), else a cut
//! copy that says what was cut. Without a cap a run holds every answer in memory
//! (as parsed JSON, several times the size of its text) until its reports are
//! written: answers of under 1 MB each reached 5.8 GB after 92 cases.

use serde_json::{Map, Value};

use crate::answer::Answer;

/// The most bytes of JSON text of an answer (or of a message) kept for the reports.
pub const MAX_KEPT_ANSWER_BYTES: usize = 8 << 10;

/// The most JSON values (objects, arrays, numbers, strings, ...) of an answer kept:
/// parsed, each costs several times its text.
pub const MAX_KEPT_ANSWER_VALUES: usize = 1024;

/// How much of a cut member's text is kept, in bytes.
const EXCERPT_BYTES: usize = 1 << 10;

/// How many members of a cut answer are kept.
const MAX_KEPT_MEMBERS: usize = 32;

/// `answer`, or a copy within [`MAX_KEPT_ANSWER_BYTES`] and
/// [`MAX_KEPT_ANSWER_VALUES`]: each large member of an output becomes a string
/// saying how long it was and starting with its text; a long message is cut.
#[must_use]
pub fn kept(answer: Answer) -> Answer {
    match answer {
        Answer::Output(output) => Answer::Output(kept_output(output)),
        Answer::Error {
            class,
            message,
            chunk,
        } => Answer::Error {
            class: class.map(|class| cut_text(class, EXCERPT_BYTES)),
            message: cut_text(message, MAX_KEPT_ANSWER_BYTES),
            chunk,
        },
        Answer::Skipped { reason } => Answer::Skipped {
            reason: cut_text(reason, MAX_KEPT_ANSWER_BYTES),
        },
        Answer::Errored { message } => Answer::Errored {
            message: cut_text(message, MAX_KEPT_ANSWER_BYTES),
        },
        Answer::Crashed { message } => Answer::Crashed {
            message: cut_text(message, MAX_KEPT_ANSWER_BYTES),
        },
    }
}

fn kept_output(output: Map<String, Value>) -> Map<String, Value> {
    let values = output
        .values()
        .fold(1_usize, |n, v| n.saturating_add(count(v)));
    // Written out only as far as the cap: a long answer is never written whole.
    let whole = values <= MAX_KEPT_ANSWER_VALUES
        && output
            .iter()
            .try_fold(0_usize, |sum, (key, value)| {
                let (text, cut) = bounded_text(value, MAX_KEPT_ANSWER_BYTES);
                let sum = sum.saturating_add(key.len()).saturating_add(text.len());
                (!cut && sum <= MAX_KEPT_ANSWER_BYTES).then_some(sum)
            })
            .is_some();
    if whole {
        return output;
    }
    let members = output.len();
    let mut kept: Map<String, Value> = output
        .into_iter()
        .take(MAX_KEPT_MEMBERS)
        .map(|(key, value)| {
            let (text, cut) = bounded_text(&value, EXCERPT_BYTES);
            let values = count(&value);
            if values <= 64 && !cut {
                (cut_text(key, EXCERPT_BYTES), value)
            } else {
                let note = format!(
                    "(cut by the runner: {values} JSON values; it keeps {EXCERPT_BYTES} bytes) {text}"
                );
                (cut_text(key, EXCERPT_BYTES), Value::String(note))
            }
        })
        .collect();
    if let Some(more) = members.checked_sub(MAX_KEPT_MEMBERS).filter(|n| *n > 0) {
        kept.insert(
            "(cut by the runner)".into(),
            Value::String(format!("{more} more members")),
        );
    }
    kept
}

/// The start of `value`'s JSON text, at most `max` bytes (at a character
/// boundary), and whether it was cut; written no further than that.
fn bounded_text(value: &Value, max: usize) -> (String, bool) {
    /// A writer that takes `max` bytes, then refuses.
    struct Bounded {
        bytes: Vec<u8>,
        max: usize,
        cut: bool,
    }
    impl std::io::Write for Bounded {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let room = self.max.saturating_sub(self.bytes.len());
            if buf.len() > room {
                self.bytes.extend(buf.iter().take(room));
                self.cut = true;
                return Err(std::io::Error::other("cut"));
            }
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Bounded {
        bytes: Vec::new(),
        max,
        cut: false,
    };
    let _ = serde_json::to_writer(&mut out, value);
    // A character cut in two at the end is left out.
    let text = match String::from_utf8(out.bytes) {
        Ok(text) => text,
        Err(error) => {
            let valid = error.utf8_error().valid_up_to();
            let mut bytes = error.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        }
    };
    (text, out.cut)
}

/// How many JSON values `value` holds, itself included.
fn count(value: &Value) -> usize {
    match value {
        Value::Array(items) => items
            .iter()
            .fold(1_usize, |n, item| n.saturating_add(count(item))),
        Value::Object(members) => members
            .values()
            .fold(1_usize, |n, item| n.saturating_add(count(item))),
        _ => 1,
    }
}

/// `text`, or its first `max` bytes (at a character boundary) and how long it was.
fn cut_text(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    format!(
        "{} ... (cut by the runner: {} bytes; it keeps {max})",
        prefix(&text, max),
        text.len()
    )
}

/// The longest start of `text` of at most `max` bytes that ends at a character boundary.
fn prefix(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end = end.saturating_sub(1);
    }
    text.get(..end).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_small_answer_is_kept_whole() {
        let answer = Answer::Output(
            json!({"shape": [2, 3], "data": [[1, 2, 3], [4, 5, 6]]})
                .as_object()
                .cloned()
                .unwrap(),
        );
        assert_eq!(kept(answer.clone()), answer);
    }

    #[test]
    fn a_large_member_becomes_a_note_and_small_ones_stay() {
        let data: Vec<u32> = vec![7; 100_000];
        let answer = Answer::Output(
            json!({"shape": [100_000], "data": data})
                .as_object()
                .cloned()
                .unwrap(),
        );
        let Answer::Output(kept) = kept(answer) else {
            panic!("an output stays an output");
        };
        assert_eq!(kept["shape"], json!([100_000]));
        let note = kept["data"].as_str().unwrap();
        assert!(
            note.starts_with("(cut by the runner: 100001 JSON values"),
            "{note}"
        );
        assert!(Value::Object(kept).to_string().len() < 2 * EXCERPT_BYTES);
    }

    #[test]
    fn a_long_message_is_cut_at_a_character_boundary() {
        let message = "é".repeat(MAX_KEPT_ANSWER_BYTES);
        let Answer::Errored { message } = kept(Answer::Errored { message }) else {
            panic!("an errored answer stays errored");
        };
        assert!(
            message.len() < MAX_KEPT_ANSWER_BYTES + 100,
            "{}",
            message.len()
        );
        assert!(message.ends_with(&format!(
            "(cut by the runner: {} bytes; it keeps {MAX_KEPT_ANSWER_BYTES})",
            2 * MAX_KEPT_ANSWER_BYTES
        )));
    }
}
