"""Arrays written by zarr-python through zarr_reshape.zarr.ReshapeCodec, laid out as a
suite root for other readers (the reference, zarrs):

    OUT/clauses.json                            the embedded suite's clause registry
    OUT/arrays/<name>/                          zarr.json and chunks, as zarr-python wrote them
    OUT/arrays/<name>-unpacked/                 a sharded array's inner chunks, byte for byte,
                                                as an array of its own (the reference reads no
                                                sharded array; zarrs reads both)
    OUT/zarr-python-written/read-array.json     read-array cases, paths relative to OUT

Each case expects the values handed to zarr-python (not what it reads back), so a
wrong write or a wrong read turns the run red. Run as a script:

    python python/tests/written/write_arrays.py OUT   # OUT must not exist, or be empty
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import zarr
import zarr.storage
from zarr.codecs import BytesCodec, Crc32cCodec, GzipCodec, ShardingCodec, TransposeCodec

from zarr_reshape import _native
from zarr_reshape.zarr import QUALIFIED_NAME, ReshapeCodec, register

CASES_FOLDER = "zarr-python-written"


@dataclass(frozen=True)
class Written:
    name: str
    description: str
    clauses: tuple[str, ...]
    shape: tuple[int, ...]
    chunks: tuple[int, ...]
    # (filters, serializer, compressors) as zarr.create_array takes them.
    filters: tuple[Any, ...]
    serializer: Any
    compressors: tuple[Any, ...]
    values: np.ndarray  # C-order bytes are the same before and after reshape alone:
    # a transpose after it is what tells a reshaped chunk from an unreshaped one.
    # The reshape entry and the chunk shape it is handed (after the codecs before it).
    reshape: ReshapeCodec
    reshape_input: tuple[int, ...]
    boxes: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


def _floats(shape: tuple[int, ...]) -> np.ndarray:
    values = np.linspace(-7.5, 9.25, num=int(np.prod(shape)), dtype=np.float64)
    specials = [np.nan, np.inf, -np.inf, -0.0]
    values[: len(specials)] = specials
    return values.reshape(shape)


def _arrays() -> list[Written]:
    uint64 = np.arange(12 * 8, dtype=np.uint64).reshape(12, 8) * np.uint64(0x0101_0101_0101)
    uint64[0, 0], uint64[11, 7] = np.iinfo(np.uint64).max, 0
    merge = ReshapeCodec(shape=[[0], 2, -1])
    around = ReshapeCodec(shape=[[0], 3, -1])
    inner = ReshapeCodec(shape=[2, -1])
    return [
        Written(
            name="reshape-alone",
            description="float64 7x10 in chunks of 3x4 (edge chunks), reshape [[0], 2, -1] to 3x2x2, bytes little endian; NaN, the infinities and -0.0 among the values.",
            clauses=("algorithm.ravel", "shape.input-dims", "shape.auto.value", "algorithm.rank"),
            shape=(7, 10), chunks=(3, 4),
            filters=(merge,), serializer=BytesCodec(endian="little"), compressors=(),
            values=_floats((7, 10)), reshape=merge, reshape_input=(3, 4),
            boxes=(((2, 3), (6, 9)),),
        ),
        Written(
            name="transpose-around-reshape",
            description="int16 8x5x4 in chunks of 6x4x4 (edge chunks), transpose [1, 0, 2], reshape [[0], 3, -1] (4x6x4 to 4x3x8), transpose [2, 0, 1], bytes big endian, gzip.",
            clauses=("algorithm.ravel", "shape.input-dims", "input-dims.prefix", "shape.auto.value"),
            shape=(8, 5, 4), chunks=(6, 4, 4),
            filters=(TransposeCodec(order=(1, 0, 2)), around, TransposeCodec(order=(2, 0, 1))),
            serializer=BytesCodec(endian="big"), compressors=(GzipCodec(level=5),),
            values=(np.arange(160, dtype=np.int16).reshape(8, 5, 4) * 211 - 16000).astype(np.int16),
            reshape=around, reshape_input=(4, 6, 4),
            boxes=(((1, 2, 1), (7, 5, 3)),),
        ),
        Written(
            name="reshape-inside-sharding",
            description="uint64 12x8 in shards of 8x8 (edge shards) of inner chunks 4x4, inner codecs reshape [2, -1] (to 2x8), transpose [1, 0] (to 8x2), bytes little endian, crc32c; uint64's extremes among the values.",
            clauses=("algorithm.ravel", "shape.auto.value", "shape.size", "algorithm.rank"),
            shape=(12, 8), chunks=(8, 8),
            filters=(),
            serializer=ShardingCodec(
                chunk_shape=(4, 4),
                codecs=[inner, TransposeCodec(order=(1, 0)), BytesCodec(endian="little"), Crc32cCodec()],
            ),
            compressors=(),
            values=uint64, reshape=inner, reshape_input=(4, 4),
            boxes=(((3, 1), (10, 7)),),
        ),
    ]


def protocol_data(values: np.ndarray) -> Any:
    """Nested lists in C order, floats' NaN and infinities as the protocol's strings."""
    if values.dtype.kind != "f":
        return values.tolist()

    def spell(item: Any) -> Any:
        if isinstance(item, list):
            return [spell(inner) for inner in item]
        if item != item:
            return "NaN"
        if item in (float("inf"), float("-inf")):
            return "Infinity" if item > 0 else "-Infinity"
        return item

    return spell(values.tolist())


def _write_one(out: Path, spec: Written) -> list[dict[str, Any]]:
    folder = out / "arrays" / spec.name
    store = zarr.storage.LocalStore(folder)
    array = zarr.create_array(
        store,
        shape=spec.shape,
        chunks=spec.chunks,
        dtype=spec.values.dtype,
        filters=list(spec.filters),
        serializer=spec.serializer,
        compressors=list(spec.compressors),
        fill_value=0,
    )
    array[...] = spec.values
    return _cases(spec, spec.name)


def _cases(spec: Written, name: str) -> list[dict[str, Any]]:
    """The read-array cases of the array ``arrays/<name>``: whole, then each box."""
    configuration = spec.reshape.to_dict()["configuration"]
    data_type = str(spec.values.dtype)
    cases = []
    regions: list[tuple[str, tuple[tuple[int, ...], tuple[int, ...]] | None]] = [("Read whole.", None)]
    regions += [(f"Read the box {list(a)}..{list(b)}.", (a, b)) for a, b in spec.boxes]
    for read, region in regions:
        case: dict[str, Any] = {
            "id": f"{CASES_FOLDER}/{name}",
            "description": f"Written by zarr-python {zarr.__version__} with {QUALIFIED_NAME}: {spec.description} {read}",
            "clauses": list(spec.clauses),
            "level": "must",
            "operation": "read-array",
            "configuration": configuration,
            "decoded_shape": list(spec.reshape_input),
            "array": {"path": f"arrays/{name}", "data_type": data_type},
        }
        values = spec.values
        if region is not None:
            start, stop = region
            case["id"] += "/box-" + "-".join(str(n) for n in (*start, *stop))
            case["decoded_region"] = {"start": list(start), "stop": list(stop)}
            values = values[tuple(slice(a, b) for a, b in zip(start, stop))]
        case["expect"] = {"shape": list(values.shape), "data": protocol_data(values)}
        cases.append(case)
    return cases


def _unpack_shards(out: Path, spec: Written) -> str:
    """The inner chunks of a sharded array, their bytes as zarr-python wrote them, as
    an unsharded array with the inner chunk grid and the inner codecs; returns its name.

    The shard index (at the end: per inner chunk, offset and length as little-endian
    uint64, then a crc32c) is the only part read; an empty entry (both 2^64 - 1)
    leaves the chunk out (fill value)."""
    name = f"{spec.name}-unpacked"
    source, target = out / "arrays" / spec.name, out / "arrays" / name
    metadata = json.loads((source / "zarr.json").read_text(encoding="utf-8"))
    (sharding,) = metadata["codecs"]
    inner_shape = tuple(sharding["configuration"]["chunk_shape"])
    per_shard = tuple(outer // inner for outer, inner in zip(spec.chunks, inner_shape))
    grid = tuple(-(-extent // inner) for extent, inner in zip(spec.shape, inner_shape))
    metadata["chunk_grid"]["configuration"]["chunk_shape"] = list(inner_shape)
    metadata["codecs"] = sharding["configuration"]["codecs"]
    target.mkdir(parents=True)
    (target / "zarr.json").write_text(json.dumps(metadata, indent=1), encoding="utf-8")
    entries = int(np.prod(per_shard))
    for shard_file in sorted((source / "c").rglob("*")):
        if not shard_file.is_file():
            continue
        shard = tuple(int(part) for part in shard_file.relative_to(source / "c").parts)
        data = shard_file.read_bytes()
        index = np.frombuffer(data[len(data) - 4 - 16 * entries : len(data) - 4], dtype="<u8").reshape(entries, 2)
        for flat, (offset, length) in enumerate(index.tolist()):
            if offset == length == 2**64 - 1:
                continue
            within = np.unravel_index(flat, per_shard)
            chunk = tuple(s * p + int(w) for s, p, w in zip(shard, per_shard, within))
            if any(c >= g for c, g in zip(chunk, grid)):
                continue
            path = target.joinpath("c", *(str(c) for c in chunk))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data[offset : offset + length])
    return name


def write_all(out: Path) -> int:
    """Writes every array and the vector file below ``out`` (absent or empty); returns
    the number of cases."""
    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty")
    register()
    (out / "clauses.json").write_text(_native.clauses_json(), encoding="utf-8")
    cases: list[dict[str, Any]] = []
    with zarr.config.set({"codecs.reshape": QUALIFIED_NAME}):
        for spec in _arrays():
            cases.extend(_write_one(out, spec))
            if isinstance(spec.serializer, ShardingCodec):
                cases.extend(_cases(spec, _unpack_shards(out, spec)))
    (out / CASES_FOLDER).mkdir()
    vectors = json.dumps({"format": 1, "cases": cases}, indent=1, allow_nan=False)
    (out / CASES_FOLDER / "read-array.json").write_text(vectors + "\n", encoding="utf-8")
    return len(cases)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: write_arrays.py OUT_DIR   (OUT_DIR absent or empty)")
    print(f"{write_all(Path(sys.argv[1]))} read-array cases in {sys.argv[1]}/{CASES_FOLDER}/read-array.json")
