//! Must cases whose verdict rests on a sentence whose scope is disputed upstream:
//! the core spec's `must_understand` rule, which the suite applies to members of
//! the codec object and of its configuration (zarr-specs#270 asks whether it
//! reaches inside codec objects). CONFORMANCE.md ("Contested musts") gives the
//! evidence and the decision; this lists the cases, so the list cannot go stale.

use std::fmt::Write as _;

use super::alternative::without_unknown_members;
use crate::answer::Answer;
use crate::reference;
use crate::vector::{Case, Expectation, parse_case};

/// The clause whose scope is disputed.
pub const DISPUTED_CLAUSE: &str = "core.must-understand";

/// Whether the case is `must`, the reference refuses it, and a reader that
/// ignored every unknown member would accept it: its verdict rests on the rule.
#[must_use]
pub fn rests_on_unknown_members(case: &Case) -> bool {
    if case.level != "must" || !matches!(reference::run(case), Answer::Error { .. }) {
        return false;
    }
    // A reader that ignores every unknown member (none to drop: not resting on it).
    let Some(json) = without_unknown_members(case, |_| true) else {
        return false;
    };
    parse_case(&json).is_ok_and(|lenient| matches!(reference::run(&lenient), Answer::Output(_)))
}

/// The Markdown table of the contested must cases, one row each.
#[must_use]
pub fn table<'a>(cases: impl IntoIterator<Item = &'a Case>) -> String {
    let mut out = String::from("| case | operation | the case expects |\n|---|---|---|\n");
    let mut count = 0_usize;
    for case in cases
        .into_iter()
        .filter(|case| rests_on_unknown_members(case))
    {
        count = count.saturating_add(1);
        let expected = match &case.expect {
            Expectation::Error(classes) => format!("error `{}`", classes.join("`, `")),
            other => format!("{other:?}"),
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {expected} |",
            case.id,
            case.operation.name()
        );
    }
    let _ = writeln!(
        out,
        "\n{count} must cases rest on `{DISPUTED_CLAUSE}` alone: a reader that ignores unknown members answers each of them with a success."
    );
    out
}
