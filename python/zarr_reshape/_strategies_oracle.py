"""A codec under test against the reference, with each disagreement printed as a
suite vector. Public names are re-exported by :mod:`zarr_reshape.strategies`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

import hypothesis
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from . import _native
from ._api import decode, encode, resolve, resolve_chain
from ._errors import ReshapeError
from ._strategies_chains import Chain, chains
from ._strategies_pairs import (
    DATA_TYPES,
    INVALID_CLAUSES,
    Bounds,
    InvalidPair,
    ValidPair,
    invalid_pairs,
    valid_pairs,
)
from ._strategies_plans import combinations_of
from ._strategies_vectors import ReferenceMismatch, array_json, as_vector, chain_json, chain_vector, vector_text


@runtime_checkable
class CodecLike(Protocol):
    """What :func:`assert_matches_reference` tests.

    ``resolve(configuration, decoded_shape)`` returns B_shape (any sequence of
    ints) or raises. ``configuration`` is what ``zarr.json`` holds: the
    ``configuration`` member (``{"shape": [...]}``), or, for the draws about the
    codec object (``codec.name``, ``core.must-understand``,
    ``configuration.members``), the whole codec object; both as Python objects.

    Optional, tested when present: ``encode(configuration, array)`` returning the
    encoded array, ``decode(configuration, array, decoded_shape)`` returning
    the decoded one (anything ``numpy.asarray`` takes), and
    ``resolve_chain(codecs, chunk_shape, data_type)`` returning the shapes each
    array -> array codec of a ``codecs`` list hands on, as a
    :class:`zarr_reshape.ChainShapes` or as the ``resolve-chain`` answer
    ``{"encoded_shapes": [...], "inner": {...}}`` (``inner`` for sharding).

    A refusal is an exception of the ``refusals`` types given to
    :func:`assert_matches_reference`; its class is read by ``classify`` (by
    default the ``error_class`` attribute, as on :class:`zarr_reshape.ReshapeError`),
    and ``None`` means "no class named": then only refusing is compared.
    A plain function ``f(configuration, decoded_shape)`` stands for ``resolve``.
    """

    def resolve(self, configuration: Any, decoded_shape: list[int]) -> Sequence[int]: ...


def _default_class(error: BaseException) -> str | None:
    name = getattr(error, "error_class", None)
    return name if isinstance(name, str) and name in _native.ERROR_CLASSES else None


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
    reference = f"refuses ({' or '.join(acceptable)})" if ref_error else f"answers {json.dumps(expect)}"
    description = f"found by zarr_reshape.strategies: the reference {reference}; a codec under test {answered}"
    vector = as_vector(
        operation, configuration, decoded_shape, expect, clause=clause, description=description, input_array=array
    )
    message = (
        f"the codec disagrees with the reference on {operation}: the reference {reference}, the codec {answered}.\n"
        "As a suite vector (a case for the `cases` list of a vector file):\n" + vector_text(vector)
    )
    if refused:
        answer: dict[str, Any] = {"error": {"class": my_class, "message": "refused by the codec under test"}}
    elif operation == "resolve":
        answer = {"encoded_shape": shown}
    else:
        answer = (
            {key: value for key, value in shown.items() if key != "data_type"}
            if isinstance(shown, dict)
            else {"crashed": {"message": shown}}
        )
    raise ReferenceMismatch(message, vector, answer)


def _chain_answer(value: Any) -> dict[str, Any]:
    """A codec's chain answer (a ChainShapes or the protocol's dict) as the protocol's dict."""
    encoded = value["encoded_shapes"] if isinstance(value, dict) else value.encoded_shapes
    inner = value.get("inner") if isinstance(value, dict) else getattr(value, "inner", None)
    answer: dict[str, Any] = {"encoded_shapes": [[int(extent) for extent in shape] for shape in encoded]}
    if inner is not None:
        answer["inner"] = _chain_answer(inner)
    return answer


