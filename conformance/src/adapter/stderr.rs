//! The adapter's stderr, captured for the report: a bounded tail of the bytes
//! written since the last [`Capture::take`], and the runner's own notes.
//!
//! A reader thread copies stderr into the capture as it arrives. To know that
//! everything the adapter wrote before its answer has been read (no timing guess:
//! a loaded machine may schedule the reader late), the runner writes a mark of its
//! own into the same stream ([`Capture::sync`]) and waits until the reader has
//! passed it; the stream keeps the order of writes, so what came before the mark is
//! in the capture then. The mark holds a random nonce and never reaches the report.

use std::collections::VecDeque;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::net::UnixStream;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The most notes kept between two takes.
const MAX_NOTES: usize = 64;
/// The digits of a mark's number (a `u64`, zero-padded).
const MARK_DIGITS: usize = 20;
/// The longest wait for the reader to pass a mark. It passes it as soon as it is
/// scheduled; this bound is reached only if the reader thread stalls altogether.
const MAX_MARK_WAIT: Duration = Duration::from_secs(30);

/// Stderr text shared by the reader threads of every process the adapter ran.
#[derive(Debug)]
pub(super) struct Capture {
    limit: usize,
    /// The start of every mark: a NUL, a name and a nonce of this capture.
    mark_prefix: Vec<u8>,
    state: Mutex<State>,
    /// Signalled when a reader passed a mark or ended.
    passed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// The last `limit` bytes written.
    tail: VecDeque<u8>,
    /// How many bytes were dropped from the front of `tail`.
    dropped: u64,
    /// What the runner did, in order (restarts, discarded lines).
    notes: Vec<String>,
    /// The number of the last mark written.
    marks_sent: u64,
    /// The highest mark number a reader passed.
    marks_passed: u64,
}

