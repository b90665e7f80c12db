//! Fast key erasure under signals, tested as an attacker who reads memory
//! after the fact would: a thread draws (direct fills, and word draws that
//! refill) under an interval-timer signal storm aimed at it, with and without
//! an alternate signal stack; after every call, another thread reads the
//! drawing thread's dead stack and its alternate stack through
//! /proc/self/mem and looks for every round key of every key the call used
//! or replaced, and (after refills) for every intermediate cipher state of
//! those keys' blocks. The kernel saves all registers in a signal frame, so
//! without randp's protection a signal that lands inside a keystream call
//! leaves its keys there: the control switches the protection off and must
//! find them. Every keystream backend this CPU runs, each in a child process
//! (a backend is chosen once per process); release and debug builds (`make
//! test`).
//!
//! Where the CPU has AMX, every configuration also runs with the drawing
//! thread's AMX tile data in use, which makes each signal frame the largest
//! the kernel writes (some 11 KiB here, against 3.4 KiB without: the 8 KiB
//! of tile data lie right below the red zone, and the vector registers, and
//! so the keys, below them). The protection must wipe that far: on a CPU
//! whose `AT_MINSIGSTKSZ` counts the tile data, every other configuration
//! passes with the wipe cut to a quarter of its length, which covers a
//! frame without tile data.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use randp::internals::{self, Backend};
use std::collections::HashSet;
use std::fs::File;
use std::hint::black_box;
use std::os::unix::fs::FileExt;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;

mod support;
use support::amx::{amx_supported, use_amx_tiles};
use support::field;
use support::scan::{Secrets, at_depth, chain, mask_signal};

const ROLE: &str = "RANDP_SIGNAL_FRAMES_CHILD";

/// How much stack is read back below the loop (the draws run
/// `support::scan::DEPTH` below it), and the size of the alternate signal
/// stack.
const SCAN: usize = 160 * 1024;
const ALTSTACK: usize = 64 * 1024;
/// The timer's interval.
const INTERVAL_NS: i64 = 20_000;
/// Output of a fill round: enough for several signals per call, and a
/// block count that is not a multiple of 8, so that the keystream kernels'
/// tail (the last blocks of a batch) runs too: the portable backend's
/// tail is where its key is seen without the protection.
const FILL: usize = 256 * 1024 + 64;

fn supported() -> Vec<Backend> {
    Backend::ALL.into_iter().filter(|b| b.supported()).collect()
}

/// Runs the child for one configuration and returns its summary line.
/// Without `rseq`, glibc registers no restartable sequence area, as on
/// glibc before 2.35 or musl.
fn run_child(backend: Backend, altstack: bool, protected: bool, rseq: bool, amx: bool) -> String {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child", "--test-threads=1", "--nocapture"]);
    cmd.env(ROLE, format!("{},{},{},{}", backend.name(), u8::from(altstack), u8::from(protected), u8::from(amx)));
    if !rseq {
        cmd.env("GLIBC_TUNABLES", "glibc.pthread.rseq=0");
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let at = stdout.find("signal frames:").unwrap_or_else(|| panic!("{stdout}"));
    let line = stdout[at..].lines().next().unwrap();
    eprintln!("{line}");
    line.to_owned()
}

#[test]
fn no_key_in_any_signal_frame_on_any_backend() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    let amx: &[bool] = if amx_supported() { &[false, true] } else { &[false] };
    for &amx in amx {
        for b in supported() {
            for altstack in [false, true] {
                for rseq in [true, false] {
                    let line = run_child(b, altstack, true, rseq, amx);
                    assert_eq!(field(&line, "leaks"), 0, "{line}");
                    if amx {
                        // The frame with tile data: more than the 8 KiB of tiles.
                        assert!(field(&line, "frame") > 8192, "the tile data is not in the frames: {line}");
                    }
                    assert!(field(&line, "interrupted") > 0, "no call was interrupted, so nothing was tested: {line}");
                    // A round whose key chain cannot be followed looks for
                    // keys the call never had.
                    assert!(2 * field(&line, "followed") > field(&line, "rounds"), "key chains not followed: {line}");
                    // musl registers no restartable sequence area, whatever the
                    // environment says: the fallback runs there.
                    let registered = rseq && cfg!(target_env = "gnu");
                    let expected = if registered && b != Backend::Portable { "rseq" } else { "blocked-signals" };
                    assert!(line.contains(&format!("protection {expected} ")), "{line}");
                    if expected == "rseq" {
                        assert!(field(&line, "aborts") > 0, "no interrupted kernel was resumed: {line}");
                    }
                }
            }
        }
    }
}

