#!/usr/bin/env bash
# The checks of the zarr-extensions contribution (README.md beside this file):
#   1. errata.patch applies (git apply, -U1 context) to the shared copies of
#      codecs/reshape/README.md and schema.json (../shared/spec beside the clone,
#      or ZARR_RESHAPE_SHARED_SPEC), and then
#      (a) check-spec reports no error and no warning on the patched README, where
#          it reports both on the unpatched one;
#      (b) the patched schema admits every resolve configuration the suite accepts
#          and refuses every one whose error it can express, and (c) the README's
#          example still resolves: conformance/tests/upstream_errata.rs (cargo test);
#   2. sample_data/ is what `zarr-reshape fixtures --sample-data` writes now, and
#      two readers read every sample array back as expected: zarrs (its adapter,
#      built as conformance/adapters/zarrs/run.sh builds it) and the reference
#      (whose reader reads sharding_indexed too).
# Usage: check.sh RUNNER   (a built zarr-reshape, e.g. target/release/zarr-reshape)
# Exits 1 on any failure, 2 when it cannot start.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 RUNNER (a built zarr-reshape binary)" >&2
  exit 2
fi
case "$1" in
  /*) runner="$1" ;;
  *) runner="$PWD/$1" ;;
esac
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
spec="${ZARR_RESHAPE_SHARED_SPEC:-../shared/spec}"
if [[ ! -f "$spec/reshape-codec.upstream.md" || ! -f "$spec/schema.json" ]]; then
  echo "check.sh: the shared spec copies are not in $spec (set ZARR_RESHAPE_SHARED_SPEC)" >&2
  exit 2
fi
# Absolute and exported, so the cargo test below (run from conformance/) reads the
# same folder, and fails rather than passes when it is not there.
spec="$(cd "$spec" && pwd)"
export ZARR_RESHAPE_SHARED_SPEC="$spec"
tmp="$(mktemp -d)"
checks=0
trap 'rm -rf "$tmp"' EXIT

# Counts of check-spec's JSON findings by severity: "errors warnings notes".
severities() {
  python3 -c '
import json, sys
found = [f["severity"] for f in json.load(sys.stdin)["findings"]]
print(found.count("error"), found.count("warning"), found.count("note"))'
}

echo "== 1. errata.patch on codecs/reshape/{README.md,schema.json}"
for tree in unpatched patched; do
  mkdir -p "$tmp/$tree/codecs/reshape"
  # The shared copy opens with a note (an HTML comment) and a blank line that
  # upstream's file does not have.
  awk 'NR == 1 && /^<!--/ { note = 1; next } NR == 2 && note && /^$/ { next } { print }' \
    "$spec/reshape-codec.upstream.md" >"$tmp/$tree/codecs/reshape/README.md"
  cp "$spec/schema.json" "$tmp/$tree/codecs/reshape/schema.json"
done
(cd "$tmp/patched" && git apply --check "$here/errata.patch" && git apply "$here/errata.patch")
echo "git apply: $(grep -c '^@@' "$here/errata.patch") hunks applied"
checks=$((checks + 1))
status=0
"$runner" check-spec --format json -- "$tmp/unpatched/codecs/reshape/README.md" \
  >"$tmp/unpatched.json" || status=$?
read -r errors warnings notes < <(severities <"$tmp/unpatched.json")
echo "check-spec, unpatched README: exit $status, $errors errors, $warnings warnings, $notes notes"
if [[ $status -ne 1 || $errors -eq 0 || $warnings -eq 0 ]]; then
  echo "check.sh: check-spec should report errors and a warning on the unpatched README" >&2
  exit 1
fi
checks=$((checks + 1))
status=0
"$runner" check-spec --format json -- "$tmp/patched/codecs/reshape/README.md" \
  >"$tmp/patched.json" || status=$?
read -r errors warnings notes < <(severities <"$tmp/patched.json")
echo "check-spec, patched README: exit $status, $errors errors, $warnings warnings, $notes notes"
if [[ $status -ne 0 || $errors -ne 0 || $warnings -ne 0 ]]; then
  "$runner" check-spec -- "$tmp/patched/codecs/reshape/README.md" >&2 || true
  echo "check.sh: check-spec reports problems on the patched README" >&2
  exit 1
fi
checks=$((checks + 1))
# (b) and (c): the schema against every resolve vector, E1/E2 and the example.
cargo test --locked --quiet -p zarr-reshape-conformance --test upstream_errata -- --nocapture \
  2>&1 | tee "$tmp/errata-test.txt" | grep -oE '(check-spec|schema): .*|test result: .*' || true
if ! grep -q 'test result: ok. 2 passed' "$tmp/errata-test.txt" \
   || ! grep -qE 'schema: [1-9][0-9]* accepted' "$tmp/errata-test.txt"; then
  cat "$tmp/errata-test.txt" >&2
  echo "check.sh: conformance/tests/upstream_errata.rs failed" >&2
  exit 1
fi
checks=$((checks + 1))

echo "== 2. sample_data/: current, and read back by zarrs and by the reference"
"$runner" fixtures --sample-data upstream/zarr-extensions/sample_data --check
checks=$((checks + 1))
adapter=conformance/adapters/zarrs
CARGO_TARGET_DIR="$adapter/target" \
  cargo build --release --locked --quiet --manifest-path "$adapter/Cargo.toml"
# A suite root: clauses.json, the committed arrays under arrays/, their cases.
suite="$tmp/suite"
mkdir -p "$suite/arrays" "$suite/sample-data"
cp spec-cases/clauses.json "$suite/clauses.json"
cp -R upstream/zarr-extensions/sample_data/*.zarr "$suite/arrays/"
"$runner" fixtures --sample-data "$tmp/fresh" --suite-cases "$suite/sample-data/read-array.json" >/dev/null
arrays=$(find "$suite/arrays" -mindepth 1 -maxdepth 1 -name '*.zarr' | wc -l)
echo "$arrays sample arrays, $(grep -c '"operation": "read-array"' "$suite/sample-data/read-array.json") read-array cases"

# Outcomes of a JSON-lines record: "pass fail skip other", and the skip reasons.
outcomes() {
  python3 -c '
import json, sys
counts = {"pass": 0, "fail": 0, "skip": 0, "other": 0}
reasons = set()
for line in sys.stdin:
    record = json.loads(line)
    if record.get("type") != "case":
        continue
    outcome = record.get("outcome")
    counts[outcome if outcome in counts else "other"] += 1
    if outcome == "skip":
        reasons.add(record.get("id", "") + ": " + str(record.get("reason", "")))
print(counts["pass"], counts["fail"], counts["skip"], counts["other"])
for reason in sorted(reasons):
    print(reason, file=sys.stderr)'
}

"$runner" run --cases "$suite" --adapter "$PWD/$adapter/target/release/zarrs-reshape-adapter" \
  --report "jsonl=$tmp/zarrs.jsonl" >"$tmp/zarrs.txt" 2>&1 || { cat "$tmp/zarrs.txt" >&2; exit 1; }
read -r pass fail skip other < <(outcomes <"$tmp/zarrs.jsonl")
echo "zarrs: $pass passed, $fail failed, $skip skipped, $other other"
if [[ $pass -ne $arrays || $fail -ne 0 || $skip -ne 0 || $other -ne 0 ]]; then
  cat "$tmp/zarrs.txt" >&2
  echo "check.sh: zarrs must read every sample array as expected" >&2
  exit 1
fi
checks=$((checks + 1))
"$runner" run --cases "$suite" --report "jsonl=$tmp/reference.jsonl" >"$tmp/reference.txt" 2>&1 \
  || { cat "$tmp/reference.txt" >&2; exit 1; }
read -r pass fail skip other < <(outcomes <"$tmp/reference.jsonl" 2>"$tmp/skipped.txt")
sharded=$(grep -l sharding_indexed "$suite"/arrays/*.zarr/zarr.json | wc -l)
echo "reference: $pass passed, $fail failed, $skip skipped ($sharded sample arrays are sharded), $other other"
sed 's/^/  skipped: /' "$tmp/skipped.txt"
if [[ $pass -ne $arrays || $fail -ne 0 || $skip -ne 0 || $other -ne 0 ]]; then
  cat "$tmp/reference.txt" >&2
  echo "check.sh: the reference must read every sample array as expected, the sharded ones included" >&2
  exit 1
fi
checks=$((checks + 1))
# Every check above exits at its failure: reaching here, all passed.
echo "check.sh: $checks passed, 0 failed"
