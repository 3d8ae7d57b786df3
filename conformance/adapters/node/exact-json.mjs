// Reading and writing protocol lines without losing a digit.
//
// JSON.parse turns every number into a double, so 18446744073709551615 arrives as
// 18446744073709551616 and 9007199254740993 as 9007199254740992, silently. The
// suite sends such integers on purpose. lossless-json hands us the text of each
// number instead: an integer (JSON's integer grammar, no fraction, no exponent)
// becomes a BigInt, anything else stays a LosslessNumber holding its text, so the
// codec can tell 2 from 2.0 and 1e1 and never sees a rounded value.
import { LosslessNumber, isLosslessNumber, parse, stringify } from "lossless-json";

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;

function parseNumberExactly(text) {
  return INTEGER_TEXT.test(text) ? BigInt(text) : new LosslessNumber(text);
}

/** One JSON text to values: integers as BigInt, other numbers as LosslessNumber. */
export function readExact(text) {
  return parse(text, null, parseNumberExactly);
}

/**
 * What most JavaScript adapters do, kept only to show the difference (the
 * --plain-json-parse flag): JSON.parse, then BigInt of every integral double.
 * Integers beyond 2^53 arrive rounded; 2.0 and 1e1 arrive as 2n and 10n.
 */
export function readPlain(text) {
  return JSON.parse(text, (_key, value) =>
    typeof value === "number" && Number.isInteger(value) ? BigInt(value) : value,
  );
}

/** An integer as the reader gives it (a BigInt), never a boolean or a fraction. */
export function isInteger(value) {
  return typeof value === "bigint";
}

/** A JSON number with a fraction or an exponent (2.0, 1e1, 0.5, 1e400). */
export function isNonIntegralNumber(value) {
  return isLosslessNumber(value) || typeof value === "number";
}

/** The double nearest to a JSON number read by either reader. */
export function toDouble(value) {
  return isLosslessNumber(value) ? Number(value.toString()) : Number(value);
}

/** A float element as the vectors spell it: NaN and infinities as strings, -0.0 kept. */
export function floatToJson(value) {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (Object.is(value, -0)) return new LosslessNumber("-0.0");
  const text = String(value); // the shortest text that reads back to the same double
  return new LosslessNumber(INTEGER_TEXT.test(text) ? `${text}.0` : text);
}

/** One JSON line: BigInt written as its digits, LosslessNumber as its text. */
export function writeExact(value) {
  return stringify(value);
}
