//! What a bug does, from the listed outcome and what the smallest listed case
//! expects.

use zarr_reshape_harness::ListedOutcome;

use std::collections::BTreeSet;

use super::Entry;
use crate::vector::Expectation;

/// The effect of a bug.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effect {
    /// Listed as `fail`, where every acceptable result is an error: the
    /// implementation answered data (or, if it names error classes, another class).
    WrongAcceptance,
    /// Listed as `fail`, where data is expected and the implementation answered
    /// other data; or where an error or exact data would do and it answered neither.
    WrongData,
    /// Listed as `fail`, where data is expected and the implementation refused.
    WrongRefusal,
    /// Listed as `fail`, where data is expected, and the index does not say whether
    /// the implementation refused or answered other data.
    WrongAnswer,
    /// Listed as `crash`: a panic or an uncaught exception.
    Crash,
    /// Listed as `error`: no usable answer (the adapter's `errored`).
    Fault,
}

impl Effect {
    /// Every effect, in the order the page groups them.
    pub const ALL: [Self; 6] = [
        Self::WrongAcceptance,
        Self::WrongData,
        Self::WrongRefusal,
        Self::WrongAnswer,
        Self::Crash,
        Self::Fault,
    ];

    /// Its name on the page.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::WrongAcceptance => "wrong acceptance",
            Self::WrongData => "wrong data",
            Self::WrongRefusal => "wrong refusal",
            Self::WrongAnswer => "wrong answer",
            Self::Crash => "crash",
            Self::Fault => "fault",
        }
    }

    /// What it means, for the page's legend.
    #[must_use]
    pub fn meaning(self) -> &'static str {
        match self {
            Self::WrongAcceptance => {
                "the case expects an error and the implementation answered data: \
                 a configuration, input or array the spec forbids is used"
            }
            Self::WrongData => {
                "the case expects data (or an error or exact data) and the implementation \
                 answered other data"
            }
            Self::WrongRefusal => {
                "the case expects data and the implementation refused: a valid \
                 configuration or array cannot be used"
            }
            Self::WrongAnswer => {
                "the case expects data and the implementation answered otherwise; \
                 conformance/findings.toml does not say whether with other data or a refusal"
            }
            Self::Crash => "a panic or an uncaught exception, where an error or data is expected",
            Self::Fault => "no usable answer at all (listed as error)",
        }
    }

    /// The effect of `entry`, whose smallest case expects `expect`; `answered`
    /// says, for cases that expect data only, whether the implementation refused
    /// or answered other data.
    #[must_use]
    pub fn of(entry: &Entry, expect: &Expectation, answered: &Answered) -> Self {
        match entry.outcome {
            ListedOutcome::Crash => Self::Crash,
            ListedOutcome::Error => Self::Fault,
            ListedOutcome::Fail => match kinds(expect) {
                (true, false) => Self::WrongAcceptance,
                (true, true) => Self::WrongData,
                (false, _) => answered.of(&entry.ids).unwrap_or(Self::WrongAnswer),
            },
        }
    }
}

/// Whether `expect` accepts an error, and whether it accepts data.
#[must_use]
pub fn kinds(expect: &Expectation) -> (bool, bool) {
    match expect {
        Expectation::Error(_) => (true, false),
        Expectation::Output(_) => (false, true),
        Expectation::AnyOf(options) => options
            .iter()
            .map(kinds)
            .fold((false, false), |(error, data), (e, d)| {
                (error || e, data || d)
            }),
    }
}

/// What the implementation answered, by listed id, where its case expects data.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answered {
    /// Ids it refuses.
    pub refused: BTreeSet<String>,
    /// Ids it answers with other data.
    pub wrong_data: BTreeSet<String>,
}

impl Answered {
    /// The effect of an entry that lists `ids`, when the index names one of them.
    #[must_use]
    pub fn of(&self, ids: &[String]) -> Option<Effect> {
        if ids.iter().any(|id| self.refused.contains(id)) {
            Some(Effect::WrongRefusal)
        } else if ids.iter().any(|id| self.wrong_data.contains(id)) {
            Some(Effect::WrongData)
        } else {
            None
        }
    }
}
