// map-index and map-region: a decoded coordinate goes to the encoded coordinate of
// the same C-order position (algorithm.ravel: ravel(B) == ravel(A)), in BigInt.
import { isInteger } from "./exact-json.mjs";
import { ReshapeError } from "./reshape.mjs";

// A box of more elements than this is skipped: the answer would be tens of MiB.
export const MAX_BOX_ELEMENTS = 1_000_000n;

/** The C-order position of an in-bounds index. */
function ravel(index, shape) {
  return index.reduce((position, coordinate, d) => position * shape[d] + coordinate, 0n);
}

/** The index of a C-order position. */
function unravel(position, shape) {
  const index = new Array(shape.length);
  let rest = position;
  for (let d = shape.length - 1; d >= 0; d -= 1) {
    index[d] = rest % shape[d];
    rest /= shape[d];
  }
  return index;
}

function checkCoordinates(name, values, aShape) {
  if (!Array.isArray(values) || values.length !== aShape.length) {
    throw new ReshapeError("shape-mismatch", `${name} is not ${aShape.length} coordinates`);
  }
  if (!values.every(isInteger)) throw new ReshapeError("shape-mismatch", `${name} holds a non-integer`);
}

/** The encoded index of one decoded index. */
export function mapIndex(index, aShape, bShape) {
  checkCoordinates("decoded_index", index, aShape);
  index.forEach((coordinate, d) => {
    if (coordinate < 0n || coordinate >= aShape[d]) {
      throw new ReshapeError("out-of-bounds", `index ${coordinate} outside 0..${aShape[d]} on dim ${d}`);
    }
  });
  return unravel(ravel(index, aShape), bShape);
}

/** The encoded index of every element of a half-open box, in C order of the box; null if too many. */
export function mapRegion(region, aShape, bShape) {
  if (region === null || typeof region !== "object") {
    throw new ReshapeError("shape-mismatch", "decoded_region is not {start, stop}");
  }
  const { start, stop } = region;
  checkCoordinates("decoded_region.start", start, aShape);
  checkCoordinates("decoded_region.stop", stop, aShape);
  aShape.forEach((extent, d) => {
    if (start[d] < 0n || start[d] > stop[d] || stop[d] > extent) {
      throw new ReshapeError("out-of-bounds", `box ${start[d]}..${stop[d]} outside 0..${extent} on dim ${d}`);
    }
  });
  const boxShape = aShape.map((_, d) => stop[d] - start[d]);
  const count = boxShape.reduce((product, extent) => product * extent, 1n);
  if (count > MAX_BOX_ELEMENTS) return null;
  const encoded = [];
  for (let k = 0n; k < count; k += 1n) {
    const offset = unravel(k, boxShape);
    encoded.push(unravel(ravel(offset.map((o, d) => o + start[d]), aShape), bShape));
  }
  return encoded;
}
