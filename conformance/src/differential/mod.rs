//! Differential testing: generated cases put to an implementation and to the
//! reference, disagreements shrunk and handed back as vectors (`zarr-reshape fuzz`).
//!
//! Each case is drafted by the proptest strategies of `generate`, written out as a
//! vector case (`render`), given the reference's answer as its expectation
//! (`expect`) and parsed back by the vector loader, so it is a valid vector by
//! construction. The implementation's answer is judged as `run` judges it
//! ([`crate::judge::judge`]). A disagreement (`fail` or `error`) is shrunk by
//! proptest, then by `shrink` (parts that must shrink together), towards the
//! smallest case that still disagrees **for the same reason** (same operation,
//! clause, level, expected result, outcome and kind of answer, and no clause or
//! reading the finding did not touch: `kind`), and printed as a vector file; the
//! search then goes on, skipping disagreements of a kind already found, so one bug
//! is reported once and the budget goes to finding others.

mod expect;
mod generate;
mod kind;
mod operand;
mod operations;
mod render;
mod shrink;
mod silence;
mod syntax;
mod text;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use proptest::strategy::{BoxedStrategy, Strategy as _};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

use crate::answer::Answer;
use crate::judge::{ClassCheck, Outcome, judge};
use crate::run::{Implementation, ImplementationInfo, KnownFailure, breaks_run, listed_as};
use crate::vector::Case;
use kind::Reason;

pub use operations::check_operations;
pub use silence::Silencer;

/// The cases a fuzzing run draws, as a proptest strategy: drafts of the given
/// operations (the protocol's names; none known gives resolve cases), each written
/// as a vector case with the reference's answer as its expectation and read back
/// by the vector loader. `Err` is a draft the generator could not write as a valid
/// case (a bug of ours). Shrinks as the run shrinks.
pub fn generated_cases(operations: &[String]) -> BoxedStrategy<Result<Case, String>> {
    generate::draft(operations)
        .prop_map(|draft| expect::expected_case(&render::case_json(&draft)))
        .boxed()
}

/// How many shrinking steps one disagreement may take.
pub const MAX_SHRINK_ITERS: u32 = 1024;
/// How long shrinking one disagreement may take; past it the case shrunk so far is printed.
pub const MAX_SHRINK_TIME: Duration = Duration::from_secs(10);
/// How many drafts the generator may fail to write as a valid case before the run
/// stops (each is a fault of the generator, reported in the summary).
pub const MAX_GENERATOR_FAULTS: u32 = 64;

/// The bounds of a fuzzing run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuzzOptions {
    /// The seed: the same seed, budget and implementation give the same cases.
    pub seed: u64,
    /// How many generated cases at most (shrinking steps not counted).
    pub cases: u32,
    /// How long at most; the case in flight and a shrink under way finish first.
    pub time: Option<Duration>,
    /// Only these operations (of those the implementation lists; others are
    /// dropped, so check them first with [`check_operations`]); `None` for all.
    pub operations: Option<Vec<String>>,
}

/// A disagreement, shrunk.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The shrunk case, with the reference's answer as its expectation.
    pub case: Case,
    /// What the implementation answered.
    pub answer: Answer,
    /// The judgement.
    pub outcome: Outcome,
    /// The expectations file's entry that matches it (reason and outcome), if any;
    /// it excuses the finding only for the outcome it lists ([`Self::silenced`]).
    pub known: Option<KnownFailure>,
    /// How many cases shrinking tried.
    pub shrink_steps: u64,
    /// How long shrinking took.
    pub shrink_time: Duration,
}

impl Finding {
    /// Whether it fails the run, by `run`'s rule ([`breaks_run`]): a MUST case or an
    /// answer that is no answer at all (a crash, a timeout or a protocol fault fails
    /// at every level), unless an entry lists it with the outcome it ended in.
    #[must_use]
    pub fn fatal(&self) -> bool {
        breaks_run(&self.case.level, &self.outcome, self.known.as_ref())
    }

    /// Why it is a known divergence: the reason of an entry that lists it with the
    /// outcome it ended in.
    #[must_use]
    pub fn silenced(&self) -> Option<&str> {
        self.known
            .as_ref()
            .filter(|known| listed_as(known.outcome, &self.outcome))
            .map(|known| known.reason.as_str())
    }

    /// The ready-to-commit vector file (format 1) holding the shrunk case.
    #[must_use]
    pub fn vector_file(&self) -> String {
        text::vector_file(&self.case.json)
    }

