//! The adapter's stderr, captured for the report: a bounded tail of the bytes
//! written since the last [`Capture::take`], and the runner's own notes.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The most notes kept between two takes.
const MAX_NOTES: usize = 64;
/// Stderr is taken once it has been quiet this long (text written just before an
/// answer belongs to that answer's case)...
const QUIET: Duration = Duration::from_millis(10);
/// ...or once this much time was spent waiting for quiet.
const MAX_SETTLE: Duration = Duration::from_millis(100);

/// Stderr text shared by the reader threads of every process the adapter ran.
#[derive(Debug)]
pub(super) struct Capture {
    limit: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The last `limit` bytes written.
    tail: VecDeque<u8>,
    /// How many bytes were dropped from the front of `tail`.
    dropped: u64,
    /// What the runner did, in order (restarts, discarded lines).
    notes: Vec<String>,
    /// When bytes last arrived.
    last_append: Option<Instant>,
}

impl Capture {
    /// Keeps at most `limit` bytes of stderr between two takes.
    pub(super) fn new(limit: usize) -> Self {
        Self {
            limit,
            state: Mutex::new(State::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A reader thread cannot panic while holding the lock; take the data anyway.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn append(&self, bytes: &[u8]) {
        let mut state = self.lock();
        state.last_append = Some(Instant::now());
        state.tail.extend(bytes);
        let excess = state.tail.len().saturating_sub(self.limit);
        if excess > 0 {
            state.tail.drain(..excess);
            let excess = u64::try_from(excess).unwrap_or(u64::MAX);
            state.dropped = state.dropped.saturating_add(excess);
        }
    }

    /// Records something the runner did, to appear with the stderr text.
    pub(super) fn note(&self, note: String) {
        let mut state = self.lock();
        if state.notes.len() < MAX_NOTES {
            state.notes.push(note);
        }
    }

    /// Everything captured since the last take: stderr text (lossy UTF-8, its
    /// front cut if more than the limit came), then the runner's notes. When bytes
    /// are still arriving, waits first until stderr is quiet for [`QUIET`], at most
    /// [`MAX_SETTLE`].
    pub(super) fn take(&self) -> String {
        let started = Instant::now();
        let mut state = self.lock();
        while let Some(last) = state.last_append {
            let quiet = last.elapsed();
            if quiet >= QUIET || started.elapsed() >= MAX_SETTLE {
                break;
            }
            drop(state);
            std::thread::sleep(QUIET.saturating_sub(quiet));
            state = self.lock();
        }
        let State {
            tail,
            dropped,
            notes,
            last_append: _,
        } = std::mem::take(&mut *state);
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

/// The body of a stderr reader thread: copies `stream` into `capture` until its
/// end, then marks `finished`.
pub(super) fn pump(mut stream: impl Read, capture: &Capture, finished: &Finished) {
    let mut buffer = vec![0_u8; 64 << 10];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => capture.append(buffer.get(..n).unwrap_or_default()),
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => {
                capture.note(format!("reading the adapter's stderr failed: {error}"));
                break;
            }
        }
    }
    finished.set();
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
}
