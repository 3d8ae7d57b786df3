//! Benchmarks only: see `benches/compare.rs` and the repository's BENCHMARKS.md.
