"""Two `reshape` codecs side by side: nd-image-codecs' (registered by its entry point
when installed) and ours (registered only by `zarr_reshape.zarr.register()`).
Installing zarr-reshape must not change which codec a project gets; `register()`
chooses ours; zarr-python's choice with both registered and none selected is pinned.

Each check runs in a fresh interpreter: zarr-python collects entry points once, and
`register()` changes process-wide settings.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("zarr")
if importlib.util.find_spec("nd_image_codecs") is None:
    pytest.skip("nd-image-codecs is not installed", allow_module_level=True)

INVALID_PREFIX = Path(__file__).resolve().parents[2] / "spec-cases" / "arrays" / "invalid-prefix"
OURS = "zarr_reshape.zarr.ReshapeCodec"
THEIRS = "nd_image_codecs.zarr_codec.ReshapeCodec"

PROBE = """
import json, sys, warnings
import zarr, zarr.storage
from zarr.registry import _codec_registries, get_codec_class
import zarr_reshape.zarr
def chosen():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        codec = get_codec_class("reshape")
    return [f"{codec.__module__}.{codec.__qualname__}", [str(w.message) for w in caught]]
def read():
    try:
        zarr.open_array(store=zarr.storage.LocalStore(sys.argv[1], read_only=True), mode="r")[...]
        return "read"
    except Exception as error:
        return f"{type(error).__module__}.{type(error).__name__}"
report = {"installed": chosen()}
zarr_reshape.zarr.register(select=False)
report["candidates"] = sorted(_codec_registries["reshape"])
report["registered, not selected"] = chosen()
zarr_reshape.zarr.register()
report["selected"] = chosen() + [read()]
with zarr.config.set({"codecs.reshape": sys.argv[2]}):
    report["theirs selected"] = chosen() + [read()]
print(json.dumps(report))
"""


def test_installing_changes_nothing_and_register_selects_ours() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(INVALID_PREFIX), THEIRS], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.splitlines()[-1])
    # Imported, not registered: zarr-python still has nd-image-codecs' alone, and no warning.
    assert report["installed"] == [THEIRS, []]
    assert report["candidates"] == sorted([OURS, THEIRS])
    # Both registered, none selected: zarr-python warns and takes one (zarr/registry.py:367-376).
    chosen, warned = report["registered, not selected"]
    assert chosen in (OURS, THEIRS) and warned == ["Codec 'reshape' not configured in config. Selecting any implementation."]
    # Selected: ours refuses invalid-prefix with the reference's error; nd-image-codecs
    # does not check the prefix rule and reads the array.
    assert report["selected"] == [OURS, [], "zarr_reshape.InputDimsMisaligned"]
    assert report["theirs selected"] == [THEIRS, [], "read"]
