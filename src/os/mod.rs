//! What randp needs from the operating system, behind one small interface,
//! with one module per system (`linux/`, `windows.rs`): the generator, the
//! per-thread bookkeeping and the keystream above it are the same on every
//! system. This is the bottom layer: nothing here names a module above it.
//! Policy stays with the callers: a failure is returned, not acted on, and
//! what runs at thread exit is a hook the caller registers.
//!
//! Each system's module provides:
//! - **entropy**: `fill_entropy(dst, len)` fills `len` bytes from the OS's
//!   preferred source (Linux: the getrandom(2) system call; Windows:
//!   ProcessPrng), or returns its [`EntropyError`]; never a weaker fallback
//!   (what a failure means is `entropy`'s decision: an abort);
//! - **the kernel's userspace generator**: `fill_from_kernel_rng(state,
//!   dst, len)` fills from the kernel's own per-thread generator where the
//!   process has one (Linux: the vDSO's getrandom, whose state the caller
//!   keeps in [`KERNEL_RNG_ROOM`] bytes of its droppable state page), or
//!   returns `None`;
//! - **the VM generation**: `vm_generation()`, a counter the hypervisor
//!   changes before a guest restored from a snapshot runs again (Linux: the
//!   VMClock device's page, looked up once), or `None` where there is none;
//! - **the one way out**: `write_stderr_and_abort(msg)`, which allocates
//!   nothing and takes no lock ([`fatal`]);
//! - **state memory**: `map_page()` maps one zeroed [`STATE_LEN`]-byte page
//!   for a thread's state, kept out of swap and dumps as far as the system
//!   allows, followed by `EXTENSION_LEN` bytes that its buffer may grow into
//!   once `lock_extension(p)` has locked them in memory, or returns `None`
//!   when no userspace state may be kept (Linux: the kernel does not honour
//!   wipe-on-fork); `unmap_page(p)` zeroes and releases both;
//!   `userspace_state_allowed()` says whether `map_page` can succeed;
//!   `state_mapping()` names how pages are mapped (diagnostics);
//! - **thread exit**: `release_at_thread_exit(p)` arranges that
//!   `thread_exited` runs when this thread exits, also for threads created
//!   by C code that Rust knows nothing of; `thread_exited` runs the hook
//!   given to [`release_at_thread_exit`];
//! - **the thread-local block**: two words, zero in a new thread: `slot()`,
//!   the first, reached in a few instructions with no call (in a musl shared
//!   object: one call of the TLS descriptor's resolver, see `linux/tls.rs`),
//!   and right after it the word that [`counts`] gives (Linux keeps two more,
//!   for `thread_stack(sp)`: the bounds of the thread's own stack, looked up
//!   once without allocating, or `None`).
//!
//! Any other target stops at the `compile_error!` in `lib.rs`.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering::Relaxed};

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as imp;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

#[cfg(all(feature = "internals", target_os = "linux"))]
pub(crate) use imp::accept_unverified_wipe_on_fork;
#[cfg(all(feature = "internals", target_os = "linux", target_arch = "x86_64"))]
pub(crate) use imp::stack_look_up_entry;
#[cfg(feature = "internals")]
pub(crate) use imp::state_mapping;
#[cfg(target_os = "linux")]
pub(crate) use imp::thread_stack;
pub(crate) use imp::{EntropyError, fill_entropy, slot, userspace_state_allowed};
#[cfg(all(test, target_os = "linux"))]
pub(crate) use linux::release_as_at_exit;

/// The room a thread's state keeps for the state of the kernel's
/// userspace generator ([`fill_from_kernel_rng`]): 64-byte aligned, at its
/// page's start.
pub(crate) const KERNEL_RNG_ROOM: usize = 192;

/// Whether [`fill_from_kernel_rng`] has a source (looks it up once).
#[inline]
pub(crate) fn kernel_rng_available() -> bool {
    #[cfg(target_os = "linux")]
    return linux::droppable() && linux::vdso::available();
    #[cfg(windows)]
    false
}

/// The entry address of the function behind [`fill_from_kernel_rng`], or
/// 0 where there is none (for the tests that single-step a draw).
#[cfg(feature = "internals")]
pub(crate) fn kernel_rng_entry() -> usize {
    #[cfg(target_os = "linux")]
    return linux::vdso::entry();
    #[cfg(windows)]
    0
}

