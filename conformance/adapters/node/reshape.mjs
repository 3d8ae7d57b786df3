// The reshape codec's configuration and shape resolution, written from the spec
// (zarr-extensions codecs/reshape) with the readings of spec-cases/clauses.json.
// Every size and product is a BigInt: exact, so nothing wraps or rounds, and the
// 64-bit limit (I-7) is a comparison of the exact value, whatever the order of
// multiplication, not an accident of the number type.
import { isInteger, isNonIntegralNumber } from "./exact-json.mjs";

export const U64_MAX = 2n ** 64n - 1n;
const MAX_ELEMENTS = 256; // I-10: elements of shape, dims of one element, decoded rank
const CODEC_MEMBERS = new Set(["name", "configuration", "must_understand"]);

/** A rejection by the codec, with its class from spec-cases/README.md. */
export class ReshapeError extends Error {
  constructor(errorClass, message) {
    super(message);
    this.errorClass = errorClass;
  }
}

const fail = (errorClass, message) => {
  throw new ReshapeError(errorClass, message);
};
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const spell = (value) => (typeof value === "bigint" ? `${value}` : JSON.stringify(String(value)));

/** The product of BigInts; 1n for none, as the spec's prod() of an empty list. */
export function prod(values) {
  return values.reduce((product, value) => product * value, 1n);
}

/** limits.u64 (I-7): a size, extent or compared product beyond 64 bits is an overflow. */
function fits(value, what) {
  if (value > U64_MAX) fail("overflow", `${what} = ${value} exceeds 2^64 - 1`);
  return value;
}

function configurationOf(testCase) {
  if (!Object.hasOwn(testCase, "codec")) return testCase.configuration;
  const codec = testCase.codec;
  // codec.name: the name member is the string "reshape", compared exactly.
  if (!isObject(codec) || codec.name !== "reshape") {
    fail("malformed-configuration", "the codec is not an object named \"reshape\"");
  }
  // I-5: only name, configuration and must_understand; configuration is required.
  const unknown = Object.keys(codec).filter((member) => !CODEC_MEMBERS.has(member));
  if (unknown.length > 0) fail("malformed-configuration", `unknown codec members ${unknown}`);
  if (!Object.hasOwn(codec, "configuration")) {
    fail("malformed-configuration", "the codec object has no configuration");
  }
  if (Object.hasOwn(codec, "must_understand") && typeof codec.must_understand !== "boolean") {
    fail("malformed-configuration", "must_understand is not a boolean");
  }
  return codec.configuration;
}

function checkElement(element, i) {
  if (Array.isArray(element)) {
    // I-10: a bounded number of input dims before any work on them.
    if (element.length > MAX_ELEMENTS) {
      fail("malformed-configuration", `shape[${i}] has more than ${MAX_ELEMENTS} input dims`);
    }
    for (const dim of element) {
      // shape.element: input dims are integers (I-6: 0.0 is not); I-4: never negative.
      if (!isInteger(dim) || dim < 0n) {
        fail("malformed-configuration", `shape[${i}] holds ${spell(dim)}, not a dim >= 0`);
      }
    }
    return;
  }
  // shape.element: a positive integer, an array, or -1; I-6 rejects 2.0 and 1e1.
  if (!isInteger(element)) {
    const kind = isNonIntegralNumber(element) ? "a non-integral number" : "neither integer nor array";
    fail("malformed-configuration", `shape[${i}] is ${spell(element)}: ${kind}`);
  }
  // shape.size: a size is positive; -1 is the only other integer allowed.
  if (element === 0n || element < -1n) {
    fail("invalid-size", `shape[${i}] = ${element} is neither -1 nor positive`);
  }
  fits(element, `shape[${i}]`);
}

