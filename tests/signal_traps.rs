//! The abort side of the signal-frame protection, tried as the programs a
//! correct library must survive would try it:
//! - a thread that single-steps itself (EFLAGS.TF and a SIGTRAP handler
//!   that counts, as an in-process tracer, profiler or fuzzer does) and a
//!   hardware write watchpoint on the destination (perf_event_open with
//!   `sigtrap`): each traps at the same instruction every time the
//!   sequence is restarted, and must neither hang the call nor kill the
//!   process (a SIGTRAP forced while blocked takes its default action);
//! - a handler running on an `SS_AUTODISARM` alternate stack, where
//!   `sigaltstack` reports no stack: a wipe after an abort must not reach
//!   below that stack (a canary mapped right below it must stay intact);
//! - a thread with a small stack, mostly used, under a timer: the wipe must
//!   not run past the end of the stack. Once with little more free below
//!   the keystream calls than the wipe's length, and once (`tight`) with
//!   less, the timer's handler on an alternate stack so that
//!   its frames fit: the library must count calls without room for the
//!   wipe, which must not run their sequence, since a wipe after an abort
//!   would reach the guard page.
//!
//! Every case runs on every keystream backend this CPU has, with glibc's
//! restartable-sequence area registered and without it
//! (`glibc.pthread.rseq=0`, the path of musl and older glibc), each in a
//! child process that must finish within [`TIMEOUT`]: a hang is a failure.
//! Each child reports that its injection reached the calls (traps counted,
//! stalled sequences, signals that landed during the fills).

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use randp::internals::{self, Backend};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

mod support;
use support::amx::{amx_supported, use_amx_tiles};
use support::{assert_unique, blocks, field};

const ROLE: &str = "RANDP_SIGNAL_TRAPS_CHILD";
/// A child that has not finished by then hangs.
const TIMEOUT: Duration = Duration::from_secs(60);
const FILL: usize = 4096;

fn backends() -> Vec<Backend> {
    Backend::ALL.into_iter().filter(|b| b.supported()).collect()
}

/// Runs child `case` on `backend`, with or without glibc's rseq area, and
/// returns its summary line; fails if it does not exit successfully within
/// [`TIMEOUT`].
fn run(case: &str, backend: Backend, rseq: bool, arg: &str) -> String {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child", "--test-threads=1", "--nocapture"]);
    cmd.env(ROLE, format!("{case},{},{arg}", backend.name()));
    if !rseq {
        cmd.env("GLIBC_TUNABLES", "glibc.pthread.rseq=0");
    }
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{case} on {} (rseq {rseq}): still running after {TIMEOUT:?}, the call hangs\n{}",
                backend.name(),
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        status.success(),
        "{case} on {} (rseq {rseq}): {status}\n{stdout}\n{}",
        backend.name(),
        String::from_utf8_lossy(&out.stderr)
    );
    let at = stdout.find("traps:").unwrap_or_else(|| panic!("{stdout}"));
    let line = stdout[at..].lines().next().unwrap().to_owned();
    eprintln!("{case} {} rseq {rseq}: {line}", backend.name());
    line
}

/// Whether the restartable sequence runs in a child on `backend`: glibc's
/// area registered (glibc 2.35 or later; musl registers none), and one of
/// the assembly kernels.
fn sequence(backend: Backend, rseq: bool) -> bool {
    rseq && cfg!(target_env = "gnu") && backend != Backend::Portable
}

#[test]
fn a_thread_that_single_steps_itself_completes_a_fill() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    for b in backends() {
        for rseq in [true, false] {
            let line = run("step", b, rseq, "");
            // A 4 KiB fill is hundreds of instructions: the trap handler
            // ran for each one of the fill (the warm-up made sure no state
            // was made or attached inside it).
            assert!(field(&line, "traps") >= 200, "the fill was not stepped: {line}");
            if sequence(b, rseq) {
                assert!(field(&line, "stalls") >= 1, "no sequence stopped restarting: {line}");
            }
        }
    }
}

#[test]
fn a_watchpoint_on_the_destination_completes_a_fill() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    for b in backends() {
        for rseq in [true, false] {
            let line = run("watch", b, rseq, "");
            assert!(field(&line, "traps") >= 1, "the watchpoint never fired: {line}");
            if sequence(b, rseq) {
                assert!(field(&line, "stalls") >= 1, "no sequence stopped restarting: {line}");
            }
        }
    }
}

