//! What zarrs 0.23.14 does with a chunk grid whose chunks a codec chain does not
//! all fit: the adapter's `resolve-grid` answers (src/grid.rs), and zarrs' own
//! reads of such an array (reading I-12: zarrs opens it, and checks a chunk only
//! when it decodes one that is stored). Each test fails when zarrs changes.

use std::sync::Arc;

use serde_json::{Value, json};
use zarrs::array::{Array, ArrayBuilder, ArrayBytes, ArraySubset, DataType, FillValue};
use zarrs::metadata::v3::MetadataV3;
use zarrs::storage::store::MemoryStore;
use zarrs::storage::{StoreKey, WritableStorageTraits};

use crate::answer::Answer;

fn grid(chunk_shapes: Value) -> Value {
    json!({"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": chunk_shapes}})
}

fn case(shape: Value, chunk_grid: Value, reshape: Value) -> Value {
    json!({
        "operation": "resolve-grid", "data_type": "uint8", "array_shape": shape,
        "chunk_grid": chunk_grid, "decoded_shape": [1],
        "codecs": [
            {"name": "reshape", "configuration": {"shape": reshape}},
            {"name": "bytes"}
        ],
    })
}

#[test]
fn resolve_grid_names_the_first_refused_chunk_in_c_order() {
    // Shapes 2x4, 2x3, 3x4 fit [2, -1]; 3x3 (chunk [1, 1]) and 5x3 do not.
    let case = case(
        json!([10, 7]),
        grid(json!([[2, 3, 5], [4, 3]])),
        json!([2, -1]),
    );
    match crate::grid::answer(&case) {
        Err(Answer::ErrorAt(message, chunk)) => {
            assert_eq!(chunk, [1, 1], "{message}");
        }
        other => panic!("expected a refusal of chunk [1, 1], got {other:?}"),
    }
}

#[test]
fn resolve_grid_collects_the_distinct_extents_of_the_chunks_that_hold_elements() {
    // The last chunk (origin 10) lies wholly beyond the array: its 3 is not checked.
    let case = case(json!([10]), grid(json!([[4, 6, 3]])), json!([2, -1]));
    let output = crate::grid::answer(&case).unwrap();
    assert_eq!(output, json!({"encoded_extents": [[[2], [2, 3]]]}));
}

#[test]
fn resolve_grid_skips_runs_zarrs_would_expand_past_the_bound() {
    let huge = grid(json!([[[1, 1_000_000_000_000_000_000u64]]]));
    let case = case(json!([10]), huge, json!([-1]));
    assert!(matches!(
        crate::grid::answer(&case),
        Err(Answer::Skipped(_))
    ));
}

#[test]
fn zarrs_sums_rectilinear_edges_unchecked() {
    // Edges 2^63, 2^63, 4 on [10]: a valid grid (the first chunk covers the array).
    // zarrs adds the edges unchecked (`rectilinear.rs:156-160`): a release build
    // wraps the sum to 4 and refuses the grid as too short for 10; a debug build
    // panics. Never the answer the grid has.
    let edges = grid(json!([[
        9_223_372_036_854_775_808u64,
        9_223_372_036_854_775_808u64,
        4
    ]]));
    let answer = crate::grid::answer(&case(json!([10]), edges, json!([-1])));
    if cfg!(debug_assertions) {
        assert!(matches!(answer, Err(Answer::Crashed(_))), "{answer:?}");
    } else {
        assert!(matches!(answer, Err(Answer::Error(_))), "{answer:?}");
    }
}

