#!/usr/bin/env python3
"""Conformance adapter (protocol version 2): zarr-python 3.4.2 with the zarrs-python
0.2.3 codec pipeline, for the `read-array` cases of the zarr-reshape suite.

zarr-python has no `reshape` codec of its own. This adapter registers a codec class
under that name so that zarr-python accepts the array's metadata: the class keeps the
codec's JSON as written and hands it on unchanged (to_dict), and the zarrs codec
pipeline (zarrs-python, which bundles the Rust crate zarrs 0.23.8) decodes the
chunks with zarrs' own `reshape`. The class does no reshaping itself: if zarr-python
ever falls back to its own pipeline, decoding through it raises an error, so a
fallback can never pass off unreshaped data as an answer.

Everything else (opening the array, validating its metadata, reading the whole array
or a box) is zarr-python's public API, as a user calls it. Other operations of the
suite are not announced in `start` (the runner then skips them itself) and are
answered `skipped` if sent anyway. See README.md.
"""
import contextlib
import json
import sys
import traceback
from dataclasses import dataclass

PINNED = {"zarr": "3.4.2", "zarrs": "0.2.3"}
# The Rust crate inside the zarrs-python 0.2.3 wheel (its compiled-in crate paths).
BUNDLED_ZARRS = "0.23.8"
OPERATIONS = ["read-array"]
LANGUAGE_NOTE = "reshape by a pass-through codec class and the zarrs pipeline"
NOTE = (
    "reshape: zarr-python has no reshape codec; the adapter registers a pass-through "
    "codec class for the name (it keeps the codec's JSON and never decodes), and the "
    f"zarrs-python codec pipeline (zarrs {BUNDLED_ZARRS}) does the reshaping"
)

zarr = None
np = None


def load():
    """Imports zarr-python and zarrs-python, registers the codec class and selects the
    zarrs pipeline. Returns None, or why the adapter cannot serve."""
    global zarr, np
    try:
        import numpy
        import zarr as zarr_module
        import zarrs
        from zarr.abc.codec import ArrayArrayCodec
        from zarr.registry import register_codec
    except ImportError as error:
        return f"cannot import zarr-python and zarrs-python ({error}); run setup.sh"
    found = {"zarr": zarr_module.__version__, "zarrs": zarrs.__version__}
    if found != PINNED:
        return f"measured with {PINNED}, found {found}: run setup.sh"

    @dataclass(frozen=True)
    class PassThroughReshape(ArrayArrayCodec):
        """The codec entry `reshape`, kept as written for the zarrs pipeline.

        zarr-python's own bookkeeping sees it as a codec that changes nothing
        (resolve_metadata returns the chunk spec unchanged); zarrs reads the entry
        from the metadata JSON and reshapes. Encoding or decoding through
        zarr-python's pipeline is refused.
        """

        is_fixed_size = True
        entry: dict

        @classmethod
        def from_dict(cls, data):
            return cls(entry=dict(data))

        def to_dict(self):
            return dict(self.entry)

        def resolve_metadata(self, chunk_spec):
            return chunk_spec

        def compute_encoded_size(self, input_byte_length, chunk_spec):
            return input_byte_length

        async def _decode_single(self, chunk_array, chunk_spec):
            raise NotImplementedError(
                "zarr-python's own codec pipeline was used, and it has no reshape codec"
            )

        async def _encode_single(self, chunk_array, chunk_spec):
            raise NotImplementedError("zarr-python's own codec pipeline has no reshape codec")

    register_codec("reshape", PassThroughReshape)
    # The zarrs pipeline, strict: where it cannot serve an array it raises, instead of
    # falling back to zarr-python's own pipeline (which has no reshape).
    zarr_module.config.set(
        {"codec_pipeline.path": "zarrs.ZarrsCodecPipeline", "codec_pipeline.strict": True}
    )
    zarr, np = zarr_module, numpy
    return None


class Errored(Exception):
    """A fault of the request or of this adapter: no answer of the library."""


