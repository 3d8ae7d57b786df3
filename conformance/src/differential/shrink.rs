//! A second shrinking pass, after proptest's: parts of a case that must shrink
//! together, or that proptest cannot shrink past a strategy's minimum (the dims of a
//! rank-250 decoded shape, where dropping every extra dim at once changes the kind
//! of the disagreement). Greedy: blocks of dims and elements removed, halving the
//! block size, extents lowered to 1 or 2, operands simplified; a candidate is kept
//! when it still disagrees the same way.

use std::time::{Duration, Instant};

use super::generate::{Coordinate, Draft, Operand, Wrapper};

/// How long the second pass may take.
pub const MAX_PASS_TIME: Duration = Duration::from_secs(10);

/// The smallest draft found that `still_fails`, and how many candidates were tried.
pub fn minimize(mut draft: Draft, mut still_fails: impl FnMut(&Draft) -> bool) -> (Draft, u64) {
    let started = Instant::now();
    let mut tried = 0_u64;
    loop {
        let mut improved = false;
        for candidate in candidates(&draft) {
            if started.elapsed() > MAX_PASS_TIME {
                return (draft, tried);
            }
            if candidate == draft {
                continue;
            }
            tried = tried.saturating_add(1);
            if still_fails(&candidate) {
                draft = candidate;
                improved = true;
                break;
            }
        }
        if !improved {
            return (draft, tried);
        }
    }
}

/// Simpler variants of `draft`, the boldest first.
fn candidates(draft: &Draft) -> Vec<Draft> {
    let mut out = Vec::new();
    for shorter in without_blocks(&draft.decoded_shape) {
        out.push(Draft {
            decoded_shape: shorter,
            ..draft.clone()
        });
    }
    for shorter in without_blocks(&draft.elements) {
        out.push(Draft {
            elements: shorter,
            ..draft.clone()
        });
    }
    for (dim, extent) in draft.decoded_shape.iter().enumerate() {
        for lower in [1_u64, 2] {
            if *extent > lower {
                let mut decoded_shape = draft.decoded_shape.clone();
                if let Some(slot) = decoded_shape.get_mut(dim) {
                    *slot = lower;
                }
                out.push(Draft {
                    decoded_shape,
                    ..draft.clone()
                });
            }
        }
    }
    if draft.wrapper != Wrapper::Plain {
        out.push(Draft {
            wrapper: Wrapper::Plain,
            ..draft.clone()
        });
    }
    if !draft.complete {
        out.push(Draft {
            complete: true,
            ..draft.clone()
        });
    }
    out.extend(
        simpler_operands(&draft.operand)
            .into_iter()
            .map(|operand| Draft {
                operand,
                ..draft.clone()
            }),
    );
    out
}

fn simpler_operands(operand: &Operand) -> Vec<Operand> {
    match operand {
        Operand::Resolve => Vec::new(),
        Operand::Array {
            decode,
            data_type,
            values,
            wrong_shape,
        } => {
            let mut out: Vec<Operand> = without_blocks(values)
                .into_iter()
                .filter(|values| !values.is_empty())
                .map(|values| Operand::Array {
                    decode: *decode,
                    data_type: *data_type,
                    values,
                    wrong_shape: wrong_shape.clone(),
                })
                .collect();
            if values.iter().any(Option::is_some) {
                out.push(Operand::Array {
                    decode: *decode,
                    data_type: *data_type,
                    values: vec![None],
                    wrong_shape: wrong_shape.clone(),
                });
            }
            out
        }
        Operand::Index {
            coordinates,
            rank_change,
        } => (0..coordinates.len())
            .filter(|at| coordinates.get(*at) != Some(&Coordinate::First))
            .map(|at| {
                let mut coordinates = coordinates.clone();
                if let Some(slot) = coordinates.get_mut(at) {
                    *slot = Coordinate::First;
                }
                Operand::Index {
                    coordinates,
                    rank_change: *rank_change,
                }
            })
            .collect(),
        Operand::Region {
            sides,
            reversed,
            rank_change,
        } => (0..sides.len())
            .filter(|at| sides.get(*at) != Some(&(Coordinate::First, 1)))
            .map(|at| {
                let mut sides = sides.clone();
                if let Some(slot) = sides.get_mut(at) {
                    *slot = (Coordinate::First, 1);
                }
                Operand::Region {
                    sides,
                    reversed: *reversed,
                    rank_change: *rank_change,
                }
            })
            .collect(),
    }
}

/// `items` with one block removed, for blocks of half the length, a quarter, ... 1.
fn without_blocks<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    let mut out = Vec::new();
    let mut size = items.len().div_ceil(2);
    while size > 0 {
        let mut start = 0;
        while start < items.len() {
            let end = start.saturating_add(size).min(items.len());
            let mut shorter = items.get(..start).unwrap_or(&[]).to_vec();
            shorter.extend_from_slice(items.get(end..).unwrap_or(&[]));
            out.push(shorter);
            start = end;
        }
        size /= 2;
    }
    out
}
