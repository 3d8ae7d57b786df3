"""A small reshape codec in plain Python with one planted bug, for the tests of
zarr_reshape.strategies: does assert_matches_reference find it, and when?"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

#: The bugs a PlantedCodec can have: ``prefix`` never checks input-dims.prefix;
#: ``auto`` gives the -1 the element count divided by the fixed sizes only,
#: forgetting what the input-dims groups take (the reviewer's codec).
FLAWS = ("prefix", "auto")


class Refusal(ValueError):
    def __init__(self, error_class: str) -> None:
        super().__init__(error_class)
        self.error_class = error_class


def _unwrap(configuration: Any) -> Any:
    if isinstance(configuration, dict) and "name" in configuration:
        if set(configuration) - {"name", "configuration"} or configuration["name"] != "reshape":
            raise Refusal("malformed-configuration")
        if "configuration" not in configuration:
            raise Refusal("malformed-configuration")
        configuration = configuration["configuration"]
    if not isinstance(configuration, dict) or set(configuration) != {"shape"}:
        raise Refusal("malformed-configuration")
    if not isinstance(configuration["shape"], list):
        raise Refusal("malformed-configuration")
    return configuration["shape"]


def _check_elements(elements: list[Any], rank: int) -> None:
    for element in elements:
        parts = element if isinstance(element, list) else [element]
        if any(isinstance(part, bool) or not isinstance(part, int) for part in parts):
            raise Refusal("malformed-configuration")
        if isinstance(element, list) and any(dim < 0 for dim in element):
            raise Refusal("malformed-configuration")
        if not isinstance(element, list) and element != -1 and element < 1:
            raise Refusal("invalid-size")
    if elements.count(-1) > 1:
        raise Refusal("repeated-auto")
    flat = [dim for element in elements if isinstance(element, list) for dim in element]
    if any(later <= earlier for earlier, later in itertools.pairwise(flat)):
        raise Refusal("input-dims-not-increasing")
    if any(dim >= rank for dim in flat):
        raise Refusal("input-dim-out-of-range")


def resolve_with(configuration: Any, decoded_shape: list[int], flaw: str | None) -> list[int]:
    """The rules in spec order, less the one ``flaw`` names (None: all of them)."""
    elements = _unwrap(configuration)
    _check_elements(elements, len(decoded_shape))
    extents = [math.prod(decoded_shape[d] for d in e) if isinstance(e, list) else e for e in elements]
    total = math.prod(decoded_shape)
    if -1 in elements:
        if flaw == "auto":  # the planted bug: the groups' extents are not divided out
            known = math.prod(e for e in elements if not isinstance(e, list) and e != -1)
        else:
            known = math.prod(extent for extent in extents if extent != -1)
        if known == 0 or total % known:
            raise Refusal("element-count-mismatch")
        extents[elements.index(-1)] = total // known
    elif math.prod(extents) != total:
        raise Refusal("element-count-mismatch")
    for i, element in enumerate(elements):
        if not isinstance(element, list) or not element:
            continue
        if flaw != "prefix" and math.prod(extents[:i]) != math.prod(decoded_shape[: element[0]]):
            raise Refusal("input-dims-misaligned")
        if math.prod(extents[i + 1 :]) != math.prod(decoded_shape[element[-1] + 1 :]):
            raise Refusal("input-dims-misaligned")
    return extents


def _outcome(configuration: Any, decoded_shape: list[int], flaw: str | None) -> tuple[str, Any]:
    try:
        return "resolved", resolve_with(configuration, decoded_shape, flaw)
    except Refusal as refusal:
        return "refused", refusal.error_class


class PlantedCodec:
    """resolve, encode and decode with the bug ``flaw``. Counts its calls (one a
    Hypothesis example until a disagreement is found) and the first call on which
    the bug changed the answer: where ``assert_matches_reference`` found it."""

    def __init__(self, flaw: str) -> None:
        assert flaw in FLAWS
        self.flaw = flaw
        self.calls = 0
        self.first_changed: int | None = None

    def resolve(self, configuration: Any, decoded_shape: list[int]) -> list[int]:
        self.calls += 1
        buggy = _outcome(configuration, decoded_shape, self.flaw)
        if self.first_changed is None and buggy != _outcome(configuration, decoded_shape, None):
            self.first_changed = self.calls
        return resolve_with(configuration, decoded_shape, self.flaw)

    def encode(self, configuration: Any, array: np.ndarray) -> np.ndarray:
        return array.reshape(self.resolve(configuration, list(array.shape)))

    def decode(self, configuration: Any, array: np.ndarray, decoded_shape: list[int]) -> np.ndarray:
        if list(array.shape) != self.resolve(configuration, decoded_shape):
            raise Refusal("shape-mismatch")
        return array.reshape(decoded_shape)
