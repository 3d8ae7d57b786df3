"""zarr_reshape.vectors: the suite as pytest parameters, judged as the runner judges.

The reference itself is the implementation under test: it must pass every case
it can answer. A deliberately wrong implementation must be caught.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest
import zarr_reshape
from reference_answers import reference_answer
from zarr_reshape import _export, _native
from zarr_reshape._answers import array_from_json, array_to_json
from zarr_reshape.vectors import (
    Case,
    KnownFailure,
    cases,
    error,
    known_failures,
    output,
    output_array,
    params,
    skipped,
)
from zarr_reshape.vectors import known_failures_text as known_text

ALL = cases()


@pytest.mark.parametrize("case", ALL, ids=str)
def test_the_reference_passes_every_case_it_can_answer(case: Case) -> None:
    answer = reference_answer(case)
    if case.operation in ("read-array", "resolve-grid"):
        # The Python package reads no arrays and resolves no grids: the runner does.
        assert "skipped" in answer.result
    else:
        assert case.judge(answer).passed, case.judge(answer).reason
    case.check(answer)  # a skip becomes pytest's skip


def test_cases_mirror_the_native_suite() -> None:
    rows = zarr_reshape.vectors.suite().cases()
    assert [case.id for case in ALL] == [row[0] for row in rows]
    assert len({case.id for case in ALL}) == len(ALL)
    for case in ALL:
        assert case.request["id"] == case.id
        assert case.request["level"] == case.level
        assert case.request["operation"] == case.operation
        assert tuple(case.request["clauses"]) == case.clauses
        assert json.loads(case.request_json) == case.request


@pytest.mark.parametrize("field", ["level", "operation", "clause"])
def test_each_filter_partitions_the_suite(field: str) -> None:
    values = sorted({getattr(case, field) for case in ALL})
    assert len(values) > 1
    chosen = [case.id for value in values for case in cases(**{field: value})]
    assert sorted(chosen) == sorted(case.id for case in ALL)
    for value in values:
        assert all(getattr(case, field) == value for case in cases(**{field: value}))
    pair = set(values[:2])
    assert {getattr(case, field) for case in cases(**{field: pair})} == pair


def test_filters_combine_and_glob() -> None:
    picked = cases(level="must", operation=["encode", "decode"], match="algorithm.*")
    assert picked
    assert all(c.level == "must" and c.operation in ("encode", "decode") and c.id.startswith("algorithm.") for c in picked)
    with pytest.raises(ValueError, match="no case matches"):
        cases(match="no such case/*")


def test_params_carry_the_ids() -> None:
    some = params(operation="map-index")
    assert [param.id for param in some] == [case.id for case in cases(operation="map-index")]
    assert [param.values[0] for param in some] == cases(operation="map-index")


def test_a_root_folder_reads_the_same_cases(tmp_path: Path) -> None:
    folder = tmp_path / "suite"
    assert _native.export_suite(folder) > 0
    mine = cases(root=folder)
    assert [case.id for case in mine] == [case.id for case in ALL]
    read = next(case for case in mine if case.operation == "read-array")
    assert read.array_path.is_absolute() and read.array_path.is_relative_to(folder)


def test_the_exported_suite_is_removed_at_exit() -> None:
    code = "from zarr_reshape import vectors; vectors.cases(); print(vectors._exported)"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    exported = Path(printed.stdout.strip())
    assert exported.name == "suite" and exported.parent.name.startswith("zarr-reshape-suite-")
    assert not exported.parent.exists()


def test_input_arrays_keep_every_bit() -> None:
    for case in cases(operation=["encode", "decode"]):
        array = case.input_array()
        assert array.dtype == np.dtype(case.data_type)
        again = array_from_json({"data_type": case.data_type, "shape": list(array.shape), "data": array_to_json(array)})
        assert again.tobytes() == array.tobytes(), case.id
    pinned = [c for c in cases(operation=["encode", "decode"]) if '"0x' in c.request_json]
    assert pinned, "the suite pins NaN payloads as bits"
    for case in pinned:
        flat = json.dumps(case.request["input"]["data"])
        for bits in {token.strip('"[], ') for token in flat.split(",") if "0x" in token}:
            assert int(bits, 16) in case.input_array().view(f"u{case.input_array().itemsize}").ravel().tolist()


def test_float32_text_is_rounded_once() -> None:
    # 1 + 2^-24 + tiny: float64 rounds it to the tie 1 + 2^-24, which float32 would
    # round to even (1.0); rounded once, it is above the tie: 1 + 2^-23.
    text = "1.00000005960464477539062500001"
    array = array_from_json({"data_type": "float32", "shape": [1], "data": [text]})
    assert array.view("u4")[0] == np.array(1 + 2.0**-23, dtype=np.float32).view("u4")
    below = array_from_json({"data_type": "float32", "shape": [], "data": "1.00000005960464477539062499999"})
    assert below.view("u4") == np.array(1.0, dtype=np.float32).view("u4")


def test_exact_text_survives_where_floats_do_not() -> None:
    # json.loads reads a number beyond a double's range as inf; the text keeps it.
    huge = [c for c in ALL if "inf" in repr(c.codec)]
    assert huge, "the suite has a size beyond a double's range"
    for case in huge:
        assert "inf" not in str(case.codec_json).lower()
        assert json.loads(str(case.codec_json)) == case.codec
        assert case.judge(reference_answer(case)).passed


def _wrong_resolve(case: Case):
    """Resolves by element count only, never checking the prefix and suffix rules."""
    shape, decoded = case.configuration["shape"], case.decoded_shape
    sizes = [int(np.prod([decoded[d] for d in e])) if isinstance(e, list) else e for e in shape]
    if -1 in sizes:
        sizes[sizes.index(-1)] = int(np.prod(decoded)) // max(1, int(np.prod([s for s in sizes if s != -1])))
    return output(encoded_shape=sizes)


def _wrong_cases() -> list[tuple[Case, zarr_reshape.vectors.Outcome]]:
    judged = []
    for case in cases(level="must", operation="resolve", clause=["input-dims.prefix", "input-dims.suffix"]):
        try:
            answer = _wrong_resolve(case)
        except Exception as anything:  # noqa: BLE001 - a refusal of any kind
            answer = error(None, str(anything))
        judged.append((case, case.judge(answer)))
    return judged


def test_a_wrong_implementation_is_caught() -> None:
    judged = _wrong_cases()
    failing = [(case, outcome) for case, outcome in judged if not outcome.passed]
    assert failing and len(failing) < len(judged)
    case, outcome = failing[0]
    with pytest.raises(AssertionError, match="must") as raised:
        case.check(_wrong_resolve(case))
    assert outcome.reason in str(raised.value)


def _entry(case: Case, outcome: str = "fail", clause: str | None = None) -> str:
    return (
        f'[[failure]]\nids = [{json.dumps(case.id)}]\nclause = {json.dumps(clause or case.clause)}\n'
        f'reason = "the prefix rule is not checked"\noutcome = "{outcome}"\n'
    )


def test_a_known_failure_that_fails_as_listed_is_an_xfail() -> None:
    case = next(case for case, outcome in _wrong_cases() if outcome.name == "fail")
    known = known_text(_entry(case))
    listed = known[case.id]
    assert isinstance(listed, KnownFailure)
    assert listed.outcome == "fail" and listed.reason.startswith("the prefix rule is not checked")
    with pytest.raises(pytest.xfail.Exception, match="the prefix rule is not checked"):
        case.check(_wrong_resolve(case), known)


def test_a_known_failure_that_passes_or_fails_otherwise_breaks_the_run() -> None:
    case = next(case for case, outcome in _wrong_cases() if outcome.name == "fail")
    with pytest.raises(AssertionError, match="passes, but the expectations list it"):
        case.check(reference_answer(case), known_text(_entry(case)))
    with pytest.raises(AssertionError, match="listed as crash"):
        case.check(_wrong_resolve(case), known_text(_entry(case, outcome="crash")))


def test_non_fatal_failures_and_skips() -> None:
    lenient = next(c for c in cases(level="interpretation", operation="resolve") if "error" in json.dumps(c.request["expect"]))
    wrong = output(encoded_shape=[1] * 300)
    assert lenient.judge(wrong).name == "fail"
    with pytest.raises(pytest.xfail.Exception, match="not fatal"):
        lenient.check(wrong)
    with pytest.raises(pytest.skip.Exception, match="no such data type"):
        ALL[0].check(skipped("no such data type"))
    with pytest.raises(AssertionError, match="crash"):
        ALL[0].check(zarr_reshape.vectors.crashed("IndexError"))


def test_expectations_are_read_as_the_runner_reads_them(tmp_path: Path) -> None:
    case = ALL[0]
    wrong_clause = next(c for c in zarr_reshape.vectors.suite().cases() if c[3][0] not in case.clauses)[3][0]
    with pytest.raises(ValueError, match=wrong_clause):
        known_text(_entry(case, clause=wrong_clause))
    with pytest.raises(ValueError, match="stale"):
        known_text(_entry(case).replace(case.id, "no-such/case"))
    with pytest.raises(ValueError):
        known_text(_entry(case).replace("the prefix rule is not checked", "TODO"))
    with pytest.raises(OSError, match="not a regular file"):
        known_failures(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        known_failures(fifo)
    large = tmp_path / "large.toml"
    with large.open("wb") as file:
        file.truncate(16 * 1024 * 1024 + 1)
    with pytest.raises(OSError, match="larger than"):
        known_failures(large)
    good = tmp_path / "good.toml"
    good.write_text(_entry(case))
    assert list(known_failures(good)) == [case.id]


def test_answers_are_the_protocol_forms() -> None:
    assert error(zarr_reshape.RepeatedAuto("x"), "m").result == {"error": {"class": "repeated-auto", "message": "m"}}
    assert error(None, "m").result == {"error": {"class": None, "message": "m"}}
    nan = np.array([np.nan, -np.inf, 2.5], dtype=np.float64)
    assert json.loads(output_array(nan).json()) == {"shape": [3], "data": ["0x7ff8000000000000", "-Infinity", 2.5]}
    assert output(encoded_shape=(np.uint64(2**64 - 1),)).json() == '{"encoded_shape": [18446744073709551615]}'


def _documented_tests() -> dict[str, str]:
    """The implementer's test as the docs show it: pytest.md and the module docstring."""
    markdown = (Path(__file__).resolve().parents[1] / "docs" / "pytest.md").read_text(encoding="utf-8")
    blocks = {"pytest.md": next(b for b in re.findall(r"```python\n(.*?)```", markdown, re.S) if "my_library" in b)}
    docstring = str(zarr_reshape.vectors.__doc__)
    # The literal block: the indented lines after "whole test::".
    after = docstring.split("whole test::\n", 1)[1].splitlines()
    block = [line for line in after[: next(i for i, line in enumerate(after) if line and not line[0].isspace())]]
    blocks["vectors.py"] = textwrap.dedent("\n".join(block))
    return blocks


