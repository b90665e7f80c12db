//! Filling a buffer from Rust, 1 MiB and 256 B per call: randp::fill_bytes
//! beside rand's ThreadRng and StdRng (ChaCha12), the getrandom crate, and
//! the raw AES-256-CTR keystream of randp's engine (the kernel alone, on the
//! backend in use) and of the aes crate. (The C libraries are
//! compared through the C ABI in benches/c.) Throughput is in bytes.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ctr::cipher::{KeyIvInit, StreamCipher};
use rand::Rng;
use std::hint::black_box;

#[path = "common/config.rs"]
mod config;
#[path = "common/rivals.rs"]
mod rivals;

type Aes256Ctr = ctr::Ctr128BE<aes::Aes256>;

/// The bare keystream of the same aes crate randp uses: the ceiling.
fn keystream() -> Aes256Ctr {
    let mut key_iv = [0u8; 48];
    getrandom::fill(&mut key_iv).expect("OS entropy");
    Aes256Ctr::new(key_iv[..32].try_into().unwrap(), key_iv[32..].try_into().unwrap())
}

fn fill_group(c: &mut Criterion, group_name: &str, size: usize) {
    let mut buf = vec![0u8; size];
    let mut g = c.benchmark_group(group_name);
    g.throughput(Throughput::Bytes(size as u64));

    g.bench_function("randp_bytes", |b| b.iter(|| randp::fill_bytes(black_box(&mut buf))));
    let mut thread_rng = rand::rng();
    g.bench_function("rand_ThreadRng", |b| b.iter(|| thread_rng.fill_bytes(black_box(&mut buf))));
    let mut std_rng = rivals::std_rng();
    g.bench_function("rand_StdRng", |b| b.iter(|| std_rng.fill_bytes(black_box(&mut buf))));
    g.bench_function("getrandom_crate", |b| b.iter(|| getrandom::fill(black_box(&mut buf)).expect("OS entropy")));
    let mut ks = keystream();
    g.bench_function("aes256ctr_keystream", |b| b.iter(|| ks.write_keystream(black_box(&mut buf))));
    let mut engine = randp::internals::Keystream::new();
    g.bench_function("randp_keystream", |b| b.iter(|| engine.fill(black_box(&mut buf))));
    g.finish();
}

fn fill_1mib(c: &mut Criterion) {
    fill_group(c, "fill_1MiB", 1 << 20);
}

fn fill_256b(c: &mut Criterion) {
    fill_group(c, "fill_256B", 256);
}

criterion_group! {
    name = benches;
    config = config::criterion();
    targets = fill_1mib, fill_256b
}
criterion_main!(benches);