/// A uint8 array [7] with a rectilinear grid `edges` and `reshape [2, -1]`, in
/// memory; `stored` chunks written with `store_chunk` (values 1..), and `raw`
/// chunks written as raw bytes behind zarrs' back (one byte per element).
fn array(edges: Value, stored: &[u64], raw: &[(u64, u64)]) -> Array<MemoryStore> {
    let store = Arc::new(MemoryStore::new());
    let grid: MetadataV3 = serde_json::from_value(grid(json!([edges]))).unwrap();
    let codecs: Vec<MetadataV3> = serde_json::from_value(json!([
        {"name": "reshape", "configuration": {"shape": [2, -1]}}, {"name": "bytes"}
    ]))
    .unwrap();
    let chain = zarrs::array::CodecChain::from_metadata(&codecs).unwrap();
    let data_type = DataType::from_metadata(&MetadataV3::new("uint8")).unwrap();
    let array = ArrayBuilder::new(vec![7], grid, data_type, FillValue::from(vec![0u8]))
        .array_to_array_codecs(chain.array_to_array_codecs().to_vec())
        .array_to_bytes_codec(chain.array_to_bytes_codec().clone())
        .build(store.clone(), "/")
        .unwrap();
    array.store_metadata().unwrap();
    for &chunk in stored {
        let extent = array.chunk_shape(&[chunk]).unwrap()[0].get();
        let values: Vec<u8> = (1..=extent).map(|v| v as u8).collect();
        array
            .store_chunk(&[chunk], ArrayBytes::new_flen(values))
            .unwrap();
    }
    for &(chunk, extent) in raw {
        let key = StoreKey::new(format!("c/{chunk}")).unwrap();
        store.set(&key, vec![9u8; extent as usize].into()).unwrap();
    }
    Array::open(store, "/").unwrap()
}

fn read(array: &Array<MemoryStore>, start: u64, stop: u64) -> Result<Vec<u8>, String> {
    let subset = ArraySubset::new_with_start_end_exc(vec![start], vec![stop]).unwrap();
    let bytes: Result<ArrayBytes<'static>, _> = array.retrieve_array_subset(&subset);
    bytes
        .map_err(|e| e.to_string())
        .map(|b| b.into_fixed().unwrap().to_vec())
}

#[test]
fn zarrs_opens_an_array_whose_chain_refuses_a_chunk_and_reads_the_fitting_ones() {
    // Chunk 0 (4) fits [2, -1], chunk 1 (3) does not; only chunk 0 is stored.
    let array = array(json!([4, 3]), &[0], &[]);
    assert_eq!(read(&array, 0, 4).unwrap(), [1, 2, 3, 4]);
    // The refused chunk is absent. Read whole, alone or after a fitting chunk,
    // zarrs finds it absent and reads the fill value without checking it
    // (`array_sync_readable.rs:491-513`, `:522-539`).
    assert_eq!(read(&array, 4, 7).unwrap(), [0, 0, 0]);
    assert_eq!(read(&array, 0, 7).unwrap(), [1, 2, 3, 4, 0, 0, 0]);
    // Read in part, it is refused although absent: zarrs builds the chain's partial
    // decoder, which resolves the chunk's shape, before it looks for the chunk
    // (`array_sync_readable.rs:1117-1155`, `:1163-1197`).
    assert!(read(&array, 4, 6).is_err());
    assert!(read(&array, 2, 6).is_err());
}

#[test]
fn zarrs_refuses_a_stored_chunk_its_chain_refuses_when_a_read_touches_it() {
    let array = array(json!([4, 3]), &[0], &[(1, 3)]);
    assert_eq!(read(&array, 0, 4).unwrap(), [1, 2, 3, 4]);
    assert!(read(&array, 4, 7).is_err());
    assert!(read(&array, 0, 7).is_err());
    assert!(read(&array, 4, 6).is_err());
}

#[test]
fn zarrs_checks_the_first_chunk_of_a_read_of_several_even_when_it_is_absent() {
    // Chunk 0 (3) is refused and absent, chunk 1 (4) fits and is stored. A read of
    // chunk 1 alone succeeds; a read of both fails on chunk 0's shape, which zarrs
    // resolves for its concurrency estimate (`array_sync_readable.rs:903-907`)
    // before it finds that chunk absent.
    let array = array(json!([3, 4]), &[1], &[]);
    assert_eq!(read(&array, 3, 7).unwrap(), [1, 2, 3, 4]);
    assert_eq!(read(&array, 0, 3).unwrap(), [0, 0, 0]);
    assert!(read(&array, 0, 7).is_err());
}
