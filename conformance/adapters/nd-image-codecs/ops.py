"""The suite's operations, each asked of nd-image-codecs' ReshapeCodec through the
calls zarr-python 3.4.2 makes when it opens and reads an array (see README.md)."""

from __future__ import annotations

import asyncio
import linecache
import traceback
from typing import Any

import numpy as np
import zarr
from zarr.abc.codec import ArrayArrayCodec, ArrayBytesCodec
from zarr.codecs.sharding import ShardingCodec
from zarr.core.array import create_codec_pipeline
from zarr.core.array_spec import ArrayConfig, ArraySpec
from zarr.core.buffer import default_buffer_prototype
from zarr.core.dtype import get_data_type_from_json
from zarr.core.common import parse_named_configuration
from zarr.core.metadata.v3 import ArrayV3Metadata, parse_chunk_grid, parse_codecs

from zarr.registry import get_codec_class

from values import BadRequest, plain, to_json, to_numpy

PROTOTYPE = default_buffer_prototype()


class NotReshape(Exception):
    """The registry chose another class for the codec object: not a case of this codec."""


def _innermost(error: BaseException) -> traceback.FrameSummary | None:
    frames = traceback.extract_tb(error.__traceback__)
    return frames[-1] if frames else None


def is_refusal(error: BaseException) -> bool:
    """Whether the library refused its input on purpose (an error answer), or crashed.

    A refusal is a ValueError (the Python convention, and what ReshapeCodec raises for
    a configuration it rejects), an error class of zarr-python's own (zarr.errors,
    BadConfigError), or a TypeError that zarr-python raises itself with a `raise`
    statement (its parse_named_configuration and codec-order checks). Anything else
    is a crash: a TypeError the interpreter raises (an unexpected keyword argument,
    iterating an int, comparing a str with an int), an OverflowError from numpy, an
    IndexError, a ZeroDivisionError.
    """
    if isinstance(error, ValueError):
        return True
    module = type(error).__module__ or ""
    if module == "zarr" or module.startswith("zarr."):
        return True
    if isinstance(error, TypeError):
        frame = _innermost(error)
        if frame is not None and "/zarr/" in frame.filename.replace("\\", "/"):
            line = linecache.getline(frame.filename, frame.lineno or 0).strip()
            return line.startswith("raise ")
    return False


def describe(error: BaseException) -> str:
    """The exception, where it was raised, and what it was raised from, on one line."""
    parts: list[str] = []
    current: BaseException | None = error
    while current is not None and len(parts) < 4:
        text = f"{type(current).__name__}: {current}".rstrip(": ")
        frame = _innermost(current)
        if frame is not None:
            where = frame.filename.replace("\\", "/")
            for marker in ("/site-packages/", "/dist-packages/"):
                where = where.split(marker)[-1]
            text += f" (at {where}:{frame.lineno})"
        parts.append(text)
        current = current.__cause__ or current.__context__
    return " <- ".join(parts)


def chunk_spec(shape: Any, data_type: str) -> ArraySpec:
    """The ArraySpec zarr-python hands a codec for one chunk (as ArrayV3Metadata
    builds it: the array's data type, fill value 0, the default config)."""
    zdtype = get_data_type_from_json(data_type, zarr_format=3)
    return ArraySpec(
        shape=shape,
        dtype=zdtype,
        fill_value=zdtype.cast_scalar(0),
        config=ArrayConfig.from_dict({}),
        prototype=PROTOTYPE,
    )


def codec_from_json(case: dict[str, Any]) -> Any:
    """The codec object of the case, through zarr-python's own metadata parsing
    (parse_codecs: parse_named_configuration, get_codec_class, from_dict)."""
    if "codec" in case:
        codec_json = plain(case["codec"])
    else:
        codec_json = {"name": "reshape", "configuration": plain(case.get("configuration"))}
    # parse_codecs' own first steps: which class does the registry pick for the name?
    name, _ = parse_named_configuration(codec_json, require_configuration=False)
    chosen = get_codec_class(name)
    if chosen.__module__ != "nd_image_codecs.zarr_codec":
        raise NotReshape(f"zarr-python's registry picks {chosen.__qualname__} for {name!r}")
    (codec,) = parse_codecs([codec_json])
    return codec


def regular_grid(shape: Any) -> Any:
    """The chunk grid of an array that is one chunk of `shape`, or None where
    zarr-python refuses such a grid (ReshapeCodec.validate ignores the grid)."""
    try:
        return parse_chunk_grid({"name": "regular", "configuration": {"chunk_shape": list(shape)}})
    except Exception:  # noqa: BLE001 - the grid is no part of the question
        return None