impl Capture {
    /// Keeps at most `limit` bytes of stderr between two takes.
    pub(super) fn new(limit: usize) -> Self {
        let random = RandomState::new();
        let nonce = [random.build_hasher(), RandomState::new().build_hasher()]
            .map(|mut hasher| {
                hasher.write_u32(std::process::id());
                hasher.finish()
            })
            .map(|half| format!("{half:016x}"))
            .concat();
        Self {
            limit,
            mark_prefix: format!("\0zarr-reshape-stderr-mark-{nonce}-").into_bytes(),
            state: Mutex::new(State::default()),
            passed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A reader thread cannot panic while holding the lock; take the data anyway.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn append(&self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut state = self.lock();
        state.tail.extend(bytes);
        let excess = state.tail.len().saturating_sub(self.limit);
        if excess > 0 {
            state.tail.drain(..excess);
            let excess = u64::try_from(excess).unwrap_or(u64::MAX);
            state.dropped = state.dropped.saturating_add(excess);
        }
    }

    fn mark_passed(&self, number: u64) {
        let mut state = self.lock();
        state.marks_passed = state.marks_passed.max(number);
        self.passed.notify_all();
    }

    /// Wakes a [`Self::sync`] waiting on a reader that has ended.
    fn reader_ended(&self) {
        let _state = self.lock();
        self.passed.notify_all();
    }

    /// Records something the runner did, to appear with the stderr text.
    pub(super) fn note(&self, note: String) {
        let mut state = self.lock();
        if state.notes.len() < MAX_NOTES {
            state.notes.push(note);
        }
    }

    /// Makes sure everything written to the stream behind `writer` (a handle to
    /// the adapter's end of its stderr) before now is in the capture: writes a
    /// mark, then waits until the reader passed it or `finished` (the stream
    /// ended, nothing more to wait for).
    pub(super) fn sync(&self, mut writer: &UnixStream, finished: &Finished) {
        let number = {
            let mut state = self.lock();
            state.marks_sent = state.marks_sent.saturating_add(1);
            state.marks_sent
        };
        let mut mark = self.mark_prefix.clone();
        mark.extend(format!("{number:0MARK_DIGITS$}").bytes());
        // Written without the lock: the reader needs it to drain a full stream.
        if writer.write_all(&mark).is_err() {
            return; // the reader is gone: it read everything it will
        }
        let deadline = Instant::now().checked_add(MAX_MARK_WAIT);
        let mut state = self.lock();
        while state.marks_passed < number && !finished.is_done() {
            let left = deadline.map_or(MAX_MARK_WAIT, |d| {
                d.saturating_duration_since(Instant::now())
            });
            if left.is_zero() {
                return;
            }
            state = match self.passed.wait_timeout(state, left) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    /// Everything captured since the last take: stderr text (lossy UTF-8, its
    /// front cut if more than the limit came), then the runner's notes.
    pub(super) fn take(&self) -> String {
        let mut state = self.lock();
        let tail = std::mem::take(&mut state.tail);
        let dropped = std::mem::take(&mut state.dropped);
        let notes = std::mem::take(&mut state.notes);
        drop(state);
        let mut text = String::new();
        if dropped > 0 {
            text.push_str(&format!(
                "[runner: {dropped} earlier bytes of stderr dropped]\n"
            ));
        }
        text.push_str(&String::from_utf8_lossy(&Vec::from(tail)));
        for note in notes {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str("[runner] ");
            text.push_str(&note);
            text.push('\n');
        }
        text
    }
}

/// Whether one process's stderr reached its end, so that its last words can be
/// waited for before the case they belong to is recorded.
#[derive(Debug, Default)]
pub(super) struct Finished {
    done: Mutex<bool>,
    changed: Condvar,
}

impl Finished {
    fn set(&self) {
        *self.done.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.changed.notify_all();
    }

    fn is_done(&self) -> bool {
        *self.done.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until the stream ended, at most `timeout`.
    pub(super) fn wait(&self, timeout: Duration) {
        let deadline = Instant::now().checked_add(timeout);
        let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        while !*done {
            let left = deadline.map_or(timeout, |d| d.saturating_duration_since(Instant::now()));
            if left.is_zero() {
                return;
            }
            done = match self.changed.wait_timeout(done, left) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

/// Splits the bytes read into stderr text and the runner's marks, holding back
/// (at most a mark's length) what may be the start of a mark cut by a read.
#[derive(Debug, Default)]
struct MarkSplitter {
    carry: Vec<u8>,
}

impl MarkSplitter {
    fn feed(&mut self, chunk: &[u8], capture: &Capture) {
        let prefix = capture.mark_prefix.as_slice();
        let mut data = std::mem::take(&mut self.carry);
        data.extend_from_slice(chunk);
        let mut rest = data.as_slice();
        while let Some(at) = rest.windows(prefix.len()).position(|w| w == prefix) {
            let Some((text, marked)) = rest.split_at_checked(at) else {
                break;
            };
            capture.append(text);
            let Some((mark, after)) =
                marked.split_at_checked(prefix.len().saturating_add(MARK_DIGITS))
            else {
                self.carry = marked.to_vec();
                return;
            };
            match parse_mark_number(mark.get(prefix.len()..).unwrap_or_default()) {
                Some(number) => capture.mark_passed(number),
                None => capture.append(mark),
            }
            rest = after;
        }
        // The longest end of `rest` that begins a mark waits for the next read.
        let held = (1..prefix.len())
            .rev()
            .find(|&k| prefix.get(..k).is_some_and(|start| rest.ends_with(start)))
            .unwrap_or(0);
        let (text, held) = rest.split_at(rest.len().saturating_sub(held));
        capture.append(text);
        self.carry = held.to_vec();
    }

    fn finish(self, capture: &Capture) {
        capture.append(&self.carry);
    }
}

fn parse_mark_number(digits: &[u8]) -> Option<u64> {
    if digits.len() != MARK_DIGITS || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// The body of a stderr reader thread: copies `stream` into `capture` until its
/// end, passing the runner's marks, then marks `finished`.
pub(super) fn pump(mut stream: impl Read, capture: &Capture, finished: &Finished) {
    let mut buffer = vec![0_u8; 64 << 10];
    let mut splitter = MarkSplitter::default();
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => splitter.feed(buffer.get(..n).unwrap_or_default(), capture),
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => {
                capture.note(format!("reading the adapter's stderr failed: {error}"));
                break;
            }
        }
    }
    splitter.finish(capture);
    finished.set();
    capture.reader_ended();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capture_keeps_the_last_bytes_and_says_how_many_it_dropped() {
        let capture = Capture::new(4);
        capture.append(b"abcdef");
        capture.append(b"gh");
        capture.note("restarted".into());
        let text = capture.take();
        assert_eq!(
            text,
            "[runner: 4 earlier bytes of stderr dropped]\nefgh\n[runner] restarted\n"
        );
        assert_eq!(capture.take(), "");
    }

    #[test]
    fn pump_copies_a_stream_and_marks_its_end() {
        let capture = Capture::new(100);
        let finished = Finished::default();
        pump(&b"warning: x\n"[..], &capture, &finished);
        finished.wait(Duration::ZERO);
        assert!(*finished.done.lock().unwrap());
        assert_eq!(capture.take(), "warning: x\n");
    }

    #[test]
    fn marks_are_taken_out_even_when_a_read_cuts_them() {
        let capture = Capture::new(1000);
        let mut stream = b"before\n".to_vec();
        stream.extend(&capture.mark_prefix);
        stream.extend(b"00000000000000000007after\0zarr");
        // Every cut point, as if a read had ended there.
        for cut in 0..stream.len() {
            let (first, second) = stream.split_at(cut);
            let mut splitter = MarkSplitter::default();
            splitter.feed(first, &capture);
            splitter.feed(second, &capture);
            splitter.finish(&capture);
            assert_eq!(capture.take(), "before\nafter\0zarr", "cut at {cut}");
            assert_eq!(capture.lock().marks_passed, 7);
        }
    }

    #[test]
    fn sync_returns_once_the_reader_passed_its_mark() {
        let capture = std::sync::Arc::new(Capture::new(1000));
        let finished = std::sync::Arc::new(Finished::default());
        let (reader, writer) = UnixStream::pair().unwrap();
        let pumping = {
            let (capture, finished) = (capture.clone(), finished.clone());
            std::thread::spawn(move || pump(reader, &capture, &finished))
        };
        for round in 0..50 {
            (&writer)
                .write_all(format!("line {round}\n").as_bytes())
                .unwrap();
            capture.sync(&writer, &finished);
            assert_eq!(capture.take(), format!("line {round}\n"));
        }
        drop(writer);
        pumping.join().unwrap();
        assert!(finished.is_done());
    }
}
