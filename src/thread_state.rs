//! One generator per thread: where it lives, when it may be used, and when it
//! is released.
//!
//! The state is one page mapped by `state_memory` (droppable, or
//! MADV_WIPEONFORK), so a forked child finds it zeroed, and a zeroed generator
//! reseeds before its first output. The thread-local pointer to it is an
//! initial-exec TLS word (`tls`). A thread's state is zeroed and unmapped
//! when the thread exits, through a pthread key destructor; randp creates the
//! key when it is loaded, so that it is among the process's first keys, whose
//! values glibc keeps without allocating.
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

use crate::generator::{DEFAULT_BLOCKS, DEFAULT_RESEED, Generator};
use crate::{state_memory, tls};
use core::ptr::NonNull;
use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, SeqCst};
use core::sync::atomic::{AtomicUsize, compiler_fence};

/// The generator every thread uses.
pub(crate) type ThreadGenerator = Generator<DEFAULT_BLOCKS, DEFAULT_RESEED>;

/// A thread's state: its generator, which fills the page. Its `live` word
/// tells a call whether the page was zeroed (forked, dropped) under it.
#[repr(C)]
struct ThreadState {
    generator: ThreadGenerator,
}

const _: () = assert!(size_of::<ThreadState>() == state_memory::STATE_LEN, "the state fills its page");

/// The thread-local word holds 0 (no state yet), one of the two markers
/// below, or the address of the thread's state (page-aligned), to which
/// `BUSY` is added while a call uses it.
const BUSY: usize = 1;
const MAPPING: usize = 2; // this thread is mapping its state (a handler that interrupts it reads the OS)
const EXITING: usize = 4; // the state was released at thread exit: later draws read the OS
const PAGE_MASK: usize = state_memory::STATE_LEN - 1;

const _: () = assert!(align_of::<ThreadState>() <= state_memory::STATE_LEN && MAPPING | EXITING | BUSY < PAGE_MASK);

/// Whether slot value `p` is a state that no call is using.
#[inline(always)]
fn is_idle_state(p: usize) -> bool {
    p & PAGE_MASK == 0 && p != 0
}

/// The pthread key whose destructor releases a thread's state when the
/// thread exits, plus one (0: not created yet).
///
/// A pthread key rather than a Rust thread-local destructor: registering one
/// of those goes through `__cxa_thread_atexit_impl`, which allocates, so a
/// thread whose first draw came from a signal handler that interrupted
/// `malloc` would deadlock. glibc keeps the values of the first 32 keys of a
/// process inside the thread descriptor, so setting one allocates nothing;
/// randp creates its key when it is loaded (below) to be among them.
static RELEASE_KEY: AtomicUsize = AtomicUsize::new(0);

/// Creates the release key when the program or library is loaded, before
/// `main` or during `dlopen`.
#[used]
#[unsafe(link_section = ".init_array")]
static CREATE_KEY_AT_LOAD: extern "C" fn() = create_key_at_load;

extern "C" fn create_key_at_load() {
    let _ = release_key();
}

fn release_key() -> Option<libc::pthread_key_t> {
    let k = RELEASE_KEY.load(Acquire);
    if k != 0 {
        return Some((k - 1) as libc::pthread_key_t);
    }
    let mut key: libc::pthread_key_t = 0;
    // SAFETY: `key` is a valid out-pointer and `release` has the signature
    // pthread key destructors need.
    if unsafe { libc::pthread_key_create(&mut key, Some(release)) } != 0 {
        return None;
    }
    match RELEASE_KEY.compare_exchange(0, key as usize + 1, AcqRel, Acquire) {
        Ok(_) => Some(key),
        Err(other) => {
            // Another thread created the key first; ours was never set.
            // SAFETY: `key` was created above and holds no values.
            unsafe { libc::pthread_key_delete(key) };
            Some((other - 1) as libc::pthread_key_t)
        }
    }
}

/// Zeroes and unmaps an exiting thread's state (the pthread key destructor).
/// Draws that later destructors make on this thread read the OS, so no state
/// is mapped after the last destructor round (it would never be released).
unsafe extern "C" fn release(p: *mut libc::c_void) {
    tls::slot().store(EXITING, Relaxed);
    if let Some(p) = NonNull::new(p.cast::<ThreadState>()) {
        // SAFETY: `p` came from `state_memory::map` in `acquire`; pthread has
        // cleared the key's value and the slot no longer points at it, so
        // nothing reaches it again. Destructors run after the thread's own
        // code has returned, so no call is using it.
        unsafe { state_memory::unmap(p) };
    }
}

/// Runs `f` on this thread's generator and returns its result, or returns
/// `None` when this call must read the OS instead: it interrupted another call
/// on this thread (a signal handler), the thread is exiting, the kernel does
/// not honour MADV_WIPEONFORK, or a fork (or a dropped page) during `f` wiped
/// the state.
#[inline(always)]
pub(crate) fn with_generator<R>(f: impl FnOnce(&ThreadGenerator) -> R) -> Option<R> {
    let slot = tls::slot();
    let mut p = slot.load(Relaxed);
    if !is_idle_state(p) {
        p = acquire(slot, p)?;
    }
    let state = enter(slot, p);
    state.generator.mark_live();
    compiler_fence(SeqCst);
    let result = f(&state.generator);
    if !leave(slot, p, state) {
        // What `f` produced may be the parent's, and the state is half wiped.
        forked_during_call(&state.generator);
        return None;
    }
    Some(result)
}

