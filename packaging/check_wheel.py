"""Checks the metadata and contents of the `zarr-reshape` wheel before anyone installs it.

Usage: python3 packaging/check_wheel.py WHEEL EXPECTED_VERSION

The wheel must be one abi3 wheel for CPython 3.11+: the package `zarr_reshape`
(its Python modules, the stub, `py.typed` and the extension module, which also
holds the runner) and its metadata only; the `zarr-reshape` console script and the
pytest plugin as entry points; the licence texts, and the fields a PyPI page and
`pip show` rely on. Standard library only, so that it runs before any venv exists.
Exits 1 with every problem listed.
"""

from __future__ import annotations

import configparser
import email.parser
import re
import sys
import zipfile
from pathlib import Path

EXPECTED = {
    "Name": "zarr-reshape",
    "License-Expression": "MIT OR Apache-2.0",
    "Description-Content-Type": "text/markdown",
}
LICENCE_FILES = {"LICENSE-MIT", "LICENSE-APACHE"}
# A bound on what is read: the METADATA of this wheel is a few kilobytes.
MAX_METADATA_BYTES = 1 << 20
# What the package folder may hold: Python modules, the stub of the extension
# module, the typing marker, and the extension module itself (abi3).
PACKAGE_FILE = re.compile(r"zarr_reshape/(\w+\.pyi?|py\.typed|_native\.abi3\.so)")
# Entry points: group -> name -> object reference.
ENTRY_POINTS = {
    "console_scripts": {"zarr-reshape": "zarr_reshape._cli:main"},
    "pytest11": {"zarr_reshape": "zarr_reshape.pytest_plugin"},
}


def problems_of(wheel_path: str, version: str) -> list[str]:
    problems = []
    prefix = f"zarr_reshape-{version}"
    with zipfile.ZipFile(wheel_path) as wheel:
        names = wheel.namelist()
        meta_name = f"{prefix}.dist-info/METADATA"
        if meta_name not in names:
            return [f"no {meta_name} in the wheel (a different version?); it holds {names}"]
        info = wheel.getinfo(meta_name)
        if info.file_size > MAX_METADATA_BYTES:
            return [f"{meta_name} is {info.file_size} bytes, over {MAX_METADATA_BYTES}"]
        metadata = email.parser.BytesParser().parsebytes(wheel.read(meta_name))
        entry_name = f"{prefix}.dist-info/entry_points.txt"
        entry_points = wheel.read(entry_name).decode() if entry_name in names else ""

    for field, wanted in EXPECTED.items():
        if metadata.get(field) != wanted:
            problems.append(f"METADATA {field}: {metadata.get(field)!r}, expected {wanted!r}")
    if metadata.get("Version") != version:
        problems.append(f"METADATA Version: {metadata.get('Version')!r}, expected {version!r}")
    for field in ("Summary", "Requires-Python"):
        if not metadata.get(field):
            problems.append(f"METADATA has no {field}")
    if not metadata.get_all("Classifier"):
        problems.append("METADATA has no Classifier")
    if not metadata.get_all("Project-URL"):
        problems.append("METADATA has no Project-URL")
    if len(metadata.get_payload() or "") < 200:
        problems.append("METADATA's description (the PyPI page) is missing or a stub")
    if set(metadata.get_all("License-File") or []) != LICENCE_FILES:
        problems.append(f"METADATA License-File: {metadata.get_all('License-File')}, expected {sorted(LICENCE_FILES)}")
    for licence in LICENCE_FILES:
        if f"{prefix}.dist-info/licenses/{licence}" not in names:
            problems.append(f"the wheel lacks the text of {licence}")

    if "-cp311-abi3-" not in wheel_path.rsplit("/", 1)[-1]:
        problems.append(f"{wheel_path} is not one abi3 wheel for CPython 3.11+")
    modules = [name for name in names if name.startswith("zarr_reshape/")]
    stray = [name for name in modules if not PACKAGE_FILE.fullmatch(name)]
    stray += [name for name in names if not name.startswith(("zarr_reshape/", f"{prefix}.dist-info/"))]
    if stray:
        problems.append(f"files outside the package and its metadata: {stray}")
    for wanted in ("zarr_reshape/__init__.py", "zarr_reshape/_native.abi3.so", "zarr_reshape/_native.pyi", "zarr_reshape/py.typed"):
        if wanted not in names:
            problems.append(f"the wheel lacks {wanted}")
    problems += entry_point_problems(entry_points)
    # Every module of the clone's package, and none it lacks: a wheel built
    # before a module was added (or after one was removed) is stale.
    sources = Path(__file__).resolve().parents[1] / "python" / "zarr_reshape"
    in_clone = {f"zarr_reshape/{path.name}" for path in sources.iterdir() if path.suffix in (".py", ".pyi") or path.name == "py.typed"}
    in_wheel = {name for name in modules if not name.endswith(".so")}
    if in_clone != in_wheel:
        problems.append(f"the wheel's modules differ from python/zarr_reshape/: only in the clone {sorted(in_clone - in_wheel)}, only in the wheel {sorted(in_wheel - in_clone)}")
    return problems


def entry_point_problems(text: str) -> list[str]:
    """The console script and the pytest plugin, as declared, and nothing else
    that would change what a user's code does: no `zarr.codecs` entry point, which
    would put a second `reshape` codec in zarr-python's choice (the plugin does
    nothing unless asked: pytest loads every `pytest11` entry point)."""
    parser = configparser.ConfigParser(delimiters=("=",))
    parser.optionxform = str  # keep names as written
    parser.read_string(text)
    found = {group: {name: value.strip() for name, value in parser[group].items()} for group in parser.sections()}
    if found != ENTRY_POINTS:
        return [f"entry points {found}, expected {ENTRY_POINTS}"]
    return []


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    wheel_path, version = sys.argv[1], sys.argv[2]
    problems = problems_of(wheel_path, version)
    for problem in problems:
        print(f"check_wheel: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check_wheel: {wheel_path}: metadata and contents as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
