//! `B_shape` in exact integers, for the readings the library does not take: I-7's
//! exact integers (an implementation with big integers answers what the rules
//! give, however large) and I-10's
//! unbounded sizes (no limit on `len(shape)`, on input dims per element, or on the
//! decoded rank).
//!
//! A second, deliberately plain evaluation of the spec's rules, in the order of
//! reading I-8, independent of the library's code; `tests/levels.rs` holds it to
//! the library's verdict wherever both read the case the same way.

use num_bigint::{BigInt, BigUint};
use num_traits::CheckedEuclid;
use serde_json::Value;
use zarr_reshape::ErrorClass;
use zarr_reshape::limits::{MAX_INPUT_DIMS, MAX_RANK, MAX_SHAPE_LEN};

/// Which of the two readings the evaluation takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// I-7: products are exact (`true`), or a size or product beyond 64 bits is
    /// `overflow` (`false`, the reference's reading).
    pub exact: bool,
    /// I-10: the limits of 256 hold (`true`, the reference's reading) or not.
    pub bounded: bool,
    /// I-9: a -1 whose other extents multiply to 0 takes the value the prefix or
    /// suffix rule fixes (`true`), or cannot be determined (`false`, the reference's).
    pub auto_by_alignment: bool,
}

impl Mode {
    /// The reference's readings.
    pub const REFERENCE: Self = Self {
        exact: false,
        bounded: true,
        auto_by_alignment: false,
    };
}

/// One element of `shape`, read exactly.
enum Element {
    Size(BigUint),
    InputDims(Vec<BigUint>),
    Auto,
}

/// `B_shape` for the JSON `shape` on `a_shape` under `mode`, or the class of the
/// first rule it breaks (in the order of I-8).
///
/// # Errors
/// The class of the first rule broken.
pub fn resolve(shape: &Value, a_shape: &[u64], mode: Mode) -> Result<Vec<BigUint>, ErrorClass> {
    let elements = parse(shape, mode)?;
    // limits.rank (I-10): the decoded rank.
    if mode.bounded && a_shape.len() > MAX_RANK {
        return Err(ErrorClass::ShapeMismatch);
    }
    let a_shape: Vec<BigUint> = a_shape
        .iter()
        .map(|&extent| BigUint::from(extent))
        .collect();
    let limit = BigUint::from(u64::MAX);
    // limits.u64 (I-7): under the reference's reading every product is checked.
    let fits = |value: BigUint| -> Result<BigUint, ErrorClass> {
        if mode.exact || value <= limit {
            Ok(value)
        } else {
            Err(ErrorClass::Overflow)
        }
    };
    let product = |extents: &[BigUint]| fits(extents.iter().product());
    // input-dims.range: every input dim names a dimension of A.
    let rank = BigUint::from(a_shape.len());
    let out_of_range = elements.iter().any(|element| {
        matches!(element, Element::InputDims(dims) if dims.iter().any(|dim| *dim >= rank))
    });
    if out_of_range {
        return Err(ErrorClass::InputDimOutOfRange);
    }
    let a_product = product(&a_shape)?;
    // shape.size and shape.input-dims: the known extents; None marks the -1.
    let mut b_shape: Vec<Option<BigUint>> = Vec::new();
    for element in &elements {
        b_shape.push(match element {
            Element::Size(size) => Some(fits(size.clone())?),
            Element::InputDims(dims) => Some(product(&picked(&a_shape, dims))?),
            Element::Auto => None,
        });
    }
    let others: Vec<BigUint> = b_shape.iter().flatten().cloned().collect();
    let others_product = product(&others)?;
    if let Some(auto) = b_shape.iter().position(Option::is_none) {
        // shape.auto.value: the one extent that makes the counts agree; none when
        // the other extents multiply to 0 (I-9) or do not divide prod(A_shape).
        let divides = a_product.checked_rem_euclid(&others_product) == Some(BigUint::ZERO);
        let by_alignment = || {
            (mode.auto_by_alignment && others_product == BigUint::ZERO)
                .then(|| fixed_by_alignment(&elements, &a_shape, &b_shape, auto))
                .flatten()
        };
        let value = a_product
            .checked_div_euclid(&others_product)
            .filter(|_| divides)
            .or_else(by_alignment)
            .ok_or(ErrorClass::ElementCountMismatch)?;
        if let Some(slot) = b_shape.get_mut(auto) {
            *slot = Some(value);
        }
    } else if others_product != a_product {
        // shape.invariant: prod(B_shape) == prod(A_shape).
        return Err(ErrorClass::ElementCountMismatch);
    }
    let b_shape: Vec<BigUint> = b_shape.into_iter().flatten().collect();
    aligned(&elements, &a_shape, &b_shape, &product)?;
    Ok(b_shape)
}