#[test]
fn a_fill_on_an_autodisarmed_alternate_stack_leaves_the_memory_below_it_alone() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    for b in backends() {
        for rseq in [true, false] {
            for disarm in [true, false] {
                // Near the top of the stack, under a timer whose frames
                // nest on it; then deep in it, with less room left than a
                // signal frame, interrupted by preemptions only (a nested
                // frame would not fit, and the kernel itself would write
                // it below the stack).
                for deep in [false, true] {
                    let arg = format!("{}{}", u8::from(disarm), u8::from(deep));
                    let line = run("altstack", b, rseq, &arg);
                    assert_eq!(field(&line, "damaged"), 0, "canary bytes below the alternate stack changed: {line}");
                    assert!(field(&line, "fills") > 100, "{line}");
                    if deep {
                        assert!(field(&line, "preempted") > 0, "no fill in the handler was preempted: {line}");
                    } else {
                        assert!(field(&line, "during") > 0, "no signal landed during a fill in the handler: {line}");
                    }
                    if sequence(b, rseq) && !disarm && !deep {
                        // The stack is known and has room: the handler's
                        // calls run their sequence, and the timer aborts some.
                        assert!(field(&line, "aborts") > 0, "no call in the handler was aborted: {line}");
                    }
                    if (disarm || deep) && b != Backend::Portable {
                        assert!(field(&line, "without-room") > 0, "no call found its stack unproven: {line}");
                    }
                    if disarm || deep {
                        // Its bounds are hidden, or it has too little room:
                        // no sequence, so no abort.
                        assert_eq!(
                            field(&line, "aborts"),
                            0,
                            "a call without a known free stack ran its sequence: {line}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_small_thread_stack_survives_fills_under_a_timer() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    let tiles: &[bool] = if amx_supported() {
        &[false, true]
    } else {
        eprintln!("this CPU has no AMX: the configuration with tile data permitted does not run here");
        &[false]
    };
    for &amx in tiles {
        for b in backends() {
            for rseq in [true, false] {
                // The portable backend does not wipe after aborts: its calls
                // need room of their own (`tight` is for the kernels').
                for tight in [false, true].into_iter().filter(|&t| !t || b != Backend::Portable) {
                    let arg = format!("{}{}", u8::from(amx), u8::from(tight));
                    let line = run("small", b, rseq, &arg);
                    assert!(field(&line, "during") > 0, "no signal landed during a fill: {line}");
                    assert!(field(&line, "fills") > 0, "{line}");
                    // The tight case reaches calls that cannot prove the
                    // wipe's length free below them (a sequence there would
                    // wipe into the guard page after an abort). In the
                    // other, every call can, and runs its sequence where it
                    // has one; the timer aborts some, each abort followed
                    // by a wipe that ends within 2 KiB of the stack's end.
                    let without_room = field(&line, "without-room");
                    if tight {
                        assert!(without_room > 0, "no call found too little stack for the wipe: {line}");
                    } else if sequence(b, rseq) {
                        assert_eq!(without_room, 0, "a call found too little stack for the wipe: {line}");
                        assert!(field(&line, "aborts") > 0, "no call on the small stack was aborted: {line}");
                    }
                }
            }
        }
    }
}

/// The wipe after an abort covers the largest signal frame of a process
/// that has no permission to use AMX tile data, which is about 4 KiB on
/// every x86_64 CPU (3.4 KiB with AVX-512): not the 12 KiB that
/// `AT_MINSIGSTKSZ` counts on a CPU with AMX.
#[test]
fn the_wipe_is_sized_to_the_frames_this_process_can_have() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    let len = internals::signal_frame_wipe_len();
    // SAFETY: getauxval has no preconditions.
    let minsig = unsafe { libc::getauxval(51) } as usize;
    eprintln!("wipe {len} bytes, AT_MINSIGSTKSZ {minsig}");
    assert!(len >= minsig.min(4096) + 128, "the wipe is shorter than a frame and the red zone: {len}");
    assert!(len <= 5 * 1024, "a process without tile data wipes {len} bytes");
}

// The children.

/// Traps counted by the SIGTRAP handler.
static TRAPS: AtomicUsize = AtomicUsize::new(0);
/// Timer signals, and those that landed while a fill ran.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
static DURING: AtomicUsize = AtomicUsize::new(0);
static IN_FILL: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_trap(_: libc::c_int) {
    TRAPS.fetch_add(1, Relaxed);
}

extern "C" fn on_timer(_: libc::c_int) {
    SIGNALS.fetch_add(1, Relaxed);
    if IN_FILL.load(Relaxed) != 0 {
        DURING.fetch_add(1, Relaxed);
    }
}

/// Installs `handler` for `sig` with `flags`.
fn handle(sig: libc::c_int, handler: extern "C" fn(libc::c_int), flags: libc::c_int) {
    // SAFETY: a zeroed sigaction with a handler that only touches atomics
    // (or draws, which is async-signal-safe).
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = handler as usize;
        sa.sa_flags = flags;
        assert_eq!(libc::sigaction(sig, &sa, std::ptr::null_mut()), 0);
    }
}

/// A timer that sends `sig` to thread `tid` every `ns` nanoseconds.
fn timer(tid: libc::pid_t, sig: libc::c_int, ns: i64) -> libc::timer_t {
    // SAFETY: a zeroed sigevent and itimerspec are valid; the timer is
    // created for this process's thread `tid`.
    unsafe {
        let mut sev: libc::sigevent = std::mem::zeroed();
        sev.sigev_notify = libc::SIGEV_THREAD_ID;
        sev.sigev_signo = sig;
        sev.sigev_notify_thread_id = tid;
        let mut t: libc::timer_t = std::mem::zeroed();
        assert_eq!(libc::timer_create(libc::CLOCK_MONOTONIC, &mut sev, &mut t), 0);
        let mut its: libc::itimerspec = std::mem::zeroed();
        its.it_value.tv_nsec = ns;
        its.it_interval.tv_nsec = ns;
        assert_eq!(libc::timer_settime(t, 0, &its, std::ptr::null_mut()), 0);
        t
    }
}

fn stop(t: libc::timer_t) {
    // SAFETY: a timer made by `timer`, deleted once.
    unsafe { libc::timer_delete(t) };
}

/// Draws enough that the thread's state exists, its extension is attached
/// and every code path of a fill has run once, so that what is measured
/// after is the fill alone.
fn warm_up() {
    let mut buf = vec![0u8; 64 * 1024];
    for _ in 0..4 {
        randp::fill_bytes(&mut buf);
        randp::fill_bytes(&mut buf[..FILL]);
        std::hint::black_box(randp::u64());
    }
}

#[test]
fn child() {
    let Ok(role) = std::env::var(ROLE) else { return };
    let mut parts = role.split(',');
    let (case, backend, arg) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap_or(""));
    let backend = Backend::ALL.into_iter().find(|b| b.name() == backend).unwrap();
    assert!(internals::force_backend(backend));
    warm_up();
    match case {
        "step" => step(),
        "watch" => watch(),
        "altstack" => altstack(arg),
        "small" => small(arg.as_bytes()[0] == b'1', arg.as_bytes()[1] == b'1'),
        _ => unreachable!("{case}"),
    }
}

/// Sets or clears EFLAGS.TF: with it set, the CPU traps after every
/// instruction, and the kernel sends SIGTRAP.
#[inline(always)]
fn single_step(on: bool) {
    // SAFETY: changes the trap flag only; the flags are restored otherwise.
    unsafe {
        if on {
            core::arch::asm!("pushfq", "or qword ptr [rsp], 0x100", "popfq");
        } else {
            core::arch::asm!("pushfq", "and qword ptr [rsp], ~0x100", "popfq");
        }
    }
}

fn step() {
    handle(libc::SIGTRAP, on_trap, 0);
    let mut buf = vec![0u8; FILL];
    let stalls = internals::signal_frame_stalls();
    single_step(true);
    randp::fill_bytes(&mut buf);
    single_step(false);
    let (traps, stalls) = (TRAPS.load(Relaxed), internals::signal_frame_stalls() - stalls);
    assert_unique(blocks(&buf), "a stepped fill");
    println!("traps: traps {traps} stalls {stalls} protection {}", internals::signal_frame_protection());
}

/// `struct perf_event_attr` (PERF_ATTR_SIZE_VER8), the fields a breakpoint
/// needs.
#[repr(C)]
#[derive(Default)]
struct PerfEventAttr {
    kind: u32,
    size: u32,
    config: u64,
    sample_period: u64,
    sample_type: u64,
    read_format: u64,
    flags: u64,
    wakeup_events: u32,
    bp_type: u32,
    bp_addr: u64,
    bp_len: u64,
    rest: [u64; 8],
}

fn watch() {
    const PERF_TYPE_BREAKPOINT: u32 = 5;
    const HW_BREAKPOINT_W: u32 = 2;
    const EXCLUDE_KERNEL: u64 = 1 << 5;
    const EXCLUDE_HV: u64 = 1 << 6;
    const REMOVE_ON_EXEC: u64 = 1 << 36;
    const SIGTRAP: u64 = 1 << 37;
    const PERF_FLAG_FD_CLOEXEC: libc::c_ulong = 8;
    handle(libc::SIGTRAP, on_trap, 0);
    let mut buf = vec![0u8; FILL];
    let attr = PerfEventAttr {
        kind: PERF_TYPE_BREAKPOINT,
        size: size_of::<PerfEventAttr>() as u32,
        sample_period: 1,
        flags: EXCLUDE_KERNEL | EXCLUDE_HV | REMOVE_ON_EXEC | SIGTRAP,
        bp_type: HW_BREAKPOINT_W,
        bp_addr: buf.as_ptr() as u64 + FILL as u64 / 2,
        bp_len: 8,
        ..Default::default()
    };
    // SAFETY: a valid attribute struct for this thread (pid 0, any CPU).
    let fd = unsafe {
        libc::syscall(libc::SYS_perf_event_open, &attr as *const PerfEventAttr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC)
    };
    assert!(fd >= 0, "perf_event_open: {}", std::io::Error::last_os_error());
    let stalls = internals::signal_frame_stalls();
    randp::fill_bytes(&mut buf);
    // SAFETY: the descriptor opened above, closed once.
    unsafe { libc::close(fd as i32) };
    let (traps, stalls) = (TRAPS.load(Relaxed), internals::signal_frame_stalls() - stalls);
    assert_unique(blocks(&buf), "a watched fill");
    println!("traps: traps {traps} stalls {stalls} protection {}", internals::signal_frame_protection());
}

/// The handler of the alternate-stack case: fills on the alternate stack,
/// counting the aborts of its calls and the preemptions they had; in the
/// deep case, after using all but `ROOM` bytes of the stack.
static HANDLER_FILLS: AtomicUsize = AtomicUsize::new(0);
static HANDLER_ABORTS: AtomicUsize = AtomicUsize::new(0);
static HANDLER_PREEMPTED: AtomicUsize = AtomicUsize::new(0);
static HANDLER_WITHOUT_ROOM: AtomicUsize = AtomicUsize::new(0);
static HANDLER_DEPTH: AtomicUsize = AtomicUsize::new(0);
static ALT_BASE: AtomicUsize = AtomicUsize::new(0);
static mut HANDLER_BUF: [u8; FILL] = [0; FILL];
/// The stack left below the deep handler's fills: less than a signal frame.
const ROOM: usize = 2560;

extern "C" fn fill_on_altstack(_: libc::c_int) {
    let sp = here();
    if HANDLER_DEPTH.load(Relaxed) == 1 {
        let free = sp - ALT_BASE.load(Relaxed);
        assert!(free > ROOM + 1024, "{free} bytes free on the alternate stack");
        let mut frame = [0u8; 256];
        use_stack(free - ROOM, &mut frame, &mut fills_in_handler);
    } else {
        fills_in_handler();
    }
}

/// Uses `bytes` of stack in 256-byte frames, then runs `f`.
#[inline(never)]
fn use_stack(bytes: usize, frame: &mut [u8; 256], f: &mut dyn FnMut()) {
    std::hint::black_box(&mut *frame);
    if bytes <= 320 {
        f()
    } else {
        let mut next = [0u8; 256];
        use_stack(bytes - 320, &mut next, f)
    }
    std::hint::black_box(&mut *frame);
}

/// Involuntary context switches of this thread so far.
fn preemptions() -> usize {
    // SAFETY: a zeroed rusage is valid; getrusage fills it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) }, 0);
    ru.ru_nivcsw as usize
}

fn fills_in_handler() {
    let (aborts, preempted) = (internals::signal_frame_aborts(), preemptions());
    let without_room = internals::signal_frame_calls_without_room();
    IN_FILL.store(1, Relaxed);
    let buf = &raw mut HANDLER_BUF;
    for _ in 0..8 {
        // SAFETY: only this handler touches the buffer, and it does not
        // nest (SIGUSR1 is blocked while it runs).
        randp::fill_bytes(unsafe { &mut *buf });
    }
    IN_FILL.store(0, Relaxed);
    HANDLER_ABORTS.fetch_add(internals::signal_frame_aborts() - aborts, Relaxed);
    HANDLER_PREEMPTED.fetch_add(preemptions() - preempted, Relaxed);
    HANDLER_WITHOUT_ROOM.fetch_add(internals::signal_frame_calls_without_room() - without_room, Relaxed);
    HANDLER_FILLS.fetch_add(1, Relaxed);
}

/// Set to stop [`spin_on_cpu0`]'s thread.
static SPIN_DONE: AtomicUsize = AtomicUsize::new(0);

/// Keeps CPU 0 busy until [`SPIN_DONE`] is set, so that this thread,
/// drawing there too, is preempted.
fn spin_on_cpu0() -> std::thread::JoinHandle<()> {
    pin_to_cpu0();
    std::thread::spawn(move || {
        pin_to_cpu0();
        while SPIN_DONE.load(Relaxed) == 0 {
            std::hint::spin_loop();
        }
    })
}

fn pin_to_cpu0() {
    // SAFETY: a zeroed cpu_set_t with CPU 0 set, for this thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(0, &mut set);
        assert_eq!(libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set), 0);
    }
}