/// The control: without the protection, the same storm leaves keys in signal
/// frames on every backend, so the scan above can fail.
#[test]
fn control_without_the_protection_keys_are_found() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    for b in supported() {
        for altstack in [false, true] {
            let line = run_child(b, altstack, false, true, false);
            assert!(field(&line, "leaks") > 0, "the scan found nothing without the protection: {line}");
        }
    }
}

// The child.

static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// Signals that arrived while a draw was running.
static DURING: AtomicUsize = AtomicUsize::new(0);
static IN_DRAW: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_signal(_: libc::c_int) {
    SIGNALS.fetch_add(1, Relaxed);
    if IN_DRAW.load(Relaxed) != 0 {
        DURING.fetch_add(1, Relaxed);
    }
}

/// The bytes between the stack pointer a signal interrupted and the
/// handler's frame: the signal frame, for the report ([`frame_size`]).
static FRAME: AtomicUsize = AtomicUsize::new(0);

extern "C" fn measure_frame(_: libc::c_int, _: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    let local = 0u8;
    // SAFETY: the kernel passes the interrupted context as the third argument.
    let sp = unsafe { (*ctx.cast::<libc::ucontext_t>()).uc_mcontext.gregs[libc::REG_RSP as usize] } as usize;
    FRAME.store(sp - black_box(&local) as *const u8 as usize, Relaxed);
}

/// The size of a signal frame on this thread's stack now, measured with a
/// signal sent to itself.
fn frame_size() -> usize {
    // SAFETY: installs a handler that only reads its context and stores an
    // atomic, raises the signal on this thread, and restores the default.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = measure_frame as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize;
        sa.sa_flags = libc::SA_SIGINFO;
        assert_eq!(libc::sigaction(libc::SIGUSR2, &sa, std::ptr::null_mut()), 0);
        assert_eq!(libc::syscall(libc::SYS_tgkill, libc::getpid(), libc::gettid(), libc::SIGUSR2), 0);
        sa.sa_sigaction = libc::SIG_DFL;
        sa.sa_flags = 0;
        assert_eq!(libc::sigaction(libc::SIGUSR2, &sa, std::ptr::null_mut()), 0);
    }
    FRAME.load(Relaxed)
}

/// One round's work, made at depth by the drawing thread.
#[derive(Clone, Copy)]
enum Work {
    Fill,
    Words,
}

/// What the drawing thread reports after a round: the key before and the
/// key after.
struct Report {
    before: Box<[[u8; 16]; 15]>,
    after: Box<[[u8; 16]; 15]>,
    /// A fill round's output.
    output: Vec<u8>,
}

fn round_keys() -> Box<[[u8; 16]; 15]> {
    let mut k = Box::new([[0u8; 16]; 15]);
    assert!(internals::copy_thread_round_keys(&mut k), "no userspace state");
    k
}

/// Word draws per words round: a buffer's worth. [`align_buffer`] leaves
/// the buffer one word short of a whole one, so that every round ends with
/// a refill: the storm's last signal, whose frame the scan reads on the
/// alternate stack, then often lands in it.
fn words_per_round() -> usize {
    internals::thread_buffer_len().expect("a userspace state") / 8
}

/// On a thread whose first draw (one byte) has just refilled the state
/// page's buffer: attaches the extension, empties the buffer byte by byte,
/// and refills it with one word draw, which leaves a whole buffer but 8
/// bytes unread.
fn align_buffer() {
    let first = internals::DEFAULT_BLOCKS * 16 - 1;
    let _ = internals::thread_buffer_len();
    for _ in 0..first {
        black_box(randp::u8());
    }
    black_box(randp::u64());
}

fn draw(work: Work, buf: &mut [u8], words: usize) {
    IN_DRAW.store(1, Relaxed);
    match work {
        Work::Fill => randp::fill_bytes(buf),
        Work::Words => {
            for _ in 0..words {
                black_box(randp::u64());
            }
        }
    }
    IN_DRAW.store(0, Relaxed);
}

fn key_of(rk: &[[u8; 16]; 15]) -> [u8; 32] {
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&rk[0]);
    k[16..].copy_from_slice(&rk[1]);
    k
}

