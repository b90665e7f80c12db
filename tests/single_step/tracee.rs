//! The traced program: it brings its thread's generator to the start of the
//! path under test, tells the tracer where the call begins, stops, makes the
//! call (during which the tracer injects SIGUSR1 at the chosen instruction,
//! and for an early drop SIGUSR2 later), draws more, and reports everything
//! it drew. SIGUSR1's handler forks or drops the state page, then draws
//! (not after an early drop); a forked child reports as well. SIGUSR2's
//! handler draws. For a restore the tracer sends no signal: the tracee draws
//! more after the call and stops after its report, where the tracer writes
//! back the snapshot it took in the call (and the tracee runs from there
//! again, and reports again) or lets it go.

use super::protocol::{Action, HEADER, Path, REPORT, Report, vm_clock_path};
use super::state_pages;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};

const MIB: usize = 1 << 20;
/// Word draws after the call: more than two buffers' worth.
const LATER_WORDS: usize = 1000;
const LATER_FILL: usize = 4096;
/// After a call that the tracer restores, more: words over two refills,
/// then a direct fill (after a fill, of two mix intervals), so that what
/// the two runs may share (a buffer, and after a fill a mix interval) is a
/// small part of it.
const RESTORE_LATER_WORDS: usize = 2048;
const RESTORE_LATER_FILL: usize = 16 << 10;
const RESTORE_LATER_FILL_AFTER_FILL: usize = 128 << 10;

static ACTION: AtomicU8 = AtomicU8::new(0);
static IS_CHILD: AtomicBool = AtomicBool::new(false);
static CHILD: AtomicI32 = AtomicI32::new(0);
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
static DROPPED: AtomicUsize = AtomicUsize::new(0);
static HANDLER_WORDS: [AtomicU64; 8] = [const { AtomicU64::new(0) }; 8];

/// SIGUSR1: fork (both processes go on) or drop the state page, then draw
/// four words and a 32-byte fill (after a drop "early", nothing).
/// Async-signal-safe: no allocation, no lock.
extern "C" fn on_signal(_: libc::c_int) {
    SIGNALS.fetch_add(1, Relaxed);
    if ACTION.load(Relaxed) == Action::Fork as u8 {
        // SAFETY: fork is async-signal-safe. The process has one thread and
        // the interrupted code (randp) holds no lock, so the child may go on
        // as its parent does: it finishes the call, draws, reports, _exits.
        match unsafe { libc::fork() } {
            0 => IS_CHILD.store(true, Relaxed),
            pid => CHILD.store(pid, Relaxed),
        }
    } else {
        DROPPED.store(state_pages::drop_all(), Relaxed);
        if ACTION.load(Relaxed) == Action::DropEarly as u8 {
            return;
        }
    }
    for w in &HANDLER_WORDS[..4] {
        w.store(randp::u64(), Relaxed);
    }
    let mut b = [0u8; 32];
    randp::fill_bytes(&mut b);
    for (w, c) in HANDLER_WORDS[4..].iter().zip(b.chunks_exact(8)) {
        w.store(u64::from_ne_bytes(c.try_into().unwrap()), Relaxed);
    }
}

/// SIGUSR2, injected once after a page drop that drew nothing, at the last
/// instruction before the call's result is final: draws four words.
/// Async-signal-safe.
extern "C" fn on_probe(_: libc::c_int) {
    PROBES.fetch_add(1, Relaxed);
    for w in &PROBE_WORDS {
        w.store(randp::u64(), Relaxed);
    }
}

static PROBES: AtomicUsize = AtomicUsize::new(0);
static PROBE_WORDS: [AtomicU64; 4] = [const { AtomicU64::new(0) }; 4];

/// The word-draw path under test (a refill, or a thread's first draw).
#[inline(never)]
extern "C" fn draw_word() -> u64 {
    randp::u64()
}

/// The fill under test on the tail path: whole blocks written directly and
/// 8 bytes from the buffer.
const TAIL_FILL: usize = 2048 + 8;

/// The fill under test on the reseed path: two keys' worth of direct
/// output, the first after a reseed, the second (where the vDSO has
/// getrandom) after a mix of the kernel's output.
const RESEED_FILL: usize = 2 * randp::internals::MIX_DIRECT;

/// The largest fill under test.
pub const LARGEST_FILL: usize = RESEED_FILL;

/// The fill under test on the reseed path.
#[inline(never)]
extern "C" fn draw_reseed(buf: *mut u8) {
    // SAFETY: the caller passes RESEED_FILL bytes of writable memory.
    randp::fill_bytes(unsafe { std::slice::from_raw_parts_mut(buf, RESEED_FILL) })
}

