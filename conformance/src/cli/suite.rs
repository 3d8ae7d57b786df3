//! Where the cases come from: the suite embedded in the binary by default, or what
//! `--cases` names: a suite folder, a folder below one, a single vector file, or
//! a clause id of the embedded suite. Each argument's resolution is said in words.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once, OnceLock};

use crate::report::escape::terminal as safe;
use crate::vector::embedded::{self, EmbeddedSuite};
use crate::vector::{self, Case};

/// How `run` names a suite folder.
const CASES: &str = "--cases DIR";

/// The embedded suites this process unpacked, by number: each is removed when its
/// [`SuiteRoot`] is dropped, or by [`on_signal`] when the process is ended.
static UNPACKED: Mutex<Vec<(u64, EmbeddedSuite)>> = Mutex::new(Vec::new());

/// The number of the next unpacked suite.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// The flag of a command that stops by itself on a signal (`run`, `fuzz`).
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

static HANDLER: Once = Once::new();

/// Held while a suite is unpacked and registered: a signal waits for it, so that
/// a folder being written is registered, then removed.
static UNPACKING: Mutex<()> = Mutex::new(());

/// Handles Ctrl-C, SIGTERM and SIGHUP (ctrlc's `termination` feature) from now on.
fn install_handler() {
    HANDLER.call_once(|| {
        // Fails only when another handler is set, and none is: every command
        // comes through here.
        let _ = ctrlc::set_handler(on_signal);
    });
}

/// A signal: a command that asked for [`stop_flag`] stops after the case in
/// flight, and cleans up as it ends; any other command, or a second signal,
/// removes the unpacked suites and exits at once (status 130).
fn on_signal() {
    if let Some(flag) = STOP.get() {
        if !flag.swap(true, Ordering::SeqCst) {
            return;
        }
    }
    let _unpacking = UNPACKING.lock();
    if let Ok(mut unpacked) = UNPACKED.lock() {
        unpacked.clear();
    }
    std::process::exit(130);
}

/// The flag a signal (Ctrl-C, SIGTERM, SIGHUP) sets: the caller stops soon after
/// and ends normally, which removes what it unpacked. A second signal ends the
/// process at once, removing the unpacked suites first.
pub fn stop_flag() -> Arc<AtomicBool> {
    install_handler();
    Arc::clone(STOP.get_or_init(|| Arc::new(AtomicBool::new(false))))
}

/// An unpacked embedded suite, held in [`UNPACKED`] until this is dropped.
#[derive(Debug)]
struct Unpacked {
    number: u64,
    root: PathBuf,
}

impl Unpacked {
    fn new(suite: EmbeddedSuite) -> Self {
        let number = NEXT.fetch_add(1, Ordering::SeqCst);
        let root = suite.root().to_path_buf();
        match UNPACKED.lock() {
            Ok(mut unpacked) => unpacked.push((number, suite)),
            // Poisoned: never, as nothing panics while holding it; the suite is
            // then removed at once rather than leaked.
            Err(_) => drop(suite),
        }
        Self { number, root }
    }

    /// `text` with the temporary root replaced by the suite's name, for messages.
    fn describe(&self, text: &str) -> String {
        text.replace(&self.root.display().to_string(), &embedded::name())
    }
}

impl Drop for Unpacked {
    fn drop(&mut self) {
        if let Ok(mut unpacked) = UNPACKED.lock() {
            unpacked.retain(|(number, _)| *number != self.number);
        }
    }
}

/// A suite root on disk: a folder the user named, or the embedded suite unpacked
/// to a temporary folder (removed when this is dropped, or when a signal ends the
/// process).
#[derive(Debug)]
pub struct SuiteRoot {
    path: PathBuf,
    embedded: Option<Unpacked>,
}

impl SuiteRoot {
    /// The embedded suite, unpacked; `instead` says how to name a folder instead,
    /// e.g. `--cases DIR`.
    pub fn embedded(instead: &str) -> Result<Self, String> {
        install_handler();
        let unpacking = UNPACKING.lock();
        let suite = EmbeddedSuite::unpack().map_err(|error| {
            format!(
                "cannot write the {} to a temporary folder ({error}); name a suite folder \
                 with {instead} instead (`zarr-reshape vectors --export DIR` writes one)",
                embedded::name()
            )
        })?;
        let root = Self {
            path: suite.root().to_path_buf(),
            embedded: Some(Unpacked::new(suite)),
        };
        drop(unpacking);
        Ok(root)
    }

    /// The embedded suite when `folder` is `None`, else that folder.
    pub fn or_embedded(folder: Option<&Path>, instead: &str) -> Result<Self, String> {
        match folder {
            Some(folder) => Ok(Self {
                path: folder.to_path_buf(),
                embedded: None,
            }),
            None => Self::embedded(instead),
        }
    }

