//! What the mix of the kernel's current output (the vDSO's getrandom) into
//! every refill's key costs: `u64`, and fills of 64 B, 4 KiB and 1 MiB,
//! each with the mix on and off (`internals::set_kernel_mix_off`), side by
//! side in one process. Groups `kernel_mix_u64`, `kernel_mix_fill_64B`,
//! `kernel_mix_fill_4KiB` and `kernel_mix_fill_1MiB`, benchmarks `on` and
//! `off`. Where the process has no vDSO getrandom the two are the same code.

use criterion::Throughput;
use randp::internals::set_kernel_mix_off;
use std::hint::black_box;

#[path = "common/config.rs"]
mod config;

/// The fills, by group and size.
const FILLS: [(&str, usize); 3] =
    [("kernel_mix_fill_64B", 64), ("kernel_mix_fill_4KiB", 4096), ("kernel_mix_fill_1MiB", 1 << 20)];

fn main() {
    let mut c = config::criterion().configure_from_args();
    randp::u64();
    eprintln!(
        "kernel_mix: the vDSO's getrandom is {}",
        if randp::internals::kernel_mix_available() { "used" } else { "absent" }
    );
    let mut g = c.benchmark_group("kernel_mix_u64");
    g.throughput(Throughput::Elements(1));
    for (name, off) in [("on", false), ("off", true)] {
        set_kernel_mix_off(off);
        g.bench_function(name, |b| b.iter(randp::u64));
    }
    g.finish();
    for (group, size) in FILLS {
        let mut buf = vec![0u8; size];
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Bytes(size as u64));
        for (name, off) in [("on", false), ("off", true)] {
            set_kernel_mix_off(off);
            g.bench_function(name, |b| b.iter(|| randp::fill_bytes(black_box(&mut buf))));
        }
        g.finish();
    }
    set_kernel_mix_off(false);
    c.final_summary();
}
