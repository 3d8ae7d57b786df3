"""Disagreements written as suite vectors (``spec-cases/vector.schema.json``):
the case a maintainer pastes into a vector file. Public names are re-exported
by :mod:`zarr_reshape.strategies`.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import numpy as np

from . import _native
from ._api import ChainShapes, explain

_REGISTRY = frozenset(clause["id"] for clause in json.loads(_native.clauses_json())["clauses"])
# Readings an expectation rests on (clauses.json): E2 gives the prefix rule its
# slice, I-4 the classes of an input dim that names no dimension.
_READINGS = {"input-dims.prefix": ["E2"], "input-dims.range": ["I-4"], "shape.input-dims": ["I-4"]}


class ReferenceMismatch(AssertionError):
    """The codec and the reference disagree; ``vector`` is the case that shows it."""

    def __init__(self, message: str, vector: dict[str, Any], answer: dict[str, Any]) -> None:
        super().__init__(message)
        #: The case, in the suite's vector format.
        self.vector = vector
        #: The codec's answer as a result of the conformance protocol
        #: (the operation's output, ``{"encoded_shape": [...]}``, or
        #: ``{"error": {"class", "message"}}``), for
        #: ``zarr_reshape.vectors.Case.judge(zarr_reshape.vectors.Answer(answer))``.
        self.answer = answer


def _element(value: Any, dtype: np.dtype) -> Any:
    """An element as a vector writes it: floats exact, bits where a number cannot say it."""
    if dtype.kind == "b":
        return bool(value)
    if dtype.kind in "iu":
        return int(value)
    number = float(value)
    if math.isfinite(number) and not (number == 0.0 and math.copysign(1.0, number) < 0):
        return number  # a float32 widened to float64 is exact, and rounds back to itself
    bits = int(np.asarray(value, dtype=dtype).view(f"u{dtype.itemsize}"))
    return f"0x{bits:0{dtype.itemsize * 2}x}"


def _nest(flat: list[Any], shape: tuple[int, ...]) -> Any:
    if not shape:
        return flat[0]
    step = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def array_json(array: np.ndarray) -> dict[str, Any]:
    """``{"data_type", "shape", "data"}`` of the suite's array form."""
    flat = [_element(value, array.dtype) for value in np.ascontiguousarray(array).reshape(-1)]
    return {"data_type": array.dtype.name, "shape": list(array.shape), "data": _nest(flat, array.shape)}


def _clauses(configuration: Any, decoded_shape: list[int], first: str | None, operation: str) -> list[str]:
    """The clause under test first, then every clause the reference evaluated."""
    # Rules that define an extent or were broken, and the rules that compare
    # extents; not the checks that merely found nothing ("no -1").
    compared = ("shape.invariant", "input-dims.prefix", "input-dims.suffix")
    steps = [
        s.clause for s in explain(configuration, decoded_shape).steps if s.verdict != "holds" or s.clause in compared
    ]
    ordered = [first] if first else ["algorithm.ravel"] if operation != "resolve" else []
    for clause in sorted(steps, key=lambda clause: clause == "shape.element"):
        if clause not in ordered:
            ordered.append(clause)
    return [clause for clause in ordered if clause in _REGISTRY] or ["shape.element"]


def as_vector(
    operation: str,
    configuration: Any,
    decoded_shape: list[int],
    expect: dict[str, Any],
    *,
    clause: str | None = None,
    description: str,
    input_array: np.ndarray | None = None,
) -> dict[str, Any]:
    """A case in the suite's vector format (``spec-cases/vector.schema.json``),
    ready to go into ``{"format": 1, "cases": [...]}``.

    >>> from zarr_reshape.strategies import as_vector
    >>> case = as_vector("resolve", {"shape": [[0, 1], -1]}, [2, 3, 4], {"encoded_shape": [6, 4]}, description="d")
    >>> case["id"].startswith("shape.input-dims/hypothesis-"), case["clauses"][:2]
    (True, ['shape.input-dims', 'shape.auto.value'])
    """
    clauses = _clauses(configuration, decoded_shape, clause, operation)
    is_codec = isinstance(configuration, dict) and "name" in configuration
    case: dict[str, Any] = {"id": "", "description": description, "clauses": clauses}
    if clause in _READINGS:
        case["interpretations"] = _READINGS[clause]
    case.update({"level": "must", "operation": operation, ("codec" if is_codec else "configuration"): configuration})
    case["decoded_shape"] = list(decoded_shape)
    if input_array is not None:
        case["input"] = array_json(input_array)
    case["expect"] = expect
    digest = hashlib.sha256(json.dumps(case, sort_keys=True).encode()).hexdigest()[:10]
    case["id"] = f"{clauses[0]}/hypothesis-{operation}-{digest}"
    return case


def chain_json(shapes: ChainShapes) -> dict[str, Any]:
    """A :class:`zarr_reshape.ChainShapes` as the ``resolve-chain`` answer writes it."""
    answer: dict[str, Any] = {"encoded_shapes": [list(shape) for shape in shapes.encoded_shapes]}
    if shapes.inner is not None:
        answer["inner"] = chain_json(shapes.inner)
    return answer


def chain_vector(
    codecs: list[dict[str, Any]],
    chunk_shape: list[int],
    data_type: str,
    expect: dict[str, Any],
    *,
    clause: str,
    description: str,
) -> dict[str, Any]:
    """A ``resolve-chain`` case; such cases are filed under ``algorithm.rank``
    unless the reshape in the chain breaks a rule of its own (``clause``)."""
    clauses = [clause] if clause == "algorithm.rank" else [clause, "algorithm.rank"]
    case: dict[str, Any] = {"id": "", "description": description, "clauses": clauses}
    if clause in _READINGS:
        case["interpretations"] = _READINGS[clause]
    case.update(level="must", operation="resolve-chain", codecs=codecs, data_type=data_type)
    case.update(decoded_shape=list(chunk_shape), expect=expect)
    digest = hashlib.sha256(json.dumps(case, sort_keys=True).encode()).hexdigest()[:10]
    case["id"] = f"{clause}/hypothesis-chain-{digest}"
    return case


def vector_text(case: dict[str, Any]) -> str:
    """A case as the hand-written vector files lay it out: one member a line.

    >>> print(vector_text({"id": "a/b", "decoded_shape": [2, 3]}))
    {
      "id": "a/b",
      "decoded_shape": [2, 3]
    }
    """
    members = ",\n".join(f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in case.items())
    return "{\n" + members + "\n}"
