//! Filling a buffer from Rust, 1 MiB and 256 B per call: randp::fill_bytes
//! beside rand's ThreadRng and StdRng (ChaCha12), the getrandom crate, and
//! the raw AES-256-CTR keystream of randp's engine (the kernel alone, on the
//! backend in use) and of the aes crate. (The C libraries are
//! compared through the C ABI in benches/c.) Throughput is in bytes.
//!
//! Group copy_zero: what a call served from randp's buffer pays besides its
//! keystream, the copy out of a 4 KiB buffer and the zeroing behind it (the
//! library's own code, `internals::copy_and_zero`), by call size.

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

/// The buffer of copy_zero: a page, handed out front to back and wrapped.
#[repr(C, align(4096))]
struct Page([u8; 4096]);

fn copy_zero(c: &mut Criterion) {
    let mut g = c.benchmark_group("copy_zero");
    let mut src = Box::new(Page([0; 4096]));
    for size in [16usize, 32, 64, 128, 256, 512, 1024, 2048] {
        let mut dst = vec![0u8; size];
        let mut pos = 0;
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function(format!("{size}"), |b| {
            b.iter(|| {
                if pos + size > src.0.len() {
                    pos = 0;
                }
                randp::internals::copy_and_zero(&mut src.0[pos..], black_box(&mut dst));
                pos += size;
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::criterion();
    targets = fill_1mib, fill_256b, copy_zero
}
criterion_main!(benches);
