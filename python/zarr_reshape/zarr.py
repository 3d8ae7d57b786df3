"""A zarr-python 3 codec for ``reshape``, backed by the reference.

:class:`ReshapeCodec` is an array -> array codec: every chunk is encoded and
decoded by :func:`zarr_reshape.encode` and :func:`zarr_reshape.decode`, and every
broken rule is raised as the reference's :class:`zarr_reshape.ReshapeError`
subclass. The codec's JSON object is kept as written and handed back unchanged.

Installing the package registers nothing; :func:`register` registers the codec
and selects it, beside any other ``reshape`` implementation installed (for
instance nd-image-codecs'): ``python/docs/zarr.md``.

>>> import numpy as np, zarr, zarr.storage
>>> from zarr_reshape.zarr import ReshapeCodec, register
>>> register()
>>> store = zarr.storage.MemoryStore()
>>> array = zarr.create_array(store, shape=(4, 6), chunks=(2, 6), dtype="int32",
...                           filters=[ReshapeCodec(shape=[-1])], compressors=None)
>>> array[...] = np.arange(24, dtype="int32").reshape(4, 6)
>>> int(zarr.open_array(store, mode="r")[3, 5])
23
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import zarr
from zarr.abc.codec import ArrayArrayCodec
from zarr.core.array_spec import ArraySpec
from zarr.registry import register_codec

from . import _native
from ._api import decode, encode, resolve
from ._arrays import holds_references, target_shape
from ._errors import ReshapeError

if TYPE_CHECKING:
    from typing import Self

    from zarr.core.buffer import NDBuffer
    from zarr.core.metadata.v3 import ChunkGridMetadata

__all__ = ["ReshapeCodec", "register", "QUALIFIED_NAME"]

#: The name zarr-python's registry knows this class by, and the value of the
#: config key ``codecs.reshape`` that selects it.
QUALIFIED_NAME = "zarr_reshape.zarr.ReshapeCodec"

# Refusals the reference makes from the configuration alone, whatever A_shape is.
_SHAPE_FREE_CLASSES = frozenset(
    {"malformed-configuration", "invalid-size", "repeated-auto", "input-dims-not-increasing"}
)


@dataclass(frozen=True, init=False)
class ReshapeCodec(ArrayArrayCodec):
    """The ``reshape`` codec for zarr-python 3, every chunk through the reference.

    Build it from a configuration's ``shape`` (``ReshapeCodec(shape=[[0, 1], -1])``)
    or from the whole codec object (``ReshapeCodec.from_dict(entry)``, as
    zarr-python does when it reads ``zarr.json``).

    Partial decoding: none. zarr-python 3.4.2 decodes part of a chunk only through
    an array -> bytes codec with ``ArrayBytesCodecPartialDecodeMixin``, and only
    when the chain has no array -> array codec (zarr/core/codec_pipeline.py:162-186),
    so a chain holding this codec always decodes whole chunks, then indexes them.

    >>> codec = ReshapeCodec(shape=[[0, 1], -1])
    >>> codec.to_dict()
    {'name': 'reshape', 'configuration': {'shape': [[0, 1], -1]}}
    >>> ReshapeCodec.from_dict({"name": "reshape", "configuration": {"shape": [3, 2.0]}}).to_dict()
    {'name': 'reshape', 'configuration': {'shape': [3, 2.0]}}
    """

    # Same element count and data type in and out: the encoded size is the input's.
    is_fixed_size = True

    #: The codec object as JSON text, as written (member order and number
    #: spellings kept: ``2.0`` stays a float, ``2**64`` an exact int).
    json_text: str

    def __init__(self, *, shape: Any = None, codec: Mapping[str, Any] | None = None) -> None:
        if (shape is None) == (codec is None):
            raise TypeError("give either shape (the configuration's member) or codec (the whole codec object)")
        entry = {"name": "reshape", "configuration": {"shape": shape}} if codec is None else codec
        object.__setattr__(self, "json_text", json.dumps(entry, allow_nan=False))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The codec object as zarr-python parsed it from ``zarr.json``, kept whole.

        The name is checked here; the configuration's rules are checked by
        :meth:`validate` and by every encode and decode.
        """
        if not isinstance(data, Mapping) or data.get("name") != "reshape":
            raise ValueError(f"not a reshape codec object: {data!r}")
        return cls(codec=data)

    def to_dict(self) -> dict[str, Any]:
        """The codec object exactly as it was given (a fresh copy each time)."""
        entry: dict[str, Any] = json.loads(self.json_text)
        return copy.deepcopy(entry)

    def validate(self, *, shape: tuple[int, ...], dtype: Any, chunk_grid: ChunkGridMetadata) -> None:
        """The reference's rules, as far as zarr-python lets a codec know its chunk shape.

        zarr-python calls this with the array's shape, not the chunk shape the
        codec sees (zarr/core/metadata/v3.py:572-576 and :604-605), and without
        the codecs before this one. So it checks:

        - the rules of the configuration alone (malformed configuration, invalid
          size, repeated -1, input dims not increasing), always;
        - every rule against the chunk shape when ``shape`` is the shape of one
          chunk of ``chunk_grid`` (a regular grid of that chunk shape): inside a
          sharding codec, zarr-python validates inner codecs that way
          (zarr/codecs/sharding.py, ``_validate_inner_codecs``).

        Anywhere else, a rule the chunk shape breaks is raised by the first
        encode or decode of a chunk (an array that does not read).

        Raises:
            ReshapeError: the subclass of the first rule broken.
        """
        extents = tuple(int(extent) for extent in shape)
        chunk_shape = getattr(chunk_grid, "chunk_shape", None)
        try:
            resolve(self.json_text, extents)
        except ReshapeError as error:
            if error.error_class in _SHAPE_FREE_CLASSES:
                raise
            if chunk_shape is not None and tuple(int(n) for n in chunk_shape) == extents:
                raise

    def resolve_metadata(self, chunk_spec: ArraySpec) -> ArraySpec:
        """The spec of the encoded chunk: ``B_shape``, the same data type and fill value.

        zarr-python also calls this when it opens an array, with the array's whole
        shape threaded through the chain (zarr/core/metadata/v3.py:572-576), where
        the rules need not hold (they are the chunks'). Where the reference refuses
        the shape it is given, the spec handed on has B_shape's rank (the length of
        ``shape``) and the same element count: a placeholder for zarr-python's
        bookkeeping (a transpose after it checks the rank). No data ever takes that
        shape: encode and decode resolve again, and raise the rule broken.
        """
        try:
            b_shape = resolve(self.json_text, chunk_spec.shape)
        except ReshapeError:
            b_shape = self._placeholder_shape(chunk_spec.shape)
        return ArraySpec(
            shape=b_shape,
            dtype=chunk_spec.dtype,
            fill_value=chunk_spec.fill_value,
            config=chunk_spec.config,
            prototype=chunk_spec.prototype,
        )

    def _placeholder_shape(self, a_shape: Sequence[int]) -> tuple[int, ...]:
        configuration = self.to_dict().get("configuration")
        entries = configuration.get("shape") if isinstance(configuration, Mapping) else None
        rank = len(entries) if isinstance(entries, list) and entries else 1
        count = 1
        for extent in a_shape:
            count *= int(extent)
        return (count,) + (1,) * (rank - 1)

    def compute_encoded_size(self, input_byte_length: int, _chunk_spec: ArraySpec) -> int:
        """Unchanged: reshaping moves no byte in or out."""
        return input_byte_length

    def _encode_sync(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer | None:
        chunk = chunk_array.as_numpy_array()
        if holds_references(chunk.dtype):
            return chunk_array.from_ndarray_like(_moved_by_numpy(_native.encode, self.json_text, chunk, chunk_spec))
        # A view of the chunk whenever the reference returns one (C-contiguous input).
        return chunk_array.from_ndarray_like(encode(self.json_text, chunk, chunk_spec.shape))

    def _decode_sync(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer:
        chunk = chunk_array.as_numpy_array()
        if holds_references(chunk.dtype):
            return chunk_array.from_ndarray_like(_moved_by_numpy(_native.decode, self.json_text, chunk, chunk_spec))
        return chunk_array.from_ndarray_like(decode(self.json_text, chunk, chunk_spec.shape))

    async def _encode_single(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer | None:
        return self._encode_sync(chunk_array, chunk_spec)

    async def _decode_single(self, chunk_array: NDBuffer, chunk_spec: ArraySpec) -> NDBuffer:
        return self._decode_sync(chunk_array, chunk_spec)


def _moved_by_numpy(native: Any, json_text: str, chunk: np.ndarray, chunk_spec: ArraySpec) -> np.ndarray:
    """Objects and variable-width strings point elsewhere, so the reference has no
    bytes of theirs to move: it applies every rule and the shape check to the
    chunk's shape (``target_shape``), and NumPy moves the references in the same C order."""
    shape = target_shape(native, json_text, chunk.shape, [int(extent) for extent in chunk_spec.shape])
    return np.reshape(chunk, shape, order="C")


def register(*, select: bool = True) -> None:
    """Registers :class:`ReshapeCodec` with zarr-python under ``reshape``, as
    :data:`QUALIFIED_NAME`, beside any other ``reshape`` implementation (zarr-python
    keeps each under its qualified name), and with ``select`` chooses it: sets
    zarr-python's ``codecs.reshape`` setting to :data:`QUALIFIED_NAME`.

    Nothing is registered by installing the package (it declares no ``zarr.codecs``
    entry point): a project that installs zarr-reshape to run the suite keeps the
    ``reshape`` codec it had. ``select=False`` only registers; then choose with
    ``zarr.config.set({"codecs.reshape": QUALIFIED_NAME})``, for a block or for good.
    """
    register_codec("reshape", ReshapeCodec, qualname=QUALIFIED_NAME)
    if select:
        zarr.config.set({"codecs.reshape": QUALIFIED_NAME})
