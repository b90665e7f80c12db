//! Linux (glibc and musl): entropy from the getrandom(2) system call, the
//! state in a page that a forked child finds zeroed (`state_memory`),
//! released at thread exit by a pthread key destructor, and the thread-local
//! word (`tls`: initial-exec TLS with glibc, a TLS descriptor with musl).
//!
//! Entropy comes only from the getrandom(2) system call, made directly, with
//! flags 0: it blocks until the kernel's pool has been initialised (once, early
//! in boot) and never reads a file descriptor, so it works in static binaries,
//! in chroots without /dev, and in daemons that close every descriptor. EINTR
//! is retried and short reads are continued; any other error (ENOSYS under an
//! old kernel or a seccomp filter, EPERM, EFAULT, …) is returned, and the
//! caller (`entropy`) aborts the process with a message on stderr.

mod stack;
mod state_memory;
mod tls;
pub(in crate::os) mod vdso;
pub(in crate::os) mod vmclock;

use core::ptr::NonNull;
use core::sync::atomic::{AtomicUsize, Ordering::AcqRel, Ordering::Acquire};

#[cfg(all(feature = "internals", target_arch = "x86_64"))]
pub(crate) use stack::look_up_entry as stack_look_up_entry;
pub(crate) use stack::thread_stack;
pub(in crate::os) use state_memory::{EXTENSION_LEN, droppable, lock_extension, map_page, unmap_page};
#[cfg(feature = "internals")]
pub(crate) use state_memory::{accept_unverified_wipe_on_fork, state_mapping};
pub(crate) use tls::slot;

/// Why getrandom(2), or the vDSO's getrandom, could not fill a buffer: the
/// call and its errno (0 if it returned no bytes and no error).
pub(crate) struct EntropyError {
    call: &'static str,
    errno: i32,
}

impl core::fmt::Display for EntropyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: errno {}", self.call, self.errno)
    }
}

/// Fills the `len` bytes at `dst` from getrandom(2), or returns the error
/// that stopped it (any but EINTR, which is retried); the bytes are then
/// not all written.
///
/// # Safety
/// `dst` is valid for writes of `len` bytes.
pub(crate) unsafe fn fill_entropy(dst: *mut u8, len: usize) -> Result<(), EntropyError> {
    let mut done = 0;
    while done < len {
        // SAFETY: the caller guarantees `len` writable bytes at `dst`; the
        // kernel writes at most `len - done` bytes from `dst + done`.
        let n = unsafe { libc::syscall(libc::SYS_getrandom, dst.add(done), len - done, 0 as libc::c_uint) };
        if n > 0 {
            done += n as usize;
            continue;
        }
        let errno = if n == 0 { 0 } else { last_errno() };
        if errno != libc::EINTR {
            return Err(EntropyError { call: "getrandom", errno });
        }
    }
    Ok(())
}

fn last_errno() -> i32 {
    // SAFETY: __errno_location returns this thread's errno slot.
    unsafe { *libc::__errno_location() }
}

/// Writes `msg` to stderr with a single write(2) and aborts the process
/// (SIGABRT).
pub(crate) fn write_stderr_and_abort(msg: &[u8]) -> ! {
    // SAFETY: `msg` is a valid byte slice for its whole length; fd 2 may be
    // closed, in which case write fails harmlessly. abort never returns.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
        libc::abort()
    }
}

/// Whether the kernel honours MADV_WIPEONFORK, so that a thread may keep
/// its state in userspace (probed on first use).
pub(crate) fn userspace_state_allowed() -> bool {
    state_memory::honoured()
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

/// Arranges that the thread-exit hook runs with `p` when this thread exits:
/// sets this thread's value of the release key. False if that cannot be
/// done.
pub(in crate::os) fn release_at_thread_exit(p: NonNull<u8>) -> bool {
    // SAFETY: the key is live; the value is this thread's own state.
    release_key().is_some_and(|key| unsafe { libc::pthread_setspecific(key, p.as_ptr().cast()) } == 0)
}

/// The pthread key destructor: pthread has cleared the key's value, and
/// destructors run after the thread's own code has returned, so no call is
/// using the state. Runs the thread-exit hook with the key's value.
unsafe extern "C" fn release(p: *mut libc::c_void) {
    super::thread_exited(p as usize);
}

/// Runs this thread's release as its exit would, with the key's value, then
/// clears the value, so that the real exit releases nothing twice; false if
/// the key held no value (for `thread_state`'s tests).
#[cfg(test)]
pub(crate) fn release_as_at_exit() -> bool {
    let Some(key) = release_key() else { return false };
    // SAFETY: pthread_getspecific has no preconditions for a live key.
    let value = unsafe { libc::pthread_getspecific(key) };
    if value.is_null() {
        return false;
    }
    // SAFETY: this thread's own value, released exactly as at exit; then
    // clearing this thread's own value of a live key.
    unsafe {
        release(value);
        libc::pthread_setspecific(key, core::ptr::null())
    };
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::Ordering::Relaxed;

    #[test]
    fn the_release_key_was_made_at_load() {
        assert_ne!(RELEASE_KEY.load(Relaxed), 0, "the .init_array constructor ran");
    }
}