#[inline(never)]
extern "C" fn draw_tail(buf: *mut u8) {
    // SAFETY: the caller passes at least TAIL_FILL bytes of writable memory.
    randp::fill_bytes(unsafe { std::slice::from_raw_parts_mut(buf, TAIL_FILL) })
}

fn words(bytes: &[u8]) -> Vec<u64> {
    let mut out = vec![0u64; bytes.len() / 8];
    // SAFETY: `out` is `out.len() * 8` bytes, at most `bytes.len()`, and any
    // bytes make a valid u64; the two do not overlap. (A debug tracee spent
    // a tenth of its time converting word by word.)
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), out.len() * 8) };
    out
}

/// Brings this thread's generator to the start of `path`; returns the
/// words drawn on the way.
fn prepare(path: Path, big: &mut [u8]) -> Vec<u64> {
    match path {
        Path::Refill => {
            // The thread's first refill fills the state page's buffer; the
            // next call attaches the extension (locking it), and the refill
            // after that fills both: empty them, so that the draw under test
            // refills the whole extended buffer.
            let mut words: Vec<u64> = (0..randp::internals::DEFAULT_BLOCKS * 16 / 8).map(|_| randp::u64()).collect();
            let buffer = randp::internals::thread_buffer_len().expect("a userspace state");
            words.extend((0..buffer / 8).map(|_| randp::u64()));
            words
        }
        Path::Reseed => {
            // The rest of the buffer and of the reseed interval, in one fill.
            let first = randp::u64();
            randp::fill_bytes(&mut big[..randp::internals::DEFAULT_RESEED - 8]);
            vec![first]
        }
        Path::FirstDraw => {
            // Another thread's draw makes the process's one-time checks; it
            // exits, and its state with it.
            let w = std::thread::spawn(randp::u64).join().unwrap();
            assert_eq!(state_pages::count(), 0, "a state page is mapped before the first draw under test");
            vec![w]
        }
        Path::Attach => {
            // Another thread's lock of its extension makes the process's
            // one-time check of the lock (it reads /proc/self/smaps); then
            // this thread's first refill, and draws that empty it without
            // asking for the extension.
            let w = std::thread::spawn(|| {
                let mut b = vec![0u8; 2 * randp::internals::DEFAULT_BLOCKS * 16];
                b.chunks_mut(1000).for_each(randp::fill_bytes);
                randp::internals::thread_buffer_len()
            });
            assert!(
                w.join().unwrap() > Some(randp::internals::DEFAULT_BLOCKS * 16),
                "the extension can be locked here"
            );
            (0..randp::internals::DEFAULT_BLOCKS * 16 / 8).map(|_| randp::u64()).collect()
        }
        Path::Handout | Path::Tail => {
            // The thread's first buffer emptied, so that the refill after it
            // attaches the extension (its one-time check of the lock reads
            // /proc/self/smaps, far too many steps to trace), and a few
            // draws from the extended buffer: the call under test finds
            // bytes there and asks for nothing.
            (0..randp::internals::DEFAULT_BLOCKS * 16 / 8 + 3).map(|_| randp::u64()).collect()
        }
    }
}

/// The address a handler of `sig` returns to (glibc's rt_sigreturn
/// trampoline, which it sets as the restorer).
fn restorer(sig: libc::c_int) -> usize {
    /// The kernel's `struct sigaction` on x86_64, as rt_sigaction(2) fills
    /// it. Asked directly: musl's sigaction() does not copy sa_restorer back
    /// (glibc's does).
    #[repr(C)]
    struct KernelSigaction {
        handler: usize,
        flags: u64,
        restorer: usize,
        mask: u64,
    }
    const SA_RESTORER: u64 = 0x0400_0000;
    // SAFETY: queries the current action into a zeroed struct of the
    // kernel's layout, with the kernel's 8-byte signal set.
    unsafe {
        let mut k: KernelSigaction = std::mem::zeroed();
        let r = libc::syscall(libc::SYS_rt_sigaction, sig, std::ptr::null::<KernelSigaction>(), &mut k, 8usize);
        assert_eq!(r, 0, "rt_sigaction");
        assert_ne!(k.flags & SA_RESTORER, 0, "the C library sets a restorer");
        k.restorer
    }
}

