"""Known failures: the runner's expectations file, read as the runner reads it."""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

__all__ = ["MAX_EXPECTATIONS_BYTES", "KnownFailure", "KnownFailures", "listed_ids", "read_bounded"]

#: The runner's bound on an expectations file.
MAX_EXPECTATIONS_BYTES = 16 * 1024 * 1024


class KnownFailure(NamedTuple):
    """One listed case of an expectations file: why it fails, and how (``fail``, ``error``, ``crash``)."""

    reason: str
    outcome: str


class KnownFailures(Mapping[str, KnownFailure]):
    """An expectations file read against a suite: case id -> :class:`KnownFailure`."""

    def __init__(self, text: str, listed: dict[str, KnownFailure], path: Path | None = None) -> None:
        #: The file's text, which the runner's rule reads.
        self.text = text
        self.path = path
        self._listed = listed

    def __getitem__(self, case_id: str) -> KnownFailure:
        return self._listed[case_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._listed)

    def __len__(self) -> int:
        return len(self._listed)

    def __repr__(self) -> str:
        return f"KnownFailures({str(self.path) if self.path else '<text>'!r}, {len(self)} cases)"


def listed_ids(text: str) -> set[str]:
    """Every id the file lists, whether or not the suite has it (to find stale ones)."""
    entries = tomllib.loads(text).get("failure", [])
    return {case_id for entry in entries for case_id in entry.get("ids", [])}


def read_bounded(path: Path) -> str:
    """The text of a regular file of at most 16 MiB, as the runner reads it.

    Raises:
        OSError: it cannot be read, is not a regular file, or is too large.
        ValueError: it is not UTF-8 text.
    """
    # O_NONBLOCK: opening a FIFO must not hang; the type is checked on the open file.
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(f"{path}: not a regular file")
        if status.st_size > MAX_EXPECTATIONS_BYTES:
            raise OSError(f"{path}: larger than {MAX_EXPECTATIONS_BYTES} bytes")
        with os.fdopen(os.dup(descriptor), "rb") as file:
            data = file.read(MAX_EXPECTATIONS_BYTES + 1)
    finally:
        os.close(descriptor)
    if len(data) > MAX_EXPECTATIONS_BYTES:
        raise OSError(f"{path}: larger than {MAX_EXPECTATIONS_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as undecodable:
        # As the runner says it, with the file's name (UnicodeDecodeError has none).
        raise ValueError(f"{path}: not UTF-8 text (byte {undecodable.start})") from None
