//! A test harness for Rust implementations: every vector case becomes one test of
//! `cargo test`, through [`libtest_mimic`].
//!
//! Your crate gets the vectors (a checkout of this repository's `spec-cases/`, as a
//! git submodule for instance), this crate as a dev-dependency, a function that
//! answers a [`Case`] with your codec, and a test target without the default harness:
//!
//! ```toml
//! [[test]]
//! name = "reshape_conformance"
//! harness = false
//! ```
//!
//! `tests/reshape_conformance.rs`:
//!
//! ```no_run
//! # use zarr_reshape_conformance::{answer::Answer, vector::Case};
//! # mod my_codec { use super::*; pub fn answer(case: &Case) -> Answer { zarr_reshape_conformance::reference::run(case) } }
//! use zarr_reshape_conformance::harness;
//!
//! fn main() -> std::process::ExitCode {
//!     harness::run("spec-cases".as_ref(), my_codec::answer)
//! }
//! ```
//!
//! Then `cargo test --test reshape_conformance` runs every case, and the usual
//! arguments work: `-- input-dims.prefix` runs the cases whose id contains that text,
//! `-- --exact shape.auto.once/two-autos` one case, `-- --skip limits.u64` leaves
//! some out, `-- --list` lists them. This crate's `tests/harness.rs` runs the
//! reference this way.
//!
//! # Trials
//!
//! - One trial per case, named by the case id; its kind is the case's level, shown
//!   as `[must]`, `[should]` or `[interpretation]` before the name (and matched by
//!   filters too: `-- '[must]'`).
//! - Every case runs, whatever its level; a failure names the level, the
//!   expectation, the answer and why they differ. Leave out levels you do not
//!   follow with `--skip '[interpretation]'`.
//! - An [`Answer::Skipped`] makes the trial *ignored* at run time, with the reason
//!   printed (`ignored (skipped: no bool arrays)`): a skip is neither a pass nor a
//!   failure, as in the runner. An [`Answer::Errored`] fails the trial, and so does
//!   a panic of the implementation.
//! - Error classes are compared when the answer names one ([`ClassCheck::WhenNamed`]);
//!   [`trials_with`] takes [`ClassCheck::Strict`] to require them.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use libtest_mimic::{Arguments, Completion, Failed, Trial};

use crate::answer::Answer;
use crate::judge::{ClassCheck, Outcome, judge};
use crate::run::expected_json;
use crate::vector::{self, Case};

/// One trial per case of every vector file below `cases_root`, each answered by
/// `implementation` and judged as the runner judges ([`ClassCheck::WhenNamed`]).
///
/// # Errors
/// When the folder cannot be listed or a vector file cannot be read, or when it
/// holds no case at all.
pub fn trials(
    cases_root: &Path,
    implementation: impl Fn(&Case) -> Answer + Send + Sync + Clone + 'static,
) -> Result<Vec<Trial>, String> {
    trials_with(cases_root, ClassCheck::WhenNamed, implementation)
}

/// As [`trials`], with the given comparison of error classes.
///
/// # Errors
/// As [`trials`].
pub fn trials_with(
    cases_root: &Path,
    classes: ClassCheck,
    implementation: impl Fn(&Case) -> Answer + Send + Sync + Clone + 'static,
) -> Result<Vec<Trial>, String> {
    let files = vector::discover(cases_root)
        .map_err(|error| format!("{}: {error}", cases_root.display()))?;
    let mut trials = Vec::new();
    for file in files {
        let cases = vector::load_file(&file).map_err(|error| error.to_string())?;
        for case in cases {
            let implementation = implementation.clone();
            let name = case.id.clone();
            let level = case.level.clone();
            trials.push(
                Trial::ignorable_test(name, move || trial(&case, classes, implementation))
                    .with_kind(level),
            );
        }
    }
    if trials.is_empty() {
        return Err(format!("no vector case below {}", cases_root.display()));
    }
    Ok(trials)
}

/// Runs one case: passes, fails with the details, or is ignored when skipped.
fn trial(
    case: &Case,
    classes: ClassCheck,
    implementation: impl Fn(&Case) -> Answer,
) -> Result<Completion, Failed> {
    let answer = implementation(case);
    match judge(case, &answer, classes) {
        Outcome::Pass => Ok(Completion::Completed),
        Outcome::Skip(reason) => Ok(Completion::ignored_with(format!("skipped: {reason}"))),
        outcome @ (Outcome::Fail(_) | Outcome::Error(_)) => {
            Err(Failed::from(failure(case, &answer, &outcome)))
        }
    }
}

