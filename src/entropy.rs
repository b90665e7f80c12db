//! The operating system's entropy source, and the one way randp gives up.
//!
//! randp never outputs bytes it could not seed: if the OS source fails with
//! anything but EINTR (which the `getrandom` crate retries), the process is
//! aborted with a message on stderr.

use core::fmt::Write;

/// Fills `dst` from the OS (getrandom(2) on Linux, through the `getrandom`
/// crate), aborting the process if the OS cannot supply the bytes.
pub(crate) fn os_fill(dst: &mut [u8]) {
    if let Err(err) = getrandom::fill(dst) {
        let mut msg = StackMessage::new();
        // An overlong message is cut short, never dropped.
        let _ = writeln!(
            msg,
            "randp: the OS entropy source failed ({err}); aborting rather than output predictable bytes"
        );
        fatal(msg.as_bytes());
    }
}

/// Writes `msg` to stderr with a single write(2) and aborts the process.
///
/// Allocates nothing and takes no lock, so it is safe on any path,
/// including a signal handler and a thread being torn down.
pub(crate) fn fatal(msg: &[u8]) -> ! {
    // SAFETY: `msg` is a valid byte slice for its whole length; fd 2 may be
    // closed, in which case write fails harmlessly.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
    }
    std::process::abort()
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
}
