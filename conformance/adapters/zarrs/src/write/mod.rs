//! `zarrs-reshape-adapter write-arrays OUT_DIR`: arrays that zarrs writes through its
//! own `Array` API with a `reshape` codec chain, laid out as the suite's fixtures, so
//! that the reference (or any reader) can read them back and compare.
//!
//! OUT_DIR becomes a suite root without its `clauses.json` (the caller copies it):
//! `arrays/<name>/` holds each array (zarr.json and chunks, as zarrs wrote them),
//! its `expected.json` (`{"data_type", "shape", "data"}`: the values handed to zarrs)
//! and its `case.json` (`{"id", "clauses", "description", "must_read"}`), and
//! `zarrs-written/read-array.json` holds `read-array` cases for them, paths relative
//! to OUT_DIR.

mod sharded;
mod specs;

use std::num::NonZeroU64;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use zarrs::array::{
    ArrayBuilder, ArrayBytes, ArraySubset, ChunkGrid, CodecChain, DataType, FillValue,
};
use zarrs::filesystem::FilesystemStore;
use zarrs::metadata::v3::MetadataV3;

use crate::array::{self, Element};
use specs::{Spec, element_bytes, specs};

/// Any error, as text.
fn text(error: impl std::fmt::Display) -> String {
    error.to_string()
}

/// Writes every array, its expected.json and case.json, and the vector files: one
/// per set (`zarrs-written/`, regular grids without sharding; `zarrs-written-sharded/`,
/// sharded arrays and rectilinear grids).
pub fn main(out: &Path) -> Result<(), String> {
    let mut sets: Vec<(&str, Vec<Value>)> = Vec::new();
    for spec in specs() {
        let cases = write_one(out, &spec).map_err(|e| format!("{}: {e}", spec.name))?;
        match sets.iter_mut().find(|(set, _)| *set == spec.set) {
            Some((_, list)) => list.extend(cases),
            None => sets.push((spec.set, cases)),
        }
    }
    for (set, cases) in sets {
        let vectors = json!({"format": 1, "cases": cases});
        let folder = out.join(set);
        std::fs::create_dir_all(&folder).map_err(text)?;
        let vectors = serde_json::to_string(&vectors).map_err(text)?;
        std::fs::write(folder.join("read-array.json"), vectors + "\n").map_err(text)?;
    }
    Ok(())
}

/// Writes one array and its two files; returns its `read-array` cases.
fn write_one(out: &Path, spec: &Spec) -> Result<Vec<Value>, String> {
    let folder = out.join("arrays").join(spec.name);
    if folder.exists() {
        std::fs::remove_dir_all(&folder).map_err(text)?;
    }
    std::fs::create_dir_all(&folder).map_err(text)?;
    let element = Element::from_name(spec.data_type).ok_or("unknown data type")?;
    // The codecs from their metadata, as zarrs reads a `codecs` list, and the
    // chunk grid as zarrs reads `chunk_grid`.
    let entries: Vec<MetadataV3> = serde_json::from_value(spec.codecs.clone()).map_err(text)?;
    let chain = CodecChain::from_metadata(&entries).map_err(text)?;
    let grid_metadata: MetadataV3 = serde_json::from_value(spec.chunk_grid()).map_err(text)?;
    let grid = ChunkGrid::from_metadata(&grid_metadata, spec.shape).map_err(text)?;

    let values = values(spec, element, &grid)?;
    store(&folder, spec, element, (&grid_metadata, &chain), &values)?;

    let data = array::output(element, spec.shape, &values);
    let expected = json!({"data_type": spec.data_type, "shape": spec.shape, "data": data["data"]});
    write_json(&folder.join("expected.json"), &expected)?;
    let id = format!("{}/{}", spec.set, spec.name);
    let case = json!({"id": id, "clauses": spec.clauses, "description": spec.description, "must_read": true});
    write_json(&folder.join("case.json"), &case)?;
    let first = grid
        .chunk_shape(&vec![0; spec.shape.len()])
        .map_err(text)?
        .ok_or("the grid has no first chunk")?;
    let (configuration, decoded) =
        find_reshape(&spec.codecs, first)?.ok_or("no reshape codec in the chain")?;
    cases(spec, element, (configuration, decoded), &values)
}

