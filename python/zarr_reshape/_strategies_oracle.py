"""A codec under test against the reference, with each disagreement printed as a
suite vector. Public names are re-exported by :mod:`zarr_reshape.strategies`.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

import hypothesis
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from . import _native
from ._api import decode, encode, explain, resolve
from ._errors import ReshapeError
from ._strategies_pairs import DATA_TYPES, INVALID_CLAUSES, Bounds, InvalidPair, ValidPair, invalid_pairs, valid_pairs

_REGISTRY = frozenset(clause["id"] for clause in json.loads(_native.clauses_json())["clauses"])
# Readings an expectation rests on (clauses.json): E2 gives the prefix rule its
# slice, I-4 the classes of an input dim that names no dimension.
_READINGS = {"input-dims.prefix": ["E2"], "input-dims.range": ["I-4"], "shape.input-dims": ["I-4"]}


@runtime_checkable
class CodecLike(Protocol):
    """What :func:`assert_matches_reference` tests.

    ``resolve(configuration, decoded_shape)`` returns B_shape (any sequence of
    ints) or raises. ``configuration`` is what ``zarr.json`` holds: the
    ``configuration`` member (``{"shape": [...]}``), or, for the draws about the
    codec object (``codec.name``, ``core.must-understand``,
    ``configuration.members``), the whole codec object; both as Python objects.

    Optional, tested when present: ``encode(configuration, array)`` returning the
    encoded array, and ``decode(configuration, array, decoded_shape)`` returning
    the decoded one (anything ``numpy.asarray`` takes).

    A refusal is an exception of the ``refusals`` types given to
    :func:`assert_matches_reference`; its class is read by ``classify`` (by
    default the ``error_class`` attribute, as on :class:`zarr_reshape.ReshapeError`),
    and ``None`` means "no class named": then only refusing is compared.
    A plain function ``f(configuration, decoded_shape)`` stands for ``resolve``.
    """

    def resolve(self, configuration: Any, decoded_shape: list[int]) -> Sequence[int]: ...


class ReferenceMismatch(AssertionError):
    """The codec and the reference disagree; ``vector`` is the case that shows it."""

    def __init__(self, message: str, vector: dict[str, Any], answer: dict[str, Any]) -> None:
        super().__init__(message)
        #: The case, in the suite's vector format.
        self.vector = vector
        #: The codec's answer as a result of the conformance protocol
        #: (``{"output": {...}}`` or ``{"error": {"class", "message"}}``).
        self.answer = answer


def _default_class(error: BaseException) -> str | None:
    name = getattr(error, "error_class", None)
    return name if isinstance(name, str) and name in _native.ERROR_CLASSES else None


def _element(value: Any, dtype: np.dtype) -> Any:
    """An element as a vector writes it: floats exact, bits where a number cannot say it."""
    if dtype.kind == "b":
        return bool(value)
    if dtype.kind in "iu":
        return int(value)
    number = float(value)
    if math.isfinite(number) and not (number == 0.0 and math.copysign(1.0, number) < 0):
        return number  # a float32 widened to float64 is exact, and rounds back to itself
    bits = int(np.asarray(value, dtype=dtype).view(f"u{dtype.itemsize}"))
    return f"0x{bits:0{dtype.itemsize * 2}x}"


def _nest(flat: list[Any], shape: tuple[int, ...]) -> Any:
    if not shape:
        return flat[0]
    step = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def array_json(array: np.ndarray) -> dict[str, Any]:
    """``{"data_type", "shape", "data"}`` of the suite's array form."""
    flat = [_element(value, array.dtype) for value in np.ascontiguousarray(array).reshape(-1)]
    return {"data_type": array.dtype.name, "shape": list(array.shape), "data": _nest(flat, array.shape)}


def _clauses(configuration: Any, decoded_shape: list[int], first: str | None, operation: str) -> list[str]:
    """The clause under test first, then every clause the reference evaluated."""
    # Rules that define an extent or were broken, and the rules that compare
    # extents; not the checks that merely found nothing ("no -1").
    compared = ("shape.invariant", "input-dims.prefix", "input-dims.suffix")
    steps = [
        s.clause for s in explain(configuration, decoded_shape).steps if s.verdict != "holds" or s.clause in compared
    ]
    ordered = [first] if first else ["algorithm.ravel"] if operation != "resolve" else []
    for clause in sorted(steps, key=lambda clause: clause == "shape.element"):
        if clause not in ordered:
            ordered.append(clause)
    return [clause for clause in ordered if clause in _REGISTRY] or ["shape.element"]


