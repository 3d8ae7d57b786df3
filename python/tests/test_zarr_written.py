"""Arrays that zarr-python writes through zarr_reshape.zarr.ReshapeCodec (reshape alone,
transposes around reshape, reshape inside sharding), read back by the reference: the
runner (`zarr-reshape run --cases FOLDER`, in-process) over the folder that
written/write_arrays.py lays out as a suite root. zarrs reads the same folder in CI:
written/check-zarrs.sh.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

zarr = pytest.importorskip("zarr")
import zarr.storage  # noqa: E402

from zarr_reshape import _native  # noqa: E402
from zarr_reshape.zarr import QUALIFIED_NAME, register  # noqa: E402

WRITER = Path(__file__).resolve().parent / "written" / "write_arrays.py"
# The sharded array zarr-python writes; the writer also unpacks its inner chunks,
# byte for byte, into an array of their own: the reference reads both.
SHARDED = "reshape-inside-sharding"


@functools.cache
def load_writer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("zarr_reshape_tests_write_arrays", WRITER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Its dataclass looks its module up in sys.modules.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("written") / "suite"
    count = load_writer().write_all(root)
    assert count >= 6
    return root


def run_records(root: Path, tmp_path: Path, *adapter: str) -> list[dict[str, Any]]:
    """The case records of `zarr-reshape run --cases root`, and its exit code checked."""
    jsonl = tmp_path / "run.jsonl"
    code = _native.command_line(["zarr-reshape", "run", *adapter, "--cases", str(root), "--report", f"jsonl={jsonl}"])
    records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert code == 0, [r for r in records if r.get("type") == "case" and r.get("outcome") != "pass"]
    return [record for record in records if record.get("type") == "case"]


def test_the_reference_reads_what_zarr_python_wrote(written: Path, tmp_path: Path) -> None:
    records = run_records(written, tmp_path)
    vectors = json.loads((written / "zarr-python-written" / "read-array.json").read_text(encoding="utf-8"))
    assert [r["id"] for r in records] == [case["id"] for case in vectors["cases"]]
    for record in records:
        assert record["outcome"] == "pass", record
    assert any(r["id"].split("/")[1] == SHARDED for r in records)
    unpacked = [r for r in records if r["id"].split("/")[1] == f"{SHARDED}-unpacked"]
    assert unpacked and all(r["outcome"] == "pass" for r in unpacked)


def test_zarr_python_reads_back_what_it_wrote(written: Path) -> None:
    suite = _native.Suite(written)
    register()
    with zarr.config.set({"codecs.reshape": QUALIFIED_NAME}):
        for case_id, _level, _operation, _clauses, _interpretations, _description, wire in suite.cases():
            case = json.loads(wire)
            array = zarr.open_array(store=zarr.storage.LocalStore(case["array"]["path"], read_only=True), mode="r")
            region = case.get("decoded_region")
            selection = Ellipsis if region is None else tuple(slice(a, b) for a, b in zip(region["start"], region["stop"]))
            data = array[selection]
            result = {"shape": list(data.shape), "data": load_writer().protocol_data(data)}
            assert suite.judge(case_id, json.dumps(result)) == ("pass", ""), case_id


def test_the_metadata_holds_the_codec_as_given(written: Path) -> None:
    metadata = json.loads((written / "arrays" / "transpose-around-reshape" / "zarr.json").read_text(encoding="utf-8"))
    assert {"name": "reshape", "configuration": {"shape": [[0], 3, -1]}} in metadata["codecs"]
