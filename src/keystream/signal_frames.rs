//! Keeping keys out of signal frames.
//!
//! When a signal interrupts a thread, the kernel saves every register,
//! vector registers included, in a signal frame on the thread's stack (below
//! the red zone) or on its alternate signal stack, and nobody wipes that
//! frame after the handler returns. A signal that lands while a keystream
//! kernel holds a key in its registers would leave the key in dead memory,
//! where a later reader of the process's memory (a core file, a swap image,
//! an attacker with a read primitive) finds it and computes the past output.
//!
//! On x86_64, where glibc (2.35 and later) has registered a restartable
//! sequence area (rseq) for the thread, every kernel runs as a restartable
//! sequence (see `x86`): if the thread is interrupted inside one — by a
//! signal or a preemption, which the kernel does not tell apart — the kernel
//! resumes it at its abort label instead, and the caller here zeroes the
//! registers' possible image: the stack below the kernel's frame (the bound
//! is the largest signal frame the kernel may write, `AT_MINSIGSTKSZ`, plus
//! the red zone) and the top of the alternate signal stack when it is set and
//! not in use; then it runs the kernel again from where it stopped. This
//! costs nothing when no signal comes. Elsewhere (no rseq: musl, older glibc,
//! `glibc.pthread.rseq=0`, a thread glibc did not create; and the portable
//! backend, whose `aes` crate code is not a sequence of ours) signals are
//! blocked around the call: two system calls per key. A blocked SIGSEGV or
//! SIGBUS cannot reach the program's handler (the kernel kills the process
//! instead), so a call that writes a caller's memory first writes each of
//! its pages, with signals as the program set them (`crate::prefault`).

#[cfg(any(feature = "internals", target_arch = "x86_64"))]
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Runs `f` with every signal that can be blocked blocked on this thread.
/// A fault in `f` then ends the process: the memory `f` writes for a caller
/// must have been written first (`crate::prefault`).
#[cfg(target_os = "linux")]
#[inline(never)]
pub(super) fn blocked<R>(f: impl FnOnce() -> R) -> R {
    let all: u64 = !0;
    let mut old: u64 = 0;
    // SAFETY: rt_sigprocmask with valid 8-byte sets; it only changes this
    // thread's mask, which is restored below. SIGKILL and SIGSTOP are left
    // alone by the kernel.
    let blocked = unsafe {
        libc::syscall(libc::SYS_rt_sigprocmask, libc::SIG_BLOCK, &all as *const u64, &mut old as *mut u64, 8usize)
    };
    // With valid arguments only a seccomp filter makes it fail: running the
    // kernel anyway would leave keys in the frames of the signals it let in.
    if blocked != 0 {
        crate::os::fatal(b"randp: rt_sigprocmask failed, so signals cannot be blocked around a keystream call; aborting rather than leave keys in signal frames\n");
    }
    let r = f();
    // SAFETY: as above; restores the mask read above.
    let restored = unsafe {
        libc::syscall(
            libc::SYS_rt_sigprocmask,
            libc::SIG_SETMASK,
            &old as *const u64,
            core::ptr::null_mut::<u64>(),
            8usize,
        )
    };
    if restored != 0 {
        crate::os::fatal(b"randp: rt_sigprocmask failed to restore the signal mask after a keystream call; aborting\n");
    }
    r
}

/// Windows has no signals to block: runs `f`, then zeroes the stack below
/// this frame where an exception or a special user APC that interrupted it
/// had its register image (see `x86_64::wipe_len`).
#[cfg(windows)]
#[inline(never)]
pub(super) fn blocked<R>(f: impl FnOnce() -> R) -> R {
    let r = f();
    if !disabled() {
        // SAFETY: the stack below this frame, down to the thread's committed
        // limit, is dead.
        unsafe { super::x86::wipe_below_stack(x86_64::wipe_len(), x86_64::stack_limit()) };
    }
    r
}

/// Whether the protection is switched off (the control of the tests that
/// show it is needed). Only with the `internals` feature.
#[cfg(feature = "internals")]
static DISABLED: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// Switches the protection off or back on, for the control of the tests.
#[cfg(feature = "internals")]
pub(crate) fn set_disabled(off: bool) {
    DISABLED.store(off, Relaxed);
}

#[inline(always)]
fn disabled() -> bool {
    #[cfg(feature = "internals")]
    return DISABLED.load(Relaxed);
    #[cfg(not(feature = "internals"))]
    false
}

