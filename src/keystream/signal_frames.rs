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

/// The signals a keystream call leaves unblocked: those the kernel forces on
/// a thread for the instruction it runs (a single-step or breakpoint trap, a
/// fault). Blocked, such a signal would not be held back: the kernel would
/// kill the process instead, which an in-process debugger or profiler that
/// single-steps, a hardware watchpoint, or a handler that maps memory on a
/// fault must never see. One that comes inside the call has its frame, and
/// the keys in it, zeroed after the call where the stack's bounds are known
/// (see `x86_64::call`).
#[cfg(target_os = "linux")]
const SYNCHRONOUS: u64 =
    bit(libc::SIGTRAP) | bit(libc::SIGSEGV) | bit(libc::SIGBUS) | bit(libc::SIGILL) | bit(libc::SIGFPE);

/// Signal `s`'s bit in a kernel signal set.
#[cfg(target_os = "linux")]
const fn bit(s: libc::c_int) -> u64 {
    1 << (s - 1)
}

/// Blocks every signal on this thread but the [`SYNCHRONOUS`] ones, and
/// returns the mask to give [`restore_signals`]. Aborts the process if the
/// kernel refuses (only a seccomp filter makes it fail with these
/// arguments): running the keystream call anyway would leave keys in the
/// frames of the signals it let in.
#[cfg(target_os = "linux")]
#[inline(always)]
fn block_signals() -> u64 {
    let all: u64 = !SYNCHRONOUS;
    let mut old: u64 = 0;
    // SAFETY: rt_sigprocmask with valid 8-byte sets; it only changes this
    // thread's mask, which `restore_signals` restores. SIGKILL and SIGSTOP
    // are left alone by the kernel.
    let blocked = unsafe {
        libc::syscall(libc::SYS_rt_sigprocmask, libc::SIG_BLOCK, &all as *const u64, &mut old as *mut u64, 8usize)
    };
    if blocked != 0 {
        crate::os::fatal(b"randp: rt_sigprocmask failed, so signals cannot be blocked around a keystream call; aborting rather than leave keys in signal frames\n");
    }
    old
}

/// Restores the signal mask [`block_signals`] returned, or aborts.
#[cfg(target_os = "linux")]
#[inline(always)]
fn restore_signals(old: u64) {
    // SAFETY: as in `block_signals`; restores the mask read there.
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
}

/// Runs `f` with every signal blocked on this thread but the synchronous
/// ones (see [`SYNCHRONOUS`]). A fault in `f` is delivered to the program's
/// handler, with whatever `f` holds in registers in its frame: the memory
/// `f` writes for a caller must have been written first
/// (`crate::prefault`), and `f` must zero the stack below it after its work
/// (the portable backend does).
#[cfg(target_os = "linux")]
#[inline(never)]
pub(super) fn blocked<R>(f: impl FnOnce() -> R) -> R {
    let old = block_signals();
    let r = f();
    restore_signals(old);
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
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[inline(always)]
fn count_abort() {
    #[cfg(feature = "internals")]
    ABORTS.fetch_add(1, Relaxed);
}

/// How many calls stopped restarting their sequence after aborts without
/// progress and finished with signals blocked, for the tests that show a
/// recurring trap reaches that path.
#[cfg(feature = "internals")]
pub(crate) static STALLED: AtomicUsize = AtomicUsize::new(0);

/// Counts a stalled call (with the `internals` feature only).
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[inline(always)]
fn count_stall() {
    #[cfg(feature = "internals")]
    STALLED.fetch_add(1, Relaxed);
}

/// How many keystream calls found no proven free stack below them for the
/// wipe (`wipe_floor`), and so ran with signals blocked and no sequence,
/// for the tests that show a small stack reaches that path.
#[cfg(feature = "internals")]
pub(crate) static WITHOUT_ROOM: AtomicUsize = AtomicUsize::new(0);

/// Counts a call without room for the wipe (with the `internals` feature
/// only).
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[inline(always)]
fn count_without_room() {
    #[cfg(feature = "internals")]
    WITHOUT_ROOM.fetch_add(1, Relaxed);
}

/// The stack pointer of the caller.
#[cfg(target_os = "linux")]
#[inline(always)]
fn stack_pointer() -> usize {
    let sp: usize;
    // SAFETY: reads a register.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags))
    };
    // SAFETY: reads a register.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags))
    };
    sp
}

