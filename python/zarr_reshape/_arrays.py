"""Encode and decode on NumPy arrays, through the reference's own encode and
decode: the codec moves elements and never reads them, so every element crosses
as bytes the reference moves as a whole."""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np

from . import _native
from ._arguments import Configuration, call, text


def holds_references(dtype: np.dtype) -> bool:
    """Objects and variable-width strings: elements that point elsewhere, with no
    bytes of their own for the reference to move."""
    return bool(dtype.hasobject or dtype.kind in "OT")


def target_shape(native: Callable[..., np.ndarray], configuration: Configuration, array_shape: tuple[int, ...], shape: list[int] | None) -> tuple[int, ...]:
    """The shape ``native`` gives an array of ``array_shape``, every rule and the
    shape check applied, on a stand-in without memory (a zero-stride view)."""
    stand_in = np.broadcast_to(np.zeros((), np.uint8), array_shape)
    return tuple(call(native, text(configuration), stand_in, shape).shape)


def check_movable(array: Any) -> np.ndarray:
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected a numpy.ndarray, got {type(array).__name__}")
    if isinstance(array, np.ma.MaskedArray):
        raise TypeError("a masked array would lose its mask: reshape its data and its mask one after the other")
    if holds_references(array.dtype):
        raise TypeError(
            f"data type {array.dtype} holds references (Python objects or strings), not values: "
            "the reference moves fixed-size elements only"
        )
    return array


def transform(native: Callable[..., np.ndarray], configuration: Configuration, array: np.ndarray, shape: list[int] | None) -> np.ndarray:
    """``native`` (``_native.encode`` or ``_native.decode``) on ``array``; ``shape``
    is A_shape (None for encode: the array's own)."""
    array = check_movable(array)
    dtype, configuration_text = array.dtype, text(configuration)
    if dtype.itemsize in (1, 2, 4, 8):
        # Any data type of these sizes crosses as the unsigned integer of its size.
        carrier = np.dtype(f"=u{dtype.itemsize}")
        return call(native, configuration_text, array.view(carrier), shape).view(dtype)
    # Other sizes (complex128, float128, structured, fixed-width text): the rules
    # and the shapes on a stand-in (target_shape), then the
    # bytes of each element as one more, trailing dimension that a trailing
    # input-dims group carries along: ravel(B) == ravel(A) element by element.
    target = target_shape(native, configuration_text, array.shape, shape)
    if array.size == 0:
        return np.reshape(array, target)
    b_shape = target if native is _native.encode else array.shape
    a_shape = array.shape if native is _native.encode else target
    with_bytes = json.dumps({"shape": [*map(int, b_shape), [len(a_shape)]]})
    as_bytes = array[..., np.newaxis].view(np.uint8)
    moved = call(native, with_bytes, as_bytes, [*map(int, a_shape), dtype.itemsize])
    return moved.view(dtype)[..., 0]

