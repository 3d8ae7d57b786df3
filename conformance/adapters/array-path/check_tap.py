#!/usr/bin/env python3
"""Compares the failing tests of a `bats --tap` run of the exported tests.bats with a
reader's expectations file, both ways (see README.md).

    check_tap.py --reader NAME --tap RUN.tap --cases read-array.json [--expectations FILE]

Each test's name ends in its vector id in parentheses, as `zarr-reshape export-bats`
writes it: `reshape: <fixture> (generated/read-array/<fixture>)`. The whole-array
cases of --cases (those without `decoded_region`) are the ids that count: the TAP
run must hold exactly one test for each, and the set of failing tests must equal the
whole-array ids listed in the expectations file (no file: nothing may fail). Box ids
in the file are ignored, with a note; an id that is no case at all is an error.

Exit status: 0 when the two sets are equal; 1 when they differ (each difference is
printed: a new failure, or a listed case that now passes, so a fixed bug turns the
check red too) or the TAP run is incomplete; 2 when an input cannot be read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

# Bounds on what is read: the files are ours, but a broken run can make them large.
MAX_TAP_BYTES = 16 << 20
MAX_JSON_BYTES = 64 << 20
MAX_TOML_BYTES = 4 << 20

RESULT = re.compile(r"^(not ok|ok)\b\s*(\d+)?\s*(?:-\s*)?(.*)$")
DIRECTIVE = re.compile(r"\s+#\s*(skip|todo)\b.*$", re.IGNORECASE)
PLAN = re.compile(r"^1\.\.(\d+)\b")
ID_AT_END = re.compile(r"\(([^()]+)\)\s*$")


class InputError(Exception):
    """An input that cannot be read: exit status 2."""


@dataclass
class Tap:
    planned: int | None = None
    passing: set[str] = field(default_factory=set)
    failing: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


def read_text(path: Path, limit: int) -> str:
    try:
        if not path.is_file():
            raise InputError(f"{path}: not a regular file")
        if path.stat().st_size > limit:
            raise InputError(f"{path}: larger than {limit} bytes")
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: {error}") from error


def parse_tap(text: str) -> Tap:
    """The ids of the passing and failing tests; a skipped or unnamed test, a repeated
    id or a plan that does not match the results are problems."""
    tap = Tap()
    seen = 0
    for line in text.splitlines():
        plan = PLAN.match(line)
        if plan and tap.planned is None:
            tap.planned = int(plan.group(1))
            continue
        result = RESULT.match(line)
        if result is None:
            continue
        seen += 1
        status, description = result.group(1), result.group(3)
        directive = DIRECTIVE.search(description)
        if directive:
            description = description[: directive.start()]
        found = ID_AT_END.search(description)
        if found is None:
            tap.problems.append(f"a test without a vector id in its name: {line!r}")
            continue
        case_id = found.group(1)
        if case_id in tap.passing or case_id in tap.failing:
            tap.problems.append(f"two tests for {case_id}")
        if directive:
            tap.problems.append(
                f"{case_id}: skipped or todo ({directive.group(0).strip()})"
            )
            tap.failing.add(case_id)
        elif status == "ok":
            tap.passing.add(case_id)
        else:
            tap.failing.add(case_id)
    if tap.planned is None:
        tap.problems.append("no TAP plan (1..N): bats did not run")
    elif tap.planned != seen:
        tap.problems.append(
            f"the plan says {tap.planned} tests, the run has {seen} results"
        )
    return tap


def whole_array_ids(cases_file: Path) -> tuple[set[str], set[str]]:
    """The ids of the whole-array read-array cases, and of all cases."""
    try:
        document = json.loads(read_text(cases_file, MAX_JSON_BYTES))
        cases = document["cases"]
        every = {case["id"] for case in cases}
        whole = {
            case["id"]
            for case in cases
            if case.get("operation") == "read-array" and "decoded_region" not in case
        }
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(f"{cases_file}: not a vector file ({error!r})") from error
    return whole, every


def listed_ids(expectations: Path | None) -> set[str]:
    if expectations is None:
        return set()
    try:
        document = tomllib.loads(read_text(expectations, MAX_TOML_BYTES))
        return {case_id for entry in document["failure"] for case_id in entry["ids"]}
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as error:
        raise InputError(
            f"{expectations}: not an expectations file ({error!r})"
        ) from error


def compare(
    reader: str, tap: Tap, whole: set[str], every: set[str], listed: set[str]
) -> list[str]:
    """Every difference, one line each (none: the check passes)."""
    differences = [f"{reader}: {problem}" for problem in tap.problems]
    unknown = listed - every
    differences += [
        f"{reader}: listed id is no case of the vector file: {i}"
        for i in sorted(unknown)
    ]
    boxes = (listed & every) - whole
    if boxes:
        print(
            f"check_tap: {reader}: {len(boxes)} listed box case(s) ignored (bats reads whole arrays)"
        )
    expected_failing = listed & whole
    tested = tap.passing | tap.failing
    differences += [f"{reader}: no test for {i}" for i in sorted(whole - tested)]
    differences += [
        f"{reader}: a test for {i}, which is no whole-array case"
        for i in sorted(tested - whole)
    ]
    differences += [
        f"{reader}: fails, not listed: {i}"
        for i in sorted((tap.failing & whole) - expected_failing)
    ]
    differences += [
        f"{reader}: listed, but passes: {i}"
        for i in sorted(expected_failing & tap.passing)
    ]
    return differences


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--reader", required=True, help="the reader's name, for messages"
    )
    parser.add_argument(
        "--tap", required=True, type=Path, help="the output of bats --tap"
    )
    parser.add_argument(
        "--cases", required=True, type=Path, help="spec-cases/generated/read-array.json"
    )
    parser.add_argument(
        "--expectations",
        type=Path,
        help="the reader's expectations file (none: all pass)",
    )
    args = parser.parse_args(argv)
    try:
        tap = parse_tap(read_text(args.tap, MAX_TAP_BYTES))
        whole, every = whole_array_ids(args.cases)
        listed = listed_ids(args.expectations)
    except InputError as error:
        print(f"check_tap: {args.reader}: {error}", file=sys.stderr)
        return 2
    differences = compare(args.reader, tap, whole, every, listed)
    for line in differences:
        print(f"check_tap: {line}")
    tested = len(tap.passing | tap.failing)
    if differences:
        print(
            f"check_tap: {args.reader}: FAILED, {len(differences)} difference(s) between "
            f"{args.tap} and {args.expectations or 'no expectations (all must pass)'}"
        )
        return 1
    print(
        f"check_tap: {args.reader}: ok, {tested} tests, {len(tap.failing)} failing, "
        f"exactly the {len(listed & whole)} whole-array case(s) listed"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
