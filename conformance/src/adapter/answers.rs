//! Waiting for the answer to one case: what each line, each exit and the clock
//! mean for it (see the parent module for the rules).

use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::child::{Child, Event, GRACE};
use super::{AdapterProcess, protocol};
use crate::answer::Answer;

/// The most lines discarded between two cases, and the most late answers
/// discarded during one: 1024. An adapter that writes more unasked lines is
/// flooding its stdout: it is killed (and restarted within the
/// budget for the next case), so the drain between cases always ends.
pub const MAX_LINES_BETWEEN_CASES: usize = 1024;

/// How often a case in flight checks whether the process has exited: every 50 ms.
/// An exit is noticed this soon even when a process it started keeps its stdout
/// open (no end of stdout then arrives).
pub const EXIT_POLL: Duration = Duration::from_millis(50);

impl AdapterProcess {
    /// Discards what arrived since the last case was decided; notices an exit.
    pub(super) fn discard_pending(&mut self) {
        let Some(child) = &mut self.child else {
            return;
        };
        let mut discarded: usize = 0;
        loop {
            if discarded >= MAX_LINES_BETWEEN_CASES {
                let fault = format!(
                    "the adapter flooded its stdout between cases (more than {MAX_LINES_BETWEEN_CASES} \
                     lines; it was killed: {})",
                    child.kill()
                );
                self.stderr.note(fault.clone());
                self.lose(fault);
                return;
            }
            discarded = discarded.saturating_add(1);
            match child.events.try_recv() {
                Ok(Event::Line(line)) => self.stderr.note(format!(
                    "discarded a line that came between cases: {}",
                    protocol::excerpt_bytes(&line)
                )),
                Ok(Event::TooLong) => self.stderr.note(format!(
                    "discarded a line longer than {} bytes that came between cases",
                    self.options.max_line_bytes
                )),
                Ok(Event::Closed(why) | Event::WriteFailed(why)) => {
                    let fault =
                        format!("the adapter exited between cases: {} ({why})", child.reap());
                    self.stderr.note(fault.clone());
                    self.lose(fault);
                    return;
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    let fault = format!("the adapter exited between cases: {}", child.reap());
                    self.stderr.note(fault.clone());
                    self.lose(fault);
                    return;
                }
            }
        }
    }

    /// Drops the process after a fault, remembering why for the restart.
    fn lose(&mut self, fault: String) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
        }
        self.last_fault = fault;
    }

    /// The fault `message` of the current case, the process lost.
    fn lost(&mut self, message: String) -> Answer {
        self.lose(format!("seq {}: {message}", self.seq));
        Answer::Errored { message }
    }

    /// Waits for the answer to `seq`, until `deadline`.
    pub(super) fn await_answer(&mut self, seq: u64, deadline: Option<Instant>) -> Answer {
        let timeout = self.options.timeout;
        let mut deadline = deadline;
        // When the process was seen to have exited with its stdout still open.
        let mut exited = false;
        let mut late: usize = 0;
        loop {
            let Some(child) = &mut self.child else {
                return self.lost("the adapter is gone".into());
            };
            // Checked before every event, so that a stream of late answers cannot
            // outlast the deadline.
            let left = deadline.map_or(timeout, |d| d.saturating_duration_since(Instant::now()));
            if left.is_zero() {
                let status = child.kill();
                return self.lost(if exited {
                    format!(
                        "adapter exited: {status} (its stdout stayed open, held by a process it \
                         started; its process group was killed)"
                    )
                } else {
                    format!(
                        "timeout after {} ms (the adapter was killed: {status})",
                        timeout.as_millis()
                    )
                });
            }
            let event = match child.events.recv_timeout(left.min(EXIT_POLL)) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => {
                    if !exited && child.exited() {
                        // What it wrote before exiting may still be on its way.
                        exited = true;
                        let grace = Instant::now().checked_add(GRACE);
                        deadline = match (deadline, grace) {
                            (Some(d), Some(g)) => Some(d.min(g)),
                            (d, g) => d.or(g),
                        };
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => Event::Closed("its pipes closed".into()),
            };
            match event {
                Event::Line(line) => {
                    if let Some(answer) = self.judge_line(seq, &line) {
                        return answer;
                    }
                    late = late.saturating_add(1);
                    if late > MAX_LINES_BETWEEN_CASES {
                        let status = self.child.as_mut().map(Child::kill).unwrap_or_default();
                        return self.lost(format!(
                            "the adapter flooded its stdout (more than {MAX_LINES_BETWEEN_CASES} \
                             late answers; it was killed: {status})"
                        ));
                    }
                }
                Event::TooLong => {
                    return errored(format!(
                        "answer line longer than {} bytes",
                        self.options.max_line_bytes
                    ));
                }
                Event::Closed(why) | Event::WriteFailed(why) => {
                    let status = child.reap();
                    return self.lost(format!("adapter exited: {status} ({why})"));
                }
            }
        }
    }

    /// What one stdout line means while waiting for `seq`; `None` to keep waiting.
    fn judge_line(&self, seq: u64, line: &[u8]) -> Option<Answer> {
        // As deep as a record may be: a rank-256 answer, not serde_json's 128.
        let value: Value =
            match crate::input_file::parse_json(line, crate::input_file::MAX_RECORD_DEPTH) {
                Ok(value) => value,
                Err(error) => {
                    return Some(errored(format!(
                        "unparsable answer line ({error}): {}",
                        protocol::excerpt_bytes(line)
                    )));
                }
            };
        let Some(object) = value.as_object() else {
            return Some(errored(format!(
                "an answer must be a JSON object: {}",
                protocol::excerpt(&value)
            )));
        };
        let answered = object.get("seq").and_then(Value::as_u64);
        match answered {
            Some(answered) if answered == seq => Some(match object.get("result") {
                Some(result) => Answer::from_json(result),
                None => errored(format!(
                    "the answer for seq {seq} has no result: {}",
                    protocol::excerpt(&value)
                )),
            }),
            Some(answered) if answered > 0 && answered < seq => {
                self.stderr.note(format!(
                    "seq {seq}: discarded a late or repeated answer for seq {answered}"
                ));
                None
            }
            _ => Some(errored(format!(
                "answer for seq {} while waiting for {seq}: {}",
                object
                    .get("seq")
                    .map_or_else(|| "(none)".into(), ToString::to_string),
                protocol::excerpt(&value)
            ))),
        }
    }
}

/// The fault `message` of the current case, the process kept.
fn errored(message: String) -> Answer {
    Answer::Errored { message }
}
