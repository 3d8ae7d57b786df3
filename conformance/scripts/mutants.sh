#!/usr/bin/env bash
# Mutation testing of the library (src/), judged by the vectors (issue 14, part 2).
# Results and the surviving mutants, each with why: conformance/reports/mutants.md.
#
#   mutants.sh full   every mutant of src/, each judged by every vector
#                     (.cargo/mutants.toml: tests/resolve_vectors.rs and the
#                     conformance crate's `vectors` test). Hours on 2 cores.
#   mutants.sh rules  the rule modules (shape, input_dims, resolve, configuration,
#                     parse, product, limits), judged by the resolve vectors only
#                     (conformance/scripts/mutants-fast.toml): what decides whether a
#                     configuration resolves. About 15 s a mutant.
#   mutants.sh fast   the CI subset: the rule functions of src/shape.rs, src/input_dims.rs
#                     and src/resolve.rs (44 mutants, the two untestable ones left
#                     out), under ~3 minutes once cargo-mutants and the dependencies
#                     are built.
#   mutants.sh audit  src/audit.rs and src/audit_rules.rs, judged by their own test,
#                     tests/multi_violation.rs (conformance/scripts/mutants-audit.toml):
#                     no vector calls the audit. About 2 minutes.
#   mutants.sh check  no mutant is run: `cargo mutants --list` (seconds, nothing
#                     built) must find exactly the mutants of the committed results,
#                     conformance/reports/mutants.json, and each missed one there
#                     must have a reason. Fails after an edit of src/ until the
#                     edited files' mutants are run again and recorded.
#   mutants.sh record OUT...  merges the outcomes of the runs written to the
#                     folders OUT (each a MUTANTS_OUT) into mutants.json, then checks.
#                     Re-render the tables: ZARR_RESHAPE_BLESS=1 cargo test
#                     -p zarr-reshape-conformance --test suite.
#
# Exit 1 when a mutant is missed or times out, or when the run cannot finish.
# MUTANTS_OUT sets the output folder (default target/mutants); MUTANTS_TIMEOUT the
# limit of the whole run in seconds (default none for full, 1800 rules, 600 fast).
# Extra arguments go to cargo mutants (e.g. `--file src/mapping.rs`).
#
# cargo-mutants is installed from crates.io when missing
# (`cargo install --locked cargo-mutants`): 18m42s wall time here (5m of CPU) on a
# shared 2-core machine, so a CI job should cache ~/.cargo/bin or use a prebuilt
# binary (cargo-binstall, or Debian/Ubuntu's `cargo-mutants` package).
set -euo pipefail
cd "$(dirname "$0")/../.."

mode=${1:-fast}
shift || true
out=${MUTANTS_OUT:-target/mutants}

results=conformance/scripts/mutants-results.py
case "$mode" in
check | record)
    if ! cargo mutants --version >/dev/null 2>&1; then
        echo "cargo-mutants is missing: cargo install --locked cargo-mutants (see the header)" >&2
        exit 1
    fi
    exec python3 "$results" "$mode" "$@"
    ;;
esac

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "cargo-mutants is missing; installing it from crates.io (slow: see the header)"
    cargo install --locked cargo-mutants
fi
cargo mutants --version

# cargo-mutants builds each mutant in a copy of the tree; sharing this tree's
# target folder keeps the dependencies built once (only the workspace's crates
# are rebuilt per mutant).
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}

# One job: mutants rebuild the library and its tests; the machine's cores are the
# compiler's. The baseline (unmutated tree) runs first, so a failing tree is seen.
common=(--jobs 1 --output "$out")
case "$mode" in
full)
    limit=${MUTANTS_TIMEOUT:-0}
    args=("${common[@]}" "$@")
    ;;
rules)
    limit=${MUTANTS_TIMEOUT:-1800}
    args=("${common[@]}" --config conformance/scripts/mutants-fast.toml
        --file src/shape.rs --file src/input_dims.rs --file src/resolve.rs
        --file src/configuration.rs --file src/parse.rs --file src/product.rs
        --file src/limits.rs "$@")
    ;;
fast)
    limit=${MUTANTS_TIMEOUT:-600}
    # The two mutants of shape_input_dims's trace wording are untestable by a
    # vector (conformance/reports/mutants.md), so CI leaves them out.
    args=("${common[@]}" --config conformance/scripts/mutants-fast.toml
        --file src/shape.rs --file src/input_dims.rs --file src/resolve.rs
        --exclude-re 'delete match arm [01] in shape_input_dims' "$@")
    ;;
audit)
    limit=${MUTANTS_TIMEOUT:-900}
    args=("${common[@]}" --config conformance/scripts/mutants-audit.toml
        --file src/audit.rs --file src/audit_rules.rs "$@")
    ;;
*)
    echo "usage: $0 [full|rules|fast|audit] [cargo mutants arguments] | check | record OUT..." >&2
    exit 2
    ;;
esac

# cargo-mutants creates the output folder but not its parents.
mkdir -p "$(dirname "$out")"
echo "cargo mutants ${args[*]}"
start=$(date +%s)
status=0
if [ "$limit" -gt 0 ]; then
    timeout "$limit" cargo mutants "${args[@]}" || status=$?
else
    cargo mutants "${args[@]}" || status=$?
fi
echo "wall time: $(( $(date +%s) - start )) s"
# The mutated copies were built into this tree's target folder, under the same
# artefact names: without this, cargo would take the last mutant's build for
# this tree's (its sources are older) and later tests would run a mutant.
find src -name '*.rs' -exec touch {} +
for outcome in caught missed timeout unviable; do
    file="$out/mutants.out/$outcome.txt"
    [ -f "$file" ] && echo "$outcome: $(wc -l <"$file")"
done
# cargo mutants exits 0 when every mutant is caught or unviable, 2 when one is
# missed, 3 on a timeout; timeout(1) gives 124.
exit "$status"
