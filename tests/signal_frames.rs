//! Fast key erasure under signals, tested as an attacker who reads memory
//! after the fact would: a thread draws (direct fills, and word draws that
//! refill) under an interval-timer signal storm aimed at it, with and without
//! an alternate signal stack; after every call, another thread reads the
//! drawing thread's dead stack and its alternate stack through
//! /proc/self/mem and looks for every round key of every key the call used
//! or replaced, and for intermediate cipher states (the AES state after each
//! of rounds 0 to 13, which a kernel holds in its vector registers for the
//! blocks in flight): after a refill, those of the first 1,000 counter
//! blocks of each key (a refill makes 992); after a direct fill, those of
//! every one of the 16,390 counter blocks of its key (all of them, not the
//! few in flight at some moment: a signal may land in any batch). A fill
//! during which the generator reseeded is searched for the key it started
//! with only (the test cannot know the reseed's key). The kernel saves all
//! registers in a signal frame, so without randp's protection a signal that
//! lands inside a keystream call leaves its keys and states there.
//!
//! What runs where (each configuration a child process, as a backend is
//! chosen once per process; release and debug builds, `make test`):
//! - every keystream backend this CPU runs, with and without the alternate
//!   stack, each both with glibc's rseq area (the protection is "rseq", but
//!   on the portable backend) and with `GLIBC_TUNABLES=glibc.pthread.rseq=0`
//!   (no rseq area, as on musl or glibc before 2.35: "blocked signals");
//!   each child says which protection its drawing thread has, and must
//!   leak nothing in 60 calls (30 in debug), half of them direct fills, a
//!   signal landing during some of those;
//! - the control, with the protection switched off: every backend with and
//!   without the alternate stack with the rseq area, and the x86 backends
//!   also without it, without the alternate stack (on the portable backend
//!   the protection is blocked signals either way). Each must find keys,
//!   and on the x86 backends intermediate states of a direct fill too;
//! - `make test-security-signal-frames-static`: all of it again as a
//!   static-pie binary.
//!
//! Where the CPU has AMX, every protected configuration also runs with the
//! drawing thread's AMX tile data in use, which makes each signal frame the
//! largest the kernel writes (some 11 KiB here, against 3.4 KiB without: the 8 KiB
//! of tile data lie right below the red zone, and the vector registers, and
//! so the keys, below them). The protection must wipe that far: on a CPU
//! whose `AT_MINSIGSTKSZ` counts the tile data, every other configuration
//! passes with the wipe cut to a quarter of its length, which covers a
//! frame without tile data.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use core::arch::x86_64::*;
use randp::internals::{self, Backend};
use std::collections::HashSet;
use std::fs::File;
use std::hint::black_box;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;

mod support;
use support::amx::{amx_supported, use_amx_tiles};
use support::field;
use support::scan::{Secrets, at_depth, chain, mask_signal};
use support::watchdog::Watchdog;

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
/// The counter blocks a fill's key makes: 0 and 1 (the next key), and one
/// per block of output from 2 on.
const FILL_COUNTERS: u128 = (FILL / 16 + 2) as u128;
/// The counter blocks whose intermediate states are searched for each key
/// of a words round: more than a refill's 992 with the extension.
const REFILL_COUNTERS: u128 = 1000;

fn supported() -> Vec<Backend> {
    Backend::ALL.into_iter().filter(|b| b.supported()).collect()
}

/// The protection a child on `backend` reports: rseq where glibc registered
/// an rseq area (not with `rseq` false, nor on musl, which registers none
/// whatever the environment says), and never for the portable backend.
fn expected_protection(backend: Backend, rseq: bool) -> &'static str {
    let registered = rseq && cfg!(target_env = "gnu");
    if registered && backend != Backend::Portable { "rseq" } else { "blocked-signals" }
}

/// Whether the control on `backend` must find intermediate states of a
/// direct fill: on the x86 backends, whose kernels are randp's. The
/// portable backend's keystream is the `aes` crate's (on an x86 CPU its own
/// AES-NI code), whose registers at a signal this test does not count on:
/// its states are searched when it is protected, and its control, which
/// need not find them, does not search them and stops at the first key.
fn wants_fill_states(backend: Backend) -> bool {
    backend != Backend::Portable
}

