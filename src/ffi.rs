//! The C ABI: planet36/randp's functions, plus the entry points the Go module
//! calls. Every function here is safe to call from any thread, at any time;
//! none unwinds into its caller (a panic aborts the process with a message).

use core::ffi::{c_int, c_void};

/// Returned by `randp_read` when `buf` is NULL and `len` is not zero.
pub const RANDP_ERR_NULL: c_int = 1;

/// Runs `f`, turning a panic into an abort with a message, so that no panic
/// ever unwinds into C or Go.
#[inline(always)]
fn guard<R>(f: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => crate::entropy::fatal(b"randp: internal panic at the C ABI; aborting\n"),
    }
}

/// Fills `buf` with `n` random bytes, like `arc4random_buf`.
///
/// `n == 0` does nothing (and `buf` may then be NULL). A NULL `buf` with
/// `n > 0` aborts the process with a message.
///
/// # Safety
/// `buf` is NULL or valid for writes of `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn randp_bytes(buf: *mut c_void, n: usize) {
    guard(|| {
        if n == 0 {
            return;
        }
        if buf.is_null() {
            crate::entropy::fatal(b"randp: randp_bytes called with a NULL buffer and a non-zero length; aborting\n");
        }
        // SAFETY: non-null, and the caller promises `n` writable bytes.
        crate::fill_bytes(unsafe { core::slice::from_raw_parts_mut(buf.cast::<u8>(), n) });
    })
}

/// Returns a uniform random `uint8_t`.
#[unsafe(no_mangle)]
pub extern "C" fn randp_u8() -> u8 {
    guard(crate::u8)
}

/// Returns a uniform random `uint16_t`.
#[unsafe(no_mangle)]
pub extern "C" fn randp_u16() -> u16 {
    guard(crate::u16)
}

/// Returns a uniform random `uint32_t`, like `arc4random`.
#[unsafe(no_mangle)]
pub extern "C" fn randp_u32() -> u32 {
    guard(crate::u32)
}

/// Returns a uniform random `uint64_t`.
#[unsafe(no_mangle)]
pub extern "C" fn randp_u64() -> u64 {
    guard(crate::u64)
}

/// Returns a uniform random `uint32_t` less than `upper_bound`, without
/// modulo bias, like `arc4random_uniform`. If `upper_bound` is 0 or 1, returns 0.
#[unsafe(no_mangle)]
pub extern "C" fn randp_lt_u32(upper_bound: u32) -> u32 {
    guard(|| crate::lt_u32(upper_bound))
}

/// Returns a uniform random `uint64_t` less than `upper_bound`, without
/// modulo bias. If `upper_bound` is 0 or 1, returns 0.
#[unsafe(no_mangle)]
pub extern "C" fn randp_lt_u64(upper_bound: u64) -> u64 {
    guard(|| crate::lt_u64(upper_bound))
}

/// Returns a uniform random non-negative `int64_t` (63 random bits), as Go's
/// `math/rand.Source.Int63` does.
#[unsafe(no_mangle)]
pub extern "C" fn randp_int63() -> i64 {
    guard(|| (crate::u64() >> 1) as i64)
}

/// Returns a uniform random `uint64_t`; the same as `randp_u64`, under the
/// name the Go module uses.
#[unsafe(no_mangle)]
pub extern "C" fn randp_uint64() -> u64 {
    guard(crate::u64)
}

/// Fills `buf` with `len` random bytes and returns 0.
///
/// `len == 0` does nothing and returns 0 (`buf` may then be NULL). A NULL
/// `buf` with `len > 0` writes nothing and returns `RANDP_ERR_NULL`.
///
/// # Safety
/// `buf` is NULL or valid for writes of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn randp_read(buf: *mut c_void, len: usize) -> c_int {
    guard(|| {
        if len == 0 {
            return 0;
        }
        if buf.is_null() {
            return RANDP_ERR_NULL;
        }
        // SAFETY: non-null, and the caller promises `len` writable bytes.
        crate::fill_bytes(unsafe { core::slice::from_raw_parts_mut(buf.cast::<u8>(), len) });
        0
    })
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

    /// The child half of `panic_becomes_abort_with_message`: only acts when
    /// re-run by it.
    #[test]
    fn panic_child() {
        if std::env::var_os("RANDP_TEST_PANIC_CHILD").is_some() {
            guard(|| -> u64 { panic!("injected panic") });
            std::process::exit(0); // unreachable unless the guard let it through
        }
    }

    #[test]
    fn panic_becomes_abort_with_message() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "ffi::tests::panic_child", "--nocapture", "--test-threads=1"])
            .env("RANDP_TEST_PANIC_CHILD", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(libc::SIGABRT), "status {:?}, stderr {stderr}", out.status);
        assert!(stderr.contains("randp: internal panic at the C ABI; aborting"), "stderr: {stderr}");
    }
}