def as_vector(
    operation: str,
    configuration: Any,
    decoded_shape: list[int],
    expect: dict[str, Any],
    *,
    clause: str | None = None,
    description: str,
    input_array: np.ndarray | None = None,
) -> dict[str, Any]:
    """A case in the suite's vector format (``spec-cases/vector.schema.json``),
    ready to go into ``{"format": 1, "cases": [...]}``.

    >>> from zarr_reshape.strategies import as_vector
    >>> case = as_vector("resolve", {"shape": [[0, 1], -1]}, [2, 3, 4], {"encoded_shape": [6, 4]}, description="d")
    >>> case["id"].startswith("shape.input-dims/hypothesis-"), case["clauses"][:2]
    (True, ['shape.input-dims', 'shape.auto.value'])
    """
    clauses = _clauses(configuration, decoded_shape, clause, operation)
    is_codec = isinstance(configuration, dict) and "name" in configuration
    case: dict[str, Any] = {"id": "", "description": description, "clauses": clauses}
    if clause in _READINGS:
        case["interpretations"] = _READINGS[clause]
    case.update({"level": "must", "operation": operation, ("codec" if is_codec else "configuration"): configuration})
    case["decoded_shape"] = list(decoded_shape)
    if input_array is not None:
        case["input"] = array_json(input_array)
    case["expect"] = expect
    digest = hashlib.sha256(json.dumps(case, sort_keys=True).encode()).hexdigest()[:10]
    case["id"] = f"{clauses[0]}/hypothesis-{operation}-{digest}"
    return case


def _answer(
    call: Callable[[], Any], refusals: tuple[type[BaseException], ...], classify: Callable[[BaseException], str | None]
) -> tuple[Any, str | None, bool]:
    """(result, class, refused): the codec's answer to one call."""
    try:
        return call(), None, False
    except refusals as error:
        return None, classify(error), True


def _reference(call: Callable[[], Any]) -> tuple[Any, ReshapeError | None]:
    try:
        return call(), None
    except ReshapeError as error:
        return None, error


def _same_array(mine: Any, reference: np.ndarray) -> bool:
    mine = np.asarray(mine)
    return (
        mine.shape == reference.shape
        and mine.dtype == reference.dtype
        and np.ascontiguousarray(mine).tobytes() == np.ascontiguousarray(reference).tobytes()
    )


def _check(
    case: ValidPair | InvalidPair,
    operation: str,
    array: np.ndarray | None,
    codec: Any,
    refusals: tuple[type[BaseException], ...],
    classify: Callable[[BaseException], str | None],
) -> None:
    configuration, decoded_shape = case.configuration, list(case.decoded_shape)
    if operation == "resolve":
        expected, ref_error = _reference(lambda: list(resolve(configuration, decoded_shape)))
        mine, my_class, refused = _answer(lambda: codec.resolve(configuration, list(decoded_shape)), refusals, classify)
        success: dict[str, Any] = {"encoded_shape": expected}
        agrees = refused == (ref_error is not None) and (refused or [int(x) for x in mine] == expected)
        shown: Any = None if refused else [int(x) for x in mine]
    else:
        assert array is not None
        if operation == "encode":
            expected, ref_error = _reference(lambda: encode(configuration, array))
            mine, my_class, refused = _answer(lambda: codec.encode(configuration, array.copy()), refusals, classify)
        else:
            expected, ref_error = _reference(lambda: decode(configuration, array, decoded_shape))
            mine, my_class, refused = _answer(
                lambda: codec.decode(configuration, array.copy(), list(decoded_shape)), refusals, classify
            )
        success = array_json(expected) if expected is not None else {}
        success.pop("data_type", None)
        agrees = refused == (ref_error is not None) and (refused or _same_array(mine, expected))
        shown = (
            None
            if refused
            else (array_json(np.asarray(mine)) if np.asarray(mine).dtype.name in DATA_TYPES else repr(mine))
        )
    acceptable = (
        list(case.acceptable_classes) if isinstance(case, InvalidPair) else [ref_error.error_class] if ref_error else []
    )
    if agrees and refused and my_class is not None and my_class not in acceptable:
        agrees = False
    if agrees:
        return
    expect = {"error": acceptable[0] if len(acceptable) == 1 else acceptable} if ref_error else success
    clause = case.clause if isinstance(case, InvalidPair) else None
    answered = f"refused ({my_class or 'no class named'})" if refused else f"answered {json.dumps(shown)}"
    reference = f"refuses with {acceptable}" if ref_error else f"answers {json.dumps(expect)}"
    description = f"found by zarr_reshape.strategies: the reference {reference}; a codec under test {answered}"
    vector = as_vector(
        operation, configuration, decoded_shape, expect, clause=clause, description=description, input_array=array
    )
    message = (
        f"the codec disagrees with the reference on {operation}: the reference {reference}, the codec {answered}.\n"
        "As a suite vector (a case for the `cases` list of a vector file):\n" + json.dumps(vector, indent=2)
    )
    if refused:
        answer: dict[str, Any] = {"error": {"class": my_class, "message": "refused by the codec under test"}}
    elif operation == "resolve":
        answer = {"output": {"encoded_shape": shown}}
    else:
        answer = (
            {"output": {key: value for key, value in shown.items() if key != "data_type"}}
            if isinstance(shown, dict)
            else {"crashed": {"message": shown}}
        )
    raise ReferenceMismatch(message, vector, answer)


