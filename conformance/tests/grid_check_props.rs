//! `check_grid` against brute force: on random grids (regular and rectilinear) and
//! random codec chains (transposes, reshapes from random configurations, valid or
//! not, bytes, compressors, sharding with reshapes before it, inside it and in its
//! index codecs), the structural answer agrees with resolving the chain on every
//! chunk's shape (`resolve_chain`): same verdict; on success the same extent sets,
//! whose Cartesian product is the set of shapes; on refusal a chunk of the grid
//! that `resolve_chain` refuses with the same error.
// Test code: small sizes this file picks.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::print_stderr
)]

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{Value, json};
use zarr_reshape_conformance::DataType;
use zarr_reshape_conformance::zarr::{GridVerdict, ZarrError, check_grid_json, resolve_chain};

/// A small deterministic generator: the chain depends on ranks known only while
/// it is built.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

const SIZES: [u64; 10] = [1, 2, 2, 3, 4, 4, 6, 8, 12, 24];

fn transpose(rng: &mut Rng, rank: usize) -> Value {
    let len = if rng.chance(8) { rank + 1 } else { rank };
    let mut order: Vec<usize> = (0..len).collect();
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    json!({"name": "transpose", "configuration": {"order": order}})
}

/// A reshape for rank `rank`, and the rank it encodes to.
fn reshape(rng: &mut Rng, rank: usize) -> (Value, usize) {
    let mut elements: Vec<Value> = Vec::new();
    let mut auto = false;
    let mut group: Vec<usize> = Vec::new();
    for d in 0..rank {
        group.push(d);
        if d + 1 < rank && rng.chance(50) {
            continue;
        }
        let dims = std::mem::take(&mut group);
        match rng.below(12) {
            // The group split in two: valid for the chunks whose extents it divides.
            5..=7 if !auto => {
                auto = true;
                let size = rng.pick(&SIZES);
                if rng.chance(50) {
                    elements.extend([json!(-1), json!(size)]);
                } else {
                    elements.extend([json!(size), json!(-1)]);
                }
            }
            8 if !auto => {
                auto = true;
                elements.push(json!(-1));
            }
            9 => elements.push(json!(rng.pick(&SIZES))),
            0..=8 => elements.push(json!(dims)),
            10 => {
                elements.push(json!(dims));
                elements.push(json!(rng.pick(&SIZES)));
            }
            _ => {}
        }
    }
    let at = |rng: &mut Rng, len: usize| rng.below(len as u64 + 1) as usize;
    if rng.chance(15) {
        let i = at(rng, elements.len());
        elements.insert(i, json!(rng.pick(&SIZES)));
    }
    if rng.chance(if auto { 3 } else { 30 }) {
        let i = at(rng, elements.len());
        elements.insert(i, json!(-1));
    }
    if rng.chance(4) {
        elements.push(json!([rank]));
    }
    if rng.chance(4) {
        elements.push(json!([]));
    }
    if elements.is_empty() {
        elements.push(json!(-1));
    }
    let rank = elements.len();
    (
        json!({"name": "reshape", "configuration": {"shape": elements}}),
        rank,
    )
}

/// Array -> array codecs from `rank`; the rank they end with.
fn array_codecs(rng: &mut Rng, mut rank: usize, most: u64, codecs: &mut Vec<Value>) -> usize {
    for _ in 0..rng.below(most + 1) {
        if rng.chance(35) {
            codecs.push(transpose(rng, rank));
        } else {
            let (codec, next) = reshape(rng, rank);
            codecs.push(codec);
            rank = next;
        }
    }
    rank
}