    /// Where the vector goes under a suite root: `<first clause>/<name>.json`.
    #[must_use]
    pub fn file_name(&self) -> String {
        format!("{}.json", self.case.id)
    }
}

/// How a fuzzing run went.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Who was under test.
    pub implementation: ImplementationInfo,
    /// Generated cases put to the implementation.
    pub cases: u64,
    /// Generated cases that disagreed (including repeats of a kind already found).
    pub disagreements: u64,
    /// Cases the implementation skipped.
    pub skipped: u64,
    /// Drafts the generator could not write as valid cases (a bug of ours).
    pub generator_faults: Vec<String>,
    /// The shrunk disagreements, one per kind.
    pub findings: Vec<Finding>,
    /// How long the run took.
    pub elapsed: Duration,
    /// Whether it was stopped early (Ctrl-C).
    pub interrupted: bool,
}

impl Summary {
    /// Whether the run succeeds: no fatal finding and no generator fault.
    #[must_use]
    pub fn succeeded(&self) -> bool {
        self.generator_faults.is_empty() && !self.findings.iter().any(Finding::fatal)
    }

    /// Generated cases per second.
    #[must_use]
    pub fn rate(&self) -> f64 {
        let seconds = self.elapsed.as_secs_f64();
        let cases = u32::try_from(self.cases).map_or(f64::from(u32::MAX), f64::from);
        if seconds > 0.0 { cases / seconds } else { 0.0 }
    }
}

/// Progress after each generated case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Generated cases so far.
    pub cases: u64,
    /// Findings so far.
    pub findings: usize,
    /// Whether a shrink is under way.
    pub shrinking: bool,
}

/// One case put to the implementation, judged.
enum Checked {
    Agrees,
    Skipped,
    Fault(String),
    Disagrees(Box<Disagreement>),
}

/// A case, the implementation's answer and the judgement.
struct Disagreement(Case, Answer, Outcome);

impl Disagreement {
    fn reason(&self) -> Reason {
        Reason::of(&self.0, &self.1, &self.2)
    }
}

fn check(implementation: &mut dyn Implementation, draft: &generate::Draft) -> Checked {
    let case = match expect::expected_case(&render::case_json(draft)) {
        Ok(case) => case,
        Err(fault) => return Checked::Fault(fault),
    };
    let answer = implementation.run(&case);
    let _ = implementation.take_stderr();
    match judge(&case, &answer, ClassCheck::WhenNamed) {
        Outcome::Pass => Checked::Agrees,
        Outcome::Skip(_) => Checked::Skipped,
        outcome => Checked::Disagrees(Box::new(Disagreement(case, answer, outcome))),
    }
}

struct State<'a> {
    implementation: &'a mut dyn Implementation,
    summary: Summary,
    /// The kinds found (each filed once).
    known: BTreeSet<String>,
    /// Why the finding being shrunk disagrees, and how many steps it took.
    shrinking: Option<(Reason, u64, Instant)>,
    stop: bool,
    deadline: Option<Instant>,
    budget: u64,
}

/// Runs generated cases through `implementation` until the case budget or the
/// time is spent, shrinking every new kind of disagreement; `progress` is called
/// after each generated case and stops the run when it returns `false`.
pub fn fuzz(
    implementation: &mut dyn Implementation,
    options: &FuzzOptions,
    silencer: &Silencer,
    progress: impl FnMut(Progress) -> bool,
) -> Summary {
    let progress = RefCell::new(progress);
    let started = Instant::now();
    let listed = &implementation.info().operations;
    let operations: Vec<String> = match &options.operations {
        Some(wanted) => listed
            .iter()
            .filter(|op| wanted.contains(op))
            .cloned()
            .collect(),
        None => listed.clone(),
    };
    let strategy = generate::draft(&operations);
    let summary = Summary {
        implementation: implementation.info().clone(),
        cases: 0,
        disagreements: 0,
        skipped: 0,
        generator_faults: Vec::new(),
        findings: Vec::new(),
        elapsed: Duration::ZERO,
        interrupted: false,
    };
    let state = RefCell::new(State {
        implementation,
        summary,
        known: BTreeSet::new(),
        shrinking: None,
        stop: false,
        deadline: options.time.and_then(|time| started.checked_add(time)),
        budget: u64::from(options.cases),
    });
    for round in 0_u64.. {
        let remaining = {
            let state = state.borrow();
            if state.stop || state.summary.cases >= state.budget {
                break;
            }
            state.budget.saturating_sub(state.summary.cases)
        };
        let mut runner =
            TestRunner::new_with_rng(runner_config(remaining), rng(options.seed, round));
        let result = runner.run(&strategy, |draft| step(&state, &draft, &progress));
        let mut state = state.borrow_mut();
        match result {
            Err(TestError::Fail(_, draft)) => {
                let Some((reason, steps, began)) = state.shrinking.take() else {
                    continue;
                };
                let implementation = &mut *state.implementation;
                let (draft, more) = shrink::minimize(draft, |candidate| {
                    matches!(check(implementation, candidate),
                        Checked::Disagrees(found) if reason.admits(&found.reason()))
                });
                let steps = steps.saturating_add(more);
                state.known.insert(reason.kind().to_string());
                if let Checked::Disagrees(found) = check(state.implementation, &draft) {
                    let Disagreement(case, answer, outcome) = *found;
                    let known = silencer.known(&case, &outcome);
                    state.summary.findings.push(Finding {
                        case,
                        answer,
                        outcome,
                        known,
                        shrink_steps: steps,
                        shrink_time: began.elapsed(),
                    });
                }
            }
            // The budget is spent, or the generator failed too often.
            Ok(()) | Err(TestError::Abort(_)) => state.stop = true,
        }
    }
    let mut state = state.into_inner();
    state.summary.elapsed = started.elapsed();
    state.summary
}

