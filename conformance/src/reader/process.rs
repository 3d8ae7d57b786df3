//! One run of a command-line reader: a fresh process in its own process group,
//! stdin closed, stdout and stderr read by threads with bounds, a time limit after
//! which the whole group is killed.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How a run ended.
#[derive(Debug)]
pub enum Ended {
    /// The process exited by itself with this status (code or signal).
    Exited {
        /// Its status.
        status: ExitStatus,
        /// Its stdout, whole (within the bound).
        stdout: Vec<u8>,
    },
    /// It ran past the time limit; its group was killed.
    TimedOut,
    /// Its stdout passed the bound; its group was killed.
    TooMuchOutput,
    /// It exited, but its stdout stayed open (a process outside its group holds it).
    StdoutHeld,
    /// It could not be started.
    NotStarted(String),
}

/// How long the pipes are given to close once the process has ended.
const GRACE: Duration = Duration::from_millis(500);

/// Runs `argv` (the program, then its arguments; no shell) with at most
/// `timeout`, keeping at most `max_stdout` bytes of stdout (more ends the run)
/// and the last `max_stderr` bytes of stderr, which are returned beside the end.
pub fn run(
    argv: &[String],
    timeout: Duration,
    max_stdout: usize,
    max_stderr: usize,
) -> (Ended, String) {
    let Some((program, arguments)) = argv.split_first() else {
        return (
            Ended::NotStarted("the reader command is empty".into()),
            String::new(),
        );
    };
    let spawned = Command::new(program)
        .args(arguments)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            return (
                Ended::NotStarted(format!("cannot start {program}: {error}")),
                String::new(),
            );
        }
    };
    let group = format!("-{}", child.id());
    let overflow = Arc::new(AtomicBool::new(false));
    let readers = match (child.stdout.take(), child.stderr.take()) {
        (Some(out), Some(err)) => spawn_reader(out, max_stdout, Some(Arc::clone(&overflow)))
            .and_then(|stdout| Ok((stdout, spawn_reader(err, max_stderr, None)?))),
        _ => Err("the reader's pipes could not be opened".into()),
    };
    let (stdout, stderr) = match readers {
        Ok((stdout, stderr)) => (Some(stdout), Some(stderr)),
        Err(message) => return (abandon(&mut child, &group, message), String::new()),
    };
    let deadline = Instant::now().checked_add(timeout);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(error) => {
                let message = format!("waiting for the reader failed: {error}");
                return (abandon(&mut child, &group, message), String::new());
            }
        }
        if overflow.load(Ordering::SeqCst) || deadline.is_some_and(|d| Instant::now() >= d) {
            break None;
        }
        thread::sleep(Duration::from_millis(2));
    };
    // The whole group goes, whether the leader ended or not: a process it started
    // may hold the pipes open. The leader may be reaped already (try_wait), so the
    // id is held only by members still alive; once none is, the kernel could in
    // principle hand it to a new group, the window the adapter's kill has too.
    kill_group(&group);
    let status = match status {
        Some(status) => Some(status),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            None
        }
    };
    let stdout = stdout.and_then(join);
    let stderr = stderr.and_then(join).unwrap_or_default();
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    let ended = match status {
        _ if overflow.load(Ordering::SeqCst) => Ended::TooMuchOutput,
        Some(status) => match stdout {
            Some(stdout) => Ended::Exited { status, stdout },
            None => Ended::StdoutHeld,
        },
        None => Ended::TimedOut,
    };
    (ended, stderr)
}

/// What a status says: `exit status N` or `killed by signal N`.
#[must_use]
pub fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}{}", signal_name(signal)),
        (None, None) => "an unknown exit status".into(),
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        4 => " (SIGILL)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        15 => " (SIGTERM)",
        _ => "",
    }
}

/// Kills the reader's group and the reader, reaps it: it could not be run.
fn abandon(child: &mut std::process::Child, group: &str, message: String) -> Ended {
    kill_group(group);
    let _ = child.kill();
    let _ = child.wait();
    Ended::NotStarted(message)
}

fn kill_group(group: &str) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", group])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// A thread reading `pipe` to its end. With `overflow`, the first `max` bytes are
/// kept and one byte more sets the flag and stops reading; without it, the last
/// `max` bytes are kept and reading goes on.
fn spawn_reader(
    mut pipe: impl Read + Send + 'static,
    max: usize,
    overflow: Option<Arc<AtomicBool>>,
) -> Result<(JoinHandle<Vec<u8>>, Arc<AtomicBool>), String> {
    let done = Arc::new(AtomicBool::new(false));
    let finished = Arc::clone(&done);
    let spawned = thread::Builder::new()
        .name("reader-pipe".into())
        .spawn(move || {
            let mut kept: Vec<u8> = Vec::new();
            let mut buffer = vec![0u8; 64 << 10];
            loop {
                let read = match pipe.read(&mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(read) => read,
                };
                kept.extend_from_slice(buffer.get(..read).unwrap_or_default());
                if kept.len() > max {
                    if let Some(flag) = &overflow {
                        flag.store(true, Ordering::SeqCst);
                        break;
                    }
                    let excess = kept.len().saturating_sub(max);
                    kept.drain(..excess);
                }
            }
            finished.store(true, Ordering::SeqCst);
            kept
        });
    spawned
        .map(|handle| (handle, done))
        .map_err(|error| format!("cannot start a thread for the reader's pipes: {error}"))
}

/// The reader thread's bytes, waiting at most [`GRACE`] for it to end.
fn join((handle, done): (JoinHandle<Vec<u8>>, Arc<AtomicBool>)) -> Option<Vec<u8>> {
    let deadline = Instant::now().checked_add(GRACE);
    while !done.load(Ordering::SeqCst) {
        if deadline.is_none_or(|d| Instant::now() >= d) {
            // A pipe someone outside the group still holds: the thread is left.
            return None;
        }
        thread::sleep(Duration::from_millis(2));
    }
    handle.join().ok()
}
