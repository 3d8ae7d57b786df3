#!/usr/bin/env python3
"""A fake adapter with every kind of outcome, for the report tests (tests/report_*.rs).

It answers each case from the case's own expectation (a pass), except:
  - ids containing "gap" or "after-group": a wrong answer (fail);
  - ids under limits.u64/ containing "auto": a crashed result;
  - ids under codec.name/ containing "capital": an errored result;
  - map-region and read-array cases: skipped (not in its operations).
Every tenth case writes hostile text to stderr (controls, a bidi override, HTML).
Standard library only.
"""

import json
import sys

HOSTILE = "fake \x1b[31mred\x1b[0m \u202e<script>alert(1)</script> & \"quotes\" 'too'"


def result_for(expect):
    if "any_of" in expect:
        return result_for(expect["any_of"][0])
    if "error" in expect:
        classes = expect["error"]
        first = classes if isinstance(classes, str) else classes[0]
        return {"error": {"class": first, "message": "x"}}
    return expect


def answer(case):
    case_id = case["id"]
    if "gap" in case_id or "after-group" in case_id:
        return {"encoded_shape": [1, 2, 3]}
    if case_id.startswith("limits.u64/") and "auto" in case_id:
        return {"crashed": {"message": "panic: " + HOSTILE}}
    if case_id.startswith("codec.name/") and "capital" in case_id:
        return {"errored": {"message": "fake: lost its way " + HOSTILE}}
    return result_for(case["expect"])


def main():
    received = 0
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "stop":
            return 0
        if request.get("cmd") == "start":
            print(json.dumps({"ok": True, "implementation": {"name": "mixed <b>fake</b>", "version": "0.1", "language": "python"},
                              "operations": ["resolve", "encode", "decode", "map-index"]}), flush=True)
            continue
        received += 1
        if received % 10 == 0:
            sys.stderr.write(HOSTILE + "\n")
            sys.stderr.flush()
        print(json.dumps({"seq": request["seq"], "result": answer(request["case"])}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
