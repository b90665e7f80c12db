//! Filling a buffer, seed 002's "Fill a buffer with random bytes" table:
//! 1 MiB calls and 256 B calls, randp beside glibc's arc4random_buf,
//! getentropy, the getrandom crate, rand's ThreadRng, and the raw
//! AES-256-CTR keystream of the aes crate as the ceiling.
//! Throughput is reported in bytes, from which the report derives
//! "time to generate 4 GiB".

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ctr::cipher::{KeyIvInit, StreamCipher};
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

type Aes256Ctr = ctr::Ctr128BE<aes::Aes256>;

/// The bare keystream of the same aes crate randp uses: the ceiling.
fn keystream() -> Aes256Ctr {
    let mut key_iv = [0u8; 48];
    getrandom::fill(&mut key_iv).expect("OS entropy");
    Aes256Ctr::new(key_iv[..32].try_into().unwrap(), key_iv[32..].try_into().unwrap())
}

fn fill_group(c: &mut Criterion, group_name: &str, size: usize) {
    let arc4 = glibc::Arc4::load();
    let capi = cabi::CAbi::new();
    let mut buf = vec![0u8; size];
    let mut g = c.benchmark_group(group_name);
    g.throughput(Throughput::Bytes(size as u64));

    g.bench_function("randp_bytes", |b| {
        b.iter(|| {
            randp::fill_bytes(black_box(&mut buf));
        })
    });
    g.bench_function("randp_bytes_c_abi", |b| {
        b.iter(|| capi.bytes(black_box(&mut buf)))
    });
    if let Some(arc4) = arc4 {
        g.bench_function("arc4random_buf", |b| {
            b.iter(|| arc4.fill(black_box(&mut buf)))
        });
    }
    // getentropy refuses more than 256 bytes: a bigger buffer takes 256 B calls.
    g.bench_function("getentropy", |b| {
        b.iter(|| {
            for chunk in black_box(&mut buf).chunks_mut(256) {
                glibc::getentropy(chunk);
            }
        })
    });
    g.bench_function("getrandom_crate", |b| {
        b.iter(|| getrandom::fill(black_box(&mut buf)).expect("OS entropy"))
    });
    let mut thread_rng = rand::rng();
    g.bench_function("rand_ThreadRng", |b| {
        b.iter(|| thread_rng.fill_bytes(black_box(&mut buf)))
    });
    let mut ks = keystream();
    g.bench_function("aes256ctr_keystream", |b| {
        b.iter(|| ks.write_keystream(black_box(&mut buf)))
    });
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