/// The keys a round used or replaced: from the key before it along the
/// chain to the key after it (not included); at most 64 (a reseed breaks
/// the chain: keys that never existed are never found, so walking past it
/// costs nothing but time).
fn keys_of_round(r: &Report) -> Vec<[u8; 32]> {
    chain(key_of(&r.before), key_of(&r.after), 64)
}

/// Whether a fill's output holds the keystream of the key it started with,
/// from counter 2 on, for every whole block after the bytes it took from
/// the buffer (at most a buffer's worth): the kernels resume correctly
/// after an interruption. Only for rounds without a reseed (which changes
/// the key in the middle of a fill).
fn fill_is_keystream(r: &Report) -> bool {
    let key = key_of(&r.before);
    let aes = Aes256::new((&key).into());
    let block = |ctr: u128| {
        let mut b = ctr.to_be_bytes().into();
        aes.encrypt_block(&mut b);
        <[u8; 16]>::from(b)
    };
    let first = block(2);
    let Some(start) = r.output[..4096].windows(16).position(|w| w == first) else { return false };
    let blocks = (r.output.len() - start) / 16 - 1;
    (0..blocks).all(|i| r.output[start + 16 * i..][..16] == block(2 + i as u128))
}

/// The 16-byte values whose presence in memory betrays a key: every round
/// key, and (for refills) every intermediate state of the first 1,000
/// blocks (a refill makes 990 with the extension), computed with the CPU's
/// AES round instruction.
fn secrets(keys: &[[u8; 32]], intermediate: bool) -> HashSet<[u8; 16]> {
    let mut s = HashSet::new();
    for key in keys {
        let rk = internals::round_keys_of(key).expect("AES-NI");
        s.extend(rk.iter().copied());
        if intermediate {
            for ctr in 0u128..1000 {
                // SAFETY: the CPU has AES-NI (round_keys_of checked it); the
                // loads and stores are of 16-byte arrays.
                unsafe {
                    use core::arch::x86_64::*;
                    let ld = |b: &[u8; 16]| _mm_loadu_si128(b.as_ptr().cast());
                    let mut st = _mm_xor_si128(ld(&ctr.to_be_bytes()), ld(&rk[0]));
                    for r in rk.iter().take(14).skip(1) {
                        let mut out = [0u8; 16];
                        _mm_storeu_si128(out.as_mut_ptr().cast(), st);
                        s.insert(out);
                        st = _mm_aesenc_si128(st, ld(r));
                    }
                }
            }
        }
    }
    s
}

