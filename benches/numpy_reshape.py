#!/usr/bin/env python3
"""Issue 9, benchmark 2, numpy's side: numpy's reshape of the same strided view that
`cargo bench --bench reshape` measures (a 256^3 uint16 array transposed by [2, 1, 0],
flattened to [-1], which needs a copy), in GB/s, and the ratio of the reference's
throughput to numpy's.

Run after `cargo bench --bench reshape`, which writes the reference's figure to
target/zarr-reshape-bench/strided.txt; or give it with --reference-gbps. Without
numpy it says so and exits 0 (this part is optional).
"""

import argparse
import pathlib
import sys
import time

SIDE = 256


def measure(function, seconds=3.0):
    """The median time of one call over repeated calls for about `seconds`."""
    function()  # warm-up: page faults of the first result
    times = []
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or len(times) < 10:
        begin = time.perf_counter()
        function()
        times.append(time.perf_counter() - begin)
    times.sort()
    return times[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-gbps", type=float, help="the reference's figure")
    args = parser.parse_args()
    try:
        import numpy as np
    except ImportError:
        print("numpy is not importable: skipped (optional)")
        return 0

    base = np.arange(SIDE**3, dtype=np.uint64).astype(np.uint16).reshape(SIDE, SIDE, SIDE)
    view = base.transpose(2, 1, 0)
    flat = view.reshape(-1)
    assert not np.shares_memory(flat, base), "numpy made a view; expected a copy"
    assert flat[1] == view[0, 0, 1]
    seconds = measure(lambda: view.reshape(-1))
    copy_seconds = measure(lambda: base.copy())
    gbps = base.nbytes / seconds / 1e9
    print(f"numpy {np.__version__}: transposed 256^3 uint16 reshape(-1): {gbps:.3f} GB/s "
          f"({seconds * 1e3:.2f} ms); numpy contiguous copy {base.nbytes / copy_seconds / 1e9:.3f} GB/s")

    reference = args.reference_gbps
    if reference is None:
        figure = pathlib.Path(__file__).resolve().parent.parent / "target/zarr-reshape-bench/strided.txt"
        if figure.exists():
            reference = float(figure.read_text().split()[1])
    if reference is None:
        print("no reference figure: run `cargo bench --bench reshape` first, or pass --reference-gbps")
        return 0
    print(f"reference: {reference:.3f} GB/s")
    print(f"RATIO strided.transposed_copy.reference_over_numpy = {reference / gbps:.3f}  "
          f"(>= 1: no slower than numpy's reshape of the same view)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
