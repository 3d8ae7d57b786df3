#!/usr/bin/env bash
# The results page, as CI builds and checks it (conformance/REPORTS.md, "HTML"):
#   1. installs what is missing: Debian's chromium, Node.js (20+, as playwright-core
#      needs), playwright-core
#      (npm ci, as locked in package-lock.json);
#   2. renders OUTDIR/results.html from the runs' JSON-lines files, and a badge per run
#      (OUTDIR/<file name>.badge.json);
#   3. loads the page in headless chromium (check.mjs): no console error, page error
#      or request; the verdicts come first, one per file, none PASSED for a run in
#      which no must case ran; the matrix has one row per clause with cases and one
#      column per file, their titles distinct; every cell's state agrees with the
#      files (a should or interpretation failure of a passing run is "differs", not
#      "fail"); a failing case is listed in its cell; the title's code is not shrunk;
#      writes OUTDIR/results.png;
#   4. shows that the check can fail: the same page with a row removed, and with
#      every row removed, must be refused.
# Usage: run.sh RUNNER OUTDIR RUN.jsonl [RUN2.jsonl ...]
# Exits 0 when all of that holds, 1 when a check fails, 2 when it cannot start.
set -euo pipefail

if [[ $# -lt 3 ]]; then
  echo "usage: run.sh RUNNER OUTDIR RUN.jsonl [RUN2.jsonl ...]" >&2
  exit 2
fi
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
runner="$(absolute "$1")"
outdir="$(absolute "$2")"
shift 2
runs=()
for run in "$@"; do
  if [[ ! -f "$run" ]]; then
    echo "results page: no JSON-lines file $run" >&2
    exit 2
  fi
  runs+=("$(absolute "$run")")
done
here="$(cd "$(dirname "$0")" && pwd)"

if [[ ! -x "$runner" ]]; then
  echo "results page: no runner binary at $runner (cargo build --release -p zarr-reshape-conformance)" >&2
  exit 2
fi
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [[ ! -x "$CHROMIUM" ]]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || exit 2
fi
if ! command -v node >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null) || exit 2
fi
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' 2>/dev/null; then
  echo "results page: playwright-core needs Node.js 20 or newer (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 2
fi
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) || exit 2

mkdir -p "$outdir"
"$runner" report --format html --out "$outdir/results.html" "${runs[@]}" || exit 2
for run in "${runs[@]}"; do
  name="$(basename "$run" .jsonl)"
  "$runner" report --format badge --out "$outdir/$name.badge.json" "$run" || exit 2
done

echo "== results page: $outdir/results.html in headless chromium"
node "$here/check.mjs" --page "$outdir/results.html" --screenshot "$outdir/results.png" "${runs[@]}"

echo "== results page: the check refuses a page with a row removed, and an empty matrix"
broken="$(mktemp -d)"
trap 'rm -rf "$broken"' EXIT
# Each clause row is one line of the page (REPORTS.md), so sed can drop rows.
sed '0,/^<tr data-clause=/{/^<tr data-clause=/d}' "$outdir/results.html" >"$broken/row-removed.html"
sed '/^<tr data-clause=/d' "$outdir/results.html" >"$broken/empty.html"
for page in row-removed empty; do
  if node "$here/check.mjs" --page "$broken/$page.html" --screenshot "$broken/$page.png" "${runs[@]}" \
    >"$broken/$page.log" 2>&1; then
    echo "results page: the check passed a broken page ($page); it cannot be trusted" >&2
    cat "$broken/$page.log" >&2
    exit 1
  fi
  echo "refused ($page): $(grep -m1 '^FAIL' "$broken/$page.log" || true)"
done