fn altstack(arg: &str) {
    const CANARY: usize = 64 * 1024;
    const STACK: usize = 8 * 1024;
    const SS_AUTODISARM: libc::c_int = 1 << 31;
    let (disarm, deep) = (arg.as_bytes()[0] == b'1', arg.as_bytes()[1] == b'1');
    // SAFETY: a fresh private anonymous mapping, used only here.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            CANARY + STACK,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(base, libc::MAP_FAILED);
    let base = base.cast::<u8>();
    // SAFETY: the first CANARY bytes of the mapping.
    unsafe { std::ptr::write_bytes(base, 0xa5, CANARY) };
    ALT_BASE.store(base as usize + CANARY, Relaxed);
    HANDLER_DEPTH.store(usize::from(deep), Relaxed);
    let ss = libc::stack_t {
        // SAFETY: inside the mapping.
        ss_sp: unsafe { base.add(CANARY) }.cast(),
        ss_flags: if disarm { SS_AUTODISARM } else { 0 },
        ss_size: STACK,
    };
    // SAFETY: a valid stack_t describing memory that lives to the end.
    assert_eq!(unsafe { libc::sigaltstack(&ss, std::ptr::null_mut()) }, 0);
    handle(libc::SIGUSR1, fill_on_altstack, libc::SA_ONSTACK);
    handle(libc::SIGALRM, on_timer, 0);
    let start = Instant::now();
    let deadline = start + Duration::from_millis(600);
    // The deep case: preemptions, not signals, interrupt its fills.
    // SAFETY: gettid has no preconditions.
    let t = (!deep).then(|| timer(unsafe { libc::gettid() }, libc::SIGALRM, 30_000));
    let spinner = deep.then(spin_on_cpu0);
    let injected = || if deep { HANDLER_PREEMPTED.load(Relaxed) } else { DURING.load(Relaxed) };
    while Instant::now() < deadline || injected() == 0 {
        // SAFETY: raises SIGUSR1 on this thread; its handler is installed.
        unsafe { libc::raise(libc::SIGUSR1) };
        if Instant::now() > deadline + Duration::from_secs(20) {
            break;
        }
    }
    if let Some(t) = t {
        stop(t);
    }
    SPIN_DONE.store(1, Relaxed);
    if let Some(s) = spinner {
        s.join().unwrap();
    }
    // SAFETY: the canary, written above and not since by this program.
    let canary = unsafe { std::slice::from_raw_parts(base, CANARY) };
    let damaged = canary.iter().filter(|&&b| b != 0xa5).count();
    println!(
        "traps: damaged {damaged} fills {} aborts {} without-room {} during {} preempted {} protection {}",
        HANDLER_FILLS.load(Relaxed),
        HANDLER_ABORTS.load(Relaxed),
        HANDLER_WITHOUT_ROOM.load(Relaxed),
        DURING.load(Relaxed),
        HANDLER_PREEMPTED.load(Relaxed),
        internals::signal_frame_protection()
    );
}

