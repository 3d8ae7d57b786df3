//! Vector files written as the hand-written ones are: `format` first, the members
//! of a case in the order of `spec-cases/README.md`, one per line, values on one
//! line with a space after each comma and colon.

use serde_json::Value;

/// The members of a case, in the order the suite writes them; others follow.
const ORDER: &[&str] = &[
    "id",
    "description",
    "clauses",
    "interpretations",
    "level",
    "operation",
    "configuration",
    "codec",
    "decoded_shape",
    "input",
    "decoded_index",
    "decoded_region",
    "expect",
];

/// A value on one line: `{"shape": [[0], 2]}`.
#[must_use]
pub fn spaced(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(spaced).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(members) => {
            let members: Vec<String> = members
                .iter()
                .map(|(key, value)| format!("{}: {}", Value::from(key.as_str()), spaced(value)))
                .collect();
            format!("{{{}}}", members.join(", "))
        }
        other => other.to_string(),
    }
}

/// A vector file (format 1) holding one case.
#[must_use]
pub fn vector_file(case: &Value) -> String {
    let mut lines = Vec::new();
    if let Some(members) = case.as_object() {
        let known = ORDER.iter().filter_map(|key| members.get_key_value(*key));
        let others = members
            .iter()
            .filter(|(key, _)| !ORDER.contains(&key.as_str()));
        for (key, value) in known.chain(others) {
            lines.push(format!(
                "    {}: {}",
                Value::from(key.as_str()),
                spaced(value)
            ));
        }
    }
    format!(
        "{{\n  \"format\": {},\n  \"cases\": [{{\n{}\n  }}]\n}}\n",
        crate::vector::FORMAT,
        lines.join(",\n")
    )
}
