#!/usr/bin/env python3
"""`read_array.py --array_path=PATH`: a command-line reader of one Zarr v3 array through
zarr-python 3.4.2 with the zarrs-python 0.2.3 codec pipeline, for the array-path
convention (`$ZARR_CLI --array_path=PATH`, see conformance/adapters/array-path/).

The set-up is adapter.py's own, imported from it: the same pinned versions, the same
pass-through `reshape` codec class, the zarrs pipeline in strict mode, and the same
line between a refusal and a crash. The array is opened and read as a user does
(`zarr.open_array` on a read-only LocalStore, then `array[...]`), and its elements
are printed in C order, one JSON value per line.

Exit status: 0 with the values on stdout; 1 when the libraries refuse the array (a
ValueError, RuntimeError, ... of zarr or zarrs; the message on stderr); 2 for a wrong
command line or when the environment cannot serve (run setup.sh). When they crash
(any other exception, such as a Rust panic inside zarrs-python) the traceback goes to
stderr and the process aborts (SIGABRT), which the runner counts as a crash, not as
a refusal.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter  # the adapter beside this file: load() and the shared rules

REFUSED = 1
USAGE = 2
CRASHED = -1  # not an exit status: main() aborts
# Kinds of numpy data type printed: bool, signed and unsigned integers, floats.
KINDS = "biuf"


def array_path(argv: list[str]) -> str | None:
    """The PATH of the one argument `--array_path=PATH`, or None."""
    if len(argv) != 1 or not argv[0].startswith("--array_path="):
        return None
    path = argv[0].removeprefix("--array_path=")
    return path or None


def element_text(value: Any, kind: str, float32: bool) -> str:
    """One element as one JSON value: exact integers, true/false, floats as numbers
    or "NaN", "Infinity", "-Infinity" (adapter.json_value). A float32 is written in
    the shortest text that reads back as that float32, as numpy prints it."""
    value = adapter.json_value(value, kind == "f")
    if kind == "f" and isinstance(value, float) and float32:
        np: Any = adapter.np
        return str(np.float32(value))
    return json.dumps(value)


def read(path: str) -> tuple[int, list[str]]:
    """The exit status and the lines to print; messages go to stderr."""
    # Set by adapter.load(), which main() has called.
    zarr: Any = adapter.zarr
    np: Any = adapter.np
    try:
        store = zarr.storage.LocalStore(path, read_only=True)
        data = np.asarray(zarr.open_array(store=store, mode="r")[...])
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # noqa: BLE001  (a refusal, or else a crash: adapter.is_rejection)
        traceback.print_exc(file=sys.stderr)
        if adapter.is_rejection(error):
            print(f"read_array.py: refused: {adapter.describe(error)}", file=sys.stderr)
            return REFUSED, []
        print(f"read_array.py: crashed: {adapter.describe(error)}", file=sys.stderr)
        return CRASHED, []
    kind = data.dtype.kind
    if kind not in KINDS:
        print(
            f"read_array.py: zarr-python read data type {data.dtype}, which this "
            "reader does not print",
            file=sys.stderr,
        )
        return REFUSED, []
    float32 = data.dtype == np.float32
    flat = data.ravel(order="C").tolist()
    return 0, [element_text(value, kind, float32) for value in flat]


def main(argv: list[str]) -> int:
    path = array_path(argv)
    if path is None:
        print("usage: read_array.py --array_path=PATH", file=sys.stderr)
        return USAGE
    # Whatever the libraries print goes to stderr: stdout carries the values only.
    with contextlib.redirect_stdout(sys.stderr):
        why = adapter.load()
        if why is not None:
            print(f"read_array.py: {why}", file=sys.stderr)
            return USAGE
        status, lines = read(path)
    if status == CRASHED:
        sys.stderr.flush()
        os.abort()
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
