//! One uniform word per call, seed 002's "Get a uniform random uint32_t"
//! table and its u64 companion: randp through the Rust API and through the
//! C ABI (a real call), glibc's arc4random, RDRAND/RDSEED wrappers, rand's
//! ThreadRng, and fastrand as the non-cryptographic floor.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::Rng;
use std::hint::black_box;

#[allow(dead_code)] // shared by several benches, each uses a part
#[path = "common/cabi.rs"]
mod cabi;
#[path = "common/config.rs"]
mod config;
#[allow(dead_code)] // shared by several benches, each uses a part
#[path = "common/glibc.rs"]
mod glibc;
#[allow(dead_code)] // shared by several benches, each uses a part
#[path = "common/hw.rs"]
mod hw;

fn u32_per_call(c: &mut Criterion) {
    let arc4 = glibc::Arc4::load();
    let capi = cabi::CAbi::new();
    let hw = hw::Hw::detect();
    let mut g = c.benchmark_group("u32");
    g.bench_function("randp_u32", |b| b.iter(randp::u32));
    g.bench_function("randp_u32_c_abi", |b| b.iter(|| capi.u32()));
    if let Some(arc4) = arc4 {
        g.bench_function("arc4random", |b| b.iter(|| arc4.u32()));
    }
    #[cfg(target_arch = "x86_64")]
    {
        if hw.has_rdrand() {
            g.bench_function("rdrand32", |b| b.iter(|| hw.rdrand32()));
        }
        if hw.has_rdseed() {
            g.bench_function("rdseed32", |b| b.iter(|| hw.rdseed32()));
        }
    }
    let _ = hw;
    let mut thread_rng = rand::rng();
    g.bench_function("rand_ThreadRng", |b| b.iter(|| thread_rng.next_u32()));
    g.finish();
}

fn u64_per_call(c: &mut Criterion) {
    let capi = cabi::CAbi::new();
    let mut g = c.benchmark_group("u64");
    g.bench_function("randp_u64", |b| b.iter(randp::u64));
    g.bench_function("randp_u64_c_abi", |b| b.iter(|| capi.u64()));
    let mut thread_rng = rand::rng();
    g.bench_function("rand_ThreadRng", |b| b.iter(|| thread_rng.next_u64()));
    g.bench_function("getrandom_crate", |b| {
        b.iter(|| getrandom::u64().expect("OS entropy"))
    });
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
