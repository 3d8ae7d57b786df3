//! The ceiling stated in `conformance/BAD-INPUTS.md` (issue 18): no input of
//! under 1 MB makes a subcommand use more than 1 GiB of memory or 10 s of CPU,
//! panic, or hang. Each hostile input below is built in a scratch folder, checked
//! to be under 1 MB, and handed to the subcommand that reads it, which runs under
//! `ulimit -v` (1 GiB of address space) and `ulimit -t` (10 s of CPU): going
//! past either kills it by a signal, which fails the test. A hang spends no CPU,
//! so a wall-clock watchdog catches it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod ceiling_inputs;
mod common;

use std::fs;
use std::os::unix::fs::symlink;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Scratch;
use serde_json::{Value, json};

const ADDRESS_SPACE_KIB: u64 = 1 << 20;
const CPU_SECONDS: u64 = 10;
/// Far above any figure in BAD-INPUTS.md; only a hang reaches it.
const WATCHDOG: Duration = Duration::from_secs(60);
const INPUT_CEILING_BYTES: u64 = 1 << 20;

/// The bytes of every regular file below `path`, links and FIFOs not followed.
fn input_bytes(path: &Path) -> u64 {
    let metadata = fs::symlink_metadata(path).unwrap();
    if metadata.is_dir() {
        fs::read_dir(path)
            .unwrap()
            .map(|entry| input_bytes(&entry.unwrap().path()))
            .sum()
    } else if metadata.is_file() {
        metadata.len()
    } else {
        0
    }
}

/// Runs `zarr-reshape ARGS < stdin` under the ceiling and checks it ended by
/// itself, in time, without a panic. Returns its exit code and stderr.
fn capped(input: &Path, arguments: &[&str], stdin: Option<&Path>) -> (i32, String) {
    let bytes = input_bytes(input);
    assert!(
        bytes < INPUT_CEILING_BYTES,
        "{}: the input is {bytes} bytes, not under 1 MB",
        input.display()
    );
    let script = format!("ulimit -v {ADDRESS_SPACE_KIB} && ulimit -t {CPU_SECONDS} && exec \"$@\"");
    let stdin = match stdin {
        Some(path) => Stdio::from(fs::File::open(path).unwrap()),
        None => Stdio::null(),
    };
    // One file per call: the tests of this file run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let stderr_path = std::env::temp_dir().join(format!(
        "zarr-reshape-ceiling-{}-{call}.stderr",
        std::process::id()
    ));
    let mut child = Command::new("sh")
        .args(["-c", &script, "sh", env!("CARGO_BIN_EXE_zarr-reshape")])
        .args(arguments)
        // glibc reserves address space per malloc arena; keep that out of the sum.
        .env("MALLOC_ARENA_MAX", "2")
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        peak_kib = peak_rss_kib(child.id()).unwrap_or(peak_kib);
        if started.elapsed() > WATCHDOG {
            let _ = child.kill();
            panic!("{arguments:?} still running after {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = fs::read_to_string(&stderr_path).unwrap_or_default();
    let _ = fs::remove_file(&stderr_path);
    let Some(code) = status.code() else {
        panic!(
            "{arguments:?} was killed by signal {:?} (SIGXCPU: over {CPU_SECONDS} s of CPU; \
             SIGABRT: an allocation beyond {ADDRESS_SPACE_KIB} KiB): {stderr}",
            status.signal()
        );
    };
    assert!(
        !stderr.contains("panicked"),
        "{arguments:?} panicked: {stderr}"
    );
    // The figures of BAD-INPUTS.md: `--nocapture` shows them (the peak as last
    // seen, at most one poll before the exit).
    eprintln!(
        "{}: exit {code}, {:.2} s, peak RSS {} MiB",
        input.file_name().unwrap().to_string_lossy(),
        started.elapsed().as_secs_f64(),
        peak_kib.div_ceil(1024)
    );
    (code, stderr)
}

/// The process's peak resident set so far (`VmHWM`), while it runs.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn write_json(path: &Path, value: &Value) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, value.to_string()).unwrap();
}

/// A suite root holding one read-array case over `arrays/a`, whose `zarr.json` is
/// `metadata` (or a FIFO when `None`).
fn array_suite(name: &str, metadata: Option<Value>) -> Scratch {
    let scratch = Scratch::new(name);
    let root = scratch.0.clone();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases/clauses.json"),
        root.join("clauses.json"),
    )
    .unwrap();
    let case = json!({"format": 1, "cases": [{
        "id": format!("ceiling/{name}"), "description": "hostile array",
        "clauses": ["algorithm.ravel"], "level": "must", "operation": "read-array",
        "configuration": {"shape": [-1]}, "decoded_shape": [1],
        "array": {"path": "arrays/a", "data_type": "uint8"},
        "expect": {"error": "malformed-configuration"}
    }]});
    write_json(&root.join("cases/hostile.json"), &case);
    let zarr_json = root.join("arrays/a/zarr.json");
    fs::create_dir_all(zarr_json.parent().unwrap()).unwrap();
    match metadata {
        Some(metadata) => write_json(&zarr_json, &metadata),
        None => common::mkfifo(&zarr_json),
    }
    scratch
}