/// How many times a kernel was diverted to its abort label, for the tests
/// that show the storm they raise reaches the kernels.
#[cfg(feature = "internals")]
pub(crate) static ABORTS: AtomicUsize = AtomicUsize::new(0);

/// Counts an abort (with the `internals` feature only).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn count_abort() {
    #[cfg(feature = "internals")]
    ABORTS.fetch_add(1, Relaxed);
}

/// The portable backend's calls, which write the `len` bytes at `out`:
/// signals blocked, once every page of `out` has been written (see
/// `crate::prefault`), unless switched off.
///
/// # Safety
/// `out` is valid for writes of `len` bytes, which `f` overwrites.
pub(super) unsafe fn portable<R>(out: *mut u8, len: usize, f: impl FnOnce() -> R) -> R {
    if disabled() {
        return f();
    }
    // SAFETY: forwarded from the caller.
    unsafe { crate::prefault::touch_pages(out, len) };
    blocked(f)
}

#[cfg(target_arch = "x86_64")]
pub(super) use x86_64::{write_and_rekey, xor_seed_into_key};

/// How this thread's keystream calls on `backend` keep keys out of signal
/// frames: `"rseq"`, `"blocked signals"`, or `"off"` (the tests' control).
#[cfg(feature = "internals")]
pub(super) fn protection(backend: super::Backend) -> &'static str {
    if disabled() {
        return "off";
    }
    #[cfg(target_arch = "x86_64")]
    if backend != super::Backend::Portable && !x86_64::rseq_cs().is_null() {
        return "rseq";
    }
    let _ = backend;
    "blocked signals"
}

#[cfg(target_arch = "x86_64")]
mod x86_64 {
    use super::super::x86::{Kernel, mix_expand, wipe_below_stack};
    use super::super::{RoundKeys, Schedule};
    use super::{AtomicUsize, Relaxed, blocked, count_abort, disabled};
    #[cfg(target_os = "linux")]
    use core::sync::atomic::AtomicIsize;

    /// The first counter of the output blocks (0 and 1 make the next key).
    const FIRST: u64 = 2;

    /// Writes `n` blocks of keystream to `out` with kernel `k` and makes the
    /// key of blocks 0 and 1 the schedule's (`super::super::write_and_rekey`).
    ///
    /// # Safety
    /// As for `super::super::write_and_rekey`; `k` runs on this CPU.
    pub(in super::super) unsafe fn write_and_rekey(k: Kernel, ks: *mut Schedule, out: *mut u8, n: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { run(k, ks, out, n) }
    }

    /// XORs the 32 bytes at `seed` into the key and re-expands the schedule.
    ///
    /// # Safety
    /// As for `super::super::xor_seed_into_key`; the CPU has AES-NI.
    pub(in super::super) unsafe fn xor_seed_into_key(ks: *mut Schedule, seed: *const [u8; 32]) {
        // SAFETY: forwarded from the caller; `mix_expand` only reads `seed`
        // and ignores the block count.
        unsafe { run(mix_expand, ks, seed.cast::<u8>().cast_mut(), 0) }
    }

    /// Runs kernel `k` from the current half of the schedule into the other
    /// and then makes that one current, keeping the keys out of signal
    /// frames: as a restartable sequence, or with signals blocked.
    ///
    /// # Safety
    /// As for `write_and_rekey`.
    #[inline(always)]
    unsafe fn run(k: Kernel, ks: *mut Schedule, out: *mut u8, n: usize) {
        let cs = rseq_cs();
        // SAFETY: forwarded from the caller; `cs` is null or this thread's
        // registered rseq_cs word.
        unsafe {
            let (c, cur, next) = Schedule::halves(ks);
            if cs.is_null() {
                let run = || k(cur, out, n, FIRST, cs, next);
                if disabled() {
                    run()
                } else {
                    // A fault in `out` must come before signals are
                    // blocked (`crate::prefault`); a one-shot kernel
                    // (n = 0) only reads `out`.
                    crate::prefault::touch_pages(out, n * 16);
                    blocked(run)
                };
            } else {
                resume(k, cur, out, n, cs, next);
            }
            Schedule::advance(ks, c);
        }
    }

