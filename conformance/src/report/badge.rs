//! A shields.io endpoint badge for one run: `{"schemaVersion": 1, "label": "zarr
//! reshape", "message": "412/412 MUST", "color": "brightgreen"}`. An
//! implementation serves the file (a CI artifact, a gist, GitHub Pages) and its
//! README shows `https://img.shields.io/endpoint?url=...`.

use serde::Serialize;

use super::record::RunLog;

/// The badge's label.
pub const LABEL: &str = "zarr reshape";

/// The badge's message for a run in which no MUST case ran.
pub const NOT_TESTED: &str = "not tested";

/// The endpoint JSON, members in the order shields.io documents them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Badge {
    /// Always 1.
    pub schema_version: u8,
    /// [`LABEL`].
    pub label: &'static str,
    /// `<passed>/<total> MUST`; when no MUST case ran, `not tested` (no MUST
    /// case) or `not tested: <total> MUST skipped`.
    pub message: String,
    /// `brightgreen` when every MUST case passed (and at least one ran); `yellow`
    /// when the run succeeds but some MUST cases are known failures or skipped;
    /// `lightgrey` when no MUST case ran (no case, every case skipped, or none of
    /// level must), never green; `red` when the run fails or was cut short.
    pub color: &'static str,
}

/// The MUST cases of the run that passed, and all its MUST cases.
#[must_use]
pub fn must_passed(log: &RunLog) -> (usize, usize) {
    let must = log.cases.iter().filter(|case| case.level == "must");
    let total = must.clone().count();
    let passed = must.filter(|case| case.outcome == "pass").count();
    (passed, total)
}

/// The badge of `log`.
#[must_use]
pub fn badge(log: &RunLog) -> Badge {
    let (passed, total) = must_passed(log);
    let color = if !log.succeeded() {
        "red"
    } else if super::tested_nothing(log) {
        "lightgrey"
    } else if passed == total {
        "brightgreen"
    } else {
        "yellow"
    };
    Badge {
        schema_version: 1,
        label: LABEL,
        message: if !log.succeeded() || !super::tested_nothing(log) {
            format!("{passed}/{total} MUST")
        } else if total == 0 {
            NOT_TESTED.into()
        } else {
            format!("{NOT_TESTED}: {total} MUST skipped")
        },
        color,
    }
}

/// The endpoint JSON of `log`, one line.
#[must_use]
pub fn render(log: &RunLog) -> String {
    // A struct of strings and a number always serializes.
    let mut text = serde_json::to_string(&badge(log)).unwrap_or_default();
    text.push('\n');
    text
}
