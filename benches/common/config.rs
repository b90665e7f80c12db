//! Criterion settings shared by every randp bench, tunable from the environment
//! so that `make bench`, `make bench-quick` and the sweeps choose their own budget:
//!
//! - `RANDP_BENCH_WARMUP_MS`  warm-up per benchmark (default 500)
//! - `RANDP_BENCH_MEASURE_MS` measurement per benchmark (default 1500)
//! - `RANDP_BENCH_SAMPLES`    samples per benchmark (default 30, criterion's minimum is 10)
//!
//! Plots are off: the report is written from criterion's JSON estimates.

use criterion::Criterion;
use std::time::Duration;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

/// The criterion configuration every group in `benches/` starts from.
pub fn criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(env_u64("RANDP_BENCH_WARMUP_MS", 500).max(1)))
        .measurement_time(Duration::from_millis(env_u64("RANDP_BENCH_MEASURE_MS", 1500).max(1)))
        .sample_size(env_u64("RANDP_BENCH_SAMPLES", 30).max(10) as usize)
        .without_plots()
}
