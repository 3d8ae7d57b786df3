"""Checked filter values of :func:`zarr_reshape.vectors.cases`: a typo must be an
error, not a selection of no case."""

from __future__ import annotations

import json
from collections.abc import Collection

from . import _native

__all__ = ["LEVELS", "OPERATIONS", "clause_ids", "wanted"]

#: The protocol's operations (conformance/PROTOCOL.md, "operations") and the case levels.
OPERATIONS = (
    "resolve",
    "encode",
    "decode",
    "map-index",
    "map-region",
    "read-array",
    "resolve-chain",
    "resolve-grid",
)
LEVELS = ("must", "should", "interpretation")


def clause_ids() -> set[str]:
    """The ids of the spec's clauses, from the suite's clause registry."""
    return {str(clause["id"]) for clause in json.loads(_native.clauses_json())["clauses"]}


def wanted(name: str, value: str | Collection[str] | None, valid: Collection[str]) -> frozenset[str] | None:
    """The values asked for, each checked: a typo would otherwise select nothing, silently."""
    if value is None:
        return None
    chosen = frozenset([value] if isinstance(value, str) else value)
    unknown = sorted(chosen - set(valid))
    if unknown:
        raise ValueError(f"{name}: no such {name} {', '.join(map(repr, unknown))}; valid: {', '.join(sorted(valid))}")
    return chosen
