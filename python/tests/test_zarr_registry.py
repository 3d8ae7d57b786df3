"""Two `reshape` codecs installed side by side: ours, through the package's
`zarr.codecs` entry point, and nd-image-codecs' (which registers one under the same
name). zarr-python sees both; ours is selected only by `codecs.reshape`.

The entry point is installed as a throwaway dist-info in a temporary folder put on the
child interpreter's path: a source checkout has no installed entry points. Each check
runs in a fresh interpreter because zarr-python collects entry points once, at import.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("zarr")
if importlib.util.find_spec("nd_image_codecs") is None:
    pytest.skip("nd-image-codecs is not installed", allow_module_level=True)

import zarr_reshape  # noqa: E402

# The line python/docs/zarr.md asks pyproject.toml to carry.
ENTRY_POINT = "reshape = zarr_reshape.zarr:ReshapeCodec"
INVALID_PREFIX = Path(__file__).resolve().parents[2] / "spec-cases" / "arrays" / "invalid-prefix"

PROBE = """
import json, sys, warnings
import zarr, zarr.storage
from zarr.registry import _codec_registries, get_codec_class
report = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    chosen = get_codec_class("reshape")
report["candidates"] = sorted(_codec_registries["reshape"])
report["unselected"] = f"{chosen.__module__}.{chosen.__qualname__}"
report["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
def read(selected):
    with zarr.config.set({"codecs.reshape": selected}):
        chosen = get_codec_class("reshape")
        try:
            zarr.open_array(store=zarr.storage.LocalStore(sys.argv[1], read_only=True), mode="r")[...]
            outcome = "read"
        except Exception as error:
            outcome = f"{type(error).__module__}.{type(error).__name__}"
    return [f"{chosen.__module__}.{chosen.__qualname__}", outcome]
report["ours"] = read("zarr_reshape.zarr.ReshapeCodec")
report["theirs"] = read("nd_image_codecs.zarr_codec.ReshapeCodec")
print(json.dumps(report))
"""


def probe(tmp_path: Path) -> dict[str, object]:
    dist = tmp_path / "zarr_reshape_entry-0.0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: zarr-reshape-entry\nVersion: 0.0.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[zarr.codecs]\n{ENTRY_POINT}\n", encoding="utf-8")
    package_root = Path(zarr_reshape.__file__).resolve().parent.parent
    path = os.pathsep.join([str(tmp_path), str(package_root), *sys.path[1:]])
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(INVALID_PREFIX)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_two_reshape_codecs_none_silently_chosen(tmp_path: Path) -> None:
    report = probe(tmp_path)
    assert report["candidates"] == ["nd_image_codecs.zarr_codec.ReshapeCodec", "zarr_reshape.zarr.ReshapeCodec"]
    # Not selected: zarr-python warns and takes the last one registered (zarr/registry.py:367-376).
    assert report["warnings"] == ["ZarrUserWarning: Codec 'reshape' not configured in config. Selecting any implementation."]
    assert report["unselected"] in report["candidates"]
    # Selected: ours refuses invalid-prefix with the reference's error; nd-image-codecs
    # does not check the prefix rule and reads the array.
    assert report["ours"] == ["zarr_reshape.zarr.ReshapeCodec", "zarr_reshape.InputDimsMisaligned"]
    assert report["theirs"] == ["nd_image_codecs.zarr_codec.ReshapeCodec", "read"]
