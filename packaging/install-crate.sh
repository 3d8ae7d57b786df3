#!/usr/bin/env bash
# The crates.io route, as a user would take it: package the workspace's crates
# (`cargo package`), install the CLI from its .crate (`cargo install --locked`),
# delete every source, and run the suite from an empty folder with nothing but
# the installed binary on PATH; then check that the suite inside the installed
# binary is the repository's, file for file. Exits nonzero on any failure;
# prints each stage's wall time.
#
# Usage: bash packaging/install-crate.sh [EXTRA RUN ARGUMENTS...]
#   Extra arguments go to `zarr-reshape run` (e.g. --filter 'input-dims.*' --jobs 2).
#   CARGO_TARGET_DIR: see common.sh. With the repository's target/, only the
#   packaged crates are compiled (their paths are new), which adds their release
#   artifacts (about 25 MB) to it. For a build from nothing, as on a fresh
#   machine: CARGO_TARGET_DIR=$(mktemp -d) bash packaging/install-crate.sh
set -euo pipefail

script=install-crate
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=packaging/common.sh
source "$repo/packaging/common.sh"
cli_package="zarr-reshape-conformance"
pkgid="$(cargo pkgid --manifest-path "$repo/Cargo.toml" -p "$cli_package")"
version="${pkgid##*@}"

begin "cargo package --workspace"
# Every member at once: cargo checks the members against each other through a
# temporary local registry, since none of them is on crates.io. The install below
# builds the packaged sources, which verifies them, so --no-verify saves a build.
# Its own target folder: packaging compiles nothing and must not touch target/package.
cargo package --manifest-path "$repo/Cargo.toml" --workspace --locked --no-verify \
  --allow-dirty --quiet --target-dir "$scratch/package-target"
finish "cargo package --workspace"

begin "unpack the .crate files"
mkdir "$scratch/crates"
crates=("$scratch/package-target/package/"*.crate)
only_file ".crate of the CLI" "$scratch/package-target/package/$cli_package-"*.crate >/dev/null
for crate in "${crates[@]}"; do
  tar -xzf "$crate" -C "$scratch/crates"
  echo "  $(basename "$crate") ($(wc -c <"$crate") bytes)"
done
cli_dir="$(dirname "$(only_file "unpacked $cli_package" "$scratch/crates/$cli_package-"*/Cargo.toml)")"
finish "unpack"

# None of these crates is on crates.io: the packaged CLI names its workspace
# dependencies as crates.io packages, so each one it depends on is patched to its
# unpacked .crate (never to the repository's sources).
patches=()
for dir in "$scratch/crates/"*/; do
  dir="${dir%/}"
  name="$(sed -n 's/^name = "\(.*\)"$/\1/p' "$dir/Cargo.toml" | head -n 1)"
  if [[ "$name" != "$cli_package" ]] \
    && grep -Eq "^\[(build-)?dependencies\.$name\]$" "$cli_dir/Cargo.toml"; then
    patches+=(--config "patch.crates-io.$name.path=\"$dir\"")
    echo "  patch.crates-io.$name -> $(basename "$dir")"
  fi
done

begin "cargo install --locked (release)"
# --locked: the Cargo.lock inside the .crate, as `cargo install --locked` from
# crates.io would use it.
cargo install --locked --path "$cli_dir" --root "$scratch/root" "${patches[@]}" \
  2>&1 | tee "$scratch/install.log"
# A patch cargo did not use would mean a crate came from somewhere else.
if grep -q "was not used in the crate graph" "$scratch/install.log"; then
  echo "$script: a packaged crate was not used; see the warning above" >&2
  exit 1
fi
finish "cargo install --locked"

# Nothing of the sources may remain for the binary to find.
rm -rf "$scratch/crates" "$scratch/package-target"
mkdir "$scratch/empty"
cd "$scratch/empty"
export PATH="$scratch/root/bin:$PATH"
if [[ "$(command -v zarr-reshape)" != "$scratch/root/bin/zarr-reshape" ]]; then
  echo "$script: zarr-reshape on PATH is not the installed one" >&2
  exit 1
fi
echo "  installed: $(wc -c <"$scratch/root/bin/zarr-reshape") bytes"

check_installed "$version" "$@"

print_timings
