//! The codec chain walked once for every chunk of the grid at the same time: the
//! steps of `resolve_codecs` (`super::super::shapes`), in its order, on shapes
//! whose extents are monomials. A rule that depends on the chunk's shape becomes a
//! [`Rule`] asked of every chunk; a rule that does not (a rank, an `endian`, the
//! codecs' order, an inner chunk shape) gives every chunk the same answer, so its
//! breaking chunk is the first one.

use zarr_reshape::limits::MAX_RANK;
use zarr_reshape::{ReshapeConfiguration, ShapeElement};

use super::super::ZarrError;
use super::super::codecs::{Codec, Sharding};
use super::super::shapes::{ChainShapes, MAX_CODECS, bytes_endian, bytes_to_bytes, resolve_codecs};
use super::domain::{Domain, Point, Rule};
use super::mono::{Gap, Mono};
use crate::arrays::DataType;

/// Why the walk stopped before the end of the chain.
#[derive(Debug, Clone)]
pub(super) enum Stop {
    /// This chunk breaks a rule that every chunk before the rule keeps.
    Broken(Point),
    /// Every chunk reaches a codec this reader does not implement.
    Unsupported,
    /// Outside the model (see [`Gap`]).
    Gap,
}

impl From<Gap> for Stop {
    fn from(_: Gap) -> Self {
        Self::Gap
    }
}

/// What a walk that reaches the end gives: the shape after each array -> array
/// codec, and for `sharding_indexed` the inner chain's shapes.
pub(super) type Walked = (Vec<Vec<Mono>>, Option<ChainShapes>);

/// Every chunk keeps `rule`, or the walk stops at a chunk that breaks it.
fn require(domain: &Domain, rule: Rule) -> Result<(), Stop> {
    match domain.breaking(&rule)? {
        None => Ok(()),
        Some(point) => Err(Stop::Broken(point)),
    }
}

/// A rule every chunk answers alike: its error stops the walk at the first chunk.
fn alike<T>(domain: &Domain, answer: Result<T, ZarrError>) -> Result<T, Stop> {
    answer.map_err(|error| {
        if error.is_unsupported() {
            Stop::Unsupported
        } else {
            Stop::Broken(domain.base())
        }
    })
}

/// The walk of `resolve_codecs` over `codecs`, handed `shape`.
pub(super) fn walk(
    codecs: &[Codec],
    mut shape: Vec<Mono>,
    data_type: DataType,
    domain: &Domain,
) -> Result<Walked, Stop> {
    let everywhere = || Stop::Broken(domain.base());
    if codecs.len() > MAX_CODECS {
        return Err(everywhere());
    }
    let mut steps = Vec::new();
    let mut rest = codecs.iter();
    let inner = loop {
        match rest.next() {
            Some(Codec::Transpose(order)) => {
                if order.len() != shape.len() {
                    return Err(everywhere());
                }
                shape = order
                    .iter()
                    .filter_map(|d| shape.get(*d).cloned())
                    .collect();
            }
            Some(Codec::Reshape(configuration)) => {
                shape = reshaped(configuration, &shape, domain)?;
            }
            Some(Codec::Bytes(endian)) => {
                alike(domain, bytes_endian(*endian, data_type))?;
                break None;
            }
            Some(Codec::Sharding(sharding)) => {
                break Some(sharded(sharding, shape.clone(), data_type, domain)?);
            }
            Some(Codec::Unsupported {
                bytes_to_bytes: false,
                ..
            }) => return Err(Stop::Unsupported),
            Some(Codec::Compress(_) | Codec::Unsupported { .. }) | None => {
                return Err(everywhere());
            }
        }
        steps.push(shape.clone());
    };
    alike(domain, bytes_to_bytes(rest))?;
    Ok((steps, inner))
}

/// `sharding_indexed` handed shards of `shape`: the inner chunk shape divides every
/// shard; the inner chain is resolved once (its chunk shape is fixed); the index
/// chain is walked over `shard / inner + [2]`.
fn sharded(
    sharding: &Sharding,
    shape: Vec<Mono>,
    data_type: DataType,
    domain: &Domain,
) -> Result<ChainShapes, Stop> {
    if sharding.chunk_shape.len() != shape.len() {
        return Err(Stop::Broken(domain.base()));
    }
    let mut index_shape = Vec::with_capacity(shape.len().saturating_add(1));
    for (extent, chunk) in shape.iter().zip(&sharding.chunk_shape) {
        let count = extent.over(&Mono::constant(*chunk))?;
        require(domain, Rule::Integral(count.clone()))?;
        index_shape.push(count);
    }
    index_shape.push(Mono::constant(2));
    let inner = alike(
        domain,
        resolve_codecs(&sharding.codecs, &sharding.chunk_shape, data_type),
    )?;
    walk(
        &sharding.index_codecs,
        index_shape,
        DataType::UInt64,
        domain,
    )?;
    Ok(inner)
}

