#!/usr/bin/env bash
# The Node.js example adapter's conformance run, as CI runs it (see README.md):
#   1. npm ci (lossless-json, as locked in package-lock.json);
#   2. the suite against `node adapter.mjs`: the runner's own verdict (MUST cases);
#   3. the suite against `node adapter.mjs --plain-json-parse`, the same adapter
#      reading with JSON.parse, which must fail;
#   4. a short fuzz against the reference (fixed seed, 5000 cases): it must find no
#      disagreement at any level;
#   5. check-snippets.mjs: the JavaScript snippets of spec-cases/README.md print what
#      their comments say;
#   6. check-runs.mjs on both reports: every case but read-array passes with the exact
#      reader, and JSON.parse fails only on vectors with integers beyond 2^53.
# Usage: run.sh [ZARR_RESHAPE [RUN.jsonl]]   the runner binary (default:
# target/release/zarr-reshape); RUN.jsonl receives the exact run's JSON-lines record.
# Exits 0 when all of that holds, 1 when a check fails, 2 when it cannot start
# (no node 18+, no runner binary, npm ci failing).
set -euo pipefail

runner="${1:-target/release/zarr-reshape}"
record="${2:-}"
if [[ -n "$record" && "$record" != /* ]]; then record="$PWD/$record"; fi
case "$runner" in
  /*) ;;
  */*) runner="$PWD/$runner" ;;
  *) runner="$(command -v "$runner" || echo "$PWD/$runner")" ;;
esac

cd "$(dirname "$0")/../../.."
adapter=conformance/adapters/node

if [[ ! -x "$runner" ]]; then
  echo "node adapter: no runner binary at $runner (build it: cargo build --release -p zarr-reshape-conformance)" >&2
  exit 2
fi
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' 2>/dev/null; then
  echo "node adapter: needs Node.js 18 or newer on PATH (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 2
fi
(cd "$adapter" && npm ci --no-audit --no-fund --loglevel=error) || exit 2

reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT

echo "== node adapter, exact reader (lossless-json) =="
"$runner" run --adapter "node $adapter/adapter.mjs" --cases spec-cases \
  --report "jsonl=$reports/exact.jsonl"

echo "== node adapter, JSON.parse (must fail: it rounds integers beyond 2^53) =="
status=0
"$runner" run --adapter "node $adapter/adapter.mjs --plain-json-parse" --cases spec-cases \
  --report "jsonl=$reports/plain.jsonl" >"$reports/plain.txt" 2>&1 || status=$?
tail -n 1 "$reports/plain.txt"
if [[ $status -ne 1 ]]; then
  echo "node adapter: the JSON.parse run exited $status where 1 (failed) was expected" >&2
  cat "$reports/plain.txt" >&2
  exit 1
fi

echo "== node adapter, fuzzed against the reference (seed 15, 5000 cases) =="
# The adapter takes the reference's reading everywhere, so any disagreement, at any
# level, is a change; fuzz itself fails only on MUST-level ones.
"$runner" fuzz --adapter "node $adapter/adapter.mjs" --seed 15 --cases 5000 \
  >"$reports/fuzz.txt" 2>&1
tail -n 2 "$reports/fuzz.txt"
if ! grep -q '^0 disagreeing case' "$reports/fuzz.txt"; then
  echo "node adapter: the fuzz found disagreements with the reference" >&2
  cat "$reports/fuzz.txt" >&2
  exit 1
fi

node "$adapter/check-snippets.mjs" .
if [[ -n "$record" ]]; then cp "$reports/exact.jsonl" "$record"; fi
# Last, as its closing line counts every case: "node: N passed, N failed, N skipped".
node "$adapter/check-runs.mjs" spec-cases "$reports/exact.jsonl" "$reports/plain.jsonl"