/// The array's values as native-endian bytes in C order: what zarrs is given, and
/// the fill value (zero) in the chunks left unwritten and in the fill boxes.
fn values(spec: &Spec, element: Element, grid: &ChunkGrid) -> Result<Vec<u8>, String> {
    let count: u64 = spec.shape.iter().product();
    let mut values = Vec::new();
    for i in 0..count {
        let index = unravel(i, spec.shape);
        let chunk = grid.chunk_indices(&index).map_err(text)?;
        let unwritten = chunk.is_some_and(|chunk| spec.skip_chunks.contains(&chunk.as_slice()));
        let filled = spec.fill_boxes.iter().any(|(start, stop)| {
            index
                .iter()
                .zip(start.iter().zip(*stop))
                .all(|(x, (a, b))| a <= x && x < b)
        });
        if unwritten || filled {
            values.extend(vec![0u8; element.size()]);
        } else {
            values.extend(element_bytes(element, i));
        }
    }
    Ok(values)
}

/// The array through `ArrayBuilder`, with the chunk grid and the codecs of `chain`,
/// as a zarrs user builds one; its metadata, then its values: the whole array in
/// one `store_array_subset`, or chunk by chunk with `store_chunk` when some are
/// skipped (only chunks that hold array elements; the rest of a chunk that crosses
/// the array's end is the fill value).
fn store(
    folder: &Path,
    spec: &Spec,
    element: Element,
    (grid, chain): (&MetadataV3, &CodecChain),
    values: &[u8],
) -> Result<(), String> {
    let store = Arc::new(FilesystemStore::new(folder).map_err(text)?);
    let data_type = DataType::from_metadata(&MetadataV3::new(spec.data_type)).map_err(text)?;
    let fill_value = FillValue::from(vec![0u8; element.size()]);
    let array = ArrayBuilder::new(spec.shape.to_vec(), grid.clone(), data_type, fill_value)
        .array_to_array_codecs(chain.array_to_array_codecs().to_vec())
        .array_to_bytes_codec(chain.array_to_bytes_codec().clone())
        .bytes_to_bytes_codecs(chain.bytes_to_bytes_codecs().to_vec())
        .build(store, "/")
        .map_err(text)?;
    array.store_metadata().map_err(text)?;
    if spec.skip_chunks.is_empty() {
        let whole = ArraySubset::new_with_shape(spec.shape.to_vec());
        let bytes = ArrayBytes::new_flen(values.to_vec());
        return array.store_array_subset(&whole, bytes).map_err(text);
    }
    let grid_shape = array.chunk_grid_shape().to_vec();
    for k in 0..grid_shape.iter().product::<u64>() {
        let chunk = unravel(k, &grid_shape);
        let subset = array.chunk_subset(&chunk).map_err(text)?;
        let holds = subset.start().iter().zip(spec.shape).all(|(a, s)| a < s);
        if !holds || spec.skip_chunks.contains(&chunk.as_slice()) {
            continue;
        }
        let mut bytes = Vec::new();
        for j in 0..subset.num_elements() {
            let index: Vec<u64> = unravel(j, subset.shape())
                .iter()
                .zip(subset.start())
                .map(|(x, a)| x + a)
                .collect();
            if index.iter().zip(spec.shape).all(|(x, s)| x < s) {
                let at = usize::try_from(ravel(&index, spec.shape)).map_err(text)? * element.size();
                bytes.extend_from_slice(values.get(at..at + element.size()).ok_or("outside")?);
            } else {
                bytes.extend(vec![0u8; element.size()]);
            }
        }
        array
            .store_chunk(&chunk, ArrayBytes::new_flen(bytes))
            .map_err(text)?;
    }
    Ok(())
}

/// The first `reshape` entry of a codecs list, depth first (into `sharding_indexed`'s
/// `codecs`, then its `index_codecs`), with the shape zarrs hands it when the list
/// is handed `decoded`: its configuration and that shape, for the cases' information
/// members.
fn find_reshape(
    codecs: &Value,
    decoded: Vec<NonZeroU64>,
) -> Result<Option<(Value, Vec<u64>)>, String> {
    let entries: Vec<MetadataV3> = serde_json::from_value(codecs.clone()).map_err(text)?;
    let chain = CodecChain::from_metadata(&entries).map_err(text)?;
    let to_array = chain.array_to_array_codecs();
    let mut shape = decoded;
    for (at, entry) in codecs.as_array().into_iter().flatten().enumerate() {
        let configuration = entry.get("configuration").cloned().unwrap_or(Value::Null);
        match entry.get("name").and_then(Value::as_str) {
            Some("reshape") => {
                let plain = shape.iter().map(|n| n.get()).collect();
                return Ok(Some((configuration, plain)));
            }
            Some("sharding_indexed") => {
                let inner: Vec<NonZeroU64> =
                    serde_json::from_value(configuration["chunk_shape"].clone()).map_err(text)?;
                if let Some(found) = find_reshape(&configuration["codecs"], inner.clone())? {
                    return Ok(Some(found));
                }
                // The index: the chunks per shard, then 2 (offset and length).
                let mut index: Vec<NonZeroU64> = shape
                    .iter()
                    .zip(&inner)
                    .filter_map(|(s, c)| NonZeroU64::new(s.get() / c.get()))
                    .collect();
                index.extend(NonZeroU64::new(2));
                return find_reshape(&configuration["index_codecs"], index);
            }
            _ => {
                if let Some(codec) = to_array.get(at) {
                    shape = codec.encoded_shape(&shape).map_err(text)?;
                }
            }
        }
    }
    Ok(None)
}

