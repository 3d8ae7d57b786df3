"""resolve-grid: does every chunk of an array fit its codec chain? Chunk by chunk.

The independent counterpart of the reference's structural answer: it lists the
chunks that hold at least one array element (CONFORMANCE.md, I-11; an overflow
chunk of a rectilinear grid, wholly beyond the array, is never encoded), hands
each its declared edges (also a chunk crossing the array's end) and resolves the
chain for that shape with chain.resolve_codecs. Beyond MAX_CHUNKS chunks it
answers `skipped`: run-length pairs are counted arithmetically first and expanded
only when the whole grid is within the bound.

Chunk grids: `regular` (core spec) and zarr-extensions `rectilinear` (`kind`
"inline", per axis an integer step or a list of edges and [edge, count] pairs,
all positive, summing to at least the axis length).
"""
from __future__ import annotations

import itertools
from typing import Any

from bugs import on
from chain import malformed, resolve_codecs
from codec import U64_MAX, ReshapeError, Skip

MAX_CHUNKS = 2**16

# One run of edges along an axis: (edge, count, regular), where `regular` says it
# comes from an integer step or a run-length pair of count 2 or more.
Run = tuple[int, int, bool]


def positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= U64_MAX


def members(value: Any, allowed: set[str], what: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not set(value) <= allowed:
        raise malformed(f"{what} must be an object with the members {sorted(allowed)}: {value!r}")
    return value


def step_runs(step: int, length: int) -> list[Run]:
    """An integer step repeated until the edges sum to at least the axis length."""
    return [(step, -(-length // step), True)]


def listed_runs(items: Any, length: int) -> list[Run]:
    if not isinstance(items, list):
        raise malformed(f"a rectilinear axis is an integer or a list: {items!r}")
    runs: list[Run] = []
    for item in items:
        if positive(item):
            runs.append((item, 1, False))
        elif isinstance(item, list) and len(item) == 2 and all(positive(v) for v in item):
            runs.append((item[0], item[1], item[1] >= 2))
        else:
            raise malformed(f"a rectilinear edge is a positive integer or [edge, count]: {item!r}")
    if sum(edge * count for edge, count, _ in runs) < length:
        raise malformed(f"the edges {items!r} sum to less than the axis length {length}")
    return runs


def grid_runs(grid: Any, array_shape: list[int]) -> list[list[Run]]:
    """The declared chunks of each axis, as runs (never expanded)."""
    grid = members(grid, {"name", "configuration"}, "chunk_grid")
    name = grid.get("name")
    if name == "regular":
        config = members(grid.get("configuration"), {"chunk_shape"}, "the regular grid's configuration")
        steps = config.get("chunk_shape")
        if not isinstance(steps, list) or len(steps) != len(array_shape) or not all(map(positive, steps)):
            raise malformed(f"the regular chunk_shape {steps!r} does not fit the array shape {array_shape}")
        return [step_runs(s, n) for s, n in zip(steps, array_shape)]
    if name == "rectilinear":
        config = members(grid.get("configuration"), {"kind", "chunk_shapes"}, "the rectilinear configuration")
        axes = config.get("chunk_shapes")
        if config.get("kind") != "inline" or not isinstance(axes, list) or len(axes) != len(array_shape):
            raise malformed(f"rectilinear needs kind 'inline' and one entry per axis: {config!r}")
        return [step_runs(a, n) if positive(a) else listed_runs(a, n) for a, n in zip(axes, array_shape)]
    raise malformed(f"unknown chunk grid {name!r}")


def chunks_in(runs: list[Run], length: int) -> int:
    """How many chunks of an axis are checked: those that start inside the array (I-11)."""
    if on("grid-overflow-chunks-checked"):
        return sum(count for _, count, _ in runs)  # every declared chunk
    total, origin = 0, 0
    for edge, count, _ in runs:
        if origin >= length:
            break
        holding = min(count, -(-(length - origin) // edge))
        total, origin = total + holding, origin + holding * edge
    return total


def expand(runs: list[Run], wanted: int, length: int) -> list[tuple[int, bool]]:
    """The first `wanted` chunks of an axis: (decoded edge, regular); `wanted` is within the bound."""
    edges: list[tuple[int, bool]] = []
    origin = 0
    for edge, count, regular in runs:
        for _ in range(min(count, wanted - len(edges))):
            shown = min(edge, length - origin) if on("grid-chunk-shape-clipped") else edge
            edges.append((shown, regular))
            origin += edge
    return edges


def checked(axes: list[list[tuple[int, bool]]]) -> list[list[int]]:
    """The chunk indices of each axis to visit (all of them, but where a bug looks away)."""
    if on("grid-first-chunk-only"):
        return [[0] for _ in axes]
    if on("grid-regular-part-only"):
        # single explicit edges are taken for a remainder and skipped; an axis of
        # single edges only has no regular part to stand for it, so it is kept whole
        kept = [[i for i, (_, regular) in enumerate(edges) if regular] for edges in axes]
        return [k if k else list(range(len(edges))) for k, edges in zip(kept, axes)]
    return [list(range(len(edges))) for edges in axes]


def array_shape_of(case: dict[str, Any]) -> list[int]:
    shape = case.get("array_shape")
    if not isinstance(shape, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in shape):
        raise malformed(f"array_shape is not a list of integers: {shape!r}")
    if any(n < 0 or n > U64_MAX for n in shape):
        raise malformed(f"array_shape {shape} has an extent outside 0 .. 2^64-1")
    return shape


def resolve_grid(case: dict[str, Any]) -> dict[str, Any]:
    array_shape = array_shape_of(case)
    runs = grid_runs(case.get("chunk_grid"), array_shape)
    counts = [chunks_in(r, n) for r, n in zip(runs, array_shape)]
    total = 1
    for count in counts:
        total *= count
    if total == 0:
        raise Skip("no chunk holds an array element, so no chain is ever handed a chunk")
    if total > MAX_CHUNKS:
        raise Skip(f"{total} chunks: this adapter visits at most {MAX_CHUNKS} one by one")
    axes = [expand(r, c, n) for r, c, n in zip(runs, counts, array_shape)]
    answers: dict[tuple[int, ...], dict[str, Any] | ReshapeError] = {}
    extents: list[list[set[int]]] | None = None
    inner = None
    for coords in itertools.product(*checked(axes)):
        shape = tuple(axes[d][i][0] for d, i in enumerate(coords))
        if shape not in answers:
            try:
                answers[shape] = resolve_codecs(case.get("codecs"), list(shape), case.get("data_type"))
            except ReshapeError as error:
                answers[shape] = error
        answer = answers[shape]
        if isinstance(answer, ReshapeError):
            return {"error": {"class": answer.error_class, "message": str(answer), "chunk": list(coords)}}
        if extents is None:
            extents = [[set() for _ in shape] for shape in answer["encoded_shapes"]]
            inner = answer.get("inner")
        for sets, encoded in zip(extents, answer["encoded_shapes"]):
            for values, extent in zip(sets, encoded):
                values.add(extent)
    result: dict[str, Any] = {"encoded_extents": [[sorted(v) for v in sets] for sets in extents or []]}
    if inner is not None:
        result["inner"] = inner
    return result
