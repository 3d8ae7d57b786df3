#!/usr/bin/env bash
# The MSRV claim (`rust-version` in the workspace Cargo.toml), checked two ways:
#  1. every package that a user of the workspace's crates builds (normal and build
#     dependencies, every platform, as locked) declares a rust-version no newer than
#     ours; packages that declare none are listed, since only a build can judge them;
#  2. that toolchain builds the workspace (`cargo +VERSION check`), when rustup has
#     it or can install it; otherwise the script says the build check was skipped.
# Exit 1 when either check fails. MSRV_BUILD=0 skips the build (the metadata check
# alone takes a second).
set -euo pipefail
cd "$(dirname "$0")/../.."

metadata=$(mktemp)
trap 'rm -f "$metadata"' EXIT
cargo metadata --format-version 1 --locked >"$metadata"

msrv=$(python3 - "$metadata" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
members = set(data["workspace_members"])
versions = {p["rust_version"] for p in data["packages"] if p["id"] in members}
if len(versions) != 1 or None in versions:
    sys.exit(f"the workspace members declare different or no rust-version: {sorted(map(str, versions))}")
print(versions.pop())
PY
)
echo "MSRV (rust-version of every workspace member): $msrv"

python3 - "$metadata" "$msrv" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
msrv = tuple(int(part) for part in sys.argv[2].split("."))
packages = {p["id"]: p for p in data["packages"]}
nodes = {n["id"]: n for n in data["resolve"]["nodes"]}
members = set(data["workspace_members"])

def reachable(kinds_from_members):
    """Packages reachable from the members: first step by `kinds_from_members`,
    then through normal and build dependencies only."""
    seen, stack = set(), []
    for member in members:
        for dep in nodes[member]["deps"]:
            if any(k["kind"] in kinds_from_members for k in dep["dep_kinds"]):
                stack.append(dep["pkg"])
    while stack:
        pkg = stack.pop()
        if pkg in seen:
            continue
        seen.add(pkg)
        for dep in nodes[pkg]["deps"]:
            if any(k["kind"] in (None, "build") for k in dep["dep_kinds"]):
                stack.append(dep["pkg"])
    return seen - members

def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))

def newer(ids):
    return sorted(
        (packages[i]["name"], packages[i]["version"], packages[i]["rust_version"])
        for i in ids
        if packages[i]["rust_version"] and version(packages[i]["rust_version"]) > version(sys.argv[2])
    )

built = reachable((None, "build"))
tests = reachable(("dev",)) - built
undeclared = sorted(packages[i]["name"] for i in built if not packages[i]["rust_version"])
print(f"{len(built)} packages built for users of the workspace's crates; "
      f"{len(undeclared)} declare no rust-version: {', '.join(undeclared) or '-'}")
for name, ver, rust in newer(tests):
    print(f"note: test-only dependency {name} {ver} needs Rust {rust}")
bad = newer(built)
for name, ver, rust in bad:
    print(f"error: {name} {ver} needs Rust {rust}, newer than rust-version {sys.argv[2]}")
sys.exit(1 if bad else 0)
PY

if [[ "${MSRV_BUILD:-1}" == 0 ]]; then
  echo "build check skipped (MSRV_BUILD=0)"
  exit 0
fi
if ! command -v rustup >/dev/null 2>&1; then
  echo "build check SKIPPED: no rustup, so no Rust $msrv toolchain on this machine"
  exit 0
fi
if ! rustup run "$msrv" rustc --version >/dev/null 2>&1 \
  && ! rustup toolchain install "$msrv" --profile minimal >/dev/null 2>&1; then
  echo "build check SKIPPED: Rust $msrv is not installed and could not be installed here"
  exit 0
fi
echo "building the workspace with $(rustup run "$msrv" rustc --version)"
CARGO_TARGET_DIR=target/msrv cargo "+$msrv" check --workspace --locked --quiet
echo "Rust $msrv builds the workspace"
