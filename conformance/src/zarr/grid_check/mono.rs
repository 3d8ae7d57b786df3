//! Rational monomials over the grid's variables: `num / den * prod(x_v for v in vars)`,
//! exact (big integers), `num / den` in lowest terms. Every extent a codec chain
//! computes from a chunk's shape is one of these (see the module documentation of
//! [`super`]).

use num_bigint::BigUint;
use num_traits::{CheckedDiv, CheckedEuclid, CheckedMul, One, Zero};

/// `num / den * prod(x_v for v in vars)`; `vars` sorted, without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Mono {
    pub(super) num: BigUint,
    pub(super) den: BigUint,
    pub(super) vars: Vec<usize>,
}

/// The greatest common divisor (Euclid); `gcd(0, b) = b`.
pub(super) fn gcd(a: &BigUint, b: &BigUint) -> BigUint {
    let (mut a, mut b) = (a.clone(), b.clone());
    while !b.is_zero() {
        let rest = a.checked_rem_euclid(&b).unwrap_or_default();
        a = b;
        b = rest;
    }
    a
}

/// `a * b`.
pub(super) fn mul(a: &BigUint, b: &BigUint) -> BigUint {
    a.checked_mul(b).unwrap_or_default()
}

/// `a / b` for a `b` that divides `a` (0 for `b = 0`, never asked).
pub(super) fn div(a: &BigUint, b: &BigUint) -> BigUint {
    a.checked_div(b).unwrap_or_default()
}

/// `num / den` in lowest terms.
pub(super) fn reduced(num: BigUint, den: BigUint) -> (BigUint, BigUint) {
    let common = gcd(&num, &den);
    if common.is_one() || common.is_zero() {
        return (num, den);
    }
    (div(&num, &common), div(&den, &common))
}

/// Two monomials share a variable, or a quotient's divisor has a variable its
/// dividend lacks: outside the model (see [`super`]); never expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Gap;

impl Mono {
    /// The constant `value`.
    pub(super) fn constant(value: u64) -> Self {
        Self {
            num: BigUint::from(value),
            den: BigUint::one(),
            vars: Vec::new(),
        }
    }

    /// The variable `x_v`.
    pub(super) fn var(v: usize) -> Self {
        Self {
            num: BigUint::one(),
            den: BigUint::one(),
            vars: vec![v],
        }
    }

    /// `self * other`, for monomials over disjoint variables.
    pub(super) fn times(&self, other: &Self) -> Result<Self, Gap> {
        let mut vars = self.vars.clone();
        for v in &other.vars {
            match vars.binary_search(v) {
                Ok(_) => return Err(Gap),
                Err(at) => vars.insert(at, *v),
            }
        }
        let (num, den) = reduced(mul(&self.num, &other.num), mul(&self.den, &other.den));
        Ok(Self { num, den, vars })
    }

    /// `self / other`, for an `other` whose variables are all `self`'s and whose
    /// constant is not 0.
    pub(super) fn over(&self, other: &Self) -> Result<Self, Gap> {
        if other.num.is_zero()
            || other
                .vars
                .iter()
                .any(|v| self.vars.binary_search(v).is_err())
        {
            return Err(Gap);
        }
        let vars = self
            .vars
            .iter()
            .filter(|v| other.vars.binary_search(v).is_err())
            .copied()
            .collect();
        let (num, den) = reduced(mul(&self.num, &other.den), mul(&self.den, &other.num));
        Ok(Self { num, den, vars })
    }

    /// The product of `monos` (1 for none).
    pub(super) fn product<'a>(monos: impl IntoIterator<Item = &'a Self>) -> Result<Self, Gap> {
        monos
            .into_iter()
            .try_fold(Self::constant(1), |acc, mono| acc.times(mono))
    }

    /// The monomial with the variables `value` gives a value substituted into
    /// the constant: `value(v)` is `Some(x)` for a variable fixed to `x`.
    pub(super) fn substituted(&self, value: impl Fn(usize) -> Option<u64>) -> Self {
        let mut num = self.num.clone();
        let mut vars = Vec::new();
        for v in &self.vars {
            match value(*v) {
                Some(x) => num = mul(&num, &BigUint::from(x)),
                None => vars.push(*v),
            }
        }
        let (num, den) = reduced(num, self.den.clone());
        Self { num, den, vars }
    }

    /// The value with every variable fixed by `value`, when it is an integer
    /// that fits in `u64`.
    pub(super) fn at(&self, value: impl Fn(usize) -> Option<u64>) -> Option<u64> {
        let fixed = self.substituted(value);
        if !fixed.vars.is_empty() || !fixed.den.is_one() {
            return None;
        }
        u64::try_from(&fixed.num).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_and_quotients_stay_in_lowest_terms() {
        let x = Mono::var(0);
        let y = Mono::var(1);
        let six_xy = Mono::constant(6).times(&x).unwrap().times(&y).unwrap();
        let quarter_y = six_xy.over(&Mono::constant(24).times(&x).unwrap()).unwrap();
        assert_eq!(quarter_y.num, BigUint::from(1u8));
        assert_eq!(quarter_y.den, BigUint::from(4u8));
        assert_eq!(quarter_y.vars, vec![1]);
        assert_eq!(quarter_y.at(|_| Some(8)), Some(2));
        assert_eq!(quarter_y.at(|_| Some(6)), None);
        assert_eq!(x.times(&x), Err(Gap));
        assert_eq!(x.over(&y), Err(Gap));
    }
}
