"""Benchmark 7a (BENCHMARKS.md): `zarr_reshape.decode` on a 256 MiB NumPy chunk
against `numpy.reshape` of the same array, measured side by side in one process.

Two cases: a C-contiguous chunk whose dimensions are split (both sides return a
view: the ratio is the cost of the reference's checks and the Python call, per
call), and a chunk as a preceding `transpose` leaves it whose dimensions are
merged (both sides copy: the ratio is the copy's speed). Prints
`RATIO name = value (numerator / denominator)` lines, like the Rust benchmarks.

Usage: python python/benches/decode_numpy.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

import zarr_reshape

CONFIGURATION = {"shape": [[0, 1], [2]]}
#: 256 MiB of uint16: A_shape 512 x 512 x 512, B_shape 262144 x 512.
A_SHAPE = (512, 512, 512)
B_SHAPE = (512 * 512, 512)


def best_of(repeat: int, run: Callable[[], np.ndarray]) -> float:
    """The median wall time of `repeat` runs (the first, warming up, discarded)."""
    run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat

    encoded = np.arange(np.prod(B_SHAPE), dtype=np.uint16).reshape(B_SHAPE)
    assert encoded.nbytes == 256 << 20

    view_ref = best_of(repeat * 200, lambda: zarr_reshape.decode(CONFIGURATION, encoded, A_SHAPE))
    view_np = best_of(repeat * 200, lambda: np.reshape(encoded, A_SHAPE))
    decoded = zarr_reshape.decode(CONFIGURATION, encoded, A_SHAPE)
    assert np.shares_memory(decoded, encoded) and np.array_equal(decoded, np.reshape(encoded, A_SHAPE))

    # Decoding merges B's first two dimensions, laid out as a `transpose` leaves
    # them: no view is possible, both sides copy 256 MiB.
    merging, merged_shape = {"shape": [512, 512, 512]}, B_SHAPE
    strided = np.arange(np.prod(A_SHAPE), dtype=np.uint16).reshape(A_SHAPE).transpose(2, 1, 0)
    copy_ref = best_of(repeat, lambda: zarr_reshape.decode(merging, strided, merged_shape))
    copy_np = best_of(repeat, lambda: np.reshape(strided, merged_shape))
    copied = zarr_reshape.decode(merging, strided, merged_shape)
    assert not np.shares_memory(copied, strided) and np.array_equal(copied, np.reshape(strided, merged_shape))

    print(f"decode of 256 MiB uint16 chunks, median of {repeat} runs (views: {repeat * 200})")
    print(f"RATIO python.decode.view = {view_ref / view_np:.2f} (zarr_reshape.decode / numpy.reshape, both views)")
    print(f"RATIO python.decode.copy = {copy_ref / copy_np:.2f} (zarr_reshape.decode / numpy.reshape, both copy)")
    print(f"  per call: view {view_ref * 1e6:.1f} us vs {view_np * 1e6:.1f} us; copy {copy_ref * 1e3:.0f} ms vs {copy_np * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
