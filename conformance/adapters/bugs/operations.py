"""encode, decode, map-index and map-region: ravel(B) == ravel(A), in C order (algorithm.ravel)."""
import itertools

from bugs import on
from codec import ReshapeError, Skip, hang, parse
from resolve import LINEAR_SEARCH_LIMIT, decoded_shape, resolve_shape

MAX_ELEMENTS = 10**6  # beyond this an answer is `skipped`: this adapter holds Python lists
MAX_BOX = 2**20


def shapes(case, operation):
    """(B_shape, A_shape), through the rules unless the bug skips them on this path."""
    if not on(f"{operation}-path-skips-rules"):
        return resolve_shape(case)
    shape, a_shape = parse_loosely(case), decoded_shape(case)
    b_shape = [count(a_shape[d] for d in e) if isinstance(e, list) else e for e in shape]
    known = count(b for b in b_shape if b != -1)
    return [count(a_shape) // known if b == -1 else b for b in b_shape], a_shape


def parse_loosely(case):
    """The element kinds only: what a path that trusts resolve to have run checks."""
    try:
        return parse(case)
    except ReshapeError as error:
        if error.error_class == "malformed-configuration":
            raise
        config = case.get("configuration") or case["codec"]["configuration"]
        return config["shape"]


def count(values):
    result = 1
    for value in values:
        result *= value
    return result


def flatten(data, shape, order="C"):
    """The elements of a nested list of `shape`, in C order; shape-mismatch if it is not one."""
    if not shape:
        if isinstance(data, list):
            raise ReshapeError("shape-mismatch", "a 0-dimensional array holds a list")
        return [data]
    if not isinstance(data, list) or len(data) != shape[0]:
        raise ReshapeError("shape-mismatch", f"data does not have extent {shape[0]}")
    flat = [e for row in data for e in flatten(row, shape[1:])]
    if order == "F":  # the same elements, read with the first index varying fastest
        indices = itertools.product(*[range(n) for n in reversed(shape)])
        return [flat[ravel(i[::-1], shape)] for i in indices]
    return flat


def nest(flat, shape):
    if not shape:
        return [flat[0]] if on("zero-d-result-as-list") else flat[0]
    step = count(shape[1:])
    return [nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def convert(value, data_type):
    if on("bool-data-as-integers") and isinstance(value, bool):
        return int(value)
    if on("integers-through-float") and isinstance(value, int) and not isinstance(value, bool):
        return int(float(value))
    if on("uint64-wrapped-to-int64") and data_type == "uint64" and isinstance(value, int):
        return value - 2**64 if value >= 2**63 else value
    if on("negative-zero-lost") and isinstance(value, float) and value == 0:
        return 0.0
    if on("special-floats-as-null") and value in ("NaN", "Infinity", "-Infinity"):
        return None
    return value


def transfer(case, source_shape, target_shape, fortran):
    array = case.get("input")
    if not isinstance(array, dict) or not isinstance(array.get("shape"), list):
        raise ReshapeError("shape-mismatch", "input is not an array")
    given = array["shape"]
    if count(given) > MAX_ELEMENTS or count(target_shape) > MAX_ELEMENTS:
        raise Skip("more elements than this adapter holds in lists")
    check = count(given) == count(source_shape) if on(f"{case['operation']}-input-shape-unchecked") else given == source_shape
    if not check:
        error_class = "element-count-mismatch" if on("input-shape-mismatch-wrong-class") else "shape-mismatch"
        raise ReshapeError(error_class, f"input shape {given}, expected {source_shape}")
    flat = flatten(array.get("data"), given, "F" if fortran else "C")
    flat = [convert(v, array.get("data_type")) for v in flat]
    return {"shape": target_shape, "data": nest(flat, target_shape)}


def encode(case):
    b_shape, a_shape = shapes(case, "encode")
    return transfer(case, a_shape, b_shape, on("encode-fortran-order"))


def decode(case):
    b_shape, a_shape = shapes(case, "decode")
    if on("decode-returns-encoded-shape"):
        return transfer(case, b_shape, b_shape, False)
    return transfer(case, b_shape, a_shape, on("decode-fortran-order"))


def ravel(index, shape, fortran=False):
    linear = 0
    pairs = list(zip(index, shape))
    for i, n in reversed(pairs) if fortran else pairs:
        linear = linear * n + i
    return linear


def unravel(linear, shape):
    index = []
    for n in reversed(shape):
        index.append(linear % n if n else 0)
        linear = linear // n if n else 0
    return index[::-1]


def integers(values, rank, what):
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ReshapeError("shape-mismatch", f"{what} is not a list of integers")
    if len(values) != rank and not on("index-rank-unchecked"):
        raise ReshapeError("shape-mismatch", f"{what} has rank {len(values)}, not {rank}")
    return values


def map_index(case):
    b_shape, a_shape = shapes(case, "map-index")
    index = integers(case.get("decoded_index"), len(a_shape), "decoded_index")
    if on("map-index-negative-wraps"):
        index = [i + n if i < 0 else i for i, n in zip(index, a_shape)]
    upper = (lambda i, n: i > n) if on("map-index-upper-bound-off-by-one") else (lambda i, n: i >= n)
    if not on("map-index-bounds-unchecked") and any(i < 0 or upper(i, n) for i, n in zip(index, a_shape)):
        raise ReshapeError("out-of-bounds", f"index {index} outside {a_shape}")
    linear = ravel(index, a_shape, on("map-index-fortran-order"))
    return {"encoded_index": unravel(linear, b_shape)}


def map_region(case):
    b_shape, a_shape = shapes(case, "map-region")
    region = case.get("decoded_region")
    if not isinstance(region, dict):
        raise ReshapeError("shape-mismatch", "decoded_region is not an object")
    start = integers(region.get("start"), len(a_shape), "start")
    stop = integers(region.get("stop"), len(a_shape), "stop")
    if len(start) != len(stop):
        raise ReshapeError("shape-mismatch", "start and stop differ in length")
    if on("map-region-start-stop-swapped"):
        start, stop = [min(a, b) for a, b in zip(start, stop)], [max(a, b) for a, b in zip(start, stop)]
    if on("map-region-stop-inclusive"):
        stop = [s + 1 for s in stop]
    if on("map-region-stop-off-by-one"):
        stop = [max(a, s - 1) for a, s in zip(start, stop)]
    if not on("map-region-bounds-unchecked"):
        if any(a < 0 or a > s or s > n for a, s, n in zip(start, stop, a_shape)):
            raise ReshapeError("out-of-bounds", f"box {start}..{stop} outside {a_shape}")
    if on("map-region-empty-box-rejected") and any(a == s for a, s in zip(start, stop)):
        raise ReshapeError("out-of-bounds", "an empty box")
    if on("map-region-walks-whole-array"):
        if count(a_shape) > LINEAR_SEARCH_LIMIT:
            hang()
        ranges = [range(n) for n in a_shape]
        box = [i for i in itertools.product(*ranges) if all(a <= x < s for x, a, s in zip(i, start, stop))]
    else:
        if count(max(s - a, 0) for a, s in zip(start, stop)) > MAX_BOX:
            raise Skip("a box of more elements than this adapter lists")
        ranges = [range(a, s) for a, s in zip(start, stop)]
        if on("map-region-fortran-order"):
            box = [i[::-1] for i in itertools.product(*ranges[::-1])]
        else:
            box = list(itertools.product(*ranges))
    return {"encoded_indices": [unravel(ravel(i, a_shape), b_shape) for i in box]}