    /// Runs kernel `k` over `n` blocks until it completes, wiping after
    /// every abort and resuming after the blocks it had written.
    ///
    /// Never inlined: the kernel and `wipe_below_stack` must be called from
    /// the same frame, so that the wipe covers the kernel's frame.
    #[inline(never)]
    unsafe fn resume(k: Kernel, cur: *const RoundKeys, out: *mut u8, n: usize, cs: *mut u64, next: *mut RoundKeys) {
        let mut done = 0;
        loop {
            // SAFETY: forwarded from the caller; `done <= n`, so the rest of
            // `out` holds `16 * (n - done)` bytes (a one-shot kernel, n = 0,
            // reads `out` as its argument).
            let p = unsafe { k(cur, out.add(done * 16), n - done, FIRST + done as u64, cs, next) };
            done += p.done;
            if p.aborted == 0 {
                return;
            }
            count_abort();
            let low = wipe_alternate_stack();
            // SAFETY: the frame below ours down to `low` (the alternate
            // stack's base when we run on it) is dead, and mapped wherever
            // the kernel could have written a frame; see `wipe_len`.
            unsafe { wipe_below_stack(wipe_len(), low) };
        }
    }

    /// No restartable sequences on Windows: the kernels run with a null
    /// `rseq_cs`, and `blocked` wipes after them.
    #[cfg(windows)]
    #[inline(always)]
    pub(super) fn rseq_cs() -> *mut u64 {
        core::ptr::null_mut()
    }

    /// glibc's offset of the thread's rseq area from the thread pointer, or
    /// `NONE` when glibc registers none (or is not the C library).
    #[cfg(target_os = "linux")]
    static RSEQ_OFFSET: AtomicIsize = AtomicIsize::new(UNKNOWN);
    #[cfg(target_os = "linux")]
    const UNKNOWN: isize = isize::MIN;
    #[cfg(target_os = "linux")]
    const NONE: isize = isize::MIN + 1;

    /// This thread's rseq_cs word, or null when the kernel does not know an
    /// rseq area for this thread (or the protection is switched off).
    #[inline(always)]
    #[cfg(target_os = "linux")]
    pub(super) fn rseq_cs() -> *mut u64 {
        let mut off = RSEQ_OFFSET.load(Relaxed);
        if off == UNKNOWN {
            off = libc_rseq_offset().unwrap_or(NONE);
            RSEQ_OFFSET.store(off, Relaxed);
        }
        if off == NONE || disabled() {
            return core::ptr::null_mut();
        }
        let tp: usize;
        // SAFETY: reads the thread pointer, the first word of the thread
        // control block.
        unsafe {
            core::arch::asm!("mov {}, qword ptr fs:[0]", out(reg) tp, options(nostack, readonly, preserves_flags))
        };
        let area = tp.wrapping_add(off as usize);
        // SAFETY: glibc keeps every thread's struct rseq at this offset from
        // its thread pointer; cpu_id (offset 4) is -1 or -2 until the kernel
        // has registered the area for this thread, which writes it.
        let cpu_id = unsafe { core::ptr::read_volatile((area + 4) as *const i32) };
        if cpu_id < 0 { core::ptr::null_mut() } else { (area + 8) as *mut u64 }
    }

    /// glibc's `__rseq_offset`, when glibc exports it (2.35 and later) and
    /// registered the area (`__rseq_size` is not zero). Both are weak
    /// references, so that the library still links and loads with an older
    /// glibc or another C library, where they are null.
    #[cold]
    #[cfg(target_os = "linux")]
    fn libc_rseq_offset() -> Option<isize> {
        let off: *const isize;
        let size: *const u32;
        // SAFETY: loads two GOT entries, which the linker or loader fills in
        // (null for an undefined weak symbol).
        unsafe {
            core::arch::asm!(
                ".weak __rseq_offset",
                ".weak __rseq_size",
                "mov {o}, qword ptr [rip + __rseq_offset@GOTPCREL]",
                "mov {s}, qword ptr [rip + __rseq_size@GOTPCREL]",
                o = out(reg) off,
                s = out(reg) size,
                options(nostack, readonly, preserves_flags),
            );
        }
        if off.is_null() || size.is_null() {
            return None;
        }
        // SAFETY: both point into glibc's data, set before any user code runs.
        unsafe { if *size == 0 { None } else { Some(*off) } }
    }

    /// How many bytes below a kernel's stack pointer a signal frame can
    /// reach: the red zone (128 bytes) and the largest frame the kernel
    /// writes (`AT_MINSIGSTKSZ`, Linux 5.14+; before, the XSAVE area's size
    /// from CPUID plus room for the rest of the frame), with alignment slack.
    #[cfg(target_os = "linux")]
    fn wipe_len() -> usize {
        static LEN: AtomicUsize = AtomicUsize::new(0);
        match LEN.load(Relaxed) {
            0 => {
                const AT_MINSIGSTKSZ: libc::c_ulong = 51;
                // SAFETY: getauxval has no preconditions.
                let frame = unsafe { libc::getauxval(AT_MINSIGSTKSZ) } as usize;
                // SAFETY: CPUID leaf 0xD exists where XSAVE does; otherwise
                // it reports zeroes and the fixed part below covers a FXSAVE frame.
                #[allow(unused_unsafe)]
                let xsave = unsafe { core::arch::x86_64::__cpuid_count(0xd, 0) }.ebx as usize;
                let len = (frame.max(xsave + 1024).max(2048) + 128 + 128).next_multiple_of(64);
                LEN.store(len, Relaxed);
                len
            }
            len => len,
        }
    }

