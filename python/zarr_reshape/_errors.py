"""The refusals of the reshape codec, one class per error class of the suite.

Every refusal is a :class:`ReshapeError`; its subclass names the error class
(``spec-cases/README.md``), so ``except InputDimsMisaligned`` catches exactly the
prefix and suffix rules. Each carries what the ``zarr-reshape`` command shows.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "ReshapeError",
    "MalformedConfiguration",
    "InvalidSize",
    "RepeatedAuto",
    "InputDimsNotIncreasing",
    "InputDimOutOfRange",
    "ElementCountMismatch",
    "InputDimsMisaligned",
    "Overflow",
    "ShapeMismatch",
    "OutOfBounds",
    "error_class",
]


class ReshapeError(ValueError):
    """A rule of the reshape codec was broken.

    Attributes:
        error_class: the suite's error class, e.g. ``"input-dims-misaligned"``.
        clause: the clause id the rule comes from, e.g. ``"input-dims.prefix"``,
            or ``None`` where the refusal is not the reshape codec's own (another
            codec of a chain).
        position: where in ``shape`` the rule broke (``"shape[1]"``,
            ``"shape[0][2]"``), or ``None``.
        message: the message the command line shows.
    """

    error_class: ClassVar[str] = ""

    def __init__(self, message: str, *, clause: str | None = None, position: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.clause = clause
        self.position = position

    def __str__(self) -> str:
        where = f" at {self.position}" if self.position else ""
        clause = f" ({self.clause}{where})" if self.clause else where
        return f"[{self.error_class}]{clause}: {self.message}"

    def __reduce__(self) -> tuple[Any, tuple[str, str, str | None, str | None]]:
        # Pickling keeps the fields (pytest-xdist, multiprocessing).
        return (_rebuild, (type(self).error_class, self.message, self.clause, self.position))


class MalformedConfiguration(ReshapeError):
    """The configuration is not a valid reshape configuration (its JSON form)."""

    error_class = "malformed-configuration"


class InvalidSize(ReshapeError):
    """A fixed size is not a positive integer."""

    error_class = "invalid-size"


class RepeatedAuto(ReshapeError):
    """More than one -1 in shape."""

    error_class = "repeated-auto"


class InputDimsNotIncreasing(ReshapeError):
    """Input dims are not strictly increasing across shape."""

    error_class = "input-dims-not-increasing"


class InputDimOutOfRange(ReshapeError):
    """An input dim is not a dimension of the decoded array."""

    error_class = "input-dim-out-of-range"


class ElementCountMismatch(ReshapeError):
    """prod(B_shape) cannot equal prod(A_shape)."""

    error_class = "element-count-mismatch"


class InputDimsMisaligned(ReshapeError):
    """A group of input dims is not where the prefix or suffix rule puts it."""

    error_class = "input-dims-misaligned"


class Overflow(ReshapeError):
    """A product of extents is beyond what the implementation holds (2^64)."""

    error_class = "overflow"


class ShapeMismatch(ReshapeError):
    """An array or coordinate does not have the shape or rank the codec expects."""

    error_class = "shape-mismatch"


class OutOfBounds(ReshapeError):
    """A coordinate or box lies outside the array."""

    error_class = "out-of-bounds"


# One subclass per class above; test_api.py checks they are the library's classes.
_BY_CLASS: dict[str, type[ReshapeError]] = {cls.error_class: cls for cls in ReshapeError.__subclasses__()}


# Shown as `zarr_reshape.InvalidSize`, where users import them from.
for _cls in (ReshapeError, *_BY_CLASS.values()):
    _cls.__module__ = "zarr_reshape"


def error_class(name: str) -> type[ReshapeError]:
    """The :class:`ReshapeError` subclass of an error class name.

    >>> error_class("repeated-auto").__name__
    'RepeatedAuto'
    """
    try:
        return _BY_CLASS[name]
    except KeyError:
        raise KeyError(f"{name!r} is not an error class of the suite: {sorted(_BY_CLASS)}") from None


def _rebuild(name: str, message: str, clause: str | None, position: str | None) -> ReshapeError:
    return error_class(name)(message, clause=clause, position=position)


def _from_native(refused: BaseException) -> ReshapeError:
    """The native ``Refused`` (class, clause, position, message) as its subclass."""
    name, clause, position, message = refused.args
    return error_class(name)(message, clause=clause, position=position)