/// Fills the `len` bytes at `dst` from the kernel's own per-thread
/// generator in user space, which follows the kernel's reseeds (Linux: the
/// vDSO's getrandom, 6.11+), with its state at `state`: `None` when the
/// process has none (no vDSO getrandom, a state the kernel wants larger
/// than [`KERNEL_RNG_ROOM`] or not droppable, state pages that are not
/// droppable, Windows), else whether the bytes were written.
///
/// # Safety
/// `dst` is valid for writes of `len` bytes; `state` is the
/// [`KERNEL_RNG_ROOM`] bytes of a state page from [`map`] that only this
/// thread uses, and only through this function.
#[inline]
pub(crate) unsafe fn fill_from_kernel_rng(
    state: *mut u8,
    dst: *mut u8,
    len: usize,
) -> Option<Result<(), EntropyError>> {
    #[cfg(target_os = "linux")]
    {
        const { assert!(KERNEL_RNG_ROOM == linux::vdso::STATE_ROOM) };
        if !linux::droppable() {
            return None;
        }
        // SAFETY: forwarded from the caller; a state page is droppable
        // here, 64-byte aligned at its start.
        unsafe { linux::vdso::fill(state, dst, len) }
    }
    #[cfg(windows)]
    {
        let _ = (state, dst, len);
        None
    }
}

/// Whether this process can read a VM generation counter ([`vm_generation`]):
/// on Linux, the VMClock device's page (6.13+, `/dev/vmclock0`) mapped,
/// valid and with the counter present. Looks once; never on Windows.
pub(crate) fn vm_generation_available() -> bool {
    #[cfg(target_os = "linux")]
    return linux::vmclock::available();
    #[cfg(windows)]
    false
}

/// The VM generation counter, which the hypervisor changes before a guest
/// restored from a snapshot runs again: `None` where the process has none
/// ([`vm_generation_available`]), or when the page was being updated for
/// as long as a read is tried.
#[inline]
pub(crate) fn vm_generation() -> Option<u64> {
    #[cfg(target_os = "linux")]
    return linux::vmclock::generation();
    #[cfg(windows)]
    None
}

/// Makes the process read the VM generation counter from the file at
/// `path` (NUL-terminated, kept for the life of the process) instead of
/// the VMClock device, for the tests; before the first draw. Does nothing
/// on Windows.
#[cfg(feature = "internals")]
pub(crate) fn set_vm_clock_path(path: &'static core::ffi::CStr) {
    #[cfg(target_os = "linux")]
    linux::vmclock::set_path(path);
    #[cfg(windows)]
    let _ = path;
}

/// Writes `msg` to stderr and aborts the process: randp's one way to give
/// up (the OS entropy source failed, signals cannot be blocked around a
/// keystream call, a NULL buffer or a panic at the C ABI).
///
/// Allocates nothing and takes no lock, so it is safe on any path,
/// including a signal handler and a thread being torn down.
pub(crate) fn fatal(msg: &[u8]) -> ! {
    imp::write_stderr_and_abort(msg)
}

/// What runs when a thread exits: given the state's address (or 0: the one
/// in the thread's slot). See [`release_at_thread_exit`].
pub(crate) type ThreadExitHook = fn(usize);

/// The hook given to [`release_at_thread_exit`]; null before the first call.
static THREAD_EXIT_HOOK: AtomicPtr<()> = AtomicPtr::new(core::ptr::null_mut());

/// The value [`thread_exited`] leaves in the slot of an exiting thread for
/// which no hook was registered, and that the hook leaves in the slot of
/// every exiting thread: not an address (no page is at 4), so that a draw
/// made later on the thread, by another destructor or callback, maps no
/// state, which would never be released.
pub(crate) const SLOT_EXITED: usize = 4;

/// Arranges that `hook` runs with `p` (or with 0, meaning the state in the
/// slot) when this thread exits, also for threads created by C code that
/// Rust knows nothing of: a pthread key destructor on Linux, a TLS callback
/// on Windows. The hook is the caller's (the per-thread bookkeeping above
/// this layer), which keeps this layer from naming it; every caller passes
/// the same one. False if the release cannot be arranged.
pub(crate) fn release_at_thread_exit(p: NonNull<u8>, hook: ThreadExitHook) -> bool {
    THREAD_EXIT_HOOK.store(hook as *mut (), Relaxed);
    imp::release_at_thread_exit(p)
}

