#!/usr/bin/env bash
# The four command-line readers (`$ZARR_CLI --array_path=PATH`), each run two ways
# over the whole-array read-array fixtures (see README.md):
#   (a) the runner's array-path mode with the reader's expectations file, reports in
#       target/conformance/array-path-<reader>.{md,jsonl};
#   (b) `bats --tap EXPORT_DIR/tests.bats` (the export of `RUNNER export-bats`), TAP in
#       target/conformance/array-path-<reader>.tap, checked by check_tap.py against
#       the same expectations file, both ways.
# Readers: reference (`RUNNER read`, no expectations: everything must pass), zarrs
# 0.23.14, zarr-python 3.4.2 + zarrs-python 0.2.3, zarr-python 3.4.2 + nd-image-codecs
# 0.2.5. A Python reader is skipped, with a line "SKIP <reader>: why", only when no
# CPython 3.12 or 3.13 is found (its setup.sh exits 3).
# Usage: run.sh RUNNER EXPORT_DIR      e.g. run.sh target/release/zarr-reshape target/bats-export
# Exits 0 when every reader that ran passed both checks, 1 when any failed, 2 on usage.
set -uo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: run.sh RUNNER EXPORT_DIR (write EXPORT_DIR first: RUNNER export-bats EXPORT_DIR)" >&2
  exit 2
fi
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
runner="$(absolute "$1")"
export_dir="$(absolute "$2")"
cd "$(dirname "$0")/../../.." || exit 2
root="$PWD"
here=conformance/adapters/array-path
cases=spec-cases/generated/read-array.json
out=target/conformance

if [[ ! -x "$runner" ]]; then
  echo "run.sh: RUNNER $runner is not an executable" >&2
  exit 2
fi
if [[ ! -f "$export_dir/tests.bats" || ! -d "$export_dir/data" ]]; then
  echo "run.sh: $export_dir holds no tests.bats and data/: run $runner export-bats $export_dir first" >&2
  exit 2
fi
if [[ "$root$runner$export_dir" == *[[:space:]]* ]]; then
  # bats splits ZARR_CLI into words, as zarr-conformance-tests does.
  echo "run.sh: a path with white space cannot go into ZARR_CLI: $root, $runner, $export_dir" >&2
  exit 2
fi
if ! python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "run.sh: check_tap.py needs python3 3.11 or later (tomllib)" >&2
  exit 2
fi
if ! command -v bats >/dev/null 2>&1; then
  echo "run.sh: installing bats (Debian package)"
  apt-get update -qq && apt-get install -y -qq bats >/dev/null || { echo "run.sh: cannot install bats" >&2; exit 2; }
fi
mkdir -p "$out"

failed=()
summary=()

# check SLUG NAME VERSION EXPECTATIONS(or "") COMMAND...
check() {
  local slug="$1" name="$2" version="$3" expectations="$4"
  shift 4
  local command="$*" listed=() start status tap="$out/array-path-$slug.tap"
  [[ -n "$expectations" ]] && listed=(--expectations "$expectations")
  echo "== array-path reader $slug: $command"
  start=$SECONDS
  "$runner" run --array-path-reader "$command" --reader-name "$name" --reader-version "$version" \
    --cases "$cases" ${listed[@]+"${listed[@]}"} \
    --report "markdown=$out/array-path-$slug.md" --report "jsonl=$out/array-path-$slug.jsonl"
  status=$?
  local runner_time=$((SECONDS - start))
  if [[ $status -ne 0 ]]; then
    echo "FAIL $slug: the runner's array-path mode exited $status"
    failed+=("$slug (runner)")
  fi
  start=$SECONDS
  # bats exits 1 when a test fails; which tests may fail is check_tap.py's to judge.
  ZARR_CLI="$command" ZARR_CONFORMANCE_DATA="$export_dir/data" bats --tap "$export_dir/tests.bats" >"$tap"
  local bats_status=$?
  local bats_time=$((SECONDS - start))
  if ! python3 "$here/check_tap.py" --reader "$slug" --tap "$tap" --cases "$cases" ${listed[@]+"${listed[@]}"}; then
    echo "FAIL $slug: bats (exit $bats_status) differs from ${expectations:-no expectations}; TAP in $tap"
    failed+=("$slug (bats)")
  fi
  summary+=("$slug: runner ${runner_time}s (exit $status), bats ${bats_time}s (exit $bats_status)")
}

# python_reader SLUG NAME VERSION ADAPTER_DIR EXPECTATIONS: set up the venv, then check.
python_reader() {
  local slug="$1" name="$2" version="$3" dir="$4" expectations="$5" status=0
  if [[ ! -f "$dir/setup.sh" || ! -f "$dir/read_array.py" ]]; then
    echo "FAIL $slug: $dir/setup.sh or $dir/read_array.py is missing"
    failed+=("$slug (missing)")
    return
  fi
  bash "$dir/setup.sh" || status=$?
  if [[ $status -eq 3 ]]; then
    echo "SKIP $slug: no CPython 3.12 or 3.13 on this machine (PATH or pyenv); set PYTHON=/path/to/python3.12 to run it"
    summary+=("$slug: SKIPPED (no CPython 3.12 or 3.13)")
    return
  elif [[ $status -ne 0 ]]; then
    echo "FAIL $slug: $dir/setup.sh exited $status"
    failed+=("$slug (setup)")
    return
  fi
  check "$slug" "$name" "$version" "$expectations" "$root/$dir/.venv/bin/python" "$root/$dir/read_array.py"
}

total=$SECONDS
reference_version="$("$runner" --version 2>/dev/null | head -n 1 | awk '{print $NF}')"
check reference zarr-reshape "${reference_version:-unknown}" "" "$runner" read

echo "== building zarrs-array-path (conformance/adapters/zarrs, release)"
if CARGO_TARGET_DIR=conformance/adapters/zarrs/target cargo build --release --locked --quiet \
     --manifest-path conformance/adapters/zarrs/Cargo.toml; then
  check zarrs zarrs 0.23.14 conformance/expectations/array-path/zarrs-0.23.14.toml \
    "$root/conformance/adapters/zarrs/target/release/zarrs-array-path"
else
  echo "FAIL zarrs: the build failed"
  failed+=("zarrs (build)")
fi

python_reader zarr-python "zarr-python + zarrs-python" "3.4.2 + 0.2.3" conformance/adapters/zarr-python \
  conformance/expectations/array-path/zarr-python-3.4.2.toml
python_reader nd-image-codecs "zarr-python + nd-image-codecs" "3.4.2 + 0.2.5" conformance/adapters/nd-image-codecs \
  conformance/expectations/array-path/nd-image-codecs-0.2.5.toml

echo "== array-path readers: $((SECONDS - total))s in all"
printf '  %s\n' "${summary[@]}"
if [[ ${#failed[@]} -ne 0 ]]; then
  echo "array-path readers FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "array-path readers: every check passed"
