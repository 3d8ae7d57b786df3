"""B_shape from a parsed shape and A_shape: the spec's formulas and MUST rules (I-8 order)."""
from bugs import on
from codec import MAX_RANK, WRAPPING, ReshapeError, Skip, hang, limit, parse, prod

LINEAR_SEARCH_LIMIT = 10**7  # a -1 found by counting up would take longer than any timeout


def decoded_shape(case):
    a_shape = case.get("decoded_shape")
    if not isinstance(a_shape, list) or not all(isinstance(a, int) and a >= 0 for a in a_shape):
        raise ReshapeError("shape-mismatch", "decoded_shape is not a list of extents")
    if len(a_shape) > MAX_RANK and not on("rank-limits-unchecked"):
        raise ReshapeError("shape-mismatch", "the decoded rank exceeds 256")
    skip_beyond_int(a_shape, "decoded")
    return a_shape


def skip_beyond_int(shape, which):
    """zarr-java holds chunk shapes in int[]: a case with an extent of 2^31 or more is skipped."""
    if on("jvm-int-value") and any(extent >= 2**31 for extent in shape):
        raise Skip(f"the {which} shape has an extent of 2^31 or more, which an int[] cannot hold")


def extent(a_shape, d):
    """A_shape[d] (shape.input-dims), with the range rule (I-4)."""
    if on("huge-input-dim-crash") and d > 2**64 - 1:
        raise OverflowError(f"input dim {d} does not fit in usize")  # a try_from().unwrap(): a crash
    if on("input-dim-equal-to-rank-is-extent-1") and d == len(a_shape):
        return 1
    if on("input-dim-out-of-range-is-extent-1") and d >= len(a_shape):
        return 1
    if on("input-dim-range-unchecked-crash") or (on("negative-input-dim-accepted") and d < 0):
        return a_shape[d]  # IndexError beyond the rank; Python's a[-1] for a negative dim
    if d >= len(a_shape):
        error_class = "malformed-configuration" if on("out-of-range-wrong-class") else "input-dim-out-of-range"
        raise ReshapeError(error_class, f"input dim {d} on rank {len(a_shape)}")
    return a_shape[d]


def check_fits(values, what):
    """limits.u64 (I-7): sizes, extents and products never wrap, round or crash."""
    if on("sizes-unbounded"):
        return
    if any(v > limit() for v in values):
        error_class = "element-count-mismatch" if on("overflow-wrong-class") else "overflow"
        raise ReshapeError(error_class, f"{what} does not fit in 64 bits")


