//! Issue 9, benchmarks 3 and 4, side by side in one run: the reference (zarr-reshape)
//! against zarrs 0.23.14's reshape codec on the same requests.
//!
//! 3. Partial decoding of a 256^3 uint16 chunk: the reference's region mapping plus
//!    gather (`ReshapeCodec::partial_decode`) against zarrs' reshape partial decoder
//!    over an in-memory encoded chunk, and against a `memcpy` of the selected bytes.
//! 4. Resolution per configuration: the reference's `resolve` (and `explain`) against
//!    zarrs' `encoded_shape` (and its codec construction from metadata).
// Benchmark code: plain arithmetic, casts and indexing on sizes this file picks.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    missing_docs
)]

#[path = "../../common/configurations.rs"]
mod configurations;
#[path = "../../common/timing.rs"]
mod timing;

use std::hint::black_box;
use std::num::NonZeroU64;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{ArrayD, IxDyn};
use serde_json::{Value, json};
use zarr_reshape::{ReshapeCodec, ReshapeConfiguration};
use zarrs::array::{
    ArrayBytes, ArrayPartialDecoderTraits, ArraySubset, ArrayToArrayCodecTraits, CodecChain,
    CodecError, CodecOptions, DataType, FillValue, Indexer,
};
use zarrs::metadata::v3::MetadataV3;
use zarrs::storage::StorageError;

use configurations::resolution_configurations;
use timing::{measure, ratio, short};

const SIDE: u64 = 256;

/// An encoded chunk held in memory, as the decoder under zarrs' reshape partial
/// decoder: it hands out the elements an indexer selects with zarrs' own
/// `ArrayBytes::extract_array_subset`, as zarrs' array-to-bytes decoders do.
struct Held {
    bytes: ArrayBytes<'static>,
    encoded_shape: Vec<u64>,
    data_type: DataType,
}

impl ArrayPartialDecoderTraits for Held {
    fn data_type(&self) -> &DataType {
        &self.data_type
    }
    fn exists(&self) -> Result<bool, StorageError> {
        Ok(true)
    }
    fn size_held(&self) -> usize {
        0
    }
    fn partial_decode(
        &self,
        indexer: &dyn Indexer,
        _options: &CodecOptions,
    ) -> Result<ArrayBytes<'_>, CodecError> {
        self.bytes
            .extract_array_subset(indexer, &self.encoded_shape, &self.data_type)
    }
    fn supports_partial_decode(&self) -> bool {
        true
    }
}

/// zarrs' reshape codec for `configuration`, built from metadata as zarrs builds it
/// when it opens an array (as the conformance adapter does).
fn zarrs_codec(configuration: &Value) -> Arc<dyn ArrayToArrayCodecTraits> {
    let entry: MetadataV3 =
        serde_json::from_value(json!({"name": "reshape", "configuration": configuration})).unwrap();
    let bytes: MetadataV3 =
        serde_json::from_value(json!({"name": "bytes", "configuration": {"endian": "little"}}))
            .unwrap();
    let chain = CodecChain::from_metadata(&[entry, bytes]).unwrap();
    chain.array_to_array_codecs()[0].clone()
}

fn nz(shape: &[u64]) -> Vec<NonZeroU64> {
    shape.iter().map(|&e| NonZeroU64::new(e).unwrap()).collect()
}