@pytest.mark.parametrize("where", ["pytest.md", "vectors.py"])
def test_the_documented_pattern_passes_every_resolve_case_with_the_reference(
    where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = types.ModuleType("my_library")
    reference.resolve = zarr_reshape.resolve  # type: ignore[attr-defined]
    reference.ReshapeError = zarr_reshape.ReshapeError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "my_library", reference)
    namespace: dict[str, object] = {}
    exec(compile(_documented_tests()[where], where, "exec"), namespace)  # noqa: S102 - our own docs
    test_resolve = namespace["test_resolve"]
    assert callable(test_resolve)
    resolve_cases = cases(operation="resolve")
    failing = []
    for case in resolve_cases:
        try:
            test_resolve(case)
        except BaseException as failed:  # noqa: BLE001 - pytest's xfail and skip too
            failing.append(f"{case.id}: {type(failed).__name__}: {failed}")
    assert not failing, f"{len(failing)} of {len(resolve_cases)} fail:\n" + "\n".join(failing[:10])


@pytest.mark.parametrize(
    ("filters", "field"),
    [
        ({"operation": "map_index"}, "operation"),
        ({"operation": ["resolve", "map_index"]}, "operation"),
        ({"level": "MUST"}, "level"),
        ({"level": ("must", "shall")}, "level"),
        ({"clause": "nope"}, "clause"),
        ({"clause": {"input-dims.prefix", "input-dims.prefixx"}}, "clause"),
    ],
)
def test_a_filter_value_that_does_not_exist_is_an_error(filters: dict[str, object], field: str) -> None:
    valid = {getattr(case, field) for case in ALL}
    if field == "clause":
        valid |= {clause["id"] for clause in json.loads(_native.clauses_json())["clauses"]}
    for select in (cases, params):
        with pytest.raises(ValueError, match=field) as raised:
            select(**filters)  # type: ignore[arg-type]
        message = str(raised.value)
        assert all(repr(name) in message for name in _names(filters[field]) if name not in valid)
        assert all(name in message for name in valid), message


