//! Two threads drawing at once against one: filling 1 MiB and drawing
//! batches of u64. Each sample runs its threads inside `std::thread::scope`
//! (the one-thread case too, so both pay the same spawn cost), and the
//! throughput counts the work of every thread.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "common/config.rs"]
mod config;

const FILL: usize = 1 << 20;
const BATCH: u64 = 4096;

/// Runs `work(iters)` on `threads` threads at once; the wall time of all.
fn scoped(threads: usize, iters: u64, work: impl Fn(u64) + Sync) -> Duration {
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| work(iters));
        }
    });
    start.elapsed()
}

fn fill_threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("threads_fill_1MiB");
    for threads in [1usize, 2] {
        g.throughput(Throughput::Bytes((FILL * threads) as u64));
        g.bench_function(format!("randp_{threads}_thread"), |b| {
            b.iter_custom(|iters| {
                scoped(threads, iters, |iters| {
                    let mut buf = vec![0u8; FILL];
                    for _ in 0..iters {
                        randp::fill_bytes(black_box(&mut buf));
                    }
                })
            })
        });
    }
    g.finish();
}

fn u64_threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("threads_u64");
    for threads in [1usize, 2] {
        g.throughput(Throughput::Elements(BATCH * threads as u64));
        g.bench_function(format!("randp_{threads}_thread"), |b| {
            b.iter_custom(|iters| {
                scoped(threads, iters, |iters| {
                    for _ in 0..iters * BATCH {
                        black_box(randp::u64());
                    }
                })
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::criterion();
    targets = fill_threads, u64_threads
}
criterion_main!(benches);
