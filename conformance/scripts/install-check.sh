#!/usr/bin/env bash
# Issue 15's test of the CLI as a user gets it: the three crates packaged
# (`cargo package`), the CLI installed from those .crate files alone (not the
# source tree), and run from an empty folder: --version, the embedded suite's
# validation, the suite run, and an export that `sha256sum -c` accepts.
# The packaged crates depend on each other by version; until they are on
# crates.io, `patch` points those versions at the unpacked .crate files.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo package --locked --allow-dirty --no-verify --quiet \
  -p zarr-reshape -p zarr-reshape-vectors -p zarr-reshape-conformance
mkdir "$work/src" "$work/empty"
for crate in zarr-reshape zarr-reshape-vectors zarr-reshape-conformance; do
  version=$(cargo metadata --no-deps --format-version 1 --locked \
    | python3 -c "import json,sys; print(next(p['version'] for p in json.load(sys.stdin)['packages'] if p['name']=='$crate'))")
  tar -xzf "target/package/$crate-$version.crate" -C "$work/src"
  declare "dir_${crate//-/_}=$work/src/$crate-$version"
done

# A target folder of its own, kept between runs: the install builds in debug.
CARGO_TARGET_DIR="$repo/target/install-check" cargo install --quiet --debug \
  --path "$dir_zarr_reshape_conformance" --root "$work/root" \
  --config "patch.crates-io.zarr-reshape.path='$dir_zarr_reshape'" \
  --config "patch.crates-io.zarr-reshape-vectors.path='$dir_zarr_reshape_vectors'"

cd "$work/empty"
bin="$work/root/bin/zarr-reshape"
"$bin" --version
"$bin" vectors --validate
"$bin" run
"$bin" vectors --export suite >/dev/null
(cd suite && sha256sum --check --quiet --strict SHA256SUMS)
"$bin" run --cases suite >/dev/null
rm -r suite
if [[ -n "$(ls -A "$work/empty")" ]]; then
  echo "the installed binary left files in the folder it ran in:" >&2
  ls -A "$work/empty" >&2
  exit 1
fi
echo "installed from the packaged crates: the suite passes from an empty folder"