def solve_auto(b_shape, total):
    """shape.auto.value: the one -1 that makes prod(B_shape) == prod(A_shape) (I-9)."""
    autos = [i for i, b in enumerate(b_shape) if b == -1]
    if not autos:
        return b_shape
    known = prod(b for b in b_shape if b != -1)
    if on("auto-ignores-input-dims-elements"):
        known = prod(b for b, kind in zip(b_shape, KINDS) if b != -1 and kind != "dims")
    if on("auto-by-linear-search"):
        if total // max(known, 1) > LINEAR_SEARCH_LIMIT:
            hang()
    if known == 0 and not on("auto-zero-divides"):
        raise ReshapeError("element-count-mismatch", "-1 is undetermined: the other extents multiply to 0")
    if on("auto-remainder-unchecked"):
        value = total // known
    elif on("auto-rounds-up"):
        value = -(-total // known)
    else:
        if total % known:  # ZeroDivisionError under auto-zero-divides: a crash
            raise ReshapeError("element-count-mismatch", f"no -1 gives {known} * -1 == {total}")
        value = total // known
    filled = list(b_shape)
    if on("repeated-auto-last-wins"):
        for i in autos:
            filled[i] = 1
        filled[autos[-1]] = value
        return filled
    filled[autos[0]] = value
    for i in autos[1:]:  # only under repeated-auto-unchecked: the others read as 1
        filled[i] = 1
    return filled


KINDS = []  # the kind of each element of the shape being resolved: "size", "auto" or "dims"


def check_alignment(shape, b_shape, a_shape):
    """input-dims.prefix (E2) and input-dims.suffix, for every element with k > 0 dims (I-1)."""
    if on("prefix-and-suffix-unchecked"):
        return
    groups = [(i, dims) for i, dims in enumerate(shape) if isinstance(dims, list)]
    if on("alignment-checked-for-first-element-only"):
        groups = groups[:1]
    for i, dims in groups:
        if not dims and not on("empty-input-dims-crash"):
            continue
        first, last = dims[0], dims[-1]  # IndexError for [] under empty-input-dims-crash
        before, after = prod(b_shape[:i]), prod(b_shape[i + 1 :])
        if on("prefix-literal-extent"):
            a_before = a_shape[first]
        elif on("prefix-slice-off-by-one"):
            a_before = prod(a_shape[: first + 1])
        else:
            a_before = prod(a_shape[:first])
        if on("suffix-slice-off-by-one"):
            a_after = prod(a_shape[last:])
        elif on("suffix-from-first-dim"):
            a_after = prod(a_shape[first + 1 :])
        else:
            a_after = prod(a_shape[last + 1 :])
        if not WRAPPING[0]:
            check_fits([before, after, a_before, a_after], "a prefix or suffix product")
        error_class = "element-count-mismatch" if on("misaligned-wrong-class") else "input-dims-misaligned"
        if before != a_before and not on("prefix-rule-skipped"):
            raise ReshapeError(error_class, f"prefix rule fails at element {i}")
        if after != a_after and not on("suffix-rule-skipped"):
            raise ReshapeError(error_class, f"suffix rule fails at element {i}")


def check_positions(shape):
    """zarrs' metadata check instead of the products: a size or -1 stands for one input dim."""
    position = 0
    for element in shape:
        if isinstance(element, list):
            for d in element:
                if d < position:
                    raise ReshapeError("input-dims-not-increasing", f"input dim {d} < {position}")
                position = d + 1
        else:
            position += 1


def check_contiguous(shape):
    """A stricter folk rule instead of the products: each element's dims are consecutive."""
    for element in shape:
        if isinstance(element, list) and element:
            if element != list(range(element[0], element[0] + len(element))):
                raise ReshapeError("input-dims-misaligned", f"input dims {element} are not consecutive")


def resolve_shape(case):
    shape, a_shape = parse(case), decoded_shape(case)
    KINDS[:] = ["dims" if isinstance(e, list) else "auto" if e == -1 else "size" for e in shape]
    exact_total = 1
    for a in a_shape:
        exact_total *= a
    zero_count = on("overflow-ignored-when-count-is-zero") and exact_total == 0
    WRAPPING[0] = on("overflow-checked-on-total-only") or zero_count  # the unchecked products wrap
    b_shape = [prod(extent(a_shape, d) for d in e) if isinstance(e, list) else e for e in shape]
    total = prod(a_shape)
    if on("zero-extent-rejected") and 0 in a_shape:
        raise ReshapeError("shape-mismatch", "a decoded extent is 0")
    if on("overflow-checked-on-total-only"):
        check_fits([exact_total], "prod(A_shape)")
    elif not zero_count:
        check_fits(b_shape + [total], "an extent or prod(A_shape)")
    if on("alignment-before-auto"):
        check_alignment(shape, b_shape, a_shape)
    b_shape = solve_auto(b_shape, total)
    trusts_auto = (on("auto-remainder-unchecked") or on("auto-rounds-up")) and "auto" in KINDS
    skipped = on("invariant-unchecked") or (on("invariant-unchecked-with-input-dims") and "dims" in KINDS)
    if not (skipped or trusts_auto):  # the -1 bugs trust their division to satisfy the invariant
        if prod(b_shape) != total:
            raise ReshapeError("element-count-mismatch", f"prod({b_shape}) != prod({a_shape})")
    if on("zarrs-positional-check"):
        check_positions(shape)
    elif on("consecutive-dims-instead-of-products"):
        check_contiguous(shape)
    elif not on("alignment-before-auto"):
        check_alignment(shape, b_shape, a_shape)
    if on("empty-shape-rejected") and not shape:
        raise ReshapeError("element-count-mismatch", "an empty shape")
    if on("empty-input-dims-rejected") and [] in shape:
        raise ReshapeError("malformed-configuration", "an empty input dims array")
    skip_beyond_int(b_shape, "encoded")
    return b_shape, a_shape


def resolve(case):
    b_shape, _ = resolve_shape(case)
    return {"encoded_shape": b_shape}
