"""Benchmark 7b (BENCHMARKS.md): cases per second through pytest
(`zarr_reshape.vectors`, in process) against the subprocess adapter route
(`zarr-reshape run --adapter`), the same implementation behind both.

The implementation is the reference's `zarr_reshape.resolve`; both routes get every
case of the embedded suite, answer `resolve` cases and skip the others, so each
side does the same work per case; both are timed from process start to exit
(pytest's collection and the runner's start-up included), one after the other in
this run, three times each (the median counts). Prints `RATIO` lines.

Usage: python python/benches/pytest_rate.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from zarr_reshape import vectors

ANSWER = '''
import zarr_reshape

def answer(codec_json, decoded_shape):
    try:
        return {"encoded_shape": list(zarr_reshape.resolve(codec_json, decoded_shape))}
    except zarr_reshape.ReshapeError as error:
        return {"error": {"class": error.error_class, "message": str(error)}}
    except OverflowError as error:
        return {"error": {"class": "overflow", "message": str(error)}}
'''

PYTEST_MODULE = '''
import pytest
from answer import answer
from zarr_reshape import vectors

@pytest.mark.parametrize("case", vectors.params())
def test_case(case):
    if case.operation != "resolve":
        pytest.skip("resolve only")
    result = answer(case.codec_json, list(case.decoded_shape))
    if "error" in result:
        case.check(vectors.error(result["error"]["class"], result["error"]["message"]))
    else:
        case.check(vectors.output(**result))
'''

ADAPTER = '''
import json, sys
from answer import answer

for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        reply = {"ok": True, "implementation": {"name": "bench", "version": "1", "language": "python"},
                 "operations": ["resolve"]}
    elif message["cmd"] == "run":
        case = message["case"]
        if case["operation"] != "resolve":
            result = {"skipped": {"reason": "resolve only"}}
        else:
            codec = case["codec"] if "codec" in case else {"name": "reshape", "configuration": case["configuration"]}
            result = answer(json.dumps(codec), case["decoded_shape"])
        reply = {"seq": message["seq"], "result": result}
    else:
        break
    print(json.dumps(reply), flush=True)
'''


def timed(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return elapsed


def main() -> None:
    total = len(vectors.cases())
    resolve = len(vectors.cases(operation="resolve"))
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "answer.py").write_text(ANSWER, encoding="utf-8")
        (work / "test_bench.py").write_text(PYTEST_MODULE, encoding="utf-8")
        (work / "adapter.py").write_text(ADAPTER, encoding="utf-8")
        pytest_command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_bench.py"]
        runner_command = [sys.executable, "-m", "zarr_reshape", "run", "--adapter", f"{sys.executable} adapter.py"]
        pytest_times, runner_times = [], []
        for _ in range(3):
            pytest_times.append(timed(pytest_command, work))
            runner_times.append(timed(runner_command, work))
    in_pytest, through_runner = statistics.median(pytest_times), statistics.median(runner_times)
    print(f"{total} cases ({resolve} resolve, the others skipped), median of 3 runs, start to exit")
    print(f"  pytest: {total / in_pytest:.0f} cases/s; runner + adapter process: {total / through_runner:.0f} cases/s")
    print(f"RATIO python.pytest-rate = {through_runner / in_pytest:.2f} (pytest cases/s / adapter-route cases/s)")


if __name__ == "__main__":
    main()
