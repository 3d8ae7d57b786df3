#!/usr/bin/env node
// An adapter in JavaScript for the zarr-reshape conformance runner (protocol 2,
// conformance/PROTOCOL.md): one JSON object per line on stdin, one answer per
// line on stdout. It implements resolve, encode, decode, map-index and
// map-region of the reshape codec itself (reshape.mjs, indices.mjs, arrays.mjs),
// reading every line with exact integers (exact-json.mjs). Copy it and call your
// own library from run().
//
//   node adapter.mjs                     the adapter
//   node adapter.mjs --plain-json-parse  the same with JSON.parse, to show what it loses
import { createInterface } from "node:readline";
import { BadInput, dataTypeOf, loadArray, nestArray, sameShape } from "./arrays.mjs";
import { readExact, readPlain, writeExact } from "./exact-json.mjs";
import { mapIndex, mapRegion } from "./indices.mjs";
import { ReshapeError, checkDecodedShape, parseShape, resolveShape } from "./reshape.mjs";

const OPERATIONS = ["resolve", "encode", "decode", "map-index", "map-region"];
const plain = process.argv.includes("--plain-json-parse");
const read = plain ? readPlain : readExact;
const NAME = plain ? "node-example (JSON.parse)" : "node-example";

const skipped = (reason) => ({ skipped: { reason } });

/** encode (A to B) or decode (B to A): check the input's shape, keep its buffer. */
function reshapeArray(testCase, aShape, bShape) {
  const type = dataTypeOf(testCase.input);
  if (type === null) return skipped(`data type ${String(testCase.input?.data_type)} is not known here`);
  const array = loadArray(testCase.input, type);
  if (array === null) return skipped("the input array is too large for this example");
  const [from, to] = testCase.operation === "encode" ? [aShape, bShape] : [bShape, aShape];
  if (!sameShape(array.shape, from)) {
    throw new ReshapeError("shape-mismatch", `input shape [${array.shape}] is not [${from}]`);
  }
  const data = nestArray(type, array.flat, to);
  if (data === null) return skipped("the output array is too large for this example");
  return { shape: to, data };
}

function runCase(testCase) {
  if (!OPERATIONS.includes(testCase.operation)) {
    return skipped(`operation ${String(testCase.operation)} is not implemented here`);
  }
  const shape = parseShape(testCase);
  const aShape = checkDecodedShape(testCase.decoded_shape);
  const bShape = resolveShape(shape, aShape);
  switch (testCase.operation) {
    case "resolve":
      return { encoded_shape: bShape };
    case "map-index":
      return { encoded_index: mapIndex(testCase.decoded_index, aShape, bShape) };
    case "map-region": {
      const encoded = mapRegion(testCase.decoded_region, aShape, bShape);
      return encoded === null ? skipped("the box is too large for this example") : { encoded_indices: encoded };
    }
    default:
      return reshapeArray(testCase, aShape, bShape);
  }
}

function run(testCase) {
  try {
    return runCase(testCase);
  } catch (error) {
    if (error instanceof ReshapeError) {
      return { error: { class: error.errorClass, message: error.message } };
    }
    if (error instanceof BadInput) return { errored: { message: `bad case: ${error.message}` } };
    // A bug of this adapter: a crash, never a rejection (protocol 2's `crashed`).
    process.stderr.write(`${error?.stack ?? error}\n`);
    return { crashed: { message: `uncaught ${error?.name ?? "exception"}: ${error?.message ?? error}` } };
  }
}

function answer(message) {
  if (message?.cmd === "start") {
    // Loose equality: the exact reader gives 2n, JSON.parse gives 2.
    if (message.protocol != 2) return { ok: false, error: "this adapter speaks protocol 2 only" };
    const implementation = { name: NAME, version: "1.0.0", language: "javascript" };
    return { ok: true, implementation, operations: OPERATIONS };
  }
  if (message?.cmd === "run") return { seq: message.seq, result: run(message.case) };
  return null; // "stop", or a message this version does not know
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const message = read(line);
  if (message?.cmd === "stop") break;
  const reply = answer(message);
  if (reply !== null) process.stdout.write(`${writeExact(reply)}\n`);
}
lines.close();
