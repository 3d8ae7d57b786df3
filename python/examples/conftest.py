"""The example drives nd-image-codecs through zarr-python: where either is missing
(zarr-python 3.4.2 needs CPython 3.12+), it is not collected rather than an error."""

import importlib.util

collect_ignore = [
    "test_nd_image_codecs.py"
    for module in ("zarr", "nd_image_codecs")
    if importlib.util.find_spec(module) is None
][:1]
