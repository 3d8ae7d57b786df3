"""nd-image-codecs' ``ReshapeCodec`` tested against the zarr-reshape suite, called as
zarr-python calls an array -> array codec: ``resolve_metadata`` on the chunk's
``ArraySpec``, then ``_encode_single`` or ``_decode_single`` with the decoded spec.

    pip install zarr-reshape nd-image-codecs==0.2.5 zarr==3.4.2
    pytest python/examples/test_nd_image_codecs.py --zarr-reshape-summary

Every case it fails is listed, with its cause, in the known failures file: a
listed case that fails as listed is an xfail; anything else that breaks the run fails.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from nd_image_codecs.zarr_codec import ReshapeCodec
from zarr.core.array_spec import ArrayConfig, ArraySpec
from zarr.core.buffer import default_buffer_prototype
from zarr.core.dtype import get_data_type_from_native_dtype
from zarr_reshape.vectors import (
    Answer,
    Case,
    cases,
    crashed,
    error,
    known_failures,
    output,
    output_array,
)

KNOWN = known_failures(
    Path(__file__).resolve().parents[2] / "conformance/expectations/nd-image-codecs-0.2.5.python.toml"
)
PROTOTYPE = default_buffer_prototype()


def chunk_spec(shape: tuple[int, ...], dtype: np.dtype) -> ArraySpec:
    """What zarr-python hands a codec for one chunk."""
    config = ArrayConfig.from_dict({})
    zdtype = get_data_type_from_native_dtype(dtype)
    return ArraySpec(shape=shape, dtype=zdtype, fill_value=0, config=config, prototype=PROTOTYPE)


def run_codec(case: Case) -> Answer:
    codec = ReshapeCodec.from_dict(case.codec)  # as zarr-python builds it from zarr.json
    dtype = np.dtype("uint8" if case.operation == "resolve" else case.data_type)
    decoded_spec = chunk_spec(case.decoded_shape, dtype)
    encoded_spec = codec.resolve_metadata(decoded_spec)  # zarr-python resolves before any chunk
    if case.operation == "resolve":
        return output(encoded_shape=encoded_spec.shape)
    chunk = PROTOTYPE.nd_buffer.from_numpy_array(case.input_array())
    if case.operation == "encode":
        result = asyncio.run(codec._encode_single(chunk, decoded_spec))
    else:
        result = asyncio.run(codec._decode_single(chunk, decoded_spec))
    return output_array(result.as_numpy_array())


@pytest.mark.zarr_reshape
@pytest.mark.parametrize("case", cases(operation=["resolve", "encode", "decode"]), ids=str)
def test_reshape_codec(case: Case) -> None:
    try:
        answer = run_codec(case)
    except ValueError as refusal:  # the codec's (and zarr-python's) way of refusing
        answer = error(None, f"ValueError: {refusal}")
    except Exception as bug:  # noqa: BLE001 - anything else is no refusal: a crash
        answer = crashed(f"{type(bug).__name__}: {bug}")
    case.check(answer, KNOWN)
