//! The progress bar of `run` and `fuzz`: on standard error when it is a terminal,
//! and only once the run has taken a second, so that a short run prints nothing
//! but its summary and a CI log (not a terminal) stays clean. Once shown, it ticks
//! on its own, so that a slow case still shows the clock moving.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before its progress bar shows.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

/// How often a shown bar redraws itself (its clock) without any progress.
const TICK: Duration = Duration::from_millis(250);

/// A bar of `len` steps in `template` (indicatif's), hidden for its first
/// [`SHOW_AFTER`], and for good when standard error is not a terminal.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    let shown = bar.clone();
    // A thread of its own: the run's threads are busy with cases, and one that
    // hangs must not keep the bar from showing. It ends after one check.
    let _ = std::thread::Builder::new()
        .name("progress".into())
        .spawn(move || {
            std::thread::sleep(SHOW_AFTER);
            if !shown.is_finished() {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(TICK);
            }
        });
    bar
}
