//! randp's free functions on each keystream backend this CPU can run, so that
//! one machine shows what a CPU with fewer AES instructions gets: the
//! `aesni` backend is what an AES-NI-only CPU runs, `portable` what a CPU
//! without AES instructions runs. Groups `backend_fill_256B`,
//! `backend_fill_4KiB`, `backend_fill_1MiB` and `backend_u64`, one benchmark
//! per backend, named for it.
//!
//! The backend is the process's, fixed before its first draw, so this
//! program runs itself once per backend the CPU supports, with
//! `RANDP_BENCH_BACKEND` naming it and the same arguments: each backend is
//! measured in a process of its own.

use criterion::{Criterion, Throughput};
use randp::internals::{Backend, force_backend};
use std::hint::black_box;
use std::process::Command;

#[path = "common/config.rs"]
mod config;

/// The variable that names the backend of a child run.
const BACKEND: &str = "RANDP_BENCH_BACKEND";

/// The fills, by group and size.
const FILLS: [(&str, usize); 3] =
    [("backend_fill_256B", 256), ("backend_fill_4KiB", 4096), ("backend_fill_1MiB", 1 << 20)];

fn bench(c: &mut Criterion, name: &str) {
    for (group, size) in FILLS {
        let mut buf = vec![0u8; size];
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function(name, |b| b.iter(|| randp::fill_bytes(black_box(&mut buf))));
        g.finish();
    }
    let mut g = c.benchmark_group("backend_u64");
    g.throughput(Throughput::Elements(1));
    g.bench_function(name, |b| b.iter(randp::u64));
    g.finish();
}

fn main() {
    if let Ok(name) = std::env::var(BACKEND) {
        let backend = Backend::ALL.into_iter().find(|b| b.name() == name).expect("a backend's name");
        assert!(force_backend(backend), "{name}: not supported on this CPU");
        assert_eq!(randp::keystream_backend(), name);
        let mut c = config::criterion().configure_from_args();
        bench(&mut c, &name);
        c.final_summary();
        return;
    }
    let me = std::env::current_exe().expect("own path");
    for backend in Backend::ALL.into_iter().filter(|b| b.supported()) {
        let status = Command::new(&me)
            .args(std::env::args_os().skip(1))
            .env(BACKEND, backend.name())
            .status()
            .expect("run the backend's process");
        assert!(status.success(), "{}: {status}", backend.name());
    }
}