/// The least free stack below the fills' caller in the small case.
static FREE: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The lowest address of the calling thread's stack.
fn stack_low() -> usize {
    // SAFETY: a zeroed pthread_attr_t is filled by pthread_getattr_np for
    // this thread, read by pthread_attr_getstack and destroyed once.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        assert_eq!(libc::pthread_getattr_np(libc::pthread_self(), &mut attr), 0);
        let (mut addr, mut size) = (std::ptr::null_mut(), 0usize);
        assert_eq!(libc::pthread_attr_getstack(&attr, &mut addr, &mut size), 0);
        libc::pthread_attr_destroy(&mut attr);
        addr as usize
    }
}

/// The address of a local of the caller's frame.
#[inline(always)]
fn here() -> usize {
    let local = 0u8;
    std::hint::black_box(&local) as *const u8 as usize
}

/// Recurses until less than `free` bytes of the stack above `low` are
/// left, then runs `f`.
#[inline(never)]
fn descend(low: usize, free: usize, f: &mut dyn FnMut()) {
    let mut pad = [0u8; 128];
    std::hint::black_box(&mut pad);
    if here() - low < free {
        f()
    } else {
        descend(low, free, f)
    }
    std::hint::black_box(&mut pad);
}

/// The free stack beyond the wipe's length that the small case leaves below
/// the fills' caller. The calls down to a keystream kernel take some 500 to
/// 900 bytes of it in a release build, 4 to 6 KiB in a debug one. Tight:
/// less than that, so that the kernels find less than the wipe's length
/// free below them, and more than the deepest of a fill's frames need
/// beyond the wipe. Otherwise: more than that, so that they find the
/// wipe's length free, and little more (the wipe ends within 2 KiB of the
/// stack's end).
const TIGHT_MARGIN: usize = if cfg!(debug_assertions) { 4096 } else { 256 };
const ROOM_MARGIN: usize = if cfg!(debug_assertions) { 8192 } else { 2048 };

