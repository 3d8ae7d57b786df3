"""The pytest plugin, run in a small inner pytest session (pytester): opt-in, the
per-clause summary, the exit status, and --zarr-reshape-expectations."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from reference_answers import reference_answer
from zarr_reshape.vectors import Case, cases

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parent
# Installed, the plugin is loaded through its entry point; from a checkout, by -p.
PLUGIN = [] if any(e.name == "zarr_reshape" for e in entry_points(group="pytest11")) else ["-p", "zarr_reshape.pytest_plugin"]
OPERATIONS = ["map-index", "map-region"]

HEADER = """
import pytest
from reference_answers import reference_answer
from zarr_reshape.vectors import cases, output
"""

REFERENCE = HEADER + f"""
@pytest.mark.parametrize("case", cases(operation={OPERATIONS!r}), ids=str)
def test_reference(case):
    case.check(reference_answer(case))
"""

# Coordinates reversed: right for rank-1 results, wrong for the others.
WRONG = HEADER + """
def wrong(case):
    answer = reference_answer(case).result
    if "encoded_index" in answer:
        return output(encoded_index=answer["encoded_index"][::-1])
    return reference_answer(case)

@pytest.mark.parametrize("case", cases(operation="map-index"), ids=str)
def test_wrong(case, zarr_reshape_known):
    case.check(wrong(case))
