//! The known-failures file: the runner's expectations file format
//! (`conformance/expectations/*.toml`), so one file serves both.
//!
//! ```toml
//! [[failure]]
//! ids = ["input-dims.prefix/gap-between-groups"]
//! clause = "input-dims.prefix"
//! reason = "the prefix rule is never checked"
//! source = "src/reshape.rs:50"   # optional
//! outcome = "crash"               # optional: fail (the default), error or crash
//! issue_url = "https://github.com/owner/repo/issues/1"   # optional
//! ```
//!
//! `outcome` excuses a listed case only when it ends that way, as in the runner:
//! `fail` a wrong answer, `error` an `Answer::Errored`, `crash` a panic of the
//! implementation. A listed case that ends otherwise fails its trial.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::Path;

use serde::Deserialize;

/// The largest known-failures file read, in bytes.
pub const MAX_KNOWN_FAILURES_BYTES: u64 = 16 << 20;

/// The longest `issue_url` accepted, in bytes.
pub const MAX_ISSUE_URL_BYTES: usize = 512;

/// Known failures by case id, each with its reason and listed outcome.
#[derive(Debug, Clone, Default)]
pub struct KnownFailures {
    reasons: BTreeMap<String, (String, ListedOutcome)>,
    /// The `issue_url` of each listed id whose entry gives one.
    issues: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    failure: Vec<Failure>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Failure {
    ids: Vec<String>,
    clause: String,
    reason: String,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    outcome: ListedOutcome,
    #[serde(default)]
    issue_url: Option<String>,
}

impl Failure {
    /// The entry in words, for a message: its clause and its first id.
    fn named(&self) -> String {
        let first = self.ids.first().map_or("no ids", String::as_str);
        match self.ids.len().saturating_sub(1) {
            0 => format!("the entry of {} ({first})", self.clause),
            more => format!("the entry of {} ({first} and {more} more)", self.clause),
        }
    }
}

/// Checks an `issue_url`: an `https://` URL of at most [`MAX_ISSUE_URL_BYTES`]
/// bytes, with a host of letters, digits, `-` and `.` (and an optional port), and
/// nothing after it but printable ASCII other than space, `"`, `<`, `>`, `\`,
/// `^`, `` ` ``, `{`, `|` and `}`: a link every report can show as written.
///
/// ```
/// use zarr_reshape_harness::check_issue_url;
/// assert!(check_issue_url("https://github.com/zarrs/zarrs/issues/1").is_ok());
/// assert!(check_issue_url("http://github.com/zarrs/zarrs/issues/1").is_err());
/// assert!(check_issue_url("https://user@example.com/").is_err());
/// ```
///
/// # Errors
/// Says what is wrong with it.
pub fn check_issue_url(url: &str) -> Result<(), String> {
    if url.len() > MAX_ISSUE_URL_BYTES {
        return Err(format!(
            "issue_url is {} bytes long; at most {MAX_ISSUE_URL_BYTES}",
            url.len()
        ));
    }
    let Some(rest) = url.strip_prefix("https://") else {
        return Err("issue_url must start with https://".into());
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    let (host, port) = authority.split_once(':').unwrap_or((authority, ""));
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        && !host.starts_with(['-', '.']);
    if !host_ok || !port.bytes().all(|b| b.is_ascii_digit()) {
        return Err(
            "issue_url needs a host name of letters, digits, '-' and '.' after https:// \
             (no user name, no spaces)"
                .into(),
        );
    }
    if let Some(bad) = path
        .chars()
        .find(|c| !c.is_ascii_graphic() || "\"<>\\^`{|}".contains(*c))
    {
        return Err(format!(
            "issue_url holds {bad:?}, which a URL may not hold as written"
        ));
    }
    Ok(())
}

/// How a listed case is expected to end: the `outcome` of a `[[failure]]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ListedOutcome {
    /// A wrong answer (the default).
    #[default]
    Fail,
    /// No usable answer: `Answer::Errored`, or an output that is not an object.
    Error,
    /// A panic of the implementation.
    Crash,
}

impl ListedOutcome {
    /// `fail`, `error` or `crash`: its name in the file.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Fail => "fail",
            Self::Error => "error",
            Self::Crash => "crash",
        }
    }
}