/// Called by each system's thread-exit mechanism: runs the registered hook
/// with `p`. A thread that arranged a release registered the hook before,
/// so without one this thread has no state: its slot is only marked
/// [`SLOT_EXITED`] (the Windows callback runs on every thread, also on one
/// that exits before any thread drew).
fn thread_exited(p: usize) {
    let hook = THREAD_EXIT_HOOK.load(Relaxed);
    if hook.is_null() {
        slot().store(SLOT_EXITED, Relaxed);
        counts().store(0, Relaxed);
        return;
    }
    // SAFETY: the only non-null value ever stored is a `ThreadExitHook`
    // cast to a pointer (`release_at_thread_exit`), of the same size.
    let hook = unsafe { core::mem::transmute::<*mut (), ThreadExitHook>(hook) };
    hook(p);
}

/// This thread's second thread-local word, right after [`slot`]: its
/// generator's counts (`thread_state::ThreadCounts`). Zero in a new thread.
#[inline(always)]
pub(crate) fn counts() -> &'static AtomicU64 {
    let slot: *const AtomicUsize = slot();
    // SAFETY: every system's thread-local block is two 8-byte-aligned words,
    // the slot and this one, which live as long as the thread and are only
    // ever accessed through atomic views.
    unsafe { &*slot.cast::<AtomicU64>().add(1) }
}

/// The size of a thread's state: one 4 KiB page.
pub(crate) const STATE_LEN: usize = 4096;

/// The bytes mapped right after every state, that its buffer may grow into
/// once they are locked in memory ([`lock_extension`]); 0 where the system
/// has none.
pub(crate) const EXTENSION_LEN: usize = imp::EXTENSION_LEN;

/// Maps zeroed, private memory for one `T` (at most [`STATE_LEN`] bytes, so
/// it lies in one page), or returns `None` when this system keeps no
/// userspace state or has no memory.
///
/// `T` must be valid when all-zero: that is what a fresh page holds, and on
/// Linux what a forked child finds and what a dropped page reads back as.
pub(crate) fn map<T>() -> Option<NonNull<T>> {
    const { assert!(size_of::<T>() <= STATE_LEN && align_of::<T>() <= STATE_LEN) };
    Some(imp::map_page()?.cast())
}

/// Locks in memory the [`EXTENSION_LEN`] bytes mapped after the state at
/// `p`, and returns how many may be used: all of them, or 0 if they cannot
/// be locked (the system's limit on locked memory is reached).
///
/// # Safety
/// `p` came from [`map`] and is not released.
pub(crate) unsafe fn lock_extension<T>(p: NonNull<T>) -> usize {
    imp::lock_extension(p.cast())
}

/// Zeroes and releases memory from [`map`].
///
/// # Safety
/// `p` came from `map::<T>()`, is not used afterwards, and nothing else refers to it.
pub(crate) unsafe fn unmap<T>(p: NonNull<T>) {
    // SAFETY: forwarded from the caller.
    unsafe { imp::unmap_page(p.cast()) }
}

/// Whether a thread's draws are expected to come from a userspace state in
/// this test run: on Windows, and on Linux on any architecture, yes, unless
/// the runner says the tests run under qemu-user (`RANDP_TEST_EMULATOR`, set
/// by mk/aarch64.mk's and mk/musl.mk's runners), which ignores
/// MADV_WIPEONFORK, so that there randp must refuse to keep one.
#[cfg(test)]
pub(crate) fn userspace_state_expected() -> bool {
    cfg!(windows) || std::env::var_os("RANDP_TEST_EMULATOR").is_none()
}

#[cfg(test)]
mod tests {
    use super::{counts, slot};
    use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

    #[test]
    fn each_thread_has_its_own_zeroed_slot() {
        let here = slot() as *const AtomicUsize as usize;
        let (there, value) = std::thread::spawn(|| {
            let s = slot();
            let v = s.load(Relaxed);
            s.store(77, Relaxed);
            (s as *const AtomicUsize as usize, v)
        })
        .join()
        .unwrap();
        assert_ne!(here, there);
        assert_eq!(value, 0, "a new thread's slot starts at zero");
        assert_eq!(here % 8, 0);
    }

    #[test]
    fn each_thread_has_its_own_zeroed_counts_word_beside_its_slot() {
        let here = counts() as *const AtomicU64 as usize;
        assert_eq!(here, slot() as *const AtomicUsize as usize + 8);
        let (there, value) = std::thread::spawn(|| {
            let c = counts();
            let v = c.load(Relaxed);
            c.store(77, Relaxed);
            assert_eq!(slot().load(Relaxed), 0, "a store to the counts word leaves the slot alone");
            (c as *const AtomicU64 as usize, v)
        })
        .join()
        .unwrap();
        assert_ne!(here, there);
        assert_eq!(value, 0, "a new thread's counts word starts at zero");
    }
}
