"""Answers of the reference itself (the zarr_reshape library), one per case: the
implementation under test in the suite's own pytest tests."""

from __future__ import annotations

from typing import Any

import zarr_reshape
from zarr_reshape.vectors import (
    Answer,
    Case,
    crashed,
    error,
    output,
    output_array,
    skipped,
)


def _chain_json(shapes: zarr_reshape.ChainShapes) -> dict[str, Any]:
    answer: dict[str, Any] = {"encoded_shapes": [list(shape) for shape in shapes.encoded_shapes]}
    if shapes.inner is not None:
        answer["inner"] = _chain_json(shapes.inner)
    return answer


def _operate(case: Case) -> Answer:
    codec = case.codec_json  # the exact text: 1e400 is no float
    if case.operation == "resolve":
        return output(encoded_shape=zarr_reshape.resolve(codec, case.decoded_shape))
    if case.operation == "encode":
        return output_array(zarr_reshape.encode(codec, case.input_array(), case.decoded_shape))
    if case.operation == "decode":
        return output_array(zarr_reshape.decode(codec, case.input_array(), case.decoded_shape))
    if case.operation == "map-index":
        return output(encoded_index=zarr_reshape.map_index(codec, case.decoded_shape, case.decoded_index))
    if case.operation == "map-region":
        start, stop = case.decoded_region
        return output(encoded_indices=list(zarr_reshape.map_region(codec, case.decoded_shape, start, stop)))
    if case.operation == "resolve-chain":
        try:
            shapes = zarr_reshape.resolve_chain(case.codecs, case.decoded_shape, case.data_type)
        except NotImplementedError as missing:
            return skipped(str(missing))
        return output(**_chain_json(shapes))
    return skipped(f"the library has no {case.operation} operation")


def reference_answer(case: Case) -> Answer:
    """The reference's answer: its refusals as errors, anything else as a crash."""
    try:
        return _operate(case)
    except zarr_reshape.ReshapeError as refusal:
        return error(refusal, str(refusal))
    except Exception as unexpected:  # noqa: BLE001 - the protocol's crashed form
        return crashed(f"{type(unexpected).__name__}: {unexpected}")