fn chain(rng: &mut Rng, rank: usize, depth: u32) -> Vec<Value> {
    let mut codecs = Vec::new();
    let rank = array_codecs(rng, rank, 2, &mut codecs);
    if rng.chance(2) {
        codecs.push(json!({"name": "no-such-codec"}));
    }
    if depth < 2 && rng.chance(35) {
        let len = if rng.chance(6) { rank + 1 } else { rank };
        let chunk_shape: Vec<u64> = (0..len).map(|_| rng.pick(&[1, 1, 2, 2, 3, 4])).collect();
        let inner = chain(rng, len, depth + 1);
        let mut index = Vec::new();
        if rng.chance(20) {
            // Any chain, a sharded one included, over the index's uint64 elements.
            index = chain(rng, rank + 1, depth + 1);
        } else {
            if rng.chance(40) {
                array_codecs(rng, rank + 1, 2, &mut index);
            }
            index.push(json!({"name": "bytes", "configuration": {"endian": "little"}}));
            if rng.chance(50) {
                index.push(json!({"name": "crc32c"}));
            }
        }
        codecs.push(json!({"name": "sharding_indexed", "configuration": {
            "chunk_shape": chunk_shape, "codecs": inner, "index_codecs": index}}));
    } else if rng.chance(10) {
        codecs.push(json!({"name": "bytes"}));
    } else {
        codecs.push(json!({"name": "bytes", "configuration": {"endian": "little"}}));
    }
    if rng.chance(25) {
        codecs.push(json!({"name": "crc32c"}));
    }
    if rng.chance(10) {
        codecs.push(json!({"name": "gzip", "configuration": {"level": 1}}));
    }
    if rng.chance(2) {
        codecs.push(json!({"name": "blosc"}));
    }
    codecs
}

/// Per axis, the distinct edges with their first chunk, as `ChunkGrid::axis_edges`.
fn axis_edges(grid: &[Vec<u64>]) -> Vec<Vec<(u64, u64)>> {
    grid.iter()
        .map(|edges| {
            let mut out: Vec<(u64, u64)> = Vec::new();
            for (i, edge) in edges.iter().enumerate() {
                if !out.iter().any(|(e, _)| e == edge) {
                    out.push((*edge, i as u64));
                }
            }
            out
        })
        .collect()
}

/// Every chunk's coordinates, in C order.
fn chunks(grid: &[Vec<u64>]) -> Vec<Vec<u64>> {
    let mut all = vec![Vec::new()];
    for edges in grid {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                (0..edges.len() as u64).map(move |i| {
                    let mut next = prefix.clone();
                    next.push(i);
                    next
                })
            })
            .collect();
    }
    all
}

fn shape_of(grid: &[Vec<u64>], coords: &[u64]) -> Option<Vec<u64>> {
    grid.iter()
        .zip(coords)
        .map(|(edges, i)| edges.get(*i as usize).copied())
        .collect()
}

/// What brute force gives.
#[derive(Debug, PartialEq)]
enum Outcome {
    Fits,
    Refused { partly: bool },
    Unsupported,
}

/// Checks `check_grid` against every chunk; the outcome.
fn agree(grid: &[Vec<u64>], codecs: &Value, data_type: DataType) -> Result<Outcome, String> {
    let answer = check_grid_json(codecs, &axis_edges(grid), data_type);
    let mut refused = 0;
    let mut unsupported = false;
    let mut resolved = Vec::new();
    let all = chunks(grid);
    for coords in &all {
        let shape = shape_of(grid, coords).ok_or("no shape")?;
        match resolve_chain(codecs, &shape, data_type) {
            Ok(shapes) => resolved.push(shapes),
            Err(error) if error.is_unsupported() => unsupported = true,
            Err(_) => refused += 1,
        }
    }
    let fail = |what: &str| Err(format!("{what}: {answer:?}"));
    if refused > 0 {
        let Ok(GridVerdict::Refused { chunk, error }) = &answer else {
            return fail(&format!("{refused} chunks refused"));
        };
        let shape = shape_of(grid, chunk).ok_or(format!("{chunk:?} is no chunk"))?;
        let expected: Result<_, ZarrError> = resolve_chain(codecs, &shape, data_type);
        if expected.as_ref().err() != Some(error) {
            return fail(&format!("chunk {chunk:?} resolves to {expected:?}"));
        }
        return Ok(Outcome::Refused {
            partly: refused < all.len(),
        });
    }
    if unsupported {
        return match &answer {
            Err(error) if error.is_unsupported() => Ok(Outcome::Unsupported),
            _ => fail("unsupported"),
        };
    }
    let Ok(GridVerdict::Fits(found)) = &answer else {
        return fail("every chunk fits");
    };
    let Some(first) = resolved.first() else {
        return match found.encoded_extents.is_empty() {
            true => Ok(Outcome::Fits),
            false => fail("no chunk"),
        };
    };
    if found.inner != first.inner || found.encoded_extents.len() != first.encoded_shapes.len() {
        return fail(&format!("the first chunk gives {first:?}"));
    }
    for (step, extents) in found.encoded_extents.iter().enumerate() {
        let shapes: BTreeSet<Vec<u64>> = resolved
            .iter()
            .map(|r| r.encoded_shapes[step].clone())
            .collect();
        let per_axis: Vec<Vec<u64>> = (0..extents.len())
            .map(|axis| {
                let set: BTreeSet<u64> = shapes.iter().map(|s| s[axis]).collect();
                set.into_iter().collect()
            })
            .collect();
        let product: usize = extents.iter().map(Vec::len).product();
        if *extents != per_axis || product != shapes.len() {
            return fail(&format!("step {step}: the shapes are {shapes:?}"));
        }
    }
    Ok(Outcome::Fits)
}