/// Fills on a 32 KiB thread stack under a timer, with little more free below
/// the keystream calls than the wipe's length, or (`tight`) less, the
/// timer's handler then running on an alternate stack.
fn small(amx: bool, tight: bool) {
    const STACK: usize = 32 * 1024;
    const ALT: usize = 64 * 1024;
    handle(libc::SIGALRM, on_timer, if tight { libc::SA_ONSTACK } else { 0 });
    let fills = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            if amx {
                use_amx_tiles();
            }
            let mut alt = vec![0u8; ALT];
            if tight {
                let ss = libc::stack_t { ss_sp: alt.as_mut_ptr().cast(), ss_flags: 0, ss_size: ALT };
                // SAFETY: a valid stack_t describing memory that outlives
                // the thread's use of it (disabled below).
                assert_eq!(unsafe { libc::sigaltstack(&ss, std::ptr::null_mut()) }, 0);
            }
            let low = stack_low();
            let mut buf = vec![0u8; FILL];
            let mut fills = 0;
            // SAFETY: gettid has no preconditions.
            let t = timer(unsafe { libc::gettid() }, libc::SIGALRM, 20_000);
            let deadline = Instant::now() + Duration::from_millis(500);
            let aborts = internals::signal_frame_aborts();
            let without_room = internals::signal_frame_calls_without_room();
            let mut draw = || {
                FREE.fetch_min(here() - low, Relaxed);
                while Instant::now() < deadline || DURING.load(Relaxed) == 0 {
                    IN_FILL.store(1, Relaxed);
                    randp::fill_bytes(&mut buf);
                    IN_FILL.store(0, Relaxed);
                    fills += 1;
                    if Instant::now() > deadline + Duration::from_secs(20) {
                        break;
                    }
                }
            };
            let margin = if tight { TIGHT_MARGIN } else { ROOM_MARGIN };
            descend(low, internals::signal_frame_wipe_len() + margin, &mut draw);
            stop(t);
            if tight {
                let off = libc::stack_t { ss_sp: std::ptr::null_mut(), ss_flags: libc::SS_DISABLE, ss_size: 0 };
                // SAFETY: disables this thread's alternate stack.
                assert_eq!(unsafe { libc::sigaltstack(&off, std::ptr::null_mut()) }, 0);
            }
            drop(alt);
            assert_unique(blocks(&buf), "a fill on a small stack");
            (
                fills,
                internals::signal_frame_aborts() - aborts,
                internals::signal_frame_calls_without_room() - without_room,
            )
        })
        .unwrap()
        .join()
        .unwrap();
    let (fills, aborts, without_room) = fills;
    println!(
        "traps: fills {fills} during {} aborts {aborts} without-room {without_room} stalls {} free {} wipe {} protection {}",
        DURING.load(Relaxed),
        internals::signal_frame_stalls(),
        FREE.load(Relaxed),
        internals::signal_frame_wipe_len(),
        internals::signal_frame_protection()
    );
}
