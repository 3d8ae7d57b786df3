# shellcheck shell=bash
# Sourced by install-crate.sh, wheel.sh and sdist.sh, not run: the scratch folder,
# the stage timings, and the guard of the workspace's target/release/zarr-reshape.
# Expects $script (a name for messages and the scratch folder) and $repo.
: "${script:?common.sh needs \$script}" "${repo:?common.sh needs \$repo}"

export LC_NUMERIC=C # a "." in the timings, whatever the locale
# The repository's target/ unless told otherwise: the registry dependencies that
# `cargo build --release -p zarr-reshape-conformance` built are then not built again.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/zarr-reshape-$script.XXXXXX")"

# A release build into the shared target folder copies its binary over
# $CARGO_TARGET_DIR/release/zarr-reshape, which later CI stages and people run as
# the workspace's own build. Whatever was there is put back when the script ends.
uplifted="$CARGO_TARGET_DIR/release/zarr-reshape"
uplifted_saved=""
uplifted_was_absent=""
if [[ -f "$uplifted" && ! -L "$uplifted" ]]; then
  uplifted_saved="$scratch/uplifted-zarr-reshape"
  cp -p "$uplifted" "$uplifted_saved"
elif [[ ! -e "$uplifted" && ! -L "$uplifted" ]]; then
  uplifted_was_absent=yes
fi

cleanup() {
  if [[ -n "$uplifted_saved" ]] && ! cmp -s "$uplifted_saved" "$uplifted"; then
    # rm first: the file is a hard link to the build's own artifact, which must
    # not be overwritten through it.
    rm -f "$uplifted"
    cp -p "$uplifted_saved" "$uplifted"
  elif [[ -n "$uplifted_was_absent" && -f "$uplifted" ]]; then
    rm -f "$uplifted"
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now() { printf '%s' "$EPOCHREALTIME"; }
timings=()
stage_start=""
begin() {
  echo "== $script: $1"
  stage_start="$(now)"
}
finish() {
  local seconds
  seconds="$(awk -v a="$stage_start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')"
  timings+=("$(printf '%-34s %7s s' "$1" "$seconds")")
}
print_timings() {
  echo "== $script: PASSED (wall times)"
  printf '  %s\n' "${timings[@]}"
}

# Fails unless exactly one file matches: the path is printed.
only_file() {
  local what="$1"
  shift
  if [[ $# -ne 1 || ! -f "$1" ]]; then
    echo "$script: expected one $what, found: $*" >&2
    return 1
  fi
  printf '%s' "$1"
}

# The checks every install route ends with, run in an empty working folder with
# the installed `zarr-reshape` first on PATH: --version names VERSION, `run`
# (with the remaining arguments) passes and writes nothing there, and the
# installed suite is spec-cases/ byte for byte.
check_installed() {
  local version="$1"
  shift
  begin "zarr-reshape --version"
  zarr-reshape --version | tee "$scratch/version.txt"
  if ! grep -qF "$version" "$scratch/version.txt"; then
    echo "$script: zarr-reshape --version does not name $version" >&2
    exit 1
  fi
  finish "zarr-reshape --version"

  begin "zarr-reshape run (empty folder)"
  zarr-reshape run "$@"
  finish "zarr-reshape run"

  if [[ -n "$(ls -A .)" ]]; then
    echo "$script: the run wrote into its working folder:" >&2
    ls -A . >&2
    exit 1
  fi

  begin "the installed suite is the repository's"
  bash "$repo/packaging/same-suite.sh"
  finish "vectors --export, compared"
}
