"""The reshape codec's configuration, resolved to B_shape, written from the spec alone.

Correct by default: it follows the spec's MUST rules with the readings of
spec-cases/clauses.json (E1, E2, I-1 to I-10). Each `on("name")` is a place where
one realistic bug of bugs.py is planted; only the bug named by RESHAPE_BUG is live.
"""
import time

from bugs import on

U64_MAX = 2**64 - 1
MAX_RANK = 256  # I-10
CODEC_MEMBERS = {"name", "configuration", "must_understand"}


class Skip(Exception):
    """The adapter cannot try this case (too large for Python lists, or for a planted int[] shape)."""


class ReshapeError(Exception):
    """A deliberate rejection, carrying one of spec-cases/README.md's error classes."""

    def __init__(self, error_class, message):
        super().__init__(message)
        unclassed = on("error-class-always-null") or on("non-integer-elements-read-as-one-unclassed")
        self.error_class = None if unclassed else error_class


def hang():
    """What walking 2^60 elements looks like from outside: no answer, ever."""
    while True:
        time.sleep(1)


def limit():
    if on("limit-is-i64-max"):
        return 2**63 - 1
    return U64_MAX - 1 if on("limit-off-by-one") else U64_MAX


WRAPPING = [False]  # set per case by the overflow bugs that wrap only some products


def mul(a, b):
    product = a * b
    if on("products-wrap-at-64-bits") or WRAPPING[0]:
        return product % 2**64
    if on("products-wrap-signed-64") or on("jvm-int-value"):
        return (product + 2**63) % 2**64 - 2**63
    if on("overflow-raises-uncaught") and product > U64_MAX:
        raise OverflowError("u64 multiplication overflowed")  # escapes: a crash
    return product


def prod(values):
    if on("products-in-floating-point"):
        result = 1.0
        for value in values:
            result *= float(value)
        return int(result)
    result = 1
    for value in values:
        result = mul(result, value)
    return result


def is_integer(value):
    if on("bool-read-as-integer") and isinstance(value, bool):
        return True
    if on("integral-float-read-as-integer") and isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf")) and value == int(value)
    if on("float-truncated-to-integer") and isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if on("numeric-string-read-as-integer") and isinstance(value, str):
        return value.lstrip("-").isdigit()
    return isinstance(value, int) and not isinstance(value, bool)


def as_integer(value):
    return int(value) if is_integer(value) else value


def int_value(number):
    """Java's Number.intValue(): an integer's low 32 bits as a signed int; a double truncated, saturating."""
    if isinstance(number, float):
        if number != number:
            return 0
        return int(max(-(2**31), min(2**31 - 1, number)))  # (int) of a double: toward 0, saturating
    low = number % 2**32
    return low - 2**32 if low >= 2**31 else low


