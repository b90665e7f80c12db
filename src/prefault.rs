//! Writing each page of a caller's buffer before a write that cannot fault.
//!
//! A program's memory may fault on its first write and be fixed up by the
//! program's own handler (a page kept read-only until a SIGSEGV handler
//! makes it writable and returns: write tracking, lazily mapped memory, a
//! collector watching its heap). A plain store into it works. Two of
//! randp's writes into a caller's memory would not:
//! - a keystream call that runs with signals blocked (no rseq area, or the
//!   portable backend; see `keystream::signal_frames`): the kernel cannot
//!   deliver a blocked SIGSEGV or SIGBUS, and kills the process instead;
//! - getrandom(2) straight into the caller's memory (no userspace state):
//!   the kernel returns EFAULT, which randp must treat as an entropy failure.
//!
//! So before either, [`touch_pages`] stores a zero byte in every page of
//! the destination: a fault happens there, with signals as the program set
//! them and no key in any register, and its handler runs as for any store.
//! A fault that still comes inside the call (another thread write-protecting
//! the buffer while the call fills it) ends the process, as before.

/// The smallest page size of the supported targets; touching every such
/// stretch reaches every page of a larger size too.
const STRIDE: usize = 4096;

/// Stores a zero byte in every page of the `len` bytes at `dst`, from its
/// first byte on.
///
/// # Safety
/// `dst` is valid for writes of `len` bytes, which the caller is about to
/// overwrite.
#[inline]
pub(crate) unsafe fn touch_pages(dst: *mut u8, len: usize) {
    let mut off = 0;
    while off < len {
        // SAFETY: `off < len`, so the byte is inside the caller's buffer.
        // Volatile, so that the store is made here, not merged with (or
        // dropped before) the writes that follow.
        unsafe { core::ptr::write_volatile(dst.add(off), 0) };
        // The next page's first byte.
        off += STRIDE - (dst as usize + off) % STRIDE;
    }
}
