//! The text of the export's `tests.bats` and `README.md`.

use std::fmt::Write as _;

use super::test_name;
use crate::fixtures::Fixture;

/// The functions every test calls. `reshape_compare` is the contract's
/// comparison as far as awk does it exactly: integers and booleans as text (an
/// integer `-0` read as `0`), floats as doubles (awk's strtod; exact for every
/// fixture value, each a few bits of a dyadic fraction, so a float32 printed
/// widened to float64 compares equal), a zero's sign compared, the NaN and
/// infinity spellings with or without quotes, and the whole output as one nested
/// list when it starts with `[`.
const FUNCTIONS: &str = r#"setup() {
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
"#;

/// `tests.bats`: the functions, then one test per fixture.
pub fn bats(table: &[Fixture]) -> String {
    // No version is written: the export changes only when the fixtures do, so
    // that a committed copy stays current across releases (`--check`).
    let mut text = String::from(
        "#!/usr/bin/env bats\n\
         # Written by `zarr-reshape export-bats`: the reshape codec's array fixtures.\n\
         # Do not edit; see README.md.\n\n",
    );
    text.push_str(FUNCTIONS);
    for fixture in table {
        let call = match fixture.error {
            None => format!(
                "reshape_valid {} {}",
                fixture.name,
                fixture.data_type.name()
            ),
            Some(_) => format!("reshape_invalid {}", fixture.name),
        };
        let _ = write!(
            text,
            "\n@test \"{}\" {{\n  {call}\n}}\n",
            test_name(fixture)
        );
    }
    text
}

/// `README.md` of the export.
pub fn readme(table: &[Fixture]) -> String {
    let valid = table.iter().filter(|f| f.error.is_none()).count();
    let invalid = table.len().saturating_sub(valid);
    format!(
        "# Reshape codec fixtures for zarr-conformance-tests\n\n\
         Written by `zarr-reshape export-bats`; do not edit: \
         regenerate it, and check a committed copy with `zarr-reshape export-bats --check DIR`. \
         Files listed in `ZARR-RESHAPE-MANIFEST.txt` are the export's own; a later export \
         rewrites or removes only those.\n\n\
         {count} Zarr v3 arrays using the `reshape` codec, in the layout of \
         [zarr-conformance-tests](https://github.com/Bisaloo/zarr-conformance-tests): \
         `data/<name>.zarr`, and one `@test` per array in `tests.bats`, named \
         `reshape: <name> (<vector id>)` after the zarr-reshape read-array vector it mirrors.\n\n\
         - {valid} valid arrays: the reader must exit with status 0 and print the array's \
         elements in C order, compared with `data/<name>.expected`;\n\
         - {invalid} invalid arrays: the reader must exit with a nonzero status that is no \
         signal (a status above 128), no timeout (124) and not the shell's \"could not run \
         it\" (126, 127).\n\n\
         ## Running it\n\n\
         ```sh\n\
         ZARR_CLI='your-reader --its-options' ZARR_CONFORMANCE_DATA=\"$PWD/data\" bats tests.bats\n\
         ```\n\n\
         or from elsewhere `ZARR_CLI=... ZARR_CONFORMANCE_DATA=DIR/data bats DIR/tests.bats`. \
         `ZARR_CLI` is split into words and run with one more argument, \
         `--array_path=<the array folder>`. Each run is limited to `ZARR_RESHAPE_TIMEOUT` \
         seconds (default 60) when `timeout` is installed. A reader that cannot be started \
         (status 126 or 127) fails every test. With `ZARR_RESHAPE_STATUS_ONLY=1`, a valid \
         array needs only exit status 0: for a reader that does not print the values \
         (zarr-conformance-tests' readers today check the status only).\n\n\
         ## What the check accepts\n\n\
         One JSON value per line (blank trailing lines ignored), or the whole output as one \
         JSON document of nested lists. Integers and booleans are compared as text (`-0` \
         reads as `0`, `1.0` is no integer); floats as numbers (awk's doubles: exact for \
         these fixtures, whose values have few significant bits, so a float32 printed as \
         float64 passes), a zero's sign included; NaN, Infinity and -Infinity as the \
         strings `\"NaN\"`, `\"Infinity\"`, `\"-Infinity\"` or bare. This is the contract of \
         zarr-reshape's runner (`zarr-reshape run --array-path-reader CMD`), which also \
         rounds float32 values to float32 and accepts a NaN for any NaN; the runner is the \
         reference judgement, this check a stricter approximation of it in awk (a reader \
         that exits with a status above 128 without a signal, as Perl's `die` does with \
         255, crashes here and refuses there).\n\n\
         ## Going upstream\n\n\
         zarr-conformance-tests' action runs one file, `tests.bats`, and its tests check only \
         the exit status: the arrays go into its `data/`, the tests are appended to its \
         `tests.bats` (their functions are named `reshape_*`; the file runs under `set -eu`), \
         and the values check is a proposal to its maintainers, which \
         `ZARR_RESHAPE_STATUS_ONLY=1` turns off meanwhile. This README and the manifest stay \
         here.\n",
        count = table.len(),
    )
}
