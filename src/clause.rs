//! The clause registry: one ID per normative statement, mirrored from
//! `spec-cases/clauses.json` (a test keeps the two in step).

use std::fmt;

/// How binding a clause is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// The spec says MUST.
    Must,
    /// The spec says should.
    Should,
    /// Our reading where the spec is silent or unclear (see CONFORMANCE.md).
    Interpretation,
}

impl Level {
    /// The level's name as written in `clauses.json`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Must => "must",
            Self::Should => "should",
            Self::Interpretation => "interpretation",
        }
    }
}

macro_rules! clauses {
    ($($(#[doc = $doc:literal])* $variant:ident = $id:literal, $level:ident;)*) => {
        /// A normative statement of the reshape spec, or one of our readings of it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Clause {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Clause {
            /// Every clause, in the order of the spec.
            pub const ALL: &'static [Clause] = &[$(Clause::$variant,)*];

            /// The stable ID, as used in vectors and reports.
            #[must_use]
            pub fn id(self) -> &'static str {
                match self { $(Self::$variant => $id,)* }
            }

            /// How binding the clause is.
            #[must_use]
            pub fn level(self) -> Level {
                match self { $(Self::$variant => Level::$level,)* }
            }
        }
    };
}

clauses! {
    /// The codec object's name is `reshape`.
    CodecName = "codec.name", Must;
    /// The configuration holds `shape` and nothing else (reading I-5).
    ConfigurationMembers = "configuration.members", Interpretation;
    /// Each element is a positive integer, an array of input dims, or -1.
    ShapeElement = "shape.element", Must;
    /// A positive integer gives `B_shape[i] := size`.
    ShapeSize = "shape.size", Must;
    /// An array gives `B_shape[i] := prod(A_shape[d] for d in input_dims)` (erratum E1).
    ShapeInputDims = "shape.input-dims", Must;
    /// -1 occurs at most once.
    ShapeAutoOnce = "shape.auto.once", Must;
    /// -1 takes the extent that makes the element counts equal.
    ShapeAutoValue = "shape.auto.value", Must;
    /// `prod(B_shape) == prod(A_shape)` or an error.
    ShapeInvariant = "shape.invariant", Must;
    /// The flattened input dims strictly increase.
    InputDimsIncreasing = "input-dims.increasing", Must;
    /// `prod(B_shape[:i]) == prod(A_shape[:input_dims[0]])` (erratum E2).
    InputDimsPrefix = "input-dims.prefix", Must;
    /// `prod(B_shape[i+1:]) == prod(A_shape[input_dims[k-1]+1:])`.
    InputDimsSuffix = "input-dims.suffix", Must;
    /// Every input dim is below the decoded rank (reading I-4).
    InputDimsRange = "input-dims.range", Interpretation;
    /// Sizes and products fit in 64 bits or are an error (reading I-7).
    LimitsU64 = "limits.u64", Interpretation;
    /// Ranks and lengths beyond the resource limits are an error (reading I-10).
    LimitsRank = "limits.rank", Interpretation;
    /// `rank(B) == len(shape)`.
    AlgorithmRank = "algorithm.rank", Must;
    /// `ravel(B) == ravel(A)`.
    AlgorithmRavel = "algorithm.ravel", Must;
    /// A view rather than a copy where the layout allows.
    AlgorithmView = "algorithm.view", Should;
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
