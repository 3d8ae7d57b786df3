"""The ``zarr-reshape`` console script: the runner inside the extension module."""

from __future__ import annotations

import sys

from . import _native


def main() -> int:
    """Runs ``zarr-reshape`` with this process's arguments and returns its exit code."""
    # The program name is the command's own, whatever path the script was started by.
    return _native.command_line(["zarr-reshape", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