def _as_codec(codec_like: Any) -> Any:
    if hasattr(codec_like, "resolve"):
        return codec_like
    if callable(codec_like):

        class _Adapter:
            resolve = staticmethod(codec_like)

        return _Adapter()
    raise TypeError("codec_like needs a resolve(configuration, decoded_shape) method, or is that function itself")


def assert_matches_reference(
    codec_like: CodecLike | Callable[[Any, list[int]], Sequence[int]],
    *,
    clauses: Sequence[str] | None = None,
    valid: bool = True,
    data_types: Sequence[str] = DATA_TYPES,
    max_rank: int = 4,
    max_extent: int = 5,
    refusals: tuple[type[BaseException], ...] = (ValueError, TypeError, KeyError),
    classify: Callable[[BaseException], str | None] = _default_class,
    settings: hypothesis.settings | None = None,
) -> None:
    """Runs a Hypothesis test: the codec's answers against the reference's, on
    valid pairs (when ``valid``) and on pairs breaking each of ``clauses``
    (default every clause of :data:`INVALID_CLAUSES`; ``[]`` for none).

    Accepting and refusing must agree, B_shapes be equal, arrays equal bit for
    bit with the same dtype, and a class the codec names be one a conforming
    implementation may give. Anything raised that is not a refusal propagates.
    A disagreement raises :class:`ReferenceMismatch` whose message ends with the
    shrunk counterexample as a suite vector (also in its ``vector`` attribute).
    ``settings`` default to the current Hypothesis profile without a deadline.

    >>> import zarr_reshape
    >>> from hypothesis import settings
    >>> from zarr_reshape.strategies import assert_matches_reference
    >>> quick = settings(max_examples=20, derandomize=True, database=None)
    >>> assert_matches_reference(zarr_reshape.resolve, settings=quick)
    """
    codec = _as_codec(codec_like)
    chosen = list(INVALID_CLAUSES) if clauses is None else list(clauses)
    kinds = chosen + (["valid"] if valid else [])  # the cheap single-rule draws first
    if not kinds:
        raise ValueError("nothing to test: valid=False and no clauses")
    bounds = Bounds(min_rank=1, max_rank=max_rank, max_extent=max_extent)
    operations = ["resolve"] + [name for name in ("encode", "decode") if callable(getattr(codec, name, None))]
    dtypes = [np.dtype(name) for name in data_types]
    base = settings if settings is not None else hypothesis.settings(deadline=None)
    # One Hypothesis run per kind of draw, sharing the budget: drawn from one
    # sampled_from, kinds cluster (Hypothesis mutates earlier examples), and a
    # third of unseeded runs of 100 examples never drew a prefix-only pair.
    # Each clause gets an equal share, valid pairs the rest (at least a quarter).
    share = max(1, base.max_examples * 3 // (4 * len(chosen))) if chosen else 0
    budget = {clause: share for clause in chosen}
    if valid:
        budget["valid"] = max(share, base.max_examples - share * len(chosen))

    def run(kind: str) -> None:
        source: st.SearchStrategy[ValidPair] | st.SearchStrategy[InvalidPair] = (
            valid_pairs(codec_objects=True, **bounds) if kind == "valid" else invalid_pairs(kind, **bounds)
        )

        def body(data: st.DataObject) -> None:
            case = cast("ValidPair | InvalidPair", data.draw(source, label="case"))
            allowed = operations if isinstance(case, ValidPair) else [op for op in operations if op != "decode"]
            operation = data.draw(st.sampled_from(allowed), label="operation")
            array = None
            if operation != "resolve":  # decode only for valid pairs: an invalid one has no B_shape
                shape = (
                    case.encoded_shape if isinstance(case, ValidPair) and operation == "decode" else case.decoded_shape
                )
                array = data.draw(hnp.arrays(st.sampled_from(dtypes), tuple(shape)), label="array")
            _check(case, operation, array, codec, refusals, classify)

        hypothesis.settings(base, max_examples=budget[kind])(hypothesis.given(st.data())(body))()

    for kind in kinds:
        run(kind)
