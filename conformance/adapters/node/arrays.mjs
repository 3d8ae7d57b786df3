// encode and decode on typed arrays, as a JavaScript Zarr library holds chunks:
// 64-bit integers in BigInt64Array / BigUint64Array (exact, never through a
// double), the rest in their own typed array. Reshape never moves an element
// (algorithm.ravel: ravel(B) == ravel(A)): the flat buffer is kept as it is and
// only the shape changes, a view rather than a copy (algorithm.view).
import { floatToJson, isInteger, isNonIntegralNumber, toDouble } from "./exact-json.mjs";
import { ReshapeError } from "./reshape.mjs";

// Arrays above this many elements are skipped: this example holds them in memory.
export const MAX_ARRAY_ELEMENTS = 1n << 24n;

const integerType = (TypedArray, min, max) => ({ TypedArray, min, max, kind: "integer" });
const DATA_TYPES = {
  bool: { TypedArray: Uint8Array, kind: "bool" },
  int8: integerType(Int8Array, -(2n ** 7n), 2n ** 7n - 1n),
  int16: integerType(Int16Array, -(2n ** 15n), 2n ** 15n - 1n),
  int32: integerType(Int32Array, -(2n ** 31n), 2n ** 31n - 1n),
  int64: integerType(BigInt64Array, -(2n ** 63n), 2n ** 63n - 1n),
  uint8: integerType(Uint8Array, 0n, 2n ** 8n - 1n),
  uint16: integerType(Uint16Array, 0n, 2n ** 16n - 1n),
  uint32: integerType(Uint32Array, 0n, 2n ** 32n - 1n),
  uint64: integerType(BigUint64Array, 0n, 2n ** 64n - 1n),
  // Floats are held as their bits: a NaN's sign and payload survive no JS Number.
  float32: { TypedArray: Uint32Array, kind: "float", digits: 8, setFloat: "setFloat32", getFloat: "getFloat32" },
  float64: { TypedArray: BigUint64Array, kind: "float", digits: 16, setFloat: "setFloat64", getFloat: "getFloat64" },
};
const BITS = new DataView(new ArrayBuffer(8));
const bitsOf = (type, number) => {
  BITS[type.setFloat](0, number);
  return type.digits === 8 ? BITS.getUint32(0) : BITS.getBigUint64(0);
};
const floatOf = (type, bits) => {
  if (type.digits === 8) BITS.setUint32(0, bits);
  else BITS.setBigUint64(0, bits);
  return BITS[type.getFloat](0);
};
const FLOAT_WORDS = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };

/** A fault of the case rather than an answer of the codec: the adapter reports `errored`. */
export class BadInput extends Error {}

/** The data type of `input`, or null when this example does not know it (skipped). */
export function dataTypeOf(input) {
  return Object.hasOwn(DATA_TYPES, input?.data_type) ? DATA_TYPES[input.data_type] : null;
}

function storeElement(type, value) {
  if (type.kind === "bool") {
    if (typeof value !== "boolean") throw new BadInput(`bool element ${value}`);
    return value ? 1 : 0;
  }
  if (type.kind === "float") {
    if (isInteger(value) || isNonIntegralNumber(value)) return bitsOf(type, toDouble(value));
    if (Object.hasOwn(FLOAT_WORDS, value)) return bitsOf(type, FLOAT_WORDS[value]);
    // "0x" and the IEEE 754 bits in hex (spec-cases/README.md, Arrays).
    if (typeof value === "string" && new RegExp(`^0x[0-9a-fA-F]{${type.digits}}$`).test(value)) {
      return type.digits === 8 ? Number.parseInt(value.slice(2), 16) : BigInt(value);
    }
    throw new BadInput(`float element ${String(value)}`);
  }
  if (!isInteger(value) || value < type.min || value > type.max) {
    throw new BadInput(`element ${String(value)} is not in the range of the data type`);
  }
  return type.TypedArray === BigInt64Array || type.TypedArray === BigUint64Array ? value : Number(value);
}

function loadElement(type, stored) {
  if (type.kind === "bool") return stored === 1;
  if (type.kind === "float") {
    const value = floatOf(type, stored);
    if (Number.isNaN(value) && stored !== bitsOf(type, NaN)) {
      return `0x${stored.toString(16).padStart(type.digits, "0")}`;
    }
    return floatToJson(value);
  }
  return BigInt(stored);
}

/**
 * The nested lists of `input` into a flat typed array, checking that the nesting is
 * exactly `input.shape` (else shape-mismatch). Null when the array is too large.
 */
export function loadArray(input, type) {
  const shape = input.shape;
  if (!Array.isArray(shape) || shape.length > 256 || !shape.every((e) => isInteger(e) && e >= 0n)) {
    throw new ReshapeError("shape-mismatch", "input.shape is not a list of extents");
  }
  const count = shape.reduce((product, extent) => product * extent, 1n);
  if (count > MAX_ARRAY_ELEMENTS) return null;
  const flat = new type.TypedArray(Number(count));
  let next = 0;
  const walk = (data, depth) => {
    if (depth === shape.length) {
      flat[next] = storeElement(type, data);
      next += 1;
      return;
    }
    if (!Array.isArray(data) || BigInt(data.length) !== shape[depth]) {
      throw new ReshapeError("shape-mismatch", `input.data does not nest as shape ${shape.join("x")}`);
    }
    for (const item of data) walk(item, depth + 1);
  };
  walk(input.data, 0);
  return { shape, flat };
}

/** The same flat buffer, nested in another shape of the same element count; null if too large. */
export function nestArray(type, flat, shape) {
  // Lists to build: a zero extent late in the shape still leaves the ones before it.
  let lists = 1n;
  for (const extent of shape) {
    lists *= extent;
    if (lists > MAX_ARRAY_ELEMENTS) return null;
  }
  let next = 0;
  const build = (depth) => {
    if (depth === shape.length) {
      next += 1;
      return loadElement(type, flat[next - 1]);
    }
    return Array.from({ length: Number(shape[depth]) }, () => build(depth + 1));
  };
  return build(0);
}

/** Whether two shapes are the same list of extents. */
export function sameShape(a, b) {
  return a.length === b.length && a.every((extent, d) => extent === b[d]);
}
