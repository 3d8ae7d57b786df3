//! An implementation under test as a long-lived adapter process speaking the
//! adapter protocol (version 2, or 1 for an adapter that refuses 2;
//! `conformance/PROTOCOL.md`): one JSON object per line on stdin and stdout,
//! stderr captured for the report.
//!
//! The runner owns the judgement of every fault, and every case gets exactly one
//! answer whatever the process does:
//!
//! - no answer within the per-case timeout: the process is killed, the case is
//!   [`Answer::Errored`] ("timeout after N ms");
//! - the process exits or closes its stdout mid-case: the case is errored ("adapter
//!   exited: " and its exit status or signal);
//! - after either, the process is restarted (and `start` replayed) when the next case
//!   comes, within [`AdapterOptions::restart_budget`] restarts; once the budget is
//!   spent every further case is errored at once ("adapter restart budget spent");
//! - an unparsable line, a line longer than [`AdapterOptions::max_line_bytes`]
//!   (discarded as it streams in, never buffered whole), or an answer carrying a seq
//!   that was never sent or is still to come: this case is errored and the process
//!   kept;
//! - an answer for a seq already decided (a late or repeated answer) is discarded
//!   with a note, never attributed to a later case; so are lines that arrive between
//!   cases.
//!
//! The runner's notes (restarts, discarded lines) are appended to the stderr text of
//! the case during which they happened, marked `[runner]`.

mod answers;
mod child;
mod lines;
pub(crate) mod protocol;
mod stderr;

pub use answers::MAX_LINES_BETWEEN_CASES;
pub(crate) use lines::{LineRead, read_line, skip_line};

use std::sync::Arc;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde_json::Value;

use self::child::{Child, Event};
use self::protocol::StartFailure;
use self::stderr::Capture;
use crate::answer::Answer;
use crate::run::{Implementation, ImplementationInfo};
use crate::vector::Case;
use crate::wire::{OLDEST_PROTOCOL, PROTOCOL_VERSION};

/// Limits of an adapter run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterOptions {
    /// How long one case may take (default 10 s).
    pub timeout: Duration,
    /// How many times a crashed or hung process is restarted (default 3).
    pub restart_budget: u32,
    /// The longest answer line read (default 16 MiB); a longer one is an error.
    pub max_line_bytes: usize,
    /// How long the answer to `start` may take (default 30 s).
    pub start_timeout: Duration,
    /// How much stderr is kept per case, its last bytes (default 64 KiB).
    pub max_stderr_bytes: usize,
}

impl Default for AdapterOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(10),
            restart_budget: 3,
            max_line_bytes: 16 << 20,
            start_timeout: Duration::from_secs(30),
            max_stderr_bytes: 64 << 10,
        }
    }
}

/// An adapter process under test; see the module documentation for its faults.
#[derive(Debug)]
pub struct AdapterProcess {
    command: Vec<String>,
    options: AdapterOptions,
    info: ImplementationInfo,
    /// The running process; `None` after a fault, until the next case restarts it.
    child: Option<Child>,
    /// Why the last process was lost.
    last_fault: String,
    restarts: u32,
    /// The last seq sent.
    seq: u64,
    stderr: Arc<Capture>,
}

impl AdapterProcess {
    /// Spawns `command` (argv: the program, then its arguments; no shell) and
    /// performs the `start` handshake, offering protocol version 2; when the
    /// adapter refuses it (`ok: false`), a new process is offered version 1 (the
    /// run goes on in version 1, its reports say so).
    ///
    /// # Errors
    /// When the process cannot be started, exits, refuses both versions, answers
    /// something else than a `start` answer, or does not answer within
    /// [`AdapterOptions::start_timeout`]: the reason, then the captured stderr.
    pub fn start(command: &[String], options: AdapterOptions) -> Result<Self, String> {
        let stderr = Arc::new(Capture::new(options.max_stderr_bytes));
        let started = match launch(command, &options, &stderr, PROTOCOL_VERSION) {
            Err(StartFailure::Refused(newer)) => {
                stderr.note(format!(
                    "{newer}; offering protocol {OLDEST_PROTOCOL} to a new process \
                     (version {OLDEST_PROTOCOL} has no crashed result)"
                ));
                launch(command, &options, &stderr, OLDEST_PROTOCOL)
                    .map_err(|older| format!("{newer}; then {}", older.into_text()))
            }
            other => other.map_err(StartFailure::into_text),
        };
        match started {
            Ok((child, info)) => Ok(Self {
                command: command.to_vec(),
                options,
                info,
                child: Some(child),
                last_fault: String::new(),
                restarts: 0,
                seq: 0,
                stderr,
            }),
            Err(reason) => {
                let captured = stderr.take();
                if captured.trim().is_empty() {
                    Err(format!("{reason}; stderr was empty"))
                } else {
                    Err(format!("{reason}; stderr:\n{captured}"))
                }
            }
        }
    }

