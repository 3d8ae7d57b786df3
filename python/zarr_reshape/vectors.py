"""The conformance suite inside pytest: every case as a parameter, judged by the runner's judge.

An implementer's whole test::

    import pytest
    from zarr_reshape.vectors import cases, error, output

    import my_library  # the implementation under test

    @pytest.mark.parametrize("case", cases(operation="resolve"), ids=str)
    def test_resolve(case):
        try:
            answer = output(encoded_shape=my_library.resolve(case.codec_json, case.decoded_shape))
        except my_library.ReshapeError as refusal:
            answer = error(None, str(refusal))
        case.check(answer)

Give the implementation the whole codec object, never ``case.configuration``
alone: cases of ``codec.name``, ``core.must-understand`` and
``configuration.members`` have their fault outside the configuration.
``case.codec_json`` is its JSON text, numbers as written (for a library that
reads ``zarr.json`` text); ``case.codec`` the same as Python objects, as
``json.loads`` gives them (for one that takes a dict): a size written ``1e400``
is then the float ``inf``.

The embedded suite is exported once per process to a temporary folder, removed
at exit; ``root=`` reads another vector folder (``zarr-reshape run --cases``).

>>> from zarr_reshape.vectors import cases, output
>>> case = cases(operation="resolve", match="shape.input-dims/spec-example-metadata")[0]
>>> case.configuration, case.decoded_shape
({'shape': [[0, 1], [2], 3]}, (100, 50, 64, 3))
>>> case.judge(output(encoded_shape=[5000, 64, 3]))
Outcome(name='pass', reason='')
"""

from __future__ import annotations

import atexit
import fnmatch
import json
import os
import shutil
import threading
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from . import _native
from ._answers import (
    Answer,
    array_from_json,
    crashed,
    error,
    output,
    output_array,
    output_json,
    skipped,
)
from ._export import make_export_folder
from ._select import LEVELS, OPERATIONS, clause_ids, wanted
from ._known import KnownFailure, KnownFailures, listed_ids, read_bounded

__all__ = [
    "Answer", "Case", "KnownFailure", "KnownFailures", "Outcome", "cases", "crashed", "error",
    "known_failures", "output", "output_array", "output_json", "params", "skipped", "suite",
]

_lock = threading.Lock()
_exported: Path | None = None
_loaded: dict[Path | None, tuple[_native.Suite, tuple[Case, ...]]] = {}
#: Known failures `Case.check` uses when given none (the plugin's --zarr-reshape-expectations).
_default_known: KnownFailures | None = None
#: The last verdict of each case checked, for the pytest plugin's summary.
_recorded: dict[str, Verdict] = {}


class Outcome(NamedTuple):
    """The runner's verdict on one answer: ``pass``, ``fail``, ``error``, ``crash`` or ``skip``."""

    name: str
    reason: str

    @property
    def passed(self) -> bool:
        return self.name == "pass"


class Verdict(NamedTuple):
    """What `Case.check` decided, kept for the plugin's summary."""

    case: Case
    outcome: Outcome
    listed: KnownFailure | None
    breaks_run: bool


