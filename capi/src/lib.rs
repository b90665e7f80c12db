//! randp's C library: planet36/randp's functions, plus the entry points the
//! Go module calls, over the `randp` crate. Every function here is safe to
//! call from any thread and from a signal handler, as the crate's draws are.
//!
//! The library is `no_std` and built with `panic = "abort"`: it links nothing
//! but libc (no libgcc_s, no unwinder), and nothing in it unwinds into C or
//! Go. Should a panic ever happen, the handler below writes a message to
//! stderr and aborts the process.

#![cfg_attr(not(test), no_std)]

use core::ffi::{c_int, c_void};
use randp_core as randp;

/// Returned by `randp_read` when `buf` is NULL and `len` is not zero.
pub const RANDP_ERR_NULL: c_int = 1;

/// Turns a panic into an abort with a message: nothing unwinds into C or Go.
#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    fatal(b"randp: internal panic in the C library; aborting\n")
}

/// Panics: only in the `panic-probe` test build, to show that a panic ends in
/// the handler above and never unwinds into the caller.
#[cfg(feature = "panic-probe")]
#[unsafe(no_mangle)]
pub extern "C" fn randp_test_panic(depth: u32) -> u32 {
    if depth < 1000 { panic!("randp_test_panic") } else { depth }
}

/// Writes `msg` to stderr and ends the process, as the crate does when the
/// OS entropy source fails (Linux: one write(2), then abort(3); Windows: one
/// WriteFile, then `__fastfail`).
fn fatal(msg: &[u8]) -> ! {
    randp::__abort_with_message(msg)
}

/// Fills `buf` with `n` random bytes, like `arc4random_buf`.
///
/// `n == 0` does nothing (and `buf` may then be NULL). A NULL `buf` with
/// `n > 0` aborts the process with a message.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
///
/// # Safety
/// Unless `n` is 0 or `buf` is NULL, `buf` must point to `n` bytes of
/// writable memory, which are overwritten; nothing outside them is written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn randp_bytes(buf: *mut c_void, n: usize) {
    if n == 0 {
        return;
    }
    if buf.is_null() {
        fatal(b"randp: randp_bytes called with a NULL buffer and a non-zero length; aborting\n");
    }
    // SAFETY: non-null, and the caller promises `n` writable bytes.
    randp::fill_bytes(unsafe { core::slice::from_raw_parts_mut(buf.cast::<u8>(), n) });
}

/// Returns a uniform random `uint8_t`.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
#[unsafe(no_mangle)]
pub extern "C" fn randp_u8() -> u8 {
    randp::u8()
}

/// Returns a uniform random `uint16_t`.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
#[unsafe(no_mangle)]
pub extern "C" fn randp_u16() -> u16 {
    randp::u16()
}

/// Returns a uniform random `uint32_t`, like `arc4random`.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
#[unsafe(no_mangle)]
pub extern "C" fn randp_u32() -> u32 {
    randp::u32()
}

/// Returns a uniform random `uint64_t`.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
#[unsafe(no_mangle)]
pub extern "C" fn randp_u64() -> u64 {
    randp::u64()
}

/// Returns a uniform random `uint32_t` less than `upper_bound`, without
/// modulo bias, like `arc4random_uniform`. If `upper_bound` is 0 or 1,
/// returns 0.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
#[unsafe(no_mangle)]
pub extern "C" fn randp_lt_u32(upper_bound: u32) -> u32 {
    randp::lt_u32(upper_bound)
}

/// Returns a uniform random `uint64_t` less than `upper_bound`, without
/// modulo bias. If `upper_bound` is 0 or 1, returns 0.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
#[unsafe(no_mangle)]
pub extern "C" fn randp_lt_u64(upper_bound: u64) -> u64 {
    randp::lt_u64(upper_bound)
}

/// Returns a uniform random `int64_t` in [0, 2^63): 63 random bits, the
/// top bit clear. (It exists for Go's `math/rand.Source`, whose `Int63`
/// returns such a value.)
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
#[unsafe(no_mangle)]
pub extern "C" fn randp_int63() -> i64 {
    (randp::u64() >> 1) as i64
}

/// Returns a uniform random `uint64_t`; the same as `randp_u64`, under the
/// name the Go module uses.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
#[unsafe(no_mangle)]
pub extern "C" fn randp_uint64() -> u64 {
    randp::u64()
}

