#![allow(dead_code)]
// Shared by the targets: the input is text, line by line, so that seeds are
// readable and a crash reproducer can be pasted into a test.

/// The first line and the rest of `text`.
pub fn split_line(text: &str) -> (&str, &str) {
    text.split_once('\n').unwrap_or((text, ""))
}

/// A JSON list of non-negative integers, e.g. `[100, 50, 64, 3]`.
pub fn u64_list(line: &str) -> Option<Vec<u64>> {
    serde_json::from_str::<Vec<u64>>(line).ok()
}

/// The element count of `shape` when it is small enough to allocate.
pub fn small_count(shape: &[u64]) -> Option<usize> {
    let count = shape
        .iter()
        .try_fold(1u64, |acc, &extent| acc.checked_mul(extent))?;
    (count <= 1 << 12 && shape.len() <= 32)
        .then(|| usize::try_from(count).ok())
        .flatten()
}
