//! The time limit of the case the current thread runs, checked in the loops of
//! the reference (the Zarr reader's chunks and codecs, map-region's coordinates)
//! between calls into the library: a case past its limit is answered `errored`
//! by the runner at once, and its thread, once it sees the deadline has passed,
//! stops its work instead of burning CPU to the end (the library itself cannot be
//! interrupted, so one library call may still run out).
//!
//! Thread-local: the in-process runner sets it on its worker thread for each
//! case; threads that never set one (the adapter, `fixtures`) have no limit.

use std::cell::Cell;
use std::time::Instant;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Sets (or, with `None`, clears) the deadline of the current thread's case.
pub fn set(deadline: Option<Instant>) {
    DEADLINE.with(|cell| cell.set(deadline));
}

/// Whether the current thread's case is past its deadline.
#[must_use]
pub fn passed() -> bool {
    DEADLINE.with(|cell| {
        cell.get()
            .is_some_and(|deadline| Instant::now() >= deadline)
    })
}

/// The message of work stopped at its deadline.
pub const STOPPED: &str = "stopped: the case is past its time limit";