/// The lowest address a wipe below `sp` may reach when the `len` bytes
/// below `sp` are proven to be the free area of the stack `sp` is on:
/// this thread's own stack (its bounds are looked up once, see
/// `crate::os::thread_stack`), or the alternate signal stack the thread
/// runs on (a handler; `sigaltstack` says so and where it starts).
/// `None` for any other stack: an alternate stack that the handler's
/// `SS_AUTODISARM` hides, a stack the program made (coroutines), or too
/// little room left below `sp`.
#[cfg(target_os = "linux")]
#[inline(always)]
fn wipe_floor(sp: usize, len: usize) -> Option<usize> {
    match crate::os::thread_stack(sp) {
        Some((low, high)) if low <= sp && sp < high && sp - low >= len => Some(low),
        _ => alternate_stack_floor(sp, len),
    }
}

#[cfg(target_os = "linux")]
#[cold]
fn alternate_stack_floor(sp: usize, len: usize) -> Option<usize> {
    let ss = alternate_stack()?;
    let base = ss.ss_sp as usize;
    let on = ss.ss_flags & libc::SS_ONSTACK != 0 && base <= sp && sp - base <= ss.ss_size;
    (on && sp - base >= len).then_some(base)
}

/// This thread's alternate signal stack, as `sigaltstack` reports it.
#[cfg(target_os = "linux")]
fn alternate_stack() -> Option<libc::stack_t> {
    // SAFETY: stack_t is plain data, valid when zeroed.
    let mut ss: libc::stack_t = unsafe { core::mem::zeroed() };
    // SAFETY: queries only (a null new stack), into a valid stack_t.
    (unsafe { libc::sigaltstack(core::ptr::null(), &mut ss) } == 0).then_some(ss)
}

