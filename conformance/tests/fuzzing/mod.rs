//! Helpers of the `zarr-reshape fuzz` tests: the binary run with arguments, a
//! scratch folder, a Python adapter with a planted bug, the vectors a run wrote.
#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use zarr_reshape_conformance::vector::{self, Case};

pub const BINARY: &str = env!("CARGO_BIN_EXE_zarr-reshape");

/// A fresh scratch folder under the target directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("differential-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Python adapter that forwards every message to `zarr-reshape adapter`, and
/// replaces a result with `mutate(case, result)` when that is not `None` (other
/// answers go through as written: Python would read the reference's `-0` as 0).
pub fn buggy_adapter(dir: &Path, mutate: &str) -> String {
    let script = format!(
        r#"import json, subprocess, sys
ref = subprocess.Popen([{BINARY:?}, "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
{mutate}
for line in sys.stdin:
    message = json.loads(line)
    ref.stdin.write(line)
    ref.stdin.flush()
    if message.get("cmd") == "stop":
        break
    reply = ref.stdout.readline()
    if message.get("cmd") == "run":
        answer = json.loads(reply)
        result = mutate(message["case"], answer["result"])
        if result is not None:
            answer["result"] = result
            reply = json.dumps(answer) + "\n"
    sys.stdout.write(reply)
    sys.stdout.flush()
"#
    );
    let path = dir.join("buggy_adapter.py");
    std::fs::write(&path, script).unwrap();
    format!("python3 {}", path.display())
}

/// How a `zarr-reshape fuzz` run ended.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `zarr-reshape fuzz` with `arguments`, whatever its exit code.
pub fn fuzz_run(arguments: &[&str]) -> Run {
    let started = Instant::now();
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(BINARY)
        .arg("fuzz")
        .args(arguments)
        .output()
        .unwrap();
    Run {
        code: status.code(),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// Runs `zarr-reshape fuzz` with `arguments`; it must start (exit code not 2).
pub fn fuzz(arguments: &[&str]) -> Run {
    let run = fuzz_run(arguments);
    assert!(run.code != Some(2), "fuzz could not start: {}", run.stderr);
    run
}

/// The vectors written under `dir`, each loaded by the vector loader.
pub fn written_vectors(dir: &Path) -> Vec<Case> {
    vector::discover(dir)
        .unwrap()
        .iter()
        .flat_map(|path| vector::load_file(path).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Fuzzes `adapter` from `seed` for at most `cases` cases (with the `extra`
/// arguments), writing the shrunk vectors under `dir/vectors`: the run, which must
/// fail (exit 1), and the vectors it wrote, each loaded by the vector loader.
pub fn fuzz_finding(
    dir: &Path,
    adapter: &str,
    seed: &str,
    cases: &str,
    extra: &[&str],
) -> (Run, Vec<Case>) {
    let out = dir.join("vectors");
    let out_arg = out.to_str().unwrap();
    let mut arguments = vec![
        "--adapter",
        adapter,
        "--seed",
        seed,
        "--cases",
        cases,
        "--out",
        out_arg,
    ];
    arguments.extend_from_slice(extra);
    let run = fuzz(&arguments);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let written = written_vectors(&out);
    (run, written)
}
