//! Why the literal verdict and the meaning differ, kind by kind: the text
//! MEANING.md gives each kind of disagreement.

use super::kind::Kind;

/// Why the literal verdict and the meaning differ, for every kind of disagreement
/// seen: keyed by [`Kind::id`]. A kind without an entry fails the meaning test, so
/// no new kind goes unexplained into MEANING.md.
pub const EXPLANATIONS: &[(&str, &str)] = &[
    (
        "literal-rejects/input-dims.prefix/meaning-holds/unit-group",
        "every input dim of the element has extent 1, so its coordinate is 0 for every element, which is the raveled index of any coordinates over those dims: the meaning holds wherever the element stands. The prefix rule still compares the encoded elements before it (prod(B_shape[:i])) with the decoded ones before its first dim (prod(A_shape[:input_dims[0]])), and those differ when a decoded dim of extent above 1 lies before the element's dims in A_shape but after the element in B_shape, or the other way round. The rule is stricter than its stated purpose for groups of unit dims.",
    ),
    (
        "literal-rejects/input-dims.prefix/meaning-holds/unit-edge",
        "the element's first input dim has extent 1 and contributes nothing to the raveled index, so the element really begins at its first dim of extent above 1; the decoded dims before that one hold as many elements as the outputs before the element, so the coordinates agree. The prefix rule measures from input_dims[0] instead and counts too few decoded elements before the element. The rule is stricter than its stated purpose when a group starts with a unit dim.",
    ),
    (
        "literal-rejects/input-dims.suffix/meaning-holds/unit-group",
        "every input dim of the element has extent 1, so its coordinate is 0 for every element and the meaning holds wherever the element stands. The suffix rule still compares the encoded elements after it (prod(B_shape[i+1:])) with the decoded ones after its last dim (prod(A_shape[input_dims[k-1]+1:])), and those differ when a decoded dim of extent above 1 lies after the element's dims in A_shape but before the element in B_shape, or the other way round. The rule is stricter than its stated purpose for groups of unit dims.",
    ),
    (
        "literal-rejects/input-dims.suffix/meaning-holds/unit-edge",
        "the element's last input dim has extent 1 and contributes nothing to the raveled index, so the element really ends at its last dim of extent above 1, and the decoded dims after that one hold as many elements as the outputs after the element. The suffix rule measures from input_dims[k-1] instead and counts too few decoded elements after the element. The rule is stricter than its stated purpose when a group ends with a unit dim.",
    ),
    (
        "literal-rejects/input-dims.increasing/meaning-holds/unit-dims-out-of-order",
        "the flattened input dims repeat or go back only at dims of extent 1, which contribute nothing to any coordinate, so every element lands where its input dims say, and the pair breaks no other rule: the rejection is due to this rule alone. The spec gives the rule for readability (a configuration must not suggest a transpose), not for meaning, so this is the MUST text working as intended.",
    ),
    (
        "literal-rejects/input-dims.increasing/meaning-holds/unit-dims-out-of-order-and-misaligned",
        "as for the kind before, the dims go out of order only at dims of extent 1 and the coordinates agree; the pair also breaks the prefix or the suffix rule, through dims of extent 1 as in the input-dims.prefix and input-dims.suffix kinds, so the literal text would reject it even without the rule on increasing dims, which the library happens to check first.",
    ),
];

/// The explanation of a kind of disagreement, if there is one.
#[must_use]
pub fn explanation(kind: Kind) -> Option<&'static str> {
    let id = kind.id();
    EXPLANATIONS
        .iter()
        .find(|(key, _)| *key == id)
        .map(|(_, text)| *text)
}