def _names(value: object) -> list[str]:
    return [value] if isinstance(value, str) else list(value)  # type: ignore[call-overload]


def test_a_match_that_selects_nothing_is_an_error_as_for_the_runner() -> None:
    assert _native.command_line(["zarr-reshape", "run", "--filter", "no such case/*"]) == 2
    with pytest.raises(ValueError, match="no case matches"):
        params(match="no such case/*")
    # Valid filters that select nothing together are not a typo: no case, no error.
    empty = [(level, op) for level in {c.level for c in ALL} for op in {c.operation for c in ALL} if not cases(level, op)]
    assert empty and cases(*empty[0]) == []


def _env(temp_dir: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(temp_dir)}


def _dead_pid() -> int:
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    return int(ended.stdout)


def test_a_killed_session_leaves_its_suite_and_the_next_export_removes_it(tmp_path: Path) -> None:
    code = "import time; from zarr_reshape import vectors; vectors.cases(); print(vectors._exported, flush=True); time.sleep(60)"
    killed = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=_env(tmp_path))
    assert killed.stdout is not None
    exported = Path(killed.stdout.readline().strip())
    killed.send_signal(signal.SIGTERM)
    killed.wait(timeout=30)
    left = exported.parent
    assert left.parent == tmp_path and left.is_dir(), "atexit does not run on SIGTERM"
    assert json.loads((left / "owner.json").read_text())["pid"] == killed.pid
    later = "from zarr_reshape import vectors; vectors.cases(); print(vectors._exported)"
    subprocess.run([sys.executable, "-c", later], capture_output=True, text=True, env=_env(tmp_path), check=True)
    assert not left.exists()
    assert list(tmp_path.iterdir()) == [], "the later process removed its own folder at exit"