fn array_metadata(shape: &[u64], chunk_shape: &[u64]) -> Value {
    json!({
        "zarr_format": 3, "node_type": "array", "shape": shape, "data_type": "uint8",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunk_shape}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [{"name": "reshape", "configuration": {"shape": [-1]}}, {"name": "bytes"}]
    })
}

#[test]
fn hostile_arrays_stay_under_the_ceiling() {
    let inputs = [
        ("isize-shape", Some(array_metadata(&[0, u64::MAX], &[1, 1]))),
        (
            "millions-of-chunks",
            Some(array_metadata(&[2; 24], &[1; 24])),
        ),
        (
            "fill-only-16m",
            Some(array_metadata(&[1 << 24], &[1 << 24])),
        ),
        ("fifo-zarr-json", None),
    ];
    for (name, metadata) in inputs {
        let scratch = array_suite(name, metadata);
        let root = &scratch.0;
        let suite = root.to_str().unwrap();
        let (code, stderr) = capped(root, &["run", "--cases", suite, "--timeout", "2000"], None);
        assert_eq!(code, 0, "{name}: the reference refuses the array: {stderr}");
    }
}

/// One request file for `zarr-reshape adapter`: `start`, then each case.
fn requests(name: &str, cases: &[Value]) -> Scratch {
    let scratch = Scratch::new(name);
    let dir = scratch.0.clone();
    let mut text = String::from("{\"cmd\": \"start\", \"protocol\": 1}\n");
    for (seq, case) in cases.iter().enumerate() {
        text.push_str(&json!({"cmd": "run", "seq": seq, "case": case}).to_string());
        text.push('\n');
    }
    fs::write(dir.join("requests.jsonl"), text).unwrap();
    scratch
}

fn case(operation: &str, configuration: Value, decoded_shape: Value) -> Value {
    json!({
        "id": "ceiling/request", "description": "hostile request",
        "clauses": ["algorithm.ravel"], "level": "must", "operation": operation,
        "configuration": configuration, "decoded_shape": decoded_shape,
        "expect": {"error": "overflow"}
    })
}

#[test]
fn hostile_requests_to_the_reference_adapter_stay_under_the_ceiling() {
    let mut encode_many = case("encode", json!({"shape": [-1]}), json!([450_000]));
    encode_many["input"] =
        json!({"data_type": "int8", "shape": [450_000], "data": vec![0; 450_000]});
    let mut encode_claims = case("encode", json!({"shape": [-1]}), json!([65_536, 65_536]));
    encode_claims["input"] = json!({"data_type": "float64", "shape": [65_536, 65_536], "data": []});
    let mut beyond_isize = case("encode", json!({"shape": [-1]}), json!([0, u64::MAX]));
    beyond_isize["input"] = json!({"data_type": "uint8", "shape": [0, u64::MAX], "data": []});
    let mut rank_256 = vec![json!(1); 255];
    rank_256.push(json!(-1));
    let mut rank_256_box = case("map-region", json!({"shape": rank_256}), json!([65_536]));
    rank_256_box["decoded_region"] = json!({"start": [0], "stop": [65_536]});
    let mut wide_box = case("map-region", json!({"shape": [-1]}), json!([u64::MAX]));
    wide_box["decoded_region"] = json!({"start": [0], "stop": [1 << 20]});
    let inputs = [
        ("encode-many-elements", encode_many),
        ("encode-claims-more-than-it-has", encode_claims),
        ("encode-beyond-isize", beyond_isize),
        ("map-region-rank-256", rank_256_box),
        ("map-region-answer-beyond-the-line", wide_box),
    ];
    for (name, case) in inputs {
        let scratch = requests(name, &[case]);
        let dir = &scratch.0;
        let requests = dir.join("requests.jsonl");
        let (code, stderr) = capped(dir, &["adapter"], Some(&requests));
        assert_eq!(code, 0, "{name}: the adapter answers and ends: {stderr}");
    }
}

/// A fake adapter in Python: answers `start`, then runs `on_case` for each case
/// (with `seq` the request's).
fn fake_adapter(name: &str, on_case: &str) -> Scratch {
    let scratch = Scratch::new(name);
    let dir = scratch.0.clone();
    let script = FAKE_ADAPTER.replace("ON_CASE", on_case);
    fs::write(dir.join("adapter.py"), script).unwrap();
    scratch
}

