"""Plans: how valid pairs are built, and the combinations every run must cover.

A *plan* is the decoded shape cut into consecutive runs of dimensions
(segments), each written as one input-dims group, as sizes whose product is the
run's, or as -1. Every plan resolves, so a valid pair needs no filtering.

A free plan rarely holds a given combination of elements (a -1 beside a group
was in none of 35 derandomized draws), so each of :data:`VALID_COMBINATIONS`
is built on purpose: a plan is drawn, then edited until it holds the
combination. Public names are re-exported by :mod:`zarr_reshape.strategies`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypedDict

from hypothesis import strategies as st

#: What every draw of ``valid_pairs(combination)`` holds, by name. The first
#: five are where a codec's arithmetic goes wrong; ``any`` is a free plan.
VALID_COMBINATIONS: dict[str, str] = {
    "auto-with-group": "a -1 beside an input-dims group whose product is more than 1",
    "auto-with-sizes": "a -1 beside a fixed size of more than 1",
    "multi-dim-group": "an input-dims group listing two or more dims",
    "size-beside-group": "a fixed size right before or after an input-dims group",
    "rank-1": "a decoded shape or an encoded shape of rank 1",
    "any": "a free plan: groups, sizes and at most one -1, in any mix",
}


class Bounds(TypedDict):
    """The size of what the pair strategies draw."""

    min_rank: int
    max_rank: int
    max_extent: int


class ValidPair(NamedTuple):
    """A configuration the reference accepts on ``decoded_shape``, and its B_shape."""

    configuration: Any
    decoded_shape: list[int]
    encoded_shape: list[int]


@dataclass
class _Segment:
    """A run of consecutive decoded dims and how ``shape`` writes it."""

    extents: list[int]
    kind: str  # "dims", "sizes" or "auto"
    sizes: list[int] = field(default_factory=list)
    skipped: set[int] = field(default_factory=set)  # unit dims left out of a group
    repeated: int | None = None  # a dim written twice (breaks input-dims.increasing)


@dataclass
class _Plan:
    segments: list[_Segment]

    def decoded_shape(self) -> list[int]:
        return [extent for segment in self.segments for extent in segment.extents]

    def elements(self) -> list[Any]:
        """The ``shape`` elements, each with its B extent."""
        out: list[Any] = []
        first = 0
        for segment in self.segments:
            if segment.kind == "dims":
                dims = [first + i for i in range(len(segment.extents)) if i not in segment.skipped]
                if segment.repeated is not None:
                    dims.insert(dims.index(first + segment.repeated), first + segment.repeated)
                out.append((dims, math.prod(segment.extents)))
            elif segment.kind == "auto":
                out.append((-1, math.prod(segment.extents)))
            else:
                out.extend((size, size) for size in segment.sizes)
            first += len(segment.extents)
        return out

    def pair(self) -> ValidPair:
        elements = self.elements()
        return ValidPair({"shape": [e for e, _ in elements]}, self.decoded_shape(), [b for _, b in elements])


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _write_sizes(draw: st.DrawFn, segment: _Segment) -> None:
    """The run's product as one size or split in two."""
    total = math.prod(segment.extents)
    first = draw(st.sampled_from(_divisors(total)))
    segment.kind, segment.skipped = "sizes", set()
    segment.sizes = [first, total // first] if first not in (1, total) and draw(st.booleans()) else [total]


def _write_group(draw: st.DrawFn, segment: _Segment, *, keep: int = 1) -> None:
    """The run as one group; unit dims may be left out, as long as ``keep`` dims stay."""
    units = [i for i, e in enumerate(segment.extents) if e == 1]
    most = len(segment.extents) - keep
    skipped = draw(st.lists(st.sampled_from(units), unique=True, max_size=most)) if units and most > 0 else []
    segment.kind, segment.skipped = "dims", set(skipped)


@st.composite
def _plans(
    draw: st.DrawFn,
    *,
    min_rank: int = 1,
    max_rank: int = 4,
    max_extent: int = 6,
    kinds: tuple[str, ...] = ("dims", "sizes", "auto"),
    unit_elements: bool = True,
    extents: tuple[int, ...] | None = None,
) -> _Plan:
    if extents is None:
        drawn_rank = draw(st.integers(min_rank, max_rank))
        extents = tuple(draw(st.lists(st.integers(1, max_extent), min_size=drawn_rank, max_size=drawn_rank)))
    rank = len(extents)
    cuts = sorted(draw(st.sets(st.integers(1, rank - 1), max_size=rank - 1))) if rank > 1 else []
    segments: list[_Segment] = []
    auto_used = False
    for start, stop in itertools.pairwise([0, *cuts, rank]):
        allowed = [k for k in kinds if not (k == "auto" and auto_used)] or ["sizes"]
        segment = _Segment(list(extents[start:stop]), draw(st.sampled_from(allowed)))
        auto_used |= segment.kind == "auto"
        if segment.kind == "sizes":
            _write_sizes(draw, segment)
        elif segment.kind == "dims":
            _write_group(draw, segment)
        segments.append(segment)
    if unit_elements and draw(st.booleans()):  # a size 1 (or the -1, then 1) covering no dim
        kind = "auto" if "auto" in kinds and not auto_used and draw(st.booleans()) else "sizes"
        segments.insert(draw(st.integers(0, len(segments))), _Segment([], kind, [1] if kind == "sizes" else []))
    return _Plan(segments)


def _group(draw: st.DrawFn, plan: _Plan, bounds: Bounds, *, counting: bool) -> _Segment:
    """A segment of the plan made a group; with ``counting``, one whose product is
    more than 1 (a group of unit dims counts like a size 1)."""
    group = draw(st.sampled_from([s for s in plan.segments if s.extents]))
    if group.kind != "dims":
        _write_group(draw, group)
    if counting and math.prod(group.extents) == 1:
        listed = [i for i in range(len(group.extents)) if i not in group.skipped]
        group.extents[draw(st.sampled_from(listed))] = draw(st.integers(2, max(2, bounds["max_extent"])))
    return group


def _add_auto(draw: st.DrawFn, plan: _Plan, beside: _Segment) -> None:
    """A -1 somewhere in the plan other than ``beside``: kept if there is one
    already, else another segment written as -1, or a -1 that covers no dim."""
    if any(s.kind == "auto" for s in plan.segments):
        return
    others = [s for s in plan.segments if s is not beside]
    chosen = draw(st.integers(0, len(others)))
    if chosen < len(others):
        others[chosen].kind = "auto"
    else:
        plan.segments.insert(draw(st.integers(0, len(plan.segments))), _Segment([], "auto"))


def _one_fewer(bounds: Bounds) -> Bounds:
    """Bounds for a plan that gets one more dim afterwards."""
    return Bounds(
        min_rank=max(1, bounds["min_rank"] - 1),
        max_rank=max(1, bounds["max_rank"] - 1),
        max_extent=bounds["max_extent"],
    )


@st.composite
def _combination_plans(draw: st.DrawFn, combination: str, bounds: Bounds) -> _Plan:
    """A plan that holds ``combination`` (one of :data:`VALID_COMBINATIONS`)."""
    if combination == "any":
        return draw(_plans(**bounds))
    if combination in ("auto-with-group", "auto-with-sizes"):
        plan = draw(_plans(**bounds))
        if combination == "auto-with-group":
            kept = _group(draw, plan, bounds, counting=True)
        else:
            kept = draw(st.sampled_from([s for s in plan.segments if s.extents]))
            if math.prod(kept.extents) == 1:
                kept.extents[draw(st.integers(0, len(kept.extents) - 1))] = draw(
                    st.integers(2, max(2, bounds["max_extent"]))
                )
            _write_sizes(draw, kept)  # one size, or two that are both more than 1
        _add_auto(draw, plan, kept)
        return plan
    if combination == "multi-dim-group":  # one dim more in a group of the plan
        plan = draw(_plans(**_one_fewer(bounds)))
        group = _group(draw, plan, bounds, counting=False)
        at = draw(st.integers(0, len(group.extents)))
        group.extents.insert(at, draw(st.integers(1, bounds["max_extent"])))
        group.skipped = {i + (i >= at) for i in group.skipped}
        return plan
    if combination == "size-beside-group":  # a new dim written as sizes, next to a group
        room = bounds["max_rank"] > 1
        plan = draw(_plans(**(_one_fewer(bounds) if room else bounds)))
        group = _group(draw, plan, bounds, counting=False)
        sizes = _Segment([draw(st.integers(1, bounds["max_extent"]))] if room else [], "sizes", [1])
        if room:
            _write_sizes(draw, sizes)
        index = plan.segments.index(group)
        plan.segments.insert(index + draw(st.integers(0, 1)), sizes)
        return plan
    if combination == "rank-1":
        if bounds["min_rank"] <= 1 and draw(st.booleans()):  # A_shape of rank 1
            return draw(_plans(extents=(draw(st.integers(1, bounds["max_extent"])),)))
        rank = draw(st.integers(bounds["min_rank"], bounds["max_rank"]))  # B_shape of rank 1
        whole = _Segment(draw(st.lists(st.integers(1, bounds["max_extent"]), min_size=rank, max_size=rank)), "auto")
        kind = draw(st.sampled_from(["dims", "sizes", "auto"]))
        if kind == "dims":
            _write_group(draw, whole)
        elif kind == "sizes":
            whole.kind, whole.sizes = "sizes", [math.prod(whole.extents)]
        return _Plan([whole])
    raise ValueError(f"{combination!r} is not a combination of valid pairs: {list(VALID_COMBINATIONS)}")


def combinations_of(combination: str | Sequence[str] | None, bounds: Bounds) -> list[str]:
    """The combinations named (all that the bounds allow when None), checked."""
    if combination is None:
        return [c for c in VALID_COMBINATIONS if c != "multi-dim-group" or bounds["max_rank"] > 1]
    chosen = [combination] if isinstance(combination, str) else list(combination)
    for name in chosen:
        if name not in VALID_COMBINATIONS:
            raise ValueError(f"{name!r} is not a combination of valid pairs: {list(VALID_COMBINATIONS)}")
        if name == "multi-dim-group" and bounds["max_rank"] < 2:
            raise ValueError("multi-dim-group needs max_rank of at least 2")
    if not chosen:
        raise ValueError("no combination chosen")
    return chosen


@st.composite
def plans_of(draw: st.DrawFn, combinations: list[str], bounds: Bounds) -> _Plan:
    """A plan of one of ``combinations`` (drawn first, so each is as likely)."""
    return draw(_combination_plans(draw(st.sampled_from(combinations)), bounds))
