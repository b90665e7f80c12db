//! Every way randp gives up ends the process with a message and no output:
//! getrandom(2) failing at the first seed or at a later reseed, with any
//! error but EINTR (EIO, EPERM and ENOSYS, as seccomp policies and old kernels
//! return), and rt_sigprocmask(2) refused where keystream calls must block
//! signals (running them anyway would leave keys in signal frames). Each case runs in a child process (this binary re-run with a
//! role), because aborting is the behaviour under test. (A NULL buffer passed
//! to randp_bytes is in tests/bad_input.rs and tests/c/test_randp.c.)
//!
//! `reseed-by-word-draws` and `reseed-by-small-fills` bound the reseed
//! interval from the other side, along the paths most programs take: word
//! draws and small fills, which reach the OS only through buffer refills.
//! Whatever a seeded state holds when getrandom starts failing (its unread
//! buffer, at most 15,616 bytes, and what is left of its interval, at most
//! 1 MiB), 1 MiB + 16 KiB more of output needs a reseed, so the process must
//! abort before any of it is written. A refill (15,616 bytes with the
//! extension, 3,328 without) does not divide the interval, so one refill
//! finds less of it left than it writes (with the extension the 67th:
//! 1,728 bytes left): `reseed` alone passes with a generator that reseeds
//! only when the interval is exactly used up and otherwise lets the count
//! wrap around (never reseeding again in a release build; a debug build's
//! overflow check panics), as the direct fills it makes use the interval up
//! exactly.

mod support;
use support::{ROLE, fail_syscall, run_child, signal, skip_without_seccomp, write_all};

const ENTROPY_MESSAGE: &str = "randp: the OS entropy source failed";

fn child(role: &str) {
    match role {
        "first-seed" => {
            fail_syscall(libc::SYS_getrandom, libc::EIO, None);
            let mut b = [0u8; 64];
            randp::fill_bytes(&mut b);
            write_all(1, &b);
        }
        "reseed" => {
            let mut b = vec![0u8; 4096];
            randp::fill_bytes(&mut b); // seeded while the OS still answers
            fail_syscall(libc::SYS_getrandom, libc::EIO, None);
            // More than one reseed interval (1 MiB) must need the OS again.
            let mut big = vec![0u8; 2 << 20];
            randp::fill_bytes(&mut big);
            write_all(1, &big);
        }
        "reseed-by-word-draws" | "reseed-by-small-fills" => {
            let _ = randp::u64(); // seeded while the OS still answers
            fail_syscall(libc::SYS_getrandom, libc::EIO, None);
            // More than any seeded state holds: its unread buffer and the
            // rest of one reseed interval (1 MiB).
            let total = (1 << 20) + (16 << 10);
            let mut acc = [0u8; 8];
            for _ in 0..total / 8 {
                let w = if role == "reseed-by-word-draws" {
                    randp::u64().to_ne_bytes()
                } else {
                    let mut b = [0u8; 8];
                    randp::fill_bytes(&mut b);
                    b
                };
                for (a, b) in acc.iter_mut().zip(w) {
                    *a ^= b;
                }
            }
            write_all(1, &acc);
        }
        "u64-first-seed" => {
            fail_syscall(libc::SYS_getrandom, libc::EIO, None);
            let x = randp::u64();
            write_all(1, &x.to_ne_bytes());
        }
        "first-seed-eperm" | "first-seed-enosys" => {
            let errno = if role.ends_with("eperm") { libc::EPERM } else { libc::ENOSYS };
            fail_syscall(libc::SYS_getrandom, errno, None);
            let mut b = [0u8; 16];
            randp::fill_bytes(&mut b);
            write_all(1, &b);
        }
        "other-thread-after-seed" => {
            // A thread that seeded before the filter, then a new thread
            // whose first draw needs the OS.
            let _ = randp::u64();
            fail_syscall(libc::SYS_getrandom, libc::EPERM, None);
            let x = std::thread::spawn(randp::u64).join().unwrap();
            write_all(1, &x.to_ne_bytes());
        }
        "sigprocmask-denied" | "sigprocmask-restore-denied" => {
            // Run with glibc.pthread.rseq=0 (or on musl): every keystream
            // call blocks signals, which the filter now refuses, or lets it
            // block them and refuses to restore the mask (SIG_SETMASK).
            let how = (role == "sigprocmask-restore-denied").then_some((0, libc::SIG_SETMASK as u32));
            fail_syscall(libc::SYS_rt_sigprocmask, libc::EPERM, how);
            let mut b = [0u8; 64];
            randp::fill_bytes(&mut b);
            write_all(1, &b);
        }
        other => panic!("unknown role {other}"),
    }
    std::process::exit(0);
}

fn expect_abort(role: &str, message: &str) {
    let out = if role.starts_with("sigprocmask") {
        // No rseq area, so that keystream calls block signals.
        support::command(std::env::current_exe().expect("own path"))
            .env(ROLE, role)
            .env("GLIBC_TUNABLES", "glibc.pthread.rseq=0")
            .output()
            .expect("spawn child")
    } else {
        run_child(role)
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(signal(&out), Some(libc::SIGABRT), "{role}: status {:?}, stderr {stderr}", out.status);
    assert!(stderr.contains(message), "{role}: stderr was {stderr:?}");
    assert!(out.stdout.is_empty(), "{role}: {} bytes reached stdout", out.stdout.len());
}

fn main() {
    if let Ok(role) = std::env::var(ROLE) {
        child(&role);
    }
    let cases: &[(&str, &str)] = &[
        ("first-seed", ENTROPY_MESSAGE),
        ("reseed", ENTROPY_MESSAGE),
        ("reseed-by-word-draws", ENTROPY_MESSAGE),
        ("reseed-by-small-fills", ENTROPY_MESSAGE),
        ("u64-first-seed", ENTROPY_MESSAGE),
        ("first-seed-eperm", ENTROPY_MESSAGE),
        ("first-seed-enosys", ENTROPY_MESSAGE),
        ("other-thread-after-seed", ENTROPY_MESSAGE),
        ("sigprocmask-denied", "randp: rt_sigprocmask failed, so signals cannot be blocked"),
        ("sigprocmask-restore-denied", "randp: rt_sigprocmask failed to restore the signal mask"),
    ];
    if skip_without_seccomp("abort_paths: every case") {
        println!("abort_paths: 0 passed, 0 failed, {} skipped", cases.len());
        return;
    }
    for (role, message) in cases {
        expect_abort(role, message);
        println!("abort_paths::{role} ... ok");
    }
    println!("abort_paths: {} passed, 0 failed", cases.len());
}
