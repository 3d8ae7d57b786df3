#!/usr/bin/env bats
# Written by `zarr-reshape export-bats`: the reshape codec's array fixtures.
# Do not edit; see README.md.

setup() {
  if [ -z "${ZARR_CLI:-}" ] || [ -z "${ZARR_CONFORMANCE_DATA:-}" ]; then
    echo "ZARR_CLI and ZARR_CONFORMANCE_DATA must be set to run the conformance tests"
    return 1
  fi
}

teardown() {
  rm -f "${reshape_out:-}" "${reshape_err:-}"
}

# Runs the reader on data/$1.zarr: its stdout in $reshape_out, stderr in
# $reshape_err, exit status in $reshape_status (124: over ZARR_RESHAPE_TIMEOUT).
reshape_run() {
  local limit=()
  if command -v timeout >/dev/null 2>&1; then
    limit=(timeout -k 5 "${ZARR_RESHAPE_TIMEOUT:-60}")
  fi
  reshape_out="$(mktemp "${BATS_TMPDIR:-/tmp}/reshape-out.XXXXXX")"
  reshape_err="$(mktemp "${BATS_TMPDIR:-/tmp}/reshape-err.XXXXXX")"
  reshape_status=0
  # ZARR_CLI is split into words, as zarr-conformance-tests does. An empty
  # array is spelled so that bash before 4.4 accepts it under `set -u`.
  ${limit[@]+"${limit[@]}"} $ZARR_CLI "--array_path=$ZARR_CONFORMANCE_DATA/$1.zarr" \
    >"$reshape_out" 2>"$reshape_err" || reshape_status=$?
}

reshape_stderr() {
  echo "stderr (last lines):"
  tail -n 5 "$reshape_err"
}

# A valid array ($1, of data type $2): status 0 and the elements of $1.expected
# (only the status when ZARR_RESHAPE_STATUS_ONLY=1, for readers that print nothing).
reshape_valid() {
  reshape_run "$1"
  if [ "$reshape_status" -ne 0 ]; then
    echo "the reader refused a valid array: exit status $reshape_status"
    reshape_stderr
    return 1
  fi
  if [ "${ZARR_RESHAPE_STATUS_ONLY:-}" = 1 ]; then
    return 0
  fi
  reshape_compare "$2" "$ZARR_CONFORMANCE_DATA/$1.expected" "$reshape_out"
}

# An invalid array ($1): a nonzero status that is neither a timeout nor a signal,
# from a reader that started (126 and 127: the command could not be run).
reshape_invalid() {
  reshape_run "$1"
  if [ "$reshape_status" -eq 0 ]; then
    echo "the reader read an invalid array (exit status 0); it must refuse it"
    return 1
  fi
  if [ "$reshape_status" -eq 126 ] || [ "$reshape_status" -eq 127 ]; then
    echo "exit status $reshape_status: ZARR_CLI could not be run, which refuses nothing"
    reshape_stderr
    return 1
  fi
  if [ "$reshape_status" -eq 124 ] || [ "$reshape_status" -gt 128 ]; then
    echo "exit status $reshape_status: a timeout or a signal (a crash), not a refusal"
    reshape_stderr
    return 1
  fi
}

# Compares the reader's output ($3) with the expected elements ($2) of type $1.
reshape_compare() {
  awk -v type="$1" '
    function trim(s) { gsub(/^[ \t\r]+|[ \t\r]+$/, "", s); return s }
    function unquote(s) {
      if (s ~ /^"(NaN|Infinity|-Infinity)"$/) { s = substr(s, 2, length(s) - 2) }
      return s
    }
    function number(s) { return s ~ /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/ }
    # 1 when the printed value g is the expected value w, else 0.
    function same(g, w) {
      # Concatenation makes strings: input that looks numeric compares as a
      # number otherwise, and 64-bit integers do not fit a double.
      g = unquote(g) ""; w = unquote(w) ""
      if (type == "bool") { return g == w && (g == "true" || g == "false") }
      if (type ~ /^u?int/) {
        if (g !~ /^-?(0|[1-9][0-9]*)$/) { return 0 }
        if (g == "-0") { g = "0" }
        return (g "") == (w "")
      }
      if (g == "NaN" || g == "Infinity" || g == "-Infinity") { return g == w }
      if (!number(g) || !number(w)) { return 0 }
      if (g + 0 != w + 0) { return 0 }
      if (g + 0 == 0) { return (substr(g, 1, 1) == "-") == (substr(w, 1, 1) == "-") }
      return 1
    }
    FILENAME == ARGV[1] { want[++n] = $0; next }
    { line[++lines] = trim($0) }
    END {
      text = ""
      for (i = 1; i <= lines; i++) { text = text line[i] "\n" }
      if (substr(trim(text), 1, 1) == "[") {
        gsub(/[\[\] \t\r\n]/, "", text)
        got_n = (text == "") ? 0 : split(text, got, ",")
      } else {
        last = 0
        for (i = 1; i <= lines; i++) { if (line[i] != "") { last = i } }
        for (i = 1; i <= last; i++) {
          if (line[i] == "") { print "line " i " is blank, before the last value"; exit 1 }
          got[i] = line[i]
        }
        got_n = last
      }
      if (got_n != n) { print "the reader printed " got_n " elements, expected " n; exit 1 }
      for (i = 1; i <= n; i++) {
        if (!same(got[i], want[i])) {
          print "element " (i - 1) " (C order): got " got[i] ", expected " want[i]
          exit 1
        }
      }
    }
  ' "$2" "$3"
}

