"""Hypothesis strategies for the reshape codec, with the reference as oracle.

Needs the ``hypothesis`` extra (``pip install "zarr-reshape[hypothesis]"``).

- :func:`decoded_shapes`, :func:`configurations`: the raw material, well formed
  or (``malformed=True``) not.
- :func:`valid_pairs`: ``(configuration, decoded_shape, encoded_shape)`` that the
  reference accepts, built from the decoded shape's dims (no filtering), each
  draw holding one of :data:`VALID_COMBINATIONS` (a -1 beside a group, ...).
- :func:`invalid_pairs`: ``(configuration, decoded_shape, error_class, clause)``
  breaking one chosen rule, each draw checked with :func:`zarr_reshape.broken_rules`
  (the stated rule broken first, every rule broken of a class the pair accepts).
- :func:`chains`: ``codecs`` lists with transpose and sharding around reshape.
- :func:`arrays`: NumPy arrays of every data type of the suite.
- :func:`assert_matches_reference`: a Hypothesis test of any codec against the
  reference, whose failure (:class:`ReferenceMismatch`) prints the shrunk
  counterexample as a suite vector (:func:`as_vector`, :func:`chain_vector`).

>>> from hypothesis import given, settings
>>> import zarr_reshape
>>> from zarr_reshape.strategies import valid_pairs
>>> @settings(max_examples=20, derandomize=True, database=None, deadline=None)
... @given(valid_pairs())
... def test_resolves(pair):
...     assert list(zarr_reshape.resolve(pair.configuration, pair.decoded_shape)) == pair.encoded_shape
>>> test_resolves()
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ._strategies_chains import CHAIN_FAULTS, Chain, chains
from ._strategies_oracle import CodecLike, assert_matches_reference
from ._strategies_pairs import (
    ALSO_ACCEPTED,
    DATA_TYPES,
    INVALID_CLAUSES,
    MUST_CLAUSES,
    VALID_COMBINATIONS,
    InvalidPair,
    ValidPair,
    invalid_pairs,
    valid_pairs,
)
from ._strategies_vectors import ReferenceMismatch, array_json, as_vector, chain_vector, vector_text

__all__ = [
    "ALSO_ACCEPTED",
    "CHAIN_FAULTS",
    "Chain",
    "CodecLike",
    "DATA_TYPES",
    "INVALID_CLAUSES",
    "InvalidPair",
    "MUST_CLAUSES",
    "ReferenceMismatch",
    "VALID_COMBINATIONS",
    "ValidPair",
    "array_json",
    "arrays",
    "as_vector",
    "assert_matches_reference",
    "chain_vector",
    "chains",
    "configurations",
    "decoded_shapes",
    "invalid_pairs",
    "valid_pairs",
    "vector_text",
]


def decoded_shapes(
    *, min_rank: int = 1, max_rank: int = 4, min_extent: int = 1, max_extent: int = 6
) -> st.SearchStrategy[list[int]]:
    """Decoded shapes (A_shape): lists of extents.

    >>> from hypothesis import find, settings
    >>> find(decoded_shapes(min_rank=2), lambda shape: True, settings=settings(database=None))
    [1, 1]
    """
    return st.lists(st.integers(min_extent, max_extent), min_size=min_rank, max_size=max_rank)


@st.composite
def _well_formed(draw: st.DrawFn, max_rank: int, max_elements: int, max_size: int) -> dict[str, Any]:
    """Elements of the right kinds, -1 at most once, input dims increasing below
    ``max_rank``: what parses; whether it resolves depends on the decoded shape."""
    count = draw(st.integers(1, max_elements))
    kinds = draw(st.lists(st.sampled_from(["size", "dims", "auto"]), min_size=count, max_size=count))
    if kinds.count("auto") > 1:
        first = kinds.index("auto")
        kinds = [k if k != "auto" or i == first else "size" for i, k in enumerate(kinds)]
    while kinds.count("dims") > max_rank:  # each group needs a dim of its own
        kinds[kinds.index("dims")] = "size"
    groups = kinds.count("dims")
    dims = (
        sorted(draw(st.sets(st.integers(0, max_rank - 1), min_size=groups, max_size=max(groups, max_rank))))
        if groups
        else []
    )
    cuts = (
        sorted(draw(st.sets(st.integers(1, len(dims) - 1), min_size=groups - 1, max_size=groups - 1)))
        if groups > 1
        else []
    )
    bounds = [0, *cuts, len(dims)]
    runs = iter(dims[start:stop] for start, stop in itertools.pairwise(bounds))
    shape: list[Any] = []
    for kind in kinds:
        shape.append(-1 if kind == "auto" else next(runs) if kind == "dims" else draw(st.integers(1, max_size)))
    return {"shape": shape}


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)


def configurations(
    *, max_rank: int = 4, max_elements: int = 5, max_size: int = 24, malformed: bool = False
) -> st.SearchStrategy[Any]:
    """Reshape configurations (the ``configuration`` member, ``{"shape": [...]}``):
    fixed sizes, increasing input-dims groups, at most one -1. With ``malformed``,
    also configurations that break one rule (from :func:`invalid_pairs`) and
    arbitrary JSON values, which must all be refused or resolved, never crash.

    >>> from hypothesis import find, settings
    >>> find(configurations(), lambda c: -1 in c["shape"] and len(c["shape"]) > 1, settings=settings(database=None))
    {'shape': [1, -1]}
    """
    well_formed = _well_formed(max_rank, max_elements, max_size)
    if not malformed:
        return well_formed
    broken = invalid_pairs(max_rank=max_rank).map(lambda pair: pair.configuration)
    garbage = st.one_of(_JSON, st.lists(_JSON, max_size=4).map(lambda shape: {"shape": shape}))
    return st.one_of(well_formed, broken, garbage)


def arrays(
    data_type: str | None = None,
    shape: list[int] | tuple[int, ...] | None = None,
    *,
    max_rank: int = 4,
    max_side: int = 5,
) -> st.SearchStrategy[np.ndarray]:
    """NumPy arrays of a data type of the suite (any of :data:`DATA_TYPES` when
    ``data_type`` is None), of ``shape`` or of a drawn shape. Floats include NaN,
    the infinities, -0.0 and subnormals; ``array.dtype.name`` is the Zarr name.

    >>> from hypothesis import find, settings
    >>> array = find(arrays("uint16", [2, 3]), lambda a: a.sum() > 0, settings=settings(database=None))
    >>> array.dtype.name, array.shape
    ('uint16', (2, 3))
    """
    if data_type is not None and data_type not in DATA_TYPES:
        raise ValueError(f"{data_type!r} is not a data type of the suite: {DATA_TYPES}")
    dtypes = st.just(np.dtype(data_type)) if data_type else st.sampled_from([np.dtype(name) for name in DATA_TYPES])
    shapes = (
        st.just(tuple(shape))
        if shape is not None
        else hnp.array_shapes(min_dims=1, max_dims=max_rank, min_side=1, max_side=max_side)
    )
    return hnp.arrays(dtypes, shapes)