    /// Zeroes the top of this thread's alternate signal stack, where a
    /// signal that interrupted a kernel had its frame, when one is set and
    /// not in use. Returns the lowest address that may be wiped below the
    /// current stack pointer: the alternate stack's base when this thread is
    /// running on it (a kernel called from a handler), else 0.
    #[cfg(target_os = "linux")]
    #[cold]
    fn wipe_alternate_stack() -> usize {
        // SAFETY: stack_t is plain data, valid when zeroed.
        let mut ss: libc::stack_t = unsafe { core::mem::zeroed() };
        // SAFETY: queries only (a null new stack), into a valid stack_t.
        if unsafe { libc::sigaltstack(core::ptr::null(), &mut ss) } != 0 {
            return 0;
        }
        let base = ss.ss_sp as usize;
        if ss.ss_flags & libc::SS_ONSTACK != 0 {
            return base;
        }
        if ss.ss_flags & libc::SS_DISABLE == 0 && ss.ss_size > 0 {
            let len = wipe_len().min(ss.ss_size);
            // SAFETY: the alternate stack is the thread's own memory,
            // `ss_size` bytes from `ss_sp`, and unused while the thread runs
            // off it: handlers that ran on it have returned.
            unsafe { core::ptr::write_bytes((base + ss.ss_size - len) as *mut u8, 0, len) };
            core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        }
        0
    }

    /// How many bytes below a stack pointer Windows may write a thread's
    /// register image when an exception (KiUserExceptionDispatcher) or a
    /// special user APC (KiUserApcDispatcher; QueueUserAPC2, delivered at any
    /// instruction) interrupts it: a CONTEXT (1232 bytes), its extended state
    /// (the XSAVE area of the features the OS enabled, from CPUID), the
    /// EXCEPTION_RECORD and the machine frame, with alignment slack and room
    /// for the frames between `blocked` and the kernel.
    #[cfg(windows)]
    pub(super) fn wipe_len() -> usize {
        static LEN: AtomicUsize = AtomicUsize::new(0);
        match LEN.load(Relaxed) {
            0 => {
                // SAFETY: CPUID leaf 0xD exists where XSAVE does; otherwise
                // it reports zeroes and the fixed part covers the CONTEXT's
                // FXSAVE area.
                #[allow(unused_unsafe)]
                let xsave = unsafe { core::arch::x86_64::__cpuid_count(0xd, 0) }.ebx as usize;
                let len = (1232 + 64 + xsave + 256 + 1024).next_multiple_of(64);
                LEN.store(len, Relaxed);
                len
            }
            len => len,
        }
    }

    /// The lowest committed address of this thread's stack (the TEB's
    /// StackLimit, gs:[0x10]): the wipe stops there.
    #[cfg(windows)]
    pub(super) fn stack_limit() -> usize {
        let limit: usize;
        // SAFETY: reads the thread's TEB through gs.
        unsafe {
            core::arch::asm!("mov {}, qword ptr gs:[0x10]", out(reg) limit, options(nostack, readonly, preserves_flags))
        };
        limit
    }

    /// Never called on Windows (the kernels run with a null `rseq_cs`, so
    /// no abort is reported); the wipe's lower bound.
    #[cfg(windows)]
    fn wipe_alternate_stack() -> usize {
        stack_limit()
    }
}

#[cfg(test)]
mod tests {
    /// The build users get, without the `internals` feature (the crate as a
    /// dependency, the C library, the Go module's objects), has the
    /// protection on, always: every test that shows the protection works
    /// runs with `internals`, where a switch that the tests' controls turn
    /// off decides, so a build without it that had the protection off passed
    /// them all. Runs in `make test-rust`'s build of the library's tests
    /// without features.
    #[cfg(not(feature = "internals"))]
    #[test]
    fn protection_cannot_be_off_without_internals() {
        assert!(!super::disabled(), "the signal-frame protection is off in a build without `internals`");
    }
}
