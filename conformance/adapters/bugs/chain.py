"""resolve-chain: the shape every codec of a zarr.json `codecs` list hands on.

Each codec is handed the shape the codec before it encodes to (core spec,
"Determination of encoded representations"), starting from the chunk shape:
transpose permutes it, reshape resolves it (resolve.py), bytes ends the array
part, sharding_indexed resolves its inner codecs for its inner chunk shape, which
must have the shard's rank and divide it, and its index codecs for the index (uint64,
the inner chunks per shard and 2). A codec whose configuration does not fit
the shape it is handed is malformed-configuration.
"""
from bugs import on
from codec import ReshapeError
from resolve import resolve_shape

COMPRESSORS = {"gzip", "zstd", "crc32c"}
ONE_BYTE = {"bool", "int8", "uint8"}


def malformed(message):
    return ReshapeError("malformed-configuration", message)


def configuration(codec):
    if not isinstance(codec, dict) or not isinstance(codec.get("name"), str):
        raise malformed(f"a codec must be an object with a name: {codec!r}")
    config = codec.get("configuration", {})
    if not isinstance(config, dict):
        raise malformed(f"the {codec['name']} codec's configuration is not an object")
    return codec["name"], config


def transpose(config, shape, chunk_shape):
    order = config.get("order")
    if not isinstance(order, list) or sorted(order) != list(range(len(order))):
        raise malformed(f"transpose's order {order!r} is no permutation")
    # zarr-python checks the order against the array's rank, not the shape it is handed
    rank = len(chunk_shape) if on("chain-transpose-checked-against-array-rank") else len(shape)
    if len(order) != rank:
        raise malformed(f"transpose's order {order} does not fit the rank {len(shape)}")
    return [shape[d] for d in order]  # IndexError under the bug above: a crash


def sharding(config, shape, data_type, depth):
    inner = config.get("chunk_shape")
    if not isinstance(inner, list) or not all(isinstance(c, int) and c > 0 for c in inner):
        raise malformed("sharding_indexed's chunk_shape is not a list of positive integers")
    if not on("chain-sharding-chunk-shape-unchecked"):
        if len(inner) != len(shape) or any(s % c for s, c in zip(shape, inner)):
            raise malformed(f"sharding_indexed's chunk_shape {inner} does not divide the shard {shape}")
    if not isinstance(config.get("index_codecs"), list):
        raise malformed("sharding_indexed needs index_codecs")
    handed = shape if on("chain-sharding-inner-sees-shard-shape") else inner
    answer = resolve_codecs(config.get("codecs"), handed, data_type, depth + 1)
    # the shard index: uint64, the inner chunks per shard along each dimension, then 2
    index_shape = [s // c for s, c in zip(shape, inner)] + [2]
    resolve_codecs(config.get("index_codecs"), index_shape, "uint64", depth + 1)
    return answer


def resolve_codecs(codecs, chunk_shape, data_type, depth=0):
    if not isinstance(codecs, list) or depth > 16:
        raise malformed("codecs must be a list (sharding nested at most 16 deep)")
    shape, shapes, inner, rest = list(chunk_shape), [], None, list(codecs)
    after_reshape = False
    while True:
        if not rest:
            raise malformed("the codecs have no array -> bytes codec")
        codec = rest.pop(0)
        name, config = configuration(codec)
        if name == "transpose":
            if after_reshape and on("chain-transpose-after-reshape-refused"):
                raise malformed("transpose after reshape is not supported")
            shape = transpose(config, shape, chunk_shape)
        elif name == "reshape":
            handed = chunk_shape if on("chain-reshape-sees-chunk-shape") else shape
            encoded, _ = resolve_shape({"codec": codec, "decoded_shape": handed})
            after_reshape = True
            # the bug: the codecs after reshape are handed the chunk shape it was given
            shape = shape if on("chain-following-codec-sees-decoded-shape") else encoded
            shapes.append(list(encoded))
            continue
        elif name == "bytes":
            if config.get("endian") not in ("little", "big") and data_type not in ONE_BYTE:
                raise malformed(f"bytes needs an endian for {data_type}")
            break
        elif name == "sharding_indexed":
            inner = sharding(config, shape, data_type, depth)
            break
        else:
            raise malformed(f"{name} is not an array -> array or array -> bytes codec")
        shapes.append(list(shape))
    for codec in rest:
        name, _ = configuration(codec)
        if name not in COMPRESSORS:
            raise malformed(f"{name} may not follow the array -> bytes codec")
    answer = {"encoded_shapes": shapes}
    if inner is not None:
        answer["inner"] = inner
    return answer


def resolve_chain(case):
    return resolve_codecs(case.get("codecs"), case.get("decoded_shape"), case.get("data_type"))
