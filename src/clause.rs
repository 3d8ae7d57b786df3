//! The clause registry: one ID per normative statement, with the spec's sentence
//! for each MUST and should clause, mirrored from `spec-cases/clauses.json` (a
//! test keeps the two in step). Uses nothing else of the crate.

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
    ($($(#[doc = $doc:literal])* $variant:ident = $id:literal, $level:ident $(, $text:literal)?;)*) => {
        /// A normative statement of the reshape spec (or, for `core.must-understand`,
        /// of the Zarr v3 core specification), or one of our readings of it.
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

            /// The spec's sentence for a MUST or should clause, quoted (an
            /// ellipsis marks what is left out); `None` for our interpretations.
            #[must_use]
            pub fn text(self) -> Option<&'static str> {
                match self { $(Self::$variant => None $(.or(Some($text)))?,)* }
            }
        }
    };
}

clauses! {
    /// The codec object's name is `reshape`.
    CodecName = "codec.name", Must,
        "The value of the name member in the codec object MUST be reshape.";
    /// The configuration holds `shape` and nothing else (reading I-5).
    ConfigurationMembers = "configuration.members", Interpretation;
    /// Each element is a positive integer, an array of input dims, or -1.
    ShapeElement = "shape.element", Must,
        "Each element shape[i] must be one of:";
    /// A positive integer gives `B_shape[i] := size`.
    ShapeSize = "shape.size", Must,
        "a positive integer size, specifying that B_shape[i] := size.";
    /// An array gives `B_shape[i] := prod(A_shape[d] for d in input_dims)` (erratum E1).
    ShapeInputDims = "shape.input-dims", Must,
        "an array of integers input_dims, specifying that: B_shape[i] := prod(A_shape[input_dims]]";
    /// -1 occurs at most once.
    ShapeAutoOnce = "shape.auto.once", Must,
        "the special value -1, which must occur at most once, ...";
    /// -1 takes the extent that makes the element counts equal.
    ShapeAutoValue = "shape.auto.value", Must,
        "... specifying that B_shape[i] is determined automatically in order to satisfy the invariant that prod(B_shape) == prod(A_shape).";
    /// `prod(B_shape) == prod(A_shape)` or an error.
    ShapeInvariant = "shape.invariant", Must,
        "Implementations MUST return an error if the invariant prod(B_shape) == prod(A_shape) cannot be satisfied.";
    /// The flattened input dims strictly increase.
    InputDimsIncreasing = "input-dims.increasing", Must,
        "the flattened list of input dimensions, over all elements of shape, must be in strictly monotonically increasing order";
    /// `prod(B_shape[:i]) == prod(A_shape[:input_dims[0]])` (erratum E2).
    InputDimsPrefix = "input-dims.prefix", Must,
        "If input_dims specifies k > 0 input dimensions: prod(B_shape[:i]) == prod(A_shape[input_dims[0]]) and ...";
    /// `prod(B_shape[i+1:]) == prod(A_shape[input_dims[k-1]+1:])`.
    InputDimsSuffix = "input-dims.suffix", Must,
        "If input_dims specifies k > 0 input dimensions: ... and prod(B_shape[i+1:]) == prod(A_shape[input_dims[k-1]+1:]).";
    /// Every input dim is below the decoded rank (reading I-4).
    InputDimsRange = "input-dims.range", Interpretation;
    /// Sizes and products fit in 64 bits or are an error (reading I-7).
    LimitsU64 = "limits.u64", Interpretation;
    /// Ranks and lengths beyond the resource limits are an error (reading I-10).
    LimitsRank = "limits.rank", Interpretation;
    /// `rank(B) == len(shape)`.
    AlgorithmRank = "algorithm.rank", Must,
        "The dimensionality of the output array B is equal to the length of the shape configuration parameter, ...";
    /// `ravel(B) == ravel(A)`.
    AlgorithmRavel = "algorithm.ravel", Must,
        "As this codec does NOT alter the lexicographical order of elements, the contents of the output array B are related to the contents of the input array A by: ravel(B) == ravel(A).";
    /// A view rather than a copy where the layout allows.
    AlgorithmView = "algorithm.view", Should,
        "Implementations should, when possible, construct a virtual view rather than copy the array.";
    /// A metadata field the implementation does not recognize, not set to
    /// `"must_understand": false`, is an error (the Zarr v3 core specification,
    /// not the reshape text: the one clause of another document).
    CoreMustUnderstand = "core.must-understand", Must,
        "An implementation MUST fail to open Zarr groups or arrays if any metadata fields are present which (a) the implementation does not recognize and (b) are not explicitly set to \"must_understand\": false.";
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