    /// How many times the process was restarted.
    #[must_use]
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// Makes sure a process runs, restarting one within the budget.
    fn revive(&mut self) -> Result<(), String> {
        while self.child.is_none() {
            if self.restarts >= self.options.restart_budget {
                return Err(format!(
                    "adapter restart budget spent ({} restarts); last fault: {}",
                    self.options.restart_budget, self.last_fault
                ));
            }
            self.restarts = self.restarts.saturating_add(1);
            self.stderr.note(format!(
                "restart {} of {} after: {}",
                self.restarts, self.options.restart_budget, self.last_fault
            ));
            match launch(
                &self.command,
                &self.options,
                &self.stderr,
                self.info.protocol,
            ) {
                Err(reason) => {
                    let reason = reason.into_text();
                    self.stderr.note(format!("the restart failed: {reason}"));
                    self.last_fault = format!("a restart failed: {reason}");
                }
                Ok((child, _)) => self.child = Some(child),
            }
        }
        Ok(())
    }
}

/// Spawns the process and performs the `start` handshake, offering `version`.
fn launch(
    command: &[String],
    options: &AdapterOptions,
    capture: &Arc<Capture>,
    version: u64,
) -> Result<(Child, ImplementationInfo), StartFailure> {
    let mut child =
        Child::spawn(command, options.max_line_bytes, capture).map_err(StartFailure::Other)?;
    let _ = child.send(protocol::start_request(version));
    let outcome = match child.events.recv_timeout(options.start_timeout) {
        Ok(Event::Line(line)) => serde_json::from_slice::<Value>(&line)
            .map_err(|error| {
                StartFailure::Other(format!(
                    "the answer to start is not JSON ({error}): {}",
                    protocol::excerpt_bytes(&line)
                ))
            })
            .and_then(|value| protocol::parse_start(&value, version)),
        Ok(Event::TooLong) => Err(StartFailure::Other(format!(
            "the answer to start is longer than {} bytes",
            options.max_line_bytes
        ))),
        Ok(Event::Closed(why) | Event::WriteFailed(why)) => Err(StartFailure::Other(format!(
            "the adapter exited during start: {} ({why})",
            child.reap()
        ))),
        Err(RecvTimeoutError::Disconnected) => Err(StartFailure::Other(format!(
            "the adapter exited during start: {}",
            child.reap()
        ))),
        Err(RecvTimeoutError::Timeout) => Err(StartFailure::Other(format!(
            "no answer to start within {} ms (the adapter was killed: {})",
            options.start_timeout.as_millis(),
            child.kill()
        ))),
    };
    match outcome {
        Ok(info) => Ok((child, info)),
        Err(reason) => {
            let _ = child.kill();
            Err(reason)
        }
    }
}

impl Implementation for AdapterProcess {
    fn info(&self) -> &ImplementationInfo {
        &self.info
    }

    fn run(&mut self, case: &Case) -> Answer {
        self.discard_pending();
        if let Err(message) = self.revive() {
            return Answer::Errored { message };
        }
        self.seq = self.seq.saturating_add(1);
        let seq = self.seq;
        let deadline = Instant::now().checked_add(self.options.timeout);
        if let Some(child) = &self.child {
            // A refused line means the writer died; its WriteFailed event follows.
            // Read-array cases go with their array path made absolute.
            let _ = child.send(protocol::run_request(seq, &crate::vector::wire_json(case)));
        }
        self.await_answer(seq, deadline)
    }

    fn take_stderr(&mut self) -> String {
        if let Some(child) = &self.child {
            child.sync_stderr();
        }
        self.stderr.take()
    }
}

impl Drop for AdapterProcess {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.stop(protocol::stop_request());
        }
    }
}