def test_only_stale_folders_of_the_scheme_are_removed(tmp_path: Path) -> None:
    def folder(name: str, pid: int | None) -> Path:
        made = tmp_path / name
        (made / "suite").mkdir(parents=True)
        (made / "suite" / "a-vector.json").write_text("{}")
        if pid is not None:
            _export.write_owner_marker(made, pid)
        return made

    stale = folder(_export.PREFIX + "stale123", _dead_pid())
    live = folder(_export.PREFIX + "live1234", os.getpid())
    unmarked = folder(_export.PREFIX + "nomarker", None)
    other_name = folder("someone-else-" + "stale123", _dead_pid())
    broken = folder(_export.PREFIX + "broken12", None)
    (broken / "owner.json").write_text('{"scheme": "zarr-reshape-suite", "pid": "not a number"}')
    link = tmp_path / (_export.PREFIX + "alink123")
    link.symlink_to(stale, target_is_directory=True)
    marker_link = folder(_export.PREFIX + "mlink123", None)
    (marker_link / "owner.json").symlink_to(stale / "owner.json")
    assert _export.remove_stale_exports(tmp_path) == [stale]
    assert not stale.exists()
    for kept in (live, unmarked, other_name, broken, marker_link):
        assert (kept / "suite" / "a-vector.json").is_file(), kept
    assert link.is_symlink()


def test_a_reused_pid_with_another_start_time_is_stale(tmp_path: Path) -> None:
    if _export._start_time(os.getpid()) is None:
        pytest.skip("no process start times on this system")
    reused = tmp_path / (_export.PREFIX + "reused12")
    reused.mkdir()
    (reused / "owner.json").write_text(json.dumps({"scheme": "zarr-reshape-suite", "pid": os.getppid(), "start_time": "1"}))
    assert _export.remove_stale_exports(tmp_path) == [reused]


def _runner_accepts(expectations: Path) -> bool:
    """Whether the runner starts a run (exit 0 or 1) with these expectations, rather than refusing them (2)."""
    code = _native.command_line(["zarr-reshape", "run", "--expectations", str(expectations), "--filter", ALL[0].id])
    assert code in (0, 1, 2)
    return code != 2


def test_an_expectations_file_that_is_not_utf8_is_named_as_the_runner_names_it(tmp_path: Path) -> None:
    latin1 = tmp_path / "latin-1.toml"
    latin1.write_bytes(_entry(ALL[0]).replace("the prefix rule", "the pr\u00e9fix rule").encode("latin-1"))
    assert not _runner_accepts(latin1)
    with pytest.raises(ValueError, match=re.escape(f"{latin1}: not UTF-8")):
        known_failures(latin1)


def test_an_entry_with_no_ids_is_accepted_as_the_runner_accepts_it(tmp_path: Path) -> None:
    empty = tmp_path / "empty-ids.toml"
    empty.write_text(_entry(ALL[0]).replace(f"[{json.dumps(ALL[0].id)}]", "[]"))
    assert "ids = []" in empty.read_text()
    assert _runner_accepts(empty)
    assert len(known_failures(empty)) == 0
