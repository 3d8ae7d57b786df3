# shellcheck shell=bash
# Sourced by the adapters' run.sh (zarrs/, zarr-python/, nd-image-codecs/; zarrs/
# run-written.sh), before they change folder.

# report_args [REPORT.md [RUN.jsonl]]: sets the array `report` to the runner's
# `--report markdown=REPORT.md --report jsonl=RUN.jsonl` (as many as are given, further
# arguments ignored), each path made absolute against $PWD. The caller passes it on as
# ${report[@]+"${report[@]}"} (set -u and an empty array).
report_args() {
  local format path
  report=()
  for format in markdown jsonl; do
    [[ $# -ge 1 ]] || return 0
    case "$1" in
      /*) path="$1" ;;
      *) path="$PWD/$1" ;;
    esac
    report+=(--report "$format=$path")
    shift
  done
}

# setup_or_skip NAME DIR: runs DIR/setup.sh (a pinned venv, ../pinned-venv.sh). When it
# finds no CPython 3.12 or 3.13 (exit 3), prints one line "SKIP NAME: why" and exits 0;
# when it fails otherwise, exits as it did; else returns.
setup_or_skip() {
  local status=0
  bash "$2/setup.sh" || status=$?
  if [[ $status -eq 3 ]]; then
    echo "SKIP $1: no CPython 3.12 or 3.13 on this machine (PATH or pyenv); zarr-python 3.4.2 needs 3.12+. Set PYTHON=/path/to/python3.12 to run it."
    exit 0
  elif [[ $status -ne 0 ]]; then
    exit "$status"
  fi
}
