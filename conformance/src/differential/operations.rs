//! The operations a fuzzing run may be limited to (`--operations`), checked before
//! any case runs: an unknown name or an operation the implementation does not list
//! would otherwise be dropped, and something else fuzzed in its place.

use crate::wire::OPERATIONS;

/// Checks the operations asked for against those the generator draws (the first
/// vector format's, [`OPERATIONS`]: `read-array` and `resolve-chain` need fixtures
/// and chains it does not make) and those the implementation lists in its `start`
/// answer.
///
/// # Errors
/// A message naming the unknown names with the valid ones, or the unlisted ones
/// with those the implementation lists.
pub fn check_operations(wanted: &[String], listed: &[String]) -> Result<(), String> {
    let unknown: Vec<&str> = wanted
        .iter()
        .map(String::as_str)
        .filter(|name| !OPERATIONS.contains(name))
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "--operations: unknown operation(s) {}; fuzz generates {}",
            unknown.join(", "),
            OPERATIONS.join(", ")
        ));
    }
    let unlisted: Vec<&str> = wanted
        .iter()
        .map(String::as_str)
        .filter(|name| !listed.iter().any(|op| op == name))
        .collect();
    if unlisted.is_empty() {
        return Ok(());
    }
    let listed = if listed.is_empty() {
        "none".to_string()
    } else {
        listed.join(", ")
    };
    Err(format!(
        "--operations: the implementation does not list {} (its start answer lists {listed})",
        unlisted.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| (*name).to_string()).collect()
    }

    #[test]
    fn unknown_and_unlisted_operations_are_refused_by_name() {
        let listed = names(&["resolve", "encode"]);
        assert_eq!(check_operations(&names(&["resolve"]), &listed), Ok(()));
        let unknown = check_operations(&names(&["resolv", "encode"]), &listed).unwrap_err();
        assert!(
            unknown.contains("unknown operation(s) resolv;"),
            "{unknown}"
        );
        assert!(unknown.contains("resolve, encode, decode, map-index, map-region"));
        let unlisted = check_operations(&names(&["decode", "map-index"]), &listed).unwrap_err();
        assert!(
            unlisted.contains("does not list decode, map-index"),
            "{unlisted}"
        );
        assert!(unlisted.contains("lists resolve, encode"), "{unlisted}");
        let chain = check_operations(&names(&["resolve-chain"]), &listed).unwrap_err();
        assert!(chain.contains("unknown"), "{chain}");
    }
}
