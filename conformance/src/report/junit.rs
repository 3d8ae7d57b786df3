//! JUnit XML, for CI dashboards, written with `quick-junit`.
//!
//! One `<testsuite>` per first clause, one `<testcase>` per case (`name` = case id,
//! `classname` = clause). A fail is a `<failure>` (its `type` is the case's level),
//! an error (a timeout, a process death, a protocol fault) an `<error>`, a crash an
//! `<error>` whose message starts with `crash: `, a skip a `<skipped>`. A listed
//! case that ended in another outcome than the one listed says so in its message.
//! A known failure is reported as `<skipped message="known failure: ...">`, so a
//! dashboard does not go red for a divergence the expectations file lists; an
//! unexpected pass is a `<failure type="unexpected-pass">`, as it fails the run.
//! Stale expectations and an interrupted run appear as testcases of a last suite,
//! `(run)`, so that the XML goes red exactly when the run has a run-level fault.
//!
//! Every text is passed through [`xml`] first: the characters XML 1.0 forbids
//! (C0 controls, U+FFFE, U+FFFF) are written as `\u{...}`, so that the file stays
//! well-formed whatever a vector or an adapter said.

use std::collections::BTreeMap;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use crate::run::RunReport;

use super::escape::xml;
use super::record::{CaseLine, RunLog};
use super::{Status, clause_of, compact, listed_otherwise, listed_with_issue, reason};

/// The name of the suite that holds run-level faults.
pub const RUN_SUITE: &str = "(run)";

/// The JUnit XML report of a finished run, rendered from its records.
#[must_use]
pub fn render(report: &RunReport) -> String {
    render_log(&RunLog::of(report))
}

/// The JUnit XML report of a run.
#[must_use]
pub fn render_log(report: &RunLog) -> String {
    let info = &report.header.implementation;
    let mut junit = Report::new(xml(&format!(
        "zarr-reshape conformance: {} {}",
        info.name, info.version
    )));
    if let Some(footer) = &report.footer {
        junit.set_time(footer.duration_ms.duration());
    }
    let properties = [
        Property::new("implementation", xml(&info.name)),
        Property::new("implementation.version", xml(&info.version)),
        Property::new("implementation.language", xml(&info.language)),
        // The release (`3.0.0`), or in words why there is none.
        Property::new(
            "suite_version",
            xml(&report
                .header
                .suite_version
                .clone()
                .unwrap_or_else(|| report.header.suite())),
        ),
    ];
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    for record in &report.cases {
        let clause = clause_of(record);
        suites
            .entry(clause)
            .or_insert_with(|| {
                let mut suite = TestSuite::new(xml(clause));
                suite.add_properties(properties.clone());
                suite
            })
            .add_test_case(test_case(clause, record));
    }
    junit.add_test_suites(suites.into_values());
    if let Some(suite) = run_suite(report) {
        junit.add_test_suite(suite);
    }
    // Serializing an in-memory report fails only if the writer does, and a Vec does not.
    junit.to_string().unwrap_or_default()
}

fn test_case(clause: &str, record: &CaseLine) -> TestCase {
    let details = || {
        xml(&format!(
            "{}\nexpected: {}\nanswered: {}",
            record.description,
            compact(&record.expected),
            compact(&record.answer)
        ))
    };
    let listed = listed_with_issue(record);
    let why = xml(reason(record));
    let status = match Status::of(record) {
        Status::Pass => TestCaseStatus::success(),
        Status::UnexpectedPass => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_message(xml(&format!(
                    "unexpected pass: listed as a known failure ({listed}); remove it from the expectations file"
                )))
                .set_type("unexpected-pass")
                .set_description(details());
            status
        }
        Status::KnownFailure => {
            let mut status = TestCaseStatus::skipped();
            status
                .set_message(xml(&format!("known failure: {listed}")))
                .set_description(format!("{}: {why}\n{}", xml(&record.outcome), details()));
            status
        }
        Status::Skip => {
            let mut status = TestCaseStatus::skipped();
            status.set_message(why);
            status
        }
        Status::Fail | Status::Error | Status::Crash => {
            let kind = match record.outcome.as_str() {
                "error" | "crash" => NonSuccessKind::Error,
                _ => NonSuccessKind::Failure,
            };
            let mut message = match record.outcome.as_str() {
                "crash" => format!("crash: {why}"),
                _ => why,
            };
            if let Some(outcome) = listed_otherwise(record) {
                message = format!("{message} (listed as {}: {})", xml(outcome), xml(&listed));
            }
            let mut status = TestCaseStatus::non_success(kind);
            status
                .set_message(message)
                .set_type(xml(&record.level))
                .set_description(details());
            status
        }
    };
    let mut case = TestCase::new(xml(&record.id), status);
    case.set_classname(xml(clause))
        .set_time(record.duration_ms.duration());
    if !record.stderr.is_empty() {
        case.set_system_err(xml(&record.stderr));
    }
    case
}

/// Stale expectations and an interruption, as failing testcases.
fn run_suite(report: &RunLog) -> Option<TestSuite> {
    let mut cases = Vec::new();
    for id in report.stale_expectations() {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_message("stale expectation: listed in the expectations file, but no case of the suite has this id")
            .set_type("stale-expectation");
        let mut case = TestCase::new(xml(&format!("stale-expectation/{id}")), status);
        case.set_classname(RUN_SUITE);
        cases.push(case);
    }
    if report.interrupted() {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status
            .set_message(format!(
                "the run was interrupted after {} cases",
                report.cases.len()
            ))
            .set_type("interrupted");
        let mut case = TestCase::new("interrupted", status);
        case.set_classname(RUN_SUITE);
        cases.push(case);
    }
    if cases.is_empty() {
        return None;
    }
    let mut suite = TestSuite::new(RUN_SUITE);
    suite.add_test_cases(cases);
    Some(suite)
}
