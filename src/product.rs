//! Checked products of extents, the arithmetic every clause is written in.

/// The product of `factors`, or `None` when it does not fit in 64 bits.
///
/// A zero factor makes the product 0 even when the factors before it overflowed,
/// as `prod` does over the integers.
#[inline]
pub(crate) fn product(factors: impl IntoIterator<Item = u64>) -> Option<u64> {
    let mut acc: u64 = 1;
    let mut overflowed = false;
    for factor in factors {
        if factor == 0 {
            return Some(0);
        }
        match acc.checked_mul(factor) {
            Some(next) => acc = next,
            None => overflowed = true,
        }
    }
    (!overflowed).then_some(acc)
}

/// `prod(shape[range])` for a range of a shape given as a slice; an empty range is 1.
#[inline]
pub(crate) fn product_of(shape: &[u64]) -> Option<u64> {
    product(shape.iter().copied())
}

/// A list of numbers as the spec writes shapes: `[2, 3, 4]`.
pub(crate) fn list(values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_factor_wins_over_an_earlier_overflow() {
        assert_eq!(product([u64::MAX, 2, 0]), Some(0));
        assert_eq!(product([u64::MAX, 2]), None);
        assert_eq!(product([]), Some(1));
    }
}
