#!/usr/bin/env python3
"""Conformance adapter (protocol version 2): nd-image-codecs 0.2.5's `reshape` codec
in zarr-python 3.4.2's own codec pipeline.

nd-image-codecs registers `ReshapeCodec` under the name `reshape` through the
`zarr.codecs` entry point. This adapter never imports it by name: zarr-python's
registry loads it when it meets a codec object named `reshape`, as it does for a
user who opens an array. Operations `resolve`, `encode`, `decode`, `read-array` and
`resolve-chain` go through the calls zarr-python makes (ops.py; README.md says which
calls are zarr-python's own path and which are the adapter's). `map-index` and
`map-region` are no part of the codec: they are not announced, and the runner skips
them.
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from importlib.metadata import PackageNotFoundError, version
from typing import Any

PINNED = {"zarr": "3.4.2", "nd-image-codecs": "0.2.5", "numpy": "2.5.5"}
CLASS = "nd_image_codecs.zarr_codec.ReshapeCodec"
OPERATIONS = ["resolve", "encode", "decode", "read-array", "resolve-chain"]
NOTE = (
    "reshape: nd-image-codecs' ReshapeCodec, selected by zarr-python's codec registry "
    "from the zarr.codecs entry point; zarr-python's own codec pipeline. ValueError, "
    "zarr-python's error classes and the TypeErrors zarr-python raises itself are "
    "refusals (class null); any other exception is a crash"
)

ops: Any = None


def load() -> str | None:
    """Checks the versions, imports zarr-python and checks that its registry selects
    nd-image-codecs' class for `reshape`. Returns None, or why the adapter cannot serve."""
    global ops
    try:
        found = {name: version(name) for name in PINNED}
    except PackageNotFoundError as error:
        return f"not installed: {error}; run setup.sh"
    if found != PINNED:
        return f"measured with {PINNED}, found {found}: run setup.sh"
    try:
        from zarr.registry import get_codec_class

        chosen = get_codec_class("reshape")
        import ops as operations
    except Exception as error:  # noqa: BLE001 - the environment is broken
        return f"cannot load zarr-python's reshape codec: {error!r}; run setup.sh"
    name = f"{chosen.__module__}.{chosen.__qualname__}"
    if name != CLASS:
        return f"zarr-python's registry selects {name} for reshape, not {CLASS}"
    ops = operations
    return None


def run(case: dict[str, Any]) -> dict[str, Any]:
    operation = ops.OPERATIONS.get(case.get("operation"))
    if operation is None:
        return {"skipped": {"reason": f"not an operation of this adapter: {case.get('operation')!r}"}}
    try:
        return operation(case)
    except ops.BadRequest as error:
        return {"errored": {"message": f"a case this adapter cannot read: {error}"}}
    except ops.NotReshape as error:
        # zarr-python hands the object to another codec class: reshape does not take it.
        return {"error": {"class": None, "message": f"not taken as a reshape codec: {error}"}}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # the library's answer: a refusal, or else a crash
        traceback.print_exc(file=sys.stderr)
        if ops.is_refusal(error):
            return {"error": {"class": None, "message": ops.describe(error)}}
        return {"crashed": {"message": ops.describe(error)}}


def start(message: dict[str, Any]) -> dict[str, Any]:
    if message.get("protocol") != 2:
        return {"ok": False, "error": "this adapter speaks protocol version 2 only"}
    why = load()
    if why is not None:
        return {"ok": False, "error": why}
    # The interpreter's version goes into the note, not into `language`: the report
    # (and its committed copy, which CI compares) is the same under 3.12 and 3.13.
    python = ".".join(map(str, sys.version_info[:3]))
    return {
        "ok": True,
        "implementation": {
            "name": "nd-image-codecs",
            "version": f"{PINNED['nd-image-codecs']} (zarr-python {PINNED['zarr']})",
            "language": "python; zarr-python's codec pipeline",
        },
        "operations": OPERATIONS,
        "note": f"{NOTE}; CPython {python}",
    }


def main() -> None:
    from values import TextFloat

    answers = sys.stdout
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line, parse_float=TextFloat)
        except ValueError as error:
            print(f"adapter: a line that is not JSON ({error})", file=sys.stderr)
            continue
        command = message.get("cmd") if isinstance(message, dict) else None
        # Whatever the library prints goes to stderr: stdout carries answers only.
        with contextlib.redirect_stdout(sys.stderr):
            if command == "start":
                answer = start(message)
            elif command == "run":
                try:
                    result = run(message.get("case") or {})
                except Exception as error:  # a fault of this adapter
                    traceback.print_exc(file=sys.stderr)
                    result = {"errored": {"message": repr(error)}}
                answer = {"seq": message.get("seq"), "result": result}
            elif command == "stop":
                return
            else:
                continue
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
