//! One generator per thread: where it lives, when it may be used, and when it
//! is released.
//!
//! The state is one page mapped by the OS module (`os`: on Linux droppable,
//! or MADV_WIPEONFORK, so a forked child finds it zeroed, and a zeroed
//! generator reseeds before its first output). The thread-local pointer to
//! it is the OS module's thread-local word. A thread's state is zeroed and
//! released when the thread exits ([`thread_exit`], the hook this module
//! gives the OS module, which runs it from a pthread key destructor on
//! Linux, a TLS callback on Windows).
//!
//! Re-entry from a signal handler on the same thread is marked in the
//! thread-local word itself (its low bit, beside the page-aligned pointer),
//! which neither fork nor a dropped page touches: a call that finds the mark
//! (it interrupted another call) reads the OS directly instead, as Linux's
//! vgetrandom does, and so never uses a state that a running call is
//! writing, wiped or not. A fork made by a signal handler in the middle of a
//! call (or a dropped page) is noticed through the `live` word in the page,
//! which every call that uses the generator finds at 1 and a wipe zeroes:
//! the interrupted call then throws away what it produced.
//!
//! The buffer's counts word is the second thread-local word, beside the
//! slot, not in the page ([`ThreadCounts`]): a word draw then stores to the
//! thread-local line three times (the mark, the counts, the mark cleared)
//! and to the buffer once, and the last two stores, adjacent and to one
//! line, commit together (the README's construction section quotes what
//! this saves a `u32` on the CPUs measured). A fork or a
//! dropped page zeroes the page but not the word, which may then count
//! bytes of a zeroed buffer: a fast-path draw hands out nothing unless
//! `live` is still 1 after it (as before), and every other call first
//! zeroes a word that no refill since the last zeroing wrote, with the
//! unread bytes it counts in the extension, which a dropped page leaves as
//! they were (`Generator::forget_stale_counts`, checked right after `live`
//! is set).

use crate::entropy;
use crate::generator::{CountsWord, DEFAULT_BLOCKS, DEFAULT_RESEED, Generator, KernelMix};
use crate::os::{self, STATE_LEN, slot};
use core::cell::UnsafeCell;
use core::ptr::NonNull;
use core::sync::atomic::Ordering::{Relaxed, SeqCst};
use core::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, compiler_fence};

/// The generator every thread uses.
pub(crate) type ThreadGenerator = Generator<DEFAULT_BLOCKS, DEFAULT_RESEED, ThreadCounts, ThreadKernelMix>;

/// A thread generator's counts word: the calling thread's second
/// thread-local word ([`os::counts`]). Only the thread that owns the
/// generator uses it, so the word it reaches is that generator's.
pub(crate) struct ThreadCounts;

impl CountsWord for ThreadCounts {
    #[inline(always)]
    fn word(&self) -> &AtomicU64 {
        os::counts()
    }
}

/// A thread generator's source of the kernel's current output: the
/// kernel's userspace generator ([`os::fill_from_kernel_rng`]: on Linux
/// the vDSO's getrandom), with its state in the room at the start of the
/// thread's state page, where the generator's page is; and of the VM
/// generation counter.
pub(crate) struct ThreadKernelMix;

/// Whether a test switched the mix off ([`set_kernel_mix_off`]).
static KERNEL_MIX_OFF: AtomicBool = AtomicBool::new(false);

impl KernelMix for ThreadKernelMix {
    #[inline]
    fn available(&self) -> bool {
        os::kernel_rng_available() && !KERNEL_MIX_OFF.load(Relaxed)
    }

    #[inline]
    unsafe fn fresh(&self, dst: *mut u8) -> bool {
        // This value is a field of a thread's generator, in its state page.
        let page = (self as *const Self as usize) & !PAGE_MASK;
        let room = page + core::mem::offset_of!(ThreadState, kernel_rng);
        // SAFETY: the room of the state page that holds this generator,
        // which only its thread uses, and only here; the caller guarantees
        // `dst`.
        unsafe { entropy::kernel_rng_fill_raw(room as *mut u8, dst, 16) }
    }

