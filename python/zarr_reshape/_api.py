"""The reference, called from Python: every function here is the Rust library's.

A configuration is the codec's ``configuration`` member (``{"shape": [...]}``) or
a whole codec object (``{"name": "reshape", "configuration": {...}}``), given as
JSON text or as Python objects (``dict``, ``list``, ``int``). Integers stay exact
both ways: Python ``int`` in and out, never a float.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _native
from ._arguments import Configuration, call, coordinates, extents
from ._arguments import text as _text
from ._arrays import transform
from ._errors import ReshapeError

__all__ = [
    "Configuration",
    "ChainShapes",
    "Explanation",
    "Step",
    "resolve",
    "explain",
    "broken_rules",
    "encode",
    "decode",
    "map_index",
    "unmap_index",
    "map_region",
    "resolve_chain",
]

def resolve(configuration: Configuration, decoded_shape: Sequence[int]) -> tuple[int, ...]:
    """``B_shape``: the encoded shape for chunks of ``decoded_shape`` (``A_shape``).

    >>> import zarr_reshape
    >>> zarr_reshape.resolve({"shape": [[0, 1], -1]}, [2, 3, 4])
    (6, 4)
    >>> zarr_reshape.resolve('{"shape": [3, [1], -1]}', [2, 3, 6])
    Traceback (most recent call last):
    ...
    zarr_reshape.InputDimsMisaligned: [input-dims-misaligned] (input-dims.prefix at shape[1]): ...

    Raises:
        ReshapeError: the subclass of the first rule broken (``MalformedConfiguration``,
            ``InvalidSize``, ...), with its clause and position.
        Overflow: an extent of ``decoded_shape`` beyond 2^64 - 1 (chunk shapes
            are ``uint64`` in Zarr v3); a negative one is a ``ValueError``.
    """
    return tuple(call(_native.resolve, _text(configuration), extents(decoded_shape, "decoded_shape")))


@dataclass(frozen=True)
class Step:
    """One rule evaluated while resolving."""

    #: The clause id, e.g. ``"input-dims.prefix"``.
    clause: str
    #: Where in ``shape``: ``"shape[1]"``, ``"shape[0][2]"``, or ``None``.
    at: str | None
    #: The formula with its numbers, e.g. ``prod(B_shape[:1]) = 2, prod(A_shape[:2]) = 6``.
    detail: str
    #: ``"defines"``, ``"holds"`` or ``"violated"``.
    verdict: str


@dataclass(frozen=True)
class Explanation:
    """A resolution explained clause by clause: what ``zarr-reshape resolve`` prints."""

    a_shape: tuple[int, ...]
    steps: tuple[Step, ...]
    #: ``B_shape``, or ``None`` when a rule was broken.
    b_shape: tuple[int, ...] | None
    #: The first rule broken, or ``None``.
    error: ReshapeError | None
    #: The command line's lines.
    text: str
    #: The same, quoting the spec's sentence under a broken MUST rule.
    text_with_spec: str

    def __str__(self) -> str:
        return self.text


def explain(configuration: Configuration, decoded_shape: Sequence[int]) -> Explanation:
    """The resolution of ``configuration`` against ``decoded_shape``, step by step.

    It never raises for a broken rule: the rule is in ``error`` and in the steps.

    >>> import zarr_reshape
    >>> explanation = zarr_reshape.explain({"shape": [3, [1], -1]}, [2, 3, 6])
    >>> explanation.error.clause, explanation.error.position
    ('input-dims.prefix', 'shape[1]')
    >>> print(explanation.steps[-1].detail)
    prod(B_shape[:1]) = 3, prod(A_shape[:1]) = 2
    """
    answer = json.loads(_native.explain(_text(configuration), extents(decoded_shape, "decoded_shape")))
    error = answer.get("error")
    if error is not None:
        from ._errors import error_class

        error = error_class(error["class"])(error["message"], clause=error["clause"], position=error["position"])
    b_shape = answer.get("b_shape")
    return Explanation(
        a_shape=tuple(answer["a_shape"]),
        steps=tuple(Step(**step) for step in answer["steps"]),
        b_shape=None if b_shape is None else tuple(b_shape),
        error=error,
        text=answer["text"],
        text_with_spec=answer["text_with_spec"],
    )


def broken_rules(configuration: Configuration, decoded_shape: Sequence[int]) -> list[tuple[str, str]]:
    """Every rule ``configuration`` breaks on ``decoded_shape``, each evaluated on
    its own, as (clause id, error class) pairs in the spec's order: where
    :func:`resolve` stops at the first, this lists them all (the suite's own
    check that a vector breaks the rule it names, and no other).

    >>> import zarr_reshape
    >>> zarr_reshape.broken_rules({"shape": [-1, -1, [1, 0]]}, [2, 3])
    [('shape.auto.once', 'repeated-auto'), ('input-dims.increasing', 'input-dims-not-increasing'), ('input-dims.suffix', 'input-dims-misaligned')]
    >>> zarr_reshape.broken_rules({"shape": [[0, 1], -1]}, [2, 3, 4])
    []
    """
    return list(_native.broken_rules(_text(configuration), extents(decoded_shape, "decoded_shape")))


def encode(configuration: Configuration, decoded: np.ndarray, decoded_shape: Sequence[int] | None = None) -> np.ndarray:
    """``decoded`` (of shape ``A_shape``) reshaped to ``B_shape``, in C order.

    ``A_shape`` is ``decoded_shape`` when given (a codec is set up for its chunk
    shape; an array of another shape is ``ShapeMismatch``), else ``decoded.shape``.

    The result is a view of ``decoded`` whenever the reference returns one
    (for a C-contiguous array, always), and the reference's copy otherwise.

    >>> import numpy as np, zarr_reshape
    >>> a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    >>> b = zarr_reshape.encode({"shape": [[0, 1], -1]}, a)
    >>> b.shape, np.shares_memory(a, b)
    ((6, 4), True)

    Raises:
        ReshapeError: a broken rule; ``ShapeMismatch`` when ``decoded`` does not
            have ``decoded_shape``.
        TypeError: not an ndarray, a masked array, or elements that are
            references (object, variable-width strings) rather than values.
    """
    shape = None if decoded_shape is None else extents(decoded_shape, "decoded_shape")
    return transform(_native.encode, configuration, decoded, shape)


def decode(configuration: Configuration, encoded: np.ndarray, decoded_shape: Sequence[int]) -> np.ndarray:
    """``encoded`` (of shape ``B_shape``) reshaped back to ``decoded_shape``.

    >>> import numpy as np, zarr_reshape
    >>> b = np.arange(24, dtype=np.float64).reshape(6, 4)
    >>> zarr_reshape.decode({"shape": [[0, 1], -1]}, b, [2, 3, 4]).shape
    (2, 3, 4)

    Raises:
        ShapeMismatch: ``encoded`` does not have the shape the configuration
            resolves to for ``decoded_shape``.
    """
    return transform(_native.decode, configuration, encoded, extents(decoded_shape, "decoded_shape"))


def map_index(configuration: Configuration, decoded_shape: Sequence[int], decoded_index: Sequence[int]) -> tuple[int, ...]:
    """The encoded coordinates of the decoded element at ``decoded_index``.

    >>> import zarr_reshape
    >>> zarr_reshape.map_index({"shape": [[0, 1], -1]}, [2, 3, 4], [1, 2, 3])
    (5, 3)
    """
    args = (_text(configuration), extents(decoded_shape, "decoded_shape"), coordinates(decoded_index, "decoded_index"))
    return tuple(call(_native.map_index, *args))


def unmap_index(configuration: Configuration, decoded_shape: Sequence[int], encoded_index: Sequence[int]) -> tuple[int, ...]:
    """The decoded coordinates of the encoded element at ``encoded_index``: the inverse of :func:`map_index`.

    >>> import zarr_reshape
    >>> zarr_reshape.unmap_index({"shape": [[0, 1], -1]}, [2, 3, 4], [5, 3])
    (1, 2, 3)
    """
    args = (_text(configuration), extents(decoded_shape, "decoded_shape"), coordinates(encoded_index, "encoded_index"))
    return tuple(call(_native.unmap_index, *args))


def map_region(
    configuration: Configuration, decoded_shape: Sequence[int], start: Sequence[int], stop: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    """The encoded coordinates of every element of the decoded box ``start..stop``
    (stop exclusive), in C order, one at a time: memory stays constant whatever
    the box's size. The box is checked before the first element.

    >>> import zarr_reshape
    >>> list(zarr_reshape.map_region({"shape": [[0, 1], -1]}, [2, 3, 4], [1, 2, 2], [2, 3, 4]))
    [(5, 2), (5, 3)]
    """
    args = (
        _text(configuration),
        extents(decoded_shape, "decoded_shape"),
        coordinates(start, "start"),
        coordinates(stop, "stop"),
    )
    indices = call(_native.map_region, *args)

    def walk() -> Iterator[tuple[int, ...]]:
        # Each step may still be refused (checked arithmetic): through call() too.
        while (index := call(next, indices, None)) is not None:
            yield tuple(index)

    return walk()


@dataclass(frozen=True)
class ChainShapes:
    """The shapes a codec chain hands on for one chunk shape (``resolve-chain``)."""

    #: The shape each array -> array codec encodes to, in chain order.
    encoded_shapes: tuple[tuple[int, ...], ...]
    #: For ``sharding_indexed``: the same for its inner chain and inner chunk shape.
    inner: ChainShapes | None = None

    @classmethod
    def _from_json(cls, value: dict[str, Any]) -> ChainShapes:
        inner = value.get("inner")
        return cls(
            encoded_shapes=tuple(tuple(shape) for shape in value["encoded_shapes"]),
            inner=None if inner is None else cls._from_json(inner),
        )


def resolve_chain(codecs: str | Sequence[Mapping[str, Any]], chunk_shape: Sequence[int], data_type: str) -> ChainShapes:
    """Every step's encoded shape for a whole ``codecs`` list (as in ``zarr.json``).

    >>> import zarr_reshape
    >>> chain = [{"name": "reshape", "configuration": {"shape": [[0, 1], -1]}}, {"name": "bytes", "configuration": {"endian": "little"}}]
    >>> zarr_reshape.resolve_chain(chain, [2, 3, 4], "int32").encoded_shapes
    ((6, 4),)

    Raises:
        ReshapeError: the class of the first refusal; ``clause`` is ``None`` when
            it is not the reshape codec's own (a transpose order of another length,
            codecs out of order).
        NotImplementedError: a codec the reference does not implement.
        ValueError: a data type that is not one of the suite's.
    """
    text = codecs if isinstance(codecs, str) else _text(list(codecs))
    answer = call(_native.resolve_chain, text, extents(chunk_shape, "chunk_shape"), data_type)
    return ChainShapes._from_json(json.loads(answer))