fn partial(c: &mut Criterion) {
    let a_shape = [SIDE, SIDE, SIDE];
    let count = (SIDE * SIDE * SIDE) as usize;
    let values: Vec<u16> = (0..count).map(|i| i as u16).collect();
    let configurations = [
        ("[[0,1],[2]]", json!({"shape": [[0, 1], [2]]})),
        ("[-1]", json!({"shape": [-1]})),
        ("[[0],[1,2]]", json!({"shape": [[0], [1, 2]]})),
    ];
    // (name, start, stop)
    let requests: [(&str, [u64; 3], [u64; 3]); 3] = [
        ("box64", [96, 96, 96], [160, 160, 160]),
        ("slab", [128, 0, 0], [130, SIDE, SIDE]),
        ("element", [17, 99, 200], [18, 100, 201]),
    ];
    let data_type = zarrs::array::data_type::uint16();
    let options = CodecOptions::default();
    for (name, configuration) in &configurations {
        let reference = ReshapeCodec::new(
            ReshapeConfiguration::from_json_value(configuration).unwrap(),
            &a_shape,
        )
        .unwrap();
        let b_shape: Vec<usize> = reference
            .encoded_shape()
            .iter()
            .map(|&e| e as usize)
            .collect();
        let encoded = ArrayD::from_shape_vec(IxDyn(&b_shape), values.clone()).unwrap();

        let codec = zarrs_codec(configuration);
        let decoded_shape = nz(&a_shape);
        let encoded_shape = codec.encoded_shape(&decoded_shape).unwrap();
        assert_eq!(
            encoded_shape.iter().map(|e| e.get()).collect::<Vec<_>>(),
            reference.encoded_shape()
        );
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
        let held: Arc<dyn ArrayPartialDecoderTraits> = Arc::new(Held {
            bytes: ArrayBytes::new_flen(bytes),
            encoded_shape: reference.encoded_shape().to_vec(),
            data_type: data_type.clone(),
        });
        let fill_value = FillValue::from(0u16);
        let decoder = codec
            .clone()
            .partial_decoder(held, &decoded_shape, &data_type, &fill_value, &options)
            .unwrap();

        for (request, start, stop) in &requests {
            let subset =
                ArraySubset::new_with_start_end_exc(start.to_vec(), stop.to_vec()).unwrap();
            // Both answer the same elements.
            let ours = reference.partial_decode(&encoded, start, stop).unwrap();
            let theirs = decoder
                .partial_decode(&subset, &options)
                .unwrap()
                .into_owned();
            let theirs = theirs.into_fixed().unwrap();
            let ours_bytes: Vec<u8> = ours.iter().flat_map(|v| v.to_ne_bytes()).collect();
            assert_eq!(&ours_bytes[..], &theirs[..], "{name} {request}");
            let selected = ours_bytes.len();

            let group_name = format!("partial {name} {request}");
            let mut group = short(c, &group_name, 2);
            let t_ours = measure(&mut group, "reference", || {
                black_box(
                    reference
                        .partial_decode(black_box(&encoded), start, stop)
                        .unwrap(),
                );
            });
            let t_zarrs = measure(&mut group, "zarrs", || {
                black_box(
                    decoder
                        .partial_decode(black_box(&subset), &options)
                        .unwrap(),
                );
            });
            let source: Vec<u8> = vec![1; selected];
            let mut target: Vec<u8> = vec![0; selected];
            let t_copy = measure(&mut group, "memcpy", || {
                target.copy_from_slice(black_box(&source));
                black_box(&mut target);
            });
            // The floor for this request's runs: the same runs copied with
            // `copy_from_slice` into a buffer made beforehand (no mapping, no checks).
            let runs: Vec<(usize, usize)> = reference
                .region_runs(start, stop)
                .unwrap()
                .map(|run| (run.offset as usize, run.len as usize))
                .collect();
            let elements = encoded.as_slice().unwrap();
            let mut gathered = vec![0u16; selected / 2];
            let t_runs = measure(&mut group, "runs copied (floor)", || {
                let mut at = 0;
                for &(offset, len) in &runs {
                    gathered[at..at + len].copy_from_slice(&elements[offset..offset + len]);
                    at += len;
                }
                black_box(&mut gathered);
            });
            group.finish();
            ratio(
                &format!("partial.{name}.{request}.runs_floor_over_reference"),
                t_runs,
                t_ours,
                "the same runs copied into a ready buffer, against the reference's gather",
            );
            ratio(
                &format!("partial.{name}.{request}.zarrs_over_reference"),
                t_zarrs,
                t_ours,
                "how many times faster the reference answers the same request",
            );
            ratio(
                &format!("partial.{name}.{request}.memcpy_over_reference"),
                t_copy,
                t_ours,
                &format!("fraction of memcpy throughput for the {selected} bytes selected"),
            );
        }
    }
}

fn resolution(c: &mut Criterion) {
    let configurations = resolution_configurations();
    for (name, configuration, a_shape) in &configurations {
        let parsed = ReshapeConfiguration::from_json_value(configuration).unwrap();
        let codec = zarrs_codec(configuration);
        let decoded = nz(a_shape);
        let ours = parsed.resolve(a_shape).unwrap();
        let theirs: Vec<u64> = codec
            .encoded_shape(&decoded)
            .unwrap()
            .iter()
            .map(|e| e.get())
            .collect();
        assert_eq!(ours, theirs, "{name}");
        let mut group = short(c, &format!("resolve {name}"), 2);
        let t_resolve = measure(&mut group, "reference resolve", || {
            black_box(parsed.resolve(black_box(a_shape)).unwrap());
        });
        let t_encoded_shape = measure(&mut group, "zarrs encoded_shape", || {
            black_box(codec.encoded_shape(black_box(&decoded)).unwrap());
        });
        let t_explain = measure(&mut group, "reference explain (from JSON)", || {
            black_box(zarr_reshape::explain(black_box(configuration), a_shape));
        });
        let t_parse_resolve = measure(&mut group, "reference parse + resolve (from JSON)", || {
            let parsed =
                ReshapeConfiguration::from_json_value(black_box(configuration)).unwrap();
            black_box(parsed.resolve(a_shape).unwrap());
        });
        let t_build = measure(&mut group, "zarrs from_metadata + encoded_shape", || {
            let codec = zarrs_codec(black_box(configuration));
            black_box(codec.encoded_shape(&decoded).unwrap());
        });
        group.finish();
        ratio(
            &format!("resolve.{name}.zarrs_encoded_shape_over_resolve"),
            t_encoded_shape,
            t_resolve,
            ">= 1: resolve is no slower than zarrs' encoded_shape",
        );
        ratio(
            &format!("resolve.{name}.zarrs_encoded_shape_over_explain"),
            t_encoded_shape,
            t_explain,
            "explain (parse, resolve, trace) against encoded_shape alone",
        );
        ratio(
            &format!("resolve.{name}.zarrs_build_over_parse_resolve"),
            t_build,
            t_parse_resolve,
            "from JSON to B_shape, both sides",
        );
        ratio(
            &format!("resolve.{name}.zarrs_build_over_explain"),
            t_build,
            t_explain,
            "from JSON to B_shape: zarrs' codec construction against the reference's explain",
        );
    }
}

criterion_group!(benches, partial, resolution);
criterion_main!(benches);