const EDGES: [u64; 12] = [1, 2, 3, 4, 4, 6, 8, 8, 12, 16, 24, 1 << 33];

/// One axis: a regular one (one edge), or several edges.
fn axis() -> impl Strategy<Value = Vec<u64>> {
    let edge = prop::sample::select(EDGES.to_vec());
    prop_oneof![
        1 => (edge.clone(), 1usize..4).prop_map(|(e, n)| vec![e; n]),
        2 => prop::collection::vec(edge, 1..5),
    ]
}

fn grid() -> impl Strategy<Value = Vec<Vec<u64>>> {
    prop_oneof![
        1 => Just(Vec::new()),
        6 => prop::collection::vec(axis(), 1..4),
    ]
}

fn case(grid: &[Vec<u64>], seed: u64) -> (Value, DataType) {
    let mut rng = Rng(seed | 1);
    let data_type = if rng.chance(50) {
        DataType::UInt8
    } else {
        DataType::UInt16
    };
    (Value::Array(chain(&mut rng, grid.len(), 0)), data_type)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]
    #[test]
    fn check_grid_agrees_with_every_chunk(grid in grid(), seed in any::<u64>()) {
        let (codecs, data_type) = case(&grid, seed);
        let outcome = agree(&grid, &codecs, data_type);
        prop_assert!(outcome.is_ok(), "{grid:?} {codecs}: {outcome:?}");
    }
}

/// The random cases reach every verdict: grids of several shapes that fit, and
/// refusals of some chunks only (the structural rules), not only chains every
/// chunk breaks.
#[test]
fn the_cases_reach_every_verdict() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut fits, mut varied, mut partly, mut wholly, mut unsupported) = (0, 0, 0, 0, 0);
    for _ in 0..1500 {
        let grid = grid().new_tree(&mut runner).unwrap().current();
        let seed = any::<u64>().new_tree(&mut runner).unwrap().current();
        let (codecs, data_type) = case(&grid, seed);
        let shapes: BTreeSet<Vec<u64>> = chunks(&grid)
            .iter()
            .filter_map(|coords| shape_of(&grid, coords))
            .collect();
        match agree(&grid, &codecs, data_type) {
            Ok(Outcome::Fits) if shapes.len() > 1 => varied += 1,
            Ok(Outcome::Fits) => fits += 1,
            Ok(Outcome::Refused { partly: true }) => partly += 1,
            Ok(Outcome::Refused { partly: false }) => wholly += 1,
            Ok(Outcome::Unsupported) => unsupported += 1,
            Err(error) => panic!("{grid:?} {codecs}: {error}"),
        }
    }
    eprintln!(
        "fits {fits} (one shape), {varied} (several), refused partly {partly}, wholly {wholly}, unsupported {unsupported}"
    );
    assert!(fits >= 150 && varied >= 250 && partly >= 50 && wholly >= 200 && unsupported >= 15);
}
