#!/usr/bin/env python3
"""The committed mutation results, conformance/reports/mutants.json (issue 14, part 2).

  mutants-results.py record OUT_DIR...   merge the outcomes of cargo-mutants runs
                                         (OUT_DIR/mutants.out/outcomes.json, the
                                         latest run of a mutant wins) into the file
  mutants-results.py check               the file still describes the code: the
                                         mutants `cargo mutants --list` finds are
                                         exactly those it judges, and every missed
                                         or timed-out one has a reason

A mutant's name holds its line and column, so editing a file of src/ renames its
mutants: `check` then fails until the mutants of that file are run again
(`conformance/scripts/mutants.sh full --file src/FILE.rs`) and recorded. `record`
keeps the reason of a missed mutant across such a move when the mutant is the same
but for its position; a new missed mutant gets no reason, and `check` (and the
suite's stale check of CONFORMANCE.md) fail until one from `reasons` is written in.
CONFORMANCE.md and mutants.md are rendered from the file by
`ZARR_RESHAPE_BLESS=1 cargo test -p zarr-reshape-conformance --test suite`.
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
RESULTS = os.path.join(ROOT, "conformance", "reports", "mutants.json")
OUTCOMES = {
    "CaughtMutant": "caught",
    "MissedMutant": "missed",
    "Unviable": "unviable",
    "Timeout": "timeout",
}
# The most bytes read from one outcomes.json (cargo-mutants writes ~2 KB a mutant).
MAX_OUTCOMES_BYTES = 64 << 20


def fail(message):
    print(f"mutants-results: {message}", file=sys.stderr)
    sys.exit(1)


def read_json(path, limit):
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as error:
        fail(f"{path}: {error}")
    if len(data) > limit:
        fail(f"{path}: larger than {limit} bytes")
    try:
        return json.loads(data)
    except ValueError as error:
        fail(f"{path}: not JSON: {error}")


def listed():
    """The mutants cargo-mutants finds in the tree now (no build: seconds)."""
    try:
        out = subprocess.run(
            ["cargo", "mutants", "--list", "--json"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout
        mutants = json.loads(out)
    except (OSError, subprocess.CalledProcessError, ValueError) as error:
        fail(f"cargo mutants --list --json: {error}")
    return {mutant["name"]: mutant for mutant in mutants}


def unplaced(name):
    """The name without its line and column: the same mutant after lines moved."""
    return re.sub(r"^([^:]+):\d+:\d+: ", r"\1: ", name)


def judged_by(outcome):
    for phase in outcome.get("phase_results", []):
        if phase.get("phase") == "Test":
            argv = phase.get("argv", [])
            tests = {argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--test"}
            if tests == {"resolve_vectors"}:
                return "resolve vectors"
            if tests == {"resolve_vectors", "vectors"}:
                return "both vector tests"
            return "tests " + ", ".join(sorted(tests)) if tests else "every test"
    return None


def record(out_dirs):
    results = read_json(RESULTS, 8 << 20) if os.path.exists(RESULTS) else {
        "format": 1, "runs": [], "reasons": {}, "mutants": []}
    current = listed()
    kept = {m["name"]: m for m in results["mutants"] if m["name"] in current}
    reasons = {unplaced(m["name"]): m.get("reason") for m in results["mutants"] if m.get("reason")}
    runs = {run["id"]: run for run in results["runs"]}
    loaded = []
    for out in out_dirs:
        path = os.path.join(out, "mutants.out", "outcomes.json")
        loaded.append((out, read_json(path, MAX_OUTCOMES_BYTES)))
    loaded.sort(key=lambda item: item[1].get("start_time") or "")
    for out, outcomes in loaded:
        run_id = os.path.basename(os.path.normpath(out))
        run = {"id": run_id, "start": outcomes.get("start_time"),
               "tool": "cargo-mutants " + str(outcomes.get("cargo_mutants_version")),
               "judged_by": None, "wall_time_s": None}
        for outcome in outcomes.get("outcomes", []):
            scenario = outcome.get("scenario")
            if not isinstance(scenario, dict) or "Mutant" not in scenario:
                continue
            mutant = scenario["Mutant"]
            name = mutant["name"]
            if name not in current:
                fail(f"{out}: {name} is not among the mutants of the tree now; run it again")
            summary = OUTCOMES.get(outcome.get("summary"))
            if summary is None:
                fail(f"{out}: {name}: outcome {outcome.get('summary')!r}")
            run["judged_by"] = run["judged_by"] or judged_by(outcome)
            entry = {"name": name, "file": mutant["file"],
                     "line": mutant["span"]["start"]["line"], "outcome": summary, "run": run_id}
            if summary in ("missed", "timeout"):
                entry["reason"] = (kept.get(name) or {}).get("reason") or reasons.get(unplaced(name))
            kept[name] = entry
        start, end = outcomes.get("start_time"), outcomes.get("end_time")
        if start and end:
            run["wall_time_s"] = round(seconds(end) - seconds(start))
        runs[run_id] = run
    used = {m["run"] for m in kept.values()}
    results["runs"] = sorted((r for r in runs.values() if r["id"] in used), key=lambda r: r["start"] or "")
    results["mutants"] = sorted(kept.values(), key=lambda m: (m["file"], m["line"], m["name"]))
    write(results)
    print(f"{RESULTS}: {len(kept)} of {len(current)} mutants judged")
    return check_against(results, current)


def write(results):
    """One run, reason or mutant a line, so that a diff shows what changed."""
    line = lambda value: json.dumps(value, ensure_ascii=False)
    parts = [f'  "format": {line(results["format"])}']
    if "about" in results:
        parts.append(f'  "about": {line(results["about"])}')
    parts.append('  "runs": [\n' + ",\n".join("    " + line(r) for r in results["runs"]) + "\n  ]")
    reasons = results["reasons"]
    parts.append('  "reasons": {\n' + ",\n".join(
        f"    {line(key)}: {line(reasons[key])}" for key in reasons) + "\n  }")
    parts.append('  "mutants": [\n' + ",\n".join("    " + line(m) for m in results["mutants"]) + "\n  ]")
    with open(RESULTS + ".tmp", "w", encoding="utf-8") as file:
        file.write("{\n" + ",\n".join(parts) + "\n}\n")
    os.replace(RESULTS + ".tmp", RESULTS)


def seconds(stamp):
    from datetime import datetime
    return datetime.fromisoformat(re.sub(r"(\.\d{6})\d*", r"\1", stamp).replace("Z", "+00:00")).timestamp()


def check_against(results, current):
    judged = {m["name"] for m in results["mutants"]}
    problems = [f"not judged (run it and record it): {name}" for name in sorted(set(current) - judged)]
    problems += [f"no longer in the code: {name}" for name in sorted(judged - set(current))]
    for mutant in results["mutants"]:
        if mutant["outcome"] in ("missed", "timeout"):
            reason = mutant.get("reason")
            if reason not in results["reasons"]:
                problems.append(f"{mutant['outcome']} without a reason of `reasons`: {mutant['name']}")
    for problem in problems:
        print(problem)
    print(f"{len(current)} mutants in src/, {len(judged)} in {os.path.relpath(RESULTS, ROOT)}, "
          f"{len(problems)} problems")
    if problems:
        print("fix: MUTANTS_OUT=target/mutants/NAME conformance/scripts/mutants.sh full "
              "--file src/FILE.rs (each file named above), then "
              "conformance/scripts/mutants.sh record target/mutants/NAME; a new missed "
              "mutant needs a reason key in mutants.json")
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "record" and len(argv) > 2:
        return record(argv[2:])
    if argv[1:] == ["check"]:
        return check_against(read_json(RESULTS, 8 << 20), listed())
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
