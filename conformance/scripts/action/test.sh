#!/usr/bin/env bash
# Tests action.yml and .pre-commit-hooks.yaml without GitHub:
# - parses action.yml (PyYAML), checks its inputs and steps, and runs its run
#   steps as the runner would (a simulated GITHUB_ACTION_PATH, workspace, HOME
#   and GITHUB_PATH) on copies of the spec, checking the `::error` lines;
# - validates .pre-commit-hooks.yaml's fields and, with pre-commit installed
#   (PRE_COMMIT=1 installs it from PyPI into a venv), runs `pre-commit try-repo`.
# The tool is built once (debug) and put where the install step finds it, with
# the stamp of these sources, so the install step takes its cached path;
# INSTALL=1 makes it run `cargo install` for real (a release build, minutes).
# Usage: conformance/scripts/action/test.sh   (from anywhere; exit 0 = passed)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
spec="${ZARR_RESHAPE_SHARED_SPEC:-$repo/../shared/spec}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "action test: FAILED: $*" >&2; exit 1; }

python="python3"
if ! "$python" -c 'import yaml' 2>/dev/null; then
  python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q pyyaml
  python="$work/venv/bin/python"
fi

# The documents: the shared spec copies when they are there, else a fixture.
mkdir -p "$work/workspace/docs" "$work/home/.cargo/bin"
if [[ -f "$spec/reshape-codec.md" ]]; then
  cp "$spec/reshape-codec.md" "$spec/reshape-codec.upstream.md" "$work/workspace/docs/"
  expect=("::error file=docs/reshape-codec.md,line=73,col=9,"
          "::error file=docs/reshape-codec.upstream.md,line=99,col=9,"
          "::error file=docs/reshape-codec.upstream.md,line=91,col=17,")
else
  echo "note: $spec is not there; the action runs on a fixture instead"
  cp "$repo/conformance/tests/check_spec/missing-comma.md" "$work/workspace/docs/"
  expect=("::error file=docs/missing-comma.md,line=14,col=22,")
fi
cp "$repo/conformance/tests/check_spec/good-metadata.md" "$work/workspace/good.md"
# A name that reads as an option (`-h`) must be checked, not obeyed.
cp "$repo/conformance/tests/check_spec/good-metadata.md" "$work/workspace/docs/-h.md"

# rustup and cargo keep their homes; the action's home is a fresh one.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
if [[ "${INSTALL:-0}" != 1 ]]; then
  (cd "$repo" && cargo build --quiet --locked -p zarr-reshape-conformance --bin zarr-reshape)
  target="${CARGO_TARGET_DIR:-$repo/target}"
  cp "$target/debug/zarr-reshape" "$work/home/.cargo/bin/"
  printf 'path:%s' "$(GITHUB_ACTION_PATH="$repo" bash "$repo/conformance/scripts/action/install.sh" --stamp)" \
    > "$work/home/.cargo/bin/.zarr-reshape.stamp"
  export CARGO_HOME="$work/home/.cargo"
else
  # A real install into the fresh home's bin, with the registry cache kept.
  export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}" CARGO_INSTALL_ROOT="$work/home/.cargo"
fi
export HOME="$work/home"

# action.yml: the fields, then each run step as a script with its env resolved.
"$python" - "$repo/action.yml" "$work/steps" <<'PY'
import os, re, sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
out = sys.argv[2]
def need(cond, what):
    if not cond:
        sys.exit(f"action.yml: {what}")
need(isinstance(action.get("name"), str) and action.get("description"), "name and description")
inputs = action.get("inputs") or {}
need(set(inputs) >= {"files", "version"}, "inputs files and version")
need(all("description" in spec for spec in inputs.values()), "every input described")
runs = action.get("runs") or {}
need(runs.get("using") == "composite", "runs.using: composite")
steps = runs.get("steps") or []
need(len(steps) == 2, "two steps (install, check)")
values = {f"inputs.{name}": str(spec.get("default", "")) for name, spec in inputs.items()}
values["inputs.files"] = "docs/*.md good.md"
values.update({"github.server_url": "https://github.invalid",
               "github.action_repository": "OWNER/zarr-reshape"})
os.makedirs(out)
for index, step in enumerate(steps):
    need(step.get("shell") == "bash" and "run" in step, f"step {index} is a bash run step")
    need("${{" not in step["run"], f"step {index}: expressions go through env, not into the script")
    with open(f"{out}/{index}.sh", "w") as script:
        for key, value in (step.get("env") or {}).items():
            resolved = re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: values[m.group(1)], str(value))
            script.write(f"export {key}={resolved!r}\n".replace("\\'", "'\"'\"'"))
        script.write(step["run"] + "\n")
PY

