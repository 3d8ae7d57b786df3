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

from . import _native
from ._api import (
    ChainShapes,
    broken_rules,
    Configuration,
    Explanation,
    Step,
    decode,
    encode,
    explain,
    map_index,
    map_region,
    resolve,
    resolve_chain,
    unmap_index,
)
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

#: The package's version (the Rust crates').
__version__: str = _native.VERSION
#: The release of the embedded suite, e.g. ``"3.0.0"``.
SUITE_VERSION: str = _native.SUITE_VERSION
#: The vector format the embedded suite is written in.
VECTOR_FORMAT: int = _native.VECTOR_FORMAT

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