impl std::fmt::Display for ListedOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl KnownFailures {
    /// Reads a known-failures file.
    ///
    /// # Errors
    /// When the file cannot be read (or is not a regular file, or is larger than
    /// [`MAX_KNOWN_FAILURES_BYTES`]), or as [`KnownFailures::parse`]; the message
    /// starts with the path.
    pub fn load(path: &Path) -> Result<Self, String> {
        let fail = |what: String| format!("{}: {what}", path.display());
        let metadata = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
        if !metadata.is_file() {
            return Err(fail("not a regular file".into()));
        }
        if metadata.len() > MAX_KNOWN_FAILURES_BYTES {
            return Err(fail(format!(
                "{} bytes; a known-failures file is at most {MAX_KNOWN_FAILURES_BYTES}",
                metadata.len()
            )));
        }
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|file| {
                file.take(MAX_KNOWN_FAILURES_BYTES)
                    .read_to_string(&mut text)
            })
            .map_err(|e| fail(e.to_string()))?;
        Self::parse(&text).map_err(fail)
    }

    /// Reads the text of a known-failures file.
    ///
    /// ```
    /// use zarr_reshape_harness::KnownFailures;
    /// let known = KnownFailures::parse(
    ///     r#"
    ///     [[failure]]
    ///     ids = ["input-dims.prefix/gap-between-groups"]
    ///     clause = "input-dims.prefix"
    ///     reason = "the prefix rule is never checked"
    ///     "#,
    /// )?;
    /// assert_eq!(
    ///     known.reason("input-dims.prefix/gap-between-groups"),
    ///     Some("the prefix rule is never checked (input-dims.prefix)")
    /// );
    /// assert!(KnownFailures::parse("[[failure]]\nids = []\nclause = \"x\"\nreason = \" \"").is_err());
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    /// When the text is not of this form (an unknown member included), gives an
    /// empty reason or an `issue_url` that [`check_issue_url`] refuses (the
    /// message names the entry), or lists an id twice.
    pub fn parse(text: &str) -> Result<Self, String> {
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut reasons = BTreeMap::new();
        let mut issues = BTreeMap::new();
        for failure in file.failure {
            if failure.reason.trim().is_empty() {
                return Err(format!(
                    "a known failure of {} has no reason",
                    failure.clause
                ));
            }
            if let Some(url) = &failure.issue_url {
                check_issue_url(url).map_err(|e| format!("{}: {e}", failure.named()))?;
                for id in &failure.ids {
                    issues.insert(id.clone(), url.clone());
                }
            }
            let reason = match &failure.source {
                Some(source) => format!("{} ({}; {source})", failure.reason, failure.clause),
                None => format!("{} ({})", failure.reason, failure.clause),
            };
            for id in failure.ids {
                if reasons
                    .insert(id.clone(), (reason.clone(), failure.outcome))
                    .is_some()
                {
                    return Err(format!("{id} is listed twice"));
                }
            }
        }
        Ok(Self { reasons, issues })
    }

    /// The upstream issue of a listed case (its entry's `issue_url`), if it gives one.
    #[must_use]
    pub fn issue_url(&self, id: &str) -> Option<&str> {
        self.issues.get(id).map(String::as_str)
    }

    /// The reason a case is expected to fail, if it is listed.
    #[must_use]
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.reasons.get(id).map(|(reason, _)| reason.as_str())
    }

    /// The reason and the listed outcome of a case, if it is listed.
    #[must_use]
    pub fn listed(&self, id: &str) -> Option<(&str, ListedOutcome)> {
        self.reasons
            .get(id)
            .map(|(reason, outcome)| (reason.as_str(), *outcome))
    }

    /// Every listed id, sorted.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.reasons.keys().map(String::as_str)
    }

    /// How many ids are listed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.reasons.len()
    }

    /// Whether nothing is listed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.reasons.is_empty()
    }
}
