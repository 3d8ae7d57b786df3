//! Unit tests of the judgement, the typed arrays, the known-failures file and the
//! levels variable, on cases read from the vectors.

use serde_json::json;
use zarr_reshape_vectors::{Case, Level, Operation, cases};

use crate::answer::Answer;
use crate::harness::parse_levels;
use crate::json::{Json, same_json};
use crate::judge::{Expected, Outcome};
use crate::known::KnownFailures;
use crate::typed::{DataType, TypedArray};

fn case(id: &str) -> Case {
    cases()
        .unwrap()
        .into_iter()
        .find(|case| case.id == id)
        .unwrap()
}

fn judge(case: &Case, answer: &Answer) -> Outcome {
    Expected::of(case).unwrap().judge(answer)
}

fn error(class: Option<&str>) -> Answer {
    Answer::Error {
        class: class.map(str::to_string),
        message: "no".into(),
    }
}

/// The first acceptable class of an error-expecting case, read from the vector.
fn expected_class(case: &Case) -> String {
    let expect: serde_json::Value = serde_json::from_str(case.expect.get()).unwrap();
    match &expect["error"] {
        serde_json::Value::Array(classes) => classes[0].as_str().unwrap().to_string(),
        class => class.as_str().unwrap().to_string(),
    }
}

