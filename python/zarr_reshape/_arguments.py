"""What the Python API hands the native module (configurations as JSON text with
every number exact, shapes and coordinates as checked integers), and the one
place its refusals become ``ReshapeError`` subclasses (:func:`call`). A value
Python can hold but JSON or a chunk cannot is refused here with the class the
library would give it, or with the Python error for a wrong type."""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Callable, TypeVar, Union

import numpy as np

from . import _native
from ._errors import MalformedConfiguration, OutOfBounds, Overflow, _from_native

#: A configuration member or a whole codec object, as JSON text or Python objects.
Configuration = Union[str, bytes, Mapping[str, Any]]

U64_MAX = 2**64 - 1
_T = TypeVar("_T")
#: Deeper than any configuration needs; the library's own text limit is of this order.
MAX_DEPTH = 256


def text(configuration: Configuration | Sequence[Any]) -> str:
    """The configuration (or a codec list) as JSON text: text as given, Python
    objects written with every integer exact (``Decimal`` by its digits, NumPy
    scalars as numbers)."""
    if isinstance(configuration, str):
        return configuration
    if isinstance(configuration, (bytes, bytearray)):
        try:
            return bytes(configuration).decode("utf-8")
        except UnicodeDecodeError as error:
            raise MalformedConfiguration(f"the configuration is not UTF-8 text: {error}", clause="shape.element") from None
    try:
        # The C encoder is fast and writes ints exactly; Decimal needs _json.
        return json.dumps(configuration, allow_nan=False, default=_number)
    except (TypeError, ValueError, RecursionError):
        return _json(configuration, 0)


def _number(value: Any) -> Any:
    """NumPy scalars as the Python numbers they hold (json's ``default`` hook)."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _json(value: Any, depth: int) -> str:
    if depth > MAX_DEPTH:
        raise MalformedConfiguration(f"the configuration nests deeper than {MAX_DEPTH} levels", clause="shape.element")
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise MalformedConfiguration(f"{value} is not a JSON number", clause="shape.element")
        return str(value)
    if isinstance(value, Mapping):
        members = (f"{json.dumps(str(key))}:{_json(item, depth + 1)}" for key, item in value.items())
        return "{" + ",".join(members) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_json(item, depth + 1) for item in value) + "]"
    try:
        return json.dumps(value, allow_nan=False, default=_number)
    except ValueError:
        # NaN and the infinities are no JSON numbers, and no integers (I-6).
        raise MalformedConfiguration(f"{value!r} is not a JSON number", clause="shape.element") from None


def _integers(values: Sequence[int], what: str) -> list[int]:
    out = []
    for value in values:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{what}: {value!r} is a bool, not an integer")
        out.append(operator.index(value))
    return out


def extents(values: Sequence[int], what: str) -> list[int]:
    """A shape: integers from 0 to 2^64 - 1 (chunk extents are uint64 in Zarr v3)."""
    out = _integers(values, what)
    for dim, extent in enumerate(out):
        if extent < 0:
            raise ValueError(f"{what}[{dim}] = {extent} is negative: no shape has a negative extent")
        if extent > U64_MAX:
            raise Overflow(f"{what}[{dim}] = {extent} is beyond 2^64 - 1, the largest chunk extent", clause="limits.u64")
    return out


def coordinates(values: Sequence[int], what: str) -> list[int]:
    """Coordinates: a negative one is the library's to refuse; one beyond 2^64 - 1
    lies outside every array."""
    out = _integers(values, what)
    for dim, coordinate in enumerate(out):
        if abs(coordinate) > U64_MAX:
            raise OutOfBounds(f"{what}[{dim}] = {coordinate} lies outside every array (extents are below 2^64)")
    return out


def call(function: Callable[..., _T], *args: Any) -> _T:
    """``function`` of the native module on ``args``; its refusal as the
    ``ReshapeError`` subclass of its class."""
    try:
        return function(*args)
    except _native.Refused as refused:
        raise _from_native(refused) from None
