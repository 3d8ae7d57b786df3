"""Every read-array fixture of the suite read through zarr-python 3.4.2 with
zarr_reshape.zarr.ReshapeCodec selected, judged by the suite's own judge; zarr-python's
known failures come from conformance/expectations/zarr-python-3.4.2-reference-codec.toml,
and the runner's rule (Suite.breaks_run) decides pass, xfail or fail.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

zarr = pytest.importorskip("zarr")
import zarr.storage  # noqa: E402

from zarr_reshape import InputDimsMisaligned, RepeatedAuto, ReshapeError, _native  # noqa: E402
from zarr_reshape.zarr import QUALIFIED_NAME, ReshapeCodec, register  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[2]
EXPECTATIONS = REPOSITORY / "conformance" / "expectations" / "zarr-python-3.4.2-reference-codec.toml"
# The expectations file is exact for this version only.
pytestmark = pytest.mark.skipif(zarr.__version__ != "3.4.2", reason="measured with zarr-python 3.4.2")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("suite") / "suite"
    _native.export_suite(root)
    return _native.Suite(root)


@pytest.fixture(scope="module")
def expectations_text() -> str:
    return EXPECTATIONS.read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def selected() -> Iterator[None]:
    register()
    with zarr.config.set({"codecs.reshape": QUALIFIED_NAME}):
        yield


def read_array_ids() -> list[str]:
    # Collected before any fixture runs: the embedded suite's read-array cases.
    cases = json.loads((REPOSITORY / "spec-cases" / "generated" / "read-array.json").read_text(encoding="utf-8"))
    return [case["id"] for case in cases["cases"]]


def spelled(values: Any, is_float: bool) -> Any:
    """numpy's tolist() in the protocol's form: NaN and the infinities as strings."""
    if isinstance(values, list):
        return [spelled(item, is_float) for item in values]
    if is_float and values != values:
        return "NaN"
    if is_float and values in (float("inf"), float("-inf")):
        return "Infinity" if values > 0 else "-Infinity"
    return values


def is_rejection(error: BaseException) -> bool:
    """A refusal on purpose (as the zarr-python adapter counts them), not a crash."""
    package = (type(error).__module__ or "").split(".")[0]
    return package in ("zarr", "zarr_reshape") or isinstance(error, (ValueError, TypeError, RuntimeError, OSError))


def read_result(case: dict[str, Any]) -> dict[str, Any]:
    """The protocol's result of one read-array case, read as a zarr-python user does."""
    try:
        store = zarr.storage.LocalStore(case["array"]["path"], read_only=True)
        array = zarr.open_array(store=store, mode="r")
        region = case.get("decoded_region")
        selection = Ellipsis if region is None else tuple(slice(a, b) for a, b in zip(region["start"], region["stop"]))
        data = np.asarray(array[selection])
    except Exception as error:
        message = f"{type(error).__name__}: {error}"
        if not is_rejection(error):
            return {"crashed": {"message": message}}
        return {"error": {"class": getattr(error, "error_class", None) or None, "message": message}}
    if data.dtype != np.dtype(case["array"]["data_type"]):
        return {"errored": {"message": f"read {data.dtype}, the case says {case['array']['data_type']}"}}
    return {"shape": list(data.shape), "data": spelled(data.tolist(), data.dtype.kind == "f")}


@pytest.mark.parametrize("case_id", read_array_ids())
def test_fixture_read_through_zarr_python(suite: Any, expectations_text: str, case_id: str) -> None:
    wire = {row[0]: json.loads(row[6]) for row in suite.cases()}[case_id]
    outcome, reason = suite.judge(case_id, json.dumps(read_result(wire)))
    listed = suite.expectations(expectations_text).get(case_id)
    if suite.breaks_run(case_id, outcome, reason, expectations_text):
        listed_as = "unlisted" if listed is None else f"listed as {listed[1]}"
        pytest.fail(f"{outcome} ({listed_as}): {reason}")
    if listed is not None:
        pytest.xfail(listed[0])
    if outcome == "skip":
        pytest.skip(reason)


def test_expectations_name_only_read_array_cases(suite: Any, expectations_text: str) -> None:
    listed = {case_id for entry in tomllib.loads(expectations_text)["failure"] for case_id in entry["ids"]}
    known = suite.expectations(expectations_text)
    assert listed == set(known), "ids that are no case of the suite"
    assert listed <= set(read_array_ids())
    for entry in tomllib.loads(expectations_text)["failure"]:
        assert "source" in entry and entry["source"].strip()


def test_to_dict_is_the_entry_as_written() -> None:
    entry = {"name": "reshape", "configuration": {"shape": [[0, 1], 2.0, 18446744073709551616]}, "must_understand": True}
    codec = ReshapeCodec.from_dict(entry)
    assert codec.to_dict() == entry
    assert json.dumps(codec.to_dict()) == json.dumps(entry)
    assert codec.to_dict() is not codec.to_dict()  # a caller's edit cannot reach the codec
    assert ReshapeCodec(shape=[[0, 1], -1]) == ReshapeCodec.from_dict(ReshapeCodec(shape=[[0, 1], -1]).to_dict())
    with pytest.raises(ValueError, match="not a reshape codec"):
        ReshapeCodec.from_dict({"name": "transpose", "configuration": {"order": [0]}})


