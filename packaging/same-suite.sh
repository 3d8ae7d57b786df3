#!/usr/bin/env bash
# Checks that the suite inside the `zarr-reshape` found on PATH is the
# repository's spec-cases/, file for file and byte for byte: `vectors --export`
# into a new temporary folder, its SHA256SUMS verified, then the file lists and
# every file compared. Catches a package that embeds files the repository's
# suite does not have (or lacks some), which `run` alone would not show.
#
# Usage: bash packaging/same-suite.sh   (run by install-crate.sh and wheel.sh)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
suite="$repo/spec-cases"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/zarr-reshape-same-suite.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
export_dir="$scratch/export"

zarr-reshape vectors --export "$export_dir"
(cd "$export_dir" && sha256sum --quiet --strict -c SHA256SUMS)

# The repository's suite as spec-cases/build.rs embeds it: every regular file
# below spec-cases/ except the crate's own (and a target/ folder).
(cd "$suite" && find . -mindepth 1 \
  \( -path ./Cargo.toml -o -path ./Cargo.lock -o -path ./build.rs -o -path ./src -o -path ./target \) \
  -prune -o -type f -print) | sed 's|^\./||' | LC_ALL=C sort >"$scratch/repository.txt"
(cd "$export_dir" && find . -type f ! -path ./SHA256SUMS -print) \
  | sed 's|^\./||' | LC_ALL=C sort >"$scratch/exported.txt"
sed 's/^[0-9a-f]*  //' "$export_dir/SHA256SUMS" | LC_ALL=C sort >"$scratch/manifest.txt"

if ! diff -u "$scratch/manifest.txt" "$scratch/exported.txt"; then
  echo "same-suite: the export's files and its SHA256SUMS disagree (above)" >&2
  exit 1
fi
if ! diff -u --label repository --label installed "$scratch/repository.txt" "$scratch/exported.txt"; then
  echo "same-suite: the installed binary's suite has other files than $suite (above)" >&2
  exit 1
fi
while IFS= read -r path; do
  if ! cmp -s "$suite/$path" "$export_dir/$path"; then
    echo "same-suite: $path differs from $suite/$path" >&2
    exit 1
  fi
done <"$scratch/exported.txt"
echo "  the installed suite is spec-cases/: $(wc -l <"$scratch/exported.txt") files, byte for byte"
