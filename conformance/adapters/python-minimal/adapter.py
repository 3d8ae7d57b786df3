#!/usr/bin/env python3
"""A minimal adapter for the zarr-reshape conformance runner (protocol version 2).

It implements the reshape codec's `resolve` literally, with the readings of
spec-cases/clauses.json (E1, E2, I-1 to I-9), and skips every other operation.
Standard library only: copy it, then call your own library from run().
"""
import json
import sys
import traceback

U64_MAX = 2**64 - 1
CODEC_MEMBERS = {"name", "configuration", "must_understand"}


class ReshapeError(Exception):
    def __init__(self, error_class, message):
        super().__init__(message)
        self.error_class = error_class


def is_integer(value):
    # json.loads reads 2.0 and 1e1 as floats, and True is an int in Python.
    return isinstance(value, int) and not isinstance(value, bool)


def prod(values):
    product = 1
    for value in values:
        product *= value  # Python ints are exact: nothing wraps at 64 bits
    return product


def parse(case):
    """What the JSON alone decides: members, element kinds and sizes, -1 once, order."""
    config = case.get("configuration")
    if "codec" in case:  # codec.name, configuration.members (I-5)
        codec = case["codec"]
        if not isinstance(codec, dict) or codec.get("name") != "reshape":
            raise ReshapeError("malformed-configuration", "the codec is not named reshape")
        if "configuration" not in codec or not set(codec) <= CODEC_MEMBERS:
            raise ReshapeError("malformed-configuration", f"codec members {sorted(codec)}")
        config = codec["configuration"]
    if not isinstance(config, dict) or set(config) != {"shape"}:
        raise ReshapeError("malformed-configuration", 'the configuration is not {"shape": ...}')
    shape = config["shape"]
    if not isinstance(shape, list):
        raise ReshapeError("malformed-configuration", "shape is not an array")
    for element in shape:  # shape.element, shape.size
        if isinstance(element, list):
            if not all(is_integer(d) and d >= 0 for d in element):
                raise ReshapeError("malformed-configuration", f"input dims {element}")
        elif not is_integer(element):
            raise ReshapeError("malformed-configuration", f"element {element!r}")
        elif element == 0 or element < -1:
            raise ReshapeError("invalid-size", f"size {element} is neither -1 nor positive")
        elif element > U64_MAX:
            raise ReshapeError("overflow", f"size {element} does not fit in 64 bits")
    if shape.count(-1) > 1:  # shape.auto.once
        raise ReshapeError("repeated-auto", "-1 occurs more than once")
    dims = [d for element in shape if isinstance(element, list) for d in element]
    if any(a >= b for a, b in zip(dims, dims[1:])):  # input-dims.increasing
        raise ReshapeError("input-dims-not-increasing", f"input dims {dims}")
    return shape


def resolve(case):
    shape, a_shape = parse(case), case["decoded_shape"]
    groups = [(i, dims) for i, dims in enumerate(shape) if isinstance(dims, list)]
    for _, dims in groups:  # input-dims.range (I-4)
        if any(d >= len(a_shape) for d in dims):
            raise ReshapeError("input-dim-out-of-range", f"{dims} on rank {len(a_shape)}")
    # shape.size, shape.input-dims (E1): B_shape[i] := size | prod(A_shape[d] for d in dims)
    b_shape = [prod(a_shape[d] for d in e) if isinstance(e, list) else e for e in shape]
    total = prod(a_shape)
    if max(b_shape + [total]) > U64_MAX:  # limits.u64 (I-7)
        raise ReshapeError("overflow", "an extent or prod(A_shape) exceeds 2^64-1")
    if -1 in b_shape:  # shape.auto.value; I-9: undetermined when the others give 0
        known = prod(b for b in b_shape if b != -1)
        if known == 0 or total % known != 0:
            raise ReshapeError("element-count-mismatch", f"no -1 gives {known} * -1 == {total}")
        b_shape[b_shape.index(-1)] = total // known
    if prod(b_shape) != total:  # shape.invariant
        raise ReshapeError("element-count-mismatch", f"prod({b_shape}) != prod({a_shape})")
    for i, dims in groups:  # input-dims.prefix (E2), input-dims.suffix; only if k > 0 (I-1)
        if dims and prod(b_shape[:i]) != prod(a_shape[: dims[0]]):
            raise ReshapeError("input-dims-misaligned", f"prefix rule fails at element {i}")
        if dims and prod(b_shape[i + 1 :]) != prod(a_shape[dims[-1] + 1 :]):
            raise ReshapeError("input-dims-misaligned", f"suffix rule fails at element {i}")
    return {"encoded_shape": b_shape}


def run(case):
    if case.get("operation") != "resolve":
        return {"skipped": {"reason": "this adapter implements resolve only"}}
    try:
        return resolve(case)
    except ReshapeError as error:  # a rejection: the codec's own, deliberate error
        return {"error": {"class": error.error_class, "message": str(error)}}
    except Exception as error:  # anything else is a crash of the codec, not a rejection
        traceback.print_exc(file=sys.stderr)
        return {"crashed": {"message": repr(error)}}


def main():
    sys.stdin.reconfigure(encoding="utf-8")
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            answer = {
                "ok": True,
                "implementation": {"name": "python-minimal", "version": "1", "language": "python"},
                "operations": ["resolve"],
            }
            if message.get("protocol") != 2:
                answer = {"ok": False, "error": "this adapter speaks protocol 2 only"}
        elif message["cmd"] == "run":
            try:
                result = run(message["case"])
            except Exception as error:  # a fault of this adapter, not an answer of the codec
                result = {"errored": {"message": repr(error)}}
            answer = {"seq": message["seq"], "result": result}
        else:  # "stop"
            return
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
