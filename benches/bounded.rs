//! A uniform u32 below upper_bound, seed 002's third table: upper_bound
//! cycles through 1 ..= 0x100000, one call per iteration. randp::lt_u32
//! (and randp_lt_u32 through the C ABI) beside glibc's arc4random_uniform and
//! rand's `random_range` on ThreadRng.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::RngExt;

#[allow(dead_code)] // shared by several benches, each uses a part
#[path = "common/cabi.rs"]
mod cabi;
#[path = "common/config.rs"]
mod config;
#[allow(dead_code)] // shared by several benches, each uses a part
#[path = "common/glibc.rs"]
mod glibc;

/// The bounds of seed 002: 1 ..= 0x100000, cycled.
struct Bounds(u32);

impl Bounds {
    const MAX: u32 = 0x10_0000;
    fn next(&mut self) -> u32 {
        self.0 = if self.0 >= Self::MAX { 1 } else { self.0 + 1 };
        std::hint::black_box(self.0)
    }
}

fn lt_u32(c: &mut Criterion) {
    let arc4 = glibc::Arc4::load();
    let capi = cabi::CAbi::new();
    let mut g = c.benchmark_group("lt_u32");
    let mut ub = Bounds(0);
    g.bench_function("randp_lt_u32", |b| b.iter(|| randp::lt_u32(ub.next())));
    g.bench_function("randp_lt_u32_c_abi", |b| b.iter(|| capi.lt_u32(ub.next())));
    if let Some(arc4) = arc4 {
        g.bench_function("arc4random_uniform", |b| b.iter(|| arc4.uniform(ub.next())));
    }
    let mut thread_rng = rand::rng();
    g.bench_function("rand_random_range", |b| {
        b.iter(|| thread_rng.random_range(0..ub.next()))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::criterion();
    targets = lt_u32
}
criterion_main!(benches);