def prepared(case: dict[str, Any], data_type: str) -> tuple[Any, ArraySpec]:
    """The codec and the decoded chunk spec, after what ArrayV3Metadata does for each
    codec before any chunk: evolve_from_array_spec, then validate."""
    codec = codec_from_json(case)
    spec = chunk_spec(tuple(case.get("decoded_shape") or ()), data_type)
    codec = codec.evolve_from_array_spec(spec)
    codec.validate(shape=spec.shape, dtype=spec.dtype, chunk_grid=regular_grid(spec.shape))
    return codec, spec


def resolve(case: dict[str, Any]) -> dict[str, Any]:
    codec, spec = prepared(case, "uint8")
    return {"encoded_shape": list(codec.resolve_metadata(spec).shape)}


def transcode(case: dict[str, Any]) -> dict[str, Any]:
    """encode / decode: the codec's public batch methods, as the codec pipeline calls
    them (each with the chunk spec of the decoded side)."""
    data = to_numpy(case.get("input"))
    codec, spec = prepared(case, str(case["input"]["data_type"]))
    codec.resolve_metadata(spec)  # the pipeline resolves every spec before any chunk
    chunk = PROTOTYPE.nd_buffer.from_numpy_array(data)
    method = codec.encode if case.get("operation") == "encode" else codec.decode
    (result,) = asyncio.run(method([(chunk, spec)]))
    return to_json(result.as_numpy_array())


def _chain_shapes(codecs: tuple[Any, ...], spec: ArraySpec) -> dict[str, Any]:
    """The shape each array -> array codec resolves to, in order, and the same for
    the inner chain of a sharding codec, by each codec's resolve_metadata."""
    shapes: list[list[int]] = []
    answer: dict[str, Any] = {"encoded_shapes": shapes}
    for codec in codecs:
        if isinstance(codec, ArrayArrayCodec):
            spec = codec.resolve_metadata(spec)
            shapes.append(list(spec.shape))
        elif isinstance(codec, ShardingCodec):
            inner = chunk_spec(tuple(codec.chunk_shape), "uint8")
            inner = ArraySpec(
                shape=inner.shape, dtype=spec.dtype, fill_value=spec.fill_value,
                config=spec.config, prototype=spec.prototype,
            )
            answer["inner"] = _chain_shapes(tuple(codec.codecs), inner)
        elif isinstance(codec, ArrayBytesCodec):
            continue
    return answer


def resolve_chain(case: dict[str, Any]) -> dict[str, Any]:
    """The case's codecs as the `codecs` of a zarr.json for the case's array context
    (`array_shape`, `chunk_grid`), or without one for an array that is one chunk of
    decoded_shape, read by ArrayV3Metadata.from_dict (parsing, then evolving,
    validating and resolving every codec on the array's spec, then
    _validate_metadata), then the codec pipeline built as opening builds it
    (create_codec_pipeline: the codec-order check). The shapes answered are those of
    a chunk of decoded_shape, the chunk grid's chunks."""
    data_type = case.get("data_type")
    if not isinstance(data_type, str):
        raise BadRequest("data_type must be a string")
    shape = list(case.get("decoded_shape") or [])
    grid = plain(case.get("chunk_grid", {"name": "regular", "configuration": {"chunk_shape": shape}}))
    document = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(case.get("array_shape", shape)),
        "data_type": data_type,
        "chunk_grid": grid,
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": False if data_type == "bool" else 0,
        "codecs": plain(case.get("codecs")),
        "attributes": {},
    }
    metadata = ArrayV3Metadata.from_dict(document)
    create_codec_pipeline(metadata)
    return _chain_shapes(metadata.codecs, chunk_spec(tuple(shape), data_type))


def read_array(case: dict[str, Any]) -> dict[str, Any]:
    spec = case.get("array") or {}
    path, data_type = spec.get("path"), spec.get("data_type")
    if not isinstance(path, str) or not isinstance(data_type, str):
        raise BadRequest("array.path and array.data_type must be strings")
    region = case.get("decoded_region")
    array = zarr.open_array(store=zarr.storage.LocalStore(path, read_only=True), mode="r")
    if region is None:
        selection: Any = Ellipsis
    else:
        selection = tuple(slice(a, b) for a, b in zip(region["start"], region["stop"]))
    data = np.asarray(array[selection])
    if data.dtype.name != np.dtype(data_type).name:
        raise BadRequest(f"the case says {data_type}, zarr-python read {data.dtype}")
    return to_json(data)


OPERATIONS = {
    "resolve": resolve,
    "encode": transcode,
    "decode": transcode,
    "read-array": read_array,
    "resolve-chain": resolve_chain,
}