#[test]
fn error_classes_are_compared_when_named() {
    let case = case("input-dims.prefix/gap-between-groups");
    let class = expected_class(&case);
    assert_eq!(judge(&case, &error(Some(&class))), Outcome::Pass);
    assert_eq!(judge(&case, &error(None)), Outcome::Pass);
    let Outcome::Fail(why) = judge(&case, &error(Some("overflow"))) else {
        panic!("a wrong class must fail");
    };
    assert_eq!(why, format!("error class overflow, expected {class}"));
    let Outcome::Fail(why) = judge(&case, &Answer::output(&json!({"encoded_shape": [2, 4, 3]})))
    else {
        panic!("a success must fail an error expectation");
    };
    assert!(why.starts_with(r#"succeeded with {"encoded_shape":[2,4,3]}, expected an error"#));
}

#[test]
fn outputs_are_compared_member_by_member_integers_by_value() {
    let case = cases()
        .unwrap()
        .into_iter()
        .find(|case| {
            case.operation == Operation::Resolve
                && case.expect.get().contains("encoded_shape")
                && !case.expect.get().contains("any_of")
        })
        .unwrap();
    let expect: serde_json::Value = serde_json::from_str(case.expect.get()).unwrap();
    let shape = expect["encoded_shape"].as_array().unwrap();
    assert_eq!(judge(&case, &Answer::output(&expect)), Outcome::Pass);
    // Other whitespace, and a member the expectation does not name.
    let respelt: Vec<String> = shape.iter().map(|n| format!("{n}")).collect();
    let text = format!(
        r#"{{"encoded_shape": [ {} ], "extra": true}}"#,
        respelt.join(" , ")
    );
    assert_eq!(judge(&case, &Answer::output_text(text)), Outcome::Pass);
    let Outcome::Fail(why) = judge(&case, &Answer::output(&json!({"shape": shape}))) else {
        panic!("a missing member must fail");
    };
    assert!(why.starts_with("the answer has no encoded_shape"), "{why}");
    let Outcome::Fail(why) = judge(&case, &error(Some("overflow"))) else {
        panic!("an error must fail an output expectation");
    };
    assert!(why.starts_with("error [overflow] no, expected {"), "{why}");
}

#[test]
fn integers_beyond_64_bits_are_compared_exactly() {
    let big = Json::parse("18446744073709551617").unwrap();
    let rounded = Json::parse("18446744073709551616").unwrap();
    assert!(same_json(&big, &big.clone()));
    assert!(!same_json(&big, &rounded));
    assert!(same_json(
        &Json::parse("-0").unwrap(),
        &Json::parse("0").unwrap()
    ));
    assert!(!same_json(
        &Json::parse("2.0").unwrap(),
        &Json::parse("2").unwrap()
    ));
    assert!(!same_json(
        &Json::parse("[1e400]").unwrap(),
        &Json::parse("[1e401]").unwrap()
    ));
}

#[test]
fn skips_errored_answers_and_non_objects() {
    let case = case("input-dims.prefix/gap-between-groups");
    assert_eq!(
        judge(&case, &Answer::skipped("no")),
        Outcome::Skip("no".into())
    );
    let errored = Answer::Errored {
        message: "broke".into(),
    };
    assert_eq!(judge(&case, &errored), Outcome::Error("broke".into()));
    assert!(matches!(
        judge(&case, &Answer::output_text("[1]".into())),
        Outcome::Error(why) if why.contains("must be a JSON object")
    ));
}

#[test]
fn any_of_passes_any_option_and_says_why_none_matched() {
    let case = cases()
        .unwrap()
        .into_iter()
        .find(|case| case.expect.get().contains("any_of"))
        .unwrap();
    let Outcome::Fail(why) = judge(&case, &Answer::output(&json!({}))) else {
        panic!("an empty output matches no option");
    };
    assert!(
        why.starts_with("matches none of the acceptable results ("),
        "{why}"
    );
}

fn array(data_type: DataType, shape: &str, data: &str) -> Option<TypedArray> {
    let shape = Json::parse(shape).unwrap();
    TypedArray::read(data_type, Some(&shape), &Json::parse(data).unwrap())
}

#[test]
fn arrays_compare_typed_floats_bit_for_bit() {
    let f64s = |data| array(DataType::Float64, "[3]", data);
    assert_eq!(f64s(r#"[1, "NaN", 1e2]"#), f64s(r#"[1.0, "NaN", 100]"#));
    assert!(f64s(r#"[1, "NaN", 1e2]"#).is_some());
    assert_ne!(f64s("[0, 0, 0]"), f64s("[-0.0, 0, 0]"));
    let canonical = f64s(r#"["NaN", 0, 0]"#);
    assert_eq!(f64s(r#"["0x7ff8000000000000", 0, 0]"#), canonical);
    assert_ne!(f64s(r#"["0x7ff8000000000001", 0, 0]"#), canonical);
    assert!(
        f64s(r#"["0x7ff800000000001", 0, 0]"#).is_none(),
        "15 hex digits"
    );
    assert_eq!(
        array(DataType::Float32, "[1]", "[0.1]"),
        array(DataType::Float32, "[1]", "[0.10000000149011612]")
    );
    assert_eq!(array(DataType::Int8, "[1]", "[128]"), None);
    assert_eq!(array(DataType::UInt8, "[1]", "[-1]"), None);
    assert_eq!(array(DataType::Int32, "[2]", "[1]"), None);
    assert_eq!(array(DataType::Int32, "[1]", "[1.0]"), None);
    assert_eq!(
        array(DataType::Bool, "[]", "true"),
        array(DataType::Bool, "[]", "true")
    );
    assert!(array(DataType::Bool, "[]", "true").is_some());
    assert_eq!(
        array(DataType::Bool, "[0, 9223372036854775808]", "[]"),
        None
    );
    assert_eq!(array(DataType::Bool, "[16777217]", "[]"), None);
}

#[test]
fn known_failures_files_are_checked() {
    for (text, says) in [
        (
            "[[failure]]\nids = [\"a\"]\nclause = \"c\"\nreason = \"\"",
            "has no reason",
        ),
        (
            "[[failure]]\nids = [\"a\", \"a\"]\nclause = \"c\"\nreason = \"r\"",
            "a is listed twice",
        ),
        (
            "[[failure]]\nids = [\"a\"]\nclause = \"c\"\nreason = \"r\"\nwhy = 1",
            "unknown field",
        ),
        ("[[failures]]", "unknown field"),
        (
            "[[failure]]\nids = [\"a\", \"b\"]\nclause = \"c\"\nreason = \"r\"\nissue_url = \"http://x.org/1\"",
            "the entry of c (a and 1 more): issue_url must start with https://",
        ),
        (
            "[[failure]]\nids = [\"a\"]\nclause = \"c\"\nreason = \"r\"\nissue_url = \"https://x.org/a b\"",
            "the entry of c (a): issue_url holds ' '",
        ),
        (
            "[[failure]]\nids = [\"a\"]\nclause = \"c\"\nreason = \"r\"\nissue_url = \"javascript:alert(1)\"",
            "must start with https://",
        ),
        (
            "[[failure]]\nids = [\"a\"]\nclause = \"c\"\nreason = \"r\"\nissue_url = 1",
            "invalid type",
        ),
    ] {
        let message = KnownFailures::parse(text).unwrap_err();
        assert!(message.contains(says), "{says:?} is not in {message:?}");
    }
    let missing = std::path::Path::new("no/such/known-failures.toml");
    assert!(
        KnownFailures::load(missing)
            .unwrap_err()
            .starts_with("no/such/known-failures.toml: ")
    );
}

#[test]
fn levels_are_named_or_all() {
    assert_eq!(
        parse_levels("all").unwrap(),
        Level::ALL.into_iter().collect()
    );
    assert_eq!(
        parse_levels("must, interpretation").unwrap(),
        [Level::Must, Level::Interpretation].into_iter().collect()
    );
    let message = parse_levels("must,MUST").unwrap_err();
    assert!(message.contains(r#""MUST" is no level"#), "{message}");
}

#[test]
fn the_summary_counts_each_clause_and_the_total() {
    use crate::summary::{Summary, Tally, Verdict};
    let mut summary = Summary::default();
    for (clause, verdict) in [
        ("shape.size", Verdict::Pass),
        ("shape.size", Verdict::Fail),
        ("input-dims.prefix", Verdict::Known),
        ("input-dims.prefix", Verdict::Skip),
        ("input-dims.prefix", Verdict::Pass),
    ] {
        summary.count(clause, verdict);
    }
    let total = Tally {
        pass: 2,
        fail: 1,
        known: 1,
        skip: 1,
    };
    assert_eq!(summary.total(), total);
    let text = summary.render();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        [
            vec!["clause", "pass", "fail", "known", "skip"],
            vec!["input-dims.prefix", "1", "0", "1", "1"],
            vec!["shape.size", "1", "1", "0", "0"],
            vec!["total", "2", "1", "1", "1"],
        ]
    );
}

#[test]
fn an_issue_url_is_kept_for_every_id_of_its_entry() {
    let known = KnownFailures::parse(
        "[[failure]]\nids = [\"a\", \"b\"]\nclause = \"c\"\nreason = \"r\"\n\
         issue_url = \"https://github.com/zarrs/zarrs/issues/1\"\n\
         [[failure]]\nids = [\"d\"]\nclause = \"c\"\nreason = \"r\"",
    )
    .unwrap();
    assert_eq!(
        known.issue_url("b"),
        Some("https://github.com/zarrs/zarrs/issues/1")
    );
    assert_eq!(known.issue_url("d"), None);
    // The reason stays as it was: the URL is a member of its own.
    assert_eq!(known.reason("a"), Some("r (c)"));
    let long = format!("https://x.org/{}", "a".repeat(crate::MAX_ISSUE_URL_BYTES));
    assert!(
        crate::check_issue_url(&long)
            .unwrap_err()
            .contains("at most")
    );
    for refused in [
        "https://",
        "https://.x.org/",
        "https://x.org:80a/",
        "https://x.org/\u{202e}",
    ] {
        assert!(crate::check_issue_url(refused).is_err(), "{refused}");
    }
}
