//! The parameter sweeps behind `make num-blocks` and `make reseed-countdown`
//! (the targets of the same names in planet36/randp): the generator core
//! `randp::internals::Generator<BLOCKS, RESEED>` at several buffer sizes (in
//! 16-byte AES blocks) and reseed intervals (in bytes, at most 1 MiB), each
//! measured filling 1 MiB, filling 256 B and drawing one u64. The groups are
//! `num_blocks_<kind>` and `reseed_countdown_<kind>`, one benchmark per
//! parameter value; `tools/benchreport -sweep` prints the table.
//!
//! Needs `--features internals`; pass `num_blocks` or `reseed_countdown` as
//! the criterion filter to run one sweep.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use randp::internals::{DEFAULT_BLOCKS, DEFAULT_RESEED, Generator};
use std::hint::black_box;

#[path = "common/config.rs"]
mod config;

/// What one benchmark of a sweep does per iteration.
#[derive(Clone, Copy)]
enum Kind {
    Fill1MiB,
    Fill256B,
    U64,
}

const KINDS: [Kind; 3] = [Kind::Fill1MiB, Kind::Fill256B, Kind::U64];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Fill1MiB => "fill_1MiB",
            Kind::Fill256B => "fill_256B",
            Kind::U64 => "u64",
        }
    }
}

/// Benches a fresh OS-seeded `Generator<BLOCKS, RESEED>` as benchmark `label`.
fn bench_one<const BLOCKS: usize, const RESEED: usize>(g: &mut BenchmarkGroup<'_, WallTime>, kind: Kind, label: usize) {
    let mut generator = Generator::<BLOCKS, RESEED>::new();
    let id = label.to_string();
    match kind {
        Kind::Fill1MiB | Kind::Fill256B => {
            let size = if matches!(kind, Kind::Fill1MiB) { 1 << 20 } else { 256 };
            let mut buf = vec![0u8; size];
            g.throughput(Throughput::Bytes(size as u64));
            g.bench_function(id, |b| b.iter(|| generator.fill_bytes(black_box(&mut buf))));
        }
        Kind::U64 => {
            g.throughput(Throughput::Elements(1));
            g.bench_function(id, |b| b.iter(|| generator.u64()));
        }
    }
}

fn num_blocks(c: &mut Criterion) {
    macro_rules! sweep {
        ($($blocks:literal),+) => {
            for kind in KINDS {
                let mut g = c.benchmark_group(format!("num_blocks_{}", kind.name()));
                $( bench_one::<$blocks, DEFAULT_RESEED>(&mut g, kind, $blocks); )+
                g.finish();
            }
        };
    }
    sweep!(16, 32, 64, 128, 256, 512, 1024, 2048, 4096);
}

fn reseed_countdown(c: &mut Criterion) {
    macro_rules! sweep {
        ($($reseed:expr),+) => {
            for kind in KINDS {
                let mut g = c.benchmark_group(format!("reseed_countdown_{}", kind.name()));
                $( bench_one::<DEFAULT_BLOCKS, { $reseed }>(&mut g, kind, $reseed); )+
                g.finish();
            }
        };
    }
    sweep!(64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20);
}

criterion_group! {
    name = benches;
    config = config::criterion();
    targets = num_blocks, reseed_countdown
}
criterion_main!(benches);
