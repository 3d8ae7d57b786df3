//! Standard output that survives a reader who leaves: `zarr-reshape vectors | head -1`
//! closes the pipe, and `println!` would panic. A closed pipe stops further output
//! quietly; any other write error is reported once and fails the command.

use std::fmt;
use std::io::{ErrorKind, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);
static FAILED: AtomicBool = AtomicBool::new(false);

/// Prints `args` to standard output, unless its reader has gone.
pub fn print(args: fmt::Arguments<'_>) {
    if CLOSED.load(Ordering::SeqCst) || FAILED.load(Ordering::SeqCst) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let result = stdout.write_fmt(args).and_then(|()| stdout.flush());
    match result {
        Ok(()) => {}
        Err(error) if error.kind() == ErrorKind::BrokenPipe => CLOSED.store(true, Ordering::SeqCst),
        Err(error) => {
            FAILED.store(true, Ordering::SeqCst);
            eprintln!("zarr-reshape: writing to standard output: {error}");
        }
    }
}

/// Whether standard output could not be written for another reason than a closed
/// pipe (a full disk, say): the command then fails.
pub fn failed() -> bool {
    FAILED.load(Ordering::SeqCst)
}

/// `print!` through [`print()`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::output::print(format_args!($($arg)*)) };
}

/// `println!` through [`print()`].
macro_rules! outln {
    () => { $crate::cli::output::print(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};
