"""Codec chains (``codecs`` lists as in ``zarr.json``) with reshape between
transposes and inside or before ``sharding_indexed``. The shapes each step
hands on come from the construction; :func:`zarr_reshape.resolve_chain` must
agree (the tests check it), and every invalid draw is checked against it.
Public names are re-exported by :mod:`zarr_reshape.strategies`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from hypothesis import assume
from hypothesis import strategies as st

from ._api import ChainShapes, resolve_chain
from ._errors import ReshapeError
from ._strategies_pairs import (
    ALSO_ACCEPTED,
    DATA_TYPES,
    Bounds,
    InvalidPair,
    invalid_pairs,
    valid_pairs,
    valid_pairs_for,
)

#: What an invalid chain breaks (all but ``reshape`` are ``malformed-configuration``):
#: a transpose order of another rank than the shape reshape hands it
#: (algorithm.rank), codecs out of the core spec's order, a sharding
#: ``chunk_shape`` of another rank or not dividing the shard, a multi-byte type
#: without ``endian``, or a reshape configuration that breaks a rule.
CHAIN_FAULTS: tuple[str, ...] = ("transpose-rank", "order", "shard-rank", "shard-divide", "bytes-endian", "reshape")


class Chain(NamedTuple):
    """A ``codecs`` list, the chunk shape handed to its first codec, the data type,
    and either the shapes it resolves to or the class of its refusal."""

    codecs: list[dict[str, Any]]
    chunk_shape: list[int]
    data_type: str
    expected: ChainShapes | None
    error_class: str | None = None
    fault: str | None = None
    #: The clause an invalid chain breaks: the reshape's own, or algorithm.rank
    #: (what a codec after reshape is handed; the suite files chain cases there).
    clause: str | None = None

    @property
    def acceptable_classes(self) -> tuple[str, ...]:
        """Every class a conforming implementation may name for this chain."""
        if self.error_class is None:
            return ()
        return (self.error_class, *ALSO_ACCEPTED.get(self.clause or "", ()))


def _transpose(order: list[int]) -> dict[str, Any]:
    return {"name": "transpose", "configuration": {"order": order}}


def _reshape(configuration: Any) -> dict[str, Any]:
    if isinstance(configuration, dict) and "name" in configuration:
        return configuration  # already a codec object
    return {"name": "reshape", "configuration": configuration}


def _bytes(draw: st.DrawFn, data_type: str) -> dict[str, Any]:
    single = data_type in ("bool", "int8", "uint8")
    if single and draw(st.booleans()):
        return {"name": "bytes"}  # endian is optional for one-byte elements
    return {"name": "bytes", "configuration": {"endian": draw(st.sampled_from(["little", "big"]))}}


_COMPRESSOR = st.one_of(
    st.integers(0, 9).map(lambda level: {"name": "gzip", "configuration": {"level": level}}),
    st.tuples(st.integers(-3, 9), st.booleans()).map(
        lambda drawn: {"name": "zstd", "configuration": {"level": drawn[0], "checksum": drawn[1]}}
    ),
    st.just({"name": "crc32c"}),
)
_COMPRESSORS = st.lists(_COMPRESSOR, max_size=2)


@st.composite
def _array_codecs(
    draw: st.DrawFn, shape: list[int], *, transposes: bool
) -> tuple[list[dict[str, Any]], list[list[int]], list[int]]:
    """Transpose?, reshape, transpose? for a chunk of ``shape``: the codecs, the
    shapes they hand on, and the last one."""
    codecs: list[dict[str, Any]] = []
    shapes: list[list[int]] = []
    current = list(shape)
    if transposes and draw(st.booleans()):
        order = draw(st.permutations(range(len(current))))
        current = [current[axis] for axis in order]
        codecs.append(_transpose(list(order)))
        shapes.append(current)
    pair = draw(valid_pairs_for(current))
    codecs.append(_reshape(pair.configuration))
    current = list(pair.encoded_shape)
    shapes.append(current)
    if transposes and draw(st.booleans()):
        order = draw(st.permutations(range(len(current))))
        current = [current[axis] for axis in order]
        codecs.append(_transpose(list(order)))
        shapes.append(current)
    return codecs, shapes, current


def _divisor(draw: st.DrawFn, extent: int) -> int:
    return draw(st.sampled_from([d for d in range(1, extent + 1) if extent % d == 0]))


@st.composite
def _valid_chain(
    draw: st.DrawFn, chunk_shape: list[int], data_type: str, depth: int, transposes: bool
) -> tuple[list[dict[str, Any]], ChainShapes]:
    codecs, shapes, shard = draw(_array_codecs(chunk_shape, transposes=transposes))
    inner: ChainShapes | None = None
    if depth > 0 and draw(st.booleans()):
        inner_shape = [_divisor(draw, extent) for extent in shard]
        inner_codecs, inner = draw(_valid_chain(inner_shape, data_type, depth - 1, transposes))
        sharding: dict[str, Any] = {"chunk_shape": inner_shape, "codecs": inner_codecs}
        sharding["index_codecs"] = [{"name": "bytes", "configuration": {"endian": "little"}}]
        if draw(st.booleans()):
            sharding["index_codecs"].append({"name": "crc32c"})
        if draw(st.booleans()):
            sharding["index_location"] = draw(st.sampled_from(["start", "end"]))
        codecs.append({"name": "sharding_indexed", "configuration": sharding})
    else:
        codecs.append(_bytes(draw, data_type))
    codecs.extend(draw(_COMPRESSORS))
    return codecs, ChainShapes(tuple(tuple(shape) for shape in shapes), inner)


@st.composite
def _invalid_chain(
    draw: st.DrawFn, fault: str, bounds: Bounds
) -> tuple[list[dict[str, Any]], list[int], str, str, str]:
    """A chain that breaks ``fault`` alone: codecs, chunk shape, data type, class."""
    data_type = draw(st.sampled_from(DATA_TYPES))
    if fault == "reshape":
        pair: InvalidPair = draw(invalid_pairs(list(_RESHAPE_CLAUSES), **bounds))
        codecs = [_reshape(pair.configuration), _bytes(draw, data_type)]
        return codecs, pair.decoded_shape, data_type, pair.error_class, pair.clause
    valid = draw(valid_pairs(**bounds))
    codecs = [_reshape(valid.configuration)]
    b_shape = list(valid.encoded_shape)
    if fault == "transpose-rank":
        rank = len(valid.decoded_shape) if len(valid.decoded_shape) != len(b_shape) else len(b_shape) + 1
        codecs += [_transpose(list(range(rank))), _bytes(draw, data_type)]
    elif fault == "order":
        compressor = draw(_COMPRESSOR)
        codecs = draw(
            st.sampled_from([[_bytes(draw, data_type), *codecs], [*codecs, compressor, _bytes(draw, data_type)]])
        )
    elif fault == "bytes-endian":
        data_type = draw(st.sampled_from([t for t in DATA_TYPES if t not in ("bool", "int8", "uint8")]))
        codecs.append({"name": "bytes"})
    else:
        inner_shape = [_divisor(draw, extent) for extent in b_shape]
        if fault == "shard-rank":
            inner_shape.append(1)
        else:
            axis = draw(st.integers(0, len(b_shape) - 1))
            inner_shape[axis] = b_shape[axis] + 1  # never divides b_shape[axis]
        index_codecs = [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]
        sharding = {"chunk_shape": inner_shape, "codecs": [_bytes(draw, data_type)], "index_codecs": index_codecs}
        codecs.append({"name": "sharding_indexed", "configuration": sharding})
    return codecs, list(valid.decoded_shape), data_type, "malformed-configuration", "algorithm.rank"


# codec.name leaves no reshape in the chain: a codec the reference does not know.
_RESHAPE_CLAUSES = (
    "configuration.members",
    "core.must-understand",
    "shape.element",
    "shape.size",
    "shape.input-dims",
    "shape.auto.once",
    "shape.auto.value",
    "shape.invariant",
    "input-dims.increasing",
    "input-dims.range",
    "input-dims.prefix",
    "input-dims.suffix",
)


def chains(
    valid: bool | None = True,
    *,
    faults: tuple[str, ...] = CHAIN_FAULTS,
    min_rank: int = 1,
    max_rank: int = 3,
    max_extent: int = 4,
    sharding_depth: int = 1,
    transposes: bool = True,
) -> st.SearchStrategy[Chain]:
    """Codec chains around reshape: ``valid=True`` resolvable ones (with
    ``expected``, the shapes each step hands on), ``False`` ones that break one
    of ``faults`` (with ``error_class``, checked against
    :func:`zarr_reshape.resolve_chain`), ``None`` both.

    >>> import zarr_reshape
    >>> from hypothesis import find, settings
    >>> chain = find(chains(), lambda c: c.codecs[0]["name"] == "transpose", settings=settings(database=None))
    >>> resolved = zarr_reshape.resolve_chain(chain.codecs, chain.chunk_shape, chain.data_type)
    >>> chain.codecs[1]["name"], resolved == chain.expected
    ('reshape', True)
    """
    bounds = Bounds(min_rank=min_rank, max_rank=max_rank, max_extent=max_extent)
    for fault in faults:
        if fault not in CHAIN_FAULTS:
            raise ValueError(f"{fault!r} is not a chain fault: {CHAIN_FAULTS}")

    @st.composite
    def good(draw: st.DrawFn) -> Chain:
        chunk_shape = draw(st.lists(st.integers(1, max_extent), min_size=min_rank, max_size=max_rank))
        data_type = draw(st.sampled_from(DATA_TYPES))
        codecs, expected = draw(_valid_chain(chunk_shape, data_type, sharding_depth, transposes))
        return Chain(codecs, chunk_shape, data_type, expected)

    @st.composite
    def bad(draw: st.DrawFn) -> Chain:
        fault = draw(st.sampled_from(faults))
        codecs, chunk_shape, data_type, error_class, clause = draw(_invalid_chain(fault, bounds))
        try:
            resolve_chain(codecs, chunk_shape, data_type)
            refused = None
        except ReshapeError as error:
            refused = error.error_class
        assume(refused == error_class)  # honest: the reference refuses it, with this class
        return Chain(codecs, chunk_shape, data_type, None, error_class, fault, clause)

    if valid is None:
        return st.one_of(good(), bad())
    return good() if valid else bad()
