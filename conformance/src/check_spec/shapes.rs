//! A decoded shape for a `shape` fragment, built so that every rule but the one
//! under discussion can hold: one extent per input dim (2, 3, 4, ... in order),
//! the sizes between two groups of input dims held by the dims between them, and
//! dims that nothing holds given extents above 1, as a decoded shape in general has.

use serde_json::Value;

/// The largest decoded rank built; fragments naming higher dims are left to the range rule.
const MAX_RANK: u64 = 32;

/// An element of a fragment's `shape`, read leniently (anything odd is `Other`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Element {
    Size(u64),
    Auto,
    Dims(Vec<u64>),
    Other(Value),
}

/// The elements of a `shape` array.
pub(crate) fn elements(value: &Value) -> Option<Vec<Element>> {
    let items = value.as_array()?;
    Some(
        items
            .iter()
            .map(|item| {
                if item.as_i64() == Some(-1) {
                    return Element::Auto;
                }
                if let Some(size) = item.as_u64().filter(|size| *size > 0) {
                    return Element::Size(size);
                }
                let dims: Option<Vec<u64>> = item
                    .as_array()
                    .and_then(|dims| dims.iter().map(Value::as_u64).collect());
                dims.map_or_else(|| Element::Other(item.clone()), Element::Dims)
            })
            .collect(),
    )
}

/// The same elements with their input dims put in increasing order, group sizes kept.
pub(crate) fn relabel(elements: &[Element]) -> Vec<Element> {
    let mut dims: Vec<u64> = elements
        .iter()
        .flat_map(|element| match element {
            Element::Dims(dims) => dims.clone(),
            _ => Vec::new(),
        })
        .collect();
    dims.sort_unstable();
    let mut sorted = dims.into_iter();
    elements
        .iter()
        .map(|element| match element {
            Element::Dims(dims) => Element::Dims(sorted.by_ref().take(dims.len()).collect()),
            other => other.clone(),
        })
        .collect()
}

/// The elements back as a `shape` array.
pub(crate) fn to_json(elements: &[Element]) -> Value {
    Value::Array(
        elements
            .iter()
            .map(|element| match element {
                Element::Size(size) => Value::from(*size),
                Element::Auto => Value::from(-1),
                Element::Dims(dims) => Value::from(dims.clone()),
                Element::Other(value) => value.clone(),
            })
            .collect(),
    )
}

/// A decoded shape, and why no shape lets every rule hold, if none does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Built {
    pub(crate) shape: Vec<u64>,
    pub(crate) obstacles: Vec<String>,
}

/// Builds the decoded shape for `elements` (whose input dims should increase).
pub(crate) fn build(elements: &[Element]) -> Built {
    let mut built = Built {
        shape: Vec::new(),
        obstacles: Vec::new(),
    };
    let groups: Vec<&Vec<u64>> = elements
        .iter()
        .filter_map(|element| match element {
            Element::Dims(dims) if !dims.is_empty() => Some(dims),
            _ => None,
        })
        .collect();
    let max_dim = groups.iter().flat_map(|dims| dims.iter()).copied().max();
    if let Some(max_dim) = max_dim.filter(|max_dim| *max_dim >= MAX_RANK) {
        built.obstacles.push(format!(
            "input dim {max_dim} is too high to build a decoded shape with one extent per dim"
        ));
        return built;
    }
    let rank = max_dim.map_or(0, |max_dim| max_dim.saturating_add(1));
    built.shape = vec![1; usize::try_from(rank).unwrap_or_default()];
    let mut next_extent: u64 = 2;
    for dim in groups.iter().flat_map(|dims| dims.iter()) {
        if let Some(extent) = usize::try_from(*dim)
            .ok()
            .and_then(|dim| built.shape.get_mut(dim))
        {
            *extent = next_extent;
            next_extent = next_extent.saturating_add(1);
        }
    }
    let mut product: u64 = 1;
    let mut auto = false;
    let mut other = false; // an element of the wrong kind: the rules reject it anyway
    let mut previous: Option<u64> = None; // the last dim of the group before
    for element in elements {
        match element {
            Element::Size(size) => match product.checked_mul(*size) {
                Some(next) => product = next,
                None => built
                    .obstacles
                    .push("the sizes multiply beyond 64 bits".into()),
            },
            Element::Auto => auto = true,
            Element::Dims(dims) => {
                let (Some(first), Some(last)) = (dims.first(), dims.last()) else {
                    continue;
                };
                let gap_start = previous.map_or(0, |previous| previous.saturating_add(1));
                let gap = (gap_start, *first);
                hold(
                    &mut built,
                    gap,
                    product,
                    auto || other,
                    &mut next_extent,
                    previous,
                );
                previous = Some(*last);
                product = 1;
                auto = false;
                other = false;
            }
            Element::Other(_) => other = true,
        }
    }
    if product != 1 || auto || (groups.is_empty() && !elements.is_empty()) {
        // What follows the last group (or a shape of sizes alone) gets a dim of its own.
        built.shape.push(if auto {
            product.saturating_mul(2)
        } else {
            product
        });
    }
    built
}

/// Lets the dims `gap_start..first` hold the sizes (and -1) between two groups.
/// Dims that nothing holds get extents above 1, as a decoded shape in general has.
fn hold(
    built: &mut Built,
    gap: (u64, u64),
    product: u64,
    auto: bool,
    next_extent: &mut u64,
    previous: Option<u64>,
) {
    let (gap_start, first) = gap;
    if gap_start >= first {
        if product != 1 {
            let place = match previous {
                Some(previous) => format!("between input dims {previous} and {first}"),
                None => format!("before input dim {first}"),
            };
            built.obstacles.push(format!(
                "the sizes {place} multiply to {product}, but no input dim lies there to hold them"
            ));
        }
        return;
    }
    let held = product != 1 || auto;
    for dim in gap_start..first {
        let Some(extent) = usize::try_from(dim)
            .ok()
            .and_then(|dim| built.shape.get_mut(dim))
        else {
            continue;
        };
        if held {
            if dim == gap_start {
                *extent = if auto {
                    product.saturating_mul(2)
                } else {
                    product
                };
            }
        } else {
            *extent = *next_extent;
            *next_extent = next_extent.saturating_add(1);
            built.obstacles.push(format!(
                "input dim {dim} is held by no element of shape, so it was given extent {extent}: \
                 the configuration can only resolve where that extent is 1"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shape_for(value: Value) -> Built {
        build(&relabel(&elements(&value).unwrap()))
    }

    #[test]
    fn builds_shapes_on_which_every_other_rule_holds() {
        assert_eq!(
            shape_for(json!([[0, 1], 10, [3, 4]])).shape,
            [2, 3, 10, 4, 5]
        );
        assert_eq!(
            shape_for(json!([[3, 4], 10, [0, 1]])).shape,
            [2, 3, 10, 4, 5]
        );
        assert_eq!(shape_for(json!([[1], [0]])).shape, [2, 3]);
        assert_eq!(shape_for(json!([[0, 1], [2], 3])).shape, [2, 3, 4, 3]);
        assert_eq!(shape_for(json!([4, -1])).shape, [8]);
        assert_eq!(shape_for(json!([[1], -1])).shape, [3, 2, 2]);
        assert_eq!(shape_for(json!([[0], [2], -1])).shape, [2, 4, 3, 2]);
        assert!(shape_for(json!([[0], 5, [1]])).obstacles.len() == 1);
    }
}
