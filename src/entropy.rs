//! The operating system's entropy source, with randp's policy for its
//! failure: the process ends.
//!
//! Entropy comes only from the OS's preferred source (`os`: the getrandom(2)
//! system call on Linux, ProcessPrng on Windows), which reports a failure as
//! an error. This module is the one place that turns it into an abort, with
//! a message on stderr: randp never outputs bytes it could not seed and has
//! no weaker fallback.

use crate::os;
use core::fmt::Write;

/// Fills the `len` bytes at `dst` from the OS, aborting the process if the OS
/// cannot supply them.
///
/// # Safety
/// `dst` is valid for writes of `len` bytes.
pub(crate) unsafe fn os_fill_raw(dst: *mut u8, len: usize) {
    // SAFETY: forwarded from the caller.
    if let Err(e) = unsafe { os::fill_entropy(dst, len) } {
        entropy_failed(e);
    }
}

/// Fills the `len` bytes at `dst` from the kernel's userspace generator
/// with its state at `state` ([`os::fill_from_kernel_rng`]) and returns
/// true, or returns false with nothing written where the process has none;
/// aborts the process if it fails, as for the OS entropy source.
///
/// # Safety
/// As for [`os::fill_from_kernel_rng`].
pub(crate) unsafe fn kernel_rng_fill_raw(state: *mut u8, dst: *mut u8, len: usize) -> bool {
    // SAFETY: forwarded from the caller.
    match unsafe { os::fill_from_kernel_rng(state, dst, len) } {
        None => false,
        Some(Ok(())) => true,
        Some(Err(e)) => entropy_failed(e),
    }
}

/// Fills `dst` from the OS, aborting the process if the OS cannot supply the
/// bytes.
pub(crate) fn os_fill(dst: &mut [u8]) {
    // SAFETY: `dst` is a valid, writable slice.
    unsafe { os_fill_raw(dst.as_mut_ptr(), dst.len()) }
}

/// Aborts the process with the entropy failure message, which names the
/// call and its error (`getrandom: errno 1`).
#[cold]
#[inline(never)]
fn entropy_failed(e: os::EntropyError) -> ! {
    let mut msg = StackMessage::new();
    // An overlong message is cut short, never dropped.
    let _ = writeln!(msg, "randp: the OS entropy source failed ({e}); aborting rather than output predictable bytes");
    os::fatal(msg.as_bytes())
}

/// A message formatted on the stack, cut at its capacity.
struct StackMessage {
    buf: [u8; 256],
    len: usize,
}

impl StackMessage {
    const fn new() -> Self {
        Self { buf: [0; 256], len: 0 }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Write for StackMessage {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let room = self.buf.len() - self.len;
        let n = s.len().min(room);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        if n < s.len() { Err(core::fmt::Error) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_message_cuts_at_capacity() {
        let mut m = StackMessage::new();
        assert!(write!(m, "{}", "x".repeat(300)).is_err());
        assert_eq!(m.as_bytes().len(), 256);
    }

    #[test]
    fn os_fill_fills() {
        let mut a = [0u8; 64];
        let mut b = [0u8; 64];
        os_fill(&mut a);
        os_fill(&mut b);
        assert_ne!(a, [0u8; 64]);
        assert_ne!(a, b);
    }

    #[test]
    fn large_reads_are_completed() {
        // getrandom(2) returns at most 32 MiB - 1 per call: longer reads need
        // the short-read loop.
        let mut big = std::vec![0u8; (32 << 20) + 123];
        os_fill(&mut big);
        assert!(big.chunks_exact(16).all(|c| c != [0u8; 16]));
    }
}
