"""Runs every resolve-chain vector through two ways of asking zarr-python 3.4.2 (with
nd-image-codecs' reshape) about a codec chain, and counts where each meets the
vector's verdict (error or success, and the shapes):

- per codec: evolve_from_array_spec, validate (with a regular grid of the chunk)
  and resolve_metadata of each codec, threaded from the spec of a chunk of
  decoded_shape (the recipe spec-cases/README.md gave before);
- opening: what the adapter answers (ops.resolve_chain), the validation zarr-python
  runs when it opens an array (ArrayV3Metadata.from_dict, which ends in
  _validate_metadata, then create_codec_pipeline), on the case's array context.

Usage, from the repository root:
  conformance/adapters/nd-image-codecs/.venv/bin/python \\
      conformance/adapters/nd-image-codecs/check_recipe.py [SPEC_CASES_DIR]
Prints the counts and every case where the two differ or opening fails; exits 0.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any

import ops
from zarr.core.metadata.v3 import parse_codecs

MAX_FILE_BYTES = 16 << 20


def per_codec(case: dict[str, Any]) -> dict[str, Any]:
    """Each codec alone: evolve, validate, resolve, threaded from the chunk's spec."""
    chunk = ops.chunk_spec(tuple(case["decoded_shape"]), case["data_type"])
    grid = ops.regular_grid(chunk.shape)
    spec = chunk
    evolved = []
    for codec in parse_codecs(case["codecs"]):
        codec = codec.evolve_from_array_spec(spec)
        codec.validate(shape=spec.shape, dtype=spec.dtype, chunk_grid=grid)
        evolved.append(codec)
        spec = codec.resolve_metadata(spec)
    return ops._chain_shapes(tuple(evolved), chunk)


def meets(answer: Any, expect: dict[str, Any]) -> bool:
    """Whether an answer (None for an error) meets an expectation: the verdict, and
    for a success every member the expectation names."""
    if "any_of" in expect:
        return any(meets(answer, option) for option in expect["any_of"])
    if "error" in expect or answer is None:
        return "error" in expect and answer is None
    for name, value in expect.items():
        if name == "inner":
            if not isinstance(answer.get("inner"), dict) or not meets(answer["inner"], value):
                return False
        elif answer.get(name) != value:
            return False
    return True


def attempt(way: Any, case: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    try:
        return way(case), ""
    except Exception as error:  # noqa: BLE001 - every refusal is an error answer here
        return None, f"{type(error).__name__}: {error}"


def chain_cases(root: Path) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted(root.glob("*/chain-*.json")):
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            continue
        file = json.loads(path.read_text(encoding="utf-8"))
        cases.extend(c for c in file.get("cases", []) if c.get("operation") == "resolve-chain")
    return cases


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "spec-cases")
    warnings.simplefilter("ignore")  # sharding's performance warning
    rows = []
    for case in chain_cases(root):
        old, old_why = attempt(per_codec, case)
        new, new_why = attempt(ops.resolve_chain, case)
        rows.append((case["id"], meets(old, case["expect"]), meets(new, case["expect"]), old_why, new_why))
    hidden = [row for row in rows if row[1] and not row[2]]
    false = [row for row in rows if not row[1] and row[2]]
    print(
        f"{len(rows)} resolve-chain cases: per codec {sum(r[1] for r in rows)} pass, "
        f"opening {sum(r[2] for r in rows)} pass; per codec passes {len(hidden)} that "
        f"opening fails, fails {len(false)} that opening passes"
    )
    for case_id, old_ok, new_ok, old_why, new_why in rows:
        if old_ok != new_ok or not new_ok:
            print(
                f"- {case_id}: per codec {'pass' if old_ok else 'fail'}"
                f"{' (' + old_why + ')' if old_why else ''}; "
                f"opening {'pass' if new_ok else 'fail'}{' (' + new_why + ')' if new_why else ''}"
            )


if __name__ == "__main__":
    main()
