#!/usr/bin/env node
// Checks the two runs of run.sh from their JSON-lines reports:
//   node check-runs.mjs SUITE_DIR EXACT.jsonl PLAIN.jsonl
// - exact run (lossless-json): every case passes, but those of the operations the
//   adapter does not list (read-array, resolve-chain), which the runner skips;
//   the runner alone fails only on MUST cases, this holds every level to it.
// - plain run (JSON.parse): it must fail, and only on vectors that hold an integer
//   beyond 2^53 or a float element -0.0 (BigInt of every integral double makes it
//   0n), so the reader is the one thing that differs.
// Prints the figures, exits 1 when a check fails.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { isLosslessNumber } from "lossless-json";
import { readExact } from "./exact-json.mjs";

const LIMIT = 2n ** 53n; // beyond this, doubles skip integers: 2^53 + 1 reads as 2^53

function* integersOf(value) {
  if (typeof value === "bigint") yield value;
  else if (Array.isArray(value)) for (const item of value) yield* integersOf(item);
  else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) yield* integersOf(item);
  }
}

/** Whether a vector holds the number -0.0, which JSON.parse cannot tell from the integer -0. */
function holdsNegativeZero(value) {
  if (isLosslessNumber(value)) return Object.is(Number(value.toString()), -0);
  if (Array.isArray(value)) return value.some(holdsNegativeZero);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsNegativeZero);
  return false;
}

/** Every case of the suite's vector files (the arrays/ fixtures are not vector files). */
function* casesOf(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "arrays") yield* casesOf(path);
    if (entry.isFile() && entry.name.endsWith(".json")) {
      const file = readExact(readFileSync(path, "utf8"));
      if (Array.isArray(file?.cases)) yield* file.cases;
    }
  }
}

// Only ids, levels and outcomes are read from the reports, so JSON.parse is enough here.
const readRecords = (path) =>
  readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
const readReport = (path) => readRecords(path).filter((record) => record.type === "case");

const [suite, exactPath, plainPath] = process.argv.slice(2);
const problems = [];
const bigIds = new Set();
const inexactIds = new Set(); // a request integer that no double holds
for (const testCase of casesOf(suite)) {
  const { expect, ...request } = testCase;
  const all = [...integersOf(request), ...integersOf(expect)];
  if (all.some((n) => n > LIMIT || n < -LIMIT) || holdsNegativeZero(testCase)) bigIds.add(testCase.id);
  if ([...integersOf(request)].some((n) => BigInt(Number(n)) !== n)) inexactIds.add(testCase.id);
}

const exact = readReport(exactPath);
// The runner skips the cases of operations the adapter does not list in `start`
// (the header's implementation.operations).
const header = readRecords(exactPath).find((record) => record.type === "header");
const listed = new Set(header?.implementation?.operations ?? []);
const unexpected = exact.filter((c) => c.outcome !== "pass" && !(!listed.has(c.operation) && c.outcome === "skip"));
for (const c of unexpected) problems.push(`exact run: ${c.id} [${c.level}] ended ${c.outcome}`);
const bigPassed = exact.filter((c) => bigIds.has(c.id) && c.outcome === "pass").length;

const plain = readReport(plainPath);
const lost = plain.filter((c) => c.outcome === "fail" || c.outcome === "error");
for (const c of lost.filter((c) => !bigIds.has(c.id))) {
  problems.push(`plain run: ${c.id} ended ${c.outcome} without an integer beyond 2^53 or a -0.0`);
}
const lostMust = lost.filter((c) => c.level === "must").length;
if (lostMust === 0) problems.push("plain run: no MUST case failed, so the vectors no longer catch JSON.parse");

console.log(`vectors with an integer beyond 2^53 or a -0.0: ${bigIds.size} (a request integer no double holds: ${inexactIds.size})`);
console.log(`exact reader (lossless-json): ${bigPassed} of ${bigIds.size} pass; ${exact.length} cases, ${unexpected.length} not passing outside the skipped operations`);
console.log(`JSON.parse: ${lost.length} of them fail (${lostMust} MUST): ${lost.map((c) => c.id).join(", ")}`);
for (const problem of problems) console.error(`FAIL ${problem}`);
// The closing line in the plain form CI logs read: the exact run's passes and skips,
// and as failed every case or check listed above with FAIL.
const passed = exact.filter((c) => c.outcome === "pass").length;
const skippedCount = exact.filter((c) => c.outcome === "skip").length;
console.log(`node: ${passed} passed, ${problems.length} failed, ${skippedCount} skipped`);
process.exit(problems.length === 0 ? 0 : 1);
