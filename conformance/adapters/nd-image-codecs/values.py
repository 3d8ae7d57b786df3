"""Arrays between the protocol's JSON and numpy, exactly: integers of any width as
Python ints, floats rounded once to their data type, NaN payloads kept as bits."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

FLOAT_BITS = {"float32": np.uint32, "float64": np.uint64}
CORE_TYPES = {
    "bool", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "float32", "float64",
}


class TextFloat(float):
    """A JSON number read as a float that keeps its text, so that a float32 element
    is rounded once, from the decimal as written (json.loads(..., parse_float=TextFloat))."""

    text: str

    def __new__(cls, text: str) -> TextFloat:
        number = super().__new__(cls, text)
        number.text = text
        return number


def plain(value: Any) -> Any:
    """`value` with every TextFloat turned back into a float (for the library)."""
    if isinstance(value, TextFloat):
        return float(value)
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


class BadRequest(Exception):
    """A case this adapter cannot read: no question to the library."""


def _flatten(value: Any, depth: int, out: list[Any]) -> None:
    if depth == 0:
        out.append(value)
        return
    if not isinstance(value, list):
        raise BadRequest("input.data is not nested as deep as input.shape")
    for item in value:
        _flatten(item, depth - 1, out)


def _float32_nearest(value: Fraction) -> np.float32:
    """The float32 nearest to `value` (ties to even), rounded once."""
    guess = np.float32(float(value))  # may be off by one step (double rounding)
    best = guess
    for candidate in (np.nextafter(guess, np.float32(-np.inf)), np.nextafter(guess, np.float32(np.inf))):
        if not np.isfinite(candidate) or not np.isfinite(best):
            continue
        distance, best_distance = abs(Fraction(float(candidate)) - value), abs(Fraction(float(best)) - value)
        if distance < best_distance or (
            distance == best_distance and int(candidate.view(np.uint32)) % 2 == 0
        ):
            best = candidate
    return best


def _float_element(value: Any, data_type: str) -> Any:
    if isinstance(value, str):
        if value == "NaN":
            return np.nan
        if value in ("Infinity", "-Infinity"):
            return math.inf if value == "Infinity" else -math.inf
        if value.startswith("0x"):
            bits = np.array([int(value, 16)], dtype=FLOAT_BITS[data_type])
            return bits.view(data_type)[0]
        raise BadRequest(f"not a float: {value!r}")
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise BadRequest(f"not a float: {value!r}")
    return value


def to_numpy(spec: Any) -> np.ndarray:
    """The protocol's array object ({"data_type", "shape", "data"}) as a numpy array."""
    if not isinstance(spec, dict):
        raise BadRequest("input is not an object")
    data_type, shape = spec.get("data_type"), spec.get("shape")
    if data_type not in CORE_TYPES:
        raise BadRequest(f"unknown data type {data_type!r}")
    if not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise BadRequest("input.shape is not a list of sizes")
    flat: list[Any] = []
    _flatten(spec.get("data"), len(shape), flat)
    if math.prod(shape) != len(flat):
        raise BadRequest("input.data does not hold prod(input.shape) elements")
    if data_type in FLOAT_BITS:
        elements = []
        for value in flat:
            element = _float_element(value, data_type)
            if (
                data_type == "float32"
                and isinstance(element, (int, float))
                and math.isfinite(element)
                and element != 0  # keeps the sign of -0.0
            ):
                exact = Fraction(Decimal(value.text)) if isinstance(value, TextFloat) else Fraction(element)
                element = _float32_nearest(exact)
            elements.append(element)
        return np.array(elements, dtype=data_type).reshape(shape)
    if data_type == "bool":
        if not all(isinstance(v, bool) for v in flat):
            raise BadRequest("a bool element that is not true or false")
    elif not all(isinstance(v, int) and not isinstance(v, bool) for v in flat):
        raise BadRequest("an integer element that is not an integer")
    return np.array(flat, dtype=data_type).reshape(shape)


def _element(value: Any, kind: str, bits: int | None) -> Any:
    if kind != "f":
        return value
    if value != value:
        return "NaN" if bits in (0x7FC00000, 0x7FF8000000000000) else hex(bits or 0)
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def to_json(array: np.ndarray) -> dict[str, Any]:
    """A numpy array as the protocol's answer {"shape", "data"}: nested lists in C
    order; a NaN other than the canonical quiet one as its bits."""
    kind = array.dtype.kind
    flat = array.reshape(-1)
    if kind == "f":
        view = flat.view(FLOAT_BITS[array.dtype.name])
        values = [_element(float(v), kind, int(b)) for v, b in zip(flat.tolist(), view.tolist())]
    else:
        values = flat.tolist()
    shape = list(array.shape)

    def nest(start: int, axis: int) -> tuple[Any, int]:
        if axis == len(shape):
            return values[start], start + 1
        items = []
        for _ in range(shape[axis]):
            item, start = nest(start, axis + 1)
            items.append(item)
        return items, start

    data, _ = nest(0, 0)
    return {"shape": shape, "data": data}