    /// The OS's VM generation counter ([`os::vm_generation`]: on Linux the
    /// VMClock device's). A thread's generator compares it, from its first
    /// reseed at which it reads one, before it hands out any byte, and so
    /// serves no draw from the fast path ([`take`] and [`take_bytes`]
    /// decline); a change discards the state as a dropped page is
    /// discarded.
    #[inline]
    fn vm_generation(&self) -> Option<u64> {
        os::vm_generation()
    }
}

/// Switches off (`true`) or back on the mix of the kernel's current output
/// into every refill's key, for the control of the tests that show it is
/// needed after a VM snapshot is restored.
#[cfg(feature = "internals")]
pub(crate) fn set_kernel_mix_off(off: bool) {
    KERNEL_MIX_OFF.store(off, Relaxed);
}

/// The room for the state of the kernel's userspace generator.
#[repr(C, align(64))]
struct KernelRngRoom(UnsafeCell<[u8; os::KERNEL_RNG_ROOM]>);

/// A thread's state: the room for the kernel's generator state, then its
/// generator, which fills the rest of the page. Its `live` word tells a
/// call whether the page was zeroed (forked, dropped) under it.
#[repr(C)]
struct ThreadState {
    kernel_rng: KernelRngRoom,
    generator: ThreadGenerator,
}

const _: () = assert!(size_of::<ThreadState>() == STATE_LEN, "the state fills its page");
const _: () = assert!(
    core::mem::offset_of!(ThreadState, generator) + ThreadGenerator::BUFFER_END == STATE_LEN,
    "the buffer ends where the page does, so the extension continues it"
);
const _: () = assert!(
    os::EXTENSION_LEN.is_multiple_of(16) && DEFAULT_BLOCKS * 16 + os::EXTENSION_LEN <= DEFAULT_RESEED,
    "the extension is whole blocks, and a refill of the extended buffer fits in a reseed interval"
);

/// The thread-local word holds 0 (no state yet), one of the two markers
/// below, or the address of the thread's state (page-aligned), to which
/// `BUSY` is added while a call uses it.
const BUSY: usize = 1;
const MAPPING: usize = 2; // this thread is mapping its state (a handler that interrupts it reads the OS)
const EXITING: usize = os::SLOT_EXITED; // the state was released at thread exit: later draws read the OS
const PAGE_MASK: usize = STATE_LEN - 1;

const _: () = assert!(align_of::<ThreadState>() <= STATE_LEN && MAPPING | EXITING | BUSY < PAGE_MASK);

/// Whether slot value `p` is a state that no call is using.
#[inline(always)]
fn is_idle_state(p: usize) -> bool {
    p & PAGE_MASK == 0 && p != 0
}

/// Zeroes and releases an exiting thread's state: the hook given to
/// [`os::release_at_thread_exit`], which the OS module runs when the thread
/// exits. `p` is the state it was asked to release, or 0 to release the one
/// this thread's word holds. Draws made later on this
/// thread (by other destructors or callbacks) read the OS, so no state is
/// mapped after the thread's last release (it would never be released).
///
/// Runs after the thread's own code has returned, so no call is using the
/// state.
pub(crate) fn thread_exit(p: usize) {
    let slot = slot();
    let p = if p == 0 { slot.load(Relaxed) } else { p };
    slot.store(EXITING, Relaxed);
    os::counts().store(0, Relaxed);
    if is_idle_state(p) {
        // SAFETY: `p` came from `os::map` in `acquire`; the slot no longer
        // points at it and the OS's record of it is cleared (the pthread key's
        // value) or is never read again (the thread is exiting), so nothing
        // reaches it again.
        unsafe { os::unmap(NonNull::new_unchecked(p as *mut ThreadState)) };
    }
}

/// Whether this thread's state was released at thread exit (for the tests).
#[cfg(all(test, target_os = "linux"))]
fn exited() -> bool {
    slot().load(Relaxed) == EXITING
}