export GITHUB_ACTION_PATH="$repo" GITHUB_WORKSPACE="$work/workspace" GITHUB_PATH="$work/github_path"
cd "$work/workspace"
bash -e "$work/steps/0.sh" > "$work/install.log" 2>&1 || { cat "$work/install.log"; fail "the install step failed"; }
if [[ "${INSTALL:-0}" != 1 ]]; then
  grep -q "installed from these sources already" "$work/install.log" || fail "the install step did not see the installed tool"
fi
status=0
bash -e "$work/steps/1.sh" > "$work/check.log" 2>&1 || status=$?
[[ $status == 1 ]] || { cat "$work/check.log"; fail "the check step exited $status, not 1"; }
for line in "${expect[@]}"; do
  grep -qF -- "$line" "$work/check.log" || { cat "$work/check.log"; fail "no annotation $line"; }
done
grep -q '^check-spec: good.md: 0 errors' "$work/check.log" || fail "good.md not checked"
grep -q '^check-spec: docs/-h.md: 0 errors' "$work/check.log" || fail "docs/-h.md not checked"
# The human diagnostics sit between stop-commands markers, the annotations after.
token="$(sed -n 's/^::stop-commands::\(.*\)$/\1/p' "$work/check.log")"
[[ -n "$token" ]] || fail "no ::stop-commands:: before the human diagnostics"
awk -v end="::$token::" '$0 == end {done=1; next} done && /^::(error|warning)/ {n++} END {exit !(n > 0)}' \
  "$work/check.log" || fail "no annotation after the human diagnostics"
grep -q 'help: add the missing comma' "$work/check.log" || fail "the human diagnostics are not in the log"
# A pattern that matches nothing fails the step with an annotation.
status=0
INPUT_FILES="nothing/*.md" bash "$repo/conformance/scripts/action/run.sh" > "$work/none.log" 2>&1 || status=$?
[[ $status == 2 ]] && grep -q '^::error title=check-spec::no file matches' "$work/none.log" \
  || fail "an empty pattern did not fail the step"
echo "action.yml: ok (${#expect[@]} annotations checked)"

# .pre-commit-hooks.yaml: the fields pre-commit requires, the entry, the pattern.
"$python" - "$repo" <<'PY'
import os, re, sys, yaml
repo = sys.argv[1]
hooks = yaml.safe_load(open(f"{repo}/.pre-commit-hooks.yaml"))
def need(cond, what):
    if not cond:
        sys.exit(f".pre-commit-hooks.yaml: {what}")
need(isinstance(hooks, list) and hooks, "a list of hooks")
ids = [hook.get("id") for hook in hooks]
need("zarr-reshape-check-spec" in ids and len(set(ids)) == len(ids), "the hook zarr-reshape-check-spec, ids unique")
for hook in hooks:
    for field in ("id", "name", "entry", "language"):
        need(isinstance(hook.get(field), str) and hook[field], f"{hook.get('id')}: {field}")
    need(hook["language"] in {"script", "system", "rust"}, f"{hook['id']}: language")
    if hook["language"] == "script":
        entry = os.path.join(repo, hook["entry"].split()[0])
        need(os.access(entry, os.X_OK), f"{hook['id']}: {entry} is not executable")
    need("check-spec" in hook["entry"] or hook["language"] == "script", f"{hook['id']}: entry")
    files = re.compile(hook.get("files", ""))
    need(files.search("codecs/reshape/README.md") and not files.search("src/lib.rs"), f"{hook['id']}: files")
print(f".pre-commit-hooks.yaml: ok ({len(hooks)} hooks)")
PY

# pre-commit itself, when asked for (it needs PyPI once; try-repo needs no network).
if [[ "${PRE_COMMIT:-0}" == 1 ]] && ! command -v pre-commit >/dev/null 2>&1; then
  python3 -m venv "$work/pc" && "$work/pc/bin/pip" install -q pre-commit && PATH="$work/pc/bin:$PATH"
fi
if command -v pre-commit >/dev/null 2>&1; then
  mkdir -p "$work/target-repo" && cd "$work/target-repo"
  git init -q . && cp "$work/workspace/docs/"*.md . && git add -A
  status=0
  ZARR_RESHAPE_BIN="${CARGO_INSTALL_ROOT:-$CARGO_HOME}/bin/zarr-reshape" PRE_COMMIT_HOME="$work/pre-commit-home" \
    pre-commit try-repo "$repo" zarr-reshape-check-spec --all-files > "$work/pre-commit.log" 2>&1 || status=$?
  [[ $status == 1 ]] && grep -q 'error\[json-syntax\]' "$work/pre-commit.log" \
    || { cat "$work/pre-commit.log"; fail "pre-commit try-repo did not report the slip"; }
  echo "pre-commit try-repo: ok"
else
  echo "note: pre-commit is not installed; try-repo skipped (PRE_COMMIT=1 installs it)"
fi
echo "action test: passed"
