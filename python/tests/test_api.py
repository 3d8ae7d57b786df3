"""The Python API beyond the vectors (test_vectors.py answers every case through
it): what each refusal carries, views and copies by buffer address, exact
integers, and the argument types it takes."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest

import zarr_reshape
from zarr_reshape import _native, vectors


def test_refusals_carry_class_clause_and_position() -> None:
    seen = 0
    for case in vectors.cases(operation="resolve"):
        try:
            zarr_reshape.resolve(case.codec_json, case.decoded_shape)
        except zarr_reshape.ReshapeError as error:
            seen += 1
            assert type(error) is zarr_reshape.error_class(error.error_class)
            assert error.clause, error
            # The same verdict the explanation ends in.
            explained = zarr_reshape.explain(case.codec_json, case.decoded_shape)
            assert explained.error is not None and explained.b_shape is None
            assert (explained.error.error_class, explained.error.clause, explained.error.position) == (
                error.error_class,
                error.clause,
                error.position,
            )
            assert pickle.loads(pickle.dumps(error)).clause == error.clause
    assert seen > 100


def test_every_error_class_has_its_subclass() -> None:
    for name in _native.ERROR_CLASSES:
        assert zarr_reshape.error_class(name).error_class == name
    subclasses = {cls.error_class for cls in zarr_reshape.ReshapeError.__subclasses__()}
    assert subclasses == set(_native.ERROR_CLASSES)


def address(array: np.ndarray) -> int:
    return int(array.__array_interface__["data"][0])


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float32", "int64", "float64", "complex64", ">i4"])
def test_encode_of_a_contiguous_chunk_is_a_view(dtype: str) -> None:
    decoded = np.arange(2 * 3 * 4).astype(dtype).reshape(2, 3, 4)
    encoded = zarr_reshape.encode({"shape": [[0, 1], -1]}, decoded)
    assert encoded.shape == (6, 4) and encoded.dtype == decoded.dtype
    assert address(encoded) == address(decoded) and np.shares_memory(encoded, decoded)
    decoded_again = zarr_reshape.decode({"shape": [[0, 1], -1]}, encoded, [2, 3, 4])
    assert address(decoded_again) == address(decoded)
    assert np.array_equal(decoded_again, decoded)


def test_a_strided_chunk_stays_a_view_where_its_strides_allow() -> None:
    # Every other row: merging the last two dimensions keeps one stride.
    base = np.arange(4 * 6 * 5, dtype=np.uint32).reshape(4, 6, 5)
    decoded = base[::2]  # (2, 6, 5), rows of 30 contiguous elements
    encoded = zarr_reshape.encode({"shape": [[0], -1]}, decoded)
    assert encoded.shape == (2, 30) and address(encoded) == address(decoded)
    assert np.array_equal(encoded.ravel(), decoded.ravel())


def test_a_transposed_chunk_is_copied_in_c_order() -> None:
    decoded = np.arange(24, dtype=np.int16).reshape(4, 3, 2).transpose(2, 1, 0)
    encoded = zarr_reshape.encode({"shape": [-1]}, decoded)
    assert not np.shares_memory(encoded, decoded)
    assert encoded.flags.c_contiguous and np.array_equal(encoded, decoded.ravel())


def test_float_bits_survive(tmp_path: Path) -> None:
    bits = np.array([0x7FC00001, 0xFFC00000, 0x80000000, 0x00000001, 0x7F800000], dtype=np.uint32)
    decoded = bits.view(np.float32).reshape(5, 1)[::-1]
    encoded = zarr_reshape.encode({"shape": [-1]}, decoded)
    assert encoded.view(np.uint32).tolist() == bits[::-1].tolist()


def test_integers_stay_exact_beyond_64_bits() -> None:
    with pytest.raises(zarr_reshape.Overflow):
        zarr_reshape.resolve({"shape": [-1]}, [2**32, 2**32])
    assert zarr_reshape.resolve({"shape": [[0, 1]]}, [2**32 - 1, 2**32 + 1]) == (2**64 - 1,)
    with pytest.raises(zarr_reshape.Overflow, match=r"decoded_shape\[0\] = 18446744073709551616"):
        zarr_reshape.resolve({"shape": [-1]}, [2**64])
    with pytest.raises(ValueError, match="negative"):
        zarr_reshape.resolve({"shape": [-1]}, [-2, 3])
    with pytest.raises(zarr_reshape.OutOfBounds):
        zarr_reshape.map_index({"shape": [-1]}, [4], [2**70])
    # A configuration's integers beyond 64 bits are read exactly, from text or objects.
    with pytest.raises(zarr_reshape.ReshapeError) as refused:
        zarr_reshape.resolve({"shape": [2**70, -1]}, [4])
    assert refused.value.error_class in {"overflow", "element-count-mismatch", "invalid-size"}


def test_configuration_text_objects_and_codec_objects_agree() -> None:
    configuration = {"shape": [[0, 1], 2, -1]}
    shape = [2, 3, 8]
    as_text = zarr_reshape.resolve(json.dumps(configuration), shape)
    as_codec = zarr_reshape.resolve({"name": "reshape", "configuration": configuration}, shape)
    assert zarr_reshape.resolve(configuration, shape) == as_text == as_codec == (6, 2, 4)


def test_arguments_that_are_not_arrays_or_integers_are_type_errors() -> None:
    with pytest.raises(TypeError):
        zarr_reshape.encode({"shape": [-1]}, [1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        zarr_reshape.resolve({"shape": [-1]}, [True, 2])
    with pytest.raises(TypeError):
        zarr_reshape.encode({"shape": [-1]}, np.array(["a", "b"], dtype=object))


def test_chain_shapes_through_transpose_and_sharding() -> None:
    chain = [
        {"name": "transpose", "configuration": {"order": [2, 1, 0]}},
        {"name": "reshape", "configuration": {"shape": [[0, 1], -1]}},
        {"name": "bytes", "configuration": {"endian": "little"}},
    ]
    shapes = zarr_reshape.resolve_chain(chain, [2, 3, 4], "uint8")
    assert shapes.encoded_shapes == ((4, 3, 2), (12, 2))
    with pytest.raises(zarr_reshape.ReshapeError) as refused:
        zarr_reshape.resolve_chain(chain, [2, 3], "uint8")
    assert refused.value.error_class == "malformed-configuration" and refused.value.clause is None


@pytest.mark.parametrize(
    "configuration",
    [{"shape": [float("inf")]}, {"shape": [float("nan"), -1]}, b"\xff", {"shape": [[[[[[0]]]]]] * 1}],
    ids=["inf", "nan", "not-utf8", "nested"],
)
def test_configurations_json_cannot_hold_are_malformed(configuration: object) -> None:
    with pytest.raises(zarr_reshape.MalformedConfiguration):
        zarr_reshape.resolve(configuration, [2])  # type: ignore[arg-type]
    deep: list[object] = [0]
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(zarr_reshape.MalformedConfiguration):
        zarr_reshape.resolve({"shape": deep}, [2])


def test_numpy_scalars_are_numbers() -> None:
    assert zarr_reshape.resolve({"shape": [np.int64(2), -1]}, [np.uint32(2), 3]) == (2, 3)


@pytest.mark.parametrize("dtype", ["complex128", "U3", "S5", [("a", "<i2"), ("b", "<f8")], "clongdouble"])
def test_elements_of_any_fixed_size_move_whole(dtype: object) -> None:
    values = np.arange(2 * 3 * 4).reshape(2, 3, 4)
    decoded = values.astype(np.dtype(dtype)) if not isinstance(dtype, list) else np.zeros((2, 3, 4), dtype=dtype)
    if isinstance(dtype, list):
        decoded["a"], decoded["b"] = values, values / 3
    encoded = zarr_reshape.encode({"shape": [[0, 1], -1]}, decoded)
    assert encoded.dtype == decoded.dtype and encoded.shape == (6, 4)
    assert address(encoded) == address(decoded), "a contiguous chunk stays a view"
    assert np.array_equal(encoded.ravel(), decoded.ravel())
    transposed = decoded.transpose(2, 1, 0)
    copied = zarr_reshape.encode({"shape": [-1]}, transposed)
    assert not np.shares_memory(copied, transposed) and np.array_equal(copied, transposed.ravel())
    assert np.array_equal(zarr_reshape.decode({"shape": [-1]}, copied, [4, 3, 2]), transposed)
    with pytest.raises(zarr_reshape.ShapeMismatch):
        zarr_reshape.decode({"shape": [-1]}, copied[:5], [4, 3, 2])


def test_references_and_masks_are_refused() -> None:
    for array in (np.array(["a", "bc"], dtype=np.dtypes.StringDType()), np.array([1, "a"], dtype=object)):
        with pytest.raises(TypeError, match="references"):
            zarr_reshape.encode({"shape": [-1]}, array)
    with pytest.raises(TypeError, match="mask"):
        zarr_reshape.encode({"shape": [-1]}, np.ma.masked_array([1, 2], mask=[0, 1]))
