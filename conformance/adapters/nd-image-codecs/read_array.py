#!/usr/bin/env python3
"""Reads one Zarr array whole with zarr-python, nd-image-codecs' `reshape` codec
selected by zarr-python's registry through its `zarr.codecs` entry point.

    python read_array.py --array_path=PATH

Success: exit 0, and stdout holds the elements in C order, one JSON value per line
(integers exact, true/false, floats as JSON numbers or "NaN", "Infinity",
"-Infinity"). Refusal: any nonzero exit, the reason on stderr. Nothing is caught:
every exception, a refusal or a crash, exits 1 with its traceback on stderr, so this
convention cannot tell a crash from a refusal.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np
import zarr


def element(value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps("NaN" if value != value else ("Infinity" if value > 0 else "-Infinity"))
    return json.dumps(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--array_path", required=True)
    path = parser.parse_args().array_path
    # No except clause: whatever zarr-python or the codec raises ends the process with
    # its traceback on stderr and exit status 1 (a refusal and a crash alike).
    array = zarr.open_array(store=zarr.storage.LocalStore(path, read_only=True), mode="r")
    values = np.asarray(array[...]).reshape(-1).tolist()
    sys.stdout.write("".join(element(value) + "\n" for value in values))
    return 0

if __name__ == "__main__":
    sys.exit(main())
