"""A pytest plugin: the runner's per-clause summary for tests parametrized over the suite's cases.

Strictly opt-in. It is registered for every pytest session once the package is
installed (entry point ``pytest11``), and does nothing unless

- ``--zarr-reshape-summary`` is given, or
- a collected test carries the marker ``@pytest.mark.zarr_reshape``.

Then it counts the outcome of every test with a :class:`~zarr_reshape.vectors.Case`
among its parameters, prints a table per clause (the clause under test: pass,
fail, known, skip, error) and names every case that breaks the run, as
``zarr-reshape run`` does; the session exits nonzero when one did.

Importing it costs nothing: it imports :mod:`zarr_reshape.vectors` (NumPy, the
native module) only once a session asks for it, through an option or a test
that uses the cases.

``--zarr-reshape-expectations FILE`` makes :meth:`Case.check` use that file's known
failures by default; the fixture ``zarr_reshape_known`` gives them (``None``
without the option).
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .vectors import Case, KnownFailures

#: The columns of the table, in the runner's order; `error` counts crashes and errors too.
COLUMNS = ("pass", "fail", "known", "skip", "error")


@dataclass
class _Entry:
    case: Case
    status: str
    breaks_run: bool
    reason: str


@dataclass
class _Summary:
    requested: bool
    active: bool = False
    entries: dict[str, _Entry] = field(default_factory=dict)


_SUMMARY = pytest.StashKey[_Summary]()
_KNOWN = pytest.StashKey["KnownFailures | None"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("zarr-reshape", "zarr-reshape conformance suite")
    group.addoption(
        "--zarr-reshape-summary",
        action="store_true",
        default=False,
        help="print a per-clause summary of the tests parametrized over zarr_reshape.vectors cases",
    )
    group.addoption(
        "--zarr-reshape-expectations",
        metavar="FILE",
        default=None,
        help="known failures (the runner's expectations format) that Case.check uses by default",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "zarr_reshape: count this test's zarr_reshape.vectors cases in the per-clause summary"
    )
    config.stash[_SUMMARY] = _Summary(requested=bool(config.getoption("zarr_reshape_summary")))
    config.stash[_KNOWN] = None
    path = config.getoption("zarr_reshape_expectations")
    if path:
        from . import vectors

        try:
            known = vectors.known_failures(path)
        except (OSError, ValueError) as problem:
            raise pytest.UsageError(f"--zarr-reshape-expectations: {problem}") from None
        config.stash[_KNOWN] = known
        vectors.set_default_known_failures(known)


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_KNOWN, None) is not None:
        from . import vectors

        vectors.set_default_known_failures(None)


@pytest.fixture
def zarr_reshape_known(request: pytest.FixtureRequest) -> KnownFailures | None:
    """The known failures of ``--zarr-reshape-expectations``, or ``None``."""
    return request.config.stash[_KNOWN]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    summary = config.stash[_SUMMARY]
    summary.active = summary.requested or any(item.get_closest_marker("zarr_reshape") for item in items)


def _case_of(item: pytest.Item) -> Case | None:
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    vectors = sys.modules.get("zarr_reshape.vectors")
    if vectors is None:
        return None  # never imported in this session: no parameter can be a Case
    case_type: type[Case] = vectors.Case
    return next((value for value in callspec.params.values() if isinstance(value, case_type)), None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    summary = item.config.stash[_SUMMARY]
    if not summary.active:
        return
    case = _case_of(item)
    if case is None:
        return
    report: pytest.TestReport = outcome.get_result()
    if report.when == "call" or (report.when == "setup" and not report.passed):
        summary.entries[item.nodeid] = _entry(case, report)


def _entry(case: Case, report: pytest.TestReport) -> _Entry:
    from .vectors import take_verdict

    verdict = take_verdict(case.id) if report.when == "call" else None
    if verdict is not None:
        judged = verdict.outcome
        if verdict.breaks_run:
            status = "fail" if judged.name in ("pass", "fail") else "error"
        elif judged.passed:
            status = "pass"
        elif verdict.listed is not None:
            status = "known"
        else:
            status = "skip" if judged.name == "skip" else "fail"
        reason = judged.reason if not (verdict.breaks_run and judged.passed) else "listed as a known failure, but passes"
        return _Entry(case, status, verdict.breaks_run, reason)
    # The test never reached Case.check: pytest's own verdict.
    if report.passed:
        return _Entry(case, "pass", False, "")
    if report.skipped:
        known = hasattr(report, "wasxfail")
        return _Entry(case, "known" if known else "skip", False, _short(report))
    return _Entry(case, "error", True, _short(report))


def _short(report: pytest.TestReport) -> str:
    if hasattr(report, "wasxfail"):
        return str(report.wasxfail)
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return str(crash.message)
    lines = str(report.longrepr).splitlines()
    return lines[-1] if lines else ""


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    summary = session.config.stash[_SUMMARY]
    broken = summary.active and any(entry.breaks_run for entry in summary.entries.values())
    if broken and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    summary = config.stash[_SUMMARY]
    if not summary.active:
        return
    write = terminalreporter.write_line
    terminalreporter.write_sep("=", "zarr-reshape conformance")
    entries = list(summary.entries.values())
    if not entries:
        write("no test parametrized over zarr_reshape.vectors cases ran")
        return
    for line in table("clause", _tally(entries, lambda entry: entry.case.clause)):
        write(line)
    write("")
    for line in table("level", _tally(entries, lambda entry: entry.case.level)):
        write(line)
    broken = [entry for entry in entries if entry.breaks_run]
    must_broken = [entry for entry in broken if entry.case.level == "must"]
    if broken:
        write("")
        write(f"Failures, errors and crashes that break the run ({len(broken)}, {len(must_broken)} of level must):")
        for entry in broken:
            write(f"  {entry.status.upper()} {entry.case.id} [{entry.case.level}, {entry.case.clause}]: {entry.reason}")
    quiet = [entry for entry in entries if entry.status == "fail" and not entry.breaks_run]
    if quiet:
        write("")
        write(f"Failures that do not break the run (level should or interpretation): {len(quiet)}")
        for entry in quiet:
            write(f"  FAIL {entry.case.id} [{entry.case.level}]: {entry.reason}")
    ran_must = any(entry.case.level == "must" and entry.status != "skip" for entry in entries)
    write("")
    if broken:
        write(f"zarr-reshape: FAILED ({len(broken)} cases break the run)")
    elif not ran_must:
        write("zarr-reshape: no must case ran; this shows nothing of conformance")
    else:
        write("zarr-reshape: passed (no case breaks the run)")


def _tally(entries: list[_Entry], key: Any) -> dict[str, Counter[str]]:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for entry in entries:
        rows[key(entry)][entry.status] += 1
    return dict(sorted(rows.items()))


def table(title: str, rows: dict[str, Counter[str]]) -> list[str]:
    """Rows of counts as aligned text lines, with a total line.

    >>> from collections import Counter
    >>> print("\\n".join(table("clause", {"shape.size": Counter({"pass": 3, "fail": 1})})))
    clause      pass  fail  known  skip  error
    shape.size     3     1      0     0      0
    total          3     1      0     0      0
    """
    total: Counter[str] = Counter()
    for counts in rows.values():
        total.update(counts)
    lines: list[tuple[str, ...]] = [(title, *COLUMNS)]
    lines += [(name, *(str(counts[column]) for column in COLUMNS)) for name, counts in rows.items()]
    lines.append(("total", *(str(total[column]) for column in COLUMNS)))
    width = max(len(line[0]) for line in lines)
    return [
        line[0].ljust(width) + "".join(cell.rjust(len(column) + 2) for cell, column in zip(line[1:], COLUMNS))
        for line in lines
    ]
