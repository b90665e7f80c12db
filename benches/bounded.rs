//! A uniform u32 below upper_bound from Rust, with planet36/randp's bounds:
//! upper_bound cycles through 1 ..= 0x100000, one call per iteration.
//! randp::lt_u32 beside rand's `random_range` on ThreadRng and StdRng; and
//! the same for u64 with the bounds scaled by 2^32 (1 ..= 0x100000 · 2^32,
//! so that every bound needs the 64-bit path). (The C libraries are
//! compared through the C ABI in benches/c.)

use criterion::{Criterion, criterion_group, criterion_main};
use rand::RngExt;

#[path = "common/config.rs"]
mod config;
#[path = "common/rivals.rs"]
mod rivals;

/// planet36/randp's bounds: 1 ..= 0x100000, cycled.
struct Bounds(u32);

impl Bounds {
    const MAX: u32 = 0x10_0000;
    fn next(&mut self) -> u32 {
        self.0 = if self.0 >= Self::MAX { 1 } else { self.0 + 1 };
        std::hint::black_box(self.0)
    }
}

fn lt_u32(c: &mut Criterion) {
    let mut g = c.benchmark_group("lt_u32");
    let mut ub = Bounds(0);
    g.bench_function("randp_lt_u32", |b| b.iter(|| randp::lt_u32(ub.next())));
    let mut thread_rng = rand::rng();
    g.bench_function("rand_random_range", |b| b.iter(|| thread_rng.random_range(0..ub.next())));
    let mut std_rng = rivals::std_rng();
    g.bench_function("rand_StdRng_random_range", |b| b.iter(|| std_rng.random_range(0..ub.next())));
    g.finish();
}

fn lt_u64(c: &mut Criterion) {
    let mut g = c.benchmark_group("lt_u64");
    let mut ub = Bounds(0);
    let mut next = move || u64::from(ub.next()) << 32;
    g.bench_function("randp_lt_u64", |b| b.iter(|| randp::lt_u64(next())));
    let mut thread_rng = rand::rng();
    g.bench_function("rand_random_range", |b| b.iter(|| thread_rng.random_range(0..next())));
    let mut std_rng = rivals::std_rng();
    g.bench_function("rand_StdRng_random_range", |b| b.iter(|| std_rng.random_range(0..next())));
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::criterion();
    targets = lt_u32, lt_u64
}
criterion_main!(benches);
