"""Valid and invalid (configuration, decoded shape) pairs, built constructively.

A pair starts from a *plan* (:mod:`._strategies_plans`): every plan resolves,
so a valid pair needs no filtering; an invalid pair edits a plan so that
exactly one rule breaks. Public names are re-exported by
:mod:`zarr_reshape.strategies`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from hypothesis import assume
from hypothesis import strategies as st

from . import _native
from ._api import broken_rules
from ._strategies_plans import (
    VALID_COMBINATIONS,
    Bounds,
    ValidPair,
    _Plan,
    _plans,
    _Segment,
    combinations_of,
    plans_of,
)

__all__ = [
    "ALSO_ACCEPTED",
    "DATA_TYPES",
    "INVALID_CLAUSES",
    "MUST_CLAUSES",
    "VALID_COMBINATIONS",
    "Bounds",
    "InvalidPair",
    "ValidPair",
    "invalid_pairs",
    "valid_pairs",
    "valid_pairs_for",
]

#: Core data types of the suite (Zarr v3 names; NumPy's dtype names too).
DATA_TYPES: tuple[str, ...] = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
)


def _must_clauses() -> tuple[str, ...]:
    registry = json.loads(_native.clauses_json())
    return tuple(clause["id"] for clause in registry["clauses"] if clause["level"] == "must")


#: Every clause of level ``must`` in the embedded registry (``clauses.json``).
MUST_CLAUSES: tuple[str, ...] = _must_clauses()

#: The clause each :func:`invalid_pairs` draw breaks, with the class the
#: reference gives (spec-cases/README.md, "Error classes"). The MUST clauses a
#: resolve can break, plus two whose suite cases are all ``must`` although the
#: registry files them as readings (configuration.members, input-dims.range).
#: algorithm.rank and algorithm.ravel break in chains and arrays: see chains().
INVALID_CLAUSES: dict[str, str] = {
    "codec.name": "malformed-configuration",
    "configuration.members": "malformed-configuration",
    "core.must-understand": "malformed-configuration",
    "shape.element": "malformed-configuration",
    "shape.size": "invalid-size",
    "shape.input-dims": "malformed-configuration",
    "shape.auto.once": "repeated-auto",
    "shape.auto.value": "element-count-mismatch",
    "shape.invariant": "element-count-mismatch",
    "input-dims.increasing": "input-dims-not-increasing",
    "input-dims.range": "input-dim-out-of-range",
    "input-dims.prefix": "input-dims-misaligned",
    "input-dims.suffix": "input-dims-misaligned",
}

#: Classes a conforming implementation may give besides the reference's
#: (I-4: a negative input dim also names no dimension; I-8 sets no order).
ALSO_ACCEPTED: dict[str, tuple[str, ...]] = {"shape.input-dims": ("input-dim-out-of-range",)}


class InvalidPair(NamedTuple):
    """A configuration that breaks ``clause`` (and no other rule) on ``decoded_shape``."""

    configuration: Any
    decoded_shape: list[int]
    error_class: str
    clause: str

    @property
    def acceptable_classes(self) -> tuple[str, ...]:
        """Every class a conforming implementation may name for this draw."""
        return (self.error_class, *ALSO_ACCEPTED.get(self.clause, ()))


def valid_pairs(
    combination: str | Sequence[str] | None = None,
    *,
    min_rank: int = 1,
    max_rank: int = 4,
    max_extent: int = 6,
    codec_objects: bool = False,
) -> st.SearchStrategy[ValidPair]:
    """Pairs the reference accepts, with the B_shape computed from their construction.

    Every draw holds ``combination`` (one of :data:`VALID_COMBINATIONS`, or
    several); by default each draw first picks one of them, so a -1 beside a
    group, a -1 beside sizes, a group of several dims, a size beside a group
    and a rank-1 end each come in about one draw in six.
    Extents are positive and ranks at least 1, so every draw is accepted under
    every documented reading (no empty input-dims group, no rank 0, no zero extent).
    With ``codec_objects``, some configurations come as whole codec objects.

    >>> from hypothesis import find, settings
    >>> find(valid_pairs("auto-with-group"), lambda pair: pair.decoded_shape == [2], settings=settings(database=None))
    ValidPair(configuration={'shape': [-1, [0]]}, decoded_shape=[2], encoded_shape=[1, 2])
    """
    bounds = Bounds(min_rank=min_rank, max_rank=max_rank, max_extent=max_extent)
    pairs = plans_of(combinations_of(combination, bounds), bounds).map(_Plan.pair)
    if not codec_objects:
        return pairs
    return st.tuples(pairs, st.booleans()).map(
        lambda drawn: (
            drawn[0]._replace(configuration={"name": "reshape", "configuration": drawn[0].configuration})
            if drawn[1]
            else drawn[0]
        )
    )


_NOT_ELEMENTS: st.SearchStrategy[Any] = st.sampled_from(
    [None, True, False, "2", "-1", 2.5, {}, [[0]], [0.5], [True], ["0"], [None], [0, [1]]]
)
_UNKNOWN_VALUES: st.SearchStrategy[Any] = st.sampled_from([1, "x", True, None, [], {"must_understand": True}])
_WRONG_NAMES = st.sampled_from(["RESHAPE", "Reshape", "reshape ", "", "transpose", "bytes", "re-shape"])
# No strings: zarr_reshape reads a str configuration as JSON text, not as a JSON string.
_NOT_OBJECTS = st.sampled_from([None, [], [[0], -1], 3, True])
_NOT_ARRAYS: st.SearchStrategy[Any] = st.sampled_from([None, 3, "[-1]", {}, True])


def _dims_plan(draw: st.DrawFn, bounds: Bounds) -> _Plan:
    """A plan with at least one input-dims group."""
    plan = draw(_plans(**bounds))
    if not any(s.kind == "dims" for s in plan.segments):
        candidates = [s for s in plan.segments if s.extents]
        draw(st.sampled_from(candidates)).kind = "dims"
    return plan


def _sizes_plan(draw: st.DrawFn, bounds: Bounds, *, auto: bool) -> _Plan:
    """A plan of sizes only, with one -1 when ``auto``."""
    plan = draw(_plans(kinds=("sizes", "auto") if auto else ("sizes",), **bounds))
    if auto and not any(s.kind == "auto" for s in plan.segments):
        plan.segments.insert(draw(st.integers(0, len(plan.segments))), _Segment([], "auto"))
    return plan


def _replace(draw: st.DrawFn, elements: list[Any], value: Any) -> list[Any]:
    index = draw(st.integers(0, len(elements) - 1))
    return [*elements[:index], value, *elements[index + 1 :]]


def _shape_of(plan: _Plan) -> list[Any]:
    return [element for element, _ in plan.elements()]


def _skip_interior(draw: st.DrawFn, bounds: Bounds, *, before: bool) -> tuple[Any, list[int]]:
    """A group that leaves out an interior dim of extent e > 1, and a size e (or
    the -1, which then is e) just before it: only the prefix rule breaks, as the
    invariant and the suffix still hold; just after it: only the suffix rule."""
    plan = _dims_plan(draw, bounds)
    index = draw(st.sampled_from([i for i, s in enumerate(plan.segments) if s.kind == "dims"]))
    group = plan.segments[index]
    extent = draw(st.integers(2, max(2, bounds["max_extent"])))
    at = draw(st.integers(1, len(group.extents)))
    group.extents.insert(at, extent)
    if at == len(group.extents) - 1:  # keep a listed dim after it
        group.extents.append(draw(st.integers(1, bounds["max_extent"])))
    group.skipped = {at}
    auto_free = not any(s.kind == "auto" for s in plan.segments)
    moved = _Segment([], "auto") if auto_free and draw(st.booleans()) else _Segment([], "sizes", [extent])
    plan.segments.insert(index if before else index + 1, moved)
    return _configuration(_shape_of(plan)), plan.decoded_shape()


def _configuration(elements: list[Any]) -> dict[str, Any]:
    return {"shape": elements}


def _break(draw: st.DrawFn, clause: str, bounds: Bounds) -> tuple[Any, list[int]]:
    """A configuration that breaks ``clause`` and no other rule, and its decoded shape."""
    if clause in ("input-dims.prefix", "input-dims.suffix"):
        return _skip_interior(draw, bounds, before=clause == "input-dims.prefix")
    if clause == "shape.invariant":  # sizes only: any other group would misalign too
        plan = _sizes_plan(draw, bounds, auto=False)
        shape = _shape_of(plan)
        index = draw(st.integers(0, len(shape) - 1))
        shape[index] *= draw(st.integers(2, 3))
        return _configuration(shape), plan.decoded_shape()
    if clause == "shape.auto.value":  # the other sizes' product no longer divides prod(A_shape)
        plan = _sizes_plan(draw, bounds, auto=True)
        pairs = plan.elements()
        auto_value = next(b for e, b in pairs if e == -1)
        shape = [e for e, _ in pairs]
        factor = draw(st.integers(2, 5))
        factor = factor if auto_value % factor else auto_value + 1
        sizes = [i for i, e in enumerate(shape) if e != -1]
        if sizes:
            shape[draw(st.sampled_from(sizes))] *= factor
        else:
            shape.insert(draw(st.integers(0, 1)), factor)
        return _configuration(shape), plan.decoded_shape()
    if clause == "shape.auto.once":
        plan = draw(_plans(**bounds))
        shape = _shape_of(plan)
        if -1 not in shape:
            shape = _replace(draw, shape, -1)
        others = [i for i, e in enumerate(shape) if e != -1]
        if others:
            shape[draw(st.sampled_from(others))] = -1
        else:
            shape.insert(draw(st.integers(0, 1)), -1)
        return _configuration(shape), plan.decoded_shape()
    if clause == "shape.size":  # negative: a 0 would also break the invariant
        plan = draw(_plans(**bounds))
        size = -draw(st.integers(2, 2**63))  # beyond -2^63 a reader may also say overflow
        return _configuration(_replace(draw, _shape_of(plan), size)), plan.decoded_shape()
    if clause == "shape.element":
        plan = draw(_plans(**bounds))
        return _configuration(_replace(draw, _shape_of(plan), draw(_NOT_ELEMENTS))), plan.decoded_shape()
    if clause == "shape.input-dims":  # a negative dim, first of all: the order still holds
        plan = _dims_plan(draw, bounds)
        shape = _shape_of(plan)
        index = next(i for i, e in enumerate(shape) if isinstance(e, list))
        shape[index] = [-draw(st.integers(1, 3)), *shape[index][1:]]
        return _configuration(shape), plan.decoded_shape()
    if clause == "input-dims.range":  # the last dim of the last group, at or past the rank
        plan = _dims_plan(draw, bounds)
        shape = _shape_of(plan)
        rank = len(plan.decoded_shape())
        index = max(i for i, e in enumerate(shape) if isinstance(e, list))
        shape[index] = [*shape[index][:-1], rank + draw(st.integers(0, 3))]
        return _configuration(shape), plan.decoded_shape()
    if clause == "input-dims.increasing":  # a unit dim written twice: no extent changes
        plan = _dims_plan(draw, bounds)
        group = draw(st.sampled_from([s for s in plan.segments if s.kind == "dims"]))
        at = draw(st.integers(0, len(group.extents)))
        group.extents.insert(at, 1)
        group.skipped = {i + (i >= at) for i in group.skipped}
        group.repeated = at
        return _configuration(_shape_of(plan)), plan.decoded_shape()
    valid = draw(_plans(**bounds)).pair()
    configuration = valid.configuration
    if clause == "codec.name":
        return {"name": draw(_WRONG_NAMES), "configuration": configuration}, valid.decoded_shape
    if clause == "core.must-understand":
        member = draw(st.sampled_from(["extra", "order", "Shape", "shape_"]))
        if draw(st.booleans()):
            return {**configuration, member: draw(_UNKNOWN_VALUES)}, valid.decoded_shape
        codec = {"name": "reshape", "configuration": configuration, member: draw(_UNKNOWN_VALUES)}
        return codec, valid.decoded_shape
    if clause == "configuration.members":
        broken = draw(st.sampled_from(["not-object", "no-shape", "shape-not-array", "codec-without"]))
        if broken == "not-object":
            wrong: Any = draw(_NOT_OBJECTS)
        elif broken == "no-shape":
            wrong = {}
        elif broken == "shape-not-array":
            wrong = {"shape": draw(_NOT_ARRAYS)}
        else:
            return {"name": "reshape"}, valid.decoded_shape
        return ({"name": "reshape", "configuration": wrong} if draw(st.booleans()) else wrong), valid.decoded_shape
    raise ValueError(f"{clause!r} is not a clause invalid_pairs() breaks: {sorted(INVALID_CLAUSES)}")


def invalid_pairs(
    clause: str | tuple[str, ...] | list[str] | None = None,
    *,
    min_rank: int = 1,
    max_rank: int = 4,
    max_extent: int = 6,
) -> st.SearchStrategy[InvalidPair]:
    """Pairs that break one chosen rule (``clause``, several, or any of
    :data:`INVALID_CLAUSES`), each checked with :func:`zarr_reshape.broken_rules`:
    a draw is rejected unless the stated rule is the first broken and every rule
    it breaks has the stated class (or one :data:`ALSO_ACCEPTED` for it), so every
    reading of the spec refuses it with a class the pair names.
    """
    chosen = list(INVALID_CLAUSES) if clause is None else [clause] if isinstance(clause, str) else list(clause)
    for name in chosen:
        if name not in INVALID_CLAUSES:
            raise ValueError(f"{name!r} is not a clause invalid_pairs() breaks: {sorted(INVALID_CLAUSES)}")
    bounds = Bounds(min_rank=min_rank, max_rank=max_rank, max_extent=max_extent)

    @st.composite
    def draw_pair(draw: st.DrawFn) -> InvalidPair:
        name = draw(st.sampled_from(chosen))
        configuration, decoded_shape = _break(draw, name, bounds)
        # The stated rule first, and any other rule broken too (each evaluated on
        # its own) of a class accepted here: every reading refuses with one of them.
        broken = broken_rules(configuration, decoded_shape)
        accepted = {INVALID_CLAUSES[name], *ALSO_ACCEPTED.get(name, ())}
        assume(bool(broken) and broken[0][0] == name and {cls for _, cls in broken} <= accepted)
        return InvalidPair(configuration, decoded_shape, INVALID_CLAUSES[name], name)

    return draw_pair()


def valid_pairs_for(decoded_shape: list[int] | tuple[int, ...]) -> st.SearchStrategy[ValidPair]:
    """Valid pairs on a given decoded shape of positive extents (a chunk shape)."""
    if any(extent < 1 for extent in decoded_shape) or not decoded_shape:
        raise ValueError("valid_pairs_for needs a rank of at least 1 and positive extents")
    return _plans(extents=tuple(decoded_shape)).map(_Plan.pair)
