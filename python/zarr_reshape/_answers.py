"""Answers in the protocol's result forms, and arrays to and from the vectors' JSON.

An answer is what an implementation did with a case: an output, an error, a skip
or a crash (``conformance/PROTOCOL.md``, "Results"). The judge reads it as JSON
text; these helpers build that text without a JSON detour through floats.

>>> output(encoded_shape=[6, 4]).result
{'encoded_shape': [6, 4]}
>>> error("repeated-auto", "-1 twice").result
{'error': {'class': 'repeated-auto', 'message': '-1 twice'}}
>>> import numpy as np
>>> output_array(np.array([1.5, np.nan, -0.0], dtype=np.float32)).json()
'{"shape": [3], "data": [1.5, "0x7fc00000", -0.0]}'
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ._errors import ReshapeError

__all__ = [
    "Answer",
    "array_from_json",
    "array_to_json",
    "crashed",
    "error",
    "output",
    "output_array",
    "output_json",
    "skipped",
]

#: The protocol's limit on one answer line; a larger answer is refused here too.
MAX_ANSWER_BYTES = 16 * 1024 * 1024

_DATA_TYPES = {
    "bool": np.bool_,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "uint16": np.uint16,
    "uint32": np.uint32,
    "uint64": np.uint64,
    "float32": np.float32,
    "float64": np.float64,
}


@dataclass(frozen=True)
class Answer:
    """One result object of the protocol (``{"encoded_shape": ...}``, ``{"error": ...}``, ...)."""

    #: The result object, as the judge reads it.
    result: dict[str, Any]

    def json(self) -> str:
        """The result as JSON text (integers exact; NaN and infinities are never bare)."""
        return json.dumps(self.result, allow_nan=False)


def output(**members: Any) -> Answer:
    """A successful answer: the operation's members, e.g. ``output(encoded_shape=[6, 4])``.

    A NumPy array among them is written as the vectors write arrays; tuples become lists.
    """
    return Answer({name: _plain(value) for name, value in members.items()})


def output_json(text: str | bytes) -> Answer:
    """A successful answer already written as JSON text (read with exact integers)."""
    if len(text) > MAX_ANSWER_BYTES:
        raise ValueError(f"the answer is {len(text)} bytes, beyond the protocol's {MAX_ANSWER_BYTES}")
    value = json.loads(text)
    if not isinstance(value, dict):
        raise TypeError(f"an output is a JSON object, not {type(value).__name__}")
    return Answer(value)


def output_array(array: np.ndarray) -> Answer:
    """The answer of an ``encode``, ``decode`` or ``read-array`` case: ``{"shape", "data"}``."""
    return Answer({"shape": list(array.shape), "data": array_to_json(array)})


def error(error_class: type[ReshapeError] | ReshapeError | str | None, message: str) -> Answer:
    """A refusal: ``error_class`` is an error class name, a :class:`ReshapeError`
    subclass or instance, or ``None`` when the implementation cannot tell which.

    >>> import zarr_reshape
    >>> error(zarr_reshape.InvalidSize, "0 is no size").result["error"]["class"]
    'invalid-size'
    """
    if isinstance(error_class, ReshapeError) or (
        isinstance(error_class, type) and issubclass(error_class, ReshapeError)
    ):
        error_class = error_class.error_class
    if error_class is not None and not isinstance(error_class, str):
        raise TypeError(f"an error class is a name, a ReshapeError or None, not {error_class!r}")
    return Answer({"error": {"class": error_class, "message": str(message)}})


def skipped(reason: str) -> Answer:
    """The implementation cannot try this case (a data type or an operation it lacks)."""
    return Answer({"skipped": {"reason": str(reason)}})


def crashed(message: str) -> Answer:
    """The implementation failed in a way that is not a refusal (an unexpected exception)."""
    return Answer({"crashed": {"message": str(message)}})


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return array_to_json(value)
    if isinstance(value, np.floating):
        return _float_json(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    return value


def _float_json(scalar: np.floating) -> Any:
    value = float(scalar)
    if math.isfinite(value):
        return value
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    # A NaN is pinned by its bits: sign and payload are part of the answer.
    bits = int(scalar.view(f"u{scalar.itemsize}"))
    return f"0x{bits:0{scalar.itemsize * 2}x}"


def array_to_json(array: np.ndarray) -> Any:
    """An array as the vectors write it: nested lists in C order, a bare value at rank 0.

    >>> array_to_json(np.array([[1, 2], [3, 4]], dtype=np.uint64))
    [[1, 2], [3, 4]]
    >>> array_to_json(np.array(-np.inf))
    '-Infinity'
    """
    array = np.asarray(array)
    if array.dtype.kind != "f":
        return array.tolist()
    # Each element on its own: a NaN keeps its bits (tolist() would not say them).
    elements = [_float_json(scalar) for scalar in array.ravel(order="C")]
    nested = np.empty(len(elements), dtype=object)
    nested[:] = elements
    return nested.reshape(array.shape).tolist()


def array_from_json(value: dict[str, Any]) -> np.ndarray:
    """A vector's ``input`` (``{"data_type", "shape", "data"}``) as a NumPy array.

    Floats are read as the suite defines them: a number rounded once to the data
    type (read the case with ``parse_float=str`` to keep its text), ``"NaN"``,
    ``"Infinity"``, ``"-Infinity"``, or the bits as ``"0x..."``.

    >>> array_from_json({"data_type": "float32", "shape": [2], "data": ["0x7fc00001", "1e-45"]}).view("u4")
    array([2143289345,          1], dtype=uint32)
    """
    name = value["data_type"]
    if name not in _DATA_TYPES:
        raise ValueError(f"{name!r} is not a data type of the suite")
    dtype = np.dtype(_DATA_TYPES[name])
    shape = tuple(value["shape"])
    flat: list[Any] = []
    _flatten(value["data"], len(shape), flat)
    if dtype.kind == "f":
        bits = np.array([_float_bits(item, dtype) for item in flat], dtype=f"u{dtype.itemsize}")
        return bits.view(dtype).reshape(shape)
    return np.array(flat, dtype=dtype).reshape(shape)


def _flatten(data: Any, depth: int, into: list[Any]) -> None:
    if depth == 0:
        into.append(data)
        return
    if not isinstance(data, list):
        raise TypeError("the data nest less deep than the shape")
    for item in data:
        _flatten(item, depth - 1, into)


_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _float_bits(item: Any, dtype: np.dtype) -> int:
    """The bits of one float element, rounded once from its decimal text."""
    width = dtype.itemsize
    if isinstance(item, str) and item.startswith("0x"):
        return int(item, 16)
    if isinstance(item, bool):
        raise TypeError(f"{item!r} is not a float element")
    text = str(item) if isinstance(item, (int, str)) and item not in _SPECIAL else None
    wide = _SPECIAL[item] if item in _SPECIAL else float(item)
    narrow = np.array(wide, dtype=dtype)
    if text is not None and width == 4 and math.isfinite(wide):
        narrow = _round_once(Fraction(text), wide, narrow)
    return int(narrow.view(f"u{width}").item())


def _round_once(exact: Fraction, wide: float, narrow: np.ndarray) -> np.ndarray:
    """float32 from text through float64 rounds twice; redo it where that can differ:
    when the float64 lies exactly halfway between two float32 values."""
    low = np.nextafter(narrow, np.float32(-math.inf), dtype=np.float32)
    high = np.nextafter(narrow, np.float32(math.inf), dtype=np.float32)
    for neighbour in (low, high):
        if math.isfinite(float(neighbour)):
            middle = (Fraction(float(narrow)) + Fraction(float(neighbour))) / 2
            if middle == Fraction(wide) and exact != middle:
                # The text lies on one side of the tie: take that side.
                toward = (exact > middle) == (float(neighbour) > float(narrow))
                return np.array(neighbour if toward else narrow, dtype=np.float32)
    return narrow