"""


def _wrong_answer(case: Case):
    from zarr_reshape.vectors import output

    answer = reference_answer(case).result
    if "encoded_index" in answer:
        return output(encoded_index=answer["encoded_index"][::-1])
    return reference_answer(case)


def _run(pytester: pytest.Pytester, source: str, *args: str) -> pytest.RunResult:
    pytester.syspathinsert(TESTS)
    pytester.makepyfile(test_inner=source)
    return pytester.runpytest(*PLUGIN, "-p", "no:cacheprovider", *args)


def _row(output: str, name: str) -> list[int]:
    """The counts of one table row: pass, fail, known, skip, error."""
    match = re.search(rf"^{re.escape(name)}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$", output, re.MULTILINE)
    assert match, f"no row {name!r} in\n{output}"
    return [int(count) for count in match.groups()]


def test_the_summary_counts_each_clause(pytester: pytest.Pytester) -> None:
    chosen = cases(operation=OPERATIONS)
    result = _run(pytester, REFERENCE, "--zarr-reshape-summary")
    result.assert_outcomes(passed=len(chosen))
    assert result.ret == pytest.ExitCode.OK
    text = result.stdout.str()
    for clause, count in Counter(case.clause for case in chosen).items():
        assert _row(text, clause) == [count, 0, 0, 0, 0]
    assert _row(text, "total") == [len(chosen), 0, 0, 0, 0]
    assert "zarr-reshape: passed" in text


def test_nothing_happens_without_the_option_or_the_marker(pytester: pytest.Pytester) -> None:
    result = _run(pytester, REFERENCE)
    result.assert_outcomes(passed=len(cases(operation=OPERATIONS)))
    assert "zarr-reshape conformance" not in result.stdout.str()


def test_the_marker_turns_it_on(pytester: pytest.Pytester) -> None:
    marked = REFERENCE.replace("@pytest.mark.parametrize", "@pytest.mark.zarr_reshape\n@pytest.mark.parametrize", 1)
    result = _run(pytester, marked, "--strict-markers")
    assert "zarr-reshape conformance" in result.stdout.str()
    assert result.ret == pytest.ExitCode.OK


def _wrong_failures() -> list[Case]:
    return [case for case in cases(operation="map-index") if not case.judge(_wrong_answer(case)).passed]


def test_a_wrong_implementation_fails_and_its_must_failures_are_named(pytester: pytest.Pytester) -> None:
    failing = _wrong_failures()
    total = len(cases(operation="map-index"))
    assert 0 < len(failing) < total
    result = _run(pytester, WRONG, "--zarr-reshape-summary")
    result.assert_outcomes(passed=total - len(failing), failed=len(failing))
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = result.stdout.str()
    assert _row(text, "total") == [total - len(failing), len(failing), 0, 0, 0]
    for case in failing:
        assert f"FAIL {case.id} [{case.level}, {case.clause}]" in text
    assert f"zarr-reshape: FAILED ({len(failing)} cases break the run)" in text


def test_known_failures_from_the_option_are_xfails(pytester: pytest.Pytester) -> None:
    failing = _wrong_failures()
    entries = "".join(
        f"[[failure]]\nids = [{json.dumps(case.id)}]\nclause = {json.dumps(case.clause)}\nreason = \"coordinates reversed\"\n"
        for case in failing
    )
    expectations = pytester.path / "known.toml"
    expectations.write_text(entries)
    uses_fixture = WRONG.replace("    case.check(wrong(case))", f"    assert len(zarr_reshape_known) == {len(failing)}\n    case.check(wrong(case))")
    result = _run(pytester, uses_fixture, "--zarr-reshape-summary", f"--zarr-reshape-expectations={expectations}")
    total = len(cases(operation="map-index"))
    result.assert_outcomes(passed=total - len(failing), xfailed=len(failing))
    assert result.ret == pytest.ExitCode.OK
    assert _row(result.stdout.str(), "total") == [total - len(failing), 0, len(failing), 0, 0]


def test_a_broken_run_fails_even_when_the_test_swallows_the_assertion(pytester: pytest.Pytester) -> None:
    swallowing = WRONG.replace("    case.check(wrong(case))", "    try:\n        case.check(wrong(case))\n    except AssertionError:\n        pass")
    result = _run(pytester, swallowing, "--zarr-reshape-summary")
    result.assert_outcomes(passed=len(cases(operation="map-index")))
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "zarr-reshape: FAILED" in result.stdout.str()


def test_a_bad_expectations_file_is_a_usage_error(pytester: pytest.Pytester) -> None:
    bad = pytester.path / "bad.toml"
    bad.write_text('[[failure]]\nids = ["no-such/case"]\nclause = "shape.size"\nreason = "x"\n')
    result = _run(pytester, REFERENCE, f"--zarr-reshape-expectations={bad}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "stale" in result.stderr.str()


def test_the_nd_image_codecs_example_lists_exactly_what_fails(pytester: pytest.Pytester) -> None:
    pytest.importorskip("nd_image_codecs.zarr_codec", reason="the example needs nd-image-codecs and zarr")
    from zarr_reshape.vectors import known_failures

    example = TESTS.parent / "examples" / "test_nd_image_codecs.py"
    known = known_failures(TESTS.parents[1] / "conformance/expectations/nd-image-codecs-0.2.5.python.toml")
    chosen = cases(operation=["resolve", "encode", "decode"])
    listed = sum(case.id in known for case in chosen)
    assert listed == len(known)
    result = pytester.runpytest(*PLUGIN, "-p", "no:cacheprovider", "-q", str(example))
    result.assert_outcomes(passed=len(chosen) - listed, xfailed=listed)
    assert result.ret == pytest.ExitCode.OK


def test_an_expectations_file_that_is_not_utf8_is_a_usage_error_naming_it(pytester: pytest.Pytester) -> None:
    latin1 = pytester.path / "latin-1.toml"
    latin1.write_bytes('[[failure]]\nids = []\nclause = "shape.size"\nreason = "pr\u00e9fix"\n'.encode("latin-1"))
    result = _run(pytester, REFERENCE, f"--zarr-reshape-expectations={latin1}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"{latin1}: not UTF-8" in result.stderr.str()


HEAVY = ("numpy", "zarr_reshape._native", "zarr_reshape.vectors")


def test_importing_the_plugin_imports_nothing_heavy() -> None:
    code = "import sys, zarr_reshape.pytest_plugin; print([m for m in sys.modules if m.split('.')[0] == 'numpy' or m in %r])" % (HEAVY,)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert printed.stdout.strip() == "[]"


def test_a_session_that_never_uses_the_cases_never_imports_them(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))
    pytester.makepyfile(
        test_plain="""
import sys
import pytest

@pytest.mark.parametrize("x", [1, 2])
def test_plain(x):
    pass

def test_zz_after():
    assert "zarr_reshape.vectors" not in sys.modules
"""
    )
    result = pytester.runpytest_subprocess(*PLUGIN, "-p", "no:cacheprovider", "--zarr-reshape-summary")
    result.assert_outcomes(passed=3)