/// The value of the -1 at `auto` that the prefix or suffix rule of an element with
/// input dims fixes, where the other extents it compares are nonzero (I-9's other
/// reading, when the invariant leaves the -1 free).
fn fixed_by_alignment(
    elements: &[Element],
    a_shape: &[BigUint],
    b_shape: &[Option<BigUint>],
    auto: usize,
) -> Option<BigUint> {
    let solve = |b_part: &[Option<BigUint>], a_part: &[BigUint]| -> Option<BigUint> {
        let others: BigUint = b_part.iter().flatten().product();
        let target: BigUint = a_part.iter().product();
        let value = target.checked_div_euclid(&others)?;
        (target.checked_rem_euclid(&others)? == BigUint::ZERO).then_some(value)
    };
    elements.iter().enumerate().find_map(|(i, element)| {
        let Element::InputDims(dims) = element else {
            return None;
        };
        let first = usize::try_from(dims.first()?).ok()?;
        let last = usize::try_from(dims.last()?).ok()?;
        if auto < i {
            solve(b_shape.get(..i)?, a_shape.get(..first)?)
        } else if auto > i {
            solve(
                b_shape.get(i.checked_add(1)?..)?,
                a_shape.get(last.checked_add(1)?..)?,
            )
        } else {
            None
        }
    })
}

/// input-dims.prefix and input-dims.suffix for every element with input dims.
fn aligned(
    elements: &[Element],
    a_shape: &[BigUint],
    b_shape: &[BigUint],
    product: &dyn Fn(&[BigUint]) -> Result<BigUint, ErrorClass>,
) -> Result<(), ErrorClass> {
    for (i, element) in elements.iter().enumerate() {
        let Element::InputDims(dims) = element else {
            continue;
        };
        let (Some(first), Some(last)) = (dims.first(), dims.last()) else {
            continue;
        };
        let (Ok(first), Ok(last)) = (usize::try_from(first), usize::try_from(last)) else {
            return Err(ErrorClass::InputDimOutOfRange);
        };
        let after = i.saturating_add(1);
        let tail = last.saturating_add(1);
        // prod(B_shape[:i]) == prod(A_shape[:input_dims[0]])
        let prefix = product(b_shape.get(..i).unwrap_or_default())?
            == product(a_shape.get(..first).unwrap_or_default())?;
        // prod(B_shape[i+1:]) == prod(A_shape[input_dims[k-1]+1:])
        let suffix = product(b_shape.get(after..).unwrap_or_default())?
            == product(a_shape.get(tail..).unwrap_or_default())?;
        if !(prefix && suffix) {
            return Err(ErrorClass::InputDimsMisaligned);
        }
    }
    Ok(())
}

fn picked(a_shape: &[BigUint], dims: &[BigUint]) -> Vec<BigUint> {
    dims.iter()
        .filter_map(|dim| usize::try_from(dim).ok())
        .filter_map(|dim| a_shape.get(dim).cloned())
        .collect()
}

/// The elements of `shape`, with the checks the JSON alone decides.
fn parse(shape: &Value, mode: Mode) -> Result<Vec<Element>, ErrorClass> {
    let items = shape.as_array().ok_or(ErrorClass::MalformedConfiguration)?;
    // limits.rank (I-10): the length of shape.
    if mode.bounded && items.len() > MAX_SHAPE_LEN {
        return Err(ErrorClass::MalformedConfiguration);
    }
    let mut elements = Vec::new();
    for item in items {
        elements.push(element(item, mode)?);
    }
    // shape.auto.once: -1 at most once.
    if elements
        .iter()
        .filter(|e| matches!(e, Element::Auto))
        .count()
        > 1
    {
        return Err(ErrorClass::RepeatedAuto);
    }
    // input-dims.increasing: the flattened input dims strictly increase.
    let flattened: Vec<&BigUint> = elements
        .iter()
        .filter_map(|e| match e {
            Element::InputDims(dims) => Some(dims.iter()),
            _ => None,
        })
        .flatten()
        .collect();
    if flattened.windows(2).any(|pair| pair.first() >= pair.get(1)) {
        return Err(ErrorClass::InputDimsNotIncreasing);
    }
    Ok(elements)
}

fn element(item: &Value, mode: Mode) -> Result<Element, ErrorClass> {
    match item {
        Value::Number(_) => {
            let size = integer(item)?;
            if size == BigInt::from(-1) {
                return Ok(Element::Auto);
            }
            // shape.size: a positive integer.
            let size = BigUint::try_from(size).map_err(|_| ErrorClass::InvalidSize)?;
            if size == BigUint::ZERO {
                return Err(ErrorClass::InvalidSize);
            }
            Ok(Element::Size(size))
        }
        Value::Array(dims) => {
            if mode.bounded && dims.len() > MAX_INPUT_DIMS {
                return Err(ErrorClass::MalformedConfiguration);
            }
            let mut read = Vec::new();
            for dim in dims {
                // I-4: a negative input dim is not of the codec's form.
                let dim = BigUint::try_from(integer(dim)?)
                    .map_err(|_| ErrorClass::MalformedConfiguration)?;
                read.push(dim);
            }
            Ok(Element::InputDims(read))
        }
        _ => Err(ErrorClass::MalformedConfiguration),
    }
}

/// A JSON integer as written (a fraction or an exponent is no integer: I-6's
/// other reading is applied by rewriting the JSON before this runs).
fn integer(item: &Value) -> Result<BigInt, ErrorClass> {
    let Value::Number(number) = item else {
        return Err(ErrorClass::MalformedConfiguration);
    };
    number
        .to_string()
        .parse::<BigInt>()
        .map_err(|_| ErrorClass::MalformedConfiguration)
}