/// Runs `f` on this thread's generator and returns its result, or returns
/// `None` when this call must read the OS instead: it interrupted another call
/// on this thread (a signal handler), the thread is exiting, the kernel does
/// not honour MADV_WIPEONFORK, or a fork (or a dropped page) during `f` wiped
/// the state.
#[inline(always)]
pub(crate) fn with_generator<R>(f: impl FnOnce(&ThreadGenerator) -> R) -> Option<R> {
    let slot = slot();
    let mut p = slot.load(Relaxed);
    if !is_idle_state(p) {
        p = acquire(slot, p)?;
    }
    let state = enter(slot, p);
    state.generator.mark_live();
    compiler_fence(SeqCst);
    state.generator.forget_stale_counts();
    if state.generator.extension_unasked() && state.generator.is_seeded() {
        attach_extension(state);
    }
    let result = f(&state.generator);
    compiler_fence(SeqCst);
    let live = state.generator.is_live();
    if !live {
        // What `f` produced may be the parent's, and the state is half
        // wiped: its words may say that a refill wrote a buffer the kernel
        // zeroed. The mark stays on until the state is wiped, so that a
        // signal handler that interrupts the wipe reads the OS instead.
        wipe_state_zeroed_during_call(&state.generator);
    }
    compiler_fence(SeqCst);
    slot.store(p, Relaxed);
    live.then_some(result)
}

/// The fast path of a draw of `N` bytes: takes them from this thread's
/// buffer, or returns `None` when the caller must take the slow path
/// (`with_generator`), which also maps a thread's first state.
///
/// It calls nothing (but, in a musl shared object, the TLS descriptor's
/// resolver that `slot` calls), so a function that ends in a tail call to
/// its slow path needs no stack frame.
#[inline(always)]
pub(crate) fn take<const N: usize>() -> Option<[u8; N]> {
    let slot = slot();
    let p = slot.load(Relaxed);
    if !is_idle_state(p) {
        return None;
    }
    let state = enter(slot, p);
    let out = state.generator.take::<N>();
    if !leave(slot, p, state) {
        // The page was zeroed while `take` ran, so what it took may be the
        // parent's or zeroes. The counts word, outside the page, survived
        // and may count bytes of the zeroed buffer: `filled` is 0, so the
        // slow path forgets them before it hands anything out, and no fast
        // path hands anything out while `live` is 0.
        return None;
    }
    out
}

/// The fast path of a fill of `len` bytes at `dst`: moves them from this
/// thread's buffer and returns true, or returns false when the caller must
/// take the slow path (`with_generator`), which then fills all of `dst`.
///
/// # Safety
/// `dst` is valid for writes of `len` bytes and outside the state.
#[inline(always)]
pub(crate) unsafe fn take_bytes(dst: *mut u8, len: usize) -> bool {
    let slot = slot();
    let p = slot.load(Relaxed);
    if !is_idle_state(p) {
        return false;
    }
    let state = enter(slot, p);
    // SAFETY: forwarded from the caller.
    let done = unsafe { state.generator.take_bytes(dst, len) };
    if !leave(slot, p, state) {
        // As in `take`: what was moved may be the parent's (the slow path
        // overwrites it), and the slow path forgets the stale counts.
        return false;
    }
    done
}

/// Marks the idle state at `p` as used by this call: a call that interrupts
/// this one (a signal handler's) then finds the mark and reads the OS.
#[inline(always)]
fn enter(slot: &AtomicUsize, p: usize) -> &'static ThreadState {
    slot.store(p | BUSY, Relaxed);
    compiler_fence(SeqCst);
    // SAFETY: `p` is this thread's live state: it stays mapped until
    // `release` runs, which first takes it out of the slot. Only this thread
    // (and its signal handlers, which the mark keeps out) reach it, and only
    // through shared references to atomics and cells.
    unsafe { &*(p as *const ThreadState) }
}