/** What the JSON alone decides (I-8, parse): kinds and sizes, -1 once, increasing dims. */
export function parseShape(testCase) {
  const configuration = configurationOf(testCase);
  // configuration.members (I-5): an object whose one member is shape, an array.
  if (!isObject(configuration)) fail("malformed-configuration", "the configuration is not an object");
  const members = Object.keys(configuration);
  if (members.length !== 1 || members[0] !== "shape") {
    fail("malformed-configuration", `configuration members ${JSON.stringify(members)}, not ["shape"]`);
  }
  const shape = configuration.shape;
  if (!Array.isArray(shape)) fail("malformed-configuration", "shape is not an array");
  if (shape.length > MAX_ELEMENTS) {
    fail("malformed-configuration", `shape has more than ${MAX_ELEMENTS} elements (I-10)`);
  }
  shape.forEach(checkElement);
  // shape.auto.once: -1 at most once.
  if (shape.filter((element) => element === -1n).length > 1) {
    fail("repeated-auto", "-1 occurs more than once in shape");
  }
  // input-dims.increasing: the flattened input dims strictly increase.
  const dims = shape.filter(Array.isArray).flat();
  for (let k = 1; k < dims.length; k += 1) {
    if (dims[k - 1] >= dims[k]) {
      fail("input-dims-not-increasing", `input dims ${dims.join(", ")} do not strictly increase`);
    }
  }
  return shape;
}

/** A_shape checked: at most 256 extents (I-10), each an integer within 64 bits. */
export function checkDecodedShape(aShape) {
  if (!Array.isArray(aShape) || aShape.length > MAX_ELEMENTS) {
    fail("shape-mismatch", `the decoded shape is not an array of at most ${MAX_ELEMENTS} extents`);
  }
  for (const extent of aShape) {
    if (!isInteger(extent) || extent < 0n) fail("shape-mismatch", `decoded extent ${spell(extent)}`);
    fits(extent, "a decoded extent");
  }
  return aShape;
}

/** B_shape for a parsed shape and A_shape (I-8, resolve), or a ReshapeError. */
export function resolveShape(shape, aShape) {
  checkDecodedShape(aShape);
  const rank = BigInt(aShape.length);
  // input-dims.range (I-4): every input dim names a decoded dimension.
  for (const dim of shape.filter(Array.isArray).flat()) {
    if (dim >= rank) fail("input-dim-out-of-range", `input dim ${dim} on a decoded rank of ${rank}`);
  }
  // shape.size and shape.input-dims (E1): B_shape[i] := size | prod(A_shape[d] for d in dims).
  const bShape = shape.map((e) => (Array.isArray(e) ? prod(e.map((d) => aShape[Number(d)])) : e));
  bShape.forEach((extent, i) => fits(extent, `B_shape[${i}]`));
  const total = fits(prod(aShape), "prod(A_shape)");
  const auto = bShape.indexOf(-1n);
  if (auto >= 0) {
    // shape.auto.value: -1 takes prod(A_shape) / prod(the others); I-9: undetermined if that is 0.
    const known = fits(prod(bShape.filter((extent) => extent !== -1n)), "prod(B_shape without -1)");
    if (known === 0n || total % known !== 0n) {
      fail("element-count-mismatch", `no extent for -1 gives ${known} * x == ${total}`);
    }
    bShape[auto] = total / known;
  }
  // shape.invariant: prod(B_shape) == prod(A_shape).
  const count = fits(prod(bShape), "prod(B_shape)");
  if (count !== total) {
    fail("element-count-mismatch", `prod(B_shape) = ${count} but prod(A_shape) = ${total}`);
  }
  shape.forEach((dims, i) => {
    // Only for k > 0 input dims (I-1); I-7 holds for these products too.
    if (!Array.isArray(dims) || dims.length === 0) return;
    const first = Number(dims[0]);
    const last = Number(dims[dims.length - 1]);
    // input-dims.prefix (E2): prod(B_shape[:i]) == prod(A_shape[:input_dims[0]]).
    const before = fits(prod(bShape.slice(0, i)), `prod(B_shape[:${i}])`);
    if (before !== fits(prod(aShape.slice(0, first)), `prod(A_shape[:${first}])`)) {
      fail("input-dims-misaligned", `shape[${i}]: prod(B_shape[:${i}]) != prod(A_shape[:${first}])`);
    }
    // input-dims.suffix: prod(B_shape[i+1:]) == prod(A_shape[input_dims[k-1]+1:]).
    const after = fits(prod(bShape.slice(i + 1)), `prod(B_shape[${i + 1}:])`);
    if (after !== fits(prod(aShape.slice(last + 1)), `prod(A_shape[${last + 1}:])`)) {
      fail("input-dims-misaligned", `shape[${i}]: prod(B_shape[${i + 1}:]) != prod(A_shape[${last + 1}:])`);
    }
  });
  return bShape;
}