# How Python libraries refuse their input on purpose: ValueError, TypeError,
# RuntimeError (zarrs-python turns zarrs' errors into these) and OSError (a missing
# file), and the error classes the two libraries define themselves (zarr.errors,
# such as BoundsCheckError, an IndexError; zarrs-python's UnsupportedMetadataError).
# Any other exception is a crash, not a rejection: an IndexError or a
# ZeroDivisionError from inside a library is a bug, and a Rust panic inside
# zarrs-python arrives as pyo3's PanicException, which derives from BaseException so
# that `except Exception` does not catch it.
REJECTIONS = (ValueError, TypeError, RuntimeError, OSError)


def is_rejection(error):
    """Whether the library raised `error` on purpose, to refuse its input."""
    package = (type(error).__module__ or "").split(".")[0]
    return package in ("zarr", "zarrs") or isinstance(error, REJECTIONS)


def json_value(value, is_float):
    """One element as the protocol writes it."""
    if is_float:
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
    return value


def nested(values, is_float):
    """numpy's tolist() (nested lists of Python scalars, C order) in the protocol's form."""
    if isinstance(values, list):
        return [nested(item, is_float) for item in values]
    return json_value(values, is_float)


def describe(error):
    """An exception and the exceptions it was raised from, as one line."""
    parts = []
    while error is not None and len(parts) < 4:
        parts.append(f"{type(error).__name__}: {error}".rstrip(": "))
        error = error.__cause__ or error.__context__
    return " <- ".join(parts)


def read_array(case):
    spec = case.get("array") or {}
    path, data_type = spec.get("path"), spec.get("data_type")
    if not isinstance(path, str) or not isinstance(data_type, str):
        raise Errored("array.path and array.data_type must be strings")
    try:
        wanted = np.dtype(data_type)
    except TypeError:
        return {"skipped": {"reason": f"numpy has no data type {data_type!r}"}}
    region = case.get("decoded_region")
    try:
        # As a user reads an array: open it read-only from a local folder, index it.
        array = zarr.open_array(store=zarr.storage.LocalStore(path, read_only=True), mode="r")
        if region is None:
            selection = Ellipsis
        else:
            selection = tuple(slice(a, b) for a, b in zip(region["start"], region["stop"]))
        data = np.asarray(array[selection])
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # a refusal (an error answer), or else a crash
        traceback.print_exc(file=sys.stderr)
        if is_rejection(error):
            return {"error": {"class": None, "message": describe(error)}}
        return {"crashed": {"message": describe(error)}}
    if data.dtype != wanted:
        raise Errored(f"the case says {data_type}, zarr-python read {data.dtype}")
    is_float = data.dtype.kind == "f"
    return {"shape": list(data.shape), "data": nested(data.tolist(), is_float)}


def run(case):
    if case.get("operation") not in OPERATIONS:
        return {"skipped": {"reason": "this adapter implements read-array only"}}
    try:
        return read_array(case)
    except Errored as error:
        return {"errored": {"message": str(error)}}


def start(message):
    if message.get("protocol") != 2:
        return {"ok": False, "error": "this adapter speaks protocol version 2 only"}
    why = load()
    if why is not None:
        return {"ok": False, "error": why}
    python = ".".join(map(str, sys.version_info[:2]))
    return {
        "ok": True,
        "implementation": {
            "name": "zarr-python + zarrs-python",
            "version": f"{zarr.__version__} + {PINNED['zarrs']} (zarrs {BUNDLED_ZARRS})",
            "language": f"python {python}; {LANGUAGE_NOTE}",
        },
        "operations": OPERATIONS,
        "note": NOTE,
    }


def main():
    answers = sys.stdout
    sys.stdin.reconfigure(encoding="utf-8")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"adapter: a line that is not JSON ({error})", file=sys.stderr)
            continue
        command = message.get("cmd")
        # Whatever the library prints goes to stderr: stdout carries answers only.
        with contextlib.redirect_stdout(sys.stderr):
            if command == "start":
                answer = start(message)
            elif command == "run":
                try:
                    result = run(message.get("case") or {})
                except Exception as error:  # a fault of this adapter
                    traceback.print_exc(file=sys.stderr)
                    result = {"errored": {"message": repr(error)}}
                answer = {"seq": message.get("seq"), "result": result}
            elif command == "stop":
                return
            else:
                continue
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