/// Runs the child for one configuration and returns its summary line,
/// checking the protection it reports. Without `rseq`, glibc registers no
/// restartable sequence area, as on glibc before 2.35 or musl.
fn run_child(backend: Backend, altstack: bool, protected: bool, rseq: bool, amx: bool) -> String {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child", "--test-threads=1", "--nocapture"]);
    cmd.env(ROLE, format!("{},{},{},{}", backend.name(), u8::from(altstack), u8::from(protected), u8::from(amx)));
    if !rseq {
        cmd.env("GLIBC_TUNABLES", "glibc.pthread.rseq=0");
    }
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let watchdog = Watchdog::start(child.id() as libc::pid_t);
    let what = format!("{} altstack {altstack} protected {protected} rseq {rseq}", backend.name());
    let (mut stdout, mut stderr) = (String::new(), String::new());
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    watchdog.finish(&what);
    let status = child.wait().unwrap();
    assert!(status.success(), "{what}: {status}\n{stdout}\n{stderr}");
    let at = stdout.find("signal frames:").unwrap_or_else(|| panic!("{stdout}"));
    let line = stdout[at..].lines().next().unwrap();
    eprintln!("{line}");
    let expected = expected_protection(backend, rseq);
    assert!(line.contains(&format!("protection {expected} ")), "not {expected}: {line}");
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
                    assert!(field(&line, "fills-interrupted") > 0, "no direct fill was interrupted: {line}");
                    // A round whose key chain cannot be followed looks for
                    // keys the call never had.
                    assert!(2 * field(&line, "followed") > field(&line, "rounds"), "key chains not followed: {line}");
                    if expected_protection(b, rseq) == "rseq" {
                        assert!(field(&line, "aborts") > 0, "no interrupted kernel was resumed: {line}");
                    }
                }
            }
        }
    }
}