/// Whether the caller's stack has `len` bytes of free area below it, proven
/// as [`wipe_floor`] proves it: the room the portable backend's calls need,
/// which zero the stack they used below them after their work. Windows
/// grows a thread's stack on demand, page by page, up to its reserve.
#[inline(always)]
pub(super) fn stack_room(len: usize) -> bool {
    #[cfg(target_os = "linux")]
    return wipe_floor(stack_pointer(), len).is_some();
    #[cfg(windows)]
    {
        let _ = len;
        true
    }
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

/// How far below its stack pointer a keystream call wipes after an abort
/// (0 where no call wipes after an abort).
#[cfg(feature = "internals")]
pub(super) fn wipe_len() -> usize {
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    return x86_64::frame_len();
    #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
    0
}

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
    #[cfg(target_os = "linux")]
    use super::super::x86::wipe_below_stack;
    use super::super::x86::{Kernel, mix_expand};
    use super::super::{RoundKeys, Schedule};
    #[cfg(windows)]
    use super::blocked;
    use super::{AtomicUsize, Relaxed, disabled};
    #[cfg(target_os = "linux")]
    use super::{alternate_stack, count_abort, count_stall, count_without_room, stack_pointer, wipe_floor};
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
    /// frames (see [`call`]).
    ///
    /// # Safety
    /// As for `write_and_rekey`.
    #[inline(always)]
    unsafe fn run(k: Kernel, ks: *mut Schedule, out: *mut u8, n: usize) {
        // SAFETY: forwarded from the caller; a null `rseq_cs` runs the
        // kernel without a sequence.
        unsafe {
            let (c, cur, next) = Schedule::halves(ks);
            if disabled() {
                k(cur, out, n, FIRST, core::ptr::null_mut(), next);
            } else {
                call(k, cur, out, n, next);
            }
            Schedule::advance(ks, c);
        }
    }

    /// How many aborts in a row without a block written make a call stop
    /// restarting its sequence: a trap that recurs at the same instruction
    /// (a program that single-steps itself, a hardware watchpoint on the
    /// output) would otherwise abort it for ever. A timer or a preemption
    /// lets a group of blocks finish between two aborts.
    #[cfg(target_os = "linux")]
    const STALLS: usize = 3;

    /// Runs kernel `k` over `n` blocks: as a restartable sequence where the
    /// thread has an rseq area and the stack below this frame is known to be
    /// free for the length of a signal frame ([`wipe_floor`]), wiping after
    /// every abort and resuming after the blocks written; after [`STALLS`]
    /// aborts in a row without progress, and where there is no rseq area or
    /// the stack is not known, the rest with signals blocked but the
    /// synchronous ones, which a trap inside the kernel then gets with its
    /// frame below this one: that is wiped after the kernel, where the stack
    /// is known.
    ///
    /// Never inlined: the kernel and `wipe_below_stack` must be called from
    /// the same frame, so that the wipe covers the kernel's frame.
    ///
    /// # Safety
    /// As for `write_and_rekey`, with `cur` and `next` the halves of its
    /// schedule.
    #[cfg(target_os = "linux")]
    #[inline(never)]
    unsafe fn call(k: Kernel, cur: *const RoundKeys, out: *mut u8, n: usize, next: *mut RoundKeys) {
        let len = frame_len();
        let floor = wipe_floor(stack_pointer(), len);
        if floor.is_none() {
            count_without_room();
        }
        let cs = if floor.is_some() { rseq_cs() } else { core::ptr::null_mut() };
        let mut done = 0;
        if let (false, Some(floor)) = (cs.is_null(), floor) {
            let mut stalls = 0;
            loop {
                // SAFETY: forwarded from the caller; `done <= n`, so the rest
                // of `out` holds `16 * (n - done)` bytes (a one-shot kernel,
                // n = 0, reads `out` as its argument); `cs` is this thread's
                // registered rseq_cs word.
                let p = unsafe { k(cur, out.add(done * 16), n - done, FIRST + done as u64, cs, next) };
                done += p.done;
                if p.aborted == 0 {
                    return;
                }
                count_abort();
                let low = wipe_alternate_stack(floor);
                // SAFETY: the stack below this frame down to `low` is this
                // stack's free area (`wipe_floor`, `wipe_alternate_stack`).
                unsafe { wipe_below_stack(frame_len_after_abort(), low) };
                stalls = if p.done == 0 { stalls + 1 } else { 0 };
                if stalls == STALLS {
                    count_stall();
                    break;
                }
            }
        }
        // SAFETY: forwarded from the caller, as above; the pages are written
        // before signals are blocked (a one-shot kernel only reads `out`).
        unsafe {
            let rest = out.add(done * 16);
            crate::prefault::touch_pages(rest, (n - done) * 16);
            let old = super::block_signals();
            k(cur, rest, n - done, FIRST + done as u64, core::ptr::null_mut(), next);
            super::restore_signals(old);
        }
        if let Some(floor) = floor {
            let low = if done == 0 && cs.is_null() { floor } else { wipe_alternate_stack(floor) };
            // SAFETY: as above.
            unsafe { wipe_below_stack(len, low) };
        }
    }

    /// Windows: the kernel with no sequence, and `blocked`'s wipe after it.
    ///
    /// # Safety
    /// As for the Linux `call`.
    #[cfg(windows)]
    #[inline(always)]
    unsafe fn call(k: Kernel, cur: *const RoundKeys, out: *mut u8, n: usize, next: *mut RoundKeys) {
        // SAFETY: forwarded from the caller.
        unsafe {
            crate::prefault::touch_pages(out, n * 16);
            blocked(|| k(cur, out, n, FIRST, core::ptr::null_mut(), next));
        }
    }

    /// No restartable sequences on Windows: the kernels run with a null
    /// `rseq_cs`, and `blocked` wipes after them (only `protection` asks).
    #[cfg(all(windows, feature = "internals"))]
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
    /// writes for this process (`AT_MINSIGSTKSZ`, Linux 5.14+; before, the
    /// XSAVE area's size from CPUID plus room for the rest of the frame),
    /// with alignment slack. `AT_MINSIGSTKSZ` counts every XSAVE feature
    /// the kernel enables, AMX tile data (8 KiB) included, but a process
    /// that has no permission to use tile data (`ARCH_GET_XCOMP_PERM`)
    /// never has them in a frame: they are left out, so that a call needs
    /// some 4 KiB of free stack on any x86_64 CPU, not 12 KiB. Permission
    /// only grows; [`frame_len_after_abort`] looks again.
    #[cfg(target_os = "linux")]
    #[inline(always)]
    pub(super) fn frame_len() -> usize {
        match FRAME_LEN.load(Relaxed) {
            0 => measure_frame_len(),
            len => len,
        }
    }

    /// [`frame_len`]'s value, or 0 until it is first needed.
    #[cfg(target_os = "linux")]
    static FRAME_LEN: AtomicUsize = AtomicUsize::new(0);
    /// Whether [`FRAME_LEN`] leaves tile data out.
    #[cfg(target_os = "linux")]
    static WITHOUT_TILES: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

    #[cfg(target_os = "linux")]
    #[cold]
    fn measure_frame_len() -> usize {
        const AT_MINSIGSTKSZ: libc::c_ulong = 51;
        // SAFETY: getauxval has no preconditions.
        let frame = unsafe { libc::getauxval(AT_MINSIGSTKSZ) } as usize;
        let tiles = unpermitted_tile_bytes();
        let len = signal_frame_len(frame, xsave_len(), tiles);
        WITHOUT_TILES.store(tiles != 0, Relaxed);
        FRAME_LEN.store(len, Relaxed);
        len
    }

    /// [`frame_len`], measured again (on the cold path after an abort)
    /// while it leaves tile data out: the process may have asked for them
    /// since.
    #[cfg(target_os = "linux")]
    #[cold]
    fn frame_len_after_abort() -> usize {
        if WITHOUT_TILES.load(Relaxed) { measure_frame_len() } else { frame_len() }
    }

    /// The length [`frame_len`] reports, from `AT_MINSIGSTKSZ` (`frame`, 0
    /// before Linux 5.14), the size of the XSAVE area of the features the
    /// kernel enables (`xsave`), and the bytes of it this process can never
    /// have in a frame (`unpermitted`).
    #[cfg(target_os = "linux")]
    pub(in super::super) fn signal_frame_len(frame: usize, xsave: usize, unpermitted: usize) -> usize {
        let frame = frame.saturating_sub(unpermitted);
        let xsave = xsave.saturating_sub(unpermitted);
        (frame.max(xsave + 1024).max(2048) + 128 + 128).next_multiple_of(64)
    }

    /// The size of the XSAVE area of the features the kernel enables (CPUID
    /// leaf 0xD, EBX).
    #[cfg(target_os = "linux")]
    fn xsave_len() -> usize {
        // SAFETY: CPUID leaf 0xD exists where XSAVE does; otherwise it
        // reports zeroes and the fixed part of the frame covers FXSAVE's.
        #[allow(unused_unsafe)]
        let leaf = unsafe { core::arch::x86_64::__cpuid_count(0xd, 0) };
        leaf.ebx as usize
    }

    /// The bytes of the XSAVE area that hold AMX tile data (state component
    /// 18) when the kernel enables them but this process has no permission
    /// to use them, else 0: the kernel then writes frames without them.
    #[cfg(target_os = "linux")]
    pub(in super::super) fn unpermitted_tile_bytes() -> usize {
        const XTILEDATA: u32 = 18;
        const ARCH_GET_XCOMP_PERM: libc::c_int = 0x1022;
        let Some(xcr0) = xcr0() else { return 0 };
        if xcr0 & (1 << XTILEDATA) == 0 {
            return 0;
        }
        let mut perm: u64 = 0;
        // SAFETY: arch_prctl(ARCH_GET_XCOMP_PERM) writes one u64.
        let r = unsafe { libc::syscall(libc::SYS_arch_prctl, ARCH_GET_XCOMP_PERM, &mut perm as *mut u64) };
        if r != 0 || perm & (1 << XTILEDATA) != 0 {
            return 0;
        }
        // The uncompacted layout of a signal frame ends where the last
        // enabled component other than tile data does.
        let end = (2..63)
            .filter(|&i| i != XTILEDATA && xcr0 & (1 << i) != 0)
            .map(|i| {
                // SAFETY: as in `xsave_len`; sub-leaf i describes component i.
                #[allow(unused_unsafe)]
                let c = unsafe { core::arch::x86_64::__cpuid_count(0xd, i) };
                // ECX bit 0: a supervisor component, never in a user frame.
                if c.ecx & 1 != 0 { 0 } else { (c.ebx + c.eax) as usize }
            })
            .max()
            .unwrap_or(0)
            .max(576 + 64);
        xsave_len().saturating_sub(end)
    }

    /// XCR0, the XSAVE features the kernel enables, when the OS uses XSAVE.
    #[cfg(target_os = "linux")]
    fn xcr0() -> Option<u64> {
        // SAFETY: CPUID leaf 1 exists on every x86_64 CPU.
        #[allow(unused_unsafe)]
        let leaf1 = unsafe { core::arch::x86_64::__cpuid(1) };
        if leaf1.ecx & (1 << 27) == 0 {
            return None;
        }
        let (lo, hi): (u32, u32);
        // SAFETY: OSXSAVE (checked above) makes XGETBV with ECX = 0 valid.
        unsafe {
            core::arch::asm!("xgetbv", in("ecx") 0, out("eax") lo, out("edx") hi, options(nomem, nostack, preserves_flags))
        };
        Some(u64::from(hi) << 32 | u64::from(lo))
    }

    /// Zeroes the top of this thread's alternate signal stack, where a
    /// signal that interrupted a kernel had its frame, when one is set and
    /// not in use. Returns the lowest address that may be wiped below the
    /// current stack pointer: `floor`, raised to the alternate stack's base
    /// when this thread is running on it (a kernel called from a handler).
    #[cfg(target_os = "linux")]
    #[cold]
    fn wipe_alternate_stack(floor: usize) -> usize {
        let Some(ss) = alternate_stack() else { return floor };
        let base = ss.ss_sp as usize;
        if ss.ss_flags & libc::SS_ONSTACK != 0 {
            return floor.max(base);
        }
        if ss.ss_flags & libc::SS_DISABLE == 0 && ss.ss_size > 0 {
            let len = frame_len().min(ss.ss_size);
            // SAFETY: the alternate stack is the thread's own memory,
            // `ss_size` bytes from `ss_sp`, and unused while the thread runs
            // off it: handlers that ran on it have returned.
            unsafe { core::ptr::write_bytes((base + ss.ss_size - len) as *mut u8, 0, len) };
            core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        }
        floor
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
