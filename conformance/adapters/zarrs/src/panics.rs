//! Panics inside zarrs become `crashed` answers: `catch_unwind` around every zarrs
//! call, and a hook that keeps the message, where it was raised, and the innermost
//! zarrs frame.

use std::backtrace::Backtrace;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};

use crate::answer::Answer;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the hook that records each panic (and still prints it to stderr, which
/// the runner keeps in the case's report).
pub fn install_hook() {
    panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .map(ToString::to_string)
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        let location = info
            .location()
            .map(|l| format!("{}:{}:{}", short_path(l.file()), l.line(), l.column()))
            .unwrap_or_default();
        let frame = zarrs_frame(&Backtrace::force_capture().to_string());
        let frame = frame
            .filter(|frame| !location.starts_with(frame.as_str()))
            .map(|frame| format!("; innermost zarrs frame {frame}"))
            .unwrap_or_default();
        let text = format!("panic: {message} (at {location}{frame})");
        eprintln!("zarrs {text}");
        LAST_PANIC.with(|last| *last.borrow_mut() = Some(text));
    }));
}

/// Runs `f`, a call into zarrs; a panic becomes a `crashed` answer whose message
/// starts with `panic:`.
pub fn guard<T>(f: impl FnOnce() -> T) -> Result<T, Answer> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let text = LAST_PANIC.with(|last| last.borrow_mut().take());
        Answer::Crashed(text.unwrap_or_else(|| "panic: (no message recorded)".to_string()))
    })
}

/// The first backtrace frame in a zarrs crate (`zarrs-0.23.14`, `zarrs_metadata_ext-…`),
/// as `crate-version/src/file.rs:line:column`.
fn zarrs_frame(backtrace: &str) -> Option<String> {
    backtrace
        .lines()
        .filter_map(|line| line.trim().strip_prefix("at "))
        .find(|path| path.contains("/zarrs-") || path.contains("/zarrs_"))
        .map(short_path)
}

/// A path without the machine's prefix: `zarrs-0.23.14/src/array.rs:1:2` for a crate
/// of the registry, `library/core/...` for the standard library.
fn short_path(path: &str) -> String {
    if let Some(at) = path.find("/registry/src/") {
        // `.../registry/src/<index>/<crate>-<version>/src/...`: keep from `<crate>`.
        let rest = path.get(at + "/registry/src/".len()..).unwrap_or(path);
        return rest
            .split_once('/')
            .map_or(rest, |(_, tail)| tail)
            .to_string();
    }
    match path.find("/library/") {
        Some(at) => path.get(at + 1..).unwrap_or(path).to_string(),
        None => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{short_path, zarrs_frame};

    #[test]
    fn paths_lose_the_machine_prefix() {
        let registry = "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/";
        let path = format!("{registry}num-integer-0.1.47/src/lib.rs:1057:1");
        assert_eq!(short_path(&path), "num-integer-0.1.47/src/lib.rs:1057:1");
        let core = "/rustc/abc/library/core/src/iter/traits/accum.rs:204:1";
        assert_eq!(
            short_path(core),
            "library/core/src/iter/traits/accum.rs:204:1"
        );
    }

    #[test]
    fn finds_the_innermost_zarrs_frame() {
        let backtrace = "  0: f\n      at /w/adapters/zarrs/src/case.rs:1:1\n  1: g\n      at \
            /r/registry/src/i/zarrs-0.23.14/src/array/codec/array_to_array/reshape.rs:80:68\n";
        assert_eq!(
            zarrs_frame(backtrace).as_deref(),
            Some("zarrs-0.23.14/src/array/codec/array_to_array/reshape.rs:80:68")
        );
    }
}
