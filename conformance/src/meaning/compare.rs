//! The comparison: the literal verdict of the library against the oracle's, pair
//! by pair, grouped into kinds of agreement and disagreement.

use std::collections::BTreeMap;

use zarr_reshape::{Clause, ReshapeConfiguration, ReshapeError, ShapeElement};

use super::domain::{Domain, configuration_json};
use super::example::{Example, Literal};
use super::kind::{Kind, kind};
use super::oracle::{self, OracleVerdict};
use super::rules;

/// How often a kind occurs, and its smallest example.
#[derive(Debug, Clone)]
pub struct KindStats {
    /// Pairs of this kind.
    pub count: usize,
    /// The smallest of them.
    pub example: Example,
}

/// The whole comparison over a domain.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Configurations in the domain.
    pub configurations: usize,
    /// Decoded shapes in the domain.
    pub decoded_shapes: usize,
    /// Pairs compared.
    pub pairs: usize,
    /// Every kind that occurred.
    pub kinds: BTreeMap<Kind, KindStats>,
    /// Pairs where the library's verdict is not what the rules evaluated one by one
    /// (`rules::broken_rules`) allow: accepted although a rule breaks, or rejected
    /// with a class no broken rule has. Expected empty; the first few are kept.
    pub inconsistent: Vec<Example>,
    /// How many such pairs there are in all.
    pub inconsistent_pairs: usize,
    /// The rejections by `input-dims.increasing`, looked at closer.
    pub increasing: IncreasingStats,
}

/// The library's rejections by `input-dims.increasing` (checked at parse, before
/// everything that needs the decoded shape), and whether that rule alone rejects.
#[derive(Debug, Clone, Default)]
pub struct IncreasingStats {
    /// Pairs the library rejects with `input-dims-not-increasing`.
    pub rejected: usize,
    /// Of those, pairs that break no other rule (`rules::broken_rules`).
    pub alone: usize,
    /// Of those, pairs whose meaning holds.
    pub alone_meaningful: usize,
    /// The smallest pair that breaks that rule alone and whose meaning fails: the rule
    /// then guards the meaning, not only readability. `None` when there is none.
    pub alone_not_meaningful: Option<Example>,
}

/// The most inconsistent pairs kept for the report.
const MAX_INCONSISTENT: usize = 10;

/// Compares the library with the oracle over every pair of `domain`.
#[must_use]
pub fn compare(domain: &Domain) -> Comparison {
    let mut kinds: BTreeMap<Kind, KindStats> = BTreeMap::new();
    let mut inconsistent = Vec::new();
    let mut increasing = IncreasingStats::default();
    let mut inconsistent_pairs: usize = 0;
    let mut pairs: usize = 0;
    for pair in domain.pairs() {
        let example = judge(pair.index, pair.configuration, pair.a_shape);
        pairs = pairs.saturating_add(1);
        let broken = rules::broken_rules(pair.configuration, pair.a_shape);
        if !consistent(&example.literal, &broken) {
            inconsistent_pairs = inconsistent_pairs.saturating_add(1);
            if inconsistent.len() < MAX_INCONSISTENT {
                inconsistent.push(example.clone());
            }
        }
        if let Err(ReshapeError::InputDimsNotIncreasing { .. }) = &example.literal {
            increasing.count(&example, &broken);
        }
        let kind = kind(&example);
        match kinds.get_mut(&kind) {
            Some(stats) => {
                stats.count = stats.count.saturating_add(1);
                if example.size_key() < stats.example.size_key() {
                    stats.example = example;
                }
            }
            None => {
                kinds.insert(kind, KindStats { count: 1, example });
            }
        }
    }
    Comparison {
        configurations: domain.configurations.len(),
        decoded_shapes: domain.decoded_shapes.len(),
        pairs,
        kinds,
        inconsistent,
        inconsistent_pairs,
        increasing,
    }
}

impl IncreasingStats {
    fn count(&mut self, example: &Example, broken: &[rules::Broken]) {
        self.rejected = self.rejected.saturating_add(1);
        if broken
            .iter()
            .any(|(clause, _)| *clause != Clause::InputDimsIncreasing)
        {
            return;
        }
        self.alone = self.alone.saturating_add(1);
        if let OracleVerdict::Meaningful(_) = example.oracle.verdict {
            self.alone_meaningful = self.alone_meaningful.saturating_add(1);
        } else if self
            .alone_not_meaningful
            .as_ref()
            .is_none_or(|best| example.size_key() < best.size_key())
        {
            self.alone_not_meaningful = Some(example.clone());
        }
    }
}

/// Runs the library and the oracle on one pair.
#[must_use]
pub fn judge(index: usize, configuration: &[ShapeElement], a_shape: &[u64]) -> Example {
    Example {
        index,
        configuration: configuration.to_vec(),
        a_shape: a_shape.to_vec(),
        literal: literal(configuration, a_shape),
        oracle: oracle::judge(configuration, a_shape),
    }
}

/// The library's verdict, from the configuration's JSON as a reader would see it.
pub fn literal(configuration: &[ShapeElement], a_shape: &[u64]) -> Literal {
    ReshapeConfiguration::from_json_value(&configuration_json(configuration))
        .and_then(|parsed| parsed.resolve(a_shape))
}

/// Whether the library's verdict is one that `broken`, the rules a pair breaks
/// (`rules::broken_rules`), allow.
#[must_use]
pub fn consistent(literal: &Literal, broken: &[rules::Broken]) -> bool {
    match literal {
        Ok(_) => broken.is_empty(),
        Err(error) => broken.contains(&(error.clause(), error.class())),
    }
}