def spec_of(shape: tuple[int, ...], dtype: str = "int32") -> Any:
    from zarr.core.array_spec import ArrayConfig, ArraySpec
    from zarr.core.buffer import default_buffer_prototype
    from zarr.core.dtype import get_data_type_from_native_dtype

    zdtype = get_data_type_from_native_dtype(np.dtype(dtype))
    return ArraySpec(
        shape=shape,
        dtype=zdtype,
        fill_value=zdtype.default_scalar(),
        config=ArrayConfig.from_dict({}),
        prototype=default_buffer_prototype(),
    )


def test_resolve_metadata_is_the_references_b_shape() -> None:
    from zarr_reshape import resolve

    codec = ReshapeCodec(shape=[[0, 1], -1])
    shape = (2**33, 3, 4)  # exact ints, beyond 32 bits
    assert codec.resolve_metadata(spec_of(shape)).shape == resolve({"shape": [[0, 1], -1]}, shape)
    assert codec.compute_encoded_size(96, spec_of((2, 3, 4))) == 96


def test_resolve_metadata_placeholder_keeps_rank_and_count() -> None:
    # An array's whole shape, which zarr-python threads through the chain at open.
    placeholder = ReshapeCodec(shape=[3, 8]).resolve_metadata(spec_of((8, 12))).shape
    assert len(placeholder) == 2 and int(np.prod(placeholder)) == 96


def test_encode_decode_through_the_reference_zero_copy() -> None:
    from zarr.core.buffer import default_buffer_prototype

    codec = ReshapeCodec(shape=[[0, 1], -1])
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    chunk = default_buffer_prototype().nd_buffer.from_numpy_array(a)
    encoded = codec._encode_sync(chunk, spec_of((2, 3, 4)))
    assert encoded is not None and encoded.shape == (6, 4)
    assert np.shares_memory(encoded.as_numpy_array(), a)
    decoded = codec._decode_sync(encoded, spec_of((2, 3, 4)))
    assert np.array_equal(decoded.as_numpy_array(), a)
    with pytest.raises(InputDimsMisaligned):
        ReshapeCodec(shape=[[0], [2], -1])._encode_sync(chunk, spec_of((2, 3, 4)))


def test_validate_raises_the_references_errors() -> None:
    from zarr.core.metadata.v3 import RegularChunkGridMetadata as RegularChunkGrid

    dtype = spec_of((1,)).dtype
    # The configuration's own rules, whatever the shape.
    with pytest.raises(RepeatedAuto):
        ReshapeCodec(shape=[-1, -1]).validate(shape=(8, 12), dtype=dtype, chunk_grid=RegularChunkGrid(chunk_shape=(4, 6)))
    # Shape rules when the codec is handed one chunk of the grid (inner codecs of sharding).
    with pytest.raises(InputDimsMisaligned):
        ReshapeCodec(shape=[[0], [2], -1]).validate(shape=(2, 3, 4), dtype=dtype, chunk_grid=RegularChunkGrid(chunk_shape=(2, 3, 4)))
    # The array's shape is not the codec's: no verdict from it.
    ReshapeCodec(shape=[3, 8]).validate(shape=(8, 12), dtype=dtype, chunk_grid=RegularChunkGrid(chunk_shape=(4, 6)))


def test_sharding_refuses_an_invalid_inner_reshape(tmp_path: Path) -> None:
    from zarr.codecs import BytesCodec, ShardingCodec

    sharding = ShardingCodec(chunk_shape=(2, 3, 4), codecs=[ReshapeCodec(shape=[[0], [2], -1]), BytesCodec()])
    with pytest.raises(ReshapeError) as refused:
        zarr.create_array(zarr.storage.LocalStore(tmp_path / "a"), shape=(4, 6, 8), chunks=(4, 6, 8), dtype="int32", serializer=sharding)
    assert refused.value.clause == "input-dims.prefix"


@pytest.mark.parametrize("dtype", ["complex128", "str", "<U4", [("a", "<i2"), ("b", "<f8")]])
def test_arrays_of_every_element_kind_write_and_read_back(tmp_path: Path, dtype: object) -> None:
    """complex128 and fixed-width text move as whole elements through the reference;
    variable-width strings (references) are moved by NumPy after the reference
    resolved the shapes. nd-image-codecs stores all of these; so must we."""
    values = np.arange(24).reshape(4, 6)
    if dtype == "str":
        data = values.astype(str).astype(object)
    elif isinstance(dtype, list):
        data = np.zeros((4, 6), dtype=dtype)
        data["a"], data["b"] = values, values / 7
    else:
        data = values.astype(dtype)
    register()
    array = zarr.create_array(
        zarr.storage.LocalStore(tmp_path / "a.zarr"),
        shape=(4, 6),
        chunks=(2, 6),
        dtype=data.dtype if dtype != "str" else "str",
        filters=[ReshapeCodec(shape=[-1])],
        compressors=None,
    )
    array[...] = data
    read = zarr.open_array(zarr.storage.LocalStore(tmp_path / "a.zarr", read_only=True), mode="r")[...]
    assert np.array_equal(np.asarray(read).astype(data.dtype) if dtype == "str" else read, data)
