"""The bugs an implementer makes, by name: RESHAPE_BUG=<name> plants one in the adapter.

Each is a one-line description of what the implementation does wrong. They come
from the spec's MUST rules (one skipped at a time), the arithmetic and JSON typing
traps of spec-cases/README.md, and what real implementations do (zarrs checks
positions instead of products, lets the last -1 win and panics on overflow; Java
implementations use signed 64-bit `long`, and zarr-java reads sizes with intValue(); numpy-style code reads a[-1]).
"""
import os

BUGS = {
    # codec object and configuration (codec.name, configuration.members, I-5)
    "codec-name-unchecked": "the codec's name member is never compared with 'reshape'",
    "codec-name-case-insensitive": "the codec name is compared case-insensitively ('Reshape' accepted)",
    "codec-object-unchecked-crash": "the codec object is indexed without a type check (crashes on a string or null codec)",
    "codec-configuration-optional": "a codec without configuration defaults to shape [-1]",
    "codec-unknown-member-accepted": "unknown members of the codec object are ignored",
    "must-understand-not-boolean-accepted": "must_understand is accepted whatever its JSON type",
    "configuration-unknown-member-accepted": "unknown members of the configuration are ignored",
    "configuration-unchecked-crash": "the configuration is indexed without a type check (crashes on null, a string or an array)",
    "shape-missing-or-null-as-empty": "a missing or null shape reads as [] (a 0-dimensional encoded array)",
    "shape-type-unchecked-crash": "shape is converted with list() without a type check (crashes on a number, splits a string)",
    # element kinds and JSON typing (shape.element, I-6)
    "bool-read-as-integer": "true and false are read as the integers 1 and 0 (Python's bool is an int)",
    "integral-float-read-as-integer": "2.0 and 1e1 are read as integers (a JSON library that yields doubles)",
    "float-truncated-to-integer": "any finite float is truncated to an integer (2.5 reads as 2)",
    "numeric-string-read-as-integer": "a string of digits ('2', '-1') is read as an integer",
    "null-element-is-auto": "a null element reads as -1 (a null-means-unknown default)",
    "object-element-crash": "an object element is indexed for 'size' (KeyError: crash)",
    "nested-input-dims-crash": "input dims are converted with int() without a type check (crashes on a nested list)",
    "non-integer-elements-read-as-one-unclassed": "an element of another JSON type ({}, null, 'x', 2.5) reads as size 1, and errors name no class",
    "huge-input-dim-crash": "an input dim beyond 2^64-1 fails its conversion to an index uncaught (crash)",
    "negative-input-dim-accepted": "a negative input dim is accepted and indexes from the end (a[-1])",
    # sizes (shape.size)
    "zero-size-accepted": "a size of 0 is accepted as a size",
    "negative-size-accepted": "a size below -1 is accepted as a size",
    "any-negative-size-is-auto": "every negative size means 'infer' (-2 reads as -1)",
    "sizes-unbounded": "no 64-bit limit at all: sizes, extents and products beyond 2^64-1 are answered",
    # -1 (shape.auto.once, shape.auto.value)
    "repeated-auto-unchecked": "-1 may occur several times: the first is solved, the others read as 1",
    "repeated-auto-last-wins": "-1 may occur several times: the last is solved, the others read as 1 (as zarrs' resolver would)",
    "repeated-auto-wrong-class": "-1 twice is rejected as malformed-configuration instead of repeated-auto",
    "auto-remainder-unchecked": "-1 is solved by floor division, without checking the remainder (nor the invariant)",
    "auto-rounds-up": "-1 is solved by ceiling division, without checking the remainder",
    "auto-zero-divides": "-1 beside a zero extent divides by zero (uncaught ZeroDivisionError: crash)",
    "auto-ignores-input-dims-elements": "-1 is solved from the explicit sizes only, forgetting the input_dims elements",
    "auto-by-linear-search": "-1 is found by counting up candidates (hangs on large element counts)",
    # the invariant (shape.invariant)
    "invariant-unchecked": "prod(B_shape) == prod(A_shape) is never checked",
    "invariant-unchecked-with-input-dims": "the invariant is skipped when any element gives input_dims",
    # input dims order (input-dims.increasing)
    "increasing-unchecked": "the flattened input dims are never checked for increasing order",
    "increasing-allows-repeats": "input dims need only be non-decreasing (a repeated dim is accepted)",
    "increasing-checked-within-elements-only": "order is checked inside each element, not across elements",
    "increasing-checked-across-elements-only": "order is checked between elements, not inside one",
    # input dims range (input-dims.range, I-4)
    "input-dim-range-unchecked-crash": "an input dim beyond the rank indexes A_shape unchecked (IndexError: crash)",
    "input-dim-equal-to-rank-is-extent-1": "an input dim equal to the rank reads as extent 1 (off-by-one range check)",
    "input-dim-out-of-range-is-extent-1": "any input dim beyond the rank reads as extent 1 (a .get(d, 1) default)",
    "out-of-range-wrong-class": "an input dim beyond the rank is reported as malformed-configuration",
    # prefix and suffix rules (input-dims.prefix, input-dims.suffix, E2, I-1)
    "prefix-and-suffix-unchecked": "neither the prefix nor the suffix rule is checked (as zarrs' codec does)",
    "prefix-rule-skipped": "the prefix rule is never checked",
    "suffix-rule-skipped": "the suffix rule is never checked",
    "prefix-literal-extent": "the prefix rule read literally (E2 not applied): prod(B[:i]) == A[dims[0]]",
    "prefix-slice-off-by-one": "the prefix rule compares with prod(A[:dims[0]+1])",
    "suffix-slice-off-by-one": "the suffix rule compares with prod(A[dims[-1]:])",
    "suffix-from-first-dim": "the suffix rule uses the first input dim: prod(A[dims[0]+1:])",
    "alignment-checked-for-first-element-only": "the prefix and suffix rules are checked for the first input_dims element only",
    "alignment-before-auto": "the prefix and suffix rules are checked before -1 is solved (with -1 still in B_shape)",
    "zarrs-positional-check": "zarrs' metadata check instead of the products: each size or -1 stands for one input dim",
    "consecutive-dims-instead-of-products": "each element's input dims must be consecutive, instead of the prefix and suffix products",
    "empty-input-dims-crash": "an empty input_dims [] reaches dims[0] in the prefix rule (IndexError: crash)",
    "empty-input-dims-rejected": "an empty input_dims [] is rejected",
    "empty-shape-rejected": "an empty shape [] is rejected",
    "misaligned-wrong-class": "a prefix or suffix failure is reported as element-count-mismatch",
    # 64-bit arithmetic (limits.u64, I-7)
    "products-wrap-at-64-bits": "products are computed modulo 2^64 (unchecked u64 multiplication)",
    "products-wrap-signed-64": "products wrap as signed 64-bit integers (Java long, C int64_t)",
    "products-in-floating-point": "products are computed in doubles (exact only up to 2^53)",
    "overflow-raises-uncaught": "a checked multiplication raises past the error channel (a panic on overflow: crash)",
    "overflow-checked-on-total-only": "only prod(A_shape) is checked for 64 bits; extents and rule products wrap",
    "overflow-ignored-when-count-is-zero": "no overflow check when the element count is 0 (extents and rule products wrap)",
    "overflow-wrong-class": "overflow is reported as element-count-mismatch",
    "limit-is-i64-max": "the limit is 2^63-1 (signed 64-bit) instead of 2^64-1",
    "limit-off-by-one": "the limit rejects 2^64-1 itself",
    # integer width: 32-bit readers (shape.size, shape.input-dims, limits.u64)
    "sizes-read-as-int32": "sizes and input dims are narrowed to their low 32 bits (a uint32_t or `as u32` cast): 2^32 + 6 reads as 6",
    "jvm-int-value": "sizes and input dims read with Java's Number.intValue() (low 32 bits, signed; fractions truncated), products in a wrapping long, extents of 2^31 or more skipped (int[] chunk shapes, as zarr-java)",
    # limits on ranks (limits.rank, I-10) and odd shapes (I-2, I-3, I-9)
    "rank-limits-unchecked": "no bound on the shape length, input dims per element or decoded rank",
    "shape-rank-limit-off-by-one": "a shape of exactly 256 elements is rejected",
    "zero-extent-rejected": "a decoded shape with an extent 0 is rejected",
    "error-class-always-null": "every rejection names no class (class null)",
    # encode and decode (algorithm.ravel, algorithm.rank)
    "encode-path-skips-rules": "encode computes B_shape itself, checking only element kinds (no -1, order, invariant or alignment rules)",
    "decode-path-skips-rules": "decode computes B_shape itself, checking only element kinds",
    "encode-fortran-order": "encode reads the decoded array in Fortran order",
    "decode-fortran-order": "decode reads the encoded array in Fortran order",
    "decode-returns-encoded-shape": "decode returns the encoded array unchanged",
    "encode-input-shape-unchecked": "encode checks only the input's element count, not its shape",
    "decode-input-shape-unchecked": "decode checks only the input's element count, not its shape",
    "input-shape-mismatch-wrong-class": "an input array of the wrong shape is reported as element-count-mismatch",
    "zero-d-result-as-list": "a 0-dimensional result is written as a one-element list",
    "bool-data-as-integers": "bool elements are copied as 0 and 1",
    "integers-through-float": "integer elements pass through a double (exact only up to 2^53)",
    "uint64-wrapped-to-int64": "uint64 elements at or above 2^63 are copied as negative int64",
    "negative-zero-lost": "-0.0 is copied as 0.0",
    "special-floats-as-null": "NaN and the infinities are copied as null",
    # partial decoding (map-index, map-region)
    "map-index-path-skips-rules": "map-index computes B_shape itself, checking only element kinds",
    "map-region-path-skips-rules": "map-region computes B_shape itself, checking only element kinds",
    "map-index-fortran-order": "map-index ravels the index in Fortran order",
    "map-index-bounds-unchecked": "map-index does not check the index against the decoded shape",
    "map-index-negative-wraps": "a negative index counts from the end (Python indexing)",
    "map-index-upper-bound-off-by-one": "an index equal to the extent is accepted",
    "index-rank-unchecked": "an index or box of the wrong rank is zipped with the shape, not rejected",
    "map-region-stop-inclusive": "the box's stop is read as inclusive",
    "map-region-stop-off-by-one": "the box stops one before stop",
    "map-region-start-stop-swapped": "a box with start after stop is read with the two swapped",
    "map-region-bounds-unchecked": "the box is not checked against the decoded shape",
    "map-region-fortran-order": "the box is listed in Fortran order",
    "map-region-empty-box-rejected": "an empty box (start == stop somewhere) is rejected",
    "map-region-walks-whole-array": "map-region walks every element of the decoded array to find the box (hangs on large shapes)",
    # a whole codec chain (resolve-chain): what real implementations get wrong where reshape meets the rest
    "chain-following-codec-sees-decoded-shape": "the codecs after reshape are handed the shape reshape was handed, not its encoded shape",
    "chain-reshape-sees-chunk-shape": "reshape is resolved for the chunk shape even after a transpose has permuted it",
    "chain-transpose-after-reshape-refused": "a transpose after a reshape is refused as unsupported",
    "chain-transpose-checked-against-array-rank": "transpose's order is checked against the chunk's (array's) rank, not the rank it is handed (zarr-python)",
    "chain-sharding-inner-sees-shard-shape": "sharding_indexed's inner codecs are resolved for the shard shape, not the inner chunk shape",
    "chain-sharding-chunk-shape-unchecked": "sharding_indexed's inner chunk shape is not checked against the shard shape it is handed",
    # a whole chunk grid (resolve-grid): which chunks are checked, and with what shape
    "grid-first-chunk-only": "resolve-grid checks chunk (0, ..., 0) only and answers its encoded shapes as the extents",
    "grid-regular-part-only": "resolve-grid checks only a rectilinear axis' regular edges (an integer step, a run-length pair of count 2 or more), not its single explicit edges",
    "grid-overflow-chunks-checked": "resolve-grid checks every declared chunk, also the overflow chunks wholly beyond the array (I-11's other reading)",
    "grid-chunk-shape-clipped": "resolve-grid hands a chunk crossing the array's end its clipped extent instead of its declared edge",
}

