#!/usr/bin/env bash
# The action's check step: expand INPUT_FILES (paths or globs, `**` included),
# print the human diagnostics into the log (INPUT_HUMAN=true), then the GitHub
# annotations, whose exit status is the step's. File names go after `--`, so a
# file named like an option (`-h.md`) is checked, not obeyed.
set -euo pipefail
shopt -s globstar nullglob
bin="${ZARR_RESHAPE_BIN:-zarr-reshape}"
if ! command -v "$bin" >/dev/null 2>&1; then
  bin="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin/zarr-reshape"
fi

files=()
# Split on blanks and new lines; each word is a path or a glob.
read -r -d '' -a patterns <<< "${INPUT_FILES:-**/*.md}" || true
for pattern in "${patterns[@]}"; do
  matched=0
  for match in $pattern; do
    if [[ -f "$match" ]]; then
      files+=("$match")
      matched=$((matched + 1))
    fi
  done
  if (( matched == 0 )); then
    escaped="$(printf '%s' "$pattern" | sed -e 's/%/%25/g' -e 's/\r/%0D/g' | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n/%0A/g')"
    echo "::error title=check-spec::no file matches $escaped"
    exit 2
  fi
done

if [[ "${INPUT_HUMAN:-true}" == "true" ]]; then
  echo "::group::check-spec diagnostics"
  # The diagnostics quote the documents: no line of theirs may act as a command.
  token="check-spec-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  echo "::stop-commands::$token"
  "$bin" check-spec -- "${files[@]}" || true
  echo "::$token::"
  echo "::endgroup::"
fi
exec "$bin" check-spec --format github -- "${files[@]}"