    /// The folder to read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its name for people: `embedded suite 1.0.0`, or the folder's path.
    pub fn label(&self) -> String {
        match self.embedded {
            Some(_) => embedded::name(),
            None => safe(&self.path.display().to_string()),
        }
    }

    /// `text` with the temporary folder's path replaced by the suite's name.
    pub fn describe(&self, text: &str) -> String {
        match &self.embedded {
            Some(suite) => safe(&suite.describe(text)),
            None => safe(text),
        }
    }
}

/// The cases chosen, and what each `--cases` argument resolved to.
#[derive(Debug)]
pub struct Selection {
    /// Every case, in file order.
    pub cases: Vec<Case>,
    /// One line per source, e.g. `embedded suite 1.0.0: 3291 cases in 146 files`.
    pub resolved: Vec<String>,
    /// Kept while the cases run: adapters read the fixtures below it.
    unpacked: Option<SuiteRoot>,
    /// Whether some case came from a file or folder rather than the embedded suite.
    from_files: bool,
}

impl Selection {
    /// The suite release of the cases (the embedded suite's version), `None` when
    /// some came from a file or folder: no release vouches for those.
    pub fn suite_version(&self) -> Option<&'static str> {
        (!self.from_files).then_some(embedded::SUITE_VERSION)
    }
}

/// The cases that `arguments` (`--cases`) name, the embedded suite when none.
pub fn select(arguments: &[PathBuf]) -> Result<Selection, String> {
    let mut selection = Selection {
        cases: Vec::new(),
        resolved: Vec::new(),
        unpacked: None,
        from_files: false,
    };
    if arguments.is_empty() {
        let root = SuiteRoot::embedded(CASES)?;
        let (cases, files) = load_below(&root, root.path())?;
        selection.resolved.push(format!(
            "{}: {} cases in {files} files",
            root.label(),
            cases.len()
        ));
        selection.cases = cases;
        selection.unpacked = Some(root);
        return Ok(selection);
    }
    for argument in arguments {
        let shown = safe(&argument.display().to_string());
        selection.from_files = selection.from_files || argument.exists();
        if argument.is_dir() {
            let here = SuiteRoot::or_embedded(Some(argument), CASES)?;
            let (cases, files) = load_below(&here, argument)?;
            let what = if argument.join("clauses.json").is_file() {
                format!("suite folder {shown}")
            } else if let Some(root) = vector::suite_root(&argument.join("-")) {
                format!(
                    "folder {shown}, in the suite at {}",
                    safe(&root.display().to_string())
                )
            } else {
                format!("folder {shown} (no clauses.json above it)")
            };
            selection
                .resolved
                .push(format!("{what}: {} cases in {files} files", cases.len()));
            selection.cases.extend(cases);
        } else if argument.exists() {
            let cases = vector::load_file(argument).map_err(|e| safe(&e.to_string()))?;
            selection
                .resolved
                .push(format!("file {shown}: {} cases", cases.len()));
            selection.cases.extend(cases);
        } else {
            let clause = argument.to_str().unwrap_or_default();
            if !embedded::clause_ids().iter().any(|id| id == clause) {
                return Err(format!(
                    "--cases {shown}: no such file or folder, and not a clause id of the {} \
                     (see `zarr-reshape vectors`)",
                    embedded::name()
                ));
            }
            if selection.unpacked.is_none() {
                selection.unpacked = Some(SuiteRoot::embedded(CASES)?);
            }
            let Some(root) = &selection.unpacked else {
                return Err("the embedded suite is not unpacked".into());
            };
            let (cases, _) = load_below(root, root.path())?;
            let cases: Vec<Case> = cases
                .into_iter()
                .filter(|case| case.clauses.first().is_some_and(|first| first == clause))
                .collect();
            selection.resolved.push(format!(
                "clause {shown} of the {}: its {} cases (those whose first clause it is)",
                embedded::name(),
                cases.len()
            ));
            selection.cases.extend(cases);
        }
    }
    Ok(selection)
}

/// Every case below `folder` (of the suite `root`), and the number of files read.
fn load_below(root: &SuiteRoot, folder: &Path) -> Result<(Vec<Case>, usize), String> {
    let found = vector::discover_below(folder)
        .map_err(|e| root.describe(&format!("{}: {e}", folder.display())))?;
    for link in &found.skipped_links {
        eprintln!(
            "zarr-reshape: warning: {}: a link to a folder, not followed",
            root.describe(&link.display().to_string())
        );
    }
    let mut cases = Vec::new();
    for file in &found.files {
        cases.extend(vector::load_file(file).map_err(|e| root.describe(&e.to_string()))?);
    }
    Ok((cases, found.files.len()))
}