/// The fast path of a draw of `N` bytes: takes them from this thread's
/// buffer, or returns `None` when the caller must take the slow path
/// (`with_generator`), which also maps a thread's first state.
///
/// It calls nothing, so a function that ends in a tail call to its slow path
/// needs no stack frame.
#[inline(always)]
pub(crate) fn take<const N: usize>() -> Option<[u8; N]> {
    let slot = tls::slot();
    let p = slot.load(Relaxed);
    if !is_idle_state(p) {
        return None;
    }
    let state = enter(slot, p);
    let out = state.generator.take::<N>();
    if !leave(slot, p, state) {
        // The page was zeroed while `take` ran. Its one store that may have
        // landed on the zeroed page (zeroes aside) is the count of unread
        // bytes; clearing that leaves the all-zero, unseeded state.
        state.generator.discard_buffer();
        return None;
    }
    out
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

/// Ends a call begun by [`enter`]. Returns false if the kernel zeroed the
/// page during the call (a signal handler forked and this is the child, or
/// the page was dropped): the generator is then no longer live.
#[inline(always)]
fn leave(slot: &AtomicUsize, p: usize, state: &ThreadState) -> bool {
    compiler_fence(SeqCst);
    let live = state.generator.is_live();
    compiler_fence(SeqCst);
    slot.store(p, Relaxed);
    live
}

/// Throws away a state that the kernel wiped under a running call, so that
/// it reseeds.
#[cold]
#[inline(never)]
fn forked_during_call(generator: &ThreadGenerator) {
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
    if p != 0 || !state_memory::honoured() {
        return None;
    }
    if let Err(now) = slot.compare_exchange(0, MAPPING, Relaxed, Relaxed) {
        return is_idle_state(now).then_some(now);
    }
    compiler_fence(SeqCst);
    let state = release_key().and_then(|key| {
        let p = state_memory::map::<ThreadState>()?;
        // SAFETY: `key` is a live pthread key; the value is this thread's own state.
        if unsafe { libc::pthread_setspecific(key, p.as_ptr().cast()) } != 0 {
            // No release at exit could be arranged: use the OS instead.
            // SAFETY: `p` was just mapped and never handed out.
            unsafe { state_memory::unmap(p) };
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

/// Runs `f` on this thread's key schedule, for the tests that look for old
/// keys in memory. `None` as for [`with_generator`].
#[cfg(feature = "internals")]
pub(crate) fn with_schedule<R>(f: impl FnOnce(&crate::keystream::Schedule) -> R) -> Option<R> {
    with_generator(|g| f(g.schedule()))
}

/// Copies this thread's state page into `dst` (at most its first
/// `STATE_LEN` bytes), for the tests that look for old keys in memory.
#[cfg(feature = "internals")]
pub(crate) fn copy_state(dst: &mut [u8]) -> bool {
    with_generator(|g| {
        let len = dst.len().min(state_memory::STATE_LEN);
        let base =
            (g as *const ThreadGenerator as *const u8).wrapping_sub(core::mem::offset_of!(ThreadState, generator));
        // SAFETY: `base` is the start of this thread's state page, which is
        // STATE_LEN bytes long, mapped, and only this thread's.
        unsafe { core::ptr::copy_nonoverlapping(base, dst.as_mut_ptr(), len) };
    })
    .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_call_is_refused() {
        if !crate::state_memory::tests::native() {
            assert!(!uses_generator(), "no userspace state where MADV_WIPEONFORK is not honoured");
            return;
        }
        let nested = with_generator(|_| with_generator(|_| ()));
        assert_eq!(nested, Some(None), "a call inside a call must go to the OS");
        assert!(with_generator(|_| ()).is_some(), "the flag is cleared afterwards");
        let _ = crate::u64(); // the buffer now holds bytes
        assert_eq!(with_generator(|_| take::<8>()), Some(None), "the fast path refuses a call inside a call");
        assert!(take::<8>().is_some(), "and serves once the outer call has ended");
        assert!(with_generator(|_| ()).is_some(), "leaving the flag cleared");
    }

    #[test]
    fn the_state_fits_one_page_and_the_key_was_made_at_load() {
        assert!(size_of::<ThreadState>() <= 4096);
        assert_ne!(RELEASE_KEY.load(Relaxed), 0, "the .init_array constructor ran");
    }

    #[test]
    fn draws_after_release_read_the_os_and_map_nothing() {
        if !crate::state_memory::tests::native() {
            return; // no userspace state to release under qemu-user
        }
        std::thread::spawn(|| {
            assert!(uses_generator());
            let p = tls::slot().load(Relaxed);
            // SAFETY: this thread's own state, released exactly as at exit.
            unsafe { release(p as *mut libc::c_void) };
            assert_eq!(tls::slot().load(Relaxed), EXITING);
            assert!(!uses_generator(), "after release the thread reads the OS");
            assert_eq!(tls::slot().load(Relaxed), EXITING, "no new state was mapped");
            // SAFETY: pthread_getspecific has no preconditions for a live key.
            let value = unsafe { libc::pthread_getspecific(release_key().unwrap()) };
            // The key's value still names the unmapped page; clear it so that
            // the real exit does not release it twice.
            assert!(!value.is_null());
            // SAFETY: clearing this thread's own value of a live key.
            unsafe { libc::pthread_setspecific(release_key().unwrap(), core::ptr::null()) };
        })
        .join()
        .unwrap();
    }
}
