#!/usr/bin/env python3
"""An independent reshape adapter (protocol version 2) with one bug planted on demand.

Without RESHAPE_BUG it implements resolve, encode, decode, map-index, map-region,
resolve-chain and resolve-grid correctly, from the spec and spec-cases/README.md only (no code of this repository's
src/). With RESHAPE_BUG=<name> (see bugs.py, or `adapter.py --list`) it behaves like
an implementation with that one bug. Standard library only.
"""
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bugs import ACTIVE, BUGS  # noqa: E402
from chain import resolve_chain  # noqa: E402
from codec import ReshapeError, Skip  # noqa: E402
from grid import resolve_grid  # noqa: E402
from operations import decode, encode, map_index, map_region  # noqa: E402
from resolve import resolve  # noqa: E402

OPERATIONS = {
    "resolve": resolve,
    "encode": encode,
    "decode": decode,
    "map-index": map_index,
    "map-region": map_region,
    "resolve-chain": resolve_chain,
    "resolve-grid": resolve_grid,
}


def run(case):
    operation = OPERATIONS.get(case.get("operation"))
    if operation is None:
        return {"skipped": {"reason": f"operation {case.get('operation')!r} is not implemented"}}
    try:
        return operation(case)
    except ReshapeError as error:  # the implementation's own rejection
        return {"error": {"class": error.error_class, "message": str(error)}}
    except Skip as skip:
        return {"skipped": {"reason": str(skip)}}
    except Exception as error:  # anything else escaped the implementation: a crash
        traceback.print_exc(file=sys.stderr)
        return {"crashed": {"message": f"{type(error).__name__}: {error}"}}


def start(message):
    if message.get("protocol") != 2:
        return {"ok": False, "error": "this adapter speaks protocol 2 only"}
    if ACTIVE and ACTIVE not in BUGS:
        return {"ok": False, "error": f"unknown RESHAPE_BUG {ACTIVE!r}; `adapter.py --list` lists them"}
    name = f"bugs:{ACTIVE}" if ACTIVE else "bugs:none"
    return {
        "ok": True,
        "implementation": {"name": name, "version": "1", "language": "python"},
        "operations": list(OPERATIONS),
    }


def main():
    if sys.argv[1:] == ["--list"]:
        for name, description in BUGS.items():
            print(f"{name}\t{description}")
        return
    sys.stdin.reconfigure(encoding="utf-8")
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("cmd") == "start":
            answer = start(message)
        elif message.get("cmd") == "run":
            try:
                result = run(message["case"])
            except Exception as error:  # a fault of the adapter itself
                result = {"errored": {"message": repr(error)}}
            answer = {"seq": message["seq"], "result": result}
        else:  # "stop"
            return
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
