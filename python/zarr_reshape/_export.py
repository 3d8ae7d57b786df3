"""The embedded suite's temporary folder: an owner marker in it, and earlier
folders of killed processes removed.

``atexit`` does not run when a process is killed (SIGTERM, SIGKILL), and this
module installs no signal handler in its users' processes. Instead each folder
holds ``owner.json`` naming the process that made it; before exporting, folders
of the same scheme whose owner is no longer alive are removed. A folder is only
ever removed when everything holds: its name is of the scheme, it is a real
directory (not a link) owned by the current user, and its marker is a small
regular file, valid, naming a process that is gone. Anything else is kept.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

__all__ = ["PREFIX", "make_export_folder", "remove_stale_exports", "write_owner_marker"]

#: The folder names' prefix (``tempfile.mkdtemp`` adds its random suffix).
PREFIX = "zarr-reshape-suite-"
MARKER = "owner.json"
_SCHEME = "zarr-reshape-suite"
_NAME = re.compile(re.escape(PREFIX) + r"[A-Za-z0-9_]{1,64}")
_MAX_MARKER_BYTES = 4096


def _start_time(pid: int) -> str | None:
    """The process's start time (clock ticks since boot, /proc/PID/stat field 22), where the
    system tells it: with the pid, it names one process even after the pid is reused."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold anything: split after it.
    fields = text[text.rfind(")") + 2 :].split()
    return fields[19] if len(fields) > 19 else None


def write_owner_marker(folder: Path, pid: int | None = None) -> None:
    """Writes ``owner.json`` into ``folder``: the owning process's pid and start time."""
    pid = os.getpid() if pid is None else pid
    marker = {"scheme": _SCHEME, "pid": pid, "start_time": _start_time(pid)}
    (folder / MARKER).write_text(json.dumps(marker), encoding="utf-8")


def make_export_folder() -> Path:
    """A new folder for the export, marked as this process's, after removing stale ones."""
    remove_stale_exports(Path(tempfile.gettempdir()))
    made = Path(tempfile.mkdtemp(prefix=PREFIX))
    write_owner_marker(made)
    return made


def _read_marker(folder: Path) -> tuple[int, str | None] | None:
    """The marker's pid and start time, or ``None`` when it is missing or not valid."""
    path = folder / MARKER
    try:
        status = os.lstat(path)
        if not stat.S_ISREG(status.st_mode) or status.st_size > _MAX_MARKER_BYTES:
            return None
        with path.open("rb") as file:
            marker = json.loads(file.read(_MAX_MARKER_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(marker, dict) or marker.get("scheme") != _SCHEME:
        return None
    pid, started = marker.get("pid"), marker.get("start_time")
    if type(pid) is not int or pid <= 0 or not (started is None or isinstance(started, str)):
        return None
    return pid, started


def _is_gone(pid: int, started: str | None) -> bool:
    """Whether the process the marker names has ended (when unsure: it has not)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists (POSIX)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists, owned by someone else
    now = _start_time(pid)
    # The pid was reused when the live process started at another time than the owner.
    return started is not None and now is not None and now != started


def remove_stale_exports(temp_dir: Path) -> list[Path]:
    """Removes the folders of this scheme in ``temp_dir`` left by processes that are gone
    (killed before ``atexit`` ran); returns them. Never raises."""
    if os.name != "posix" or not hasattr(os, "getuid"):
        return []  # os.kill(pid, 0) would end the process on Windows: no check there
    removed: list[Path] = []
    try:
        entries = list(os.scandir(temp_dir))
    except OSError:
        return removed
    uid = os.getuid()
    for entry in entries:
        if not _NAME.fullmatch(entry.name):
            continue
        try:
            status = os.lstat(entry.path)
        except OSError:
            continue
        if not stat.S_ISDIR(status.st_mode) or status.st_uid != uid:
            continue
        folder = Path(entry.path)
        owner = _read_marker(folder)
        if owner is None or not _is_gone(*owner):
            continue
        try:
            shutil.rmtree(folder)
        except OSError:
            continue  # another process removed it first, or it cannot be: keep going
        removed.append(folder)
    return removed