def _chain_matches(mine: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Equal where the expectation speaks: a member it does not name is ignored."""
    if mine["encoded_shapes"] != expected["encoded_shapes"]:
        return False
    return "inner" not in expected or ("inner" in mine and _chain_matches(mine["inner"], expected["inner"]))


def _check_chain(
    chain: Chain,
    codec: Any,
    refusals: tuple[type[BaseException], ...],
    classify: Callable[[BaseException], str | None],
) -> None:
    reference, ref_error = _reference(lambda: resolve_chain(chain.codecs, chain.chunk_shape, chain.data_type))
    codecs = json.loads(json.dumps(chain.codecs))  # the codec may not change the case
    mine, my_class, refused = _answer(
        lambda: codec.resolve_chain(codecs, list(chain.chunk_shape), chain.data_type), refusals, classify
    )
    acceptable = list(chain.acceptable_classes) or ([ref_error.error_class] if ref_error else [])
    shown = None if refused else _chain_answer(mine)
    if ref_error is None:
        expected: dict[str, Any] = chain_json(reference)
        agrees = shown is not None and _chain_matches(shown, expected)
    else:
        expected = {"error": acceptable[0] if len(acceptable) == 1 else acceptable}
        agrees = refused and (my_class is None or my_class in acceptable)
    if agrees:
        return
    answered = f"refused ({my_class or 'no class named'})" if refused else f"answered {json.dumps(shown)}"
    description = f"found by zarr_reshape.strategies: the reference answers {json.dumps(expected)}; a codec {answered}"
    vector = chain_vector(
        chain.codecs,
        chain.chunk_shape,
        chain.data_type,
        expected,
        clause=chain.clause or "algorithm.rank",
        description=description,
    )
    message = (
        f"the codec disagrees with the reference on resolve-chain: the reference answers {json.dumps(expected)}, "
        f"the codec {answered}.\nAs a suite vector (a case for the `cases` list of a vector file):\n"
        + vector_text(vector)
    )
    answer: dict[str, Any] = {"error": {"class": my_class, "message": "refused by the codec under test"}}
    raise ReferenceMismatch(message, vector, answer if refused or shown is None else shown)


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
    with_chains: bool = True,
) -> None:
    """Runs a Hypothesis test: the codec's answers against the reference's, on
    valid pairs (when ``valid``) and on pairs breaking each of ``clauses``
    (default every clause of :data:`INVALID_CLAUSES`; ``[]`` for none), and,
    when the codec has ``resolve_chain`` and ``with_chains``, on :func:`chains`.

    Accepting and refusing must agree, B_shapes be equal, arrays equal bit for
    bit with the same dtype, and a class the codec names be one a conforming
    implementation may give. Anything raised that is not a refusal propagates.
    A disagreement raises :class:`ReferenceMismatch` whose message ends with the
    shrunk counterexample as a suite vector (also in its ``vector`` attribute).
    ``settings`` default to the current Hypothesis profile without a deadline.

    >>> import zarr_reshape
    >>> from hypothesis import settings
    >>> from zarr_reshape.strategies import assert_matches_reference
    >>> quick = settings(max_examples=20, derandomize=True, database=None, deadline=None)
    >>> assert_matches_reference(zarr_reshape.resolve, settings=quick)
    """
    codec = _as_codec(codec_like)
    chosen = list(INVALID_CLAUSES) if clauses is None else list(clauses)
    chained = with_chains and callable(getattr(codec, "resolve_chain", None))
    bounds = Bounds(min_rank=1, max_rank=max_rank, max_extent=max_extent)
    combinations = [f"valid:{name}" for name in combinations_of(None, bounds)] if valid else []
    kinds = chosen + combinations + (["chains"] if chained else [])  # single-rule draws first
    if not kinds:
        raise ValueError("nothing to test: valid=False and no clauses")
    operations = ["resolve"] + [name for name in ("encode", "decode") if callable(getattr(codec, name, None))]
    dtypes = [np.dtype(name) for name in data_types]
    base = settings if settings is not None else hypothesis.settings(deadline=None)
    # One Hypothesis run per kind of draw, sharing the budget: drawn from one
    # sampled_from, kinds cluster (Hypothesis mutates earlier examples), and a
    # third of unseeded runs of 100 examples never drew a prefix-only pair.
    # Each clause gets an equal share, valid pairs the rest (at least a quarter),
    # split again by combination: 35 free valid draws held no -1 beside a group.
    share = max(1, base.max_examples * 3 // (4 * len(chosen))) if chosen else 0
    budget = {clause: share for clause in chosen}
    rest = max(share, base.max_examples - share * len(chosen), 2)
    if combinations:
        valid_budget = rest - rest // 2 if chained else rest
        each = max(1, valid_budget // len(combinations))
        budget.update({kind: each for kind in combinations})
        budget["valid:any"] = max(each, valid_budget - each * (len(combinations) - 1))  # the rest, free
    if chained:
        budget["chains"] = rest // 2 if valid else rest

    def run_chains() -> None:
        def body(chain: Chain) -> None:
            _check_chain(chain, codec, refusals, classify)

        drawn = chains(valid=None, max_rank=min(max_rank, 3), max_extent=min(max_extent, 4))
        hypothesis.settings(base, max_examples=budget["chains"])(hypothesis.given(drawn)(body))()

    def run(kind: str) -> None:
        if kind == "chains":
            return run_chains()
        source: st.SearchStrategy[ValidPair] | st.SearchStrategy[InvalidPair] = (
            valid_pairs(kind.removeprefix("valid:"), codec_objects=True, **bounds)
            if kind.startswith("valid:")
            else invalid_pairs(kind, **bounds)
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
