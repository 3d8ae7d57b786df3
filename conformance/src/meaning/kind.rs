//! The kinds of agreement and disagreement between the literal verdict and the
//! oracle's, and the checked causes of each disagreement.

use zarr_reshape::{Clause, ReshapeError, ShapeElement};

use super::example::Example;
use super::oracle::{Obstacle, OracleVerdict};
use super::rules;

/// What kind of (dis)agreement a pair shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Both accept, with the same `B_shape`.
    BothAccept,
    /// Both reject: the literal by `clause`, the oracle for `obstacle`.
    BothReject {
        /// The clause of the library's error.
        clause: Clause,
        /// Why the oracle finds no meaningful `B_shape`.
        obstacle: ObstacleKind,
    },
    /// The literal rejects by `clause` although the meaning holds.
    LiteralRejects {
        /// The clause of the library's error.
        clause: Clause,
        /// Why the rule and the meaning part ways.
        cause: Cause,
    },
    /// The literal accepts although the meaning fails.
    LiteralAccepts {
        /// Why the oracle finds no meaningful `B_shape`.
        obstacle: ObstacleKind,
    },
    /// Both accept, with different shapes.
    DifferentShapes,
}

/// [`Obstacle`] without its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ObstacleKind {
    /// More than one -1.
    RepeatedAuto,
    /// An input dim out of range.
    DimOutOfRange,
    /// No `B_shape` with the right element count.
    NoElementCount,
    /// The element count fits but the coordinates do not.
    CoordinatesDiffer,
    /// A product beyond 64 bits.
    Overflow,
}

/// Why a literal rule rejects a pair whose meaning holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// The input-dims element the rule rejects has extent 1: its coordinate is always
    /// 0, which is the raveled index of any coordinates over dims of extent 1.
    UnitGroup,
    /// The element has an extent above 1, but the input dim the rule measures from
    /// (the first for the prefix rule, the last for the suffix rule) has extent 1.
    UnitEdge,
    /// The dims go out of order only at dims of extent 1, so the coordinates agree,
    /// and the pair breaks no other rule: the readability rule alone rejects it.
    ReadabilityOnly,
    /// As [`Cause::ReadabilityOnly`], but the pair also breaks the prefix or the
    /// suffix rule (through dims of extent 1, as the causes above).
    AlsoMisaligned,
    /// Any other rule (none is expected: a new kind fails the test until explained).
    Other,
}

impl Kind {
    /// Whether the two verdicts agree.
    #[must_use]
    pub fn agrees(self) -> bool {
        matches!(self, Self::BothAccept | Self::BothReject { .. })
    }

    /// A stable id, used in MEANING.md and as the key of the explanations.
    #[must_use]
    pub fn id(self) -> String {
        match self {
            Self::BothAccept => "agree/accepted".into(),
            Self::BothReject { clause, obstacle } => {
                format!("agree/rejected/{clause}/{}", obstacle.id())
            }
            Self::LiteralRejects { clause, cause } => {
                format!("literal-rejects/{clause}/meaning-holds/{}", cause.id())
            }
            Self::LiteralAccepts { obstacle } => {
                format!("literal-accepts/meaning-fails/{}", obstacle.id())
            }
            Self::DifferentShapes => "both-accept/different-shapes".into(),
        }
    }
}

impl ObstacleKind {
    /// A stable id.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::RepeatedAuto => "repeated-auto",
            Self::DimOutOfRange => "dim-out-of-range",
            Self::NoElementCount => "no-element-count",
            Self::CoordinatesDiffer => "coordinates-differ",
            Self::Overflow => "overflow",
        }
    }
}

impl Cause {
    /// A stable id.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::UnitGroup => "unit-group",
            Self::UnitEdge => "unit-edge",
            Self::ReadabilityOnly => "unit-dims-out-of-order",
            Self::AlsoMisaligned => "unit-dims-out-of-order-and-misaligned",
            Self::Other => "other",
        }
    }
}

