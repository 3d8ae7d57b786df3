//! The chunks of a grid as a product set (per axis, the distinct edges), the rules
//! a codec chain puts on them (each an identity between monomials, see
//! [`super`]), and the search for a chunk that breaks a rule.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::One;

use super::mono::{Gap, Mono, div, gcd, mul};

/// One axis of the grid: its distinct edges, each with the index of the first
/// chunk along the axis that has it, in order of that index.
#[derive(Debug, Clone)]
struct Axis {
    edges: Vec<(u64, u64)>,
    max: u64,
    /// The gcd of the edges: `v_p(gcd) = min over the edges of v_p(edge)`.
    gcd: BigUint,
}

/// The product set of the axes' edges: every chunk shape of the grid.
#[derive(Debug, Clone)]
pub(super) struct Domain {
    axes: Vec<Axis>,
}

/// A chunk of the domain: per axis, an index into that axis's edges.
pub(super) type Point = Vec<usize>;

/// What a codec chain asks of every chunk.
#[derive(Debug, Clone)]
pub(super) enum Rule {
    /// The value is at most `u64::MAX` (a product the library checks for overflow).
    Fits(Mono),
    /// The value is an integer (a quotient the library checks for a remainder).
    Integral(Mono),
    /// The two values are equal.
    Equal(Mono, Mono),
}

impl Domain {
    /// The domain of `axes` (per axis, `(edge, first chunk index)`); `None` when an
    /// axis has no edge (the grid has no chunk).
    pub(super) fn new(axes: &[Vec<(u64, u64)>]) -> Option<Self> {
        let mut out = Vec::with_capacity(axes.len());
        for edges in axes {
            let mut first: BTreeMap<u64, u64> = BTreeMap::new();
            for (edge, index) in edges {
                let slot = first.entry(*edge).or_insert(*index);
                *slot = (*slot).min(*index);
            }
            let max = first.keys().next_back().copied()?;
            let gcd = first
                .keys()
                .fold(BigUint::ZERO, |acc, edge| gcd(&acc, &BigUint::from(*edge)));
            let mut edges: Vec<(u64, u64)> = first.into_iter().collect();
            edges.sort_by_key(|(edge, index)| (*index, *edge));
            out.push(Axis { edges, max, gcd });
        }
        Some(Self { axes: out })
    }

    /// Whether every edge is positive: the model takes no edge of 0 (a product
    /// with a zero factor is 0 whatever the others are).
    pub(super) fn positive(&self) -> bool {
        self.axes
            .iter()
            .all(|axis| axis.edges.iter().all(|(edge, _)| *edge > 0))
    }

    /// How many distinct edges axis `v` has.
    pub(super) fn len(&self, v: usize) -> usize {
        self.axes.get(v).map_or(0, |axis| axis.edges.len())
    }

    /// The shape of every chunk as monomials: a variable per axis with several
    /// edges, a constant for an axis with one.
    pub(super) fn shape(&self) -> Vec<Mono> {
        self.axes
            .iter()
            .enumerate()
            .map(|(v, axis)| match axis.edges.as_slice() {
                [(edge, _)] => Mono::constant(*edge),
                _ => Mono::var(v),
            })
            .collect()
    }

    /// The chunk of the first edges (the grid's first chunk).
    pub(super) fn base(&self) -> Point {
        vec![0; self.axes.len()]
    }

    /// How many distinct chunk shapes there are; `None` beyond `u64`.
    pub(super) fn shapes(&self) -> Option<u64> {
        self.axes.iter().try_fold(1u64, |acc, axis| {
            acc.checked_mul(u64::try_from(axis.edges.len()).ok()?)
        })
    }

    /// The edges of the axis `v`, in order of first chunk.
    pub(super) fn edges(&self, v: usize) -> impl Iterator<Item = u64> + '_ {
        self.axes
            .get(v)
            .into_iter()
            .flat_map(|axis| axis.edges.iter().map(|(edge, _)| *edge))
    }

    /// The number of axes.
    pub(super) fn rank(&self) -> usize {
        self.axes.len()
    }

    /// The chunk `point` as its shape and its grid coordinates.
    pub(super) fn chunk(&self, point: &[usize]) -> Option<(Vec<u64>, Vec<u64>)> {
        self.axes
            .iter()
            .zip(point)
            .map(|(axis, k)| axis.edges.get(*k).copied())
            .collect::<Option<Vec<(u64, u64)>>>()
            .map(|pairs| pairs.into_iter().unzip())
    }

    /// The value of axis `v` at `point`.
    pub(super) fn value(&self, point: &[usize], v: usize) -> Option<u64> {
        let k = point.get(v)?;
        self.axes.get(v)?.edges.get(*k).map(|(edge, _)| *edge)
    }

    /// Whether some chunk whose axes `fixed` fixes (`Some(edge)`) breaks `rule`: the
    /// exact criterion over the product set of the other axes' edges, each of
    /// which takes at least two values.
    fn broken_somewhere(&self, rule: &Rule, fixed: &[Option<u64>]) -> bool {
        let value = |v: usize| fixed.get(v).copied().flatten();
        match rule {
            // The largest value is at the largest edges (the constant is positive).
            Rule::Fits(mono) => {
                let rest = mono.substituted(value);
                let largest = rest.vars.iter().fold(rest.num.clone(), |acc, v| {
                    let max = self.axes.get(*v).map_or(0, |axis| axis.max);
                    mul(&acc, &BigUint::from(max))
                });
                largest > mul(&BigUint::from(u64::MAX), &rest.den)
            }
            // num / den * X is an integer for every X iff den divides X for every X
            // (lowest terms): per prime, the sum of the least valuations, i.e. den
            // divides the product of the axes' gcds.
            Rule::Integral(mono) => {
                let rest = mono.substituted(value);
                let left = rest.vars.iter().fold(rest.den.clone(), |d, v| {
                    let g = self
                        .axes
                        .get(*v)
                        .map_or_else(BigUint::one, |axis| gcd(&d, &axis.gcd));
                    div(&d, &g)
                });
                !left.is_one()
            }
            // Two monomials in lowest terms agree on a product set of at least two
            // values per variable iff they are the same monomial.
            Rule::Equal(a, b) => a.substituted(value) != b.substituted(value),
        }
    }

    /// `None` when every chunk keeps `rule`; else a chunk that breaks it, chosen
    /// axis by axis in order, each the edge of the earliest chunk that still leaves
    /// a breaking chunk.
    pub(super) fn breaking(&self, rule: &Rule) -> Result<Option<Point>, Gap> {
        let mut fixed: Vec<Option<u64>> = vec![None; self.axes.len()];
        if !self.broken_somewhere(rule, &fixed) {
            return Ok(None);
        }
        let mut point = self.base();
        let vars = match rule {
            Rule::Fits(mono) | Rule::Integral(mono) => mono.vars.clone(),
            Rule::Equal(a, b) => {
                let mut vars = a.vars.clone();
                vars.extend(&b.vars);
                vars.sort_unstable();
                vars.dedup();
                vars
            }
        };
        for v in vars {
            let edges: Vec<u64> = self.edges(v).collect();
            let mut found = false;
            for (k, edge) in edges.into_iter().enumerate() {
                if let Some(slot) = fixed.get_mut(v) {
                    *slot = Some(edge);
                }
                if self.broken_somewhere(rule, &fixed) {
                    if let Some(slot) = point.get_mut(v) {
                        *slot = k;
                    }
                    found = true;
                    break;
                }
            }
            if !found {
                return Err(Gap);
            }
        }
        Ok(Some(point))
    }
}
