//! One uniform word per call from Rust: randp::u32 and randp::u64 beside
//! rand's ThreadRng and StdRng (ChaCha12), the getrandom crate, and fastrand
//! as the non-cryptographic floor. (The C libraries are compared through the
//! C ABI in benches/c.)

use criterion::{Criterion, criterion_group, criterion_main};
use rand::Rng;
use std::hint::black_box;

#[path = "common/config.rs"]
mod config;
#[path = "common/rivals.rs"]
mod rivals;

fn u32_per_call(c: &mut Criterion) {
    let mut g = c.benchmark_group("u32");
    g.bench_function("randp_u32", |b| b.iter(randp::u32));
    let mut thread_rng = rand::rng();
    g.bench_function("rand_ThreadRng", |b| b.iter(|| thread_rng.next_u32()));
    let mut std_rng = rivals::std_rng();
    g.bench_function("rand_StdRng", |b| b.iter(|| std_rng.next_u32()));
    g.finish();
}

fn u64_per_call(c: &mut Criterion) {
    let mut g = c.benchmark_group("u64");
    g.bench_function("randp_u64", |b| b.iter(randp::u64));
    let mut thread_rng = rand::rng();
    g.bench_function("rand_ThreadRng", |b| b.iter(|| thread_rng.next_u64()));
    let mut std_rng = rivals::std_rng();
    g.bench_function("rand_StdRng", |b| b.iter(|| std_rng.next_u64()));
    g.bench_function("getrandom_crate", |b| b.iter(|| getrandom::u64().expect("OS entropy")));
    let mut fast = fastrand::Rng::new();
    g.bench_function("fastrand", |b| b.iter(|| black_box(&mut fast).u64(..)));
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::criterion();
    targets = u32_per_call, u64_per_call
}
criterion_main!(benches);