@dataclass(frozen=True)
class Case:
    """One case of the suite. ``request`` is the case object as an adapter receives it
    (integers exact); the properties read its members."""

    id: str
    level: str
    operation: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    description: str
    request: dict[str, Any] = field(compare=False, hash=False, repr=False)
    #: The same as JSON text, numbers spelled as in the vector file.
    request_json: str = field(compare=False, hash=False, repr=False)
    suite: _native.Suite = field(compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return self.id

    @property
    def clause(self) -> str:
        """The clause under test (the first): the runner files the case under it."""
        return self.clauses[0] if self.clauses else "(none)"

    @property
    def configuration(self) -> Any:
        """The codec's ``configuration`` member (taken from ``codec`` in cases about the codec object)."""
        if "configuration" in self.request:
            return self.request["configuration"]
        codec = self.request.get("codec")
        return codec.get("configuration") if isinstance(codec, dict) else None

    @property
    def codec(self) -> Any:
        """The whole codec object, as in ``zarr.json``: the case's own ``codec``, or
        ``{"name": "reshape", "configuration": ...}`` around its configuration."""
        if "codec" in self.request:
            return self.request["codec"]
        if "configuration" in self.request:
            return {"name": "reshape", "configuration": self.request["configuration"]}
        return None

    @property
    def decoded_shape(self) -> tuple[int, ...]:
        """A_shape (for ``resolve-chain``, the chunk shape)."""
        return tuple(self.request["decoded_shape"])

    @property
    def decoded_index(self) -> tuple[int, ...]:
        return tuple(self.request["decoded_index"])

    @property
    def decoded_region(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(start, stop)``, half-open."""
        region = self.request["decoded_region"]
        return tuple(region["start"]), tuple(region["stop"])

    @property
    def codecs(self) -> list[Any]:
        """``resolve-chain``: the whole ``codecs`` list."""
        return list(self.request["codecs"])

    @property
    def data_type(self) -> str:
        """The data type of the input array, the chain (``resolve-chain``) or the array read."""
        for holder in ("input", "array"):
            if isinstance(self.request.get(holder), dict):
                return str(self.request[holder]["data_type"])
        return str(self.request["data_type"])

    @property
    def array_path(self) -> Path:
        """``read-array``: the absolute path of the array's folder (holding ``zarr.json``)."""
        return Path(self.request["array"]["path"])

    @property
    def codec_json(self) -> str | None:
        """:attr:`codec` as JSON text, every number spelled as in the vector file
        (``1e400`` stays ``1e400``, where :attr:`request` holds ``inf``)."""
        exact = json.loads(self.request_json, parse_float=_Number)
        if "codec" in exact:
            return _dumps(exact["codec"])
        if "configuration" in exact:
            return _dumps({"name": "reshape", "configuration": exact["configuration"]})
        return None

    @property
    def configuration_json(self) -> str | None:
        """:attr:`configuration` as JSON text, numbers as in the vector file."""
        codec = self.codec_json
        if codec is None:
            return None
        member = json.loads(codec, parse_float=_Number)
        return _dumps(member.get("configuration")) if isinstance(member, dict) and "configuration" in member else None

    def input_array(self) -> np.ndarray:
        """``encode`` and ``decode``: the input as a NumPy array, floats bit for bit."""
        return array_from_json(json.loads(self.request_json, parse_float=str)["input"])

    def judge(self, answer: Answer, *, strict: bool = False) -> Outcome:
        """The runner's verdict on ``answer`` (``strict``: as ``--strict-classes``)."""
        name, reason = self.suite.judge(self.id, answer.json(), strict)
        return Outcome(name, reason)

    def check(self, answer: Answer, known: KnownFailures | None = None, *, strict: bool = False) -> Outcome:
        """Judge ``answer`` and act as the runner would, inside a pytest test.

        - breaks the run (a must case failing, any crash or error, a known failure
          that passes or fails otherwise than listed): ``AssertionError`` with the reason;
        - listed in ``known`` and failing as listed: ``pytest.xfail`` with the listed reason;
        - a failure the runner reports but that is not fatal (level should or
          interpretation): ``pytest.xfail`` saying so;
        - ``skip``: ``pytest.skip``.

        ``known`` defaults to the plugin's ``--zarr-reshape-expectations`` file.
        """
        known = _default_known if known is None else known
        outcome = self.judge(answer, strict=strict)
        listed = known.get(self.id) if known is not None else None
        breaks = self.suite.breaks_run(self.id, outcome.name, outcome.reason, None if known is None else known.text)
        _recorded[self.id] = Verdict(self, outcome, listed, breaks)
        if breaks:
            raise AssertionError(_breaking_message(self, outcome, listed))
        if outcome.passed:
            return outcome
        import pytest  # only here: the module works without pytest

        if listed is not None:
            pytest.xfail(f"known failure ({listed.outcome}): {listed.reason}")
        if outcome.name == "skip":
            pytest.skip(outcome.reason)
        pytest.xfail(f"{outcome.name} at level {self.level}, reported but not fatal: {outcome.reason}")
        return outcome  # not reached: pytest.xfail raises


class _Number(str):
    """A non-integral JSON number, kept as its text."""


def _dumps(value: Any) -> str:
    """JSON text in which a :class:`_Number` is written as it was read."""
    if isinstance(value, _Number):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)}: {_dumps(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_dumps(item) for item in value) + "]"
    return json.dumps(value)


def _breaking_message(case: Case, outcome: Outcome, listed: KnownFailure | None) -> str:
    head = f"{case.id} [{case.level}, {case.clause}]"
    if listed is not None and outcome.passed:
        return f"{head}: passes, but the expectations list it as {listed.outcome} ({listed.reason}): remove the entry"
    if listed is not None:
        return f"{head}: {outcome.name}, but listed as {listed.outcome} ({listed.reason}): {outcome.reason}"
    return f"{head}: {outcome.name}: {outcome.reason}"


def _embedded_root() -> Path:
    """The embedded suite, exported on first use into a folder this process made."""
    global _exported
    if _exported is None:
        # Marked as this process's: a later process removes it if this one is killed.
        made = make_export_folder()
        # Remove only the folder made here, at exit, whatever happens before.
        atexit.register(shutil.rmtree, made, True)
        root = made / "suite"
        _native.export_suite(root)
        _exported = root
    return _exported


def _load(root: str | os.PathLike[str] | None) -> tuple[_native.Suite, tuple[Case, ...]]:
    key = None if root is None else Path(root).resolve()
    with _lock:
        if key not in _loaded:
            folder = _embedded_root() if key is None else key
            native = _native.Suite(folder)
            _loaded[key] = (native, tuple(_case(native, row) for row in native.cases()))
        return _loaded[key]


def _case(native: _native.Suite, row: tuple[Any, ...]) -> Case:
    case_id, level, operation, clauses, interpretations, description, text = row
    return Case(
        id=case_id,
        level=level,
        operation=operation,
        clauses=tuple(clauses),
        interpretations=tuple(interpretations),
        description=description,
        request=json.loads(text),
        request_json=text,
        suite=native,
    )


def suite(root: str | os.PathLike[str] | None = None) -> _native.Suite:
    """The native suite (the embedded one, or the vector folder ``root``)."""
    return _load(root)[0]


def cases(
    level: str | Collection[str] | None = None,
    operation: str | Collection[str] | None = None,
    clause: str | Collection[str] | None = None,
    *,
    match: str | None = None,
    root: str | os.PathLike[str] | None = None,
) -> list[Case]:
    """The suite's cases in file order, filtered: ``level``, ``operation`` and
    ``clause`` (the clause under test, the first) each take one name or several;
    ``match`` is a glob on ids as the runner's ``--filter``.

    Raises:
        ValueError: a level, operation or clause that does not exist (naming
            the valid ones), or a ``match`` that no case's id matches (the
            runner's ``--filter`` refuses it too). Filters that each select
            cases may still select none together: that is an empty list.

    >>> len(cases(level="must", operation="map-index")) > 0
    True
    >>> {c.operation for c in cases(operation=["encode", "decode"])} == {"encode", "decode"}
    True
    >>> cases(operation="map_index")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: operation: no such operation 'map_index'; valid: decode, encode, map-index, ...
    """
    loaded = _load(root)[1]
    # Besides the protocol's names, whatever a root folder's cases use.
    levels = wanted("level", level, {*LEVELS, *(case.level for case in loaded)})
    operations = wanted("operation", operation, {*OPERATIONS, *(case.operation for case in loaded)})
    clauses = wanted("clause", clause, {*clause_ids(), *(case.clause for case in loaded)})
    if match is not None and not any(fnmatch.fnmatchcase(case.id, match) for case in loaded):
        raise ValueError(f"match: no case matches {match!r}")  # as the runner's --filter
    return [
        case
        for case in loaded
        if (levels is None or case.level in levels)
        and (operations is None or case.operation in operations)
        and (clauses is None or case.clause in clauses)
        and (match is None or fnmatch.fnmatchcase(case.id, match))
    ]


def params(*args: Any, **kwargs: Any) -> list[Any]:
    """:func:`cases` as ``pytest.param`` objects with their ids, for ``parametrize("case", params(...))``."""
    import pytest

    return [pytest.param(case, id=case.id) for case in cases(*args, **kwargs)]


def known_failures(path: str | os.PathLike[str], *, root: str | os.PathLike[str] | None = None) -> KnownFailures:
    """Reads an expectations file (the runner's ``--expectations`` format) as the
    runner does: a regular file of at most 16 MiB, every entry complete, each
    ``clause`` one of its cases' clauses, and no id that the suite lacks (stale).

    Raises:
        ValueError: the file is not UTF-8 text, breaks a rule of the format, or
            lists a stale id (the message names the file).
        OSError: it cannot be read, or is not a regular file.
    """
    path = Path(path)
    text = read_bounded(path)
    return known_failures_text(text, root=root, path=path)


def known_failures_text(
    text: str, *, root: str | os.PathLike[str] | None = None, path: Path | None = None
) -> KnownFailures:
    """:func:`known_failures` for the file's text."""
    native, all_cases = _load(root)
    where = f"{path}: " if path else ""
    try:
        listed = native.expectations(text)
    except ValueError as refused:
        raise ValueError(f"{where}{refused}") from None
    known_ids = {case.id for case in all_cases}
    stale = sorted(listed_ids(text) - known_ids)
    if stale:
        raise ValueError(f"{where}stale expectations, no case has the ids {stale}")
    return KnownFailures(
        text, {case_id: KnownFailure(reason, outcome) for case_id, (reason, outcome) in listed.items()}, path
    )


def set_default_known_failures(known: KnownFailures | None) -> None:
    """The known failures :meth:`Case.check` uses when given none (set by the plugin)."""
    global _default_known
    _default_known = known


def take_verdict(case_id: str) -> Verdict | None:
    """The verdict :meth:`Case.check` last recorded for a case, forgotten once taken."""
    return _recorded.pop(case_id, None)