/// Returns 1 if this process reads a VM generation counter, else 0 (always
/// 0 on Windows). The counter is looked for once per process.
///
/// 1: the process can read the VMClock device (Linux 6.13+,
/// `/dev/vmclock0`, which only root may open by default). Every thread
/// then compares the counter before it hands out any byte (from its first
/// reseed at which the counter reads), so a clone of a restored VM snapshot
/// repeats none of its original's output after the call in flight at the
/// snapshot. The library's draws then skip their fast path and cost several
/// times as much.
///
/// 0: no counter; the clones of a restored snapshot may repeat some output
/// (how much: "Not protected" in SECURITY.md,
/// <https://github.com/randp/randp/blob/main/SECURITY.md#not-protected>).
///
/// A caller that keeps the library's output in a buffer of its own, to hand
/// out later, should keep none there while this returns 1, and call the
/// library for each value instead: bytes kept outside the library escape
/// the check, and a clone would repeat them.
///
/// Safe from any thread and from a signal handler; it draws nothing, reads
/// no entropy and never aborts.
#[unsafe(no_mangle)]
pub extern "C" fn randp_vm_generation_readable() -> c_int {
    c_int::from(randp::vm_generation_readable())
}

/// Fills `buf` with `len` random bytes and returns 0.
///
/// `len == 0` does nothing and returns 0 (`buf` may then be NULL). A NULL
/// `buf` with `len > 0` writes nothing and returns `RANDP_ERR_NULL`. That is
/// the only non-zero result: a failure of the OS entropy source is never
/// returned, it ends the process.
///
/// Safe from any thread and from a signal handler; a forked child never
/// repeats the parent's output; if the OS entropy source fails, the process
/// aborts with a message.
///
/// # Safety
/// Unless `len` is 0 or `buf` is NULL, `buf` must point to `len` bytes of
/// writable memory, which are overwritten; nothing outside them is written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn randp_read(buf: *mut c_void, len: usize) -> c_int {
    if len == 0 {
        return 0;
    }
    if buf.is_null() {
        return RANDP_ERR_NULL;
    }
    // SAFETY: non-null, and the caller promises `len` writable bytes.
    randp::fill_bytes(unsafe { core::slice::from_raw_parts_mut(buf.cast::<u8>(), len) });
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ptr;

    #[test]
    fn read_rejects_null_and_accepts_empty() {
        // SAFETY: NULL with a non-zero length is the documented error case.
        assert_eq!(unsafe { randp_read(ptr::null_mut(), 8) }, RANDP_ERR_NULL);
        // SAFETY: a zero length touches nothing.
        assert_eq!(unsafe { randp_read(ptr::null_mut(), 0) }, 0);
        // SAFETY: a zero length touches nothing.
        unsafe { randp_bytes(ptr::null_mut(), 0) };
    }

    #[test]
    fn read_and_bytes_fill_exactly_the_buffer() {
        let mut buf = [0u8; 66];
        // SAFETY: 64 writable bytes from index 1.
        assert_eq!(unsafe { randp_read(buf[1..].as_mut_ptr().cast(), 64) }, 0);
        assert_eq!((buf[0], buf[65]), (0, 0));
        assert_ne!(buf[1..65], [0; 64]);
        let mut buf2 = [0u8; 66];
        // SAFETY: 64 writable bytes from index 1.
        unsafe { randp_bytes(buf2[1..].as_mut_ptr().cast(), 64) };
        assert_eq!((buf2[0], buf2[65]), (0, 0));
        assert_ne!(buf2[1..65], buf[1..65]);
    }

    #[test]
    fn int63_is_never_negative_and_bounds_hold() {
        for _ in 0..100_000 {
            assert!(randp_int63() >= 0);
        }
        let top_bits = (0..256).fold(0, |acc, _| acc | randp_int63());
        assert_eq!(top_bits.leading_zeros(), 1, "bit 62 is used");
        for b in [0, 1, 2, 3, 1000, u32::MAX] {
            assert!(randp_lt_u32(b) < b.max(1));
        }
        for b in [0, 1, 2, 3, 1000, u64::MAX] {
            assert!(randp_lt_u64(b) < b.max(1));
        }
        let _ = (randp_u8(), randp_u16(), randp_u32(), randp_u64(), randp_uint64());
    }

    /// The committed include/randp.h is exactly what cbindgen generates from
    /// this file. `make header` (RANDP_BLESS=1) rewrites it. With the
    /// feature `header` only (make test-rust turns every feature on).
    #[test]
    #[cfg(feature = "header")]
    fn committed_header_is_current() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/randp.h"));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../include/randp.h");
        if std::env::var_os("RANDP_BLESS").is_some() {
            std::fs::write(path, generated).expect("write include/randp.h");
        }
        let committed = std::fs::read_to_string(path).expect("read include/randp.h");
        assert!(committed == generated, "include/randp.h is stale: run `make header` and commit it");
    }
}
