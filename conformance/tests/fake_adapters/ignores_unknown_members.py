#!/usr/bin/env python3
"""An adapter that ignores unknown members (tests/fuzz_operations.rs): it forwards
every message to the reference adapter (the command given as arguments), but drops
from each case's configuration every member other than shape, and from its codec
object every member other than name, configuration and must_understand, as an
implementation that skips what it does not know would. The MUST vectors
configuration.members/unknown-member and codec-unknown-member fail against it.

Numbers are kept as written (1e400, -0, integers beyond 64 bits): the case is read
with each number as a marked string and written back with the marks removed.
Standard library only.
"""

import json
import re
import subprocess
import sys

MARK = "\u0000number:"
MARKED = re.compile(r'"\\u0000number:([^"]*)"')


def raw(text):
    return MARK + text


def keep_only(value, members):
    if isinstance(value, dict):
        for name in list(value):
            if name not in members:
                del value[name]


def main():
    reference = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in sys.stdin:
        message = json.loads(line, parse_int=raw, parse_float=raw, parse_constant=raw)
        if message.get("cmd") == "run":
            case = message["case"]
            keep_only(case.get("configuration"), ("shape",))
            codec = case.get("codec")
            keep_only(codec, ("name", "configuration", "must_understand"))
            if isinstance(codec, dict):
                keep_only(codec.get("configuration"), ("shape",))
        line = MARKED.sub(r"\1", json.dumps(message)) + "\n"
        reference.stdin.write(line)
        reference.stdin.flush()
        if message.get("cmd") == "stop":
            break
        sys.stdout.write(reference.stdout.readline())
        sys.stdout.flush()


if __name__ == "__main__":
    main()
