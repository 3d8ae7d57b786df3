//! The [`Harness`] builder: which levels run, which failures are known, and the run.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};

use libtest_mimic::{Arguments, Conclusion, Trial};
use zarr_reshape_vectors::{Case, Level};

use crate::answer::Answer;
use crate::judge::Expected;
use crate::known::KnownFailures;
use crate::summary::Summary;
use crate::trial::{CaseTrial, Implementation};

/// The environment variable that chooses the levels that run: level names
/// separated by commas (`must,should`), or `all`. When set, it replaces the
/// levels chosen with [`Harness::levels`].
pub const LEVELS_ENV: &str = "ZARR_RESHAPE_LEVELS";

/// A conformance run of one implementation, built step by step.
///
/// ```no_run
/// use zarr_reshape_harness::{Answer, Harness, Level};
///
/// fn main() -> std::process::ExitCode {
///     Harness::new(|_case| Answer::skipped("not written yet"))
///         .levels([Level::Must, Level::Should])
///         .known_failures("tests/reshape-known-failures.toml")
///         .run()
/// }
/// ```
pub struct Harness {
    implementation: Implementation,
    levels: BTreeSet<Level>,
    known: Known,
}

enum Known {
    Nothing,
    File(PathBuf),
    Text(String),
}

/// What a run gives back when run with [`Harness::run_with`].
#[derive(Debug)]
pub struct Report {
    /// libtest's counts: passed, failed, ignored, filtered out.
    pub conclusion: Conclusion,
    /// The per-clause counts of the trials that ran.
    pub summary: Summary,
    /// The levels that ran.
    pub levels: BTreeSet<Level>,
}

impl Harness {
    /// A run of `implementation` over every case of the embedded vectors; the
    /// `must` cases run, unless [`Harness::levels`] or [`LEVELS_ENV`] say otherwise.
    pub fn new(implementation: impl Fn(&Case) -> Answer + Send + Sync + 'static) -> Self {
        Self {
            implementation: Arc::new(implementation),
            levels: BTreeSet::from([Level::Must]),
            known: Known::Nothing,
        }
    }

    /// The levels that run. The cases of other levels are ignored trials, which
    /// `cargo test -- --include-ignored` runs too.
    #[must_use]
    pub fn levels(mut self, levels: impl IntoIterator<Item = Level>) -> Self {
        self.levels = levels.into_iter().collect();
        self
    }

    /// A known-failures file, in the format of the runner's expectations files: a
    /// listed case that fails is shown as ignored with its reason; a listed case
    /// that passes fails, so that the list cannot go stale; a listed id that is no
    /// case of the suite fails the run. A relative path is taken from the current
    /// directory, which `cargo test` sets to the crate's folder.
    #[must_use]
    pub fn known_failures(mut self, path: impl Into<PathBuf>) -> Self {
        self.known = Known::File(path.into());
        self
    }

    /// As [`Harness::known_failures`], with the file's text.
    #[must_use]
    pub fn known_failures_text(mut self, text: impl Into<String>) -> Self {
        self.known = Known::Text(text.into());
        self
    }

    /// Runs with the command line's libtest arguments and prints the per-clause
    /// summary; the exit code to return from `main`. A fault before the trials
    /// (the known-failures file, [`LEVELS_ENV`]) is printed and fails the run.
    #[must_use]
    pub fn run(self) -> ExitCode {
        match self.run_with(&Arguments::from_args()) {
            Ok(report) => report.conclusion.exit_code(),
            Err(message) => {
                eprintln!("reshape conformance: {message}");
                ExitCode::FAILURE
            }
        }
    }

    /// Runs with the given libtest arguments, prints the per-clause summary
    /// (unless `--list`), and gives the counts back.
    ///
    /// # Errors
    /// When the vectors, the known-failures file or [`LEVELS_ENV`] cannot be read,
    /// or the file lists an id that is no case of the suite.
    pub fn run_with(self, arguments: &Arguments) -> Result<Report, String> {
        let levels = match std::env::var(LEVELS_ENV) {
            Ok(text) if !text.trim().is_empty() => parse_levels(&text)?,
            _ => self.levels.clone(),
        };
        let summary = Arc::new(Mutex::new(Summary::default()));
        let trials = self.trials(&levels, &summary)?;
        let conclusion = libtest_mimic::run(arguments, trials);
        let summary = summary
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if !arguments.list {
            let names: Vec<&str> = levels.iter().map(|level| level.name()).collect();
            println!(
                "\nreshape conformance by clause (levels {}; vectors {}):\n{}",
                names.join(", "),
                zarr_reshape_vectors::SUITE_VERSION,
                summary.render()
            );
        }
        Ok(Report {
            conclusion,
            summary,
            levels,
        })
    }

    /// One trial per case, named by its id, its level as kind.
    fn trials(
        &self,
        levels: &BTreeSet<Level>,
        summary: &Arc<Mutex<Summary>>,
    ) -> Result<Vec<Trial>, String> {
        let known = match &self.known {
            Known::Nothing => KnownFailures::default(),
            Known::File(path) => KnownFailures::load(path)?,
            Known::Text(text) => KnownFailures::parse(text)?,
        };
        let cases = zarr_reshape_vectors::cases().map_err(|error| error.to_string())?;
        let ids: HashSet<&str> = cases.iter().map(|case| case.id.as_str()).collect();
        let stale: Vec<&str> = known.ids().filter(|id| !ids.contains(id)).collect();
        if !stale.is_empty() {
            return Err(format!(
                "the known-failures file lists ids that are no case of the vectors {}: {}",
                zarr_reshape_vectors::SUITE_VERSION,
                stale.join(", ")
            ));
        }
        cases
            .into_iter()
            .map(|case| {
                let expected = Expected::of(&case)
                    .map_err(|error| format!("{} (case {}): {error}", case.file, case.id))?;
                let name = case.id.clone();
                let level = case.level;
                let trial = CaseTrial {
                    known: known.listed(&case.id).map(|(reason, outcome)| {
                        let reason = match known.issue_url(&case.id) {
                            Some(url) => format!("{reason}; upstream issue {url}"),
                            None => reason.to_string(),
                        };
                        (reason, outcome)
                    }),
                    case,
                    expected,
                    implementation: Arc::clone(&self.implementation),
                    summary: Arc::clone(summary),
                };
                Ok(Trial::ignorable_test(name, move || trial.run())
                    .with_kind(level.name())
                    .with_ignored_flag(!levels.contains(&level)))
            })
            .collect()
    }
}

/// The levels named by [`LEVELS_ENV`].
pub(crate) fn parse_levels(text: &str) -> Result<BTreeSet<Level>, String> {
    if text.trim() == "all" {
        return Ok(Level::ALL.into_iter().collect());
    }
    text.split(',')
        .map(|name| {
            Level::from_name(name.trim()).ok_or_else(|| {
                format!(
                    "{LEVELS_ENV}={text:?}: {:?} is no level; give must, should, interpretation \
                     (separated by commas) or all",
                    name.trim()
                )
            })
        })
        .collect()
}
