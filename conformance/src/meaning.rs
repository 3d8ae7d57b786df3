//! The meaning check: an independent, brute-force reading of what the input-dims
//! rules are for, compared with the literal rules of the reference library.
//!
//! The spec says the prefix and suffix rules "ensure that if the size of output
//! dimension i is specified by input_dims, the coordinates in the input array along
//! input_dims actually correspond to the raveled index along output dimension i".
//! The oracle checks that sentence by walking every element of the decoded array;
//! it uses nothing of the library but its types. [`compare()`] runs both over the
//! small [`Domain`] and sorts every pair into a [`Kind`] of agreement or disagreement;
//! [`render_meaning_md`] renders the findings for spec editors
//! (`spec-cases/generated/MEANING.md`) and [`generate_vectors`] samples the domain
//! into generated vector files.
//!
//! Inside, the modules depend one way: `domain`, `oracle` and `rules` (the literal
//! rules one by one) are leaves; `example` pairs the two verdicts; `kind` sorts an
//! example; `compare` runs the domain; `explanations`, `report` and `vectors` read the
//! comparison (`sampled` renders one vector case). Like `check_spec`, it uses the library `zarr_reshape` and nothing of
//! the runner; the runner's differential check uses `rules`.
//!
//! The findings are for spec editors: the expected results of the vectors come from
//! the literal MUST text, as the reference implements it, never from the oracle.

mod compare;
mod domain;
mod example;
mod explanations;
mod kind;
mod oracle;
mod report;
pub(crate) mod rules;
mod sampled;
mod vectors;

pub use compare::{Comparison, IncreasingStats, KindStats, compare};
pub use domain::{
    DECODED_EXTENTS, Domain, INPUT_DIM_LIMIT, MAX_DECODED_RANK, MAX_ENCODED_RANK, Pair, SIZES,
    configuration_text,
};
pub use example::{Example, Literal};
pub use explanations::{EXPLANATIONS, explanation};
pub use kind::{Cause, Kind, ObstacleKind};
pub use oracle::{Obstacle, OracleResult, OracleVerdict};
pub use report::render as render_meaning_md;
pub use vectors::{VectorFile, generate as generate_vectors};
