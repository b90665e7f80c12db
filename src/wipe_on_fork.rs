//! Memory that a forked child finds zeroed (MADV_WIPEONFORK) and that is left
//! out of core dumps (MADV_DONTDUMP).
//!
//! Whether the kernel honours MADV_WIPEONFORK is checked, not assumed: the
//! advice must succeed on every mapping, and an invalid advice must fail, since
//! some environments (qemu-user, for one) accept any advice and ignore it. When
//! the check fails randp keeps no userspace state at all and every draw reads
//! the OS directly, so a child never repeats its parent's bytes.

use core::ptr::{self, NonNull};
use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

const UNKNOWN: u8 = 0;
const HONOURED: u8 = 1;
const REFUSED: u8 = 2;

static WIPE_ON_FORK: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether the kernel has been seen to honour MADV_WIPEONFORK; false once a
/// mapping was refused. Probes the kernel on first use.
pub(crate) fn honoured() -> bool {
    match WIPE_ON_FORK.load(Relaxed) {
        HONOURED => true,
        REFUSED => false,
        _ => probe(),
    }
}

#[cold]
fn probe() -> bool {
    match map_bytes(page_size()) {
        Some((p, len)) => {
            // SAFETY: `p` is a mapping of `len` bytes that nothing else uses.
            unsafe { unmap_bytes(p, len) };
            true
        }
        None => false,
    }
}

/// Maps zeroed, private memory for one `T` with MADV_WIPEONFORK and
/// MADV_DONTDUMP applied, or returns `None` (and records the refusal) when the
/// kernel does not honour MADV_WIPEONFORK or has no memory.
///
/// `T` must be valid when all-zero: that is what a forked child finds.
pub(crate) fn map<T>() -> Option<NonNull<T>> {
    let (p, _) = map_bytes(size_of::<T>())?;
    Some(p.cast())
}

/// Zeroes and unmaps memory from [`map`].
///
/// # Safety
/// `p` came from `map::<T>()`, is not used afterwards, and nothing else refers to it.
pub(crate) unsafe fn unmap<T>(p: NonNull<T>) {
    // SAFETY: forwarded from the caller; `map` mapped exactly this length.
    unsafe { unmap_bytes(p.cast(), rounded(size_of::<T>())) }
}

fn map_bytes(len: usize) -> Option<(NonNull<u8>, usize)> {
    let len = rounded(len);
    // SAFETY: an anonymous private mapping with no address hint touches no
    // existing memory.
    let p = unsafe {
        libc::mmap(
            ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return None;
    }
    let p = NonNull::new(p.cast::<u8>())?;
    // SAFETY: `p` is the start of the `len`-byte mapping just made. Advice
    // changes only how the kernel treats it. A refused DONTDUMP costs only
    // core-dump hygiene, so its result is not checked.
    let (wipe, invalid) = unsafe {
        libc::madvise(p.as_ptr().cast(), len, libc::MADV_DONTDUMP);
        let wipe = libc::madvise(p.as_ptr().cast(), len, libc::MADV_WIPEONFORK);
        let invalid = libc::madvise(p.as_ptr().cast(), len, -1);
        (wipe, invalid)
    };
    if wipe != 0 || invalid == 0 {
        WIPE_ON_FORK.store(REFUSED, Relaxed);
        // SAFETY: the mapping was made above and never handed out.
        unsafe { unmap_bytes(p, len) };
        return None;
    }
    let _ = WIPE_ON_FORK.compare_exchange(UNKNOWN, HONOURED, Relaxed, Relaxed);
    Some((p, len))
}

/// # Safety
/// `p` and `len` describe a whole mapping from `map_bytes` that nothing uses any more.
unsafe fn unmap_bytes(p: NonNull<u8>, len: usize) {
    // SAFETY: the caller hands over the whole mapping, so it may be written
    // (zeroed, so no key or output outlives it) and then unmapped.
    unsafe {
        zeroize::Zeroize::zeroize(core::slice::from_raw_parts_mut(p.as_ptr(), len));
        libc::munmap(p.as_ptr().cast(), len);
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(n).ok().filter(|&n| n > 0).unwrap_or(4096)
}

fn rounded(len: usize) -> usize {
    let page = page_size();
    len.div_ceil(page) * page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_kernel_honours_wipe_on_fork() {
        // randp's supported platform is Linux >= 4.14; CI runs on one.
        assert!(honoured());
    }

    #[test]
    fn mapping_is_zeroed_in_a_forked_child() {
        let p = map::<[u8; 100]>().expect("mapping");
        // SAFETY: `p` is a fresh, exclusively owned mapping of 100 bytes.
        unsafe { p.as_ptr().write([0xa5; 100]) };
        // SAFETY: the child only reads memory and calls _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            // SAFETY: reading the mapping, then leaving without unwinding.
            unsafe {
                let zeroed = (*p.as_ptr()).iter().all(|&b| b == 0);
                libc::_exit(if zeroed { 0 } else { 1 });
            }
        }
        let mut status = 0;
        // SAFETY: waiting for the child just forked.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "child saw the parent's bytes");
        // SAFETY: the parent still sees its own bytes, and then releases the mapping.
        unsafe {
            assert_eq!(*p.as_ptr(), [0xa5; 100]);
            unmap(p);
        }
    }
}