#[test]
fn child() {
    let Ok(role) = std::env::var(ROLE) else { return };
    let parts: Vec<&str> = role.split(',').collect();
    let backend = Backend::ALL.into_iter().find(|b| b.name() == parts[0]).unwrap();
    let (altstack, protected, amx) = (parts[1] == "1", parts[2] == "1", parts[3] == "1");
    assert!(internals::force_backend(backend));
    internals::set_signal_frame_protection_off(!protected);
    // The key chain this test follows from the key before a call to the
    // key after it is fast key erasure's alone: the mix of the kernel's
    // output at refills (tests/vm_restore.rs tests it) would break it.
    internals::set_kernel_mix_off(true);
    // SAFETY: installs a handler that only touches atomics. Without
    // SA_ONSTACK the frames go on the thread's stack (Rust's runtime gives
    // every thread an alternate stack of its own for its overflow handler).
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = libc::SA_RESTART | if altstack { libc::SA_ONSTACK } else { 0 };
        assert_eq!(libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut()), 0);
    }

    let (to_drawer, work_rx) = mpsc::channel::<Option<Work>>();
    let (report_tx, reports) = mpsc::channel::<Report>();
    let (info_tx, info) = mpsc::channel::<(libc::pid_t, usize, usize, usize)>();
    let drawer = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let marker = 0u8;
            let top = black_box(&marker) as *const u8 as usize;
            if amx {
                use_amx_tiles();
            }
            let frame = frame_size();
            let mut alt = 0;
            if altstack {
                let mem: &'static mut [u8] = Box::leak(vec![0u8; ALTSTACK].into_boxed_slice());
                alt = mem.as_mut_ptr() as usize;
                let ss = libc::stack_t { ss_sp: mem.as_mut_ptr().cast(), ss_flags: 0, ss_size: ALTSTACK };
                // SAFETY: a valid stack_t for memory that lives forever.
                assert_eq!(unsafe { libc::sigaltstack(&ss, std::ptr::null_mut()) }, 0);
            }
            mask_signal(libc::SIGUSR1, true);
            let mut buf = vec![0u8; FILL];
            randp::fill_bytes(&mut buf[..1]);
            align_buffer();
            let words = words_per_round();
            // SAFETY: gettid has no preconditions.
            info_tx.send((unsafe { libc::gettid() }, top, alt, frame)).unwrap();
            while let Ok(Some(work)) = work_rx.recv() {
                let before = round_keys();
                // The storm reaches this thread during the draw only: later
                // frames would overwrite the ones on the alternate stack
                // before they are read.
                mask_signal(libc::SIGUSR1, false);
                at_depth(&mut || draw(work, &mut buf, words));
                mask_signal(libc::SIGUSR1, true);
                let after = round_keys();
                let output = if matches!(work, Work::Fill) { buf.clone() } else { Vec::new() };
                report_tx.send(Report { before, after, output }).unwrap();
            }
        })
        .unwrap();
    let (tid, top, alt, frame) = info.recv().unwrap();

    // The storm: a timer that signals the drawing thread every INTERVAL_NS.
    // SAFETY: a zeroed sigevent and itimerspec are valid; the timer is
    // created for this process's thread `tid` and deleted below.
    let timer = unsafe {
        let mut sev: libc::sigevent = std::mem::zeroed();
        sev.sigev_notify = libc::SIGEV_THREAD_ID;
        sev.sigev_signo = libc::SIGUSR1;
        sev.sigev_notify_thread_id = tid;
        let mut timer: libc::timer_t = std::mem::zeroed();
        assert_eq!(libc::timer_create(libc::CLOCK_MONOTONIC, &mut sev, &mut timer), 0);
        let mut its: libc::itimerspec = std::mem::zeroed();
        its.it_value.tv_nsec = INTERVAL_NS;
        its.it_interval.tv_nsec = INTERVAL_NS;
        assert_eq!(libc::timer_settime(timer, 0, &its, std::ptr::null_mut()), 0);
        timer
    };

    let mem = File::open("/proc/self/mem").unwrap();
    let mut stack = vec![0u8; SCAN];
    let mut altmem = vec![0u8; if altstack { ALTSTACK } else { 0 }];
    // Protected: 60 rounds, none may leak. The control: until a round leaks.
    let (rounds, cap) = if cfg!(debug_assertions) { (30, 200) } else { (60, 600) };
    let more = |done: usize, leaky: usize| if protected { done < rounds } else { leaky == 0 && done < cap };
    let (mut done, mut leaky, mut leaks, mut followed) = (0, 0, 0, 0);
    let (aborts0, mut interrupted, mut checked) = (internals::signal_frame_aborts(), 0, 0);
    while more(done, leaky) {
        let work = if done % 2 == 0 { Work::Fill } else { Work::Words };
        let during = DURING.load(Relaxed);
        to_drawer.send(Some(work)).unwrap();
        let report = reports.recv().unwrap();
        interrupted += usize::from(DURING.load(Relaxed) != during);
        let keys = keys_of_round(&report);
        followed += usize::from(keys.len() < 64);
        if matches!(work, Work::Fill) && keys.len() < 64 {
            assert!(fill_is_keystream(&report), "round {done}: the fill is not the keystream of its key");
            checked += 1;
        }
        let s = Secrets::new(secrets(&keys, matches!(work, Work::Words)));
        mem.read_exact_at(&mut stack, (top - SCAN) as u64).unwrap();
        let mut found = s.count_in(&stack);
        if altstack {
            mem.read_exact_at(&mut altmem, alt as u64).unwrap();
            found += s.count_in(&altmem);
        }
        leaks += found;
        leaky += usize::from(found > 0);
        done += 1;
    }
    // SAFETY: the timer created above.
    unsafe { libc::timer_delete(timer) };
    to_drawer.send(None).unwrap();
    drawer.join().unwrap();
    let protection = internals::signal_frame_protection().replace(' ', "-");
    println!(
        "signal frames: backend {} altstack {} protected {} protection {protection} amx {} frame {frame} rounds {done} interrupted {interrupted} followed {followed} outputs-checked {checked} leaky {leaky} leaks {leaks} aborts {} signals {}",
        backend.name(),
        u8::from(altstack),
        u8::from(protected),
        u8::from(amx),
        internals::signal_frame_aborts() - aborts0,
        SIGNALS.load(Relaxed),
    );
}