/// One call of the property: a generated case, or a shrinking step.
fn step(
    state: &RefCell<State<'_>>,
    draft: &generate::Draft,
    progress: &RefCell<impl FnMut(Progress) -> bool>,
) -> Result<(), TestCaseError> {
    let mut guard = state.borrow_mut();
    let state = &mut *guard;
    if state.shrinking.is_none() {
        let out_of_time = state
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline);
        if state.stop || out_of_time || state.summary.cases >= state.budget {
            state.stop = true;
            return Err(TestCaseError::reject("the budget is spent"));
        }
        state.summary.cases = state.summary.cases.saturating_add(1);
    }
    let checked = check(state.implementation, draft);
    let shrinking = state.shrinking.is_some();
    let verdict = match checked {
        Checked::Agrees => Ok(()),
        Checked::Skipped => {
            if !shrinking {
                state.summary.skipped = state.summary.skipped.saturating_add(1);
            }
            Ok(())
        }
        Checked::Fault(fault) => {
            if !shrinking {
                state.summary.generator_faults.push(fault);
            }
            Err(TestCaseError::reject("generator fault"))
        }
        Checked::Disagrees(found) => {
            let reason = found.reason();
            match &mut state.shrinking {
                Some((shrunk, _, _)) if shrunk.admits(&reason) => {
                    Err(TestCaseError::fail(reason.kind().to_string()))
                }
                Some(_) => Ok(()),
                None => {
                    state.summary.disagreements = state.summary.disagreements.saturating_add(1);
                    if state.known.contains(reason.kind()) {
                        Ok(())
                    } else {
                        let kind = reason.kind().to_string();
                        state.shrinking = Some((reason, 0, Instant::now()));
                        Err(TestCaseError::fail(kind))
                    }
                }
            }
        }
    };
    match &mut state.shrinking {
        Some((_, steps, _)) if shrinking => *steps = steps.saturating_add(1),
        _ => {}
    }
    if !shrinking {
        let keep_going = (progress.borrow_mut())(Progress {
            cases: state.summary.cases,
            findings: state.summary.findings.len(),
            shrinking: state.shrinking.is_some(),
        });
        if !keep_going {
            state.stop = true;
            state.summary.interrupted = true;
        }
    }
    verdict
}

fn runner_config(cases: u64) -> Config {
    Config {
        cases: u32::try_from(cases).unwrap_or(u32::MAX),
        failure_persistence: None,
        max_shrink_iters: MAX_SHRINK_ITERS,
        max_shrink_time: u32::try_from(MAX_SHRINK_TIME.as_millis()).unwrap_or(u32::MAX),
        max_global_rejects: MAX_GENERATOR_FAULTS,
        max_local_rejects: MAX_GENERATOR_FAULTS,
        verbose: 0,
        ..Config::default()
    }
}

/// The generator of one round: the seed and the round number, so a run is reproducible.
fn rng(seed: u64, round: u64) -> TestRng {
    let mut bytes = [0_u8; 32];
    for (slot, byte) in bytes
        .iter_mut()
        .zip(seed.to_le_bytes().into_iter().chain(round.to_le_bytes()))
    {
        *slot = byte;
    }
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}