/// Ends a fast path's call begun by [`enter`]. Returns false if the kernel
/// zeroed the page during the call (a signal handler forked and this is the
/// child, or the page was dropped): the generator is then no longer live.
/// (`with_generator` ends its calls itself: it wipes such a state before it
/// clears the mark.)
#[inline(always)]
fn leave(slot: &AtomicUsize, p: usize, state: &ThreadState) -> bool {
    compiler_fence(SeqCst);
    let live = state.generator.is_live();
    compiler_fence(SeqCst);
    slot.store(p, Relaxed);
    live
}

/// Gives a generator its extension, locked in memory, or records that it
/// has none. Asked once its first refill is behind it, so that a thread
/// that draws less than one buffer never locks memory; asked again after
/// the state was zeroed (by a fork, whose child does not inherit the lock,
/// or a dropped page). A fork or a drop between the lock and the record
/// leaves a state that the call throws away and wipes, which detaches it.
#[cold]
#[inline(never)]
fn attach_extension(state: &'static ThreadState) {
    let p = NonNull::from(state);
    // SAFETY: `state` is this thread's state, mapped by `os::map` in
    // `acquire` and not released while it is in use.
    let len = unsafe { os::lock_extension(p) };
    // SAFETY: `lock_extension` locked the `len` bytes mapped right after the
    // state page, which is where the generator's buffer ends (asserted
    // above); they are this thread's alone and mapped until `thread_exit`
    // releases the state. `len` is whole pages, and with the page's buffer
    // far below the reseed interval.
    unsafe { state.generator.attach_extension(len) };
}

/// Wipes the generator of a state that the kernel zeroed under a running
/// call (a signal handler forked and this is the child, or the page was
/// dropped): what the call produced is thrown away by the caller, and the
/// half-zeroed state, its extension's unread bytes included, is zeroed
/// whole, so that it reseeds before its next output.
#[cold]
#[inline(never)]
fn wipe_state_zeroed_during_call(generator: &ThreadGenerator) {
    generator.wipe();
}

/// Maps this thread's state on its first draw, or returns the idle state a
/// signal handler mapped meanwhile; `None` if this draw must read the OS
/// (`p`, the slot's value, is a busy state, MAPPING or EXITING, or no state
/// can be mapped).
///
/// The slot is claimed with a compare-and-swap from 0, so that a handler
/// that interrupts this draw anywhere either finds the claim (and reads the
/// OS) or has mapped the state before the claim (which then fails, and this
/// draw uses that state): a thread never maps two.
#[cold]
#[inline(never)]
fn acquire(slot: &AtomicUsize, p: usize) -> Option<usize> {
    if p != 0 || !os::userspace_state_allowed() {
        return None;
    }
    if let Err(now) = slot.compare_exchange(0, MAPPING, Relaxed, Relaxed) {
        return is_idle_state(now).then_some(now);
    }
    compiler_fence(SeqCst);
    let state = os::map::<ThreadState>().and_then(|p| {
        if !os::release_at_thread_exit(p.cast(), thread_exit) {
            // No release at exit could be arranged: use the OS instead.
            // SAFETY: `p` was just mapped and never handed out.
            unsafe { os::unmap(p) };
            return None;
        }
        Some(p.as_ptr() as usize)
    });
    compiler_fence(SeqCst);
    slot.store(state.unwrap_or(0), Relaxed);
    state
}

/// Whether this thread's draws come from its userspace generator (true), or
/// straight from the OS because the kernel does not honour MADV_WIPEONFORK.
pub(crate) fn uses_generator() -> bool {
    with_generator(|_| ()).is_some()
}

/// How many bytes a refill of this thread's buffer writes now (the state
/// page's buffer, and the extension once attached). `None` as for
/// [`with_generator`].
#[cfg(feature = "internals")]
pub(crate) fn buffer_len() -> Option<usize> {
    with_generator(|g| g.buffer_len())
}

/// The address of this thread's state page. `None` as for [`with_generator`].
#[cfg(feature = "internals")]
pub(crate) fn state_address() -> Option<usize> {
    with_generator(|g| page_of(g) as usize)
}

/// The start of the state page that holds generator `g`.
#[cfg(feature = "internals")]
fn page_of(g: &ThreadGenerator) -> *const u8 {
    (g as *const ThreadGenerator as *const u8).wrapping_sub(core::mem::offset_of!(ThreadState, generator))
}