const FAKE_ADAPTER: &str = r#"
import json, subprocess, sys
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "start":
        who = {"name": "hostile", "version": "0", "language": "python"}
        print(json.dumps({"ok": True, "implementation": who}), flush=True)
    elif request["cmd"] == "run":
        seq = request["seq"]
        ON_CASE
    else:
        break
"#;

#[test]
fn hostile_adapters_stay_under_the_ceiling() {
    let answer =
        |result: &str| format!("print(json.dumps({{'seq': seq, 'result': {result}}}), flush=True)");
    let flood = format!(
        "{}\n        for _ in range(100000): print(json.dumps({{'seq': seq}}), flush=True)",
        answer("{'encoded_shape': [1]}")
    );
    let inputs = [
        ("flood", flood),
        (
            "huge-answer",
            answer("{'shape': [4294967296, 4294967296], 'data': []}"),
        ),
        (
            "class-not-a-string",
            answer("{'error': {'class': ['overflow'], 'message': 'm'}}"),
        ),
        (
            "grandchild-holds-stdout",
            "subprocess.Popen(['sleep', '1000']); sys.exit(3)".into(),
        ),
    ];
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases");
    let suite = suite.to_str().unwrap();
    for (name, on_case) in inputs {
        let scratch = fake_adapter(name, &on_case);
        let dir = &scratch.0;
        let adapter = format!("python3 {}", dir.join("adapter.py").display());
        let arguments = ["run", "--adapter", &adapter, "--cases", suite];
        let filter = ["--filter", "algorithm.ravel/*", "--timeout", "2000"];
        let (code, stderr) = capped(dir, &[&arguments[..], &filter[..]].concat(), None);
        assert_eq!(code, 1, "{name}: a hostile adapter fails the run: {stderr}");
    }
}

#[test]
fn hostile_vector_folders_and_documents_stay_under_the_ceiling() {
    // Two links to the parent at every level: exponential if followed.
    let scratch = Scratch::new("link-loops");
    let root = scratch.0.clone();
    let folder = root.join("shape.size");
    fs::create_dir_all(&folder).unwrap();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases/shape.size/size-is-total.json"),
        folder.join("size-is-total.json"),
    )
    .unwrap();
    for parent in [&root, &folder] {
        symlink(parent, parent.join("up-1")).unwrap();
        symlink(parent, parent.join("up-2")).unwrap();
    }
    let suite = root.to_str().unwrap();
    let (code, stderr) = capped(&root, &["vectors", suite], None);
    assert_eq!(code, 0, "the one real vector file is valid: {stderr}");
    let (code, stderr) = capped(&root, &["run", "--cases", suite], None);
    assert_eq!(code, 0, "its one case passes: {stderr}");

    // 300 bytes whose decoded array is empty but nests 2^32 empty lists.
    let scratch = Scratch::new("empty-but-nested");
    let root = scratch.0.clone();
    let case = json!({"format": 1, "cases": [{
        "id": "ceiling/empty-but-nested", "description": "d", "clauses": ["algorithm.ravel"],
        "level": "must", "operation": "decode", "configuration": {"shape": [[0, 1]]},
        "decoded_shape": [1_u64 << 32, 0],
        "input": {"data_type": "int8", "shape": [0], "data": []},
        "expect": {"shape": [1_u64 << 32, 0], "data": []}
    }]});
    write_json(&root.join("algorithm.ravel/empty-but-nested.json"), &case);
    let (code, stderr) = capped(&root, &["run", "--cases", root.to_str().unwrap()], None);
    assert_eq!(
        code, 1,
        "the reference declines the answer as too long: {stderr}"
    );

    // A document of about 900 KB, every block a finding.
    let scratch = Scratch::new("check-spec-findings");
    let dir = scratch.0.clone();
    let block =
        "```json\n{\"name\": \"reshape\" \"configuration\": {\"shape\": [[1], [0]]}}\n```\n\n";
    let spec = dir.join("spec.md");
    fs::write(&spec, block.repeat(900_000 / block.len())).unwrap();
    let (code, stderr) = capped(&dir, &["check-spec", spec.to_str().unwrap()], None);
    assert_eq!(code, 1, "every block is a finding: {stderr}");
}