ACTIVE = os.environ.get("RESHAPE_BUG", "")


# The bugs a default run may let through, each with what allows it: a documented
# other reading of CONFORMANCE.md (levels follow from the readings, so such a bug
# fails only interpretation cases, or none where the vectors accept both answers),
# or the protocol itself. run_all.py fails --check when a bug not caught at must
# has no entry here, or an entry here is caught at must.
PERMITTED_BY = {
    "must-understand-not-boolean-accepted": "I-5 (a must_understand that is not a boolean read as true)",
    "integral-float-read-as-integer": "I-6 (numbers read as doubles; the vectors accept both answers)",
    "sizes-unbounded": "I-7 (exact integers; the vectors accept both answers)",
    "empty-input-dims-rejected": "I-1 (an empty input_dims refused)",
    "empty-shape-rejected": "I-2 (an empty shape refused)",
    "rank-limits-unchecked": "I-10 (no limit on ranks)",
    "zero-extent-rejected": "I-9 (a zero extent refused)",
    "grid-overflow-chunks-checked": "I-11 (every declared chunk is checked, overflow chunks wholly beyond the array too)",
    "error-class-always-null": "the protocol: an implementation may name no class (--strict-classes catches it)",
}

def on(name):
    """True when `name` is the bug planted in this run."""
    assert name in BUGS, f"unregistered bug {name}"  # a typo in a hook must not pass silently
    return ACTIVE == name
