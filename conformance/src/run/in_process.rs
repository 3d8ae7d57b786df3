//! The embedded reference, run in-process under the same rules as an adapter: each
//! case on a worker thread with the run's time limit, a panic caught and recorded
//! as that case's answer (a crash), so the run always ends and every report is
//! complete.
//!
//! One of three harnesses over the same vectors, each for its own purpose: this one
//! is the main command's (`zarr-reshape run` without `--adapter`); `tests/vectors.rs`
//! (datatest-stable, one test per vector file) is the suite's own check of the
//! reference; the `zarr-reshape-harness` crate (`harness/`) is for other Rust
//! implementations.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use super::{Implementation, ImplementationInfo};
use crate::answer::{Answer, catch_panic};
use crate::reference;
use crate::vector::Case;

/// The most cases of one in-process run that may exceed the time limit: 4. A case
/// that does cannot be stopped: its thread is abandoned, still running. Beyond
/// four such threads every further case is errored at once, so at most four
/// abandoned threads pile up per `--jobs` worker, and the run ends.
pub const MAX_STUCK_CASES: usize = 4;

/// The time limit of one in-process case when none is given: 10 s, as for an
/// adapter.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The embedded reference, run in-process (see the module documentation).
#[derive(Debug)]
pub struct Reference {
    info: ImplementationInfo,
    run_case: fn(&Case) -> Answer,
    timeout: Duration,
    /// The thread that runs cases; `None` before the first case and after a
    /// timeout abandoned it.
    worker: Option<Worker>,
    /// How many cases exceeded the time limit.
    stuck: usize,
}

impl Default for Reference {
    fn default() -> Self {
        Self::with_timeout(DEFAULT_TIMEOUT)
    }
}

impl Clone for Reference {
    /// The same implementation and limit, with a worker of its own.
    fn clone(&self) -> Self {
        Self {
            info: self.info.clone(),
            run_case: self.run_case,
            timeout: self.timeout,
            worker: None,
            stuck: 0,
        }
    }
}

impl Reference {
    /// The embedded reference, each case given at most `timeout`.
    #[must_use]
    pub fn with_timeout(timeout: Duration) -> Self {
        Self::with_case_function(reference::run, timeout)
    }

    /// The same in-process machinery (worker thread, time limit, caught panics)
    /// around another function than the reference's: the tests of the time limit
    /// and of panics use it.
    #[must_use]
    pub fn with_case_function(run_case: fn(&Case) -> Answer, timeout: Duration) -> Self {
        Self {
            info: ImplementationInfo {
                name: "zarr-reshape".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                language: "rust".into(),
                operations: crate::wire::ALL_OPERATIONS.map(String::from).to_vec(),
                protocol: crate::wire::PROTOCOL_VERSION,
            },
            run_case,
            timeout,
            worker: None,
            stuck: 0,
        }
    }
}

impl Implementation for Reference {
    fn info(&self) -> &ImplementationInfo {
        &self.info
    }

    fn run(&mut self, case: &Case) -> Answer {
        if self.stuck >= MAX_STUCK_CASES {
            return Answer::Errored {
                message: format!(
                    "{MAX_STUCK_CASES} cases exceeded the time limit of {} ms and their threads \
                     still run: every further case is errored",
                    self.timeout.as_millis()
                ),
            };
        }
        let worker = match self.worker.take() {
            Some(worker) => worker,
            None => match Worker::spawn(self.run_case) {
                Ok(worker) => worker,
                Err(message) => return Answer::Errored { message },
            },
        };
        // The worker's loops stop at the deadline (crate::deadline) once the case is abandoned.
        let deadline = Instant::now().checked_add(self.timeout);
        if worker.cases.send((case.clone(), deadline)).is_err() {
            return Answer::Errored {
                message: "the in-process worker thread is gone".into(),
            };
        }
        match worker.answers.recv_timeout(self.timeout) {
            Ok(answer) => {
                self.worker = Some(worker);
                answer
            }
            Err(RecvTimeoutError::Timeout) => {
                // The thread cannot be killed: it is left to notice its deadline
                // (crate::deadline, checked between library calls) and stop, and
                // the next case gets a new one.
                self.stuck = self.stuck.saturating_add(1);
                Answer::Errored {
                    message: format!(
                        "timeout after {} ms (the case's thread was abandoned, still running; \
                         {} of at most {MAX_STUCK_CASES})",
                        self.timeout.as_millis(),
                        self.stuck
                    ),
                }
            }
            Err(RecvTimeoutError::Disconnected) => Answer::Errored {
                message: "the in-process worker thread ended without an answer".into(),
            },
        }
    }
}

/// A thread that runs cases one at a time.
#[derive(Debug)]
struct Worker {
    cases: Sender<(Case, Option<Instant>)>,
    answers: Receiver<Answer>,
}

impl Worker {
    fn spawn(run_case: fn(&Case) -> Answer) -> Result<Self, String> {
        let (cases, to_run) = mpsc::channel::<(Case, Option<Instant>)>();
        let (answer, answers) = mpsc::channel();
        thread::Builder::new()
            .name("reference-case".into())
            .spawn(move || {
                for (case, deadline) in to_run {
                    crate::deadline::set(deadline);
                    let answered = catch_panic(|| run_case(&case));
                    crate::deadline::set(None);
                    if answer.send(answered).is_err() {
                        return;
                    }
                }
            })
            .map_err(|error| format!("cannot start a thread for the case: {error}"))?;
        Ok(Self { cases, answers })
    }
}