/// The tracee's `main`: never returns.
pub fn run(path: Path, action: Action) -> ! {
    ACTION.store(action as u8, Relaxed);
    // One CPU for the whole run: a page faulted in on one CPU can wait in
    // that CPU's batch of pages for the reclaim lists, where MADV_PAGEOUT
    // made on another CPU does not find it.
    // SAFETY: sched_getcpu and sched_setaffinity with a valid set affect
    // this process only.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(libc::sched_getcpu() as usize, &mut set);
        assert_eq!(libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set), 0);
    }
    // SAFETY: installs a handler that is async-signal-safe (see above).
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = libc::SA_RESTART;
        assert_eq!(libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut()), 0);
        sa.sa_sigaction = on_probe as extern "C" fn(libc::c_int) as usize;
        assert_eq!(libc::sigaction(libc::SIGUSR2, &sa, std::ptr::null_mut()), 0);
    }
    if action == Action::RestoreMixOff {
        randp::internals::set_kernel_mix_off(true);
    }
    if action.vm_clock() {
        // Only the counter tells the two runs apart: no mix, and the tracer
        // makes no reseed.
        let page = vm_clock_path(std::process::id());
        std::fs::write(&page, super::support::vm_clock::valid_page(41)).unwrap();
        randp::internals::set_vm_clock_path(page.to_str().unwrap());
        randp::internals::set_kernel_mix_off(true);
        assert!(randp::vm_generation_readable(), "the page at {} is valid", page.display());
    }
    let mut big = vec![0u8; MIB];
    let before = prepare(path, &mut big);
    let entry = match path {
        Path::Reseed => draw_reseed as extern "C" fn(*mut u8) as usize,
        Path::Tail => draw_tail as extern "C" fn(*mut u8) as usize,
        Path::Refill | Path::FirstDraw | Path::Attach | Path::Handout => draw_word as extern "C" fn() -> u64 as usize,
    };
    let kernels = randp::internals::keystream_kernel_entries();
    let mut header = vec![
        HEADER,
        entry as u64,
        on_probe as extern "C" fn(libc::c_int) as usize as u64,
        restorer(libc::SIGUSR2) as u64,
        randp::internals::stack_look_up_entry() as u64,
        randp::internals::stack_wipe_entry() as u64,
        randp::internals::kernel_rng_entry() as u64,
        kernels.len() as u64,
        u64::from(cfg!(debug_assertions)),
    ];
    header.extend(kernels.iter().map(|&(_, a)| a as u64));
    super::write_words(1, &header);
    // SAFETY: stops this process for the tracer, which resumes it.
    unsafe { libc::raise(libc::SIGSTOP) };

    let call = match path {
        Path::Reseed => {
            draw_reseed(big.as_mut_ptr());
            words(&big[..RESEED_FILL])
        }
        Path::Tail => {
            draw_tail(big.as_mut_ptr());
            words(&big[..TAIL_FILL])
        }
        Path::Refill | Path::FirstDraw | Path::Attach | Path::Handout => vec![draw_word()],
    };
    let restores = action.restores();
    let later_words = if restores { RESTORE_LATER_WORDS } else { LATER_WORDS };
    let mut later: Vec<u64> = (0..later_words).map(|_| black_box(randp::u64())).collect();
    let mut fill = vec![0u8; LATER_FILL];
    randp::fill_bytes(&mut fill);
    later.extend(words(&fill));
    if restores {
        let n = if path.fills() { RESTORE_LATER_FILL_AFTER_FILL } else { RESTORE_LATER_FILL };
        randp::fill_bytes(&mut big[..n]);
        later.extend(words(&big[..n]));
    }

    let child = IS_CHILD.load(Relaxed);
    let mut child_status = -1;
    if !child && CHILD.load(Relaxed) > 0 {
        // SAFETY: waits for the child this process forked in its handler.
        unsafe { libc::waitpid(CHILD.load(Relaxed), &mut child_status, 0) };
    }
    let report = Report {
        child,
        signals: SIGNALS.load(Relaxed),
        dropped: DROPPED.load(Relaxed),
        // Not read for a restore, whose cases are many and check what the
        // runs share: parsing smaps would be most of a debug case's time.
        pages: if restores { 0 } else { state_pages::count() },
        child_status,
        probes: PROBES.load(Relaxed),
        handler: {
            let mut h: Vec<u64> = Vec::new();
            if SIGNALS.load(Relaxed) > 0 && action != Action::DropEarly {
                h.extend(HANDLER_WORDS.iter().map(|w| w.load(Relaxed)));
            }
            if PROBES.load(Relaxed) > 0 {
                h.extend(PROBE_WORDS.iter().map(|w| w.load(Relaxed)));
            }
            h
        },
        call,
        later,
        before,
    };
    let mut out = vec![REPORT];
    report.encode(&mut out);
    super::write_words(1, &out);
    if restores {
        // SAFETY: stops this process for the tracer, which writes the
        // snapshot back (the process then runs from there again) or lets
        // it go.
        unsafe { libc::raise(libc::SIGSTOP) };
    }
    // SAFETY: leaves without running exit handlers (the forked child shares
    // them with its parent).
    unsafe { libc::_exit(0) }
}
