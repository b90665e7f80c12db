//! The operating system's entropy source, and the one way randp gives up.
//!
//! Entropy comes only from the getrandom(2) system call, made directly, with
//! flags 0: it blocks until the kernel's pool has been initialised (once, early
//! in boot) and never reads a file descriptor, so it works in static binaries,
//! in chroots without /dev, and in daemons that close every descriptor. EINTR
//! is retried and short reads are continued; any other error (ENOSYS under an
//! old kernel or a seccomp filter, EPERM, EFAULT, …) aborts the process with
//! a message on stderr. randp never outputs bytes it could not seed and has no
//! weaker fallback.

use core::fmt::Write;

/// Fills the `len` bytes at `dst` from getrandom(2), aborting the process if
/// the kernel cannot supply them.
///
/// # Safety
/// `dst` is valid for writes of `len` bytes.
pub(crate) unsafe fn os_fill_raw(dst: *mut u8, len: usize) {
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
            entropy_failed(errno);
        }
    }
}

/// Fills `dst` from getrandom(2), aborting the process if the kernel cannot
/// supply the bytes.
pub(crate) fn os_fill(dst: &mut [u8]) {
    // SAFETY: `dst` is a valid, writable slice.
    unsafe { os_fill_raw(dst.as_mut_ptr(), dst.len()) }
}

fn last_errno() -> i32 {
    // SAFETY: __errno_location returns this thread's errno slot.
    unsafe { *libc::__errno_location() }
}

#[cold]
#[inline(never)]
fn entropy_failed(errno: i32) -> ! {
    let mut msg = StackMessage::new();
    // An overlong message is cut short, never dropped.
    let _ = writeln!(
        msg,
        "randp: the OS entropy source failed (getrandom: errno {errno}); aborting rather than output predictable bytes"
    );
    fatal(msg.as_bytes())
}

/// Writes `msg` to stderr with a single write(2) and aborts the process.
///
/// Allocates nothing and takes no lock, so it is safe on any path,
/// including a signal handler and a thread being torn down.
pub(crate) fn fatal(msg: &[u8]) -> ! {
    // SAFETY: `msg` is a valid byte slice for its whole length; fd 2 may be
    // closed, in which case write fails harmlessly. abort never returns.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
        libc::abort()
    }
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