impl From<&Obstacle> for ObstacleKind {
    fn from(obstacle: &Obstacle) -> Self {
        match obstacle {
            Obstacle::RepeatedAuto => Self::RepeatedAuto,
            Obstacle::DimOutOfRange { .. } => Self::DimOutOfRange,
            Obstacle::NoElementCount => Self::NoElementCount,
            Obstacle::CoordinatesDiffer { .. } => Self::CoordinatesDiffer,
            Obstacle::Overflow => Self::Overflow,
        }
    }
}

/// Classifies a judged pair.
#[must_use]
pub fn kind(example: &Example) -> Kind {
    match (&example.literal, &example.oracle.verdict) {
        (Ok(literal), OracleVerdict::Meaningful(meant)) if literal == meant => Kind::BothAccept,
        (Ok(_), OracleVerdict::Meaningful(_)) => Kind::DifferentShapes,
        (Ok(_), OracleVerdict::NotMeaningful(obstacle)) => Kind::LiteralAccepts {
            obstacle: obstacle.into(),
        },
        (Err(error), OracleVerdict::NotMeaningful(obstacle)) => Kind::BothReject {
            clause: error.clause(),
            obstacle: obstacle.into(),
        },
        (Err(error), OracleVerdict::Meaningful(b_shape)) => Kind::LiteralRejects {
            clause: error.clause(),
            cause: cause(error, &example.configuration, &example.a_shape, b_shape),
        },
    }
}

/// Why the library's `error` rejects a pair whose meaning holds with `b_shape`.
/// Each cause is checked, not assumed: a pair that fits none is [`Cause::Other`].
fn cause(
    error: &ReshapeError,
    configuration: &[ShapeElement],
    a_shape: &[u64],
    b_shape: &[u64],
) -> Cause {
    let extent = |dim: &u64| {
        usize::try_from(*dim)
            .ok()
            .and_then(|dim| a_shape.get(dim))
            .copied()
    };
    let (element, edge) = match error {
        ReshapeError::PrefixMisaligned { element, .. } => (*element, Edge::First),
        ReshapeError::SuffixMisaligned { element, .. } => (*element, Edge::Last),
        ReshapeError::InputDimsNotIncreasing { .. } => {
            // Only dims of extent 1 may be out of order.
            let wide: Vec<u64> = configuration
                .iter()
                .filter_map(|item| match item {
                    ShapeElement::InputDims(dims) => Some(dims.iter()),
                    _ => None,
                })
                .flatten()
                .filter(|dim| extent(dim) != Some(1))
                .copied()
                .collect();
            if !wide.windows(2).all(|pair| pair.first() < pair.last()) {
                return Cause::Other;
            }
            let others: Vec<Clause> = rules::broken_rules(configuration, a_shape)
                .into_iter()
                .map(|(clause, _)| clause)
                .filter(|clause| *clause != Clause::InputDimsIncreasing)
                .collect();
            let alignment = [Clause::InputDimsPrefix, Clause::InputDimsSuffix];
            return match others.as_slice() {
                [] => Cause::ReadabilityOnly,
                _ if others.iter().all(|clause| alignment.contains(clause)) => {
                    Cause::AlsoMisaligned
                }
                _ => Cause::Other,
            };
        }
        _ => return Cause::Other,
    };
    let Some(ShapeElement::InputDims(dims)) = configuration.get(element) else {
        return Cause::Other;
    };
    let edge_dim = match edge {
        Edge::First => dims.first(),
        Edge::Last => dims.last(),
    };
    if b_shape.get(element) == Some(&1) {
        Cause::UnitGroup
    } else if edge_dim.and_then(extent) == Some(1) {
        Cause::UnitEdge
    } else {
        Cause::Other
    }
}

/// Which end of its input dims a rule measures from.
enum Edge {
    First,
    Last,
}
