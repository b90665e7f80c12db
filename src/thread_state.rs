//! One generator per thread: where it lives, when it may be used, and when it
//! is released.
//!
//! The state is mapped with MADV_WIPEONFORK (see `wipe_on_fork`), so a forked
//! child finds it zeroed, and a zeroed generator reseeds before its first
//! output. A thread's state is zeroed and unmapped when the thread exits
//! (through a pthread key destructor, so that no step of a draw allocates).
//!
//! An `in_use` flag guards against re-entry from a signal handler on the same
//! thread: a call that finds the flag set (it interrupted another call) reads
//! the OS directly instead, as Linux's vgetrandom does. The flag is also how a
//! fork made by a signal handler in the middle of a call is noticed: the child
//! finds the flag wiped to zero when the interrupted call resumes, and throws
//! away what that call produced.

use crate::generator::{DEFAULT_BLOCKS, DEFAULT_RESEED, Generator};
use crate::wipe_on_fork;
use core::cell::Cell;
use core::ptr::{self, NonNull};
use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, SeqCst};
use core::sync::atomic::{AtomicUsize, compiler_fence};

/// The generator every thread uses.
pub(crate) type ThreadGenerator = Generator<DEFAULT_BLOCKS, DEFAULT_RESEED>;

#[repr(C)]
struct ThreadState {
    /// 1 while a call on this thread uses `generator`; 0 otherwise (and after a fork).
    in_use: AtomicUsize,
    generator: ThreadGenerator,
}

/// Marks a thread whose state is being mapped, so that a signal handler
/// arriving meanwhile does not map a second one.
const MAPPING: *mut ThreadState = ptr::dangling_mut();

thread_local! {
    /// This thread's state, or null before its first draw and after it exits.
    static STATE: Cell<*mut ThreadState> = const { Cell::new(ptr::null_mut()) };
}

/// The pthread key whose destructor releases a thread's state when the
/// thread exits, plus one (0: not created yet).
///
/// A pthread key rather than a Rust thread-local destructor: registering one
/// of those goes through `__cxa_thread_atexit_impl`, which allocates, so a
/// thread whose first draw came from a signal handler that interrupted
/// `malloc` would deadlock. Creating a key and setting its value allocate
/// nothing in glibc (for the first 32 keys of a process), so the first draw
/// is async-signal-safe too.
static RELEASE_KEY: AtomicUsize = AtomicUsize::new(0);

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
unsafe extern "C" fn release(p: *mut libc::c_void) {
    // Later calls on this thread (from other destructors) map a new state,
    // which pthread runs this destructor for again.
    STATE.set(ptr::null_mut());
    if let Some(p) = NonNull::new(p.cast::<ThreadState>()) {
        // SAFETY: `p` came from `wipe_on_fork::map` in `acquire`; pthread has
        // cleared the key's value and STATE no longer points at it, so
        // nothing reaches it again. Destructors run after the thread's own
        // code has returned, so no call is using it.
        unsafe { wipe_on_fork::unmap(p) };
    }
}

/// Runs `f` on this thread's generator and returns its result, or returns
/// `None` when this call must read the OS instead: it interrupted another call
/// on this thread (a signal handler), the thread is exiting, the kernel does
/// not honour MADV_WIPEONFORK, or a fork during `f` wiped the state.
#[inline(always)]
pub(crate) fn with_generator<R>(f: impl FnOnce(&mut ThreadGenerator) -> R) -> Option<R> {
    let mut p = STATE.get();
    if p.is_null() || p == MAPPING {
        p = acquire()?.as_ptr();
    }
    // SAFETY: `p` is this thread's live state: it stays mapped until `Release`
    // runs, which first takes it out of STATE. Only this thread reaches it.
    let in_use = unsafe { &(*p).in_use };
    if in_use.load(Relaxed) != 0 {
        return None;
    }
    in_use.store(1, Relaxed);
    compiler_fence(SeqCst);
    // SAFETY: with `in_use` set, a signal handler on this thread leaves the
    // generator alone, so this is the only reference to it while `f` runs.
    let result = f(unsafe { &mut (*p).generator });
    compiler_fence(SeqCst);
    if in_use.load(Relaxed) != 1 {
        // A signal handler forked while `f` ran and this is the child: what
        // `f` produced may be the parent's, and the state is half wiped.
        // SAFETY: as above; `in_use` is zero only because the kernel wiped it.
        unsafe { forked_during_call(&mut (*p).generator) };
        return None;
    }
    in_use.store(0, Relaxed);
    Some(result)
}

/// Throws away a state that a fork in a signal handler wiped under a running
/// call, so that the child reseeds.
#[cold]
#[inline(never)]
fn forked_during_call(generator: &mut ThreadGenerator) {
    generator.wipe();
}

/// Maps this thread's state on its first draw.
#[cold]
#[inline(never)]
fn acquire() -> Option<NonNull<ThreadState>> {
    if STATE.get() == MAPPING || !wipe_on_fork::honoured() {
        return None;
    }
    STATE.set(MAPPING);
    let state = release_key().and_then(|key| {
        let p = wipe_on_fork::map::<ThreadState>()?;
        // SAFETY: `key` is a live pthread key; the value is this thread's own state.
        if unsafe { libc::pthread_setspecific(key, p.as_ptr().cast()) } != 0 {
            // No release at exit could be arranged: use the OS instead.
            // SAFETY: `p` was just mapped and never handed out.
            unsafe { wipe_on_fork::unmap(p) };
            return None;
        }
        Some(p)
    });
    STATE.set(state.map_or(ptr::null_mut(), NonNull::as_ptr));
    state
}

/// Whether this thread's draws come from its userspace generator (true), or
/// straight from the OS because the kernel does not honour MADV_WIPEONFORK.
pub(crate) fn uses_generator() -> bool {
    with_generator(|_| ()).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_call_is_refused() {
        let nested = with_generator(|_| with_generator(|_| ()));
        assert_eq!(nested, Some(None), "a call inside a call must go to the OS");
        assert!(with_generator(|_| ()).is_some(), "the flag is cleared afterwards");
    }
}