/// The control: without the protection, the same storm leaves keys in
/// signal frames on every backend, and intermediate states of a direct
/// fill on the x86 backends, so the scan above can fail. With glibc's rseq
/// area, with and without the alternate stack; on the x86 backends also
/// without the rseq area (the portable backend blocks signals either way),
/// in one configuration only, to save time: frames on the thread's stack.
#[test]
fn control_without_the_protection_keys_are_found() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    for b in supported() {
        for (altstack, rseq) in [(false, true), (true, true), (false, false)] {
            if !rseq && b == Backend::Portable {
                continue;
            }
            let line = run_child(b, altstack, false, rseq, false);
            assert!(field(&line, "leaks") > 0, "the scan found nothing without the protection: {line}");
            if wants_fill_states(b) {
                assert!(field(&line, "fill-states") > 0, "no intermediate state of a fill was found: {line}");
            }
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

/// Every round key of every key in `keys`, expanded as the x86_64
/// backends expand them.
fn round_key_secrets(keys: &[[u8; 32]]) -> HashSet<[u8; 16]> {
    keys.iter().flat_map(|key| internals::round_keys_of(key).expect("AES-NI")).collect()
}

/// Adds to `s` every intermediate cipher state of counter blocks
/// `0..blocks` under `key`: the state after each of rounds 0 (the XOR of
/// the first round key) to 13 (the input of the last round), which is what
/// a kernel holds in its vector registers for the blocks in flight,
/// computed with the CPU's AES round instruction.
fn add_states(s: &mut HashSet<[u8; 16]>, key: &[u8; 32], blocks: u128) {
    let rk = internals::round_keys_of(key).expect("AES-NI");
    s.reserve(14 * blocks as usize);
    for ctr in 0..blocks {
        // SAFETY: the CPU has AES-NI (round_keys_of checked it); the loads
        // and stores are of 16-byte arrays.
        unsafe {
            let ld = |b: &[u8; 16]| _mm_loadu_si128(b.as_ptr().cast());
            let mut st = _mm_xor_si128(ld(&ctr.to_be_bytes()), ld(&rk[0]));
            for (round, k) in rk.iter().enumerate().take(14) {
                if round > 0 {
                    st = _mm_aesenc_si128(st, ld(k));
                }
                let mut out = [0u8; 16];
                _mm_storeu_si128(out.as_mut_ptr().cast(), st);
                s.insert(out);
            }
        }
    }
}

/// Every intermediate cipher state of a direct fill: of counter blocks
/// `0..counters` under one key, after each of rounds 0 to 13 (229,000 for a
/// fill of [`FILL`] bytes, too many to put in a [`Secrets`] set at every
/// fill in little time). A filter of all of them on their first three bytes
/// (2 MiB, which passes 1.4% of random windows), and an exact check of a
/// window that passes it, which runs the cipher backwards from it under each
/// hypothesis of its round.
struct FillStates {
    /// The round keys, and their InvMixColumns for `aesdec`.
    rk: [__m128i; 15],
    inv: [__m128i; 15],
    counters: u128,
    filter: Vec<u64>,
}

/// Where [`FillStates`]' filter looks `w` up.
fn filter_index(w: &[u8]) -> usize {
    usize::from(w[0]) << 16 | usize::from(w[1]) << 8 | usize::from(w[2])
}

impl FillStates {
    fn new() -> Self {
        assert!(Backend::AesNi.supported(), "the states are computed with AES-NI");
        // SAFETY: SSE2, which every x86_64 CPU has.
        let zero = unsafe { _mm_setzero_si128() };
        FillStates { rk: [zero; 15], inv: [zero; 15], counters: 0, filter: vec![0u64; 1 << 18] }
    }

    /// Makes these the states of counter blocks `0..counters` under `key`.
    fn set(&mut self, key: &[u8; 32], counters: u128) {
        let rk = internals::round_keys_of(key).expect("AES-NI");
        self.counters = counters;
        self.filter.fill(0);
        // Plain loops over slices and arrays: a debug build runs them
        // several times faster than iterator chains.
        let filter = &mut self.filter[..];
        let mut w = [0u8; 16];
        // SAFETY: the CPU has AES-NI (`new` checked it); the loads and
        // stores are of 16-byte arrays.
        unsafe {
            for (i, bytes) in rk.iter().enumerate() {
                self.rk[i] = _mm_loadu_si128(bytes.as_ptr().cast());
                self.inv[i] = _mm_aesimc_si128(self.rk[i]);
            }
            let rk = self.rk;
            for ctr in 0..counters {
                let mut st = _mm_xor_si128(_mm_loadu_si128(ctr.to_be_bytes().as_ptr().cast()), rk[0]);
                let mut round = 0;
                loop {
                    _mm_storeu_si128(w.as_mut_ptr().cast(), st);
                    let i = filter_index(&w);
                    filter[i / 64] |= 1 << (i % 64);
                    round += 1;
                    if round == 14 {
                        break;
                    }
                    st = _mm_aesenc_si128(st, rk[round]);
                }
            }
        }
    }

    /// Whether `w` is the state after some round `r` (0 to 13) of a counter
    /// block below `counters` (but that of counter 0 after round 0, which is
    /// the first round key, left to the search for round keys). Round `r`
    /// (`aesenc` with round key `k_r`) and the rounds before it are undone
    /// in the inverse cipher's form: `y = aesimc(w ^ k_r)` is round `r`'s
    /// ShiftRows(SubBytes(input)), `aesdec(y, aesimc(k_i))` takes it to
    /// round `i`'s, and `aesdeclast(y, k_0)` to the counter block.
    fn is_state(&self, w: &[u8; 16]) -> bool {
        (0..14).any(|r| {
            let mut block = [0u8; 16];
            // SAFETY: the CPU has AES-NI (`new` checked it); the load and
            // the store are of 16-byte arrays.
            unsafe {
                let w = _mm_loadu_si128(w.as_ptr().cast());
                let ctr = if r == 0 {
                    _mm_xor_si128(w, self.rk[0])
                } else {
                    let mut y = _mm_aesimc_si128(_mm_xor_si128(w, self.rk[r]));
                    for k in self.inv[1..r].iter().rev() {
                        y = _mm_aesdec_si128(y, *k);
                    }
                    _mm_aesdeclast_si128(y, self.rk[0])
                };
                _mm_storeu_si128(block.as_mut_ptr().cast(), ctr);
            }
            let ctr = u128::from_be_bytes(block);
            ctr < self.counters && (r > 0 || ctr > 0)
        })
    }

    /// How many 16-byte windows of `mem` (at every offset) are states. A
    /// window that passes the filter is checked once for a run of equal
    /// windows (a run of zeros, say, passes it wholly or not at all).
    fn count_in(&self, mem: &[u8]) -> usize {
        let mut last: Option<(&[u8], bool)> = None;
        let mut n = 0;
        for w in mem.windows(16) {
            let i = filter_index(w);
            if self.filter[i / 64] & (1 << (i % 64)) == 0 {
                continue;
            }
            let hit = match last {
                Some((prev, hit)) if prev == w => hit,
                _ => self.is_state(w.try_into().unwrap()),
            };
            last = Some((w, hit));
            n += usize::from(hit);
        }
        n
    }
}

#[test]
fn child() {
    let Ok(role) = std::env::var(ROLE) else { return };
    let parts: Vec<&str> = role.split(',').collect();
    let backend = Backend::ALL.into_iter().find(|b| b.name() == parts[0]).unwrap();
    let (altstack, protected, amx) = (parts[1] == "1", parts[2] == "1", parts[3] == "1");
    assert!(internals::force_backend(backend));
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
    let (info_tx, info) = mpsc::channel::<(libc::pid_t, usize, usize, usize, &'static str)>();
    let drawer = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let marker = 0u8;
            let top = black_box(&marker) as *const u8 as usize;
            // How this thread would keep keys out of its signal frames (the
            // protection is switched off, for the control, only once this
            // is known): "rseq" where glibc registered an rseq area for it.
            let mechanism = internals::signal_frame_protection();
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
            info_tx.send((unsafe { libc::gettid() }, top, alt, frame, mechanism)).unwrap();
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
    let (tid, top, alt, frame, mechanism) = info.recv().unwrap();
    internals::set_signal_frame_protection_off(!protected);
    let in_force = internals::signal_frame_protection();
    assert_eq!(in_force == "off", !protected, "protection {in_force} with protected {protected}");

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
    let mut states = FillStates::new();
    // Protected: 60 rounds (30 in a debug build), none may leak. The
    // control: until a round leaks, and (where it must find them, and only
    // there is the search made) a fill round leaks intermediate states, for
    // up to 600 rounds. The portable backend's debug build on an alternate
    // stack leaks in one round of some 80 on average; 200 rounds missed in
    // about one run of 14.
    let (rounds, cap) = if cfg!(debug_assertions) { (30, 600) } else { (60, 600) };
    let want_states = wants_fill_states(backend);
    let search_states = protected || want_states;
    let more = |done: usize, leaky: usize, fill_leaky: usize| {
        if protected { done < rounds } else { (leaky == 0 || want_states && fill_leaky == 0) && done < cap }
    };
    let (mut done, mut leaky, mut leaks, mut followed) = (0, 0, 0, 0);
    // Fill rounds a signal interrupted, those in which intermediate states
    // were found, and the states found.
    let (mut fills_interrupted, mut fill_leaky, mut fill_states) = (0, 0, 0);
    let (aborts0, mut interrupted, mut checked) = (internals::signal_frame_aborts(), 0, 0);
    while more(done, leaky, fill_leaky) {
        let work = if done % 2 == 0 { Work::Fill } else { Work::Words };
        let fill = matches!(work, Work::Fill);
        let during = DURING.load(Relaxed);
        to_drawer.send(Some(work)).unwrap();
        let report = reports.recv().unwrap();
        let was_interrupted = DURING.load(Relaxed) != during;
        interrupted += usize::from(was_interrupted);
        let keys = keys_of_round(&report);
        followed += usize::from(keys.len() < 64);
        if fill && keys.len() < 64 {
            assert!(fill_is_keystream(&report), "round {done}: the fill is not the keystream of its key");
            checked += 1;
        }
        let mut set = round_key_secrets(&keys);
        // The key before a fill round made the fill (or, where a reseed
        // came in the middle, its first part), from counter 0.
        let fill_searched = fill && search_states;
        if fill_searched {
            states.set(&key_of(&report.before), FILL_COUNTERS);
        }
        if fill {
            fills_interrupted += usize::from(was_interrupted);
        } else {
            for key in &keys {
                add_states(&mut set, key, REFILL_COUNTERS);
            }
        }
        let s = Secrets::new(set);
        let count_states = |mem: &[u8]| if fill_searched { states.count_in(mem) } else { 0 };
        mem.read_exact_at(&mut stack, (top - SCAN) as u64).unwrap();
        let (mut found, mut found_states) = (s.count_in(&stack), count_states(&stack));
        if altstack {
            mem.read_exact_at(&mut altmem, alt as u64).unwrap();
            found += s.count_in(&altmem);
            found_states += count_states(&altmem);
        }
        leaks += found + found_states;
        leaky += usize::from(found + found_states > 0);
        fill_states += found_states;
        fill_leaky += usize::from(found_states > 0);
        done += 1;
    }
    // SAFETY: the timer created above.
    unsafe { libc::timer_delete(timer) };
    to_drawer.send(None).unwrap();
    drawer.join().unwrap();
    // `protection` is the drawing thread's, as it is when switched on
    // (`protected 0`: switched off all the same).
    let protection = mechanism.replace(' ', "-");
    println!(
        "signal frames: backend {} altstack {} protected {} protection {protection} amx {} frame {frame} rounds {done} interrupted {interrupted} fills-interrupted {fills_interrupted} followed {followed} outputs-checked {checked} leaky {leaky} leaks {leaks} fill-leaky {fill_leaky} fill-states {fill_states} aborts {} signals {}",
        backend.name(),
        u8::from(altstack),
        u8::from(protected),
        u8::from(amx),
        internals::signal_frame_aborts() - aborts0,
        SIGNALS.load(Relaxed),
    );
}