@test "reshape: spec-example (generated/read-array/spec-example)" {
  reshape_valid spec-example uint16
}

@test "reshape: reshape-then-transpose (generated/read-array/reshape-then-transpose)" {
  reshape_valid reshape-then-transpose int32
}

@test "reshape: transpose-then-reshape (generated/read-array/transpose-then-reshape)" {
  reshape_valid transpose-then-reshape float32
}

@test "reshape: auto-extent (generated/read-array/auto-extent)" {
  reshape_valid auto-extent int8
}

@test "reshape: empty-input-dims (generated/read-array/empty-input-dims)" {
  reshape_valid empty-input-dims bool
}

@test "reshape: edge-chunks (generated/read-array/edge-chunks)" {
  reshape_valid edge-chunks int64
}

@test "reshape: big-endian (generated/read-array/big-endian)" {
  reshape_valid big-endian float64
}

@test "reshape: gzip-transposed (generated/read-array/gzip-transposed)" {
  reshape_valid gzip-transposed int16
}

@test "reshape: invalid-prefix (generated/read-array/invalid-prefix)" {
  reshape_invalid invalid-prefix
}

@test "reshape: invalid-two-auto (generated/read-array/invalid-two-auto)" {
  reshape_invalid invalid-two-auto
}

@test "reshape: invalid-element-count (generated/read-array/invalid-element-count)" {
  reshape_invalid invalid-element-count
}

@test "reshape: rank-kept-transposed (generated/read-array/rank-kept-transposed)" {
  reshape_valid rank-kept-transposed uint16
}

@test "reshape: chunk-sizes-not-array-sizes (generated/read-array/chunk-sizes-not-array-sizes)" {
  reshape_valid chunk-sizes-not-array-sizes uint32
}

@test "reshape: edge-chunks-bytes-only (generated/read-array/edge-chunks-bytes-only)" {
  reshape_valid edge-chunks-bytes-only uint64
}

@test "reshape: transpose-before-reshape (generated/read-array/transpose-before-reshape)" {
  reshape_valid transpose-before-reshape int16
}

@test "reshape: invalid-transpose-fits-array-rank (generated/read-array/invalid-transpose-fits-array-rank)" {
  reshape_invalid invalid-transpose-fits-array-rank
}

@test "reshape: crc32c-transposed (generated/read-array/crc32c-transposed)" {
  reshape_valid crc32c-transposed int32
}

@test "reshape: crc32c-corrupt-checksum (generated/read-array/crc32c-corrupt-checksum)" {
  reshape_invalid crc32c-corrupt-checksum
}

@test "reshape: sharded-reshape-before (generated/read-array/sharded-reshape-before)" {
  reshape_valid sharded-reshape-before int32
}

@test "reshape: sharded-reshape-inside (generated/read-array/sharded-reshape-inside)" {
  reshape_valid sharded-reshape-inside uint16
}

@test "reshape: sharded-nested (generated/read-array/sharded-nested)" {
  reshape_valid sharded-nested int32
}

@test "reshape: sharded-index-start (generated/read-array/sharded-index-start)" {
  reshape_valid sharded-index-start float32
}

@test "reshape: sharded-index-reshaped (generated/read-array/sharded-index-reshaped)" {
  reshape_valid sharded-index-reshaped int16
}

@test "reshape: sharded-missing-inner-chunks (generated/read-array/sharded-missing-inner-chunks)" {
  reshape_valid sharded-missing-inner-chunks uint8
}

@test "reshape: invalid-sharded-reshape-inner (generated/read-array/invalid-sharded-reshape-inner)" {
  reshape_invalid invalid-sharded-reshape-inner
}

@test "reshape: rectilinear-input-dims (generated/read-array/rectilinear-input-dims)" {
  reshape_valid rectilinear-input-dims int16
}

@test "reshape: rectilinear-invalid-fixed-sizes (generated/read-array/rectilinear-invalid-fixed-sizes)" {
  reshape_invalid rectilinear-invalid-fixed-sizes
}

@test "reshape: rectilinear-integer-and-runs (generated/read-array/rectilinear-integer-and-runs)" {
  reshape_valid rectilinear-integer-and-runs float32
}

@test "reshape: rectilinear-invalid-refused-chunks-absent (generated/read-array/rectilinear-invalid-refused-chunks-absent)" {
  reshape_invalid rectilinear-invalid-refused-chunks-absent
}

@test "reshape: rectilinear-sharded-reshape-before (generated/read-array/rectilinear-sharded-reshape-before)" {
  reshape_valid rectilinear-sharded-reshape-before uint16
}
