//! One uniform word per call from Rust: randp::u32 and randp::u64 beside
//! rand's ThreadRng and StdRng (ChaCha12), the getrandom crate, and fastrand
//! as the non-cryptographic floor, and, generating nothing, a thread-local
//! word loaded and zeroed (`copyzero_u32`). (The C libraries are compared
//! through the C ABI in benches/c.)

use criterion::{Criterion, criterion_group, criterion_main};
use rand::Rng;
use std::cell::UnsafeCell;
use std::hint::black_box;

#[path = "common/config.rs"]
mod config;
#[path = "common/rivals.rs"]
mod rivals;

/// A thread-local buffer of words and the index of the next, for
/// `copyzero_u32`.
struct Words {
    next: usize,
    words: [u32; 512],
}

thread_local! {
    static WORDS: UnsafeCell<Words> = const { UnsafeCell::new(Words { next: 0, words: [0x9e37_79b9; 512] }) };
}

/// No generator: the next word of a thread-local buffer, loaded and zeroed
/// there, and the index stored back (benches/c's `copyzero_u64` in Rust).
/// The least a draw costs that hands out words from a per-thread buffer
/// and erases them, keystream aside; the report sets randp's `u32` beside it.
#[inline]
fn copyzero_u32() -> u32 {
    WORDS.with(|w| {
        let w = w.get();
        // SAFETY: the buffer is this thread's, and no reference to it
        // outlives this call.
        unsafe {
            let i = (*w).next;
            let v = (*w).words[i];
            (*w).words[i] = 0;
            (*w).next = (i + 1) % 512;
            v
        }
    })
}

fn u32_per_call(c: &mut Criterion) {
    let mut g = c.benchmark_group("u32");
    g.bench_function("randp_u32", |b| b.iter(randp::u32));
    g.bench_function("copyzero_u32", |b| b.iter(copyzero_u32));
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