#[test]
fn fixtures_into_a_folder_of_someone_else_stay_under_the_ceiling() {
    let scratch = Scratch::new("foreign-fixtures");
    let root = scratch.0.clone();
    fs::create_dir_all(root.join("arrays/spec-example")).unwrap();
    fs::write(root.join("arrays/spec-example/notes.txt"), "mine").unwrap();
    fs::write(root.join("arrays/spec-example/zarr.json"), "{}").unwrap();
    let (code, _) = capped(&root, &["fixtures", root.to_str().unwrap()], None);
    assert_ne!(code, 0, "a folder the tool did not write is refused");
    assert_eq!(
        fs::read_to_string(root.join("arrays/spec-example/notes.txt")).unwrap(),
        "mine"
    );
}

// run loop

/// Answers of 990 KB (330,000 numbers) for 19 cases: each was kept whole, parsed
/// (1.3 GB, SIGABRT under the ceiling); judged whole, then kept cut: 116 MiB.
#[test]
fn answers_accumulated_over_a_run_stay_under_the_ceiling() {
    let on_case = "print('{\"seq\": %d, \"result\": {\"shape\": [330000], \"data\": [%s]}}' \
                   % (seq, ', '.join(['0'] * 330000)), flush=True)";
    let scratch = fake_adapter("big-answers", on_case);
    let dir = &scratch.0;
    let adapter = format!("python3 {}", dir.join("adapter.py").display());
    let filter = ["--filter", "algorithm.ravel/encode-*"];
    let (code, stderr) = capped(
        dir,
        &[&["run", "--adapter", &adapter][..], &filter].concat(),
        None,
    );
    // Wrong answers, every one: the run fails, and ends by itself with its summary.
    assert_eq!(code, 1, "{stderr}");
}

/// An expectations file that is a FIFO or `/dev/zero` is refused before it is read
/// (it blocked, or filled memory), by `run` and by `fuzz`.
#[test]
fn an_expectations_file_whose_read_could_block_is_refused_unread() {
    let scratch = Scratch::new("expectations-fifo");
    let fifo = scratch.0.join("known.toml");
    common::mkfifo(&fifo);
    for path in [fifo.to_str().unwrap(), "/dev/zero"] {
        let run = ["run", "--cases", "codec.name", "--expectations", path];
        let fuzz = ["fuzz", "--cases", "10", "--expectations", path];
        for arguments in [&run[..], &fuzz[..]] {
            let (code, stderr) = capped(&scratch.0, arguments, None);
            assert_eq!(code, 2, "{arguments:?}: {stderr}");
            assert!(stderr.contains("not a regular file"), "{stderr}");
        }
    }
}

// check-spec (issue 30): `--fix` and `--format json` on a document of fragments
// whose verdicts are wrong (every one a finding with a repair), and a document
// that is a link to a pseudo file whose read blocks, or a FIFO.

/// A list of `bytes` bytes, each item a fragment the prose calls allowed and the
/// rules do not: a `fragment-disagrees` error with a repair, each.
fn wrong_verdicts(bytes: usize) -> String {
    let item = "- `\"shape\": [-1, [2], -1]` is allowed.\n";
    format!(
        "# reshape codec\n\n{}",
        item.repeat(bytes.checked_div(item.len()).unwrap())
    )
}

#[test]
fn check_spec_fix_and_json_stay_under_the_ceiling() {
    let scratch = Scratch::new("check-spec-wrong-verdicts");
    let dir = scratch.0.clone();
    let spec = dir.join("spec.md");
    fs::write(&spec, wrong_verdicts(700_000)).unwrap();
    let spec = spec.to_str().unwrap();
    let (code, stderr) = capped(&dir, &["check-spec", "--format", "json", "--", spec], None);
    assert_eq!(code, 1, "every fragment is an error: {stderr}");
    // Every repair applied in one round (each a lookup among those taken), then
    // checked again: nothing wrong is left.
    let (code, stderr) = capped(&dir, &["check-spec", "--fix", "--", spec], None);
    assert_eq!(code, 0, "every verdict repaired: {stderr}");
    assert!(
        fs::read_to_string(spec)
            .unwrap()
            .contains("is not allowed.")
    );
}

#[test]
fn check_spec_refuses_documents_whose_reads_could_block() {
    let scratch = Scratch::new("check-spec-blocking");
    let dir = scratch.0.clone();
    symlink("/proc/kmsg", dir.join("kmsg.md")).unwrap();
    let fifo = dir.join("fifo.md");
    common::mkfifo(&fifo);
    for name in ["kmsg.md", "fifo.md"] {
        let path = dir.join(name);
        for fix in [&[][..], &["--fix"]] {
            let mut args = vec!["check-spec"];
            args.extend(fix);
            args.extend(["--", path.to_str().unwrap()]);
            let (code, stderr) = capped(&dir, &args, None);
            assert_eq!(code, 2, "{name} refused: {stderr}");
        }
    }
}
