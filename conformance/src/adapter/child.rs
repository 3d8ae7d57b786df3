//! One adapter process, spawned from an argv (no shell), its three pipes served by
//! threads so that the runner never blocks on the process: it only waits, with a
//! deadline, on the channel of [`Event`]s.

use std::io::{BufReader, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use super::lines::{self, LineRead};
use super::stderr::{self, Capture, Finished};

/// How long an exiting process is given before it is killed, and its stderr
/// before the case is recorded.
pub(super) const GRACE: Duration = Duration::from_millis(500);
/// The read buffer of stdout.
const READ_BUFFER: usize = 64 << 10;
/// The most events (stdout lines) queued for the runner: 64. Beyond it the stdout
/// reader stops reading, the pipe fills and an adapter that floods its stdout
/// blocks, so a flood costs at most 64 lines of memory, never a growing queue.
pub const EVENT_QUEUE: usize = 64;

/// Something that happened on the process's pipes.
#[derive(Debug)]
pub(super) enum Event {
    /// One stdout line, without its newline.
    Line(Vec<u8>),
    /// A stdout line longer than the bound; the rest of it is being discarded.
    TooLong,
    /// Stdout ended (the process exited or closed it), or reading it failed.
    Closed(String),
    /// Writing to stdin failed (the process exited or closed it).
    WriteFailed(String),
}

/// A running adapter process.
#[derive(Debug)]
pub(super) struct Child {
    process: std::process::Child,
    /// Lines for the stdin writer thread; `None` once stdin is to be closed.
    stdin: Option<Sender<Vec<u8>>>,
    /// Everything from the stdout reader and the stdin writer.
    pub(super) events: Receiver<Event>,
    stderr_finished: Arc<Finished>,
    /// Where its stderr goes, a second handle on the adapter's end, for the marks
    /// of [`Capture::sync`]; dropped when the process ends so that stderr can end.
    stderr_marks: Option<UnixStream>,
    capture: Arc<Capture>,
    status: Option<ExitStatus>,
    /// Whether the process group was killed (it is killed once, never after the
    /// leader's id may have been reused).
    group_killed: bool,
}

impl Child {
    /// Spawns `command` (argv: the program, then its arguments), with stdout read in
    /// lines of at most `max_line_bytes` and stderr copied into `capture`.
    ///
    /// # Errors
    /// When the command is empty or the process or a thread cannot be started.
    pub(super) fn spawn(
        command: &[String],
        max_line_bytes: usize,
        capture: &Arc<Capture>,
    ) -> Result<Self, String> {
        let (program, arguments) = command
            .split_first()
            .ok_or_else(|| "the adapter command is empty".to_string())?;
        // Stderr is a socket rather than a pipe so that the runner can hold a
        // second handle on the adapter's end and write its marks there.
        let (stderr_pipe, adapter_stderr) = UnixStream::pair()
            .map_err(|error| format!("cannot open a stream for the adapter's stderr: {error}"))?;
        let stderr_marks = adapter_stderr
            .try_clone()
            .map_err(|error| format!("cannot open a stream for the adapter's stderr: {error}"))?;
        // Its own process group, so that whatever it starts is killed with it.
        let mut process = Command::new(program)
            .args(arguments)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(OwnedFd::from(adapter_stderr)))
            .spawn()
            .map_err(|error| format!("cannot start {program}: {error}"))?;
        let (stdin_pipe, stdout_pipe) = match (process.stdin.take(), process.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => {
                let _ = process.kill();
                let _ = process.wait();
                return Err("the adapter's pipes could not be opened".into());
            }
        };
        let (event_sender, events) = mpsc::sync_channel(EVENT_QUEUE);
        let (line_sender, lines_to_write) = mpsc::channel::<Vec<u8>>();
        let stderr_finished = Arc::new(Finished::default());
        let mut child = Self {
            process,
            stdin: Some(line_sender),
            events,
            stderr_finished: Arc::clone(&stderr_finished),
            stderr_marks: Some(stderr_marks),
            capture: Arc::clone(capture),
            status: None,
            group_killed: false,
        };
        let writer_events = event_sender.clone();
        let started = thread::Builder::new()
            .name("adapter-stdin".into())
            .spawn(move || write_lines(stdin_pipe, &lines_to_write, &writer_events))
            .and_then(|_| {
                thread::Builder::new()
                    .name("adapter-stdout".into())
                    .spawn(move || read_lines(stdout_pipe, max_line_bytes, &event_sender))
            })
            .and_then(|_| {
                let capture = Arc::clone(capture);
                thread::Builder::new()
                    .name("adapter-stderr".into())
                    .spawn(move || stderr::pump(stderr_pipe, &capture, &stderr_finished))
            });
        match started {
            Ok(_) => Ok(child),
            Err(error) => {
                child.kill();
                Err(format!("cannot start a thread for the adapter: {error}"))
            }
        }
    }

    /// Hands one line to the stdin writer; `false` when the writer is gone (its
    /// failure then arrives as an [`Event::WriteFailed`]).
    pub(super) fn send(&self, line: Vec<u8>) -> bool {
        self.stdin
            .as_ref()
            .is_some_and(|sender| sender.send(line).is_ok())
    }

    /// Makes sure that everything the process wrote to stderr so far is in the
    /// capture (see [`Capture::sync`]).
    pub(super) fn sync_stderr(&self) {
        if let Some(marks) = &self.stderr_marks {
            self.capture.sync(marks, &self.stderr_finished);
        }
    }

    /// Kills the process (if it still runs) and its process group, and reaps it;
    /// waits up to [`GRACE`] for the rest of its stderr. Says how it ended.
    pub(super) fn kill(&mut self) -> String {
        if self.status.is_none() {
            self.kill_group();
            let _ = self.process.kill();
            self.status = self.process.wait().ok();
        }
        self.kill_group();
        self.stdin = None;
        if self.stderr_marks.take().is_some() {
            // Once: the end of stderr comes as soon as the group is gone.
            self.stderr_finished.wait(GRACE);
        }
        self.describe()
    }

    /// Whether the process has exited (it is then reaped, and its group killed:
    /// a process it started may hold its stdout open).
    pub(super) fn exited(&mut self) -> bool {
        if self.status.is_none() {
            if let Ok(Some(status)) = self.process.try_wait() {
                self.status = Some(status);
                self.kill_group();
            }
        }
        self.status.is_some()
    }

    /// Kills every process of the adapter's group (the adapter's id is the
    /// group's), with the `kill` command as no safe API reaches a group. Only
    /// once, while the leader runs or just after it was reaped: a group id stays
    /// taken while any member lives, so this never reaches a stranger.
    fn kill_group(&mut self) {
        if self.group_killed {
            return;
        }
        self.group_killed = true;
        let group = format!("-{}", self.process.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }

    /// Waits up to [`GRACE`] for the process to exit by itself, then kills it;
    /// waits up to [`GRACE`] for the rest of its stderr. Says how it ended.
    pub(super) fn reap(&mut self) -> String {
        self.stdin = None;
        self.stderr_marks = None;
        let deadline = Instant::now().checked_add(GRACE);
        while self.status.is_none() {
            match self.process.try_wait() {
                Ok(Some(status)) => {
                    self.status = Some(status);
                    self.kill_group();
                }
                Ok(None) if deadline.is_some_and(|d| Instant::now() < d) => {
                    thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    self.kill();
                    self.stderr_finished.wait(GRACE);
                    return format!("{} (killed after closing its output)", self.describe());
                }
            }
        }
        self.stderr_finished.wait(GRACE);
        self.describe()
    }

    /// Asks the process to stop: sends `stop`, closes stdin, then [`Self::reap`]s.
    pub(super) fn stop(&mut self, stop_request: Vec<u8>) {
        let _ = self.send(stop_request);
        let _ = self.reap();
    }

    fn describe(&self) -> String {
        match self.status {
            Some(status) => status.to_string(),
            None => "exit status unknown".into(),
        }
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // Never leave a process behind.
        let _ = self.kill();
    }
}

/// The body of the stdin writer thread.
fn write_lines(mut stdin: impl Write, lines: &Receiver<Vec<u8>>, events: &SyncSender<Event>) {
    for line in lines {
        if let Err(error) = stdin.write_all(&line).and_then(|()| stdin.flush()) {
            let _ = events.send(Event::WriteFailed(format!(
                "writing to its stdin failed: {error}"
            )));
            return;
        }
    }
    // The sender was dropped: stdin closes here, which a well-behaved adapter reads
    // as the end of the run.
}

/// The body of the stdout reader thread.
fn read_lines(stdout: impl std::io::Read, max_line_bytes: usize, events: &SyncSender<Event>) {
    let mut reader = BufReader::with_capacity(READ_BUFFER, stdout);
    loop {
        let event = match lines::read_line(&mut reader, max_line_bytes) {
            Ok(LineRead::Line(line)) => Event::Line(line),
            Ok(LineRead::TooLong) => {
                if events.send(Event::TooLong).is_err() {
                    return;
                }
                match lines::skip_line(&mut reader) {
                    Ok(_) => continue,
                    Err(error) => Event::Closed(format!("reading its stdout failed: {error}")),
                }
            }
            Ok(LineRead::Eof) => Event::Closed("its stdout ended".into()),
            Err(error) => Event::Closed(format!("reading its stdout failed: {error}")),
        };
        let last = matches!(event, Event::Closed(_));
        if events.send(event).is_err() || last {
            return;
        }
    }
}