/// Runs `f` on this thread's key schedule, for the tests that look for old
/// keys in memory. `None` as for [`with_generator`].
#[cfg(feature = "internals")]
pub(crate) fn with_schedule<R>(f: impl FnOnce(&crate::keystream::Schedule) -> R) -> Option<R> {
    with_generator(|g| f(g.schedule()))
}

/// Copies this thread's state page and its extension into `dst` (at most
/// their first `STATE_LEN + EXTENSION_LEN` bytes), for the tests that look
/// for old keys in memory.
#[cfg(feature = "internals")]
pub(crate) fn copy_state(dst: &mut [u8]) -> bool {
    with_generator(|g| {
        let len = dst.len().min(STATE_LEN + os::EXTENSION_LEN);
        let base = page_of(g);
        // SAFETY: `base` is the start of this thread's state page, which is
        // mapped with its extension right after it (`os::map`), and both are
        // only this thread's.
        unsafe { core::ptr::copy_nonoverlapping(base, dst.as_mut_ptr(), len) };
    })
    .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_call_is_refused() {
        if !crate::os::userspace_state_expected() {
            assert!(!uses_generator(), "no userspace state where MADV_WIPEONFORK is not honoured");
            return;
        }
        let nested = with_generator(|_| with_generator(|_| ()));
        assert_eq!(nested, Some(None), "a call inside a call must go to the OS");
        assert!(with_generator(|_| ()).is_some(), "the flag is cleared afterwards");
        // SAFETY: 8 writable bytes outside the state.
        let filled = with_generator(|g| unsafe { g.fill([0u8; 8].as_mut_ptr(), 8) });
        assert!(filled.is_some(), "the buffer now holds bytes");
        assert_eq!(with_generator(|_| take::<8>()), Some(None), "the fast path refuses a call inside a call");
        assert!(take::<8>().is_some(), "and serves once the outer call has ended");
        assert!(with_generator(|_| ()).is_some(), "leaving the flag cleared");
    }

    #[test]
    fn the_state_fits_one_page() {
        assert!(size_of::<ThreadState>() <= 4096);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn draws_after_release_read_the_os_and_map_nothing() {
        if !crate::os::userspace_state_expected() {
            return; // no userspace state to release under qemu-user
        }
        std::thread::spawn(|| {
            assert!(uses_generator());
            assert!(os::release_as_at_exit(), "the release key holds this thread's state");
            assert!(exited());
            assert!(!uses_generator(), "after release the thread reads the OS");
            assert!(exited(), "no new state was mapped");
        })
        .join()
        .unwrap();
    }

    #[cfg(windows)]
    #[test]
    fn states_are_released_when_threads_exit() {
        // The state's address, and whether it is still committed after the
        // thread has exited.
        let p = std::thread::spawn(|| {
            assert!(uses_generator());
            slot().load(Relaxed)
        })
        .join()
        .unwrap();
        assert!(p != 0 && p % STATE_LEN == 0, "the thread had a state ({p:#x})");
        assert!(!committed(p), "the state page was not released at thread exit");
        assert!(uses_generator());
        assert!(committed(slot().load(Relaxed) & !(STATE_LEN - 1)), "this thread's own state is committed");
    }

    /// Whether the page at `p` is committed memory.
    #[cfg(windows)]
    fn committed(p: usize) -> bool {
        use windows_sys::Win32::System::Memory::{MEM_COMMIT, MEMORY_BASIC_INFORMATION, VirtualQuery};
        // SAFETY: MEMORY_BASIC_INFORMATION is plain data; VirtualQuery fills it
        // for any address.
        let mut info: MEMORY_BASIC_INFORMATION = unsafe { core::mem::zeroed() };
        // SAFETY: `info` is a valid out-pointer of the size given.
        let n =
            unsafe { VirtualQuery(p as *const core::ffi::c_void, &mut info, size_of::<MEMORY_BASIC_INFORMATION>()) };
        n != 0 && info.State == MEM_COMMIT
    }
}