/// The `read-array` cases of one array: the whole array, then each box.
fn cases(
    spec: &Spec,
    element: Element,
    (configuration, decoded): (Value, Vec<u64>),
    values: &[u8],
) -> Result<Vec<Value>, String> {
    let id = format!("{}/{}", spec.set, spec.name);
    let case = |id: String, read: String, region: Option<Value>, expect: Value| {
        let mut case = json!({
            "id": id,
            "description": format!("Written by zarrs 0.23.14: {} {read}", spec.description),
            "clauses": spec.clauses, "level": "must", "operation": "read-array",
            "configuration": configuration, "decoded_shape": decoded,
            "array": {"path": format!("arrays/{}", spec.name), "data_type": spec.data_type},
            "expect": expect,
        });
        if let (Some(region), Some(object)) = (region, case.as_object_mut()) {
            object.insert("decoded_region".into(), region);
        }
        case
    };
    let whole = array::output(element, spec.shape, values);
    let mut cases = vec![case(id.clone(), "Read whole.".into(), None, whole)];
    for (start, stop) in spec.boxes {
        let shape: Vec<u64> = start.iter().zip(*stop).map(|(a, b)| b - a).collect();
        let mut bytes = Vec::new();
        for j in 0..shape.iter().product::<u64>() {
            let index: Vec<u64> = unravel(j, &shape)
                .iter()
                .zip(*start)
                .map(|(x, a)| x + a)
                .collect();
            let at = usize::try_from(ravel(&index, spec.shape)).map_err(text)? * element.size();
            bytes.extend_from_slice(
                values
                    .get(at..at + element.size())
                    .ok_or("a box outside the array")?,
            );
        }
        let corners = start
            .iter()
            .chain(*stop)
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("-");
        cases.push(case(
            format!("{id}/box-{corners}"),
            format!("Read the box {start:?}..{stop:?}."),
            Some(json!({"start": start, "stop": stop})),
            array::output(element, &shape, &bytes),
        ));
    }
    Ok(cases)
}

fn write_json(path: &Path, value: &Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

/// The coordinates of C-order position `position` in `shape`.
fn unravel(mut position: u64, shape: &[u64]) -> Vec<u64> {
    let mut index = vec![0; shape.len()];
    for (coordinate, &extent) in index.iter_mut().zip(shape).rev() {
        *coordinate = position % extent.max(1);
        position /= extent.max(1);
    }
    index
}

/// The C-order position of `index` in `shape`.
fn ravel(index: &[u64], shape: &[u64]) -> u64 {
    index
        .iter()
        .zip(shape)
        .fold(0, |position, (x, n)| position * n + x)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    #[test]
    fn zarrs_reads_back_what_it_wrote() {
        let out = std::env::temp_dir().join(format!("zarrs-written-{}", std::process::id()));
        super::main(&out).unwrap();
        for (set, at_least) in [("zarrs-written", 11), ("zarrs-written-sharded", 6)] {
            let vectors = std::fs::read_to_string(out.join(set).join("read-array.json")).unwrap();
            let vectors: Value = serde_json::from_str(&vectors).unwrap();
            let cases = vectors["cases"].as_array().unwrap();
            assert!(cases.len() >= at_least, "{set}");
            for case in cases {
                let mut case = case.clone();
                let path = out.join(case["array"]["path"].as_str().unwrap());
                case["array"]["path"] = path.to_string_lossy().into_owned().into();
                let answer = crate::read::answer(&case).unwrap();
                assert_eq!(answer, case["expect"], "{}", case["id"]);
            }
        }
        std::fs::remove_dir_all(out).unwrap();
    }
}
