"""The Zarr v3 ``reshape`` codec's reference implementation and conformance suite.

- The reference as a library: :func:`resolve`, :func:`explain`, :func:`encode`,
  :func:`decode`, :func:`map_index`, :func:`broken_rules`, :func:`unmap_index`, :func:`map_region`,
  :func:`resolve_chain`; every refusal a :class:`ReshapeError` subclass.
- The suite inside pytest: :mod:`zarr_reshape.vectors`.
- Hypothesis strategies with the reference as oracle: :mod:`zarr_reshape.strategies`.
- A zarr-python codec backed by the reference: :mod:`zarr_reshape.zarr`.
- The ``zarr-reshape`` command (the conformance runner) on ``PATH``.

>>> import zarr_reshape
>>> zarr_reshape.resolve({"shape": [[0, 1], -1]}, [2, 3, 4])
(6, 4)
"""

import importlib
from typing import TYPE_CHECKING, Any

from ._errors import (
    ElementCountMismatch,
    InputDimOutOfRange,
    InputDimsMisaligned,
    InputDimsNotIncreasing,
    InvalidSize,
    MalformedConfiguration,
    OutOfBounds,
    Overflow,
    RepeatedAuto,
    ReshapeError,
    ShapeMismatch,
    error_class,
)

if TYPE_CHECKING:
    from . import _native
    from ._api import (
        ChainShapes,
        Configuration,
        Explanation,
        Step,
        broken_rules,
        decode,
        encode,
        explain,
        map_index,
        map_region,
        resolve,
        resolve_chain,
        unmap_index,
    )

    __version__: str
    SUITE_VERSION: str
    VECTOR_FORMAT: int

# The reference (NumPy, the native module) is imported on first use, not with the
# package: the pytest plugin (zarr_reshape.pytest_plugin) loads in every pytest
# session of anyone who has the package installed, and must cost nothing there.
_FROM_API = frozenset(
    {"ChainShapes", "Configuration", "Explanation", "Step", "broken_rules", "decode", "encode", "explain",
     "map_index", "map_region", "resolve", "resolve_chain", "unmap_index"}
)
#: ``__version__`` (the Rust crates'), ``SUITE_VERSION`` (the embedded suite's release,
#: e.g. ``"3.0.0"``) and ``VECTOR_FORMAT`` (its vector format), from the native module.
_FROM_NATIVE = {"__version__": "VERSION", "SUITE_VERSION": "SUITE_VERSION", "VECTOR_FORMAT": "VECTOR_FORMAT"}


def __getattr__(name: str) -> Any:
    if name in _FROM_API:
        value = getattr(importlib.import_module("._api", __name__), name)
    elif name in _FROM_NATIVE:
        value = getattr(importlib.import_module("._native", __name__), _FROM_NATIVE[name])
    elif name == "_native":
        value = importlib.import_module("._native", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # once: later lookups find it without this function
    return value


__all__ = [
    "ChainShapes",
    "Configuration",
    "ElementCountMismatch",
    "Explanation",
    "InputDimOutOfRange",
    "InputDimsMisaligned",
    "InputDimsNotIncreasing",
    "InvalidSize",
    "MalformedConfiguration",
    "OutOfBounds",
    "Overflow",
    "RepeatedAuto",
    "ReshapeError",
    "SUITE_VERSION",
    "ShapeMismatch",
    "Step",
    "VECTOR_FORMAT",
    "broken_rules",
    "decode",
    "encode",
    "error_class",
    "explain",
    "map_index",
    "map_region",
    "resolve",
    "resolve_chain",
    "unmap_index",
]