/// `reshape` handed `a` (A_shape), in the order of the library's resolution
/// (`src/resolve.rs`): per element its size or input dims (in range, the product
/// without overflow), `prod(A_shape)`, the -1, the invariant, then each input-dims
/// element's prefix and suffix rule.
fn reshaped(
    configuration: &ReshapeConfiguration,
    a: &[Mono],
    domain: &Domain,
) -> Result<Vec<Mono>, Stop> {
    let everywhere = || Stop::Broken(domain.base());
    if a.len() > MAX_RANK {
        return Err(everywhere());
    }
    let elements = configuration.shape();
    let mut b: Vec<Option<Mono>> = Vec::with_capacity(elements.len());
    let mut auto = None;
    for (element, item) in elements.iter().enumerate() {
        b.push(match item {
            ShapeElement::Size(size) => Some(Mono::constant(*size)),
            ShapeElement::InputDims(dims) => {
                let picked = dims
                    .iter()
                    .map(|d| usize::try_from(*d).ok().and_then(|d| a.get(d)))
                    .collect::<Option<Vec<&Mono>>>()
                    .ok_or_else(everywhere)?;
                let group = Mono::product(picked)?;
                require(domain, Rule::Fits(group.clone()))?;
                Some(group)
            }
            ShapeElement::Auto => {
                auto = Some(element);
                None
            }
        });
    }
    let a_product = Mono::product(a)?;
    require(domain, Rule::Fits(a_product.clone()))?;
    if let Some(element) = auto {
        let others = Mono::product(b.iter().flatten())?;
        require(domain, Rule::Fits(others.clone()))?;
        let value = a_product.over(&others)?;
        require(domain, Rule::Integral(value.clone()))?;
        if let Some(slot) = b.get_mut(element) {
            *slot = Some(value);
        }
    }
    let b: Vec<Mono> = b.into_iter().flatten().collect();
    let b_product = Mono::product(&b)?;
    require(domain, Rule::Fits(b_product.clone()))?;
    require(domain, Rule::Equal(b_product, a_product))?;
    let aligning = elements
        .iter()
        .any(|item| matches!(item, ShapeElement::InputDims(dims) if !dims.is_empty()));
    if !aligning {
        return Ok(b);
    }
    // prod(B_shape[:i]), prod(B_shape[i:]) and the same of A_shape, each built once.
    let (b_before, b_from) = (running(b.iter())?, running(b.iter().rev())?);
    let (a_before, a_from) = (running(a.iter())?, running(a.iter().rev())?);
    let from_end = |products: &[Mono], start: usize| {
        products
            .len()
            .checked_sub(1)
            .and_then(|len| len.checked_sub(start))
            .and_then(|at| products.get(at))
            .cloned()
    };
    for (element, item) in elements.iter().enumerate() {
        let ShapeElement::InputDims(dims) = item else {
            continue;
        };
        let (Some(first), Some(last)) = (dims.first(), dims.last()) else {
            continue;
        };
        let first = usize::try_from(*first).map_err(|_| everywhere())?;
        let after = usize::try_from(*last)
            .ok()
            .and_then(|last| last.checked_add(1))
            .ok_or_else(everywhere)?;
        let next = element.checked_add(1).ok_or_else(everywhere)?;
        aligned(
            domain,
            b_before.get(element).cloned(),
            a_before.get(first).cloned(),
        )?;
        aligned(domain, from_end(&b_from, next), from_end(&a_from, after))?;
    }
    Ok(b)
}

/// The running products of `monos`: entry `i` is the product of the first `i`.
fn running<'a>(monos: impl Iterator<Item = &'a Mono>) -> Result<Vec<Mono>, Gap> {
    let mut products = vec![Mono::constant(1)];
    let mut product = Mono::constant(1);
    for mono in monos {
        product = product.times(mono)?;
        products.push(product.clone());
    }
    Ok(products)
}

/// input-dims.prefix or .suffix: the products of a part of B_shape and of a part
/// of A_shape agree (each checked for overflow first, as the library does).
fn aligned(domain: &Domain, b_product: Option<Mono>, a_product: Option<Mono>) -> Result<(), Stop> {
    let (Some(b_product), Some(a_product)) = (b_product, a_product) else {
        return Err(Stop::Gap);
    };
    require(domain, Rule::Fits(b_product.clone()))?;
    require(domain, Rule::Fits(a_product.clone()))?;
    require(domain, Rule::Equal(b_product, a_product))
}
