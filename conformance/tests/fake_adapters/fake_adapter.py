#!/usr/bin/env python3
"""A fake adapter for the runner's fault-injection tests (tests/adapter_faults.rs).

It accepts any protocol version offered (but for v1-only) and answers each case with the case's own expectation turned
into a result ({"error": c} -> {"error": {"class": <first class>, "message": "x"}};
"any_of" -> its first entry; else the expectation itself), so a well-behaved run
passes every case. The first argument picks a fault; N counts the cases (1-based)
this process received, so a restarted process counts from 1 again.

  echo                      well-behaved
  crash N exit|kill         on case N: exit with status 3, or SIGKILL itself
  crashed N                 on case N: a crashed result (the implementation panicked)
  violate N                 on case N: a result holding both error and skipped
  v1-only                   well-behaved, but refuses start unless offered protocol 1
  hang N                    on case N: never answer (N = 0: never answer anything)
  garbage N                 on case N: a line that is not JSON, then the answer
  wrong-seq N               on case N: the answer under a seq never sent, only that
  out-of-order N            on case N: an answer for seq+1 first, then the answer
  twice                     every answer twice
  stderr-spam BYTES         BYTES of stderr before each answer
  huge-line N BYTES         on case N: the answer padded to BYTES, one newline at the end
  slow MS                   wait MS milliseconds before each answer
  exit-at-start             exit with status 7 on start, after a word on stderr
  refuse-start              answer start with ok: false
  silent-start              never answer start

Standard library only.
"""

import json
import os
import signal
import sys
import time


def result_for(expect):
    if "any_of" in expect:
        return result_for(expect["any_of"][0])
    if "error" in expect:
        classes = expect["error"]
        first = classes if isinstance(classes, str) else classes[0]
        return {"error": {"class": first, "message": "x"}}
    return expect


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    fault = sys.argv[1] if len(sys.argv) > 1 else "echo"
    args = sys.argv[2:]
    n = int(args[0]) if args and args[0].isdigit() else None
    received = 0
    for line in sys.stdin:
        request = json.loads(line)
        cmd = request.get("cmd")
        if cmd == "stop":
            return 0
        if cmd == "start":
            if fault == "exit-at-start":
                sys.stderr.write("fake: cannot start today\n")
                sys.stderr.flush()
                return 7
            if fault == "refuse-start":
                say({"ok": False, "error": "fake: protocol not supported"})
                continue
            if fault == "silent-start":
                time.sleep(3600)
            if fault == "v1-only" and request.get("protocol") != 1:
                say({"ok": False, "error": "fake: this adapter speaks protocol 1 only"})
                continue
            say({"ok": True, "implementation": {"name": "fake", "version": "0", "language": "python"}})
            continue
        received += 1
        seq = request["seq"]
        answer = {"seq": seq, "result": result_for(request["case"]["expect"])}
        if fault == "crash" and received == n:
            sys.stderr.write(f"fake: crashing on seq {seq}\n")
            sys.stderr.flush()
            if args[1:] == ["kill"]:
                os.kill(os.getpid(), signal.SIGKILL)
            return 3
        if fault == "hang" and (n == 0 or received == n):
            sys.stderr.write(f"fake: hanging on seq {seq}\n")
            sys.stderr.flush()
            time.sleep(3600)
        if fault == "crashed" and received == n:
            answer["result"] = {"crashed": {"message": f"fake: a panic on seq {seq}"}}
        if fault == "violate" and received == n:
            answer["result"] = {"error": {"class": None, "message": "x"}, "skipped": {"reason": "y"}}
        if fault == "garbage" and received == n:
            sys.stdout.write("this is not { json\n")
        if fault == "wrong-seq" and received == n:
            say({"seq": seq + 1000, "result": answer["result"]})
            continue
        if fault == "out-of-order" and received == n:
            say({"seq": seq + 1, "result": {"skipped": {"reason": "an answer from the future"}}})
        if fault == "stderr-spam":
            sys.stderr.write(f"fake: spam for seq {seq}\n" + "s" * int(args[0]) + f"\nfake: end of seq {seq}\n")
            sys.stderr.flush()
        if fault == "huge-line" and received == n:
            padding = int(args[1])
            answer["result"] = {"padding": "p" * padding}
        if fault == "slow":
            time.sleep(int(args[0]) / 1000)
        say(answer)
        if fault == "twice":
            say(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