/// The text of a failed trial.
fn failure(case: &Case, answer: &Answer, outcome: &Outcome) -> String {
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(text, "{} (level {})", case.id, case.level);
    let _ = writeln!(text, "  {}", case.description);
    let _ = writeln!(text, "  expected: {}", expected_json(case));
    let _ = writeln!(text, "  answered: {}", answer.to_json());
    let _ = write!(text, "  {outcome}");
    text
}

/// Builds the [`trials`] and runs them with the command line's libtest arguments;
/// the exit code to return from `main`.
///
/// A vector folder that cannot be read is reported on stderr and fails the run.
#[must_use]
pub fn run(
    cases_root: &Path,
    implementation: impl Fn(&Case) -> Answer + Send + Sync + Clone + 'static,
) -> ExitCode {
    let arguments = Arguments::from_args();
    match trials(cases_root, implementation) {
        Ok(trials) => libtest_mimic::run(&arguments, trials).exit_code(),
        Err(message) => {
            eprintln!("reshape conformance: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn case() -> Case {
        vector::parse_case(&json!({
            "id": "input-dims.prefix/gap-between-groups",
            "description": "the prefix rule rejects a gap between two groups",
            "clauses": ["input-dims.prefix"],
            "level": "must",
            "operation": "resolve",
            "configuration": {"shape": [[0], [2], -1]},
            "decoded_shape": [2, 3, 4],
            "expect": {"error": "input-dims-misaligned"}
        }))
        .unwrap()
    }

    fn outcome(answer: Answer) -> Result<Completion, Failed> {
        trial(&case(), ClassCheck::WhenNamed, move |_: &Case| {
            answer.clone()
        })
    }

    fn error(class: Option<&str>) -> Answer {
        Answer::Error {
            class: class.map(str::to_string),
            message: "no".into(),
        }
    }

    #[test]
    fn an_answer_that_meets_the_expectation_completes() {
        assert!(matches!(
            outcome(error(Some("input-dims-misaligned"))),
            Ok(Completion::Completed)
        ));
        assert!(matches!(outcome(error(None)), Ok(Completion::Completed)));
    }

    #[test]
    fn a_wrong_answer_fails_with_level_expectation_answer_and_reason() {
        let Err(failed) = outcome(Answer::Output(
            json!({"encoded_shape": [2, 4, 3]})
                .as_object()
                .unwrap()
                .clone(),
        )) else {
            panic!("a wrong answer must fail");
        };
        let text = failed.message().unwrap();
        for part in [
            "input-dims.prefix/gap-between-groups (level must)",
            r#"expected: {"error":"input-dims-misaligned"}"#,
            r#"answered: {"encoded_shape":[2,4,3]}"#,
            "fail: succeeded with",
        ] {
            assert!(text.contains(part), "{part:?} is not in:\n{text}");
        }
        assert!(outcome(error(Some("overflow"))).is_err());
    }

    #[test]
    fn a_strict_class_check_fails_an_unnamed_class() {
        let answer = error(None);
        let result = trial(&case(), ClassCheck::Strict, move |_: &Case| answer.clone());
        assert!(result.is_err());
    }

    #[test]
    fn a_skipped_answer_is_ignored_with_its_reason() {
        let result = outcome(Answer::Skipped {
            reason: "no bool arrays".into(),
        });
        match result {
            Ok(Completion::Ignored { reason }) => {
                assert_eq!(reason.as_deref(), Some("skipped: no bool arrays"));
            }
            _ => panic!("a skipped answer must be ignored"),
        }
    }

    #[test]
    fn an_errored_answer_fails() {
        let Err(failed) = outcome(Answer::Errored {
            message: "the adapter crashed".into(),
        }) else {
            panic!("an errored answer must fail");
        };
        assert!(
            failed
                .message()
                .unwrap()
                .contains("error: the adapter crashed")
        );
    }

    #[test]
    fn trials_are_named_by_case_id_with_the_level_as_kind() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
        let trials = trials(&root, crate::reference::run).unwrap();
        let file = root.join("input-dims.prefix/gap-between-groups.json");
        let id = &vector::load_file(&file).unwrap()[0].id;
        let trial = trials.iter().find(|t| t.name() == id).unwrap();
        assert_eq!(trial.kind(), "must");
        let mut names: Vec<&str> = trials.iter().map(Trial::name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), trials.len(), "case ids must be unique");
    }

    #[test]
    fn a_folder_without_vectors_is_an_error() {
        let empty = std::env::temp_dir().join("zarr-reshape-harness-no-vectors");
        std::fs::create_dir_all(&empty).unwrap();
        assert!(trials(&empty, crate::reference::run).is_err());
        assert!(trials(&empty.join("missing"), crate::reference::run).is_err());
    }
}