def narrowed(value):
    """A size or input dim as the integer-width bugs read it (unchanged without them)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if on("jvm-int-value") and number:
        return int_value(value)
    if on("sizes-read-as-int32") and number and not isinstance(value, float) and 0 <= value <= U64_MAX:
        return value % 2**32  # -1 and values beyond 64 bits are caught before the cast
    return value


def codec_configuration(case):
    """codec.name and configuration.members (I-5) for cases that give the whole object."""
    if "codec" not in case:
        return case.get("configuration")
    codec = case["codec"]
    if on("codec-object-unchecked-crash"):
        return codec["configuration"]  # a string or a list here is a TypeError
    if not isinstance(codec, dict):
        raise ReshapeError("malformed-configuration", "the codec is not an object")
    name = codec.get("name")
    if on("codec-name-unchecked"):
        pass
    elif on("codec-name-case-insensitive") and isinstance(name, str):
        if name.lower() != "reshape":
            raise ReshapeError("malformed-configuration", f"codec name {name!r}")
    elif name != "reshape":
        raise ReshapeError("malformed-configuration", f"codec name {name!r}")
    if "configuration" not in codec:
        if not on("codec-configuration-optional"):
            raise ReshapeError("malformed-configuration", "the codec has no configuration")
        return {"shape": [-1]}
    if not set(codec) <= CODEC_MEMBERS and not on("codec-unknown-member-accepted"):
        raise ReshapeError("malformed-configuration", f"codec members {sorted(codec)}")
    understood = codec.get("must_understand", True)
    if not isinstance(understood, bool) and not on("must-understand-not-boolean-accepted"):
        raise ReshapeError("malformed-configuration", "must_understand is not a boolean")
    return codec["configuration"]


def parse_element(element):
    """shape.element and shape.size: one element, as what it is."""
    if isinstance(element, list) and not on("nested-input-dims-crash"):
        if len(element) > MAX_RANK and not on("rank-limits-unchecked"):
            raise ReshapeError("malformed-configuration", "more than 256 input dims")
        dims = [as_integer(narrowed(d)) for d in element]
        for d in dims:
            if not is_integer(d):
                raise ReshapeError("malformed-configuration", f"input dim {d!r}")
            if d < 0 and not on("negative-input-dim-accepted"):
                raise ReshapeError("malformed-configuration", f"negative input dim {d}")
        return dims
    if isinstance(element, list):
        return [int(d) for d in element]  # int([1]) is a TypeError: a crash
    element = narrowed(element)
    if on("object-element-crash") and isinstance(element, dict):
        return element["size"]  # KeyError: a crash
    if on("non-integer-elements-read-as-one-unclassed") and not is_integer(element):
        return 1
    if on("null-element-is-auto") and element is None:
        return -1
    if not is_integer(element):
        raise ReshapeError("malformed-configuration", f"element {element!r}")
    size = as_integer(element)
    if on("any-negative-size-is-auto") and size < 0:
        return -1
    if size == 0 and not on("zero-size-accepted"):
        raise ReshapeError("invalid-size", "size 0 is not positive")
    if size < -1 and not on("negative-size-accepted"):
        raise ReshapeError("invalid-size", f"size {size} is neither -1 nor positive")
    if size > U64_MAX and not on("sizes-unbounded"):
        raise ReshapeError("overflow", f"size {size} does not fit in 64 bits")
    return size


def check_increasing(shape):
    """input-dims.increasing: the flattened input dims strictly increase."""
    if on("increasing-unchecked"):
        return
    groups = [e for e in shape if isinstance(e, list)]
    if on("increasing-checked-within-elements-only"):
        pairs = [(a, b) for g in groups for a, b in zip(g, g[1:])]
    elif on("increasing-checked-across-elements-only"):
        pairs = [(a[-1], b[0]) for a, b in zip([g for g in groups if g], [g for g in groups if g][1:])]
    else:
        dims = [d for g in groups for d in g]
        pairs = list(zip(dims, dims[1:]))
    strict = not on("increasing-allows-repeats")
    if any(a >= b if strict else a > b for a, b in pairs):
        raise ReshapeError("input-dims-not-increasing", "the input dims do not increase")


def parse(case):
    """What the JSON alone decides (I-8): element kinds and sizes, -1 once, order."""
    config = codec_configuration(case)
    if on("configuration-unchecked-crash"):
        shape = config["shape"]  # None, a string or a list here is a TypeError
    elif not isinstance(config, dict):
        raise ReshapeError("malformed-configuration", "the configuration is not an object")
    elif on("shape-missing-or-null-as-empty") and config.get("shape") is None:
        shape = []
    elif "shape" not in config:
        raise ReshapeError("malformed-configuration", "the configuration has no shape")
    else:
        shape = config["shape"]
    if set(config) - {"shape"} and not on("configuration-unknown-member-accepted"):
        raise ReshapeError("malformed-configuration", f"configuration members {sorted(config)}")
    if not isinstance(shape, list):
        if not on("shape-type-unchecked-crash"):
            raise ReshapeError("malformed-configuration", "shape is not an array")
        shape = list(shape)  # 3 is a TypeError; "ab" becomes ["a", "b"]
    if len(shape) > MAX_RANK and not on("rank-limits-unchecked"):
        raise ReshapeError("malformed-configuration", "shape has more than 256 elements")
    if on("shape-rank-limit-off-by-one") and len(shape) >= MAX_RANK:
        raise ReshapeError("malformed-configuration", "shape has 256 elements or more")
    shape = [parse_element(e) for e in shape]
    autos = sum(1 for e in shape if e == -1)
    if autos > 1 and not (on("repeated-auto-unchecked") or on("repeated-auto-last-wins")):
        error_class = "malformed-configuration" if on("repeated-auto-wrong-class") else "repeated-auto"
        raise ReshapeError(error_class, "-1 occurs more than once")
    check_increasing(shape)
    return shape
